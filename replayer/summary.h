/* summary.h: the report recorder-replay prints at the end. Internal. */
#ifndef RECORDER_REPLAY_SUMMARY_H
#define RECORDER_REPLAY_SUMMARY_H

#include "replay.h"

/* What rank 0's loader pre-created (from its PREP message). An HDF5 input
 * is made whole from the skeleton the tracer captured of it, else it is
 * left out and the HDF5 calls on it are skipped. */
enum { RP_INPUT_PLAIN, RP_INPUT_HDF5, RP_INPUT_HDF5_MADE }; /* rp_input.hdf5 */
enum { RP_INPUT_FILE, RP_INPUT_DIR, RP_INPUT_LINK };        /* rp_input.is_dir on the wire */
typedef struct rp_input {
    char *key;
    int64_t size;
    int is_dir, hdf5, link;
} rp_input;

typedef struct rp_prep_report {
    size_t ninputs, nwarnings;
    rp_input *inputs;
    char **warnings;
} rp_prep_report;

/* A report's text, grown as lines are added (printf's format, no stdio: a
 * traced replay records only the replayed calls). */
typedef struct rp_report {
    char *p;
    size_t n, cap;
} rp_report;
void rp_report_add(rp_report *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Collective over MPI_COMM_WORLD (PMPI, untraced): sums every rank's
 * statistics on rank 0, which gets the report's text (malloc'd) in *text;
 * the others get NULL. *mismatched: calls that differ, over all ranks. */
void rp_summary(rp_ctx *x, double replay_time, const rp_prep_report *prep, char **text, uint64_t *mismatched);

#endif
