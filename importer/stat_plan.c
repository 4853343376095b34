/* stat_plan.c: the calls of a file Darshan kept counters of and no DXT
 * accesses (a log without DXT), every one marked inferred.
 *
 * Its scope is the DXT plan's (import_plan.c): a file with MPI-IO records
 * is opened with MPI-IO, over MPI_COMM_WORLD when its record was reduced to
 * rank -1 (or every rank has one), else over MPI_COMM_SELF by each rank
 * with one; the POSIX calls its POSIX record counts are nested inside the
 * MPI-IO calls (opens in opens, closes in closes, reads in reads and
 * writes in writes of the same session, fsyncs in MPI_File_sync, stats in
 * the first open; opens beyond the MPI-IO ones open and close inside the
 * first MPI_File_open). A file of POSIX records alone is opened with
 * open(2); its STDIO records (a file of fopen's) make fopen, fread, fwrite,
 * fseek, fflush and fclose calls of their own. Each record's calls over
 * its ranks come from stat_group.c. Times: each call of a kind Darshan
 * timed (opens, reads, writes, closes) at its place between the record's
 * first start and last end of that kind, the others after the call before
 * them, each as long as the record's time of its kind over its count; a
 * nested call in its share of its parent's time. A file over
 * MPI_COMM_WORLD: each collective call (open, close, sync, collective read
 * or write) at the same moment on every rank, the latest one of them can
 * make it at, so the collective calls of files open at once come in one
 * order on every rank. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stat_group.h"

static uint64_t dur_ticks(const builder *b, double seconds, int64_t n)
{
    uint64_t t = seconds > 0 && n > 0 ? ri_ticks(b, seconds / (double)n) : 0;
    return t ? t : 1;
}

/* How a rank's top calls are timed: each kind's duration, and where in
 * its window the k-th call of the window goes. */
typedef struct timing {
    uint64_t meta, rd, wr;
    int64_t count[RI_WIN_COUNT], seen[RI_WIN_COUNT];
    uint64_t prev; /* the tick after the rank's last call */
} timing;

static void timing_of(const builder *b, const ri_view *v, const sops *s, timing *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].win < RI_WIN_COUNT)
            t->count[s->v[i].win]++;
    t->meta = dur_ticks(b, v->spent[2], v->opens * 2 + v->seeks + v->stats); /* bounded by groups_of */
    t->rd = dur_ticks(b, v->spent[0], v->n[0]);
    t->wr = dur_ticks(b, v->spent[1], v->n[1]);
}

static uint64_t duration(const timing *t, const sop *o)
{
    return o->call == RI_CALL_READ    ? t->rd
           : o->call == RI_CALL_WRITE ? t->wr
           : o->call == RI_CALL_SYNC || o->call == RI_CALL_DATASYNC || o->call == RI_CALL_FLUSH
               ? t->wr
               : t->meta;
}

/* The earliest the call may start: its place in its window, after the rank's last call. */
static uint64_t earliest(const builder *b, const ri_view *v, timing *t, const sop *o)
{
    uint64_t target = 0;
    if (o->win < RI_WIN_COUNT) {
        double lo = v->win[o->win][0], hi = v->win[o->win][1];
        int64_t k = t->seen[o->win]++, c = t->count[o->win];
        if (lo > 0 && hi >= lo)
            target = ri_ticks(b, lo + (hi - lo) * (c > 1 ? (double)k / (double)(c - 1) : 0));
    }
    return target > t->prev ? target : t->prev;
}

static void at(timing *t, sop *o, uint64_t t0)
{
    o->t0 = t0;
    o->t1 = t0 + duration(t, o);
    t->prev = o->t1 + 1;
}

/* Times a rank's top calls (parent -1). */
static void time_top(const builder *b, const ri_view *v, sops *s)
{
    timing t;
    timing_of(b, v, s, &t);
    for (size_t i = 0; i < s->n; i++)
        at(&t, &s->v[i], earliest(b, v, &t, &s->v[i]));
}

static int collective_sop(const sop *o)
{
    return o->call == RI_CALL_OPEN || o->call == RI_CALL_CLOSE || o->call == RI_CALL_SYNC || o->collective;
}

/* Times the top calls of a file over MPI_COMM_WORLD, every rank's (s[n]):
 * the j-th collective call of every rank at the same moment, the latest
 * any rank can make it at, its independent calls before it as time_top
 * times them. So every rank's collective calls of two files open at once
 * come in the same order. Ranks making unlike numbers of collective calls
 * (none here: stat_group.c makes them alike) are timed each on its own. */
static int time_world(const builder *b, const ri_view *v, sops *s, uint32_t n)
{
    timing *t = calloc(n, sizeof *t);
    size_t *next = calloc(n, sizeof *next), *colls = calloc(n, sizeof *colls);
    if (!t || !next || !colls) {
        free(t);
        free(next);
        free(colls);
        return -1;
    }
    int alike = 1;
    for (uint32_t r = 0; r < n; r++) {
        timing_of(b, v, &s[r], &t[r]);
        for (size_t i = 0; i < s[r].n; i++)
            colls[r] += (size_t)collective_sop(&s[r].v[i]);
        alike &= colls[r] == colls[0];
    }
    for (;;) {
        int more = 0;
        for (uint32_t r = 0; r < n; r++) {
            for (; next[r] < s[r].n && (!alike || !collective_sop(&s[r].v[next[r]])); next[r]++)
                at(&t[r], &s[r].v[next[r]], earliest(b, v, &t[r], &s[r].v[next[r]]));
            more |= next[r] < s[r].n;
        }
        if (!more)
            break;
        uint64_t when = 0;
        for (uint32_t r = 0; r < n; r++) {
            uint64_t e = earliest(b, v, &t[r], &s[r].v[next[r]]);
            when = e > when ? e : when;
        }
        for (uint32_t r = 0; r < n; r++)
            at(&t[r], &s[r].v[next[r]++], when);
    }
    free(t);
    free(next);
    free(colls);
    return 0;
}

/* Times nested calls inside their parents, each its share of the parent's time. */
static void time_nested(sops *top, sops *in)
{
    for (size_t p = 0; p < top->n; p++) {
        size_t m = 0, c = 0;
        for (size_t i = 0; i < in->n; i++)
            m += in->v[i].parent == (int64_t)p;
        if (!m)
            continue;
        uint64_t t0 = top->v[p].t0, span = top->v[p].t1 - t0;
        for (size_t i = 0; i < in->n; i++)
            if (in->v[i].parent == (int64_t)p) {
                in->v[i].t0 = t0 + span * c / m;
                in->v[i].t1 = t0 + span * (c + 1) / m;
                c++;
            }
    }
}

/* The top call of a kind (call, and for data the kind) in a session: the
 * q-th of Q nested ones goes to one of them in turn; -1 when none. */
static int64_t parent_in(const sops *top, uint8_t call, int kind, uint32_t session, size_t q, size_t Q)
{
    size_t n = 0;
    for (size_t i = 0; i < top->n; i++)
        n += top->v[i].call == call && top->v[i].session == session && top->v[i].kind == kind;
    if (!n)
        return -1;
    size_t want = Q ? (size_t)((uint64_t)q * n / Q) : 0, seen = 0;
    for (size_t i = 0; i < top->n; i++)
        if (top->v[i].call == call && top->v[i].session == session && top->v[i].kind == kind &&
            seen++ == want)
            return (int64_t)i;
    return -1;
}

/* Nests the POSIX script `in` of an MPI-IO file in its top MPI-IO calls:
 * first the opens, closes, stats, data calls and syncs, then each other
 * call (seeks) in the parent of the data call after it (or before it). */
static void nest(sops *top, sops *in)
{
    uint32_t top_sessions = 0;
    for (size_t i = 0; i < top->n; i++)
        if (top->v[i].call == RI_CALL_OPEN)
            top_sessions = top->v[i].session + 1;
    int64_t first_open = parent_in(top, RI_CALL_OPEN, 0, 0, 0, 1);
    for (size_t i = 0; i < in->n; i++) {
        sop *o = &in->v[i];
        uint32_t s = o->session;
        int64_t p = -1;
        if (s >= top_sessions || o->call == RI_CALL_STAT) {
            p = first_open;
        } else if (o->call == RI_CALL_OPEN || o->call == RI_CALL_CLOSE) {
            p = parent_in(top, o->call, 0, s, 0, 1);
        } else if (o->call == RI_CALL_READ || o->call == RI_CALL_WRITE) {
            size_t q = 0, Q = 0;
            for (size_t j = 0; j < in->n; j++)
                if (in->v[j].call == o->call && in->v[j].session == s) {
                    q += j < i;
                    Q++;
                }
            p = parent_in(top, o->call, o->kind, s, q, Q);
            if (p < 0)
                p = parent_in(top, o->call == RI_CALL_READ ? RI_CALL_WRITE : RI_CALL_READ, !o->kind, s, q, Q);
        } else if (o->call == RI_CALL_SYNC || o->call == RI_CALL_DATASYNC) {
            p = parent_in(top, RI_CALL_SYNC, 0, s, 0, 1);
        } else {
            continue; /* the second pass's */
        }
        if (p < 0)
            p = s < top_sessions ? parent_in(top, RI_CALL_OPEN, 0, s, 0, 1) : first_open;
        o->parent = p;
    }
    for (size_t i = 0; i < in->n; i++) {
        sop *o = &in->v[i];
        if (o->parent >= 0)
            continue;
        int64_t p = -1;
        for (size_t j = i + 1; j < in->n && p < 0 && in->v[j].session == o->session; j++)
            if ((in->v[j].call == RI_CALL_READ || in->v[j].call == RI_CALL_WRITE) && in->v[j].parent >= 0)
                p = in->v[j].parent;
        for (size_t j = i; j-- > 0 && p < 0;)
            if (in->v[j].session == o->session && in->v[j].parent >= 0)
                p = in->v[j].parent;
        o->parent = p >= 0 ? p : first_open;
    }
}

/* Makes the events of one rank's scripts. */
static int emit(builder *b, uint32_t rank, const file_state *f, int layer, const sops *s, int depth,
                const group *g, const sops *top)
{
    const ri_view *v = &g->v;
    int64_t handle = -1;
    for (size_t i = 0; i < s->n; i++) {
        const sop *o = &s->v[i];
        int64_t *next = o->stdio                   ? &b->next_stream[rank]
                        : layer == REC_LAYER_MPIIO ? &b->next_mpifile[rank]
                                                   : &b->next_fd[rank];
        if (o->call == RI_CALL_OPEN)
            handle = (*next)++;
        ri_event *e = ri_add_event(b, rank, f, (ri_call)o->call, layer);
        if (!e)
            return -1;
        e->tstart = o->t0;
        e->tend = o->t1;
        e->depth = (uint8_t)depth;
        e->inferred = 1;
        e->stdio = o->stdio;
        e->handle = o->call == RI_CALL_STAT ? -1 : handle;
        e->offset = o->offset;
        e->length = o->length;
        e->collective =
            (uint8_t)(layer == REC_LAYER_MPIIO &&
                      (o->call == RI_CALL_OPEN || o->call == RI_CALL_CLOSE || o->call == RI_CALL_SYNC
                           ? g->world
                           : o->collective));
        if (o->call != RI_CALL_OPEN)
            continue;
        if (o->stdio) {
            e->flags = o->writes ? (o->reads ? (g->first_kind ? RI_STDIO_WPLUS : RI_STDIO_RPLUS) : RI_STDIO_W)
                                 : RI_STDIO_R;
        } else if (layer == REC_LAYER_MPIIO) {
            e->flags = g->sessions[g->nranks > 1 ? rank : 0] == 1 && v->mode > 0
                           ? v->mode
                           : ri_amode_of(o->reads, o->writes);
        } else {
            int64_t parent_amode = -1;
            if (top && o->parent >= 0 && top->v[o->parent].call == RI_CALL_OPEN &&
                top->v[o->parent].session == o->session)
                parent_amode = top->v[o->parent].flags;
            e->flags =
                parent_amode >= 0 ? ri_oflags_of_amode(parent_amode) : ri_oflags_of(o->reads, o->writes);
            e->mode = (e->flags & O_CREAT) ? (v->mode > 0 && v->mode <= 07777 ? v->mode : 0644) : 0;
        }
    }
    return 0;
}

/* The POSIX seeks nested in an MPI-IO file's calls (events from `from` on,
 * bs's; the top calls' from `top_from`, ts's): the MPI library's own, moved
 * into MPI_File_get_size calls (import_build.h, ri_get_size_at), two a
 * call, before the last close when its session accessed the file, else
 * after the first open. */
static int seeks_in_get_size(builder *b, uint32_t rank, size_t top_from, const sops *ts, size_t from, const sops *bs)
{
    int64_t n = 0, first_open = -1, last_close = -1, accessed = 0;
    for (size_t i = 0; i < bs->n; i++)
        n += bs->v[i].call == RI_CALL_SEEK;
    for (size_t i = 0; i < ts->n; i++) {
        if (ts->v[i].call == RI_CALL_OPEN && first_open < 0)
            first_open = (int64_t)i;
        if (ts->v[i].call == RI_CALL_CLOSE)
            last_close = (int64_t)i;
    }
    if (!n || first_open < 0 || last_close < 0)
        return 0;
    for (size_t i = 0; i < ts->n; i++)
        accessed |= (ts->v[i].call == RI_CALL_READ || ts->v[i].call == RI_CALL_WRITE) &&
                    ts->v[i].session == ts->v[last_close].session;
    int64_t fds[2] = {-1, -1}; /* the POSIX fds of the first open's and the last close's sessions */
    for (size_t i = 0; i < bs->n; i++) {
        const ri_event *e = &b->p->ranks[rank].v[from + i];
        if (bs->v[i].call == RI_CALL_OPEN && bs->v[i].parent == first_open && fds[0] < 0)
            fds[0] = e->handle;
        if (bs->v[i].call == RI_CALL_CLOSE && bs->v[i].parent == last_close)
            fds[1] = e->handle;
    }
    int at_end = accessed && fds[1] >= 0;
    int64_t made = 0;
    uint64_t parent = 0, t = 0;
    for (size_t i = 0; i < bs->n; i++) {
        if (bs->v[i].call != RI_CALL_SEEK)
            continue;
        if (made % 2 == 0) {
            const ri_event *p = &b->p->ranks[rank].v[top_from + (size_t)(at_end ? last_close : first_open)];
            t = at_end ? p->tstart : p->tend;
            if (ri_get_size_at(b, rank, &b->files[p->file], t, p->handle, &parent) != 0)
                return -1;
        }
        ri_event *k = &b->p->ranks[rank].v[from + i];
        ri_seek_in_get_size(k, t, parent, made % 2 == 0, fds[at_end] >= 0 ? fds[at_end] : k->handle);
        made++;
    }
    return 0;
}

/* The amodes the top MPI-IO opens got, kept in their sops for the nested opens. */
static void keep_amodes(const builder *b, uint32_t rank, size_t from, sops *top)
{
    const ri_events *ev = &b->p->ranks[rank];
    size_t j = 0;
    for (size_t i = from; i < ev->n && j < top->n; i++, j++)
        if (top->v[j].call == RI_CALL_OPEN)
            top->v[j].flags = ev->v[i].flags;
}

typedef struct scope_groups {
    group *g;
    size_t n;
} scope_groups;

/* The groups of a module's records of the file: the rank -1 one, or each rank's own. */
static int groups_of(builder *b, const records *recs, unsigned module, uint64_t id, int world,
                     scope_groups *out)
{
    out->g = NULL;
    out->n = 0;
    const ri_darshan_record *all = ri_find_record(recs, id, -1), **own;
    size_t nown = ri_own_records(recs, id, &own);
    size_t n = all ? 1 : nown;
    if (!n)
        return 0;
    out->g = calloc(n, sizeof *out->g);
    if (!out->g)
        return ri_fail(b, "out of memory");
    for (size_t i = 0; i < n; i++) {
        group *g = &out->g[i];
        ri_view_of(all ? all : own[i], module, &g->v);
        g->nranks = all ? b->p->nranks : 1;
        g->rank = all ? 0 : (uint32_t)own[i]->rank;
        g->world = world;
        const ri_view *v = &g->v;
        double calls = (double)v->n[0] + (double)v->n[1] + 2.0 * (double)v->opens + (double)v->seeks +
                       (double)v->stats + (double)v->syncs + (double)v->datasyncs + (double)v->flushes;
        if (calls + (double)b->stat_calls > (double)RI_MAX_STAT_CALLS) {
            char what[700];
            snprintf(what, sizeof what,
                     "%s: its %s counters count %.0f calls, past the %llu recorder-import makes of a log's "
                     "counters (%llu made before)",
                     ri_darshan_name_of(b->log, id), ri_darshan_module_name(module), calls,
                     (unsigned long long)RI_MAX_STAT_CALLS, (unsigned long long)b->stat_calls);
            return ri_fail(b, what);
        }
        b->stat_calls += (uint64_t)calls;
    }
    out->n = n;
    return 0;
}

static void free_groups(scope_groups *s)
{
    for (size_t i = 0; i < s->n; i++)
        ri_group_free(&s->g[i]);
    free(s->g);
    s->g = NULL;
    s->n = 0;
}

/* The group of the rank (its index in it through *index), or NULL. */
static group *group_of_rank(scope_groups *s, uint32_t rank, uint32_t *index)
{
    for (size_t i = 0; i < s->n; i++) {
        group *g = &s->g[i];
        if (g->nranks > 1 && rank < g->nranks) {
            *index = rank;
            return g;
        }
        if (g->nranks <= 1 && g->rank == rank) {
            *index = 0;
            return g;
        }
    }
    return NULL;
}

static void count_group(builder *b, const group *g)
{
    b->p->stat_even += (g->how & RI_SIZES_EVEN) != 0;
    for (int k = 0; k < 2; k++) {
        b->p->stat_partitioned += g->layout[k] == RI_LAYOUT_PARTITIONED;
        b->p->stat_replicated += g->layout[k] == RI_LAYOUT_REPLICATED;
    }
}

/* One scope's calls on every rank: `top` at depth 0, `below` nested in it (MPI-IO over POSIX). */
static int place_scope(builder *b, file_state *f, int layer, scope_groups *top, scope_groups *below)
{
    for (size_t i = 0; below && i < below->n; i++)
        if (ri_group_make(&below->g[i], NULL) != 0)
            return ri_fail(b, "out of memory");
    for (size_t i = 0; i < top->n; i++) { /* MPI-IO offsets to the POSIX record's counters of them */
        uint32_t idx;
        group *g = &top->g[i], *like = below ? group_of_rank(below, g->rank, &idx) : NULL;
        if (like && like->nranks != g->nranks)
            like = NULL;
        if (ri_group_make(g, like ? &like->v : NULL) != 0)
            return ri_fail(b, "out of memory");
    }
    for (size_t i = 0; i < top->n; i++)
        count_group(b, &top->g[i]);
    /* a file over MPI_COMM_WORLD: every rank's top script first, timed together */
    uint32_t nr = b->p->nranks;
    int world = layer == REC_LAYER_MPIIO && top->n == 1 && top->g[0].world && top->g[0].nranks == nr && nr > 1;
    sops *scripts = world ? calloc(nr, sizeof *scripts) : NULL;
    if (world && !scripts)
        return ri_fail(b, "out of memory");
    for (uint32_t r = 0; world && r < nr; r++)
        if (ri_group_script(&top->g[0], r, &scripts[r]) != 0) {
            for (uint32_t q = 0; q <= r; q++)
                free(scripts[q].v);
            free(scripts);
            return ri_fail(b, "out of memory");
        }
    if (world && time_world(b, &top->g[0].v, scripts, nr) != 0) {
        for (uint32_t q = 0; q < nr; q++)
            free(scripts[q].v);
        free(scripts);
        return ri_fail(b, "out of memory");
    }
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t ti = 0, bi = 0;
        group *tg = group_of_rank(top, r, &ti), *bg = below ? group_of_rank(below, r, &bi) : NULL;
        sops ts = {0}, bs = {0};
        int rc = 0;
        if (world)
            ts = scripts[r]; /* timed already, freed below */
        else if (tg)
            rc = ri_group_script(tg, ti, &ts);
        if (rc == 0 && bg)
            rc = ri_group_script(bg, bi, &bs);
        if (rc != 0) {
            free(ts.v);
            free(bs.v);
            for (uint32_t q = r + 1; world && q < nr; q++)
                free(scripts[q].v);
            free(scripts);
            return ri_fail(b, "out of memory");
        }
        if (tg && !world)
            time_top(b, &tg->v, &ts);
        size_t from = b->p->ranks[r].n;
        if (tg && ts.n)
            rc = emit(b, r, f, layer, &ts, 0, tg, NULL);
        if (rc == 0 && bg && bs.n) {
            if (ts.n) {
                keep_amodes(b, r, from, &ts);
                nest(&ts, &bs);
                time_nested(&ts, &bs);
                size_t below_from = b->p->ranks[r].n;
                rc = emit(b, r, f, REC_LAYER_POSIX, &bs, 1, bg, &ts);
                if (rc == 0)
                    rc = seeks_in_get_size(b, r, from, &ts, below_from, &bs);
            } else { /* no MPI-IO calls of its own: the rank's POSIX ones at the top */
                time_top(b, &bg->v, &bs);
                rc = emit(b, r, f, REC_LAYER_POSIX, &bs, 0, bg, NULL);
            }
        }
        free(ts.v);
        free(bs.v);
        if (rc != 0) {
            for (uint32_t q = r + 1; world && q < nr; q++)
                free(scripts[q].v);
            free(scripts);
            return -1;
        }
    }
    free(scripts);
    return 0;
}

/* The independent opens of a file every rank opened collectively too
 * (Darshan counts an open over one rank independent): MPI-IO opens and
 * closes over MPI_COMM_SELF accessing nothing, after the rank's calls of
 * the file, each rank its share (PnetCDF's independent-mode handle), the
 * ones left over rank 0's (IOR's rank 0 checking the file, or asking its
 * size). Their POSIX opens are the POSIX group's already. */
static int place_lone_opens(builder *b, file_state *f, const group *g)
{
    const ri_view *v = &g->v;
    uint32_t n = b->p->nranks, file = (uint32_t)(f - b->files);
    int64_t indep = v->opens - v->coll_opens;
    if (!g->world || n < 2 || v->coll_opens <= 0 || indep <= 0)
        return 0;
    for (uint32_t r = 0; r < n; r++) {
        const ri_events *ev = &b->p->ranks[r];
        uint64_t t = 0;
        for (size_t i = ev->n; i-- > 0 && ev->v[i].file == file;) /* the file's, appended last */
            if (ev->v[i].layer == REC_LAYER_MPIIO && ev->v[i].tend > t)
                t = ev->v[i].tend;
        for (int64_t j = 0; j < indep / n + (r == 0 ? indep % n : 0); j++) {
            for (int c = 0; c < 2; c++) {
                ri_event *e = ri_add_event(b, r, f, c ? RI_CALL_CLOSE : RI_CALL_OPEN, REC_LAYER_MPIIO);
                if (!e)
                    return ri_fail(b, "out of memory");
                e->tstart = ++t;
                e->tend = ++t;
                e->inferred = 1;
                e->handle = c ? b->next_mpifile[r] - 1 : b->next_mpifile[r]++;
                e->flags = c ? 0 : ri_amode_of(1, 0);
            }
        }
    }
    return 0;
}

int ri_plan_stat_file(builder *b, file_state *f)
{
    scope_groups mpi = {0}, posix = {0}, stdio = {0};
    int rc = 0;
    b->p->stat_files++;
    const ri_darshan_record **own;
    size_t nown = ri_own_records(&b->mpiio, f->id, &own);
    int world = ri_find_record(&b->mpiio, f->id, -1) || (b->p->nranks > 1 && nown == b->p->nranks);
    rc = groups_of(b, &b->mpiio, RI_DARSHAN_MPIIO, f->id, world, &mpi);
    if (rc == 0)
        rc = groups_of(b, &b->posix, RI_DARSHAN_POSIX, f->id, 0, &posix);
    if (rc == 0)
        rc = groups_of(b, &b->stdio, RI_DARSHAN_STDIO, f->id, 0, &stdio);
    if (rc == 0 && mpi.n) {
        *(world ? &b->p->world_files : &b->p->self_files) += 1;
        rc = place_scope(b, f, REC_LAYER_MPIIO, &mpi, &posix);
        if (rc == 0)
            rc = place_lone_opens(b, f, &mpi.g[0]);
    } else if (rc == 0 && posix.n) {
        b->p->posix_files++;
        rc = place_scope(b, f, REC_LAYER_POSIX, &posix, NULL);
    }
    if (rc == 0 && stdio.n) {
        b->p->stat_stdio++;
        rc = place_scope(b, f, REC_LAYER_POSIX, &stdio, NULL);
    }
    free_groups(&mpi);
    free_groups(&posix);
    free_groups(&stdio);
    return rc;
}
