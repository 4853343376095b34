/* diff_darshan.h: recorder-diff --darshan LOG TRACE, what its two files
 * share: the counters Darshan's POSIX, MPI-IO and STDIO modules would keep of
 * a run of the traced program (diff_darshan.c counts them over the trace's
 * records, as darshan-runtime/lib/darshan-{posix,mpiio,stdio}.c do), and
 * their comparison with a Darshan log's (diff_darshan_cmp.c). Private to
 * recorder-diff. */
#ifndef RECORDER_DIFF_DARSHAN_H
#define RECORDER_DIFF_DARSHAN_H

#include "diff.h"
#include "recorder_import.h"

#include <uthash.h>

enum { DD_POSIX, DD_MPIIO, DD_STDIO, DD_NMODULES };
#define DD_MAX_COUNTERS 48
#define DD_COMMON_MAX 32 /* DARSHAN_COMMON_VAL_MAX_RUNTIME_COUNT: the distinct sizes a record tracks */

/* How a shared record (rank -1) reduces a counter over the ranks. */
enum { DD_SUM, DD_MAX, DD_ACCESS, DD_ACCESS_COUNT };

typedef struct dd_counter {
    const char *name; /* "POSIX_OPENS" */
    int how;          /* DD_SUM, ... */
} dd_counter;

/* One module's compared counters, in our order. */
typedef struct dd_module {
    const char *name; /* "POSIX" */
    unsigned darshan; /* RI_DARSHAN_POSIX, ... */
    unsigned n;
    dd_counter c[DD_MAX_COUNTERS];
    int access; /* index of ACCESS1_ACCESS (then 2..4, then the 4 counts), -1 if none */
} dd_module;

const dd_module *dd_module_of(int module);

/* One file of one module on one rank, with the state Darshan keeps beside
 * its counters. */
typedef struct dd_record {
    int64_t c[DD_MAX_COUNTERS];
    int64_t offset, last_byte_read, last_byte_written;
    int last_io; /* 0, 1 read, 2 write */
    int64_t cv_val[DD_COMMON_MAX], cv_freq[DD_COMMON_MAX];
    int ncv;
} dd_record;

/* A file of a module: its records on each rank of the trace (NULL: none). */
typedef struct dd_file {
    char *key; /* module digit, ':', normalized path */
    int module;
    const char *path;
    dd_record **rank; /* nranks */
    int matched;      /* a log record named it */
    UT_hash_handle hh;
} dd_file;

typedef struct dd_trace {
    uint32_t nranks;
    dd_file *files;
} dd_trace;

/* Counts the trace's records (every depth, every thread) into files. 0, or
 * -1 with err. */
int dd_count_trace(rec_trace *t, dd_trace *out, rec_error *err);
void dd_trace_free(dd_trace *t);
/* The counters of a rank -1 record: the ranks' records reduced as Darshan
 * reduces shared records (sums, maxima, the common access sizes merged). */
void dd_reduce(int module, dd_record *const *ranks, uint32_t n, dd_record *out);
/* Darshan's DARSHAN_UPDATE_COMMON_VAL_COUNTERS on a record's 4 values and counts. */
void dd_common_update(int64_t *vals, int64_t *cnts, int64_t val, int64_t count, int add);

#endif
