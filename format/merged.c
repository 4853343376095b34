/* merged.c: the annotations of merged records (docs/format.md, "Merged
 * traces"). An annotation is a definition entry of kind 2 written just
 * before its record:
 *   varint nranges, nranges x (varint first, varint count, varint stride)
 *   varint nvars, nvars x (varint field, varint relation,
 *       affine: svarint a, svarint b
 *       vector: one value per rank of the set: integers, paths and times as
 *               svarint deltas against the record's own value; strings and
 *               arrays in full)
 * A record with no annotation stands for every rank, with equal values. */
#include "merged.h"

#include <stdio.h>
#include <stdlib.h>

int rec_merge_info_find(const rec_merge_info *mi, uint32_t rank, uint32_t *index)
{
    uint32_t base = 0;
    for (uint32_t i = 0; i < mi->nranges; i++) {
        const rec_rank_range *g = &mi->ranges[i];
        if (rank >= g->first && g->count) {
            uint32_t off = rank - g->first;
            uint32_t stride = g->stride ? g->stride : 1;
            if (off % stride == 0 && off / stride < g->count) {
                *index = base + off / stride;
                return 1;
            }
        }
        base += g->count;
    }
    return 0;
}

/* The value of field `field` (or a time) of record r, as an integer. */
static int64_t scalar_of(const rec_record *r, const rec_layout *lay, unsigned field)
{
    if (field == REC_FIELD_TSTART)
        return (int64_t)r->tstart;
    if (field == REC_FIELD_TEND)
        return (int64_t)r->tend;
    if (field < lay->nargs)
        return r->args[field].i;
    return field == lay->nargs ? r->ret.i : r->err;
}

static unsigned class_of(const rec_layout *lay, unsigned field)
{
    return field >= REC_FIELD_TSTART ? REC_CLASS_INT : lay->cls[field];
}

static void put_array(rec_buf *b, const rec_value *v)
{
    int64_t small[256];
    int64_t *all = v->len <= 256 ? small : malloc(v->len * sizeof *all);
    if (!all) {
        b->oom = 1;
        return;
    }
    rec_value_array(v, all, v->len);
    rec_put_varint(b, v->len);
    for (uint32_t k = 0; k < v->len; k++)
        rec_put_svarint(b, all[k]);
    if (all != small)
        free(all);
}

void rec_merge_encode(rec_buf *b, const rec_layout *lay, const rec_record *base, const rec_merge_info *mi)
{
    rec_put_varint(b, mi->nranges);
    for (uint32_t i = 0; i < mi->nranges; i++) {
        rec_put_varint(b, mi->ranges[i].first);
        rec_put_varint(b, mi->ranges[i].count);
        rec_put_varint(b, mi->ranges[i].stride);
    }
    rec_put_varint(b, mi->nvars);
    for (uint32_t v = 0; v < mi->nvars; v++) {
        const rec_variation *var = &mi->vars[v];
        rec_put_varint(b, var->field);
        rec_put_varint(b, var->relation);
        if (var->relation == REC_REL_AFFINE) {
            rec_put_svarint(b, var->a);
            rec_put_svarint(b, var->b);
            continue;
        }
        unsigned cls = class_of(lay, var->field);
        int64_t own = cls == REC_CLASS_INT || cls == REC_CLASS_PATH ? scalar_of(base, lay, var->field) : 0;
        for (uint32_t k = 0; k < mi->nranks; k++) {
            const rec_value *x = &var->values[k];
            if (cls == REC_CLASS_STR)
                rec_put_str(b, x->ptr, x->len);
            else if (cls == REC_CLASS_ARRAY)
                put_array(b, x);
            else
                rec_put_svarint(b, (int64_t)((uint64_t)x->i - (uint64_t)own));
        }
    }
}

void rec_merge_state_free(rec_merge_state *s)
{
    free(s->ranges);
    free(s->vars);
    free(s->vidx);
    free(s->values);
    memset(s, 0, sizeof *s);
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

int rec_merge_parse(rec_merge_state *s, const uint8_t *bytes, size_t len, const rec_layout *lay,
                    const rec_record *base, uint32_t nranks_total, const char **why)
{
    rec_in in;
    rec_in_init(&in, bytes, len);
    uint64_t nranges = rec_get_varint(&in);
    if (in.failure || nranges > len || grow((void **)&s->ranges, &s->ranges_cap, nranges, sizeof *s->ranges)) {
        *why = "bad rank set in a merge annotation";
        return -1;
    }
    uint64_t members = 0;
    for (uint64_t i = 0; i < nranges; i++) {
        rec_rank_range *g = &s->ranges[i];
        uint64_t first = rec_get_varint(&in), count = rec_get_varint(&in), stride = rec_get_varint(&in);
        /* hardening: count and stride bounded first, so that nothing below
         * wraps (a wrapped product or member count let a rank's index in the
         * set point far past its values) */
        if (in.failure || count == 0 || count > nranks_total || (count > 1 && stride > nranks_total) ||
            first >= nranks_total ||
            first + (count - 1) * (stride ? stride : 1) >= nranks_total) {
            *why = "rank set outside the trace's ranks";
            return -1;
        }
        *g = (rec_rank_range){(uint32_t)first, (uint32_t)count, (uint32_t)stride};
        members += count;
    }
    uint64_t nvars = rec_get_varint(&in);
    size_t vidx_cap = s->vars_cap;
    /* hardening: an empty set (no range) is meaningless, and left values[] NULL */
    if (in.failure || members == 0 || members > nranks_total || nvars > 2u + REC_MAX_FIELDS ||
        grow((void **)&s->vars, &s->vars_cap, nvars, sizeof *s->vars) ||
        grow((void **)&s->vidx, &vidx_cap, nvars, sizeof *s->vidx)) {
        *why = "bad variation count in a merge annotation";
        return -1;
    }
    size_t nvalues = 0;
    for (uint64_t v = 0; v < nvars; v++) {
        rec_variation *var = &s->vars[v];
        uint64_t field = rec_get_varint(&in), rel = rec_get_varint(&in);
        int is_time = field == REC_FIELD_TSTART || field == REC_FIELD_TEND;
        if (in.failure || (!is_time && (field >= lay->nfields || lay->cls[field] == REC_CLASS_NONE)) || rel > 1) {
            *why = "bad field or relation in a merge annotation";
            return -1;
        }
        var->field = (uint16_t)field;
        var->relation = (uint8_t)rel;
        var->values = NULL;
        unsigned cls = class_of(lay, (unsigned)field);
        if (rel == REC_REL_AFFINE) {
            if (cls != REC_CLASS_INT && cls != REC_CLASS_PATH) {
                *why = "affine relation on a field that is not an integer";
                return -1;
            }
            var->a = rec_get_svarint(&in);
            var->b = rec_get_svarint(&in);
            continue;
        }
        if (grow((void **)&s->values, &s->values_cap, nvalues + members, sizeof *s->values)) {
            *why = "out of memory";
            return -1;
        }
        int64_t own = cls == REC_CLASS_INT || cls == REC_CLASS_PATH ? scalar_of(base, lay, (unsigned)field) : 0;
        for (uint64_t k = 0; k < members; k++) {
            rec_value *x = &s->values[nvalues + k];
            *x = (rec_value){0};
            if (cls == REC_CLASS_STR) {
                x->ptr = rec_get_str(&in, &x->len);
            } else if (cls == REC_CLASS_ARRAY) {
                uint64_t n = rec_get_varint(&in);
                const uint8_t *first = in.p;
                if (n > rec_in_left(&in)) {
                    *why = "array runs past its annotation";
                    return -1;
                }
                for (uint64_t e = 0; e < n; e++)
                    rec_get_svarint(&in);
                *x = (rec_value){.ptr = first, .len = (uint32_t)n, .encoded = 1, .i = in.p - first};
            } else {
                x->i = (int64_t)((uint64_t)own + (uint64_t)rec_get_svarint(&in));
            }
        }
        s->vidx[v] = nvalues;
        nvalues += members;
    }
    if (in.failure || in.p != in.end) {
        *why = "malformed merge annotation";
        return -1;
    }
    /* values[] may have moved while growing: point the vectors now. */
    for (uint64_t v = 0; v < nvars; v++)
        if (s->vars[v].relation == REC_REL_VECTOR)
            s->vars[v].values = s->values ? s->values + s->vidx[v] : NULL; /* none: no ranks */
    s->info.nranges = (uint32_t)nranges;
    s->info.ranges = s->ranges;
    s->info.nranks = (uint32_t)members;
    s->info.nvars = (uint32_t)nvars;
    s->info.vars = s->vars;
    return 0;
}

/* Turns the base record into `rank`'s own record (rank at `index` of the set). */
void rec_merge_apply(const rec_merge_info *mi, const rec_layout *lay, rec_record *r, uint32_t rank, uint32_t index)
{
    for (uint32_t v = 0; v < mi->nvars; v++) {
        const rec_variation *var = &mi->vars[v];
        /* hardening: wrapping arithmetic, as in the writer (signed overflow is undefined) */
        int64_t affine = (int64_t)((uint64_t)var->a * rank + (uint64_t)var->b);
        rec_value x = var->relation == REC_REL_AFFINE ? (rec_value){.i = affine} : var->values[index];
        if (var->field == REC_FIELD_TSTART)
            r->tstart = (uint64_t)x.i;
        else if (var->field == REC_FIELD_TEND)
            r->tend = (uint64_t)x.i;
        else if (var->field < lay->nargs)
            r->args[var->field] = x;
        else if (var->field == lay->nargs)
            r->ret = x;
        else
            r->err = x.i;
    }
}
