/* stat_sizes.c: the sizes of a Darshan record's reads and writes, from its
 * counters alone (a log without DXT): as many of each as the record counts,
 * each inside the access-size histogram's bin it was counted in, adding up
 * to the record's bytes exactly.
 *
 * The four common access sizes come first: each is counted over reads and
 * writes together, so its count is split between them (inside what the two
 * histograms leave in its bin) so that what remains of both byte totals
 * can still be made by the free slots; a split that cannot is looked for
 * by coordinate descent on how far each total falls outside what its free
 * slots can make, and common sizes are given up, last first, when none
 * fits. Then each bin's free slots get a share of the bytes left, every
 * bin at the same place between its smallest and largest size, the slots
 * of one bin as equal as integers allow (or, when that many equal ones
 * would outnumber the fourth common size, each apart). A histogram whose bins do not add
 * up to the operations counted, or bytes no sizes in the bins can make,
 * gives sizes as equal as the bytes allow, none past the largest size
 * (RI_SIZES_EVEN). */
#include <stdlib.h>
#include <string.h>

#include "import_stat.h"

static const int64_t bin_lo[RI_BINS] = {0,       101,     1025,     10241,     102401,
                                        1048577, 4194305, 10485761, 104857601, 1073741825};
static const int64_t bin_hi[RI_BINS - 1] = {100,     1024,     10240,     102400,    1048576,
                                            4194304, 10485760, 104857600, 1073741824};

int ri_size_bin(int64_t size)
{
    for (int b = 0; b < RI_BINS - 1; b++)
        if (size <= bin_hi[b])
            return b;
    return RI_BINS - 1;
}

static int64_t hi_of(const ri_sizes_in *in, int b)
{
    return b < RI_BINS - 1 ? bin_hi[b] : in->max_size;
}

typedef __int128 wide;

/* One kind's state: its bins' free slots and the bytes they must make. */
typedef struct side {
    int64_t free[RI_BINS];
    wide bytes;
} side;

/* How far bytes fall outside what the free slots can make, and slots
 * taken past a bin's count (weighed far above any bytes, and growing with
 * how many, so the search slopes towards counts that fit). */
static wide violation(const ri_sizes_in *in, const side *s)
{
    wide lo = 0, hi = 0, over = 0;
    for (int b = 0; b < RI_BINS; b++) {
        if (s->free[b] < 0) {
            over += -(wide)s->free[b];
            continue;
        }
        lo += (wide)s->free[b] * bin_lo[b];
        hi += (wide)s->free[b] * hi_of(in, b);
    }
    return (over << 70) + (s->bytes < lo ? lo - s->bytes : s->bytes > hi ? s->bytes - hi : 0);
}

typedef struct common {
    int64_t value, count, reads; /* reads: how many of count are reads */
    int bin;
} common;

static void sides_of(const ri_sizes_in *in, const common *c, int nc, side *r, side *w)
{
    memcpy(r->free, in->bins[0], sizeof r->free);
    memcpy(w->free, in->bins[1], sizeof w->free);
    r->bytes = in->bytes[0];
    w->bytes = in->bytes[1];
    for (int i = 0; i < nc; i++) {
        r->free[c[i].bin] -= c[i].reads;
        w->free[c[i].bin] -= c[i].count - c[i].reads;
        r->bytes -= (wide)c[i].reads * c[i].value;
        w->bytes -= (wide)(c[i].count - c[i].reads) * c[i].value;
    }
}

static wide total_violation(const ri_sizes_in *in, const common *c, int nc)
{
    side r, w;
    sides_of(in, c, nc, &r, &w);
    return violation(in, &r) + violation(in, &w);
}

/* Splits each common size's count between reads and writes; 0 when every
 * byte total can then be made. */
static int split_commons(const ri_sizes_in *in, common *c, int nc)
{
    for (int i = 0; i < nc; i++) { /* in proportion to the two bins' slots */
        wide r = in->bins[0][c[i].bin], w = in->bins[1][c[i].bin];
        c[i].reads = r + w > 0 ? (int64_t)((wide)c[i].count * r / (r + w)) : 0;
    }
    wide best = total_violation(in, c, nc);
    for (int round = 0; round < 32 && best > 0; round++) {
        int moved = 0;
        for (int i = 0; i < nc; i++) {
            /* the violation is convex in reads: try both ends, the middle and steps
             * halving towards the best */
            int64_t lo = 0, hi = c[i].count, keep = c[i].reads;
            for (int it = 0; it < 70 && lo < hi; it++) {
                int64_t m = lo + (hi - lo) / 2;
                c[i].reads = m;
                wide vm = total_violation(in, c, nc);
                c[i].reads = m + 1;
                wide vn = total_violation(in, c, nc);
                if (vn < vm)
                    lo = m + 1;
                else
                    hi = m;
            }
            c[i].reads = lo;
            wide v = total_violation(in, c, nc);
            if (v < best) {
                best = v;
                moved = 1;
            } else {
                c[i].reads = keep;
            }
        }
        if (!moved)
            break;
    }
    return best == 0 ? 0 : -1;
}

/* k slots of bin b making total, each size apart (base, base + 1, ...), when
 * equal ones would outnumber the fourth common access size and so be one
 * (h5bench's few small writes of sizes of their own): 0 when they cannot
 * be apart inside the bin, or one would be a common size. */
static int spread(const ri_sizes_in *in, int b, int64_t k, wide total, int64_t *out)
{
    if (k < 2 || in->common_count[3] <= 0 || k <= in->common_count[3])
        return 0;
    wide steps = (wide)k * (k - 1) / 2, base = (total - steps) / k, rem = (total - steps) % k;
    if (total < steps || base < bin_lo[b] || base + k > hi_of(in, b))
        return 0;
    for (int64_t j = 0; j < k; j++) {
        out[j] = (int64_t)base + j + (j >= k - (int64_t)rem);
        for (int i = 0; i < 4; i++)
            if (out[j] == in->common[i])
                return 0;
    }
    return 1;
}

/* The free slots of one kind: each bin its share of the bytes. */
static void fill_side(const ri_sizes_in *in, const side *s, int64_t *out, size_t *at)
{
    wide lo = 0, room = 0;
    for (int b = 0; b < RI_BINS; b++) {
        lo += (wide)s->free[b] * bin_lo[b];
        room += (wide)s->free[b] * (hi_of(in, b) - bin_lo[b]);
    }
    wide extra = s->bytes - lo, given = 0, share[RI_BINS];
    for (int b = 0; b < RI_BINS; b++) {
        wide cap = (wide)s->free[b] * (hi_of(in, b) - bin_lo[b]);
        share[b] = room > 0 ? extra * cap / room : 0;
        given += share[b];
    }
    for (int b = 0; b < RI_BINS && given < extra; b++) { /* what rounding left */
        wide cap = (wide)s->free[b] * (hi_of(in, b) - bin_lo[b]) - share[b];
        wide add = cap < extra - given ? cap : extra - given;
        share[b] += add;
        given += add;
    }
    for (int b = 0; b < RI_BINS; b++) {
        int64_t k = s->free[b];
        if (k <= 0)
            continue;
        wide total = (wide)k * bin_lo[b] + share[b];
        if (spread(in, b, k, total, out + *at)) {
            *at += (size_t)k;
            continue;
        }
        int64_t q = (int64_t)(total / k), rem = (int64_t)(total % k);
        for (int64_t j = 0; j < k; j++)
            out[(*at)++] = q + (j < rem);
    }
}

/* bytes over n sizes, none past max (a corrupt log's bytes are not made) */
static void even(int64_t n, int64_t bytes, int64_t max, int64_t *out)
{
    for (int64_t j = 0; j < n; j++) {
        int64_t x = bytes / n + (j < bytes % n);
        out[j] = x < max ? x : max;
    }
}

unsigned ri_solve_sizes(const ri_sizes_in *in, int64_t *reads, int64_t *writes)
{
    unsigned how = 0;
    int ok = 1;
    for (int k = 0; k < 2; k++) {
        wide sum = 0;
        for (int b = 0; b < RI_BINS; b++)
            sum += in->bins[k][b] > 0 ? in->bins[k][b] : 0;
        ok &= sum == in->n[k] && in->bytes[k] >= 0;
        for (int b = 0; b < RI_BINS; b++)
            ok &= in->bins[k][b] >= 0;
    }
    common c[4];
    int nc = 0;
    for (int i = 0; ok && i < 4; i++) {
        if (in->common[i] <= 0 || in->common_count[i] <= 0 || in->common[i] > in->max_size)
            continue;
        int dup = 0;
        for (int j = 0; j < nc; j++)
            dup |= c[j].value == in->common[i];
        if (dup)
            continue;
        c[nc] = (common){in->common[i], in->common_count[i], 0, ri_size_bin(in->common[i])};
        wide slots = (wide)in->bins[0][c[nc].bin] + in->bins[1][c[nc].bin];
        for (int j = 0; j < nc; j++)
            if (c[j].bin == c[nc].bin)
                slots -= c[j].count;
        if (c[nc].count > slots)
            c[nc].count = slots > 0 ? (int64_t)slots : 0;
        if (c[nc].count > 0)
            nc++;
    }
    if (ok) {
        while (split_commons(in, c, nc) != 0 && nc > 0)
            nc--;
        ok = total_violation(in, c, nc) == 0;
    }
    if (!ok) {
        even(in->n[0], in->bytes[0] > 0 ? in->bytes[0] : 0, in->max_size, reads);
        even(in->n[1], in->bytes[1] > 0 ? in->bytes[1] : 0, in->max_size, writes);
        return RI_SIZES_EVEN;
    }
    if (nc)
        how |= RI_SIZES_COMMON;
    size_t at[2] = {0, 0};
    int64_t *out[2] = {reads, writes};
    for (int i = 0; i < nc; i++) {
        for (int64_t j = 0; j < c[i].reads; j++)
            reads[at[0]++] = c[i].value;
        for (int64_t j = c[i].reads; j < c[i].count; j++)
            writes[at[1]++] = c[i].value;
    }
    side s[2];
    sides_of(in, c, nc, &s[0], &s[1]);
    for (int k = 0; k < 2; k++)
        fill_side(in, &s[k], out[k], &at[k]);
    return how | RI_SIZES_HISTOGRAM;
}
