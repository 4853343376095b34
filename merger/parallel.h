/* parallel.h: recorder-merge's driver under mpirun (parallel.c). Internal
 * to merger/. */
#ifndef RECORDER_MERGER_PARALLEL_H
#define RECORDER_MERGER_PARALLEL_H

#include "recorder_merge.h"

/* 1 when an MPI launcher started this process (its environment says so). */
int merge_launched_by_mpi(void);
/* Merges in_dir into out_dir on every process of MPI_COMM_WORLD (MPI is
 * initialised); process 0 prints the summary and any error. The exit status. */
int merge_parallel(const char *in_dir, const char *out_dir, const rec_merge_options *o, int quiet);
/* recorder-merge's summary line. */
void merge_print_summary(const char *tool, const rec_merge_stats *st, const char *out_dir);

#endif
