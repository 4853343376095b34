/* decode.c: reading records back, the peephole compressor's other half
 * (codec.c encodes). A reference record names a window record and stores
 * only the fields that differ, integers as deltas. See
 * docs/reference/format.md. */
#include "codec.h"

#include <stdlib.h>

static void get_value(rec_in *in, unsigned cls, rec_value *v, const rec_value *ref)
{
    switch (cls) {
    case REC_CLASS_INT:
    case REC_CLASS_PATH: {
        int64_t x = rec_get_svarint(in);
        *v = (rec_value){.i = ref ? (int64_t)((uint64_t)ref->i + (uint64_t)x) : x};
        break;
    }
    case REC_CLASS_STR: {
        uint32_t len = 0;
        const uint8_t *s = rec_get_str(in, &len);
        *v = (rec_value){.ptr = s, .len = len};
        break;
    }
    case REC_CLASS_ARRAY: {
        uint64_t n = rec_get_varint(in);
        const uint8_t *first = in->p;
        if (n > rec_in_left(in)) { /* every element takes at least one byte */
            rec_in_fail(in, "array longer than its block");
            *v = (rec_value){0};
            break;
        }
        for (uint64_t k = 0; k < n; k++)
            rec_get_svarint(in);
        *v = (rec_value){.ptr = first, .len = (uint32_t)n, .encoded = 1, .i = in->p - first};
        break;
    }
    default:
        *v = (rec_value){0};
        break;
    }
}

/* ---- decoder ---- */

void rec_decoder_init(rec_decoder *d, const rec_table *table, unsigned window)
{
    memset(d, 0, sizeof *d);
    d->table = table;
    (void)rec_window_init(&d->win, window ? window : 1); /* size 0: rec_decode fails */
    d->window = window;
}

void rec_decoder_free(rec_decoder *d)
{
    rec_window_free(&d->win);
}

/* The window's strings and arrays point into the input; before the reader
 * replaces it (the next zstd frame of a block) each slot takes copies, or a
 * record referring back across the frame boundary would decode stale bytes.
 * A slot's values may point into another slot's arena (a field taken from
 * its reference) or its own: every slot copies into a fresh arena first, and
 * the old arenas are freed only once all have. */
void rec_decoder_keep_window(rec_decoder *d)
{
    rec_buf *old = d->win.count ? calloc(d->win.count, sizeof *old) : NULL;
    for (unsigned k = 0; k < d->win.count; k++) {
        rec_slot *s = &d->win.slots[k];
        const rec_layout *lay = s->rec.func ? rec_table_layout(d->table, s->rec.func) : NULL;
        if (!lay || lay->all_scalar)
            continue;
        rec_buf fresh = {0};
        rec_buf_reserve(&fresh, rec_payload_size(&s->rec, lay));
        if (fresh.oom || !old) {
            s->rec.func = 0; /* unusable as a reference: a later reference to it fails clearly */
            rec_buf_free(&fresh);
            continue;
        }
        rec_copy_payload(s, lay, &fresh);
        old[k] = s->arena;
        s->arena = fresh;
    }
    for (unsigned k = 0; old && k < d->win.count; k++)
        rec_buf_free(&old[k]);
    free(old);
}

void rec_decoder_reset(rec_decoder *d, uint64_t first_tstart)
{
    d->win.count = 0;
    d->win.head = 0;
    d->prev_tstart = first_tstart;
}

static int decode_def(rec_in *in, rec_def *def)
{
    def->kind = rec_get_varint(in);
    def->id = def->kind == REC_DEF_PATH ? rec_get_svarint(in) : 0;
    def->bytes = rec_get_str(in, &def->len);
    if (in->failure)
        return -1;
    if (def->kind == 0) {
        rec_in_fail(in, "unknown definition kind");
        return -1;
    }
    return 2;
}

/* The record's header: times, and the function, depth and thread (from
 * the reference for a compressed record). The layout, or NULL on error. */
static const rec_layout *decode_header(rec_decoder *d, rec_in *in, const uint8_t *entry, uint8_t status,
                                       rec_record *r, const rec_slot **refslot)
{
    int64_t dstart = rec_get_svarint(in);
    uint64_t duration = rec_get_varint(in);
    const rec_layout *lay;
    uint8_t ref = 0;
    *refslot = NULL;
    if (status & REC_STATUS_REF) {
        ref = rec_get_u8(in);
        if (in->failure)
            return NULL;
        if (ref == 0 || ref > d->window || ref > d->win.count) {
            in->p = entry;
            rec_in_fail(in, "ref_id outside the window");
            return NULL;
        }
        *refslot = rec_window_back(&d->win, ref);
        const rec_record *refrec = &(*refslot)->rec;
        lay = rec_table_layout(d->table, refrec->func);
        if (!lay) { /* a slot the reader could not keep (out of memory) */
            in->p = entry;
            rec_in_fail(in, "refers to a record that could not be kept");
            return NULL;
        }
        r->func = refrec->func;
        r->depth = refrec->depth;
        r->thread = refrec->thread;
    } else {
        if (status & ~REC_STATUS_FULL_MASK) {
            in->p = entry;
            rec_in_fail(in, "bad status byte");
            return NULL;
        }
        uint64_t func = rec_get_varint(in);
        lay = in->failure ? NULL : rec_table_layout(d->table, (unsigned)func);
        if (!lay) {
            if (!in->failure) {
                in->p = entry;
                rec_in_fail(in, "function id not in the trace's table");
            }
            return NULL;
        }
        r->func = (uint16_t)func;
        uint64_t depth = status & REC_STATUS_DEPTH ? rec_get_varint(in) : 0;
        uint64_t thread = status & REC_STATUS_THREAD ? rec_get_varint(in) : 0;
        if (depth > 255 || thread > UINT32_MAX) {
            rec_in_fail(in, "depth or thread id out of range");
            return NULL;
        }
        r->depth = (uint8_t)depth;
        r->thread = (uint32_t)thread;
    }
    if (in->failure)
        return NULL;
    uint64_t tstart = d->prev_tstart + (uint64_t)dstart;
    r->tstart = tstart;
    r->tend = tstart + duration;
    r->compressed = ref != 0;
    r->ref = ref;
    r->diff_fields = 0;
    d->prev_tstart = tstart;
    return lay;
}

/* A reference to an integer-only record: the same checks and values as
 * decode_reference, without its per-field indirections (the fast path). */
static int decode_scalar_reference(rec_decoder *d, rec_in *in, uint8_t status, const rec_layout *lay,
                                   const rec_slot *refslot, rec_record *r, rec_value *errno_value)
{
    uint8_t ext[REC_MAX_FIELDS / 8 + 1] = {0};
    rec_get_bytes(in, ext, rec_ext_mask_bytes(lay->nfields));
    unsigned stored = 0, k = 0;
    for (unsigned i = 0; i < lay->nfields; i++) {
        int differs = rec_mask_has(status, ext, i);
        if (lay->cls[i] == REC_CLASS_NONE) {
            if (differs) {
                rec_in_fail(in, "difference marked on a field that is never recorded");
                return -1;
            }
            r->args[i] = (rec_value){0};
            continue;
        }
        int64_t own = refslot->scalar[k++];
        if (differs) {
            own = (int64_t)((uint64_t)own + (uint64_t)rec_get_svarint(in));
            stored++;
        }
        if (i < lay->nargs)
            r->args[i] = (rec_value){.i = own};
        else if (i == lay->nargs)
            r->ret = (rec_value){.i = own};
        else
            errno_value->i = own;
    }
    if (rec_mask_past_fields(status, lay->nfields)) {
        rec_in_fail(in, "difference marked on a field the function does not have");
        return -1;
    }
    r->diff_fields = stored;
    d->total.compressed_records++;
    d->total.elided_fields += lay->nrec - stored;
    return 0;
}

/* A reference: the fields its mask marks are stored, the others are the
 * reference record's. */
static int decode_reference(rec_decoder *d, rec_in *in, uint8_t status, const rec_layout *lay,
                            const rec_record *refrec, rec_record *r, rec_value *errno_value)
{
    uint8_t ext[REC_MAX_FIELDS / 8 + 1] = {0};
    rec_get_bytes(in, ext, rec_ext_mask_bytes(lay->nfields));
    rec_value ref_errno;
    const rec_value *rf[REC_MAX_FIELDS];
    rec_load_fields(refrec, lay, &ref_errno, rf);
    unsigned stored = 0, elided = 0;
    for (unsigned i = 0; i < lay->nfields; i++) {
        int differs = rec_mask_has(status, ext, i);
        rec_value *v = rec_field_slot(r, lay, i, errno_value);
        if (differs && lay->cls[i] == REC_CLASS_NONE) {
            rec_in_fail(in, "difference marked on a field that is never recorded");
            return -1;
        }
        if (differs) {
            get_value(in, lay->cls[i], v, rf[i]);
            stored++;
        } else {
            *v = *rf[i];
            if (lay->cls[i] != REC_CLASS_NONE)
                elided++;
        }
    }
    if (rec_mask_past_fields(status, lay->nfields)) {
        rec_in_fail(in, "difference marked on a field the function does not have");
        return -1;
    }
    r->diff_fields = stored;
    d->total.compressed_records++;
    d->total.elided_fields += elided;
    return 0;
}

/* Keeps the record in the window, as the encoder keeps it: for an
 * integer-only layout the header and the recorded fields in a row, the
 * lines the next reference reads (at thousands of streams read in turn,
 * each line of a slot is a cache miss). */
static void keep_in_window(rec_decoder *d, const rec_record *r, const rec_layout *lay)
{
    rec_slot *s = rec_window_push(&d->win);
    if (!lay->all_scalar) {
        rec_copy_record(&s->rec, r, lay);
        return;
    }
    s->rec.func = r->func;
    s->rec.depth = r->depth;
    s->rec.thread = r->thread;
    for (unsigned k = 0; k < lay->nrec; k++) {
        unsigned i = lay->rec[k];
        s->scalar[k] = i < lay->nargs ? r->args[i].i : i == lay->nargs ? r->ret.i : r->err;
    }
}

int rec_decode(rec_decoder *d, rec_in *in, rec_record *r, rec_def *def)
{
    if (!d->win.size) {
        rec_in_fail(in, "out of memory for the peephole window");
        return -1;
    }
    const uint8_t *entry = in->p;
    uint8_t status = rec_get_u8(in);
    if (in->failure)
        return -1;
    if (!(status & REC_STATUS_REF) && (status & REC_STATUS_DEF)) {
        if (status != REC_STATUS_DEF) {
            in->p = entry;
            rec_in_fail(in, "bad status byte");
            return -1;
        }
        return decode_def(in, def);
    }
    const rec_slot *refslot;
    const rec_layout *lay = decode_header(d, in, entry, status, r, &refslot);
    if (!lay)
        return -1;
    rec_value errno_value = {0};
    int rc = 0;
    if (refslot && lay->all_scalar)
        rc = decode_scalar_reference(d, in, status, lay, refslot, r, &errno_value);
    else if (refslot)
        rc = decode_reference(d, in, status, lay, &refslot->rec, r, &errno_value);
    else
        for (unsigned i = 0; i < lay->nfields; i++)
            get_value(in, lay->cls[i], rec_field_slot(r, lay, i, &errno_value), NULL);
    if (rc != 0 || in->failure)
        return -1;
    if (lay->nfields == lay->nargs)
        r->ret = (rec_value){0};
    r->err = errno_value.i;
    d->total.records++;
    d->total.fields += lay->nrecorded;
    keep_in_window(d, r, lay);
    return 1;
}

static void prefetch_slot(const rec_slot *s, int write)
{
    /* the record's header, and its fields as integer layouts keep them */
    if (write) {
        __builtin_prefetch(&s->rec, 1);
        __builtin_prefetch(&s->scalar[0], 1);
        __builtin_prefetch(&s->scalar[REC_MAX_FIELDS - 1], 1);
    } else {
        __builtin_prefetch(&s->rec);
        __builtin_prefetch(&s->scalar[0]);
        __builtin_prefetch(&s->scalar[REC_MAX_FIELDS - 1]);
    }
}

void rec_decoder_prefetch(const rec_decoder *d)
{
    const rec_window *w = &d->win;
    if (!w->size)
        return;
    prefetch_slot(&w->slots[w->head], 1);
    if (w->count)
        prefetch_slot(&w->slots[w->head ? w->head - 1 : w->size - 1], 0);
}
