/* import_stat.h: the trace of a file Darshan kept counters of and no DXT
 * segments (a log without DXT): its sizes (stat_sizes.c), their offsets
 * (stat_layout.c) and each rank's calls (stat_plan.c, stat_ops.c). */
#ifndef IMPORT_STAT_H
#define IMPORT_STAT_H

#include <stddef.h>
#include <stdint.h>

#include "import_build.h"

/* Darshan's access-size histogram: 0-100, 100-1K, 1K-10K, 10K-100K,
 * 100K-1M, 1M-4M, 4M-10M, 10M-100M, 100M-1G, 1G+ (each bin's largest size
 * included: 100, 1024, ...). */
enum { RI_BINS = 10 };
int ri_size_bin(int64_t size);

/* What a record says of its accesses' sizes at one layer: [0] reads, [1]
 * writes. */
typedef struct ri_sizes_in {
    int64_t n[2], bytes[2];
    int64_t bins[2][RI_BINS];
    int64_t common[4], common_count[4]; /* ACCESS1..4: over reads and writes */
    int64_t max_size;                   /* the largest size the 1G+ bin may give */
} ri_sizes_in;

enum {
    RI_SIZES_HISTOGRAM = 1, /* every size in its bin, the bytes exact */
    RI_SIZES_COMMON = 2,    /* the common access sizes among them */
    RI_SIZES_EVEN = 4       /* the histogram could not be followed: sizes as equal as the bytes allow */
};

/* Fills reads[n[0]] and writes[n[1]] (common sizes first, then each bin's
 * in bin order); returns RI_SIZES_* flags. */
unsigned ri_solve_sizes(const ri_sizes_in *in, int64_t *reads, int64_t *writes);

/* One session's accesses of one kind, among a group's sizes. */
typedef struct ri_layout_session {
    uint32_t rank; /* the rank's index among the group's (0 first) */
    size_t first, n;
} ri_layout_session;

/* The accesses of one kind of a group of ranks that share one set of
 * counters (a record reduced to rank -1, over every rank; or one rank's
 * own), session by session, and what the counters say of their offsets:
 * how many were consecutive (CONSEC: at the byte after the last one) and
 * sequential (SEQ: past it), and the extent (the largest byte + 1); -1:
 * not known. */
typedef struct ri_layout_in {
    uint32_t nranks;
    int shared; /* the ranks' accesses may split the file between them */
    const int64_t *sizes;
    size_t n;
    const ri_layout_session *sessions;
    size_t nsessions;
    int64_t consec, seq, extent;
} ri_layout_in;

enum { RI_LAYOUT_PARTITIONED = 1, RI_LAYOUT_REPLICATED = 2, RI_LAYOUT_OWN = 3 };

/* Fills offsets[n]; returns RI_LAYOUT_*: how the ranks' regions lie. */
int ri_layout(const ri_layout_in *in, int64_t *offsets);

/* Places the calls of a file that has no DXT accesses from its counters
 * (stat_plan.c); what it did goes to the plan's stat_* figures. */
int ri_plan_stat_file(builder *b, file_state *f);

#endif
