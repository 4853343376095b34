/* advise.h: the known causes of slow I/O found in a trace (recorder-advise,
 * docs/user/recorder-advise.md). A collector walks the ranks on the analysis
 * library (a visitor) and gathers per file the application's data calls,
 * opens and seeks; the findings are then drawn from it, each with its
 * evidence, its threshold and a suggested tuning set (tune/'s keys, every
 * line checked by tune/'s parser). What is a data call, collective, a seek,
 * or which call sets an HDF5 property is the function table's (roles, flags,
 * functions/tuning.def), never a name written here. */
#ifndef RECORDER_ADVISE_H
#define RECORDER_ADVISE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "recorder_analysis.h"

/* The thresholds, as the report states them. */
enum {
    ADVISE_SMALL_BYTES = 64 * 1024, /* (1) an access under this is small */
    ADVISE_SMALL_MIN_CALLS = 16,    /* (1) data calls on a file before its median counts */
    ADVISE_SHARED_RANKS = 2,        /* (2), (3) ranks that make a file shared */
    ADVISE_MD_RANKS = 4,            /* (4) ranks that open an HDF5 file: many */
    ADVISE_LOOP_CALLS = 16,         /* (6) opens or seeks of one file by one rank: a loop */
    ADVISE_SET_MAX = 8,             /* lines of one finding's set */
};
#define ADVISE_IMBALANCE 1.5 /* (5) the most bytes a rank moves over the mean */

typedef struct advise advise;

advise *advise_new(ra_trace *t);
void advise_free(advise *a);
ra_visitor advise_visitor(advise *a);
/* After the walk: draws the findings. 0, or -1 when a suggestion is not a
 * valid tuning line (a bug; err says which). */
int advise_finish(advise *a, char *err, size_t cap);
size_t advise_count(const advise *a);
/* A finding as the report shows it; the strings are the advise's. */
typedef struct advise_view {
    const char *title;
    const char *path; /* NULL: the trace's finding */
    const char *evidence, *threshold, *advice;
    const char *set[ADVISE_SET_MAX]; /* LAYER.KEY=VALUE lines */
    size_t nset;
} advise_view;
void advise_view_at(const advise *a, size_t i, advise_view *v);
uint32_t advise_nranks(const advise *a);

/* The readable report: one block per finding; after(ctx, i, out), when
 * given, adds lines to finding i's block (recorder-advise --prove) and
 * header(ctx, out) after the first line. */
typedef struct advise_print_hooks {
    void (*header)(void *ctx, FILE *out);
    void (*after)(void *ctx, size_t i, FILE *out);
    void *ctx;
} advise_print_hooks;
void advise_print(const advise *a, FILE *out, const char *trace, const advise_print_hooks *hooks);
/* The combined tuning set of all findings, a key once, with comments. */
void advise_write_set(const advise *a, FILE *out, const char *trace);
/* Lines of the combined set (for the report's last block). */
size_t advise_set_count(const advise *a);

#endif
