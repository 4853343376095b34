/* recorder_analysis.h: the per-rank I/O model every analysis needs, on the
 * format's reader API (librecorder-analysis).
 *
 * A trace is walked rank by rank. For each record the model resolves what an
 * analysis asks about a call but the record does not say directly:
 *
 *   - the file it touches: handles (fds, FILE *, DIR *, MPI_File, HDF5 ids)
 *     are mapped to the path of the call that created them (open, openat
 *     relative to its dirfd, creat, fopen, fdopen and dup* through the fd
 *     they copy, MPI_File_open, H5Fcreate/H5Fopen; HDF5 groups, datasets and
 *     attributes through their location to the file, with their object name);
 *   - the byte range of data calls: explicit offsets (pread, pwrite, the
 *     MPI-IO _at calls through the view), else tracked file positions
 *     (read/write/readv/writev/fread/fwrite/... advance them, lseek/fseek/
 *     rewind/ftell set them, O_APPEND and "a" streams write at the end of
 *     the file as far as this rank knows it, MPI-IO individual file pointers
 *     in etypes of the current view);
 *   - bytes moved, read or write, layer, depth, the size of the call's
 *     subtree (children come in the stream before their parent), and times
 *     both per rank and on the common time line of all ranks;
 *   - open sessions: every opening call starts a session that ends when its
 *     last handle is closed (dup'ed fds share one), so analyses can tell
 *     accesses that a close-to-open ordering separates.
 *
 * Memory grows with the open handles, files and sessions of a rank, never
 * with its records. Approximations: the shared file pointer of MPI-IO is
 * unknown (offset -1); a view's filetype is followed exactly when its data
 * is one contiguous block per instance (contiguous, vector/hvector with one
 * block or no gaps, indexed with one block, 1-block subarrays, resized, dup)
 * and the access stays inside one instance; otherwise the access is taken
 * as the contiguous range [disp + offset * etype_size, + bytes) and flagged
 * inexact (offset_exact = 0); darray and other filetypes are never followed.
 * A file's end (O_APPEND, SEEK_END, MPI_MODE_APPEND) is the largest of what
 * this rank wrote, stat'ed, truncated or was told by lseek, not what other
 * ranks wrote. Files are told apart by path string: a file renamed, or
 * reached through two paths, counts as two. */
#ifndef RECORDER_ANALYSIS_H
#define RECORDER_ANALYSIS_H

#include <stdint.h>
#include <stdio.h>

#include "recorder_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a call does, as far as the analyses care. */
typedef enum ra_op {
    RA_OP_OTHER = 0, /* anything else: MPI communication, property lists, seeks ... */
    RA_OP_READ,      /* moves data from a file (REC_FN_READ) */
    RA_OP_WRITE,     /* moves data to a file (REC_FN_WRITE) */
    RA_OP_OPEN,      /* creates a handle on a file: starts a session */
    RA_OP_CLOSE,     /* releases a handle on a file */
    RA_OP_META,      /* other file system metadata (stat, mkdir, unlink ...) */
} ra_op;

typedef struct ra_trace ra_trace;

/* One resolved call. Pointers stay valid until the next ra_rank_next. */
typedef struct ra_event {
    const rec_record *rec;
    const rec_func_desc *func;
    uint32_t rank;
    uint64_t index; /* position of the record in its rank's stream, from 0 */
    unsigned layer; /* rec_layer */
    unsigned depth; /* 0: the application called it */
    uint32_t thread;
    ra_op op;
    int failed;           /* the call reported failure */
    int console;          /* on stdin/stdout/stderr */
    int leaf_data;        /* a data call with no data call below it: the bytes reached
                             the lowest traced layer here */
    int file;             /* ra_file_path() index of the file it touches, -1: none */
    const char *object;   /* HDF5 object (dataset, group, attribute) name, or NULL */
    int64_t offset;       /* data calls: first byte in the file, -1 if unknown */
    int64_t bytes;        /* data calls: bytes moved (0 if unknown or failed) */
    int offset_exact;     /* 0: offset approximate (non-contiguous MPI-IO view) */
    uint64_t session;     /* per-rank open session of the handle it used, 0: none */
    int session_end;      /* RA_OP_CLOSE: the session ended with this call */
    uint64_t ticks;       /* tend - tstart */
    double tstart, tend;  /* seconds since the rank's tick 0 */
    double gstart, gend;  /* seconds on the time line of all ranks (see ra_rank_time_offset) */
    uint32_t children;    /* direct children (depth + 1, just before it in the stream) */
    uint64_t descendants; /* its subtree: the records of its thread just before it */
} ra_event;

/* Opening a trace for analysis. The file table is shared by all ranks (paths
 * interned once), so files compare as integers across ranks. */
ra_trace *ra_trace_open(const char *dir, rec_error *err);
void ra_trace_close(ra_trace *t);
rec_trace *ra_trace_rec(ra_trace *t);
uint32_t ra_trace_nranks(const ra_trace *t);
double ra_trace_resolution(const ra_trace *t);
/* Seconds from the start of the common time line (the earliest rank's tick
 * 0) to the rank's tick 0, from the ranks' N.meta (a rank without one is
 * taken to start with the trace). The first call reads every N.meta. */
double ra_rank_time_offset(ra_trace *t, uint32_t rank);
/* Records the rank holds according to N.meta (0 if unknown; for a merged
 * trace, the merged stream's records). */
uint64_t ra_rank_record_count(ra_trace *t, uint32_t rank);

size_t ra_file_count(const ra_trace *t);
const char *ra_file_path(const ra_trace *t, int file);
int ra_file_intern(ra_trace *t, const char *path);
/* Pseudo-paths of the terminal streams, as ra_file_path shows them. */
#define RA_PATH_STDIN "<stdin>"
#define RA_PATH_STDOUT "<stdout>"
#define RA_PATH_STDERR "<stderr>"

/* ---- walking one rank ---- */
enum {
    RA_WALK_NO_OFFSETS = 1u << 0, /* skip position tracking (summaries need none) */
    RA_WALK_NO_TREE = 1u << 1,    /* skip children, descendants and leaf_data (left 0) */
};
typedef struct ra_rank ra_rank;
ra_rank *ra_rank_open(ra_trace *t, uint32_t rank, unsigned flags, rec_error *err);
/* 1: *ev holds the next call; 0: end of the rank; -1: error (err). */
int ra_rank_next(ra_rank *w, ra_event *ev, rec_error *err);
uint64_t ra_rank_records(const ra_rank *w);             /* records returned so far */
int ra_rank_complete(const ra_rank *w);                 /* the stream ended with its end marker */
void ra_rank_counts(const ra_rank *w, rec_counts *out); /* compression counters so far */
/* The path string of a PATH value of the current record. */
const char *ra_rank_path(const ra_rank *w, int64_t id);
void ra_rank_close(ra_rank *w);

/* ---- walking many ranks with callbacks ---- */
typedef struct ra_progress ra_progress;
typedef struct ra_visitor {
    void *ctx;
    int (*begin_rank)(void *ctx, ra_trace *t, uint32_t rank);           /* optional */
    int (*event)(void *ctx, ra_trace *t, const ra_event *ev);           /* non-zero stops */
    int (*end_rank)(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank); /* optional */
} ra_visitor;
/* Walks ranks[0..n) (NULL: all ranks) in order. Errors name the tool. */
int ra_walk(ra_trace *t, const uint32_t *ranks, size_t n, unsigned flags, const ra_visitor *v, ra_progress *p,
            rec_error *err);

/* ---- progress on stderr ----
 * "TOOL: rank 12/64 (3.2 M records)..." once the walk has run for a second,
 * refreshed at most once a second; only when enabled (a terminal, or the
 * tool's --progress). */
struct ra_progress {
    const char *tool;
    int enabled, tty, shown;
    double start, last;
    uint64_t records, next_check;
};
void ra_progress_init(ra_progress *p, const char *tool, int forced);
void ra_progress_update(ra_progress *p, uint32_t rank, uint32_t nranks);
static inline void ra_progress_tick(ra_progress *p, uint32_t rank, uint32_t nranks)
{
    if (p && ++p->records >= p->next_check)
        ra_progress_update(p, rank, nranks);
}
void ra_progress_done(ra_progress *p);

/* ---- small helpers the tools share ---- */
/* "12.3 KiB" style; buf of at least 16 bytes. */
const char *ra_human_bytes(double bytes, char *buf, size_t cap);
/* Writes s as a JSON string (with quotes) / as HTML text. */
void ra_json_string(FILE *out, const char *s, size_t len);
void ra_html_text(FILE *out, const char *s);
/* Writes s as a CSV field, quoted when needed. */
void ra_csv_field(FILE *out, const char *s);

/* ---- a map from 64-bit keys to 64-bit values (open addressing) ---- */
typedef struct ra_map {
    uint64_t *keys, *vals;
    size_t cap, count; /* cap: 0 or a power of two */
} ra_map;

#define RA_MAP_EMPTY UINT64_MAX /* the one key the map cannot hold */
uint64_t *ra_map_find(const ra_map *m, uint64_t key);
/* The value slot of key, inserted with value 0 if absent (*fresh = 1). */
uint64_t *ra_map_insert(ra_map *m, uint64_t key, int *fresh);
int ra_map_remove(ra_map *m, uint64_t key, uint64_t *old);
void ra_map_free(ra_map *m);
/* Iteration: i from 0 while i < m->cap; slots with keys[i] == RA_MAP_EMPTY are free. */

/* Allocation that cannot fail: out of memory, they say so and abort. */
void *ra_xmalloc(size_t n);
void *ra_xcalloc(size_t n, size_t size);
void *ra_xrealloc(void *p, size_t n);
char *ra_xstrdup(const char *s);

#ifdef __cplusplus
}
#endif
#endif
