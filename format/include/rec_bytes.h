/* rec_bytes.h: the trace format's framing, public for the side files that
 * share it (HDF5 input structures, stored HDF5 values): growable output
 * buffers, bounds-checked input cursors, LEB128 varints with zigzag for
 * signed values, CRC-32, the common file header and whole-file I/O. */
#ifndef REC_BYTES_H
#define REC_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "recorder_format.h" /* rec_error, rec_io */

/* ---- output ---- */
typedef struct rec_buf {
    uint8_t *data;
    size_t len, cap;
    int oom; /* an allocation failed: contents are incomplete */
} rec_buf;

void rec_buf_reserve(rec_buf *b, size_t extra);
void rec_buf_free(rec_buf *b);

static inline void rec_put_bytes(rec_buf *b, const void *p, size_t n)
{
    if (b->len + n > b->cap)
        rec_buf_reserve(b, n);
    if (b->oom)
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
}

static inline void rec_put_u8(rec_buf *b, uint8_t v)
{
    if (b->len + 1 > b->cap)
        rec_buf_reserve(b, 1);
    if (!b->oom)
        b->data[b->len++] = v;
}

/* Writes v's varint at p (room for 10 bytes); returns the byte after it. */
static inline uint8_t *rec_varint_at(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline void rec_put_varint(rec_buf *b, uint64_t v)
{
    if (b->len + 10 > b->cap)
        rec_buf_reserve(b, 10);
    if (b->oom)
        return;
    b->len = (size_t)(rec_varint_at(b->data + b->len, v) - b->data);
}

static inline uint64_t rec_zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t rec_unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline void rec_put_svarint(rec_buf *b, int64_t v)
{
    rec_put_varint(b, rec_zigzag(v));
}

static inline void rec_put_str(rec_buf *b, const void *s, size_t n)
{
    rec_put_varint(b, n);
    rec_put_bytes(b, s, n);
}

static inline void rec_put_cstr(rec_buf *b, const char *s)
{
    rec_put_str(b, s ? s : "", s ? strlen(s) : 0);
}

/* ---- input ---- */
typedef struct rec_in {
    const uint8_t *p, *end, *start;
    const char *failure; /* first problem met, NULL while all is well */
    size_t failure_at;   /* its offset from start */
} rec_in;

static inline void rec_in_init(rec_in *in, const void *data, size_t n)
{
    in->start = in->p = (const uint8_t *)data;
    /* An empty file is read as NULL, and NULL + 0 is undefined: no arithmetic on it. */
    in->end = n ? in->p + n : in->p;
    in->failure = NULL;
    in->failure_at = 0;
}

static inline void rec_in_fail(rec_in *in, const char *why)
{
    if (!in->failure) {
        in->failure = why;
        in->failure_at = (size_t)(in->p - in->start);
    }
    in->p = in->end; /* every later read fails too, never runs past the end */
}

static inline size_t rec_in_left(const rec_in *in)
{
    return (size_t)(in->end - in->p);
}

static inline uint8_t rec_get_u8(rec_in *in)
{
    if (in->p >= in->end) {
        rec_in_fail(in, "truncated");
        return 0;
    }
    return *in->p++;
}

static inline uint64_t rec_get_varint(rec_in *in)
{
    if (in->p < in->end && *in->p < 0x80) /* most are one byte: small deltas and counts */
        return *in->p++;
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (in->p >= in->end) {
            rec_in_fail(in, "truncated");
            return 0;
        }
        uint8_t byte = *in->p++;
        if (shift == 63 && byte > 1) {
            rec_in_fail(in, "varint overflows 64 bits");
            return 0;
        }
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    rec_in_fail(in, "varint longer than 10 bytes");
    return 0;
}

static inline int64_t rec_get_svarint(rec_in *in)
{
    return rec_unzigzag(rec_get_varint(in));
}

/* A length-prefixed byte string, pointing into the input; NULL on error. */
static inline const uint8_t *rec_get_str(rec_in *in, uint32_t *len)
{
    uint64_t n = rec_get_varint(in);
    if (in->failure)
        return NULL;
    if (n > rec_in_left(in)) {
        rec_in_fail(in, "string runs past the end");
        return NULL;
    }
    const uint8_t *s = in->p;
    in->p += n;
    *len = (uint32_t)n;
    return s;
}

static inline void rec_get_bytes(rec_in *in, void *out, size_t n)
{
    if (n > rec_in_left(in)) {
        rec_in_fail(in, "truncated");
        memset(out, 0, n);
        return;
    }
    memcpy(out, in->p, n);
    in->p += n;
}

uint32_t rec_crc32(uint32_t crc, const void *data, size_t n);

/* ---- the common file header and whole files ---- */
#define REC_FILE_HEADER_SIZE 12 /* magic[4], bom u32, major u16, minor u16 */

/* Fixed-width fields are written in the writer's byte order; the BOM tells
 * a reader on the other byte order to swap them. Varints need no swapping. */
typedef struct rec_fixed {
    rec_in in;
    int swap;
} rec_fixed;

uint16_t rec_fixed_u16(rec_fixed *f);
uint32_t rec_fixed_u32(rec_fixed *f);
uint64_t rec_fixed_u64(rec_fixed *f);

void rec_put_file_header(rec_buf *b, const char magic[4]);
/* Checks magic, byte order and version; leaves f positioned after the header.
 * Returns 0, or -1 with err naming path. */
int rec_check_file_header(rec_fixed *f, const char magic[4], const char *path, const char *what,
                          uint32_t *major, uint32_t *minor, rec_error *err);

/* Writes a whole file through io (the real functions; NULL: libc's). */
int rec_write_file(const rec_io *io, const char *path, const void *data, size_t n, rec_error *err);
/* Reads a whole file (malloc'ed into *data); -1 with err naming path. */
int rec_read_file(const char *path, uint8_t **data, size_t *n, rec_error *err);

#endif
