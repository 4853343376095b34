/* merged.c: the annotations of merged records (docs/reference/format.md, "Merged
 * traces"). An annotation is a definition entry of kind 2 written just
 * before its record:
 *   varint nranges, nranges x (varint first, varint count, varint stride)
 *   varint nvars, nvars x (varint field, varint relation,
 *       0 vector: one value per rank of the set: integers, paths and times as
 *               svarint deltas against the record's own value; strings and
 *               arrays in full
 *       1 affine: svarint a, svarint b
 *       2 chained vector (1.1): integers, paths and times, each as an
 *               svarint delta against the previous member's value (the
 *               first member's against the record's own)
 *       3 end times after their starts (1.1, field TEND only): each
 *               member's duration as an svarint delta against the record's
 *               own; the members' starts are the TSTART vector given before
 *               it, or the record's own start when there is none)
 *       4 affine time (1.11, TSTART and TEND only): svarint a, svarint c,
 *               the member's time a * rank + own + c
 *       5 affine arrays (1.11, arrays only): varint n, n x (svarint a,
 *               svarint b): the member's array of a * rank + b
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

/* On disk a vector of integers, paths or times takes whichever form its
 * first members make shortest; readers turn every form back into the plain
 * vector. Per-rank clocks drift apart, so a time's delta against the first
 * member's grows with the rank while its delta against the previous
 * member's, or an end time's against its own start, does not: without the
 * later forms a merged trace grew with the ranks (2.8 bytes a rank record at
 * 64 ranks, 5.9 at 4,096 in bench-merge). A vector that gains nothing keeps
 * the 1.0 form, which older readers read. */
enum {
    DISK_VECTOR_CHAINED = 2,    /* deltas against the previous member's value */
    DISK_VECTOR_AFTER_START = 3, /* end times: durations against the record's own */
    DISK_AFFINE_AFTER_OWN = 4,   /* a time's a * rank + b with b against the record's own time (1.11) */
    DISK_ARRAYS_AFFINE = 5       /* arrays of one length, each element a * rank + b (1.11) */
};

/* The longest array the affine form covers, and the most values a reader makes of it. */
enum { AFFINE_ARRAY_MAX = 64 };
#define AFFINE_ARRAY_VALUES (1u << 22)

/* How many members, spread over the set, decide the form: enough to see
 * the spread, few enough to cost little next to writing the vector. */
enum { FORM_SAMPLE = 32 };

static unsigned svarint_size(int64_t v)
{
    uint64_t z = rec_zigzag(v);
    unsigned n = 1;
    while (z >= 0x80) {
        z >>= 7;
        n++;
    }
    return n;
}

/* Wrapping, like every delta of the format (signed overflow is undefined). */
static int64_t minus(int64_t x, int64_t y)
{
    return (int64_t)((uint64_t)x - (uint64_t)y);
}

static int64_t plus(int64_t x, int64_t y)
{
    return (int64_t)((uint64_t)x + (uint64_t)y);
}

/* For the end-time vector vars[v]: the members' starts as a vector given
 * before it (NULL: none given, the record's own start for all); 0 when
 * durations cannot be used (an affine start). */
static int starts_before(const rec_merge_info *mi, uint32_t v, const rec_value **starts)
{
    *starts = NULL;
    if (mi->vars[v].field != REC_FIELD_TEND)
        return 0;
    for (uint32_t u = 0; u < v; u++)
        if (mi->vars[u].field == REC_FIELD_TSTART) {
            if (mi->vars[u].relation != REC_REL_VECTOR)
                return 0;
            *starts = mi->vars[u].values;
        }
    return 1;
}

static void put_integer_vector(rec_buf *b, const rec_layout *lay, const rec_record *base, const rec_merge_info *mi,
                               uint32_t v)
{
    const rec_variation *var = &mi->vars[v];
    const rec_value *starts;
    int durations = starts_before(mi, v, &starts);
    int64_t own = scalar_of(base, lay, var->field), own_duration = minus((int64_t)base->tend, (int64_t)base->tstart);
    uint64_t cost[3] = {0, 0, 0};
    /* one member from each of FORM_SAMPLE equal stretches of the set (deltas
     * grow along it), at a varying place in its stretch (at a fixed place,
     * periodic values such as offsets wrapping every 128 ranks alias) */
    uint32_t step = mi->nranks > FORM_SAMPLE ? mi->nranks / FORM_SAMPLE : 1;
    for (uint32_t at = 0; at < mi->nranks; at += step) {
        uint32_t k = at + (step > 1 ? (uint32_t)(at * 2654435761u >> 7) % step : 0);
        if (k >= mi->nranks)
            break;
        int64_t x = var->values[k].i, start = starts ? starts[k].i : (int64_t)base->tstart;
        cost[0] += svarint_size(minus(x, own));
        cost[1] += svarint_size(minus(x, k ? var->values[k - 1].i : own));
        cost[2] += durations ? svarint_size(minus(minus(x, start), own_duration)) : UINT32_MAX;
    }
    int64_t prev;
    unsigned form = cost[1] < cost[0] ? 1 : 0;
    if (cost[2] < cost[form])
        form = 2;
    static const uint8_t code[3] = {REC_REL_VECTOR, DISK_VECTOR_CHAINED, DISK_VECTOR_AFTER_START};
    rec_put_varint(b, var->field);
    rec_put_varint(b, code[form]);
    prev = own;
    /* room for every member at once, then one loop a form: these are the
     * long vectors (times at thousands of ranks) */
    rec_buf_reserve(b, (size_t)mi->nranks * 10);
    if (b->oom)
        return;
    uint8_t *p = b->data + b->len;
    const rec_value *x = var->values;
    if (form == 0) {
        for (uint32_t k = 0; k < mi->nranks; k++)
            p = rec_varint_at(p, rec_zigzag(minus(x[k].i, own)));
    } else if (form == 1) {
        for (uint32_t k = 0; k < mi->nranks; k++) {
            p = rec_varint_at(p, rec_zigzag(minus(x[k].i, prev)));
            prev = x[k].i;
        }
    } else {
        int64_t base_start = (int64_t)base->tstart;
        for (uint32_t k = 0; k < mi->nranks; k++)
            p = rec_varint_at(p, rec_zigzag(minus(minus(x[k].i, starts ? starts[k].i : base_start), own_duration)));
    }
    b->len = (size_t)(p - b->data);
}

/* The rank of each member of the set, in set order (members[nranks]). */
static void member_ranks(const rec_merge_info *mi, uint32_t *ranks)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < mi->nranges; i++)
        for (uint32_t c = 0; c < mi->ranges[i].count && k < mi->nranks; c++)
            ranks[k++] = mi->ranges[i].first + c * (mi->ranges[i].stride ? mi->ranges[i].stride : 1);
}

/* A vector of arrays of one length whose every element is a line over the ranks (a hyperslab's start,
 * rank * count), written as the lines: its size no longer grows with the ranks. 0: not such a vector. */
static int put_affine_arrays(rec_buf *b, const rec_merge_info *mi, const rec_variation *var)
{
    uint32_t n = mi->nranks, len = var->values[0].len;
    if (n < 2 || len == 0 || len > AFFINE_ARRAY_MAX)
        return 0;
    uint32_t *ranks = malloc(n * sizeof *ranks);
    if (!ranks)
        return 0;
    member_ranks(mi, ranks);
    int64_t v0[AFFINE_ARRAY_MAX], vk[AFFINE_ARRAY_MAX], a[AFFINE_ARRAY_MAX], c[AFFINE_ARRAY_MAX];
    rec_value_array(&var->values[0], v0, len);
    int ok = var->values[1].len == len && ranks[1] > ranks[0];
    rec_value_array(&var->values[1], vk, ok ? len : 0);
    for (uint32_t e = 0; ok && e < len; e++) {
        int64_t rise = minus(vk[e], v0[e]), span = (int64_t)(ranks[1] - ranks[0]);
        a[e] = rise / span;
        ok = a[e] * span == rise;
        c[e] = minus(v0[e], (int64_t)((uint64_t)a[e] * ranks[0])); /* b: the value at rank 0 */
    }
    for (uint32_t k = 2; ok && k < n; k++) {
        ok = var->values[k].len == len;
        rec_value_array(&var->values[k], vk, ok ? len : 0);
        for (uint32_t e = 0; ok && e < len; e++)
            ok = vk[e] == plus(c[e], (int64_t)((uint64_t)a[e] * ranks[k]));
    }
    free(ranks);
    if (!ok)
        return 0;
    rec_put_varint(b, var->field);
    rec_put_varint(b, DISK_ARRAYS_AFFINE);
    rec_put_varint(b, len);
    for (uint32_t e = 0; e < len; e++) {
        rec_put_svarint(b, a[e]);
        rec_put_svarint(b, c[e]);
    }
    return 1;
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
        unsigned cls = class_of(lay, var->field);
        if (var->relation == REC_REL_VECTOR && (cls == REC_CLASS_INT || cls == REC_CLASS_PATH)) {
            put_integer_vector(b, lay, base, mi, v);
            continue;
        }
        if (var->relation == REC_REL_VECTOR && cls == REC_CLASS_ARRAY && put_affine_arrays(b, mi, var))
            continue;
        /* a time's line over the ranks (clocks started rank by rank): its b is near the record's own time,
         * large and different from record to record; its distance from it, small and steady */
        int time_line = var->relation == REC_REL_AFFINE && (var->field == REC_FIELD_TSTART || var->field == REC_FIELD_TEND);
        rec_put_varint(b, var->field);
        rec_put_varint(b, time_line ? DISK_AFFINE_AFTER_OWN : var->relation);
        if (var->relation == REC_REL_AFFINE) {
            rec_put_svarint(b, var->a);
            rec_put_svarint(b, time_line ? minus(var->b, scalar_of(base, lay, var->field)) : var->b);
            continue;
        }
        for (uint32_t k = 0; k < mi->nranks; k++) {
            const rec_value *x = &var->values[k];
            if (cls == REC_CLASS_STR)
                rec_put_str(b, x->ptr, x->len);
            else
                put_array(b, x);
        }
    }
}

void rec_merge_state_free(rec_merge_state *s)
{
    free(s->ranges);
    free(s->vars);
    free(s->vidx);
    free(s->values);
    free(s->scratch);
    free(s->made);
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

/* A DISK_ARRAYS_AFFINE vector read back: each member's array made from the lines at its rank, encoded
 * into s->scratch (x[k].ptr its offset there until every array is made: scratch may move). */
static int affine_arrays(rec_merge_state *s, rec_in *in, uint64_t members, uint64_t nranges, rec_value *x,
                         size_t *scratch_len, const char **why)
{
    uint64_t len = rec_get_varint(in);
    int64_t a[AFFINE_ARRAY_MAX], c[AFFINE_ARRAY_MAX];
    if (in->failure || len == 0 || len > AFFINE_ARRAY_MAX || members * len > AFFINE_ARRAY_VALUES) {
        *why = "bad arrays over the ranks in a merge annotation";
        return -1;
    }
    for (uint64_t e = 0; e < len; e++) {
        a[e] = rec_get_svarint(in);
        c[e] = rec_get_svarint(in);
    }
    if (grow((void **)&s->scratch, &s->scratch_cap, *scratch_len + members * len * 10, 1)) {
        *why = "out of memory";
        return -1;
    }
    uint64_t k = 0;
    for (uint64_t i = 0; i < nranges; i++)
        for (uint32_t m = 0; m < s->ranges[i].count && k < members; m++, k++) {
            uint64_t rank = s->ranges[i].first + (uint64_t)m * (s->ranges[i].stride ? s->ranges[i].stride : 1);
            uint8_t *start = s->scratch + *scratch_len, *p = start;
            for (uint64_t e = 0; e < len; e++)
                p = rec_varint_at(p, rec_zigzag(plus(c[e], (int64_t)((uint64_t)a[e] * rank))));
            x[k] = (rec_value){.ptr = (const void *)(uintptr_t)*scratch_len, .len = (uint32_t)len, .encoded = 1,
                               .i = p - start};
            *scratch_len += (size_t)(p - start);
        }
    return 0;
}

int rec_merge_parse(rec_merge_state *s, const uint8_t *bytes, size_t len, const rec_layout *lay,
                    const rec_record *base, uint32_t nranks_total, int sets_only, const char **why)
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
        /* count and stride are bounded before any use, so that no product or
         * member count below wraps and every rank's index stays within its
         * set's values */
        if (in.failure || count == 0 || count > nranks_total || (count > 1 && stride > nranks_total) ||
            first >= nranks_total ||
            first + (count - 1) * (stride ? stride : 1) >= nranks_total) {
            *why = "rank set outside the trace's ranks";
            return -1;
        }
        *g = (rec_rank_range){(uint32_t)first, (uint32_t)count, (uint32_t)stride};
        members += count;
    }
    if (sets_only) { /* the variations are not looked at */
        if (in.failure || members == 0 || members > nranks_total) {
            *why = "bad rank set in a merge annotation";
            return -1;
        }
        s->info = (rec_merge_info){.nranges = (uint32_t)nranges, .ranges = s->ranges, .nranks = (uint32_t)members};
        return 0;
    }
    uint64_t nvars = rec_get_varint(&in);
    size_t vidx_cap = s->vars_cap;
    /* A set has at least one member: an empty one means nothing and has no values[]. */
    if (in.failure || members == 0 || members > nranks_total || nvars > 2u + REC_MAX_FIELDS ||
        grow((void **)&s->vars, &s->vars_cap, nvars, sizeof *s->vars) ||
        grow((void **)&s->vidx, &vidx_cap, nvars, sizeof *s->vidx) ||
        grow((void **)&s->made, &s->made_cap, nvars, 1)) {
        *why = "bad variation count in a merge annotation";
        return -1;
    }
    size_t nvalues = 0, scratch_len = 0;
    int64_t starts_at = -1; /* values[] index of the last start-time vector; -2: an affine one */
    for (uint64_t v = 0; v < nvars; v++) {
        rec_variation *var = &s->vars[v];
        uint64_t field = rec_get_varint(&in), rel = rec_get_varint(&in);
        int is_time = field == REC_FIELD_TSTART || field == REC_FIELD_TEND;
        if (in.failure || (!is_time && (field >= lay->nfields || lay->cls[field] == REC_CLASS_NONE)) ||
            rel > DISK_ARRAYS_AFFINE || (rel == DISK_AFFINE_AFTER_OWN && !is_time)) {
            *why = "bad field or relation in a merge annotation";
            return -1;
        }
        var->field = (uint16_t)field;
        int affine = rel == REC_REL_AFFINE || rel == DISK_AFFINE_AFTER_OWN;
        var->relation = affine ? REC_REL_AFFINE : REC_REL_VECTOR;
        var->values = NULL;
        unsigned cls = class_of(lay, (unsigned)field);
        if (rel != REC_REL_VECTOR && rel != DISK_ARRAYS_AFFINE && cls != REC_CLASS_INT && cls != REC_CLASS_PATH) {
            *why = "a relation for integers on a field that is not an integer";
            return -1;
        }
        if (rel == DISK_ARRAYS_AFFINE && cls != REC_CLASS_ARRAY) {
            *why = "arrays over the ranks for a field that is not an array";
            return -1;
        }
        s->made[v] = 0;
        if (rel == DISK_VECTOR_AFTER_START && (field != REC_FIELD_TEND || starts_at == -2)) {
            *why = "durations for a field that is not an end time, or after an affine start";
            return -1;
        }
        if (field == REC_FIELD_TSTART)
            starts_at = affine ? -2 : (int64_t)nvalues;
        if (affine) {
            var->a = rec_get_svarint(&in);
            var->b = rec_get_svarint(&in);
            if (rel == DISK_AFFINE_AFTER_OWN)
                var->b = plus(var->b, scalar_of(base, lay, (unsigned)field));
            continue;
        }
        if (grow((void **)&s->values, &s->values_cap, nvalues + members, sizeof *s->values)) {
            *why = "out of memory";
            return -1;
        }
        int64_t own = cls == REC_CLASS_INT || cls == REC_CLASS_PATH ? scalar_of(base, lay, (unsigned)field) : 0;
        int64_t prev = own, own_duration = minus((int64_t)base->tend, (int64_t)base->tstart);
        rec_value *x = &s->values[nvalues];
        if (rel == DISK_ARRAYS_AFFINE) {
            if (affine_arrays(s, &in, members, nranges, x, &scratch_len, why) != 0)
                return -1;
            s->made[v] = 1;
        } else if (cls == REC_CLASS_STR || cls == REC_CLASS_ARRAY) {
            for (uint64_t k = 0; k < members; k++) {
                x[k] = (rec_value){0};
                if (cls == REC_CLASS_STR) {
                    x[k].ptr = rec_get_str(&in, &x[k].len);
                    continue;
                }
                uint64_t n = rec_get_varint(&in);
                const uint8_t *first = in.p;
                if (n > rec_in_left(&in)) {
                    *why = "array runs past its annotation";
                    return -1;
                }
                for (uint64_t e = 0; e < n; e++)
                    rec_get_svarint(&in);
                x[k] = (rec_value){.ptr = first, .len = (uint32_t)n, .encoded = 1, .i = in.p - first};
            }
        } else if (rel == DISK_VECTOR_CHAINED) { /* one loop a form: these are the long vectors (times) */
            for (uint64_t k = 0; k < members; k++)
                x[k] = (rec_value){.i = prev = plus(prev, rec_get_svarint(&in))};
        } else if (rel == DISK_VECTOR_AFTER_START) {
            for (uint64_t k = 0; k < members; k++) {
                int64_t start = starts_at >= 0 ? s->values[starts_at + (int64_t)k].i : (int64_t)base->tstart;
                x[k] = (rec_value){.i = plus(plus(start, own_duration), rec_get_svarint(&in))};
            }
        } else {
            for (uint64_t k = 0; k < members; k++)
                x[k] = (rec_value){.i = plus(own, rec_get_svarint(&in))};
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
    /* and scratch too: the made arrays hold their offsets in it */
    for (uint64_t v = 0; v < nvars; v++)
        for (uint64_t k = 0; s->made[v] && k < members; k++)
            s->values[s->vidx[v] + k].ptr = s->scratch + (uintptr_t)s->values[s->vidx[v] + k].ptr;
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
        /* Unsigned, wrapping arithmetic, as in the writer: signed overflow is undefined. */
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
