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
#include <stdio.h>

#include "recorder_analysis.h"

/* The thresholds, as the report states them. */
enum {
    ADVISE_SMALL_BYTES = 64 * 1024, /* (1) an access under this is small */
    ADVISE_SMALL_MIN_CALLS = 16,    /* (1) data calls on a file before its median counts */
    ADVISE_SHARED_RANKS = 2,        /* (2), (3) ranks that make a file shared */
    ADVISE_MD_RANKS = 4,            /* (4) ranks that open an HDF5 file: many */
    ADVISE_LOOP_CALLS = 16,         /* (6) opens or seeks of one file by one rank: a loop */
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
/* The readable report: one block per finding. */
void advise_print(const advise *a, FILE *out, const char *trace);
/* The combined tuning set of all findings, a key once, with comments. */
void advise_write_set(const advise *a, FILE *out, const char *trace);
/* Lines of the combined set (for the report's last block). */
size_t advise_set_count(const advise *a);

#endif
