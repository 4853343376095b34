/* import_view.h: a Darshan counter record (POSIX, MPI-IO or STDIO) as what
 * it says of one file's calls (stat_view.c), for the trace of a log
 * without DXT. */
#ifndef IMPORT_VIEW_H
#define IMPORT_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "recorder_import.h"

enum { RI_VIEW_BINS = 10 };
/* The windows of a record's first start and last end of a kind of call. */
enum { RI_WIN_OPEN, RI_WIN_READ, RI_WIN_WRITE, RI_WIN_CLOSE, RI_WIN_COUNT };

typedef struct ri_view {
    unsigned module;
    const ri_darshan_record *rec;
    int64_t opens, coll_opens; /* opens made (not dups, filenos, fdopens); MPI-IO: collective ones */
    int64_t n[2], coll[2];     /* [0] reads, [1] writes; MPI-IO: of them collective */
    int64_t seeks, stats, syncs, datasyncs, flushes;
    int64_t bytes[2], maxbyte[2]; /* maxbyte -1: not known */
    int64_t consec[2], seq[2];    /* -1: not known */
    int64_t switches, mode;       /* mode -1: not known */
    int has_bins;
    int64_t bins[2][RI_VIEW_BINS];
    int64_t common[4], common_count[4];
    double win[RI_WIN_COUNT][2]; /* seconds; < 0 or 0: not known */
    double spent[3];             /* read, write, meta seconds */
} ri_view;

void ri_view_of(const ri_darshan_record *r, unsigned module, ri_view *v);
/* Rank r's share of a total counted over n ranks (the first ranks one more). */
int64_t ri_share(int64_t total, uint32_t n, uint32_t r);

#endif
