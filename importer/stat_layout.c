/* stat_layout.c: offsets for accesses whose sizes alone a Darshan log
 * kept, consistent with what its counters say of them: how many were
 * consecutive (at the byte after the rank's last one of the kind, since
 * the file was opened), how many sequential (past it), and the largest
 * byte accessed.
 *
 * Each session is one or more passes (each pass after the first starts
 * over at the session's first byte: an access that is neither sequential
 * nor consecutive), each pass one or more segments (runs of consecutive
 * accesses; each after the first starts past a gap: sequential, not
 * consecutive). The counts of both follow from the counters: passes from
 * the accesses that were not sequential, segments from those that were
 * not consecutive. Segment g of a rank is a block of the file as large as
 * its largest pass makes it; the ranks' blocks lie
 *   - partitioned (a shared file the ranks split): segment by segment,
 *     rank after rank in each, as IOR's segments do, so a rank's gaps are
 *     the other ranks' blocks and the file is covered without holes;
 *   - replicated (a shared file every rank reads or writes whole), or a
 *     rank's own file: each rank's from byte 0, its segments separated by
 *     holes (the strides), 1 byte at least.
 * Partitioned or replicated: whichever extent is nearer the counters'.
 * When the counters' largest byte lies past the blocks, the difference is
 * a hole before the last block (or the gaps between segments) so the
 * extent is exact; when the blocks reach past it (a rank's passes larger
 * than the file: HDF5 reading its metadata, then a chunk that holds it),
 * each access that would end past it ends at it instead, its size kept,
 * so no access lies outside [0, largest byte]. */
#include <stdlib.h>
#include <string.h>

#include "import_stat.h"

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

typedef struct pass {
    uint32_t rank;
    size_t first, n; /* its accesses */
    uint32_t segments;
} pass;

/* The first access of segment g of a pass: segments as equal as integers allow. */
static size_t segment_start(const pass *p, uint32_t g)
{
    return p->first + (size_t)((uint64_t)p->n * g / p->segments);
}

/* Adds h to every offset of the rank (or every rank: rank < 0) at or past at. */
static void hole(const ri_layout_in *in, const pass *ps, size_t np, int64_t rank, int64_t at, int64_t h,
                 int64_t *off)
{
    for (size_t i = 0; i < np; i++)
        if (rank < 0 || ps[i].rank == (uint32_t)rank)
            for (size_t j = ps[i].first; j < ps[i].first + ps[i].n; j++)
                if (off[j] >= at)
                    off[j] += h;
    (void)in;
}

int ri_layout(const ri_layout_in *in, int64_t *off)
{
    size_t n = in->n, sigma = 0;
    uint32_t N = in->nranks ? in->nranks : 1;
    for (size_t s = 0; s < in->nsessions; s++)
        sigma += in->sessions[s].n > 0;
    if (n == 0 || sigma == 0)
        return RI_LAYOUT_OWN;
    /* bytes over all ranks and the most one rank moved */
    int64_t total = 0, most = 0;
    int64_t *per_rank = calloc(N, sizeof *per_rank);
    if (!per_rank) {
        memset(off, 0, n * sizeof *off);
        return RI_LAYOUT_OWN;
    }
    for (size_t s = 0; s < in->nsessions; s++)
        for (size_t j = in->sessions[s].first; j < in->sessions[s].first + in->sessions[s].n; j++) {
            total += in->sizes[j];
            per_rank[in->sessions[s].rank % N] += in->sizes[j];
        }
    for (uint32_t r = 0; r < N; r++)
        most = per_rank[r] > most ? per_rank[r] : most;
    free(per_rank);
    int mode = RI_LAYOUT_OWN;
    if (in->shared && N > 1) {
        int64_t e = in->extent;
        mode = e > 0 && llabs(e - most) < llabs(e - total) ? RI_LAYOUT_REPLICATED : RI_LAYOUT_PARTITIONED;
    }
    int part = mode == RI_LAYOUT_PARTITIONED;
    /* sessions that start at byte 0: the first rank's in a partitioned file, else all */
    uint32_t first_rank = UINT32_MAX;
    for (size_t s = 0; s < in->nsessions; s++)
        if (in->sessions[s].n && in->sessions[s].rank < first_rank)
            first_rank = in->sessions[s].rank;
    int64_t k0 = 0;
    for (size_t s = 0; s < in->nsessions; s++)
        k0 += in->sessions[s].n && (!part || in->sessions[s].rank == first_rank);
    int64_t seq = in->seq, consec = in->consec;
    if (seq < 0 || consec < 0) { /* not known: every session consecutive */
        consec = (int64_t)(n - sigma);
        seq = consec + (int64_t)sigma - k0;
    }
    seq = clamp(seq, 0, (int64_t)n);
    consec = clamp(consec, 0, seq);
    int64_t extra_passes = clamp((int64_t)n - seq - k0, 0, (int64_t)(n - sigma));
    /* passes: each session 1, the extra ones dealt round the sessions that can take one */
    uint32_t *npass = calloc(in->nsessions, sizeof *npass);
    pass *ps = calloc(n, sizeof *ps);
    if (!npass || !ps) {
        free(npass);
        free(ps);
        memset(off, 0, n * sizeof *off);
        return mode;
    }
    for (size_t s = 0; s < in->nsessions; s++)
        npass[s] = in->sessions[s].n > 0;
    while (extra_passes > 0) {
        int64_t given = 0;
        for (size_t s = 0; s < in->nsessions && extra_passes > 0; s++)
            if (npass[s] < in->sessions[s].n) {
                npass[s]++;
                extra_passes--;
                given++;
            }
        if (!given)
            break;
    }
    size_t np = 0;
    for (size_t s = 0; s < in->nsessions; s++)
        for (uint32_t p = 0; p < npass[s]; p++) {
            const ri_layout_session *se = &in->sessions[s];
            size_t a = se->first + (size_t)((uint64_t)se->n * p / npass[s]);
            size_t z = se->first + (size_t)((uint64_t)se->n * (p + 1) / npass[s]);
            ps[np++] = (pass){se->rank % N, a, z - a, 1};
        }
    free(npass);
    /* segments: the accesses not consecutive, beyond the passes' first ones */
    int64_t breaks = clamp((int64_t)n - consec - (int64_t)np, 0, (int64_t)(n - np));
    while (breaks > 0) {
        int64_t given = 0;
        for (size_t i = 0; i < np && breaks > 0; i++)
            if (ps[i].segments < ps[i].n) {
                ps[i].segments++;
                breaks--;
                given++;
            }
        if (!given)
            break;
    }
    uint32_t gmax = 1;
    for (size_t i = 0; i < np; i++)
        gmax = ps[i].segments > gmax ? ps[i].segments : gmax;
    /* blocks: rank x segment, as large as the rank's largest pass makes each */
    int64_t *blk = calloc((size_t)N * gmax, sizeof *blk), *base = calloc((size_t)N * gmax, sizeof *base);
    if (!blk || !base) {
        free(blk);
        free(base);
        free(ps);
        memset(off, 0, n * sizeof *off);
        return mode;
    }
    for (size_t i = 0; i < np; i++)
        for (uint32_t g = 0; g < ps[i].segments; g++) {
            int64_t bytes = 0;
            for (size_t j = segment_start(&ps[i], g); j < segment_start(&ps[i], g + 1); j++)
                bytes += in->sizes[j];
            int64_t *b = &blk[(size_t)ps[i].rank * gmax + g];
            *b = bytes > *b ? bytes : *b;
        }
    int64_t at = 0;
    if (part) {
        for (uint32_t g = 0; g < gmax; g++)
            for (uint32_t r = 0; r < N; r++) {
                base[(size_t)r * gmax + g] = at;
                at += blk[(size_t)r * gmax + g];
            }
    } else {
        for (uint32_t r = 0; r < N; r++) {
            at = 0;
            for (uint32_t g = 0; g < gmax; g++) {
                base[(size_t)r * gmax + g] = at;
                at += blk[(size_t)r * gmax + g];
            }
        }
    }
    for (size_t i = 0; i < np; i++)
        for (uint32_t g = 0; g < ps[i].segments; g++) {
            int64_t o = base[(size_t)ps[i].rank * gmax + g];
            for (size_t j = segment_start(&ps[i], g); j < segment_start(&ps[i], g + 1); j++) {
                off[j] = o;
                o += in->sizes[j];
            }
        }
    /* holes: to the counters' extent, and between a rank's own segments */
    int64_t e = in->extent;
    if (part) {
        int64_t end = 0, last_base = 0;
        for (uint32_t g = 0; g < gmax; g++)
            for (uint32_t r = 0; r < N; r++)
                if (blk[(size_t)r * gmax + g] > 0) {
                    last_base = base[(size_t)r * gmax + g];
                    end = last_base + blk[(size_t)r * gmax + g];
                }
        if (e > end && last_base > 0)
            hole(in, ps, np, -1, last_base, e - end, off);
    } else {
        for (uint32_t r = 0; r < N; r++) {
            uint32_t g_r = 0;
            int64_t end = 0;
            for (uint32_t g = 0; g < gmax; g++)
                if (blk[(size_t)r * gmax + g] > 0) {
                    g_r = g + 1;
                    end = base[(size_t)r * gmax + g] + blk[(size_t)r * gmax + g];
                }
            if (g_r == 0)
                continue;
            int64_t h = e > end ? e - end : e < 0 ? (int64_t)g_r - 1 : 0;
            if (g_r >= 2) { /* the gaps between the segments, from the last back */
                for (uint32_t g = g_r - 1; g >= 1 && h > 0; g--) {
                    int64_t share = h / g; /* what is left, over the boundaries left */
                    if (share < 1)
                        share = 1;
                    hole(in, ps, np, r, base[(size_t)r * gmax + g] + 0, share, off);
                    for (uint32_t k = g; k < gmax; k++)
                        base[(size_t)r * gmax + k] += share;
                    h -= share;
                }
            } else if (h > 0) { /* before the access that ends last */
                int64_t last = -1, last_end = -1;
                for (size_t i = 0; i < np; i++)
                    if (ps[i].rank == r)
                        for (size_t j = ps[i].first; j < ps[i].first + ps[i].n; j++)
                            if (off[j] + in->sizes[j] > last_end) {
                                last_end = off[j] + in->sizes[j];
                                last = off[j];
                            }
                if (last > 0)
                    hole(in, ps, np, r, last, h, off);
                else if (last == 0)
                    hole(in, ps, np, r, 0, h, off); /* one access: it starts later */
            }
        }
    }
    /* an access past the extent (the ranks' blocks more than the file holds:
     * they read or wrote the same bytes) ends at its last byte instead */
    if (e > 0)
        for (size_t j = 0; j < n; j++)
            if (off[j] + in->sizes[j] > e)
                off[j] = e > in->sizes[j] ? e - in->sizes[j] : 0;
    free(blk);
    free(base);
    free(ps);
    return mode;
}
