/* diff.h: the pieces of recorder-diff (see diff_main.c for what it compares
 * and why). Private to the tool: nothing here is a public API. */
#ifndef RECORDER_DIFF_H
#define RECORDER_DIFF_H

#include "recorder_facts.h"
#include "recorder_format.h"

#include <stdint.h>
#include <stdio.h>

#define DIFF_TOOL "recorder-diff"
#define DIFF_PATH_MAX 8192
#define DIFF_MAX_THREADS 1024

/* ---- paths (diff_paths.c) ---- */

/* One prefix mapping from A's file names to B's: OLD itself and everything
 * below it becomes NEW and the same relative rest. An empty OLD re-roots
 * every path under NEW the way the replayer and generated kernels do
 * ("/a/b" -> "NEW/a/b", "x/y" -> "NEW/x/y"). */
typedef struct diff_mapping {
    char *old_prefix, *new_prefix; /* normalized */
} diff_mapping;

typedef struct diff_paths {
    diff_mapping *maps;
    size_t nmaps;
    int active; /* some mapping can change a path */
} diff_paths;

/* OLD=NEW from the command line (OLD may be empty); -1 if malformed. */
int diff_paths_add(diff_paths *p, const char *old_prefix, const char *new_prefix);
/* A's (normalized) path as B should name it. */
void diff_path_map(const diff_paths *p, const char *a, char *out, size_t cap);
/* Infers one mapping from a pair of corresponding paths that differ; returns
 * 0 and fills p, or -1 when the pair shows no re-rooting (no common tail). */
int diff_paths_infer(diff_paths *p, const char *a, const char *b);
/* "re-rooted under "P"" or ""OLD" -> "NEW"", for the report. */
void diff_paths_describe(const diff_paths *p, char *out, size_t cap);
void diff_paths_free(diff_paths *p);

/* ---- options ---- */
typedef struct diff_options {
    int counters_only, all_mpi, threads, ignore_handles, no_map, explicit_map;
    uint64_t max_diffs; /* 0: no limit */
} diff_options;

/* ---- per-file counters (diff_files.c) ---- */
enum { DIFF_OPENS, DIFF_CLOSES, DIFF_READS, DIFF_WRITES, DIFF_META, DIFF_OTHER, DIFF_BYTES_READ,
       DIFF_BYTES_WRITTEN, DIFF_NCOUNTERS };

typedef struct diff_file diff_file; /* one file: both sides' counters (uthash entry) */
struct diff_handle;
struct diff_request;

/* ---- one side of the comparison: a trace and its cursor on one rank ---- */
typedef struct diff_side {
    int which;           /* 0: A, 1: B */
    const char *label;   /* "A" or "B" */
    rec_trace *trace;
    const rec_table *table;
    uint32_t nranks;
    rec_cursor *cursor;  /* the rank being walked */
    uint32_t rank;
    uint64_t calls;      /* top-level I/O calls returned so far on this rank */
    int tracking;        /* follow handles to their files (and paths relative to directory fds) */
    int counting;        /* account calls into the per-file counters (needs tracking) */
    int64_t thread;      /* the thread whose calls are walked; -1: every thread */
    struct diff_handle *handles;   /* handle -> file, while the handle lives */
    struct diff_request *requests; /* requests that nonblocking MPI-IO calls started */
    rf_special *special;           /* handles of calls on /dev, /proc and /sys, this rank */
} diff_side;

enum { DIFF_MAX_STARTED = 4096 };

typedef struct diff_ctx {
    diff_options opt;
    diff_paths paths;
    diff_side side[2];
    diff_file *rank_files;  /* this rank's files */
    diff_file *total_files; /* every rank's, summed */
    uint64_t differences;   /* reported so far */
    uint64_t calls;         /* top-level I/O calls compared (A's count) */
    int stopped;            /* --max reached */
    struct diff_dirset *dirs; /* readdir names per open DIR stream, this rank */
    struct diff_race *races;  /* removals whose outcome alone differs, every rank's (diff_races.c) */
    size_t nraces, races_cap;
    uint32_t threads[DIFF_MAX_THREADS]; /* thread ids seen on this rank (--threads) */
    size_t nthreads;
    unsigned char started[DIFF_MAX_STARTED]; /* thread ids the rank's top-level calls started */
    struct diff_handle *handles; /* --threads, --tuned: A's created handle ids -> B's, this rank */
    struct diff_tuned *tuned;    /* --tuned: the tuning set B ran under (diff_tuned.c) */
} diff_ctx;

/* ---- --tuned FILE, --set LAYER.KEY=VALUE (diff_tuned.c) ---- */
typedef struct diff_tuned diff_tuned;
/* The set (file or NULL, the --set values); -1 after printing why. */
int diff_tuned_init(diff_ctx *ctx, const char *file, char **sets, int nsets);
/* A's call as the set makes it (its twin, its setter values): the function to compare. */
const rec_func_desc *diff_tuned_expect(diff_ctx *ctx, const rec_func_desc *f, rec_record *r);
/* The expected call matched B's: the overrides it shows are counted. */
void diff_tuned_matched(diff_ctx *ctx);
/* 1 when B's call is one the set adds (passed over, counted). */
int diff_tuned_added(diff_ctx *ctx, const rec_func_desc *f, const rec_record *r);
/* 1 when A's MPI_INFO_NULL or H5P_DEFAULT at a call that carries hints or uses a list is B's handle
 * made by a passed-over call. */
int diff_tuned_same_handle(diff_ctx *ctx, const rec_func_desc *f, unsigned field, int64_t a, int64_t b);
void diff_tuned_end_rank(diff_ctx *ctx);
/* Reports the overrides no call of B showed; prints how many showed each. */
void diff_tuned_finish(diff_ctx *ctx);
void diff_tuned_free(diff_ctx *ctx);

/* Forgets the rank's handle pairs (diff_call.c). */
void diff_handles_end_rank(diff_ctx *ctx);

/* ---- walking (diff_side.c) ---- */
int diff_side_open(diff_ctx *ctx, diff_side *s, uint32_t rank, rec_error *err);
/* The next top-level I/O call: 1 (in *r, *f), 0 at the end, -1 on error. */
int diff_side_next(diff_ctx *ctx, diff_side *s, rec_record *r, const rec_func_desc **f, rec_error *err);
void diff_side_close(diff_side *s);
/* The path with this id on the side's current rank (NULL if unknown). */
const char *diff_side_path(const diff_side *s, int64_t id);
/* "LAYER name(args) = ret": the record as recorder2text shows it, minus rank and times. */
const char *diff_call_text(const diff_side *s, const rec_record *r, char *buf, size_t cap);

/* ---- per-call comparison (diff_call.c) ---- */
/* 0 when the calls are equivalent, else 1 with what differs in msg. */
int diff_compare_call(diff_ctx *ctx, const rec_func_desc *fa, const rec_record *ra, const rec_func_desc *fb,
                      const rec_record *rb, char *msg, size_t cap);
/* Checks the readdir names still pending at the end of a rank (msg per stream). */
int diff_dirs_finish(diff_ctx *ctx, char *msg, size_t cap);
/* 1 when this field of f is a link target or another path-like string that is
 * not a file operand (not used to infer mappings, not counted). */
int diff_field_is_link_target(const rec_func_desc *f, unsigned field);
/* 1 when the field is never compared (getcwd's result). */
int diff_field_ignored(const rec_func_desc *f, unsigned field);

/* ---- racing removals (diff_races.c) ---- */
/* 1 when the calls differ only in the outcome of a removal (REMOVES_PATH):
 * kept, with the difference's report lines, until diff_races_settle. */
int diff_race_defer(diff_ctx *ctx, const rec_func_desc *f, const rec_record *ra, const rec_record *rb,
                    const char *line, const char *detail);
/* Reports the kept removals of each path whose successes differ in number,
 * notes the others; after every rank. */
void diff_races_settle(diff_ctx *ctx);

/* ---- counters (diff_files.c) ---- */
/* Binds new handles to their files, forgets released ones, and with counting
 * adds the call to its file's counts. */
void diff_files_account(diff_ctx *ctx, diff_side *s, const rec_func_desc *f, const rec_record *r);
/* The path in PATH field `field` of r as the call meant it: a path relative
 * to a directory fd (openat & co.) joined to the path that fd was opened with. */
const char *diff_full_path(diff_side *s, const rec_func_desc *f, const rec_record *r, unsigned field, char *buf,
                           size_t cap);
/* Compares the rank's files, reports, folds them into the totals. */
void diff_files_end_rank(diff_ctx *ctx, uint32_t rank);
void diff_files_end(diff_ctx *ctx);
size_t diff_files_count(const diff_ctx *ctx);
void diff_files_free(diff_ctx *ctx);
void diff_handles_clear(diff_side *s);

/* ---- reporting (diff_main.c) ---- */
/* Prints one difference (a line, then optional detail lines); sets stopped at --max. */
void diff_report(diff_ctx *ctx, const char *line, const char *detail);

/* ---- recorder-diff --darshan LOG TRACE (diff_darshan_cmp.c) ---- */
/* Compares a Darshan log's counters with those the trace implies (counters:
 * --counters' list, NULL for all); the exit status: 0 equal, 1 not, 2 error. */
int diff_darshan_main(diff_ctx *ctx, const char *log, const char *trace, const char *counters);

/* Bytes a data call moved (0 for other calls), as the kernels' --expect counts them. */
int64_t diff_bytes_moved(const rec_func_desc *f, const rec_record *r);

#endif
