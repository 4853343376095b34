/* stat_group.c: a record's calls over its ranks, from its counters alone.
 *
 * The record's reads and writes get sizes from its histogram
 * (stat_sizes.c; a STDIO record has none: equal sizes), dealt to its
 * ranks in turn (access j to rank j mod N), so each rank gets an equal
 * share (the first ranks one more) of every size. Each rank makes its
 * share of the opens (sessions), of the read/write switches (runs: reads
 * then writes or writes then reads, whichever the record's first times
 * say came first, alternating), of the seeks, stats, syncs and flushes. A
 * record over MPI_COMM_WORLD gives every rank the same sessions, runs,
 * collective accesses and syncs (the floor of each total over the ranks;
 * what is left over is made independent, or left out), so the collective
 * calls match. The runs go to the sessions in order (sessions past the
 * runs are opened and closed empty, at the end), each kind's accesses and
 * collective ones evenly over its runs; the offsets are laid out over the
 * group (stat_layout.c) to the record's consecutive and sequential counts
 * and largest byte. */
#include <stdlib.h>
#include <string.h>

#include "stat_group.h"

int ri_sops_push(sops *s, const sop *o)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        sop *v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n++] = *o;
    return 0;
}

static uint32_t nranks_of(const group *g)
{
    return g->nranks ? g->nranks : 1;
}

/* A per-rank count of the group: each rank its share, or (world) all the floor. */
static int64_t rank_count(const group *g, int64_t total, uint32_t i)
{
    uint32_t n = nranks_of(g);
    return g->world && n > 1 ? total / n : ri_share(total, n, i);
}

static int64_t runs_of_kind(int64_t runs, int first_kind, int kind)
{
    return kind == first_kind ? (runs + 1) / 2 : runs / 2;
}

/* The session of run r of a rank of s sessions and R runs. */
static uint32_t session_of_run(int64_t r, int64_t s, int64_t R)
{
    return (uint32_t)(s >= R ? r : r * s / R);
}

static int shapes(group *g)
{
    uint32_t n = nranks_of(g);
    const ri_view *v = &g->v;
    g->sessions = calloc(n, sizeof *g->sessions);
    g->runs = calloc(n, sizeof *g->runs);
    if (!g->sessions || !g->runs)
        return -1;
    double rs = v->win[RI_WIN_READ][0], ws = v->win[RI_WIN_WRITE][0];
    g->first_kind = v->n[1] > 0 && (v->n[0] == 0 || !(rs > 0) || (ws > 0 && ws <= rs)) ? 1 : 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t a0 = g->first[0][i + 1] - g->first[0][i], a1 = g->first[1][i + 1] - g->first[1][i];
        /* over MPI_COMM_WORLD the collective opens: the independent ones are each rank's own (stat_plan.c) */
        int64_t s = rank_count(g, g->world && v->coll_opens > 0 ? v->coll_opens : v->opens, i);
        int both = g->world ? v->n[0] > 0 && v->n[1] > 0 : a0 > 0 && a1 > 0;
        int64_t R = both ? rank_count(g, v->switches, i) + 1 : 1;
        if (both && R < 2)
            R = 2; /* reads and writes, the switch not counted (STDIO counts none) */
        if (R > (1 << 16))
            R = 1 << 16;
        if (s == 0 && (a0 || a1))
            s = 1; /* accesses whose opens went uncounted (dups, filenos, fdopens) */
        g->sessions[i] = s;
        g->runs[i] = R;
    }
    return 0;
}

int ri_group_make(group *g, const ri_view *like)
{
    const ri_view *v = &g->v;
    uint32_t n = nranks_of(g);
    int64_t *solved[2];
    for (int k = 0; k < 2; k++) {
        size_t m = (size_t)v->n[k];
        solved[k] = malloc((m ? m : 1) * sizeof(int64_t));
        g->sizes[k] = malloc((m ? m : 1) * sizeof(int64_t));
        g->offsets[k] = calloc(m ? m : 1, sizeof(int64_t));
        g->first[k] = calloc((size_t)n + 1, sizeof(size_t));
        if (!solved[k] || !g->sizes[k] || !g->offsets[k] || !g->first[k]) {
            free(solved[0]);
            free(k ? solved[1] : NULL);
            return -1;
        }
    }
    if (v->has_bins) {
        ri_sizes_in in;
        memset(&in, 0, sizeof in);
        for (int k = 0; k < 2; k++) {
            in.n[k] = v->n[k];
            in.bytes[k] = v->bytes[k];
            memcpy(in.bins[k], v->bins[k], sizeof in.bins[k]);
        }
        memcpy(in.common, v->common, sizeof in.common);
        memcpy(in.common_count, v->common_count, sizeof in.common_count);
        in.max_size = v->module == RI_DARSHAN_MPIIO ? 2147483647 : (int64_t)1 << 40;
        g->how = ri_solve_sizes(&in, solved[0], solved[1]);
    } else {
        for (int k = 0; k < 2; k++) /* STDIO: no histogram, sizes as equal as the bytes allow */
            for (int64_t j = 0; j < v->n[k]; j++) {
                int64_t x = v->bytes[k] / v->n[k] + (j < v->bytes[k] % v->n[k]);
                solved[k][j] = x < ((int64_t)1 << 40) ? x : (int64_t)1 << 40;
            }
        g->how = 0;
    }
    for (int k = 0; k < 2; k++) { /* deal: access j to rank j mod n */
        size_t at = 0;
        for (uint32_t i = 0; i < n; i++) {
            g->first[k][i] = at;
            for (size_t j = i; j < (size_t)v->n[k]; j += n)
                g->sizes[k][at++] = solved[k][j];
        }
        g->first[k][n] = at;
        free(solved[k]);
    }
    if (shapes(g) != 0)
        return -1;
    if (v->module == RI_DARSHAN_STDIO) { /* each session's accesses at the stream's position, from 0 */
        for (int k = 0; k < 2; k++)
            g->layout[k] = RI_LAYOUT_OWN;
        return 0;
    }
    const ri_view *o = like ? like : v;
    for (int k = 0; k < 2; k++) {
        /* sessions of kind k: per rank, per session, its runs' accesses */
        size_t cap = 0;
        for (uint32_t i = 0; i < n; i++)
            cap += (size_t)(g->sessions[i] ? g->sessions[i] : 1);
        ri_layout_session *ss = calloc(cap ? cap : 1, sizeof *ss);
        if (!ss)
            return -1;
        size_t ns = 0;
        for (uint32_t i = 0; i < n; i++) {
            size_t a = g->first[k][i], m = g->first[k][i + 1] - a;
            int64_t S = g->sessions[i] ? g->sessions[i] : 1, R = g->runs[i];
            int64_t Rk = runs_of_kind(R, g->first_kind, k);
            size_t from = a;
            for (int64_t s = 0; s < S; s++) {
                size_t to = from;
                int64_t q = 0;
                for (int64_t r = 0; r < R; r++) {
                    if ((r % 2 == 0 ? g->first_kind : !g->first_kind) != k)
                        continue;
                    if (session_of_run(r, S, R) == (uint32_t)s && Rk > 0)
                        to = a + (size_t)((uint64_t)m * (uint64_t)(q + 1) / (uint64_t)Rk);
                    q++;
                }
                ss[ns++] = (ri_layout_session){i, from, to - from};
                from = to;
            }
        }
        int same = like && o->n[k] == v->n[k];
        ri_layout_in in = {n,
                           n > 1,
                           g->sizes[k],
                           (size_t)v->n[k],
                           ss,
                           ns,
                           same || !like ? o->consec[k] : -1,
                           same || !like ? o->seq[k] : -1,
                           o->maxbyte[k] >= 0 ? o->maxbyte[k] + 1 : -1};
        g->layout[k] = ri_layout(&in, g->offsets[k]);
        free(ss);
    }
    return 0;
}

void ri_group_free(group *g)
{
    for (int k = 0; k < 2; k++) {
        free(g->sizes[k]);
        free(g->offsets[k]);
        free(g->first[k]);
    }
    free(g->sessions);
    free(g->runs);
}

/* Spreads `count` calls over `slots` places: how many go at place p. */
static int64_t at_place(int64_t count, int64_t slots, int64_t p)
{
    if (slots <= 0)
        return 0;
    return count * (p + 1) / slots - count * p / slots;
}

/* counts[] syncs, data syncs and flushes of the session, after run (0: no run); -1: out of memory. */
static int push_syncs(sops *out, const int64_t counts[3], uint32_t session, int stdio, uint32_t run)
{
    static const uint8_t calls[3] = {RI_CALL_SYNC, RI_CALL_DATASYNC, RI_CALL_FLUSH};
    for (int c = 0; c < 3; c++)
        for (int64_t z = 0; z < counts[c]; z++) {
            sop o = {.call = calls[c],
                     .session = session,
                     .stdio = (uint8_t)stdio,
                     .win = RI_WIN_COUNT,
                     .run = run,
                     .parent = -1};
            if (ri_sops_push(out, &o))
                return -1;
        }
    return 0;
}

int ri_group_script(const group *g, uint32_t i, sops *out)
{
    const ri_view *v = &g->v;
    int stdio = v->module == RI_DARSHAN_STDIO;
    int64_t S = g->sessions[i], R = g->runs[i];
    size_t a[2] = {g->first[0][i], g->first[1][i]};
    size_t m[2] = {g->first[0][i + 1] - a[0], g->first[1][i + 1] - a[1]};
    int64_t coll[2], Rk[2];
    for (int k = 0; k < 2; k++) {
        coll[k] = rank_count(g, v->coll[k], i);
        coll[k] = coll[k] > (int64_t)m[k] ? (int64_t)m[k] : coll[k];
        Rk[k] = runs_of_kind(R, g->first_kind, k);
    }
    int64_t seeks = rank_count(g, v->seeks, i), stats = rank_count(g, v->stats, i);
    int64_t syncs = rank_count(g, v->syncs, i), datasyncs = rank_count(g, v->datasyncs, i);
    int64_t flushes = rank_count(g, v->flushes, i);
    int64_t data = (int64_t)(m[0] + m[1]), data_at = 0, write_runs = 0, wrun_at = 0;
    for (int64_t r = 0; r < R; r++)
        write_runs += (r % 2 == 0 ? g->first_kind : !g->first_kind) == 1;
    sop o;
    for (int64_t j = 0; j < stats; j++) {
        o = (sop){.call = RI_CALL_STAT, .win = RI_WIN_OPEN, .parent = -1};
        if (ri_sops_push(out, &o))
            return -1;
    }
    int64_t q[2] = {0, 0}; /* runs of each kind so far */
    size_t done[2] = {0, 0};
    for (int64_t s = 0; s < S; s++) {
        int reads = 0, writes = 0;
        for (int64_t r = 0; r < R; r++)
            if (session_of_run(r, S, R) == (uint32_t)s)
                *((r % 2 == 0 ? g->first_kind : !g->first_kind) ? &writes : &reads) = 1;
        o = (sop){.call = RI_CALL_OPEN,
                  .win = RI_WIN_OPEN,
                  .session = (uint32_t)s,
                  .stdio = (uint8_t)stdio,
                  .reads = reads,
                  .writes = writes,
                  .parent = -1};
        if (ri_sops_push(out, &o))
            return -1;
        if (data == 0 && s == 0)
            for (int64_t j = 0; j < seeks; j++) {
                o = (sop){.call = RI_CALL_SEEK,
                          .session = 0,
                          .stdio = (uint8_t)stdio,
                          .win = RI_WIN_COUNT,
                          .parent = -1};
                if (ri_sops_push(out, &o))
                    return -1;
            }
        int64_t pos = 0; /* a stream's position */
        for (int64_t r = 0; r < R; r++) {
            if (session_of_run(r, S, R) != (uint32_t)s)
                continue;
            int k = (r % 2 == 0 ? g->first_kind : !g->first_kind);
            size_t to = Rk[k] ? (size_t)((uint64_t)m[k] * (uint64_t)(q[k] + 1) / (uint64_t)Rk[k]) : m[k];
            int64_t c_to = Rk[k] ? coll[k] * (q[k] + 1) / Rk[k] : coll[k];
            int64_t c_from = Rk[k] ? coll[k] * q[k] / Rk[k] : 0;
            for (size_t j = done[k]; j < to; j++) {
                int64_t off = g->offsets[k][a[k] + j], len = g->sizes[k][a[k] + j];
                for (int64_t z = 0; z < at_place(seeks, data, data_at); z++) {
                    o = (sop){.call = RI_CALL_SEEK,
                              .session = (uint32_t)s,
                              .stdio = (uint8_t)stdio,
                              .win = RI_WIN_COUNT,
                              .offset = stdio ? pos : off,
                              .parent = -1};
                    if (ri_sops_push(out, &o))
                        return -1;
                }
                data_at++;
                o = (sop){.call = (uint8_t)(k ? RI_CALL_WRITE : RI_CALL_READ),
                          .kind = (uint8_t)k,
                          .stdio = (uint8_t)stdio,
                          .win = (uint8_t)(k ? RI_WIN_WRITE : RI_WIN_READ),
                          .session = (uint32_t)s,
                          .run = (uint32_t)r,
                          .offset = stdio ? pos : off,
                          .length = len,
                          .parent = -1};
                o.collective = (int64_t)(j - done[k]) < c_to - c_from;
                pos += len;
                if (ri_sops_push(out, &o))
                    return -1;
            }
            done[k] = to;
            q[k]++;
            if (k == 1) { /* syncs and flushes after write runs */
                int64_t n_sync = at_place(syncs, write_runs, wrun_at),
                        n_data = at_place(datasyncs, write_runs, wrun_at);
                int64_t n_flush = at_place(flushes, write_runs, wrun_at);
                wrun_at++;
                int64_t counts[3] = {n_sync, n_data, n_flush};
                if (push_syncs(out, counts, (uint32_t)s, stdio, (uint32_t)r))
                    return -1;
            }
        }
        if (write_runs == 0) { /* no writes: syncs and flushes before the closes */
            int64_t counts[3] = {at_place(syncs, S, s), at_place(datasyncs, S, s), at_place(flushes, S, s)};
            if (push_syncs(out, counts, (uint32_t)s, stdio, 0))
                return -1;
        }
        o = (sop){.call = RI_CALL_CLOSE,
                  .win = RI_WIN_CLOSE,
                  .session = (uint32_t)s,
                  .stdio = (uint8_t)stdio,
                  .parent = -1};
        if (ri_sops_push(out, &o))
            return -1;
    }
    return 0;
}
