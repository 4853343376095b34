/* wire.c: encoding and decoding the loader's messages (see wire.h). */
#include "wire.h"

#include <stdlib.h>
#include <string.h>

#include "fs.h"

#define RP_ABSENT UINT32_MAX

void rp_out_init(rp_out *o, int fd)
{
    memset(o, 0, sizeof *o);
    o->fd = fd;
}

static void put(rp_out *o, const void *v, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 1 << 16;
        while (cap < o->n + n)
            cap *= 2;
        unsigned char *p = realloc(o->p, cap);
        if (!p) {
            o->failed = 1;
            return;
        }
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->n, v, n);
    o->n += n;
}

void rp_out_u8(rp_out *o, uint8_t v)
{
    put(o, &v, 1);
}

void rp_out_u32(rp_out *o, uint32_t v)
{
    put(o, &v, 4);
}

void rp_out_i64(rp_out *o, int64_t v)
{
    put(o, &v, 8);
}

void rp_out_f64(rp_out *o, double v)
{
    put(o, &v, 8);
}

void rp_out_str(rp_out *o, const char *s, uint32_t len)
{
    rp_out_u32(o, s ? len : RP_ABSENT);
    if (s)
        put(o, s, len);
}

void rp_out_begin(rp_out *o, int type)
{
    o->start = o->n;
    rp_out_u8(o, (uint8_t)type);
    rp_out_u32(o, 0);
}

void rp_out_end(rp_out *o)
{
    if (o->failed)
        return;
    uint32_t len = (uint32_t)(o->n - o->start - 5);
    memcpy(o->p + o->start + 1, &len, 4);
    if (o->n >= 1 << 16)
        rp_out_flush(o);
}

int rp_out_flush(rp_out *o)
{
    if (!o->failed && o->n && rp_sys_write_all(o->fd, o->p, o->n) != 0)
        o->failed = 1;
    o->n = 0;
    return o->failed ? -1 : 0;
}

void rp_out_free(rp_out *o)
{
    free(o->p);
    o->p = NULL;
}

void rp_out_record(rp_out *o, const rec_record *r, const rec_func_desc *f, int compatible, uint32_t seq,
                   const char *(*path)(void *ctx, int64_t id), void *ctx)
{
    rp_out_begin(o, RP_MSG_RECORD);
    rp_out_u32(o, r->func);
    rp_out_u8(o, r->depth);
    rp_out_u8(o, (uint8_t)((compatible && f) | (r->synthetic ? 2 : 0))); /* bit 1: rebuilt */
    rp_out_u32(o, r->thread);
    rp_out_u32(o, seq);
    rp_out_i64(o, (int64_t)r->tstart);
    rp_out_i64(o, (int64_t)r->tend);
    rp_out_i64(o, r->err);
    unsigned nfields = f ? f->nargs + 1u : 0;
    rp_out_u8(o, (uint8_t)nfields);
    for (unsigned i = 0; i < nfields; i++) {
        unsigned kind = i < f->nargs ? f->args[i].kind : f->ret_kind;
        const rec_value *v = i < f->nargs ? &r->args[i] : &r->ret;
        rec_class cls = rec_kind_class(kind);
        rp_out_u8(o, (uint8_t)cls);
        switch (cls) {
        case REC_CLASS_INT:
            rp_out_i64(o, v->i);
            break;
        case REC_CLASS_PATH: {
            const char *s = v->i >= 0 ? path(ctx, v->i) : NULL;
            rp_out_i64(o, v->i);
            rp_out_str(o, s, s ? (uint32_t)strlen(s) : 0);
            break;
        }
        case REC_CLASS_STR:
            rp_out_str(o, v->ptr ? (const char *)v->ptr : "", v->ptr ? v->len : 0);
            break;
        case REC_CLASS_ARRAY: {
            int64_t small[64];
            size_t n = rec_value_array(v, small, 64);
            int64_t *all = small;
            if (n > 64) {
                all = malloc(n * sizeof *all);
                if (!all) {
                    o->failed = 1;
                    return;
                }
                rec_value_array(v, all, n);
            }
            rp_out_u32(o, (uint32_t)n);
            put(o, all, n * sizeof *all);
            if (all != small)
                free(all);
            break;
        }
        default:
            break;
        }
    }
    rp_out_end(o);
}

void rp_in_init(rp_in *in, int fd)
{
    in->fd = fd;
    in->pos = in->len = 0;
}

static int get(rp_in *in, void *out, size_t n)
{
    unsigned char *p = out;
    while (n) {
        if (in->pos == in->len) {
            ssize_t k = rp_sys_read(in->fd, in->buf, sizeof in->buf);
            if (k <= 0)
                return -1;
            in->pos = 0;
            in->len = (size_t)k;
        }
        size_t take = in->len - in->pos < n ? in->len - in->pos : n;
        memcpy(p, in->buf + in->pos, take);
        in->pos += take;
        p += take;
        n -= take;
    }
    return 0;
}

int rp_in_next(rp_in *in, rp_msg *m)
{
    uint8_t type;
    uint32_t len;
    memset(m, 0, sizeof *m);
    if (get(in, &type, 1) != 0 || get(in, &len, 4) != 0)
        return 0;
    m->type = type;
    m->len = len;
    m->data = malloc(len ? len : 1);
    if (!m->data || get(in, m->data, len) != 0) {
        free(m->data);
        m->data = NULL;
        return 0;
    }
    return 1;
}

static int take(rp_msg *m, void *out, size_t n)
{
    if (m->bad || m->len - m->pos < n) {
        m->bad = 1;
        memset(out, 0, n);
        return -1;
    }
    memcpy(out, m->data + m->pos, n);
    m->pos += n;
    return 0;
}

uint8_t rp_msg_u8(rp_msg *m)
{
    uint8_t v;
    take(m, &v, 1);
    return v;
}

uint32_t rp_msg_u32(rp_msg *m)
{
    uint32_t v;
    take(m, &v, 4);
    return v;
}

int64_t rp_msg_i64(rp_msg *m)
{
    int64_t v;
    take(m, &v, 8);
    return v;
}

double rp_msg_f64(rp_msg *m)
{
    double v;
    take(m, &v, 8);
    return v;
}

char *rp_msg_str(rp_msg *m)
{
    uint32_t len = rp_msg_u32(m);
    if (len == RP_ABSENT || m->bad)
        return NULL;
    char *s = malloc((size_t)len + 1);
    if (!s || take(m, s, len) != 0) {
        free(s);
        return NULL;
    }
    s[len] = 0;
    return s;
}

/* The record and its strings and arrays in one block: a record's values
 * take at most its payload plus a NUL and 8 bytes of alignment each. */
rp_rec *rp_msg_record(rp_msg *m)
{
    size_t room = sizeof(rp_rec) + m->len + 9 * (REC_MAX_ARGS + 1) + 16;
    rp_rec *r = calloc(1, room);
    if (!r)
        return NULL;
    unsigned char *store = (unsigned char *)(r + 1), *end = (unsigned char *)r + room;
    r->func = (uint16_t)rp_msg_u32(m);
    r->depth = rp_msg_u8(m);
    uint8_t flags = rp_msg_u8(m);
    r->compatible = flags & 1;
    r->synthetic = (flags >> 1) & 1;
    r->thread = rp_msg_u32(m);
    r->seq = rp_msg_u32(m);
    r->tstart = (uint64_t)rp_msg_i64(m);
    r->tend = (uint64_t)rp_msg_i64(m);
    r->err = rp_msg_i64(m);
    unsigned nfields = rp_msg_u8(m);
    if (nfields > REC_MAX_ARGS + 1)
        m->bad = 1;
    for (unsigned i = 0; i < nfields && !m->bad; i++) {
        rp_value *v = i + 1 < nfields ? &r->args[i] : &r->ret;
        rec_class cls = (rec_class)rp_msg_u8(m);
        if (cls == REC_CLASS_INT) {
            v->i = rp_msg_i64(m);
        } else if (cls == REC_CLASS_PATH || cls == REC_CLASS_STR) {
            if (cls == REC_CLASS_PATH)
                v->i = rp_msg_i64(m);
            uint32_t len = rp_msg_u32(m);
            if (len == RP_ABSENT)
                continue;
            if ((size_t)(end - store) < (size_t)len + 1 || take(m, store, len) != 0) {
                m->bad = 1;
                break;
            }
            store[len] = 0;
            v->s = (const char *)store;
            v->len = len;
            store += len + 1;
        } else if (cls == REC_CLASS_ARRAY) {
            uint32_t n = rp_msg_u32(m);
            store = (unsigned char *)(((uintptr_t)store + 7) & ~(uintptr_t)7);
            if ((size_t)(end - store) < (size_t)n * 8 || take(m, store, (size_t)n * 8) != 0) {
                m->bad = 1;
                break;
            }
            v->a = (const int64_t *)store;
            v->len = n;
            store += (size_t)n * 8;
        }
    }
    if (m->bad) {
        free(r);
        return NULL;
    }
    return r;
}
