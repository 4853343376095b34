/* codec.c: a skeleton as the bytes of its file (docs/reference/format.md,
 * section 12): the common file header with magic "RKH5", a codec byte and
 * the body's raw size, the body of varints and strings (zstd-compressed
 * when that is smaller: encodings of property lists repeat), a CRC-32 of
 * everything before it. */
#define _GNU_SOURCE
#include "recorder_h5skel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "rec_bytes.h"

enum { MAX_COUNT = 1 << 24, MAX_BODY = 1 << 30 };

void h5skel_file_name(const char *path, char *out, size_t cap)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)path; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    snprintf(out, cap, "%s%016llx", H5SKEL_PREFIX, (unsigned long long)h);
}

static void put_bytes(rec_buf *b, const h5skel_bytes *v)
{
    rec_put_str(b, v->data, v->len);
}

static void encode_body(rec_buf *b, const h5skel *s);

uint8_t *h5skel_encode(const h5skel *s, size_t *len)
{
    rec_buf body = {0}, b = {0};
    encode_body(&body, s);
    rec_put_file_header(&b, H5SKEL_MAGIC);
    size_t bound = ZSTD_compressBound(body.len);
    uint8_t *packed = body.oom ? NULL : malloc(bound);
    size_t z = packed ? ZSTD_compress(packed, bound, body.data, body.len, 3) : 0;
    int use_zstd = packed && !ZSTD_isError(z) && z < body.len;
    uint32_t raw = (uint32_t)body.len;
    rec_put_u8(&b, use_zstd ? REC_CODEC_ZSTD : REC_CODEC_NONE);
    rec_put_bytes(&b, &raw, sizeof raw);
    rec_put_bytes(&b, use_zstd ? packed : body.data, use_zstd ? z : body.len);
    b.oom |= body.oom || body.len > MAX_BODY;
    free(packed);
    rec_buf_free(&body);
    uint32_t crc = rec_crc32(0, b.data, b.len);
    rec_put_bytes(&b, &crc, 4);
    if (b.oom) {
        rec_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.data;
}

static void encode_body(rec_buf *bp, const h5skel *s)
{
    rec_buf b = *bp;
    rec_put_cstr(&b, s->path);
    rec_put_varint(&b, s->file_size);
    rec_put_varint(&b, s->capture_ns);
    rec_put_varint(&b, s->nobjects);
    for (size_t i = 0; i < s->nobjects; i++) {
        const h5skel_object *o = &s->objects[i];
        rec_put_u8(&b, (uint8_t)o->kind);
        rec_put_cstr(&b, o->name);
        rec_put_cstr(&b, o->other);
        put_bytes(&b, &o->type);
        put_bytes(&b, &o->space);
        put_bytes(&b, &o->plist);
        put_bytes(&b, &o->value);
        rec_put_cstr(&b, o->about ? o->about : "");
        rec_put_varint(&b, o->addr);
        rec_put_svarint(&b, o->data_addr);
        rec_put_varint(&b, o->storage);
        rec_put_varint(&b, o->ndims);
        rec_put_varint(&b, o->nchunks);
        for (uint64_t c = 0; c < o->nchunks; c++) {
            rec_put_varint(&b, o->chunk_size[c]);
            for (uint32_t d = 0; d < o->ndims; d++)
                rec_put_varint(&b, o->chunk_offset[c * o->ndims + d]);
        }
    }
    for (size_t i = 0; i < s->nobjects; i++) /* format 1.8: after the objects, which older readers end at */
        rec_put_svarint(&b, s->objects[i].corder);
    *bp = b;
}

static char *get_cstr(rec_in *in)
{
    uint32_t n = 0;
    const uint8_t *p = rec_get_str(in, &n);
    char *s = malloc((size_t)n + 1);
    if (!s)
        abort();
    if (p)
        memcpy(s, p, n);
    s[p ? n : 0] = 0;
    return s;
}

static void get_bytes(rec_in *in, h5skel_bytes *v)
{
    uint32_t n = 0;
    const uint8_t *p = rec_get_str(in, &n);
    v->len = p ? n : 0;
    v->data = v->len ? malloc(v->len) : NULL;
    if (v->len && !v->data)
        abort();
    if (v->len)
        memcpy(v->data, p, v->len);
}

/* An attribute's value as format 1.4 and older kept it, its bytes as stored,
 * as the record by meaning it is now: the same image, nothing patched. */
static void by_meaning(h5skel_bytes *v)
{
    uint8_t *b = malloc(v->len + 8);
    if (!b)
        abort();
    uint32_t n = (uint32_t)v->len;
    for (int k = 0; k < 4; k++)
        b[k] = (uint8_t)(n >> (8 * k)), b[v->len + 4 + k] = 0;
    memcpy(b + 4, v->data, v->len);
    free(v->data);
    v->data = b;
    v->len += 8;
}

h5skel *h5skel_decode(const void *bytes, size_t len, const char *file, char *err, size_t cap)
{
    rec_fixed f = {.swap = 0};
    rec_error e;
    uint32_t major, minor, crc;
    rec_in_init(&f.in, bytes, len);
    if (rec_check_file_header(&f, H5SKEL_MAGIC, file, "HDF5 input skeleton", &major, &minor, &e) != 0) {
        snprintf(err, cap, "%s", e.msg);
        return NULL;
    }
    if (len < REC_FILE_HEADER_SIZE + 4) {
        snprintf(err, cap, "%s: truncated: no CRC", file);
        return NULL;
    }
    rec_fixed tail = f;
    rec_in_init(&tail.in, (const uint8_t *)bytes + len - 4, 4);
    crc = rec_fixed_u32(&tail);
    if (rec_crc32(0, bytes, len - 4) != crc) {
        snprintf(err, cap, "%s: CRC mismatch (the file is damaged)", file);
        return NULL;
    }
    f.in.end = (const uint8_t *)bytes + len - 4;
    uint8_t codec = rec_get_u8(&f.in);
    uint32_t raw = rec_fixed_u32(&f);
    uint8_t *unpacked = NULL;
    if (f.in.failure || codec > REC_CODEC_ZSTD || raw > MAX_BODY) {
        snprintf(err, cap, "%s: bad codec or size at byte %d", file, REC_FILE_HEADER_SIZE);
        return NULL;
    }
    rec_in in;
    if (codec == REC_CODEC_ZSTD) {
        unpacked = malloc(raw ? raw : 1);
        size_t got = unpacked ? ZSTD_decompress(unpacked, raw, f.in.p, rec_in_left(&f.in)) : 0;
        if (!unpacked || ZSTD_isError(got) || got != raw) {
            free(unpacked);
            snprintf(err, cap, "%s: cannot decompress the body at byte %d", file, REC_FILE_HEADER_SIZE + 5);
            return NULL;
        }
        rec_in_init(&in, unpacked, raw);
    } else
        rec_in_init(&in, f.in.p, rec_in_left(&f.in));
    h5skel *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->path = get_cstr(&in);
    s->file_size = rec_get_varint(&in);
    s->capture_ns = rec_get_varint(&in);
    uint64_t n = rec_get_varint(&in);
    if (n > MAX_COUNT)
        rec_in_fail(&in, "too many objects");
    s->objects = calloc(n ? n : 1, sizeof *s->objects);
    if (!s->objects)
        abort();
    for (uint64_t i = 0; i < n && !in.failure; i++, s->nobjects++) {
        h5skel_object *o = &s->objects[i];
        o->kind = (char)rec_get_u8(&in);
        o->name = get_cstr(&in);
        o->other = get_cstr(&in);
        get_bytes(&in, &o->type);
        get_bytes(&in, &o->space);
        get_bytes(&in, &o->plist);
        get_bytes(&in, &o->value);
        if (o->kind == H5SKEL_ATTRIBUTE && o->value.len && major == 1 && minor < 5)
            by_meaning(&o->value);
        o->about = get_cstr(&in);
        o->addr = rec_get_varint(&in);
        o->data_addr = rec_get_svarint(&in);
        o->storage = rec_get_varint(&in);
        o->ndims = (uint32_t)rec_get_varint(&in);
        uint64_t nchunks = rec_get_varint(&in);
        if (o->ndims > 32 || nchunks > rec_in_left(&in)) {
            rec_in_fail(&in, "bad chunk list");
            break;
        }
        o->chunk_size = calloc(nchunks ? nchunks : 1, sizeof *o->chunk_size);
        o->chunk_offset = calloc(nchunks * o->ndims + 1, sizeof *o->chunk_offset);
        if (!o->chunk_size || !o->chunk_offset)
            abort();
        for (uint64_t c = 0; c < nchunks; c++) {
            o->chunk_size[c] = rec_get_varint(&in);
            for (uint32_t d = 0; d < o->ndims; d++)
                o->chunk_offset[c * o->ndims + d] = rec_get_varint(&in);
        }
        o->nchunks = nchunks;
        o->corder = -1;
    }
    for (size_t i = 0; i < s->nobjects && !in.failure && !(major == 1 && minor < 8); i++)
        s->objects[i].corder = rec_get_svarint(&in);
    if (!in.failure && rec_in_left(&in))
        rec_in_fail(&in, "bytes after the last object");
    free(unpacked);
    if (in.failure) { /* at a byte of the body */
        snprintf(err, cap, "%s: %s at byte %zu of its body", file, in.failure, in.failure_at);
        h5skel_free(s);
        return NULL;
    }
    return s;
}

void h5skel_free(h5skel *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nobjects; i++) {
        h5skel_object *o = &s->objects[i];
        free(o->name);
        free(o->other);
        free(o->type.data);
        free(o->space.data);
        free(o->plist.data);
        free(o->value.data);
        free(o->about);
        free(o->chunk_size);
        free(o->chunk_offset);
    }
    free(s->objects);
    free(s->path);
    free(s);
}

char *h5skel_hex(const h5skel_bytes *b)
{
    static const char digits[] = "0123456789abcdef";
    char *s = malloc(2 * b->len + 1);
    if (!s)
        abort();
    for (size_t i = 0; i < b->len; i++) {
        s[2 * i] = digits[b->data[i] >> 4];
        s[2 * i + 1] = digits[b->data[i] & 15];
    }
    s[2 * b->len] = 0;
    return s;
}

char *h5skel_chunks_text(const h5skel_object *o)
{
    size_t cap = 32 + (size_t)o->nchunks * ((size_t)o->ndims + 1) * 21, len = 0;
    char *text = malloc(cap);
    if (!text)
        abort();
    text[0] = 0;
    if (!o->nchunks || !o->ndims || !o->chunk_size || !o->chunk_offset)
        return text;
    len += (size_t)snprintf(text, cap, "%u", o->ndims);
    for (uint64_t i = 0; i < o->nchunks; i++) {
        for (uint32_t d = 0; d < o->ndims; d++)
            len += (size_t)snprintf(text + len, cap - len, "%c%llu", d ? ',' : ' ',
                                    (unsigned long long)o->chunk_offset[i * o->ndims + d]);
        len += (size_t)snprintf(text + len, cap - len, ",%llu", (unsigned long long)o->chunk_size[i]);
    }
    return text;
}
