/* emit.c: how a group of records becomes one merged record: a rank set, the
 * first rank's values, and for each field that differs an affine relation
 * with the rank or a per-rank vector. Handles a group creates get one id in
 * the merged trace (aliases keep each rank's own id recoverable).
 *
 * The group's scalar fields are first copied into columns, one array of
 * member values per field, in one pass over the members; everything after
 * that reads the columns in order. At thousands of ranks a pass over the
 * members' window records costs a cache miss a member, a pass over a column
 * one every eight. The lockstep path fills the columns of several merged
 * records in one pass, rank by rank, for the long runs where every rank
 * makes the same calls. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(EMIT_COLUMNS <= 32, "emit_buffers.varying holds a bit per column");

/* The columns of a batch stay under this many bytes (a small batch at most). */
#define EMIT_COLUMN_BYTES ((size_t)128 << 20)

int emit_buffers_init(emit_buffers *b, uint32_t nranks)
{
    memset(b, 0, sizeof *b);
    /* A column is a line longer than the members need: at a power-of-two
     * stride (4,096 ranks: 32 KB) the columns' lines a member writes all
     * fell in one cache set, and evicted each other. */
    b->col_stride = ((size_t)nranks + 7) / 8 * 8 + 8;
    size_t per_record = (size_t)EMIT_COLUMNS * b->col_stride * sizeof(int64_t);
    b->kcap = LOCKSTEP_MAX;
    while (b->kcap > 1 && b->kcap * per_record > EMIT_COLUMN_BYTES)
        b->kcap--;
    b->recs = calloc(nranks, sizeof *b->recs);
    b->ranks = calloc(nranks, sizeof *b->ranks);
    b->done = calloc(nranks, 1);
    b->cols = rank_arrays_alloc_raw(b->kcap, per_record, 0);
    b->first = calloc((size_t)b->kcap * EMIT_COLUMNS, sizeof *b->first);
    b->values = calloc((size_t)EMIT_COLUMNS * nranks, sizeof *b->values);
    b->vars = calloc(EMIT_COLUMNS, sizeof *b->vars);
    b->ranges = calloc(nranks, sizeof *b->ranges);
    return b->recs && b->ranks && b->done && b->cols && b->first && b->values && b->vars && b->ranges ? 0 : -1;
}

void emit_buffers_free(emit_buffers *b)
{
    free(b->recs);
    free(b->ranks);
    free(b->done);
    free(b->cols);
    free(b->first);
    free(b->values);
    free(b->vars);
    free(b->ranges);
    memset(b, 0, sizeof *b);
}

static int64_t *column(const emit_buffers *b, unsigned record, unsigned col)
{
    return b->cols + ((size_t)record * EMIT_COLUMNS + col) * b->col_stride;
}

static int64_t *first_slot(const emit_buffers *b, unsigned record, unsigned col)
{
    return &b->first[(size_t)record * EMIT_COLUMNS + col];
}

static int64_t first_value(const emit_buffers *b, unsigned record, unsigned col)
{
    return *first_slot(b, record, col);
}

/* The first member's value of a column (a column written whole holds it too). */
static int64_t member0(const emit_buffers *b, unsigned record, unsigned col)
{
    return b->varying[record] >> col & 1 ? column(b, record, col)[0] : first_value(b, record, col);
}

int64_t *emit_column(emit_buffers *b, unsigned record, unsigned col)
{
    b->varying[record] |= 1u << col;
    return column(b, record, col);
}

static int same_value(unsigned cls, const rec_value *a, const rec_value *b)
{
    if (cls == REC_CLASS_STR)
        return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len) == 0);
    return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len * sizeof(int64_t)) == 0);
}

/* Ranks ascending -> (first, count, stride) runs. */
static uint32_t rank_ranges(const uint32_t *ranks, uint32_t n, rec_rank_range *out)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n;) {
        rec_rank_range g = {ranks[i], 1, 1};
        if (i + 1 < n) {
            g.stride = ranks[i + 1] - ranks[i];
            while (i + g.count < n && ranks[i + g.count] == g.first + g.count * g.stride)
                g.count++;
        }
        if (g.count == 1)
            g.stride = 1;
        out[k++] = g;
        i += g.count;
    }
    return k;
}

/* A scalar field's variation, if the members disagree on it: affine in the
 * rank when an exact relation holds, else a vector. */
static void vary_column(const uint32_t *ranks, uint32_t n, unsigned field, const int64_t *col,
                        emit_buffers *b, uint32_t *nvars, size_t *nvalues)
{
    uint32_t same = 1;
    while (same < n && col[same] == col[0])
        same++;
    if (same == n)
        return;
    rec_variation *var = &b->vars[(*nvars)++];
    *var = (rec_variation){.field = (uint16_t)field, .relation = REC_REL_VECTOR};
    int64_t r0 = ranks[0], r1 = ranks[1];
    int64_t dv = (int64_t)((uint64_t)col[1] - (uint64_t)col[0]);
    if (dv % (r1 - r0) == 0) {
        int64_t a = dv / (r1 - r0);
        int64_t c = (int64_t)((uint64_t)col[0] - (uint64_t)a * (uint64_t)r0);
        uint32_t k = 2;
        while (k < n && col[k] == (int64_t)((uint64_t)a * ranks[k] + (uint64_t)c))
            k++;
        if (k == n) {
            var->relation = REC_REL_AFFINE;
            var->a = a;
            var->b = c;
            return;
        }
    }
    var->values = b->values + *nvalues;
    for (uint32_t k = 0; k < n; k++)
        b->values[(*nvalues)++] = (rec_value){.i = col[k]};
}

/* Member k's string or array in `field`: its window record's, or what the
 * caller that has no window records gives (emit_buffers.bytes_of). */
static rec_value member_bytes(const emit_buffers *b, unsigned cls, unsigned field, uint32_t k)
{
    return b->bytes_of ? b->bytes_of(b->bytes_ctx, k, field) : wrec_value(b->recs[k], cls, field);
}

/* The same for a string or an array field: a vector when the members disagree. */
static void vary_bytes(uint32_t n, const rec_layout_view *lay, unsigned field, emit_buffers *b,
                       uint32_t *nvars, size_t *nvalues)
{
    unsigned cls = lay->cls[field];
    rec_value first = member_bytes(b, cls, field, 0);
    uint32_t same = 1;
    for (; same < n; same++) {
        rec_value v = member_bytes(b, cls, field, same);
        if (!same_value(cls, &first, &v))
            break;
    }
    if (same == n)
        return;
    rec_variation *var = &b->vars[(*nvars)++];
    *var =
        (rec_variation){.field = (uint16_t)field, .relation = REC_REL_VECTOR, .values = b->values + *nvalues};
    for (uint32_t k = 0; k < n; k++)
        b->values[(*nvalues)++] = member_bytes(b, cls, field, k);
}

static int finish(merger *m, rec_writer *w, uint32_t n, const rec_layout_view *lay, const wrec *first,
                  unsigned record, emit_buffers *b, rec_merge_stats *st, rec_error *err)
{
    rec_record base;
    wrec_to_record(first, lay, &base);
    return emit_finish(m, w, n, lay, &base, record, b, st, err);
}

static int within(int64_t x, int64_t y, int64_t tolerance)
{
    return (uint64_t)x - (uint64_t)y + (uint64_t)tolerance <= 2 * (uint64_t)tolerance; /* wrapping, as times do */
}

/* The model a time column's members come closest to: member 0's value, or a line through member 0's
 * and the last member's over their ranks (clocks that start a little later rank by rank); the slope in
 * whole ticks a rank, 0 for the first. */
static int64_t time_slope(const int64_t *col, const uint32_t *ranks, uint32_t n, int64_t tol)
{
    uint64_t span = (uint64_t)ranks[n - 1] - ranks[0];
    int64_t rise = (int64_t)((uint64_t)col[n - 1] - (uint64_t)col[0]);
    if (!span || within(rise, 0, tol))
        return 0;
    double slope = (double)rise / (double)span;
    int64_t a = (int64_t)(slope < 0 ? slope - 0.5 : slope + 0.5);
    uint32_t flat = 0, sloped = 0; /* the members each model holds, sampled */
    uint32_t step = n > 64 ? n / 64 : 1;
    for (uint32_t k = 0; k < n; k += step) {
        flat += within(col[k], col[0], tol);
        sloped += within(col[k], (int64_t)((uint64_t)col[0] + (uint64_t)a * (ranks[k] - ranks[0])), tol);
    }
    return sloped > flat ? a : 0;
}

/* Times to within the tolerance asked for (rec_merge_options.time_resolution): a member's start or end
 * within it of its column's model (time_slope) becomes the model's, unless the call would then end before
 * it starts; a column every member then agrees on varies no more, and one on a line is affine. */
static void snap_times(emit_buffers *b, unsigned record, uint32_t n)
{
    int64_t tol = b->time_tolerance;
    uint32_t vary = b->varying[record];
    if (!tol || !((vary >> COL_TSTART | vary >> COL_TEND) & 1))
        return;
    int64_t s0 = *first_slot(b, record, COL_TSTART), e0 = *first_slot(b, record, COL_TEND);
    int64_t *starts = vary >> COL_TSTART & 1 ? column(b, record, COL_TSTART) : NULL;
    int64_t *ends = vary >> COL_TEND & 1 ? column(b, record, COL_TEND) : NULL;
    int64_t as = starts ? time_slope(starts, b->ranks, n, tol) : 0, ae = ends ? time_slope(ends, b->ranks, n, tol) : 0;
    int starts_differ = 0, ends_differ = 0;
    for (uint32_t k = 1; k < n; k++) {
        uint64_t dr = (uint64_t)b->ranks[k] - b->ranks[0];
        int64_t s = starts ? starts[k] : s0, e = ends ? ends[k] : e0;
        int64_t ms = (int64_t)((uint64_t)s0 + (uint64_t)as * dr), me = (int64_t)((uint64_t)e0 + (uint64_t)ae * dr);
        int64_t s2 = within(s, ms, tol) ? ms : s, e2 = within(e, me, tol) ? me : e;
        if (e2 < s2)
            s2 = s, e2 = e;
        if (starts)
            starts[k] = s2;
        if (ends)
            ends[k] = e2;
        starts_differ |= s2 != s0;
        ends_differ |= e2 != e0;
    }
    if (!starts_differ)
        b->varying[record] &= ~(1u << COL_TSTART);
    if (!ends_differ)
        b->varying[record] &= ~(1u << COL_TEND);
}

int emit_finish(merger *m, rec_writer *w, uint32_t n, const rec_layout_view *lay, const rec_record *first,
                unsigned record, emit_buffers *b, rec_merge_stats *st, rec_error *err)
{
    uint32_t nvars = 0;
    size_t nvalues = 0;
    if (n > 1) {
        snap_times(b, record, n);
        for (unsigned i = 0; i < lay->nfields; i++) {
            if (lay->cls[i] == REC_CLASS_NONE)
                continue;
            if (lay->bytes_fields >> i & 1)
                vary_bytes(n, lay, i, b, &nvars, &nvalues);
            else if (b->varying[record] >> i & 1)
                vary_column(b->ranks, n, i, column(b, record, i), b, &nvars, &nvalues);
        }
        if (b->varying[record] >> COL_TSTART & 1)
            vary_column(b->ranks, n, REC_FIELD_TSTART, column(b, record, COL_TSTART), b, &nvars, &nvalues);
        if (b->varying[record] >> COL_TEND & 1)
            vary_column(b->ranks, n, REC_FIELD_TEND, column(b, record, COL_TEND), b, &nvars, &nvalues);
    }
    rec_merge_info mi = {.nranks = n, .nvars = nvars, .vars = b->vars, .ranges = b->ranges};
    mi.nranges = rank_ranges(b->ranks, n, b->ranges);
    int everyone = n == m->total_ranks && nvars == 0;
    rec_record base = *first;
    /* the first member's values as the merged trace knows them (handles unified) */
    for (unsigned i = 0; i < lay->nfields; i++) {
        if (lay->bytes_fields >> i & 1)
            continue;
        int64_t v = member0(b, record, i);
        if (i < lay->nargs)
            base.args[i].i = v;
        else if (i == lay->nargs)
            base.ret.i = v;
        else
            base.err = v;
    }
    base.tstart = (uint64_t)member0(b, record, COL_TSTART);
    base.tend = (uint64_t)member0(b, record, COL_TEND);
    if (rec_writer_append_merged(w, &base, everyone ? NULL : &mi, err) != 0)
        return -1;
    st->records_out++;
    if (n == m->total_ranks)
        st->merged_all++;
    else if (n > 1)
        st->merged_group++;
    else
        st->single++;
    return 0;
}

/* Member k's value of column c of `record`. Columns fill lazily: member 0's
 * value goes to `first` (a small array the comparisons stay in), the rest
 * of a column is written only from the first member that differs (those
 * before it get member 0's value then). Most fields never differ, so most
 * columns are never written: at thousands of ranks writing every column of
 * every member cost as much memory traffic as the records. */
void emit_put(emit_buffers *b, unsigned record, uint32_t k, unsigned c, int64_t v)
{
    int64_t *first = first_slot(b, record, c);
    if (b->varying[record] >> c & 1) {
        column(b, record, c)[k] = v;
    } else if (k == 0) {
        *first = v;
    } else if (v != *first) {
        int64_t *col = column(b, record, c);
        for (uint32_t i = 0; i < k; i++)
            col[i] = *first;
        col[k] = v;
        b->varying[record] |= 1u << c;
    }
}

/* Member k's times and scalar fields. With `unify`, the handles it uses are
 * looked up in that rank's table first; 0: one is not there (first seen
 * here: unify_used gives it its merged id, in order). */
static int gather(const wrec *r, const rec_layout_view *lay, rank_state *unify, emit_buffers *b, unsigned record,
                  uint32_t k)
{
    if (k == 0)
        b->varying[record] = 0;
    for (unsigned i = 0; i < lay->nfields; i++) {
        int64_t v = r->v[i];
        if (lay->bytes_fields >> i & 1)
            continue;
        if (unify && (lay->used_handles >> i & 1) && rec_handle_is_dynamic(v) &&
            !keymap_get(&unify->unified, handle_key(lay->space[i], v), &v))
            return 0;
        emit_put(b, record, k, i, v);
    }
    emit_put(b, record, k, COL_TSTART, (int64_t)r->tstart);
    emit_put(b, record, k, COL_TEND, (int64_t)r->tend);
    return 1;
}

static int64_t unify_lookup(rank_state *rs, unsigned space, int64_t id)
{
    int64_t merged;
    return keymap_get(&rs->unified, handle_key(space, id), &merged) ? merged : id;
}

/* The merged trace's id for a handle numbered `own` on the first rank that
 * has it: that number if no other handle took it, else a fresh one; -1: out
 * of memory. */
int64_t claim_merged_id(merger *m, unsigned space, int64_t own)
{
    int64_t merged = own, used;
    if (keymap_get(&m->merged_ids_used, handle_key(space, merged), &used))
        merged = m->next_merged_id[space]++;
    if (merged >= m->next_merged_id[space])
        m->next_merged_id[space] = merged + 1;
    return keymap_put(&m->merged_ids_used, handle_key(space, merged), 1) == 0 ? merged : -1;
}

/* The merged trace's id for a handle the group creates in field `field`:
 * the own id of the first rank that made one if no other handle took it,
 * else a fresh one (MPI_Comm_create makes none on the ranks outside its
 * group: MPI_COMM_NULL). A rank never numbers two objects alike, so a
 * created id it already has is the same object handed back (MPI_Comm_group
 * twice, tracer/handles.c): it keeps its merged id. */
static int unify_created(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b,
                         const rec_layout_view *lay, unsigned field)
{
    unsigned kind = lay->kind[field], space = rec_kind_handle_space(kind);
    int64_t merged = -1;
    for (uint32_t k = 0; k < n; k++) {
        int64_t *v = &b->recs[k]->v[field], known;
        if (!rec_handle_is_dynamic(*v))
            continue; /* this rank's call failed: its value stays */
        if (keymap_get(&group[k]->unified, handle_key(space, *v), &known)) {
            *v = known;
            continue;
        }
        if (merged < 0 && (merged = claim_merged_id(m, space, *v)) < 0)
            return -1;
        if (keymap_put(&group[k]->unified, handle_key(space, *v), merged) != 0)
            return -1;
        if (*v != merged && rec_writer_handle_alias(w, group[k]->rank, kind, merged, *v) != 0)
            return -1;
        *v = merged;
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
        int64_t *v = &b->recs[k]->v[field];
        if (!rec_handle_is_dynamic(*v) || b->done[k])
            continue;
        int64_t known;
        uint64_t key = handle_key(space, *v);
        if (keymap_get(&group[k]->unified, key, &known)) {
            *v = known;
            continue;
        }
        int64_t own = *v, merged = claim_merged_id(m, space, own);
        if (merged < 0)
            return -1;
        /* every member still to come with the same number shares it */
        for (uint32_t j = k; j < n; j++) {
            int64_t *x = &b->recs[j]->v[field];
            if (*x != own || b->done[j])
                continue;
            int64_t mine;
            if (keymap_get(&group[j]->unified, key, &mine))
                continue;
            if (keymap_put(&group[j]->unified, key, merged) != 0)
                return -1;
            if (merged != own && rec_writer_handle_alias(w, group[j]->rank, kind, merged, own) != 0)
                return -1;
            *x = merged;
            b->done[j] = 1;
        }
    }
    return 0;
}

int emit(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b, rec_merge_stats *st,
         rec_error *err)
{
    const wrec *head = group[0]->ring[group[0]->head].rec;
    const rec_layout_view *lay = layout_for(m, head->func);
    for (uint32_t k = 0; k < n; k++) {
        prefetch_heads(m, group, n, k);
        rank_state *rs = group[k];
        wrec *r = rs->ring[rs->head].rec;
        b->recs[k] = r; /* translated in place: the window's copy is popped next */
        b->ranks[k] = rs->rank;
        for (uint32_t todo = lay->own_fields; todo; todo &= todo - 1) {
            unsigned i = (unsigned)__builtin_ctz(todo);
            if (lay->cls[i] == REC_CLASS_PATH) {
                const char *p = rec_cursor_path(rs->cursor, r->v[i]);
                r->v[i] = p ? rec_writer_path_id(w, p) : -1;
            } else {
                rec_value v = wrec_value(r, REC_CLASS_ARRAY, i);
                int64_t *e = (int64_t *)(uintptr_t)v.ptr; /* the window's own copy */
                for (uint32_t x = 0; x < v.len; x++)
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
    for (uint32_t k = 0; k < n; k++)
        gather(b->recs[k], lay, NULL, b, 0, k);
    return finish(m, w, n, lay, b->recs[0], 0, b, st, err);
}

int emit_lockstep(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b,
                  rec_merge_stats *st, rec_error *err)
{
    /* The batch: the first member's next records, up to the first whose
     * layout needs more than its scalars (paths to translate, handles made,
     * strings and arrays). */
    const rank_state *first = group[0];
    const rec_layout_view *lay[LOCKSTEP_MAX];
    uint64_t sig[LOCKSTEP_MAX];
    unsigned batch = 0, most = b->kcap < first->count ? b->kcap : first->count;
    for (; batch < most; batch++) {
        const wslot *slot = window_slot(m, first, batch);
        const wrec *r = slot->rec;
        lay[batch] = layout_for(m, r->func);
        if (lay[batch]->own_fields || lay[batch]->created_handles || lay[batch]->bytes_fields)
            break;
        sig[batch] = slot->sig;
    }
    /* Every member: the same signatures, and every handle it uses known; the
     * batch ends before the first record where a member differs. Nothing is
     * changed until the batch is settled. */
    for (uint32_t k = 0; k < n && batch >= 2; k++) {
        prefetch_batch(m, group, n, k, batch);
        rank_state *rs = group[k];
        b->ranks[k] = rs->rank;
        if (rs->count < batch)
            batch = rs->count;
        for (unsigned j = 0; j < batch; j++) {
            const wslot *slot = window_slot(m, rs, j);
            const wrec *r = slot->rec;
            if (slot->sig != sig[j]) {
                batch = j;
                break;
            }
            if (!gather(r, lay[j], rs, b, j, k)) {
                batch = j;
                break;
            }
        }
    }
    if (batch < 2)
        return 0;
    for (unsigned j = 0; j < batch; j++)
        if (finish(m, w, n, lay[j], window_slot(m, first, j)->rec, j, b, st, err) != 0)
            return -1;
    /* Rank by rank: each rank's window, tables and stream are worked on once
     * for the whole batch. */
    for (uint32_t k = 0; k < n; k++) {
        prefetch_refill(m, group, n, k, batch);
        pop_many(m, group[k], batch);
        if (fill(m, group[k], err) != 0)
            return -1;
        m->live -= !group[k]->count;
    }
    return (int)batch;
}
