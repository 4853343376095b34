/* merge.c: the merge loop, and how a group of records becomes one merged
 * record: a rank set, the first rank's values, and for each field that
 * differs an affine relation with the rank or a per-rank vector. Handles a
 * group creates get one id in the merged trace (aliases keep each rank's
 * own id recoverable). */
#define _GNU_SOURCE
#include "merge_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void rec_merge_options_init(rec_merge_options *o)
{
    memset(o, 0, sizeof *o);
    o->window = 200;
    o->tool = "recorder-merge";
}

static void layout_of(const rec_func_desc *f, rec_layout_view *lay)
{
    memset(lay, 0, sizeof *lay);
    lay->nargs = f->nargs;
    lay->nfields = f->nargs;
    for (unsigned a = 0; a < f->nargs; a++) {
        lay->cls[a] = (uint8_t)rec_kind_class(f->args[a].kind);
        lay->kind[a] = f->args[a].kind;
    }
    if (f->ret_kind != REC_KIND_NONE) {
        lay->kind[lay->nfields] = f->ret_kind;
        lay->cls[lay->nfields++] = (uint8_t)rec_kind_class(f->ret_kind);
        lay->kind[lay->nfields] = REC_KIND_ERRNO;
        lay->cls[lay->nfields++] = REC_CLASS_INT;
    }
    lay->own_fields = lay->used_handles = lay->created_handles = 0;
    for (unsigned i = 0; i < lay->nfields && i <= lay->nargs; i++) {
        lay->space[i] = (uint8_t)rec_kind_handle_space(lay->kind[i]);
        lay->created[i] = i < lay->nargs ? (f->args[i].flags & REC_ARG_CREATE) != 0 : (f->flags & REC_FN_CREATES) != 0;
        if (lay->cls[i] == REC_CLASS_PATH || (lay->space[i] && lay->cls[i] == REC_CLASS_ARRAY))
            lay->own_fields |= 1u << i;
        else if (lay->space[i] && lay->cls[i] == REC_CLASS_INT)
            *(lay->created[i] ? &lay->created_handles : &lay->used_handles) |= 1u << i;
    }
}

const rec_layout_view *layout_for(merger *m, unsigned func)
{
    if (!m->layout_ready[func]) {
        layout_of(rec_table_lookup(m->table, func), &m->layouts[func]);
        m->layout_ready[func] = 1;
    }
    return &m->layouts[func];
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- what to emit next ---- */

static int by_rank(const void *a, const void *b)
{
    uint32_t x = (*(rank_state *const *)a)->rank, y = (*(rank_state *const *)b)->rank;
    return x < y ? -1 : x > y;
}

/* The ranks whose head has signature s, ascending. */
static uint32_t group_of(const merger *m, const sig_entry *s, rank_state **group)
{
    uint32_t n = 0;
    if (s->head_count == m->live) { /* every rank still running: no list to walk, nothing to sort */
        for (uint32_t i = 0; i < m->nranks; i++)
            if (m->ranks[i].count)
                group[n++] = &m->ranks[i];
        return n;
    }
    for (const rank_state *r = s->heads; r; r = r->hnext)
        group[n++] = (rank_state *)r;
    qsort(group, n, sizeof *group, by_rank); /* heads are listed newest first */
    return n;
}

/* Fills group[] with the ranks to merge now (ascending); returns how many. */
static uint32_t choose(merger *m, int paper_rule, rank_state **group, rec_merge_stats *st)
{
    sig_entry *s = NULL;
    if (paper_rule) {
        rank_state *any = NULL;
        for (uint32_t i = 0; i < m->nranks && !any; i++)
            if (m->ranks[i].count)
                any = &m->ranks[i];
        /* Every rank still running sits on the same signature. */
        uint32_t live = 0;
        for (uint32_t i = 0; i < m->nranks; i++)
            live += m->ranks[i].count != 0;
        if (any && any->head_sig->head_count == live)
            s = any->head_sig;
    } else {
        while (m->max_bucket && !m->bucket[m->max_bucket])
            m->max_bucket--;
        s = m->max_bucket ? m->bucket[m->max_bucket] : NULL;
    }
    if (s)
        return group_of(m, s, group);
    /* The paper's rule: the head whose nearest match is farthest away, with
     * the distance taken once per distinct head signature (heads that share
     * one share it). Better than the paper: a collective head waits for its
     * communicator unless every head is collective, and every head holding
     * the chosen signature goes out as one record, not one rank at a time. */
    st->fallbacks++;
    m->visit++;
    rank_state *best = NULL;
    uint64_t best_d = 0;
    int best_coll = 1;
    for (uint32_t i = 0; i < m->nranks; i++) {
        rank_state *r = &m->ranks[i];
        if (!r->count || (!paper_rule && r->head_sig->visit == m->visit))
            continue;
        r->head_sig->visit = m->visit;
        const rec_func_desc *f = rec_table_lookup(m->table, r->ring[r->head]->func);
        int coll = !paper_rule && (f->flags & REC_FN_COLLECTIVE) != 0;
        if (coll && !best_coll)
            continue;
        uint64_t d = r->head_sig->ranks_with == r->head_sig->head_count ? UINT64_MAX : distance(m, r);
        if (!best || (best_coll && !coll) || d > best_d) {
            best = r;
            best_d = d;
            best_coll = coll;
        }
        if (d == UINT64_MAX && !coll)
            break;
    }
    if (!best)
        return 0;
    if (paper_rule) {
        group[0] = best;
        return 1;
    }
    return group_of(m, best->head_sig, group);
}

/* ---- building the merged record ---- */

typedef struct emit_buffers {
    wrec **recs;          /* per group member: its window record, read in place */
    uint8_t *done;        /* per group member: already translated */
    rec_value *values;    /* per variation x member */
    rec_variation *vars;
    rec_rank_range *ranges;
} emit_buffers;

static int same_value(unsigned cls, const rec_value *a, const rec_value *b)
{
    switch (cls) {
    case REC_CLASS_STR:
        return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len) == 0);
    case REC_CLASS_ARRAY:
        return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len * sizeof(int64_t)) == 0);
    default:
        return a->i == b->i;
    }
}

/* Ranks ascending -> (first, count, stride) runs. */
static uint32_t rank_ranges(rank_state **group, uint32_t n, rec_rank_range *out)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n;) {
        rec_rank_range g = {group[i]->rank, 1, 1};
        if (i + 1 < n) {
            g.stride = group[i + 1]->rank - group[i]->rank;
            while (i + g.count < n && group[i + g.count]->rank == g.first + g.count * g.stride)
                g.count++;
        }
        if (g.count == 1)
            g.stride = 1;
        out[k++] = g;
        i += g.count;
    }
    return k;
}

static int64_t get_scalar(const wrec *r, const rec_layout_view *lay, unsigned field)
{
    if (field == REC_FIELD_TSTART)
        return (int64_t)r->tstart;
    if (field == REC_FIELD_TEND)
        return (int64_t)r->tend;
    return field < lay->nargs ? r->args[field].i : field == lay->nargs ? r->ret.i : r->err;
}

static rec_value get_value(const wrec *r, const rec_layout_view *lay, unsigned field)
{
    if (field >= REC_FIELD_TSTART || field > lay->nargs)
        return (rec_value){.i = get_scalar(r, lay, field)};
    return field < lay->nargs ? r->args[field] : r->ret;
}

/* Which fields differ between the members: bit i for field i, bits
 * REC_MAX_FIELDS and REC_MAX_FIELDS + 1 for the start and end times. One pass
 * over the members, not one per field: at thousands of ranks each pass
 * reads every member's record again from beyond the first-level cache. */
static uint64_t fields_that_differ(wrec *const *recs, uint32_t n, const rec_layout_view *lay)
{
    const uint64_t times = 3ull << REC_MAX_FIELDS;
    uint64_t all = times, differ = 0;
    for (unsigned i = 0; i < lay->nfields; i++)
        if (lay->cls[i] != REC_CLASS_NONE)
            all |= 1ull << i;
    const wrec *first = recs[0];
    for (uint32_t k = 1; k < n && differ != all; k++) {
        const wrec *r = recs[k];
        if (r->tstart != first->tstart)
            differ |= 1ull << REC_MAX_FIELDS;
        if (r->tend != first->tend)
            differ |= 2ull << REC_MAX_FIELDS;
        for (uint64_t todo = all & ~differ & ~times; todo; todo &= todo - 1) {
            unsigned i = (unsigned)__builtin_ctzll(todo);
            rec_value x = get_value(first, lay, i), y = get_value(r, lay, i);
            if (!same_value(lay->cls[i], &x, &y))
                differ |= 1ull << i;
        }
    }
    return differ;
}

/* The variation of a field the members disagree on: affine in the rank when
 * an exact relation holds, else a vector. */
static void vary(rank_state **group, uint32_t n, const rec_layout_view *lay, unsigned field, emit_buffers *b,
                uint32_t *nvars, size_t *nvalues)
{
    unsigned cls = field >= REC_FIELD_TSTART ? REC_CLASS_INT : lay->cls[field];
    rec_variation *var = &b->vars[(*nvars)++];
    *var = (rec_variation){.field = (uint16_t)field, .relation = REC_REL_VECTOR};
    if (cls == REC_CLASS_INT || cls == REC_CLASS_PATH) {
        int64_t r0 = group[0]->rank, r1 = group[1]->rank;
        int64_t v0 = get_scalar(b->recs[0], lay, field), v1 = get_scalar(b->recs[1], lay, field);
        int64_t dv = (int64_t)((uint64_t)v1 - (uint64_t)v0);
        if (dv % (r1 - r0) == 0) {
            int64_t a = dv / (r1 - r0);
            int64_t c = (int64_t)((uint64_t)v0 - (uint64_t)a * (uint64_t)r0);
            int affine = 1;
            for (uint32_t k = 2; k < n && affine; k++)
                affine = get_scalar(b->recs[k], lay, field) ==
                         (int64_t)((uint64_t)a * (uint64_t)group[k]->rank + (uint64_t)c);
            if (affine) {
                var->relation = REC_REL_AFFINE;
                var->a = a;
                var->b = c;
                return;
            }
        }
    }
    var->values = b->values + *nvalues;
    for (uint32_t k = 0; k < n; k++)
        b->values[(*nvalues)++] = get_value(b->recs[k], lay, field);
}

static int64_t unify_lookup(rank_state *rs, unsigned space, int64_t id)
{
    int64_t merged;
    return keymap_get(&rs->unified, handle_key(space, id), &merged) ? merged : id;
}

/* The merged trace's id for a handle the group creates in field `field`:
 * the first rank's own id if no other handle took it, else a fresh one. */
static int unify_created(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b,
                         const rec_layout_view *lay, unsigned field)
{
    unsigned kind = lay->kind[field], space = rec_kind_handle_space(kind);
    int64_t own = field < lay->nargs ? b->recs[0]->args[field].i : b->recs[0]->ret.i;
    if (own < REC_HANDLE_DYNAMIC_BASE)
        return 0;
    int64_t merged = own;
    int64_t used;
    uint64_t key = handle_key(space, merged);
    if (keymap_get(&m->merged_ids_used, key, &used)) {
        merged = m->next_merged_id[space]++;
        key = handle_key(space, merged);
    }
    if (merged >= m->next_merged_id[space])
        m->next_merged_id[space] = merged + 1;
    if (keymap_put(&m->merged_ids_used, key, 1) != 0)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        rec_value *v = field < lay->nargs ? &b->recs[k]->args[field] : &b->recs[k]->ret;
        if (v->i < REC_HANDLE_DYNAMIC_BASE)
            continue; /* this rank's call failed: its value stays */
        if (keymap_put(&group[k]->unified, handle_key(space, v->i), merged) != 0)
            return -1;
        if (v->i != merged && rec_writer_handle_alias(w, group[k]->rank, kind, merged, v->i) != 0)
            return -1;
        v->i = merged;
    }
    return 0;
}

/* A handle the record uses: its merged id if its creation was seen. A handle
 * first seen in use (made by an untraced call, e.g. inside MPI-IO) is
 * unified here, once per distinct value across the group, so that its number
 * can never be mistaken for another handle's merged id. */
static int unify_used(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b,
                      const rec_layout_view *lay, unsigned field)
{
    unsigned kind = lay->kind[field], space = rec_kind_handle_space(kind);
    memset(b->done, 0, n);
    for (uint32_t k = 0; k < n; k++) {
        rec_value *v = field < lay->nargs ? &b->recs[k]->args[field] : &b->recs[k]->ret;
        if (v->i < REC_HANDLE_DYNAMIC_BASE || b->done[k])
            continue;
        int64_t known;
        uint64_t key = handle_key(space, v->i);
        if (keymap_get(&group[k]->unified, key, &known)) {
            v->i = known;
            continue;
        }
        int64_t own = v->i, merged = own;
        int64_t used;
        uint64_t mkey = handle_key(space, merged);
        if (keymap_get(&m->merged_ids_used, mkey, &used)) {
            merged = m->next_merged_id[space]++;
            mkey = handle_key(space, merged);
        }
        if (merged >= m->next_merged_id[space])
            m->next_merged_id[space] = merged + 1;
        if (keymap_put(&m->merged_ids_used, mkey, 1) != 0)
            return -1;
        /* every member still to come with the same number shares it */
        for (uint32_t j = k; j < n; j++) {
            rec_value *x = field < lay->nargs ? &b->recs[j]->args[field] : &b->recs[j]->ret;
            if (x->i != own || b->done[j])
                continue;
            int64_t mine;
            if (keymap_get(&group[j]->unified, key, &mine))
                continue;
            if (keymap_put(&group[j]->unified, key, merged) != 0)
                return -1;
            if (merged != own && rec_writer_handle_alias(w, group[j]->rank, kind, merged, own) != 0)
                return -1;
            x->i = merged;
            b->done[j] = 1;
        }
    }
    return 0;
}

static int emit(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b, rec_merge_stats *st,
                rec_error *err)
{
    const wrec *head = group[0]->ring[group[0]->head];
    const rec_layout_view *lay = layout_for(m, head->func);
    for (uint32_t k = 0; k < n; k++) {
        prefetch_ahead(m, group, n, k);
        rank_state *rs = group[k];
        wrec *r = rs->ring[rs->head];
        b->recs[k] = r; /* translated in place: the window's copy is popped next */
        r->tstart += (uint64_t)rs->tick_offset;
        r->tend += (uint64_t)rs->tick_offset;
        for (uint32_t todo = lay->own_fields; todo; todo &= todo - 1) {
            unsigned i = (unsigned)__builtin_ctz(todo);
            rec_value *v = i < lay->nargs ? &r->args[i] : &r->ret;
            if (lay->cls[i] == REC_CLASS_PATH) {
                const char *p = rec_cursor_path(rs->cursor, v->i);
                v->i = p ? rec_writer_path_id(w, p) : -1;
            } else {
                int64_t *e = (int64_t *)v->ptr; /* the window's own copy */
                for (uint32_t x = 0; x < v->len; x++)
                    e[x] = unify_lookup(rs, lay->space[i], e[x]);
            }
        }
    }
    for (uint32_t todo = lay->used_handles; todo; todo &= todo - 1)
        if (unify_used(m, w, group, n, b, lay, (unsigned)__builtin_ctz(todo)) != 0) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
    for (uint32_t todo = lay->created_handles; todo; todo &= todo - 1)
        if (unify_created(m, w, group, n, b, lay, (unsigned)__builtin_ctz(todo)) != 0) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
    uint32_t nvars = 0;
    size_t nvalues = 0;
    if (n > 1) {
        uint64_t differ = fields_that_differ(b->recs, n, lay);
        for (unsigned i = 0; i < lay->nfields; i++)
            if (differ >> i & 1)
                vary(group, n, lay, i, b, &nvars, &nvalues);
        if (differ >> REC_MAX_FIELDS & 1)
            vary(group, n, lay, REC_FIELD_TSTART, b, &nvars, &nvalues);
        if (differ >> (REC_MAX_FIELDS + 1) & 1)
            vary(group, n, lay, REC_FIELD_TEND, b, &nvars, &nvalues);
    }
    rec_merge_info mi = {.nranks = n, .nvars = nvars, .vars = b->vars, .ranges = b->ranges};
    mi.nranges = rank_ranges(group, n, b->ranges);
    int everyone = n == m->nranks && nvars == 0;
    rec_record base;
    wrec_to_record(b->recs[0], &base);
    if (rec_writer_append_merged(w, &base, everyone ? NULL : &mi, err) != 0)
        return -1;
    st->records_out++;
    if (n == m->nranks)
        st->merged_all++;
    else if (n > 1)
        st->merged_group++;
    else
        st->single++;
    return 0;
}

/* ---- the driver ---- */

static int make_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void merger_free(merger *m)
{
    /* last opened first: glibc unlinks a closed FILE by walking its list of
     * open ones from the newest, which in opening order costs O(ranks) each */
    for (uint32_t i = m->nranks; m->ranks && i-- > 0;) {
        rank_state *rs = &m->ranks[i];
        while (rs->count)
            pop(m, rs);
        for (wrec *w = rs->queue_first, *next; rs->queued; rs->queued--, w = next) {
            next = w->next_same;
            chunk_release(rs, w);
        }
        free(rs->sig_tab);
        keymap_free(&rs->canon);
        keymap_free(&rs->unified);
        free(rs->current);
        free(rs->spare);
        free(rs->ring);
        rec_cursor_close(rs->cursor);
    }
    sig_entry *s, *tmp;
    HASH_ITER(hh, m->sigs, s, tmp)
    {
        HASH_DEL(m->sigs, s);
        free(s);
    }
    keymap_free(&m->merged_ids_used);
    free(m->layouts);
    free(m->layout_ready);
    free(m->ranks);
    free(m->bucket);
}

static int write_meta(const char *out_dir, const rec_trace *t, const rec_merge_options *o, const char *in_dir,
                      uint64_t start_ns, rec_error *err)
{
    const rec_trace_info *in = rec_trace_get_info(t);
    rec_option *opts = calloc(in->noptions + 3, sizeof *opts);
    if (!opts) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    char window[32];
    snprintf(window, sizeof window, "%u", o->window);
    size_t n = 0;
    for (size_t i = 0; i < in->noptions; i++)
        opts[n++] = in->options[i];
    opts[n++] = (rec_option){"merge.source", in_dir};
    opts[n++] = (rec_option){"merge.window", window};
    opts[n++] = (rec_option){"merge.rule", o->paper_rule ? "paper" : "complete-group"};
    rec_trace_info info = *in;
    info.flags |= REC_TRACE_MERGED;
    info.start_time_ns = start_ns;
    info.window = REC_WINDOW_DEFAULT;
    info.noptions = n;
    info.options = opts;
    int rc = rec_write_global_metadata(out_dir, &info, rec_trace_table(t), NULL, err);
    free(opts);
    return rc;
}

int rec_merge_traces(const char *in_dir, const char *out_dir, const rec_merge_options *o, rec_merge_stats *st,
                     rec_error *err)
{
    rec_merge_options defaults;
    if (!o) {
        rec_merge_options_init(&defaults);
        o = &defaults;
    }
    memset(st, 0, sizeof *st);
    double t0 = now();
    rec_trace *t = rec_trace_open(in_dir, err);
    if (!t)
        return -1;
    if (rec_trace_is_merged(t)) {
        snprintf(err->msg, sizeof err->msg, "%s: already a merged trace", in_dir);
        rec_trace_close(t);
        return -1;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    /* hardening: a damaged recorder.meta may claim up to 2^24 ranks; the
     * last rank's stream must exist before per-rank state is allocated
     * (20 GB and minutes, then "cannot open 2.rec", before) */
    rec_cursor *last = rec_cursor_open(t, info->nranks - 1, err);
    if (!last) {
        rec_trace_close(t);
        return -1;
    }
    rec_cursor_close(last);
    merger m = {.table = rec_trace_table(t), .window = o->window ? o->window : 200, .nranks = info->nranks};
    for (int s = 0; s < REC_SPACE_COUNT; s++)
        m.next_merged_id[s] = REC_HANDLE_DYNAMIC_BASE;
    st->nranks = info->nranks;
    m.ranks = aligned_alloc(_Alignof(rank_state), (size_t)m.nranks * sizeof *m.ranks); /* whole cache lines */
    if (m.ranks)
        memset(m.ranks, 0, (size_t)m.nranks * sizeof *m.ranks);
    m.bucket = calloc((size_t)m.nranks + 1, sizeof *m.bucket);
    m.layouts = calloc(REC_FUNCTION_ID_LIMIT, sizeof *m.layouts);
    m.layout_ready = calloc(REC_FUNCTION_ID_LIMIT, 1);
    rank_state **group = calloc(m.nranks, sizeof *group);
    emit_buffers b = {
        .recs = calloc(m.nranks, sizeof *b.recs),
        .done = calloc(m.nranks, 1),
        .values = calloc(((size_t)REC_MAX_FIELDS + 2) * m.nranks, sizeof *b.values),
        .vars = calloc(REC_MAX_FIELDS + 2, sizeof *b.vars),
        .ranges = calloc(m.nranks, sizeof *b.ranges),
    };
    rec_writer *w = NULL;
    int rc = -1;
    if (!m.ranks || !m.bucket || !m.layouts || !m.layout_ready || !group || !b.recs || !b.values || !b.vars || !b.ranges) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    /* Put every rank's times on the earliest rank's clock. */
    uint64_t start_ns = UINT64_MAX, total = 0;
    for (uint32_t r = 0; r < m.nranks; r++) {
        rec_error ignored;
        const rec_rank_meta *meta = rec_trace_rank_meta(t, r, &ignored);
        uint64_t s = meta ? meta->start_time_ns : info->start_time_ns;
        m.ranks[r].tick_offset = (int64_t)s; /* the ns for now: made ticks below */
        if (s < start_ns)
            start_ns = s;
        if (meta) {
            total += meta->records;
            if (meta->records > st->max_rank_records)
                st->max_rank_records = meta->records;
        }
    }
    for (uint32_t r = 0; r < m.nranks; r++) {
        rank_state *rs = &m.ranks[r];
        rs->rank = r;
        double ticks = (double)((uint64_t)rs->tick_offset - start_ns) / (info->time_resolution * 1e9) + 0.5;
        /* hardening: a tiny time resolution (any in (0, 1000) s is valid) can
         * put this past int64_t, and converting such a double is undefined */
        rs->tick_offset = ticks < 9.2e18 ? (int64_t)ticks : INT64_MAX;
        rs->ring = calloc(m.window, sizeof *rs->ring);
        rs->cursor = rec_cursor_open(t, r, err);
        if (!rs->ring || !rs->cursor) {
            if (!rs->ring)
                snprintf(err->msg, sizeof err->msg, "out of memory");
            goto done;
        }
    }
    if (make_dirs(out_dir) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", out_dir, strerror(errno));
        goto done;
    }
    rec_writer_options wo;
    rec_writer_options_init(&wo);
    wo.table = m.table;
    wo.start_time_ns = start_ns;
    if (!(w = rec_writer_open(out_dir, REC_MERGED_STREAM, &wo, err)))
        goto done;
    for (uint32_t r = 0; r < m.nranks; r++)
        if (fill(&m, &m.ranks[r], err) != 0)
            goto done;
    for (uint32_t r = 0; r < m.nranks; r++)
        m.live += m.ranks[r].count != 0;
    double last_report = t0;
    for (;;) {
        uint32_t n = choose(&m, o->paper_rule, group, st);
        if (!n)
            break;
        if (emit(&m, w, group, n, &b, st, err) != 0)
            goto done;
        for (uint32_t k = 0; k < n; k++) {
            prefetch_ahead(&m, group, n, k);
            pop(&m, group[k]);
            if (fill(&m, group[k], err) != 0)
                goto done;
            m.live -= !group[k]->count;
        }
        if (o->progress && (st->records_out & 4095) == 0) {
            double tnow = now();
            if (tnow - t0 > 1.0 && tnow - last_report > 1.0) {
                fprintf(stderr, "%s: %.0f%% (%llu of %llu records), %.1f s\n", o->tool,
                        total ? 100.0 * (double)m.records_in / (double)total : 0.0,
                        (unsigned long long)m.records_in, (unsigned long long)total, tnow - t0);
                last_report = tnow;
            }
        }
    }
    rc = rec_writer_close(w, err);
    w = NULL;
    if (rc == 0)
        rc = write_meta(out_dir, t, o, in_dir, start_ns, err);
done:
    st->records_in = m.records_in;
    st->seconds = now() - t0;
    if (w)
        rec_writer_discard(w);
    merger_free(&m);
    free(group);
    free(b.recs);
    free(b.done);
    free(b.values);
    free(b.vars);
    free(b.ranges);
    rec_trace_close(t);
    return rc;
}
