/* codec.c: one record at a time, with the peephole compressor.
 *
 * A record is compared with the last W records of its block. A window
 * record of the same function (and the same call depth and thread) with at
 * least one recorded field in common may serve as its reference; the one with
 * most fields in common wins, ties going to the most recent. A referencing
 * record stores only the fields that differ, integers as deltas against the
 * reference. See docs/reference/format.md. */
#include "codec.h"

#include <stdlib.h>

size_t rec_value_array(const rec_value *v, int64_t *out, size_t max)
{
    if (!v->encoded) {
        const int64_t *a = v->ptr;
        for (size_t k = 0; k < v->len && k < max; k++)
            out[k] = a[k];
        return v->len;
    }
    rec_in in;
    rec_in_init(&in, v->ptr, (size_t)v->i);
    for (size_t k = 0; k < v->len; k++) {
        int64_t x = rec_get_svarint(&in);
        if (k < max)
            out[k] = x;
    }
    return v->len;
}

static int64_t array_at(const rec_value *v, size_t k, rec_in *in)
{
    return v->encoded ? rec_get_svarint(in) : ((const int64_t *)v->ptr)[k];
}

static int arrays_equal(const rec_value *a, const rec_value *b)
{
    if (a->len != b->len)
        return 0;
    if (a->encoded && b->encoded) /* an empty array's ptr may be NULL: memcmp only a non-empty one */
        return a->i == b->i && (a->i == 0 || memcmp(a->ptr, b->ptr, (size_t)a->i) == 0);
    if (!a->encoded && !b->encoded)
        return a->len == 0 || memcmp(a->ptr, b->ptr, a->len * sizeof(int64_t)) == 0;
    rec_in ia, ib;
    rec_in_init(&ia, a->ptr, a->encoded ? (size_t)a->i : 0);
    rec_in_init(&ib, b->ptr, b->encoded ? (size_t)b->i : 0);
    for (size_t k = 0; k < a->len; k++)
        if (array_at(a, k, &ia) != array_at(b, k, &ib))
            return 0;
    return 1;
}

static int values_equal(unsigned cls, const rec_value *a, const rec_value *b)
{
    switch (cls) {
    case REC_CLASS_INT:
    case REC_CLASS_PATH:
        return a->i == b->i;
    case REC_CLASS_STR:
        return a->len == b->len && (a->len == 0 || memcmp(a->ptr, b->ptr, a->len) == 0);
    case REC_CLASS_ARRAY:
        return arrays_equal(a, b);
    default:
        return 1; /* not recorded: never differs */
    }
}

static void put_array(rec_buf *out, const rec_value *v)
{
    rec_put_varint(out, v->len);
    if (v->encoded) {
        rec_put_bytes(out, v->ptr, (size_t)v->i);
        return;
    }
    const int64_t *a = v->ptr;
    for (uint32_t k = 0; k < v->len; k++)
        rec_put_svarint(out, a[k]);
}

/* Full value, or (ref != NULL, integers only) the delta against ref. */
static void put_value(rec_buf *out, unsigned cls, const rec_value *v, const rec_value *ref)
{
    switch (cls) {
    case REC_CLASS_INT:
    case REC_CLASS_PATH:
        rec_put_svarint(out, ref ? (int64_t)((uint64_t)v->i - (uint64_t)ref->i) : v->i);
        break;
    case REC_CLASS_STR:
        rec_put_str(out, v->ptr, v->len);
        break;
    case REC_CLASS_ARRAY:
        put_array(out, v);
        break;
    default:
        break;
    }
}

/* ---- the window (shared with decode.c) ---- */

int rec_window_init(rec_window *w, unsigned size)
{
    memset(w, 0, sizeof *w);
    size = size > REC_WINDOW_MAX ? REC_WINDOW_MAX : size;
    if (size && !(w->slots = calloc(size, sizeof *w->slots)))
        return -1;
    w->size = size;
    return 0;
}

void rec_window_free(rec_window *w)
{
    for (unsigned i = 0; i < w->size; i++)
        rec_buf_free(&w->slots[i].arena);
    free(w->slots);
    w->slots = NULL;
    w->size = 0;
}

/* What the encoder compares first: function, depth and thread in one word
 * (func: 16 bits, depth: 8, thread: 32), never REC_KEY_NONE. */
#define REC_KEY_NONE UINT64_MAX
static uint64_t record_key(const rec_record *r)
{
    return (uint64_t)r->func | (uint64_t)r->depth << 16 | (uint64_t)r->thread << 24;
}

/* Equal values give equal hashes; unequal hashes prove the values differ. */
static inline __attribute__((always_inline)) uint64_t values_hash(const int64_t *v, unsigned n)
{
    uint64_t h = n;
#pragma GCC unroll 8
    for (unsigned k = 0; k < n; k++)
        h = (h ^ (uint64_t)v[k]) * 0x9e3779b97f4a7c15ull;
    return h;
}

/* Bytes a record's strings and arrays take (encoded arrays keep their bytes). */
size_t rec_payload_size(const rec_record *r, const rec_layout *lay)
{
    size_t need = 0;
    for (unsigned i = 0; i < lay->nfields && i <= lay->nargs; i++) {
        const rec_value *v = i < lay->nargs ? &r->args[i] : &r->ret;
        if (lay->cls[i] == REC_CLASS_STR)
            need += v->len;
        else if (lay->cls[i] == REC_CLASS_ARRAY)
            need += v->encoded ? (size_t)v->i : v->len * sizeof(int64_t);
    }
    return need;
}

/* Copies the slot's strings and arrays into `into` (reserved by the caller)
 * and points the slot at the copies. */
void rec_copy_payload(rec_slot *s, const rec_layout *lay, rec_buf *into)
{
    for (unsigned i = 0; i < lay->nfields && i <= lay->nargs; i++) {
        rec_value *v = i < lay->nargs ? &s->rec.args[i] : &s->rec.ret;
        size_t n = 0;
        if (lay->cls[i] == REC_CLASS_STR)
            n = v->len;
        else if (lay->cls[i] == REC_CLASS_ARRAY)
            n = v->encoded ? (size_t)v->i : v->len * sizeof(int64_t);
        else
            continue;
        /* With nothing to copy the arena may still be NULL, and NULL + 0 is undefined. */
        uint8_t *dst = into->data ? into->data + into->len : NULL;
        if (n)
            memcpy(dst, v->ptr, n);
        into->len += n;
        v->ptr = dst;
    }
}

/* Writer side: the slot keeps its own copy of strings and arrays, because
 * the caller's buffers are gone once rec_encode returns. */
static void window_keep_copy(rec_window *w, const rec_record *r, const rec_layout *lay)
{
    rec_slot *s = rec_window_push(w);
    rec_copy_record(&s->rec, r, lay);
    s->arena.len = 0;
    rec_buf_reserve(&s->arena, rec_payload_size(r, lay));
    if (s->arena.oom) { /* no copy: make the slot unusable as a reference */
        s->rec.func = 0;
        return;
    }
    rec_copy_payload(s, lay, &s->arena);
}

/* ---- encoder ---- */

int rec_encoder_init(rec_encoder *e, const rec_table *table, unsigned window)
{
    memset(e, 0, sizeof *e);
    e->table = table;
    e->per_func = calloc(REC_FUNCTION_ID_LIMIT, sizeof *e->per_func);
    return e->per_func && rec_window_init(&e->win, window) == 0 ? 0 : -1;
}

void rec_encoder_free(rec_encoder *e)
{
    rec_window_free(&e->win);
    free(e->per_func);
    e->per_func = NULL;
}

void rec_encoder_reset(rec_encoder *e, uint64_t first_tstart)
{
    e->win.count = 0;
    e->win.head = 0;
    e->prev_tstart = first_tstart;
}

void rec_encode_def(rec_buf *out, uint64_t kind, const void *payload, size_t len)
{
    rec_put_u8(out, REC_STATUS_DEF);
    rec_put_varint(out, kind);
    rec_put_str(out, payload, len);
}

void rec_encode_path_def(rec_buf *out, int64_t id, const char *path)
{
    rec_put_u8(out, REC_STATUS_DEF);
    rec_put_varint(out, REC_DEF_PATH);
    rec_put_svarint(out, id);
    rec_put_cstr(out, path);
}

static inline unsigned newest_slot(uint64_t key)
{
    return (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 54); /* one of REC_NEWEST_KEYS = 1024 */
}

/* How far back the newest record of this key is, when the scan did not
 * reach it but the window holds it; else 0. */
static inline unsigned newest_beyond_scan(const rec_encoder *e, uint64_t key)
{
    unsigned h = newest_slot(key);
    uint64_t back = e->newest_key[h] == key ? e->seq + 1 - e->newest_seq[h] : 0;
    return back > REC_SCAN && back <= e->win.count ? (unsigned)back : 0;
}

static inline void note_newest(rec_encoder *e, uint64_t key)
{
    if (e->win.size <= REC_SCAN)
        return;
    unsigned h = newest_slot(key);
    e->newest_key[h] = key;
    e->newest_seq[h] = ++e->seq;
}

/* Picks the reference for r: of the REC_SCAN newest window records of its
 * key, the one with most recorded fields equal (at least one), ties to the
 * most recent; if none, the newest record of its key further back. Returns
 * its distance, or 0. */
static unsigned choose_reference(rec_encoder *e, const rec_record *r, const rec_layout *lay,
                                 const rec_value *const *fields, uint32_t *same_mask)
{
    unsigned best = 0, best_common = 0;
    const uint64_t key = record_key(r);
    const unsigned scan = e->win.count < REC_SCAN ? e->win.count : REC_SCAN;
    for (unsigned k = 1; k <= scan + 1; k++) {
        /* the scan, then, if nothing served, one record further back */
        unsigned back = k <= scan ? k : best ? 0 : newest_beyond_scan(e, key);
        if (!back)
            break;
        unsigned idx = rec_window_index(&e->win, back);
        if (e->key[idx] != key)
            continue;
        const rec_record *w = &e->win.slots[idx].rec;
        rec_value w_errno;
        const rec_value *wf[REC_MAX_FIELDS];
        rec_load_fields(w, lay, &w_errno, wf);
        unsigned common = 0;
        uint32_t same = 0;
        for (unsigned i = 0; i < lay->nfields; i++) {
            if (lay->cls[i] == REC_CLASS_NONE)
                continue;
            if (values_equal(lay->cls[i], fields[i], wf[i])) {
                common++;
                same |= 1u << i;
            }
        }
        if (common > best_common) {
            best_common = common;
            best = back;
            *same_mask = same;
        }
    }
    return best;
}

/* How many of the n values are equal, and which (bit k: value k). */
static inline __attribute__((always_inline)) unsigned fields_in_common(const int64_t *v, const int64_t *cur,
                                                                      const unsigned n, uint32_t *same)
{
    unsigned common = 0;
    *same = 0;
#pragma GCC unroll 8
    for (unsigned k = 0; k < n; k++) {
        uint32_t eq = v[k] == cur[k];
        common += eq;
        *same |= eq << k;
    }
    return common;
}

/* The fast path for records whose recorded fields are all integers (most
 * functions): the same decisions and bytes as the general path below, on
 * flat rows of values. Once some window record has all fields but one in
 * common, only a full match can do better, and a slot whose hash differs
 * cannot be one: the common case (a loop that changes one argument) then
 * compares the most recent match only. */
static inline __attribute__((always_inline)) void
encode_scalar_n(rec_encoder *e, const rec_record *r, const rec_layout *lay, rec_buf *out, const unsigned n)
{
    int64_t cur[REC_MAX_FIELDS];
#pragma GCC unroll 8
    for (unsigned k = 0; k < n; k++)
        memcpy(&cur[k], (const char *)r + lay->at[k], sizeof cur[k]);
    const uint64_t key = record_key(r), hash = values_hash(cur, n);
    uint64_t tend = r->tend < r->tstart ? r->tstart : r->tend;
    int64_t dstart = (int64_t)(r->tstart - e->prev_tstart);
    e->prev_tstart = r->tstart;
    unsigned best = 0, best_common = 0, best_index = 0;
    uint32_t best_same = 0;
    const unsigned scan = e->win.count < REC_SCAN ? e->win.count : REC_SCAN;
    unsigned idx = e->win.head;
    for (unsigned back = 1; back <= scan; back++) {
        idx = idx ? idx - 1 : e->win.size - 1;
        if (e->key[idx] != key || (best_common + 1 >= n && e->hash[idx] != hash))
            continue;
        uint32_t same;
        unsigned common = fields_in_common(e->val[idx], cur, n, &same);
        if (common > best_common) {
            best_common = common;
            best = back;
            best_index = idx;
            best_same = same;
            if (common == n) /* nothing can do better, and this is the most recent */
                break;
        }
    }
    unsigned beyond = best || e->win.count <= REC_SCAN ? 0 : newest_beyond_scan(e, key);
    if (beyond) {
        idx = rec_window_index(&e->win, beyond);
        uint32_t same;
        unsigned common = e->key[idx] == key ? fields_in_common(e->val[idx], cur, n, &same) : 0;
        if (common) {
            best_common = common;
            best = beyond;
            best_index = idx;
            best_same = same;
        }
    }
    rec_counts *fc = &e->per_func[r->func];
    fc->records++;
    fc->fields += n;
    /* status, two times, then ref and mask or func, depth, thread; then values */
    size_t most = 1 + 10 + 10 + 1 + REC_MAX_FIELDS / 8 + 1 + 10 + 10 + 10 * (size_t)n;
    if (out->len + most > out->cap)
        rec_buf_reserve(out, most);
    if (out->oom)
        return;
    uint8_t *p = out->data + out->len;
    if (best) {
        const int64_t *ref = e->val[best_index];
        const uint32_t differ = ~best_same & (uint32_t)((1ull << n) - 1);
        uint8_t *status = p++;
        *status = REC_STATUS_REF;
        p = rec_varint_at(p, rec_zigzag(dstart));
        p = rec_varint_at(p, tend - r->tstart);
        *p++ = (uint8_t)best;
        uint8_t *ext = p;
        for (unsigned k = 0, bytes = rec_ext_mask_bytes(lay->nfields); k < bytes; k++)
            *p++ = 0;
        for (uint32_t d = differ; d; d &= d - 1)
            rec_mask_set(status, ext, lay->rec[__builtin_ctz(d)]);
        for (uint32_t d = differ; d; d &= d - 1) {
            unsigned k = (unsigned)__builtin_ctz(d);
            p = rec_varint_at(p, rec_zigzag((int64_t)((uint64_t)cur[k] - (uint64_t)ref[k])));
        }
        fc->compressed_records++;
        fc->elided_fields += best_common;
    } else {
        *p++ = (uint8_t)((r->depth ? REC_STATUS_DEPTH : 0) | (r->thread ? REC_STATUS_THREAD : 0));
        p = rec_varint_at(p, rec_zigzag(dstart));
        p = rec_varint_at(p, tend - r->tstart);
        p = rec_varint_at(p, r->func);
        if (r->depth)
            p = rec_varint_at(p, r->depth);
        if (r->thread)
            p = rec_varint_at(p, r->thread);
        for (unsigned k = 0; k < n; k++)
            p = rec_varint_at(p, rec_zigzag(cur[k]));
    }
    out->len = (size_t)(p - out->data);
    if (e->win.size) {
        /* Only this function's records compare with the slot, through val[]. */
        unsigned at = e->win.head;
        rec_window_push(&e->win);
        e->key[at] = key;
        e->hash[at] = hash;
        note_newest(e, key);
#pragma GCC unroll 8
        for (unsigned k = 0; k < n; k++)
            e->val[at][k] = cur[k];
    }
}

/* With the field count a constant, every loop above unrolls: one copy per
 * count most functions have, the loops for the rest. */
static void encode_scalar(rec_encoder *e, const rec_record *r, const rec_layout *lay, rec_buf *out)
{
    switch (lay->nrec) {
#define ENCODE_N(count)                                                                                      \
    case count:                                                                                              \
        encode_scalar_n(e, r, lay, out, count);                                                              \
        return;
        ENCODE_N(1)
        ENCODE_N(2)
        ENCODE_N(3)
        ENCODE_N(4)
        ENCODE_N(5)
        ENCODE_N(6)
        ENCODE_N(7)
        ENCODE_N(8)
#undef ENCODE_N
    default:
        encode_scalar_n(e, r, lay, out, lay->nrec);
    }
}

int rec_encode(rec_encoder *e, const rec_record *r, rec_buf *out, const char **why)
{
    const rec_layout *lay = rec_table_layout(e->table, r->func);
    if (!lay) {
        *why = "function id not in the table";
        return -1;
    }
    if (lay->all_scalar && lay->nrec) {
        encode_scalar(e, r, lay, out);
        if (out->oom) {
            *why = "out of memory";
            return -1;
        }
        return 0;
    }
    rec_value errno_value;
    const rec_value *fields[REC_MAX_FIELDS];
    rec_load_fields(r, lay, &errno_value, fields);

    uint64_t tend = r->tend < r->tstart ? r->tstart : r->tend;
    int64_t dstart = (int64_t)(r->tstart - e->prev_tstart);
    e->prev_tstart = r->tstart;

    uint32_t same = 0;
    unsigned ref = e->win.size && lay->nrecorded ? choose_reference(e, r, lay, fields, &same) : 0;
    rec_counts *fc = &e->per_func[r->func];
    fc->records++;
    fc->fields += lay->nrecorded;
    if (ref) {
        const rec_record *refrec = &rec_window_back(&e->win, ref)->rec;
        rec_value ref_errno;
        const rec_value *rf[REC_MAX_FIELDS];
        rec_load_fields(refrec, lay, &ref_errno, rf);
        uint8_t status = REC_STATUS_REF;
        uint8_t ext[REC_MAX_FIELDS / 8 + 1] = {0};
        unsigned elided = 0;
        for (unsigned i = 0; i < lay->nfields; i++) {
            if (lay->cls[i] == REC_CLASS_NONE)
                continue;
            if (same & (1u << i)) {
                elided++;
                continue;
            }
            rec_mask_set(&status, ext, i);
        }
        rec_put_u8(out, status);
        rec_put_svarint(out, dstart);
        rec_put_varint(out, tend - r->tstart);
        rec_put_u8(out, (uint8_t)ref);
        rec_put_bytes(out, ext, rec_ext_mask_bytes(lay->nfields));
        for (unsigned i = 0; i < lay->nfields; i++)
            if (lay->cls[i] != REC_CLASS_NONE && !(same & (1u << i)))
                put_value(out, lay->cls[i], fields[i], rf[i]);
        fc->compressed_records++;
        fc->elided_fields += elided;
    } else {
        uint8_t status = (uint8_t)((r->depth ? REC_STATUS_DEPTH : 0) | (r->thread ? REC_STATUS_THREAD : 0));
        rec_put_u8(out, status);
        rec_put_svarint(out, dstart);
        rec_put_varint(out, tend - r->tstart);
        rec_put_varint(out, r->func);
        if (r->depth)
            rec_put_varint(out, r->depth);
        if (r->thread)
            rec_put_varint(out, r->thread);
        for (unsigned i = 0; i < lay->nfields; i++)
            put_value(out, lay->cls[i], fields[i], NULL);
    }
    if (e->win.size) {
        unsigned at = e->win.head;
        window_keep_copy(&e->win, r, lay);
        e->key[at] = e->win.slots[at].rec.func ? record_key(r) : REC_KEY_NONE; /* no copy: no reference */
        note_newest(e, record_key(r));
    }
    if (out->oom) {
        *why = "out of memory";
        return -1;
    }
    return 0;
}
