/* combine_emit.c: one merged record out of the records the lanes of a
 * group picked (combine.c chose them): members in rank order, each value
 * from its lane's base, affine relation or vector, paths numbered in member
 * order, handles unified with each rank's own id recovered through its
 * part's aliases, so that the record, its ids and aliases are what emit.c
 * writes for the same ranks. */
#define _GNU_SOURCE
#include "combine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int column_of(unsigned field)
{
    return field == REC_FIELD_TSTART ? COL_TSTART : field == REC_FIELD_TEND ? COL_TEND : (int)field;
}

/* The lane's base value of a scalar column. */
static int64_t base_value(const lane *L, const rec_layout_view *lay, unsigned col)
{
    if (col == COL_TSTART)
        return (int64_t)L->rec.tstart;
    if (col == COL_TEND)
        return (int64_t)L->rec.tend;
    if (col < lay->nargs)
        return L->rec.args[col].i;
    return col == lay->nargs ? L->rec.ret.i : L->rec.err;
}

/* Member i (of the lane's set) of rank `rank`: its value of a scalar column. */
static int64_t lane_value(const lane *L, const rec_layout_view *lay, unsigned col, uint32_t i, uint32_t rank)
{
    int v = L->var_of[col];
    if (v < 0)
        return base_value(L, lay, col);
    const rec_variation *var = &L->mi.vars[v];
    if (var->relation == REC_REL_AFFINE)
        return (int64_t)((uint64_t)var->a * rank + (uint64_t)var->b);
    return var->values[i].i;
}

static lane *lane_of_member(const combiner *c, uint32_t k)
{
    unsigned g = c->ngroup - 1;
    while (g && c->group[g]->offset > k)
        g--;
    return c->group[g];
}

static int64_t *arena_take(combiner *c, size_t n)
{
    if (c->arena_used + n > c->arena_cap) {
        /* values already handed out point into the full block: it is kept
         * until the record is written */
        int64_t **spent = realloc(c->spent, (c->nspent + 1) * sizeof *spent);
        size_t cap = c->arena_cap ? 2 * c->arena_cap : 4096;
        while (cap < n)
            cap *= 2;
        int64_t *grown = spent ? malloc(cap * sizeof *grown) : NULL;
        if (spent)
            c->spent = spent;
        if (!grown) {
            c->oom = 1;
            return NULL;
        }
        if (c->arena)
            c->spent[c->nspent++] = c->arena;
        c->arena = grown;
        c->arena_cap = cap;
        c->arena_used = 0;
    }
    int64_t *p = c->arena + c->arena_used;
    c->arena_used += n;
    return p;
}

void combine_arena_reset(combiner *c)
{
    for (size_t i = 0; i < c->nspent; i++)
        free(c->spent[i]);
    c->nspent = 0;
    c->arena_used = 0;
}

/* A string, or an array decoded with its handles translated to the merged
 * trace's ids (members' arrays into the arena). */
static rec_value settle_bytes(combiner *c, lane *L, unsigned field, rec_value v)
{
    if (c->lay->cls[field] != REC_CLASS_ARRAY)
        return v;
    int64_t *e = arena_take(c, v.len ? v.len : 1);
    if (!e)
        return (rec_value){0};
    rec_value_array(&v, e, v.len);
    unsigned space = c->lay->space[field];
    for (uint32_t x = 0; space && x < v.len; x++) {
        int64_t merged;
        if (keymap_get(&L->final_ids, handle_key(space, e[x]), &merged))
            e[x] = merged;
    }
    return (rec_value){.ptr = e, .len = v.len};
}

rec_value combine_member_bytes(void *ctx, uint32_t k, unsigned field)
{
    combiner *c = ctx;
    lane *L = lane_of_member(c, k);
    int v = L->var_of[field];
    if (v < 0)
        return L->bytes[field];
    return settle_bytes(c, L, field, L->mi.vars[v].values[k - L->offset]);
}

/* Member k's rank, and its place in its lane's set. */
static lane *member(const combiner *c, uint32_t k, uint32_t *i)
{
    lane *L = lane_of_member(c, k);
    *i = k - L->offset;
    return L;
}

/* A column whose values the lanes give as they are (no handle, no path). */
static void put_plain(combiner *c, unsigned col)
{
    const rec_layout_view *lay = c->lay;
    int64_t first = base_value(c->group[0], lay, col);
    int same = 1;
    for (unsigned g = 0; g < c->ngroup && same; g++)
        same = c->group[g]->var_of[col] < 0 && base_value(c->group[g], lay, col) == first;
    if (same) {
        emit_put(&c->b, 0, 0, col, first);
        return;
    }
    int64_t *out = emit_column(&c->b, 0, col);
    for (unsigned g = 0; g < c->ngroup; g++) {
        lane *L = c->group[g];
        int64_t *to = out + L->offset;
        int v = L->var_of[col];
        const rec_variation *var = v < 0 ? NULL : &L->mi.vars[v];
        if (!var) {
            int64_t x = base_value(L, lay, col);
            for (uint32_t i = 0; i < L->mi.nranks; i++)
                to[i] = x;
        } else if (var->relation == REC_REL_VECTOR) {
            for (uint32_t i = 0; i < L->mi.nranks; i++)
                to[i] = var->values[i].i;
        } else {
            for (uint32_t i = 0; i < L->mi.nranks; i++)
                to[i] = lane_value(L, lay, col, i, c->b.ranks[L->offset + i]);
        }
    }
}

/* Paths: each member's, as the merged trace numbers it (members in order, as
 * emit() defines them). */
static void put_paths(combiner *c, unsigned col, uint32_t n)
{
    int64_t cached = -1, cached_for = -1;
    lane *cached_lane = NULL;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i;
        lane *L = member(c, k, &i);
        int64_t id = lane_value(L, c->lay, col, i, c->b.ranks[k]);
        if (L != cached_lane || id != cached_for) {
            const char *p = rec_cursor_path(L->now, id);
            cached = p ? rec_writer_path_id(c->w, p) : -1;
            cached_lane = L, cached_for = id;
        }
        emit_put(&c->b, 0, k, col, cached);
    }
}

/* The id rank `rank` of lane L knows the part's handle x by. */
static int64_t own_id(const lane *L, unsigned space, int64_t x, uint32_t rank)
{
    return rec_cursor_aliased(L->now, space, x) ? rec_cursor_own_handle(L->now, rank, space, x) : x;
}

/* A handle the group creates: the first member's own id if no other handle
 * took it, else a fresh one (emit.c's unify_created). */
static int put_created(combiner *c, unsigned col, uint32_t n)
{
    unsigned kind = c->lay->kind[col], space = c->lay->space[col];
    lane *L0 = c->group[0];
    int64_t own0 = own_id(L0, space, lane_value(L0, c->lay, col, 0, c->b.ranks[0]), c->b.ranks[0]);
    int64_t merged = rec_handle_is_dynamic(own0) ? claim_merged_id(&c->m, space, own0) : 0;
    if (merged < 0)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i;
        lane *L = member(c, k, &i);
        int64_t x = lane_value(L, c->lay, col, i, c->b.ranks[k]), v = x;
        if (rec_handle_is_dynamic(x)) {
            int64_t own = own_id(L, space, x, c->b.ranks[k]);
            if (!rec_handle_is_dynamic(own0)) {
                v = own; /* the first member's call failed: every member keeps its own */
            } else {
                if (keymap_put(&L->final_ids, handle_key(space, x), merged) != 0)
                    return -1;
                if (own != merged && rec_writer_handle_alias(c->w, c->b.ranks[k], kind, merged, own) != 0)
                    return -1;
                v = merged;
            }
        }
        emit_put(&c->b, 0, k, col, v);
    }
    return 0;
}

/* A handle the group uses: its merged id when known; one first seen in use
 * gets one per distinct own id across the group (emit.c's unify_used). */
static int put_used(combiner *c, unsigned col, uint32_t n)
{
    unsigned kind = c->lay->kind[col], space = c->lay->space[col];
    int fast = 1;
    for (unsigned g = 0; g < c->ngroup && fast; g++) {
        lane *L = c->group[g];
        int64_t x = base_value(L, c->lay, col), known;
        fast = L->var_of[col] < 0 && (!rec_handle_is_dynamic(x) || keymap_get(&L->final_ids, handle_key(space, x), &known));
    }
    if (fast) { /* one handle a lane, every one known */
        int64_t lane_ids[64] = {0};
        int same = 1;
        for (unsigned g = 0; g < c->ngroup; g++) {
            lane *L = c->group[g];
            int64_t v = base_value(L, c->lay, col);
            if (rec_handle_is_dynamic(v))
                keymap_get(&L->final_ids, handle_key(space, v), &v);
            lane_ids[g] = v;
            same &= v == lane_ids[0];
        }
        if (same) {
            emit_put(&c->b, 0, 0, col, lane_ids[0]);
            return 0;
        }
        int64_t *out = emit_column(&c->b, 0, col);
        for (unsigned g = 0; g < c->ngroup; g++)
            for (uint32_t i = 0; i < c->group[g]->mi.nranks; i++)
                out[c->group[g]->offset + i] = lane_ids[g];
        return 0;
    }
    uint8_t *done = c->b.done;
    memset(done, 0, n);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i;
        lane *L = member(c, k, &i);
        int64_t x = lane_value(L, c->lay, col, i, c->b.ranks[k]), v = x;
        if (rec_handle_is_dynamic(x) && !done[k] && !keymap_get(&L->final_ids, handle_key(space, x), &v)) {
            int64_t own = own_id(L, space, x, c->b.ranks[k]), merged = claim_merged_id(&c->m, space, own);
            if (merged < 0)
                return -1;
            /* every member still to come with the same own id shares it; the
             * lanes learn it after the record */
            for (uint32_t j = k; j < n; j++) {
                uint32_t ij;
                lane *J = member(c, j, &ij);
                int64_t xj = lane_value(J, c->lay, col, ij, c->b.ranks[j]), known;
                if (done[j] || !rec_handle_is_dynamic(xj) || keymap_get(&J->final_ids, handle_key(space, xj), &known) ||
                    own_id(J, space, xj, c->b.ranks[j]) != own)
                    continue;
                if (merged != own && rec_writer_handle_alias(c->w, c->b.ranks[j], kind, merged, own) != 0)
                    return -1;
                done[j] = 2;
            }
            for (uint32_t j = k; j < n; j++)
                if (done[j] == 2) {
                    uint32_t ij;
                    lane *J = member(c, j, &ij);
                    int64_t xj = lane_value(J, c->lay, col, ij, c->b.ranks[j]);
                    if (keymap_put(&J->final_ids, handle_key(space, xj), merged) != 0)
                        return -1;
                    done[j] = 1;
                }
            v = merged;
        } else if (done[k]) {
            keymap_get(&L->final_ids, handle_key(space, x), &v);
        }
        emit_put(&c->b, 0, k, col, v);
    }
    return 0;
}

int combine_emit(combiner *c, rec_merge_stats *st, rec_error *err)
{
    uint32_t n = 0;
    for (unsigned g = 0; g < c->ngroup; g++) {
        lane *L = c->group[g];
        if (lane_record(c, L, err) != 0)
            return -1;
        L->offset = n;
        for (unsigned col = 0; col < EMIT_COLUMNS; col++)
            L->var_of[col] = -1;
        for (uint32_t v = 0; v < L->mi.nvars; v++)
            L->var_of[column_of(L->mi.vars[v].field)] = (int)v;
        for (uint32_t r = 0; r < L->mi.nranges; r++) {
            const rec_rank_range *range = &L->mi.ranges[r];
            for (uint32_t x = 0; x < range->count; x++)
                c->b.ranks[n++] = range->first + x * (range->count > 1 ? range->stride : 1);
        }
    }
    const rec_layout_view *lay = c->lay = layout_for(&c->m, c->group[0]->rec.func);
    combine_arena_reset(c);
    c->b.varying[0] = 0;
    /* emit()'s order: paths and arrays of handles, used handles, created
     * handles; then the rest */
    for (unsigned g = 0; g < c->ngroup; g++)
        for (uint32_t todo = lay->bytes_fields; todo; todo &= todo - 1) {
            unsigned f = (unsigned)__builtin_ctz(todo);
            lane *L = c->group[g];
            L->bytes[f] = settle_bytes(c, L, f, f < lay->nargs ? L->rec.args[f] : L->rec.ret);
        }

    for (unsigned col = 0; col < lay->nfields; col++)
        if (lay->cls[col] == REC_CLASS_PATH)
            put_paths(c, col, n);
    for (uint32_t todo = lay->used_handles; todo; todo &= todo - 1)
        if (put_used(c, (unsigned)__builtin_ctz(todo), n) != 0)
            goto oom;
    for (uint32_t todo = lay->created_handles; todo; todo &= todo - 1)
        if (put_created(c, (unsigned)__builtin_ctz(todo), n) != 0)
            goto oom;
    for (unsigned col = 0; col < EMIT_COLUMNS; col++) {
        int field = col < lay->nfields;
        if ((field && (lay->cls[col] == REC_CLASS_PATH || lay->cls[col] == REC_CLASS_NONE ||
                       (lay->bytes_fields >> col & 1) || ((lay->used_handles | lay->created_handles) >> col & 1))) ||
            (!field && col != COL_TSTART && col != COL_TEND))
            continue;
        put_plain(c, col);
    }
    rec_record first = c->group[0]->rec;
    for (uint32_t todo = lay->bytes_fields; todo; todo &= todo - 1) {
        unsigned f = (unsigned)__builtin_ctz(todo);
        rec_value v = combine_member_bytes(c, 0, f);
        if (f < lay->nargs)
            first.args[f] = v;
        else
            first.ret = v;
    }
    if (c->oom)
        goto oom;
    return emit_finish(&c->m, c->w, n, lay, &first, 0, &c->b, st, err);
oom:
    snprintf(err->msg, sizeof err->msg, "out of memory");
    return -1;
}
