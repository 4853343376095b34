/* import_collective.c: which of a file's DXT MPI-IO accesses were
 * collective. DXT_MPIIO keeps no mode; the record counts the collective
 * reads and writes (MPIIO_COLL_READS, _WRITES) apart from the independent,
 * split and non-blocking ones, and collective calls are matched across the
 * ranks of the file's communicator. So:
 *   - a file over MPI_COMM_WORLD: every rank makes as many collective
 *     accesses of each kind (the rank -1 record's count over the ranks, or
 *     the fewest a rank's own record counts), as rounds: one access of each
 *     rank, all of the kind, whose windows share a moment (a collective
 *     call's ranks are all inside it at once: ROMIO's two-phase exchanges
 *     between them), each rank's in its own order. Rounds are found in time
 *     order (the earliest moment first); when more are found than counted,
 *     the counted number of those moving the most bytes is kept. When fewer
 *     are found, the others stay independent:
 *     a collective call every rank cannot be seen making would not be
 *     matched (the difference is ri_plan.coll_unmatched). The ranks'
 *     clocks may differ (Darshan's timestamps are each rank's): the
 *     windows may be that far apart, the least slack that finds the
 *     counted rounds (doubling from none); ranks whose clocks differ by
 *     more than the pause between their collective calls may be paired a
 *     call off, still as many on every rank, in every rank's order.
 *   - a file over MPI_COMM_SELF: the rank's own record's count of each kind,
 *     its largest accesses (the earliest of equal ones).
 * Independent accesses are the rest: what Darshan counted independent,
 * split or non-blocking. */
#include <stdlib.h>
#include <string.h>

#include "import_build.h"

static int64_t positive(int64_t v)
{
    return v > 0 ? v : 0;
}

/* The collective accesses of the kind (write or read) the record counts. */
static int64_t coll_count(const builder *b, const ri_darshan_record *r, int write)
{
    return positive(ri_counter(r, write ? b->c.coll_writes : b->c.coll_reads));
}

typedef struct round {
    uint64_t bytes, at; /* what its accesses move; the moment they share */
    size_t first;       /* where its accesses (one a rank, by rank) start in the pass's picks */
} round;

static int by_bytes(const void *x, const void *y)
{
    const round *a = x, *b = y;
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes ? -1 : 1;
    return a->at < b->at ? -1 : a->at > b->at;
}

static int by_tick(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* The file's MPI-IO accesses of one kind, rank by rank: [lo[r], hi[r]) of
 * idx are rank r's, indices into f->acc (by start). */
typedef struct kind_accesses {
    const file_state *f;
    uint32_t nranks;
    size_t *idx, *lo, *hi, n;
    uint64_t *moments; /* every access's start and end, in time order */
    size_t nmoments;
} kind_accesses;

static int gather(kind_accesses *k, const file_state *f, uint32_t nranks, int write)
{
    memset(k, 0, sizeof *k);
    k->f = f;
    k->nranks = nranks;
    k->idx = malloc((f->nacc ? f->nacc : 1) * sizeof *k->idx);
    k->moments = malloc((f->nacc ? 2 * f->nacc : 1) * sizeof *k->moments);
    k->lo = calloc(nranks, sizeof *k->lo);
    k->hi = calloc(nranks, sizeof *k->hi);
    if (!k->idx || !k->moments || !k->lo || !k->hi)
        return -1;
    for (size_t i = 0; i < f->nacc; i++) {
        const ri_access *a = &f->acc[i];
        if (a->layer != REC_LAYER_MPIIO || a->rank >= nranks || a->write != write)
            continue;
        if (k->hi[a->rank] == 0)
            k->lo[a->rank] = k->n;
        k->idx[k->n++] = i;
        k->hi[a->rank] = k->n;
        k->moments[k->nmoments++] = a->tstart;
        k->moments[k->nmoments++] = a->tend;
    }
    qsort(k->moments, k->nmoments, sizeof *k->moments, by_tick);
    return 0;
}

static void release(kind_accesses *k)
{
    free(k->idx);
    free(k->moments);
    free(k->lo);
    free(k->hi);
}

static uint64_t distance(const ri_access *a, uint64_t t)
{
    return t < a->tstart ? a->tstart - t : t > a->tend ? t - a->tend : 0;
}

/* One pass: rounds whose accesses are each within slack of a moment, the
 * earliest moment first, each rank's nearest access to it after its last
 * round's (next), at most `most`. Their accesses, nr a round, in picks;
 * how many rounds. */
static int64_t pass(const kind_accesses *k, uint64_t slack, size_t most, size_t *next, size_t *picks,
                    round *rounds)
{
    uint32_t nr = k->nranks;
    const ri_access *acc = k->f->acc;
    size_t n = 0;
    for (uint32_t r = 0; r < nr; r++)
        next[r] = k->lo[r];
    for (size_t m = 0; m < k->nmoments && n < most; m++) { /* most: the fewest accesses a rank has */
        uint64_t t = k->moments[m];
        if (m > 0 && t == k->moments[m - 1])
            continue;
        uint64_t bytes = 0;
        uint32_t r = 0;
        for (; r < nr; r++) {
            while (next[r] < k->hi[r] && acc[k->idx[next[r]]].tend + slack < t)
                next[r]++; /* ended before any later moment: no later round's */
            /* the nearest: around the first access starting after t (a rank's
             * accesses follow one another), the earliest of equally near ones */
            size_t lo = next[r], hi = k->hi[r];
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (acc[k->idx[mid]].tstart <= t)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            size_t best = SIZE_MAX;
            for (size_t j = lo >= next[r] + 4 ? lo - 4 : next[r]; j <= lo && j < k->hi[r]; j++)
                if (distance(&acc[k->idx[j]], t) <= slack &&
                    (best == SIZE_MAX || distance(&acc[k->idx[j]], t) < distance(&acc[k->idx[best]], t)))
                    best = j;
            if (best == SIZE_MAX)
                break;
            while (best > next[r] && distance(&acc[k->idx[best - 1]], t) <= distance(&acc[k->idx[best]], t))
                best--;
            picks[n * nr + r] = best;
            bytes += (uint64_t)acc[k->idx[best]].length;
        }
        if (r < nr)
            continue;
        rounds[n] = (round){bytes, t, n * nr};
        for (r = 0; r < nr; r++)
            next[r] = picks[n * nr + r] + 1;
        n++;
    }
    return (int64_t)n;
}

/* The world's rounds of the kind: want of them. The slack grows from none,
 * doubling, until a pass finds as many (the ranks' clocks are a little
 * apart), at most the job's run or 10 s, and while the passes have looked
 * at fewer than RI_ROUND_WORK moments and ranks in all; the pass that found
 * the most when none does. */
#define RI_ROUND_WORK 4e9
static int world_rounds(builder *b, file_state *f, int write, uint64_t want)
{
    uint32_t nr = b->p->nranks;
    kind_accesses k;
    int rc = gather(&k, f, nr, write);
    size_t most = SIZE_MAX; /* the fewest a rank has: rounds a pass can find */
    for (uint32_t r = 0; rc == 0 && r < nr; r++)
        most = k.hi[r] - k.lo[r] < most ? k.hi[r] - k.lo[r] : most;
    size_t *next = NULL, *picks = NULL, *best_picks = NULL;
    round *rounds = NULL, *best_rounds = NULL;
    if (rc == 0 && most > 0) {
        next = malloc(nr * sizeof *next);
        picks = malloc(most * nr * sizeof *picks);
        best_picks = malloc(most * nr * sizeof *best_picks);
        rounds = malloc(most * sizeof *rounds);
        best_rounds = malloc(most * sizeof *best_rounds);
        if (!next || !picks || !best_picks || !rounds || !best_rounds)
            rc = -1;
    }
    int64_t found = 0;
    if (rc == 0 && most > 0) {
        double run = (double)(b->log->end_sec - b->log->start_sec) + 1 +
                     1e-9 * (double)(b->log->end_nsec - b->log->start_nsec);
        uint64_t limit = ri_ticks(b, run < 10 ? run : 10);
        double work = 0;
        for (uint64_t slack = 0;; slack = slack ? 2 * slack : 1) {
            int64_t n = pass(&k, slack, most, next, picks, rounds);
            if (n > found) {
                found = n;
                memcpy(best_picks, picks, (size_t)n * nr * sizeof *picks);
                memcpy(best_rounds, rounds, (size_t)n * sizeof *rounds);
            }
            work += (double)k.nmoments * nr;
            if ((uint64_t)found >= want || slack > limit || work > RI_ROUND_WORK)
                break;
        }
    }
    if (rc == 0) {
        if ((uint64_t)found > want)
            qsort(best_rounds, (size_t)found, sizeof *best_rounds, by_bytes);
        size_t keep = (uint64_t)found < want ? (size_t)found : (size_t)want;
        for (size_t j = 0; j < keep; j++)
            for (uint32_t r = 0; r < nr; r++)
                f->acc[k.idx[best_picks[best_rounds[j].first + r]]].collective = 1;
        b->p->coll_unmatched += (want - keep) * nr;
    }
    release(&k);
    free(next);
    free(picks);
    free(best_picks);
    free(rounds);
    free(best_rounds);
    return rc == 0 ? 0 : ri_fail(b, "out of memory");
}

static int by_length(const void *x, const void *y)
{
    const ri_access *a = *(const ri_access *const *)x, *b = *(const ri_access *const *)y;
    if (a->length != b->length)
        return a->length > b->length ? -1 : 1;
    return a->tstart < b->tstart ? -1 : a->tstart > b->tstart;
}

/* One rank's own: its largest accesses of the kind. */
static int self_collective(builder *b, file_state *f, uint32_t rank, int write, uint64_t want)
{
    ri_access **v = malloc((f->nacc ? f->nacc : 1) * sizeof *v);
    if (!v)
        return ri_fail(b, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < f->nacc; i++)
        if (f->acc[i].layer == REC_LAYER_MPIIO && f->acc[i].write == write && f->acc[i].rank == rank)
            v[n++] = &f->acc[i];
    qsort(v, n, sizeof *v, by_length);
    for (size_t j = 0; j < n && j < want; j++)
        v[j]->collective = 1;
    free(v);
    return 0;
}

int ri_mark_collective(builder *b, file_state *f, int world)
{
    uint32_t nr = b->p->nranks;
    if (!f->nacc || !nr)
        return 0;
    const ri_darshan_record *all = ri_find_record(&b->mpiio, f->id, -1);
    int rc = 0;
    for (int write = 0; write < 2 && rc == 0; write++) {
        if (world) {
            uint64_t want = UINT64_MAX;
            if (all)
                want = (uint64_t)coll_count(b, all, write) / nr;
            else
                for (uint32_t r = 0; r < nr; r++) {
                    uint64_t n = (uint64_t)coll_count(b, ri_find_record(&b->mpiio, f->id, r), write);
                    want = n < want ? n : want;
                }
            if (want > 0)
                rc = world_rounds(b, f, write, want);
            continue;
        }
        for (uint32_t r = 0; r < nr && rc == 0; r++) {
            uint64_t want = (uint64_t)coll_count(b, ri_find_record(&b->mpiio, f->id, r), write);
            if (want > 0)
                rc = self_collective(b, f, r, write, want);
        }
    }
    return rc;
}
