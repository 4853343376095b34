/* combine.c: merging merged traces. A parallel merge (recorder-merge under
 * mpirun) merges consecutive blocks of ranks on its processes, then merges
 * those parts in a tree. Each part is a lane: its records, in order, are
 * what its ranks' heads were in the merge of the block. The lanes are
 * merged with the rule of merge.c, a lane counting for the ranks of its
 * record: the records of several lanes that are the same call (the same
 * signature, handles taken by what created them) become one, whose members
 * are the lanes' members in rank order and whose values, handles and
 * aliases are made as emit.c makes them for the ranks themselves, so that
 * where the blocks merged as the whole trace would, the result is the
 * serial merge's, byte for byte. */
#define _GNU_SOURCE
#include "combine.h"
#include "recorder_h5skel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t held(lane *L, uint64_t sig)
{
    int64_t n;
    return keymap_get(&L->held, sig, &n) ? n : 0;
}

static int lane_fill(combiner *c, lane *L, rec_error *err)
{
    while (!L->eof && L->count < c->window) {
        rec_record r;
        rec_merge_info mi;
        int rc = rec_cursor_next_merged(L->ahead, &r, &mi, err);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            L->eof = 1;
            break;
        }
        const rec_layout_view *lay = layout_for(&c->m, r.func);
        uint64_t sig;
        rec_rank_range *ranges = malloc(mi.nranges * sizeof *ranges);
        if (!ranges || record_signature(&L->rs, lay, &r, &sig) != 0 ||
            keymap_put(&L->held, sig, held(L, sig) + 1) != 0) {
            free(ranges);
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
        memcpy(ranges, mi.ranges, mi.nranges * sizeof *ranges);
        const rec_func_desc *f = rec_table_lookup(c->m.table, r.func);
        *entry(c, L, L->count++) = (lane_entry){.sig = sig,
                                                .nranks = mi.nranks,
                                                .nranges = mi.nranges,
                                                .ranges = ranges,
                                                .func = r.func,
                                                .collective = (f->flags & REC_FN_COLLECTIVE) != 0};
        c->m.records_in += mi.nranks;
    }
    return 0;
}

/* ---- which records go next: merge.c's rule, a record counting for its ranks ---- */

/* How far into lane L's window the first record with sig is; UINT64_MAX: nowhere. */
static uint64_t lane_distance(const combiner *c, const lane *L, uint64_t sig)
{
    if (!held((lane *)L, sig))
        return UINT64_MAX;
    for (unsigned k = 0; k < L->count; k++)
        if (!entry(c, L, k)->merged && entry(c, L, k)->sig == sig)
            return k;
    return UINT64_MAX;
}

/* The group of records with sig: the first usable one of each lane holding
 * it (heads only: the lanes' first records). */
static unsigned group_with(combiner *c, uint64_t sig, int heads_only)
{
    c->ngroup = 0;
    for (unsigned g = 0; g < c->nlanes; g++) {
        lane *L = &c->lanes[g];
        unsigned most = heads_only ? 1 : REORDER_SCAN;
        for (unsigned k = 0; k < L->count && k < most; k++) {
            const lane_entry *e = entry(c, L, k);
            if (!e->merged && e->sig == sig && (heads_only || c->usable[g][k])) {
                L->pick = k;
                c->group[c->ngroup++] = L;
                break;
            }
        }
    }
    return c->ngroup;
}

static void mark_ranks(uint8_t *bits, const lane_entry *e, int set, int *hit)
{
    for (uint32_t r = 0; r < e->nranges; r++) {
        const rec_rank_range *g = &e->ranges[r];
        for (uint32_t x = 0; x < g->count; x++) {
            uint32_t rank = g->first + x * (g->count > 1 ? g->stride : 1);
            if (set)
                bits[rank >> 3] |= (uint8_t)(1u << (rank & 7));
            else if (bits[rank >> 3] >> (rank & 7) & 1)
                *hit = 1;
        }
    }
}

/* Which of the lane's first entries may go first: those none of whose
 * ranks has an earlier record in the window (a part's records of disjoint
 * rank sets came in an order of the part's own choosing). The scan stops
 * where every rank of the part has had a record. */
static void find_usable(combiner *c, unsigned g)
{
    lane *L = &c->lanes[g];
    unsigned most = L->count < REORDER_SCAN ? L->count : REORDER_SCAN;
    memset(c->usable[g], 0, REORDER_SCAN);
    memset(c->taken, 0, ((size_t)c->m.total_ranks + 7) / 8);
    uint64_t marked = 0;
    for (unsigned k = 0; k < most; k++) {
        const lane_entry *e = entry(c, L, k);
        if (e->merged)
            continue;
        if (L->block_ranks && marked >= L->block_ranks)
            break;
        int hit = 0;
        mark_ranks(c->taken, e, 0, &hit);
        c->usable[g][k] = !hit;
        if (!hit)
            marked += e->nranks;
        if (k + 1 < most)
            mark_ranks(c->taken, e, 1, &hit);
    }
}

/* Whether lane H's records with sig may all go now, as the part's entry k
 * (usable): every rank holding sig in the window holds it there. Known for
 * sure when it is the lane's only record with sig, or when it covers every
 * rank of the part; otherwise taken as no. */
static int whole_in_lane(const lane *H, const lane_entry *e, uint64_t sig)
{
    int64_t n = held((lane *)H, sig);
    return n == 1 || (H->block_ranks && e->nranks == H->block_ranks);
}

/* The complete group of most ranks: a signature every lane holding it has
 * in a record that may go now (heads only: at its head). 0: none. */
static unsigned complete_group(combiner *c, int heads_only)
{
    uint64_t best_weight = 0, chosen = 0;
    unsigned most = heads_only ? 1 : REORDER_SCAN;
    for (unsigned g = 0; g < c->nlanes; g++) {
        lane *L = &c->lanes[g];
        for (unsigned k = 0; k < L->count && k < most; k++) {
            const lane_entry *e = entry(c, L, k);
            if (e->merged || (!heads_only && !c->usable[g][k]))
                continue;
            uint64_t sig = e->sig, weight = 0;
            int complete = 1;
            for (unsigned h = 0; h < c->nlanes && complete; h++) {
                lane *H = &c->lanes[h];
                if (!held(H, sig))
                    continue;
                const lane_entry *x = NULL;
                for (unsigned j = 0; j < H->count && j < most && !x; j++) {
                    const lane_entry *y = entry(c, H, j);
                    if (!y->merged && y->sig == sig && (heads_only || c->usable[h][j]))
                        x = y;
                }
                complete = x && whole_in_lane(H, x, sig);
                weight += x ? x->nranks : 0;
            }
            if (complete && weight > best_weight)
                best_weight = weight, chosen = sig;
        }
    }
    return best_weight ? group_with(c, chosen, heads_only) : 0;
}

static unsigned choose_lanes(combiner *c, int paper_rule, rec_merge_stats *st)
{
    int any = 0, all_same = 1;
    for (unsigned g = 0; g < c->nlanes; g++)
        if (c->lanes[g].count) {
            for (unsigned h = 0; h < g; h++)
                all_same &= !c->lanes[h].count || entry(c, &c->lanes[h], 0)->sig == entry(c, &c->lanes[g], 0)->sig;
            any = 1;
        }
    if (!any)
        return 0;
    if (paper_rule && all_same) {
        unsigned g = 0;
        while (!c->lanes[g].count)
            g++;
        return group_with(c, entry(c, &c->lanes[g], 0)->sig, 1);
    }
    if (!paper_rule) {
        if (complete_group(c, 1))
            return c->ngroup;
        for (unsigned g = 0; g < c->nlanes; g++)
            find_usable(c, g);
        if (complete_group(c, 0))
            return c->ngroup;
    }
    /* None is complete: the head whose nearest match elsewhere is farthest
     * away, a collective one waiting while another can move. */
    st->fallbacks++;
    lane *best = NULL;
    uint64_t best_d = 0;
    int best_coll = 1;
    for (unsigned g = 0; g < c->nlanes; g++) {
        lane *L = &c->lanes[g];
        if (!L->count)
            continue;
        const lane_entry *e = entry(c, L, 0);
        int coll = !paper_rule && e->collective;
        if (coll && !best_coll)
            continue;
        uint64_t d = UINT64_MAX;
        for (unsigned h = 0; h < c->nlanes; h++)
            if (h != g && c->lanes[h].count) {
                uint64_t dh = lane_distance(c, &c->lanes[h], e->sig);
                d = dh < d ? dh : d;
            }
        if (!best || (best_coll && !coll) || d > best_d)
            best = L, best_d = d, best_coll = coll;
    }
    if (paper_rule) {
        best->pick = 0;
        c->group[0] = best;
        return c->ngroup = 1;
    }
    return group_with(c, entry(c, best, 0)->sig, 1);
}

/* ---- a part's records, as merged.c's cursor reads them ---- */

static held_record *hold(const rec_layout_view *lay, const rec_record *r, const rec_merge_info *mi)
{
    size_t bytes = sizeof(held_record) + mi->nranges * sizeof(rec_rank_range) + mi->nvars * sizeof(rec_variation);
    for (unsigned f = 0; f < lay->nfields; f++)
        if (lay->bytes_fields >> f & 1) {
            const rec_value *v = f < lay->nargs ? &r->args[f] : &r->ret;
            bytes += lay->cls[f] == REC_CLASS_ARRAY ? v->len * sizeof(int64_t) : v->len;
        }
    for (uint32_t v = 0; v < mi->nvars; v++) {
        const rec_variation *var = &mi->vars[v];
        unsigned f = var->field;
        if (var->relation != REC_REL_VECTOR)
            continue;
        bytes += mi->nranks * sizeof(rec_value);
        if (f < lay->nfields && (lay->bytes_fields >> f & 1))
            for (uint32_t k = 0; k < mi->nranks; k++)
                bytes += lay->cls[f] == REC_CLASS_ARRAY ? var->values[k].len * sizeof(int64_t) : var->values[k].len;
    }
    held_record *h = malloc(bytes + 16);
    if (!h)
        return NULL;
    uint8_t *p = (uint8_t *)(h + 1);
    h->rec = *r;
    h->mi = *mi;
    h->mi.ranges = memcpy(p, mi->ranges, mi->nranges * sizeof(rec_rank_range));
    p += mi->nranges * sizeof(rec_rank_range);
    rec_variation *vars = (rec_variation *)(void *)(((uintptr_t)p + 7) & ~(uintptr_t)7);
    memcpy(vars, mi->vars, mi->nvars * sizeof *vars);
    h->mi.vars = vars;
    p = (uint8_t *)(vars + mi->nvars);
    /* a value's bytes: arrays decoded (8-aligned, first), strings after */
    rec_value *values = (rec_value *)(void *)p;
    for (uint32_t v = 0; v < mi->nvars; v++)
        if (vars[v].relation == REC_REL_VECTOR) {
            memcpy(values, vars[v].values, mi->nranks * sizeof *values);
            vars[v].values = values;
            values += mi->nranks;
        }
    p = (uint8_t *)values;
#define HOLD_BYTES(val, cls)                                                                                       \
    do {                                                                                                           \
        rec_value *x_ = (val);                                                                                     \
        if ((cls) == REC_CLASS_ARRAY) {                                                                            \
            rec_value_array(x_, (int64_t *)(void *)p, x_->len);                                                    \
            x_->ptr = p, x_->encoded = 0;                                                                          \
            p += x_->len * sizeof(int64_t);                                                                        \
        } else {                                                                                                   \
            memcpy(p, x_->ptr, x_->len);                                                                           \
            x_->ptr = p;                                                                                           \
            p += x_->len;                                                                                          \
        }                                                                                                          \
    } while (0)
    for (int strings = 0; strings < 2; strings++) {
        for (unsigned f = 0; f < lay->nfields; f++)
            if ((lay->bytes_fields >> f & 1) && (lay->cls[f] == REC_CLASS_STR) == strings)
                HOLD_BYTES(f < lay->nargs ? &h->rec.args[f] : &h->rec.ret, lay->cls[f]);
        for (uint32_t v = 0; v < mi->nvars; v++) {
            unsigned f = vars[v].field;
            if (vars[v].relation != REC_REL_VECTOR || f >= lay->nfields || !(lay->bytes_fields >> f & 1) ||
                (lay->cls[f] == REC_CLASS_STR) != strings)
                continue;
            for (uint32_t k = 0; k < mi->nranks; k++)
                HOLD_BYTES((rec_value *)&vars[v].values[k], lay->cls[f]);
        }
    }
#undef HOLD_BYTES
    return h;
}

int lane_record(combiner *c, lane *L, rec_error *err)
{
    lane_entry *e = entry(c, L, L->pick);
    if (e->held) {
        L->rec = e->held->rec;
        L->mi = e->held->mi;
        return 0;
    }
    for (;;) {
        int rc = rec_cursor_next_merged(L->now, &L->rec, &L->mi, err);
        if (rc < 0)
            return -1;
        uint64_t at = L->now_pos++ - L->head_pos;
        lane_entry *x = at < L->count ? entry(c, L, (unsigned)at) : NULL;
        if (rc == 0 || !x || L->rec.func != x->func || L->mi.nranks != x->nranks) {
            snprintf(err->msg, sizeof err->msg, "%s: its records changed while it was read", rec_trace_dir(L->t));
            return -1;
        }
        if (x == e)
            return 0;
        if (!(x->held = hold(layout_for(&c->m, L->rec.func), &L->rec, &L->mi))) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
    }
}

/* The entry merged: the window moves past the merged records at its front. */
static void lane_settle(combiner *c, lane *L)
{
    lane_entry *e = entry(c, L, L->pick);
    e->merged = 1;
    keymap_put(&L->held, e->sig, held(L, e->sig) - 1);
    while (L->count && entry(c, L, 0)->merged) {
        lane_entry *x = entry(c, L, 0);
        free(x->ranges);
        free(x->held);
        *x = (lane_entry){0};
        L->head = (L->head + 1) % c->window;
        L->head_pos++;
        L->count--;
    }
}


/* ---- the driver ---- */

static int open_lane(combiner *c, lane *L, const char *dir, const rec_trace_info *whole, rec_error *err)
{
    if (!(L->t = rec_trace_open(dir, err)))
        return -1;
    const rec_trace_info *info = rec_trace_get_info(L->t);
    if (!rec_trace_is_merged(L->t) || info->nranks != whole->nranks) {
        snprintf(err->msg, sizeof err->msg, "%s: not a merged part of a trace of %u ranks", dir, whole->nranks);
        return -1;
    }
    if (!(L->ahead = rec_cursor_open_merged(L->t, err)) || !(L->now = rec_cursor_open_merged(L->t, err)))
        return -1;
    rec_cursor_sets_only(L->ahead);
    rec_cursor_keep_aliases(L->now);
    for (size_t i = 0; i < info->noptions; i++) {
        unsigned first, last;
        if (!strcmp(info->options[i].key, "merge.part") &&
            sscanf(info->options[i].value, "%u-%u", &first, &last) == 2 && first <= last)
            L->block_first = first, L->block_ranks = last - first + 1;
    }
    L->rs.cursor = L->ahead;
    L->rs.pool = &L->pool;
    if (!(L->ring = calloc(c->window, sizeof *L->ring))) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    return lane_fill(c, L, err);
}

static void close_lane(combiner *c, lane *L)
{
    for (unsigned k = 0; L->ring && k < L->count; k++) {
        free(entry(c, L, k)->ranges);
        free(entry(c, L, k)->held);
    }
    chunk_drop_current(&L->rs);
    keymap_free(&L->rs.canon);
    chunk_pool_free(&L->pool);
    keymap_free(&L->held);
    keymap_free(&L->final_ids);
    free(L->ring);
    rec_cursor_close(L->ahead);
    rec_cursor_close(L->now);
    rec_trace_close(L->t);
}

int rec_merge_combine(const char *in_dir, const char *const *parts, unsigned nparts, const char *out_dir,
                      const rec_merge_options *o, rec_merge_stats *st, rec_error *err)
{
    rec_merge_options defaults;
    o = merge_options(o, &defaults, st);
    double t0 = now();
    if (nparts == 0 || nparts > 64) {
        snprintf(err->msg, sizeof err->msg, "%u parts to merge: from 1 to 64 at a time", nparts);
        return -1;
    }
    rec_trace *t = rec_trace_open(in_dir, err);
    if (!t)
        return -1;
    const rec_trace_info *info = rec_trace_get_info(t);
    combiner c = {.nlanes = nparts, .window = o->window ? o->window : 200};
    int common_ok = merger_begin(&c.m, rec_trace_table(t), 0, info->nranks, info->nranks) == 0;
    st->nranks = info->nranks;
    int rc = -1;
    c.lanes = aligned_alloc(64, nparts * sizeof *c.lanes);
    if (c.lanes)
        memset(c.lanes, 0, nparts * sizeof *c.lanes);
    if (!common_ok || !c.lanes || emit_buffers_init(&c.b, info->nranks) != 0) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    c.b.time_tolerance = merge_time_tolerance(o, info);
    if (!(c.taken = malloc(((size_t)info->nranks + 7) / 8))) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    for (unsigned g = 0; g < nparts; g++)
        if (!(c.usable[g] = calloc(REORDER_SCAN, 1))) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            goto done;
        }
    c.b.bytes_of = combine_member_bytes;
    c.b.bytes_ctx = &c;
    for (unsigned g = 0; g < nparts; g++)
        if (open_lane(&c, &c.lanes[g], parts[g], info, err) != 0)
            goto done;
    uint64_t start_ns = rec_trace_get_info(c.lanes[0].t)->start_time_ns;
    for (unsigned g = 1; g < nparts; g++)
        if (rec_trace_get_info(c.lanes[g].t)->start_time_ns != start_ns) {
            snprintf(err->msg, sizeof err->msg, "%s: on another clock than %s", parts[g], parts[0]);
            goto done;
        }
    if (!(c.w = open_merged_writer(out_dir, c.m.table, start_ns, o->part, err)))
        goto done;
    while (choose_lanes(&c, o->paper_rule, st)) {
        if (combine_emit(&c, st, err) != 0)
            goto done;
        for (unsigned g = 0; g < c.ngroup; g++) {
            lane_settle(&c, c.group[g]);
            if (lane_fill(&c, c.group[g], err) != 0)
                goto done;
        }
    }
    rc = rec_writer_close(c.w, err);
    c.w = NULL;
    if (rc == 0)
        rc = write_meta(out_dir, t, o, in_dir, start_ns, err);
    if (rc == 0 && !o->part)
        rc = h5skel_copy_dir(in_dir, out_dir, err->msg, sizeof err->msg);
    if (rc == 0) /* the parts hold their ranks' filter data */
        rc = carry_h5store(parts, nparts, 0, UINT32_MAX, out_dir, o->tool, err);
done:
    st->records_in = c.m.records_in;
    st->seconds = now() - t0;
    if (c.w)
        rec_writer_discard(c.w);
    for (unsigned g = 0; c.lanes && g < nparts; g++)
        close_lane(&c, &c.lanes[g]);
    free(c.lanes);
    free(c.taken);
    for (unsigned g = 0; g < nparts; g++)
        free(c.usable[g]);
    combine_arena_reset(&c);
    free(c.arena);
    free(c.spent);
    merger_end_common(&c.m);
    emit_buffers_free(&c.b);
    rec_trace_close(t);
    return rc;
}
