/* fuzz_codec: the record codec and merge annotations, without files.
 *
 * Input: window:u8 nranks:u8 payload...: the payload is decoded as the raw
 * payload of one block with the compiled-in function table (every kind and
 * class), merge annotations are parsed and applied to their record for
 * every rank of the set, and each record is rendered as text. Then the
 * oracle: the decoded records, encoded again, must decode to the same
 * records (times, function, depth, thread and every recorded field). */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "codec.h"
#include "merged.h"

#define MAX_RECORDS 2048

static const char *no_path(void *ctx, int64_t id)
{
    (void)ctx;
    return id == 0 ? "/p" : NULL;
}

static int same_array(const rec_value *a, const rec_value *b)
{
    if (a->len != b->len)
        return 0;
    if (!a->len)
        return 1;
    int64_t *x = malloc(a->len * sizeof *x), *y = malloc(a->len * sizeof *y);
    int same = x && y;
    if (same) {
        rec_value_array(a, x, a->len);
        rec_value_array(b, y, b->len);
        same = memcmp(x, y, a->len * sizeof *x) == 0;
    }
    free(x);
    free(y);
    return same;
}

static int same_field(unsigned cls, const rec_value *a, const rec_value *b)
{
    switch (cls) {
    case REC_CLASS_INT:
    case REC_CLASS_PATH:
        return a->i == b->i;
    case REC_CLASS_STR:
        return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len) == 0);
    case REC_CLASS_ARRAY:
        return same_array(a, b);
    default:
        return 1;
    }
}

static const rec_value *field(const rec_record *r, const rec_layout *lay, unsigned i, rec_value *tmp)
{
    if (i < lay->nargs)
        return &r->args[i];
    if (i == lay->nargs)
        return &r->ret;
    *tmp = (rec_value){.i = r->err};
    return tmp;
}

static void check_same(const rec_table *table, const rec_record *a, const rec_record *b)
{
    const rec_layout *lay = rec_table_layout(table, a->func);
    if (a->func != b->func || a->depth != b->depth || a->thread != b->thread || a->tstart != b->tstart)
        __builtin_trap();
    if (a->tend >= a->tstart && a->tend != b->tend) /* a wrapped tend is stored as tstart */
        __builtin_trap();
    for (unsigned i = 0; i < lay->nfields; i++) {
        rec_value ta, tb;
        if (!same_field(lay->cls[i], field(a, lay, i, &ta), field(b, lay, i, &tb)))
            __builtin_trap();
    }
}

static rec_record records[MAX_RECORDS];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned window = data[0] % (REC_WINDOW_MAX + 1);
    uint32_t nranks = 1 + data[1] % 16;
    const rec_table *table = rec_table_builtin();
    rec_decoder d;
    rec_decoder_init(&d, table, window);
    rec_decoder_reset(&d, 1000);
    rec_in in;
    rec_in_init(&in, data + 2, size - 2);
    rec_merge_state ms = {0};
    const uint8_t *note = NULL;
    uint32_t note_len = 0;
    size_t n = 0;
    static char line[1 << 16];
    while (rec_in_left(&in) && n < MAX_RECORDS) {
        rec_record *r = &records[n];
        rec_def def;
        int rc = rec_decode(&d, &in, r, &def);
        if (rc < 0)
            break;
        if (rc == 2) {
            if (def.kind == REC_DEF_MERGE) {
                note = def.bytes;
                note_len = def.len;
            }
            continue;
        }
        n++;
        rec_print_record(line, sizeof line, table, r, 0, 1e-7, no_path, NULL);
        if (!note)
            continue;
        const char *why;
        const rec_layout *lay = rec_table_layout(table, r->func);
        if (rec_merge_parse(&ms, note, note_len, lay, r, nranks, 0, &why) == 0) {
            for (uint32_t rank = 0; rank < nranks; rank++) {
                uint32_t index;
                if (!rec_merge_info_find(&ms.info, rank, &index))
                    continue;
                if (index >= ms.info.nranks)
                    __builtin_trap();
                rec_record mine = *r;
                rec_merge_apply(&ms.info, lay, &mine, rank, index);
                rec_print_record(line, sizeof line, table, &mine, rank, 1e-7, no_path, NULL);
            }
        }
        note = NULL;
    }
    rec_merge_state_free(&ms);

    /* The oracle: what was decoded survives encoding and decoding again. */
    rec_encoder e;
    rec_decoder_free(&d);
    if (rec_encoder_init(&e, table, window) != 0) {
        rec_encoder_free(&e);
        return 0;
    }
    rec_encoder_reset(&e, n ? records[0].tstart : 0);
    rec_buf out = {0};
    const char *why;
    for (size_t k = 0; k < n; k++)
        if (rec_encode(&e, &records[k], &out, &why) != 0)
            __builtin_trap();
    rec_decoder_init(&d, table, window);
    rec_decoder_reset(&d, n ? records[0].tstart : 0);
    rec_in_init(&in, out.data, out.len);
    for (size_t k = 0; k < n; k++) {
        rec_record again;
        rec_def def;
        if (rec_decode(&d, &in, &again, &def) != 1)
            __builtin_trap();
        check_same(table, &records[k], &again);
    }
    if (rec_in_left(&in))
        __builtin_trap();
    rec_buf_free(&out);
    rec_encoder_free(&e);
    rec_decoder_free(&d);
    return 0;
}
