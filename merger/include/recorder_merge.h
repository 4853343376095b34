/* recorder_merge.h: merging per-rank traces into one (recorder-merge).
 *
 * The windowed signature-hash merger of Behzad et al. ("Automatic Generation
 * of I/O Kernels for HPC Applications", section III-B): a pointer per rank,
 * a hash table of the signatures of the next `window` records of every rank,
 * and for each rank's head the distance to its nearest match elsewhere. A
 * record's signature is its function, call depth and thread, and its
 * significant arguments (functions/ *.def SIG flags), with handles taken by
 * what created them and digits masked in paths and names, so that SPMD calls
 * match although their per-rank values differ.
 *
 * The paper's rule: when every head matches, emit one merged record; else
 * emit the head with the largest distance alone. The default rule does
 * better for traces where a subset of ranks makes some calls (group leaders,
 * rank 0): it merges the largest *complete* group, a signature whose heads
 * are every rank that holds it in its window, so nothing it could still
 * match is left behind; the paper's rule decides only when no group is
 * complete. Both are amortised linear in the number of records and never
 * look at timestamps. */
#ifndef RECORDER_MERGE_H
#define RECORDER_MERGE_H

#include <stdint.h>

#include "recorder_format.h"

typedef struct rec_merge_options {
    unsigned window;  /* records per rank under consideration; default 200 */
    int paper_rule;   /* 1: the paper's rule only (no group merges) */
    int progress;     /* 1: progress on stderr after a second */
    const char *tool; /* name for progress lines */
    /* A part of a parallel merge (recorder-merge under mpirun): only the
     * ranks first_rank .. first_rank + rank_count - 1 (rank_count 0: every
     * rank), times on the clock starting at start_ns (0: the earliest merged
     * rank's start), and with `part` no HDF5 skeletons or stored filter data
     * (the final merge copies those). */
    uint32_t first_rank, rank_count;
    uint64_t start_ns;
    int part;
    /* Times to within this many seconds (0: exact): a rank's start or end time within it of its merged
     * record's own (its lowest rank's) is stored as that, so that the per-rank times of calls the ranks
     * made together cost nothing a rank; the others are kept exactly. */
    double time_resolution;
} rec_merge_options;

typedef struct rec_merge_stats {
    uint32_t nranks;
    uint64_t records_in;       /* all ranks' records */
    uint64_t records_out;      /* merged records written */
    uint64_t merged_all;       /* records standing for every rank */
    uint64_t merged_group;     /* records standing for 2 .. nranks-1 ranks */
    uint64_t single;           /* records of one rank */
    uint64_t max_rank_records; /* the longest rank's record count */
    uint32_t unfinished;       /* ranks whose stream ends without its end marker (a crash, a kill) */
    uint64_t unfinished_after; /* merged records written up to the first that holds such a stream's last record */
    uint64_t fallbacks;        /* steps decided by the distance rule */
    double seconds;
} rec_merge_stats;

void rec_merge_options_init(rec_merge_options *o);
/* Merges the per-rank trace in `in_dir` into the merged trace `out_dir`
 * (created if missing). 0, or -1 with err naming the file and reason. */
int rec_merge_traces(const char *in_dir, const char *out_dir, const rec_merge_options *o,
                     rec_merge_stats *stats, rec_error *err);
/* The same into a new directory under $TMPDIR (else /tmp), named after
 * o->tool, for a tool that reads the merged trace once: scratch (cap bytes)
 * gets its path, for rec_merge_remove_dir. 0, or -1 with err (nothing left). */
int rec_merge_to_scratch(const char *in_dir, const rec_merge_options *o, char *scratch, size_t cap,
                         rec_merge_stats *stats, rec_error *err);
/* Removes a directory and everything below it. */
void rec_merge_remove_dir(const char *dir);

/* Merges the merged traces `parts` of consecutive blocks of in_dir's ranks
 * (each written by rec_merge_traces with a block, or by this function), in
 * rank order, into out_dir: the records of the blocks that are the same call
 * become one, with the rule and window of rec_merge_traces, each part's
 * records staying in their order. Unless o->part, out_dir is then in_dir's
 * merged trace as rec_merge_traces writes it. 0, or -1 with err. */
int rec_merge_combine(const char *in_dir, const char *const *parts, unsigned nparts, const char *out_dir,
                      const rec_merge_options *o, rec_merge_stats *stats, rec_error *err);

#endif
