/* ra_tools.h: what the analysis tools share (analysis-tools/): the main()
 * of a tool that walks a trace once, and the collectors. Each collector is
 * a visitor of the walk (ra_visitor): it consumes ra_events as the walk
 * produces them, keeps what it needs in memory that grows with ranks, files
 * and functions (never with records), and prints at the end;
 * recorder-report runs several in one walk. */
#ifndef RA_TOOLS_H
#define RA_TOOLS_H

#include "ra_cli.h"
#include "recorder_analysis.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- a tool's main: the command line, the trace, the walk ---- */
/* Opens the command line's trace and settles its ranks: all of them without
 * --rank. NULL after saying why (if say_why: under MPI one process speaks
 * for all), with *code RA_EXIT_ERROR (no trace) or RA_EXIT_USAGE (no such
 * ranks). */
ra_trace *ra_cli_open(const char *tool, ra_cli_args *args, int say_why, int *code);

/* A tool that reads the trace in one walk over the chosen ranks. Its hooks
 * get cli.ctx, the tool's state. */
typedef struct ra_tool {
    ra_cli cli;
    /* Sets up on the open trace and fills *v, what the walk calls:
     * RA_CLI_CONTINUE, or an exit code after saying why (and freeing what
     * it made). */
    int (*start)(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v);
    /* Optional: walks the ranks itself instead; 0, or -1 after saying why. */
    int (*walk)(void *ctx, const ra_cli_args *args, ra_trace *t, ra_progress *p);
    /* After the walk, failed or not: writes what the tool writes, frees what
     * start made; non-zero if the tool failed. */
    int (*finish)(void *ctx, int failed);
} ra_tool;
/* A whole main(): parses, opens, starts, walks with progress on stderr,
 * finishes, and returns the exit code. */
int ra_tool_main(const ra_tool *tool, int argc, char **argv);
/* The same after ra_cli_parse, for a tool that checks its options further
 * before it opens the trace. */
int ra_tool_run(const ra_tool *tool, ra_cli_args *args);

/* ---- what the printers share ---- */
/* Writes a path for humans: "..." with C escapes. */
void ra_print_quoted(FILE *out, const char *s);
/* Sort order of layers in reports: top of the stack first. */
int ra_layer_rank(unsigned layer);

/* ---- summary: per (rank, function, file) calls, bytes, time ---- */
typedef struct ra_sum_row {
    uint32_t rank;
    uint16_t func;
    int32_t file;
    uint64_t calls, opens, ticks;
    int64_t bytes;
} ra_sum_row;

typedef struct ra_summary {
    ra_trace *t;
    int top_only;      /* count depth-0 calls only */
    ra_map cur;        /* this rank's (func, file) -> row index */
    int32_t *hot_file; /* per function: the file of its last row (+2; 0: none) ... */
    uint32_t *hot_row; /* ... and that row: a function mostly works on one file at a time */
    ra_sum_row *rows;
    size_t nrows, cap;
    uint64_t *rank_records;       /* all records of each rank, whatever top_only says */
    double *rank_span;            /* seconds from the rank's first call start to its last end */
    double first_start, last_end; /* over all ranks, on the common time line */
    double cur_first, cur_last;   /* the rank being walked */
    int cur_timed;                /* its span comes from N.meta: no per-call min/max */
    rec_counts totals;            /* compression counters, all ranks */
    rec_counts *func_counts;      /* per function id (from N.meta) */
    int have_func_counts;
    uint32_t incomplete;  /* ranks that did not close their stream */
    long file_limit;      /* text output: files shown, 0: all */
    uint32_t counts_rank; /* merged trace: the rank whose walk adds the merged stream's counters */
} ra_summary;

void ra_summary_init(ra_summary *s, ra_trace *t, int top_only);
void ra_summary_free(ra_summary *s);
/* The summary as a visitor, for a walk it shares with other collectors. */
ra_visitor ra_summary_visitor(ra_summary *s);
/* Walks ranks[0..n) into the summary (begin, events, end of each rank). */
int ra_summary_walk(ra_summary *s, const uint32_t *ranks, size_t n, ra_progress *p, rec_error *err);
/* Rows sorted by rank, layer, function name, path. */
void ra_summary_sort(ra_summary *s);
void ra_summary_print_text(ra_summary *s, FILE *out);
/* netCDF variables and nonblocking requests (ra_summary_vars.c), after the text summary: a walk of every
 * rank, made only when the summary s counted netCDF calls. 0, or -1 with err set. */
int ra_summary_print_vars(const ra_summary *s, FILE *out, rec_error *err);
void ra_summary_print_csv(ra_summary *s, FILE *out);
/* Flat bytes for MPI reduction: rows with their paths, per-rank totals. */
size_t ra_summary_pack(const ra_summary *s, const uint32_t *ranks, size_t nranks, char **out);
int ra_summary_unpack(ra_summary *s, const char *buf, size_t len);
/* ra_summary_mpi.c: MPI mode (recorder-summary under mpirun). */
int ra_mpi_wanted(int forced);
int ra_mpi_init(int *argc, char ***argv, int *me, int *size);
/* Gathers every process's rows on process 0; returns non-zero if any failed. */
int ra_mpi_reduce_summary(ra_summary *s, const uint32_t *mine, size_t n, int failed);
void ra_mpi_finalize(void);

/* ---- overlap: Alg. 2 of "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis" ---- */
enum { RA_RAR = 0, RA_WAW, RA_RAW, RA_WAR, RA_PATTERNS };
extern const char *const ra_pattern_names[RA_PATTERNS];

typedef struct ra_interval {
    int64_t os, oe; /* bytes [os, oe) */
    double t0, t1;  /* start times of the first and the last access of the run */
    uint32_t rank, sid;
    int32_t file;
    uint32_t write;
} ra_interval;

typedef struct ra_ivstore ra_ivstore;
ra_ivstore *ra_ivstore_new(size_t memory_bytes);
void ra_ivstore_add(ra_ivstore *st, const ra_interval *iv);
/* Calls fn with every interval in (file, os, oe, rank, t0) order; -1 on an I/O error. */
int ra_ivstore_drain(ra_ivstore *st, void (*fn)(void *ctx, const ra_interval *iv), void *ctx);
size_t ra_ivstore_count(const ra_ivstore *st);
size_t ra_ivstore_spills(const ra_ivstore *st);
void ra_ivstore_free(ra_ivstore *st);

typedef struct ra_overlap_hit {
    int32_t file;
    uint32_t r1, r2; /* r1's access came first */
    uint8_t pattern;
    int64_t lo, hi; /* the overlapping bytes of the first example */
} ra_overlap_hit;

typedef struct ra_overlap_opts {
    unsigned layer;   /* REC_LAYER_POSIX (default) or REC_LAYER_MPIIO */
    int metadata;     /* also count accesses made for non-data top-level calls */
    int all_sessions; /* also pairs a close-to-open ordering separates */
    int inexact;      /* also accesses through non-contiguous MPI-IO views */
    size_t memory;    /* bytes of intervals kept in memory before spilling */
} ra_overlap_opts;

typedef struct ra_overlap ra_overlap;
ra_overlap *ra_overlap_new(ra_trace *t, const ra_overlap_opts *o);
ra_visitor ra_overlap_visitor(ra_overlap *ov);
/* Sorts and sweeps; hits sorted by path, r1, r2, pattern. */
int ra_overlap_finish(ra_overlap *ov, const ra_overlap_hit **hits, size_t *nhits);
void ra_overlap_print(ra_overlap *ov, FILE *out);
void ra_overlap_notes(ra_overlap *ov, const char *tool, FILE *out);
void ra_overlap_free(ra_overlap *ov);

/* ---- layers: the hierarchical view of
 * "IOPin: Runtime Profiling of Parallel I/O in HPC Systems" ---- */
typedef struct ra_layers ra_layers;
typedef struct ra_layer_stat {
    double seconds; /* sum over top-level calls of the layer's latency (max over its sub-calls) */
    int64_t bytes;  /* sum of the layer's data bytes */
    uint64_t calls; /* calls of the layer in the trees */
} ra_layer_stat;
ra_layers *ra_layers_new(ra_trace *t, size_t tree_limit, FILE *trees_out, int html);
/* Only trees of these top-level functions are shown (all are aggregated). */
void ra_layers_only(ra_layers *l, unsigned func);
/* Trees show MPI-layer calls (communication, datatypes) too. */
void ra_layers_show_mpi(ra_layers *l, int on);
ra_visitor ra_layers_visitor(ra_layers *l);
void ra_layers_print(ra_layers *l, FILE *out, int html);
size_t ra_layers_trees_shown(const ra_layers *l);
uint64_t ra_layers_trees_total(const ra_layers *l);
/* Aggregate of one top-level function (id) and layer; NULL if none. */
const ra_layer_stat *ra_layers_stat(const ra_layers *l, unsigned func, unsigned layer, double *call_seconds,
                                    uint64_t *calls);
void ra_layers_free(ra_layers *l);

#endif
