/* text.c: the newlines of what the replay writes. Rank 0's loader finds
 * where the trace's line-oriented reads showed delimiters (rf_lines, from
 * every rank's records) and every rank gets them; each rank follows its own
 * records' file positions with the same scan (rf_inputs), so that a write
 * sends the pattern with the delimiters at the places of its bytes the reads
 * showed them, and none elsewhere. Files no line read showed keep the
 * replay's plain rule: a write ends with a newline. */
#define _GNU_SOURCE
#include "text.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static rf_lines *lines;
static rf_inputs *scan;

void rp_text_send(rp_out *o, const rf_lines *l)
{
    uint32_t files = 0;
    for (uint32_t f = 0; f < rf_lines_count(l); f++)
        files += rf_lines_key(l, f) != NULL;
    rp_out_u32(o, files);
    for (uint32_t f = 0; f < rf_lines_count(l); f++) {
        const char *key = rf_lines_key(l, f);
        if (!key)
            continue;
        const int64_t *at;
        size_t n = rf_lines_in(l, f, 0, INT64_MAX, &at);
        rp_out_str(o, key, (uint32_t)strlen(key));
        rp_out_i64(o, rf_lines_delim(l, f));
        rp_out_i64(o, (int64_t)n);
        for (size_t i = 0; i < n; i++)
            rp_out_i64(o, at[i]);
    }
}

/* The blob: per file its key and NUL, then delim, n and n offsets as int64_t. */
static void put(char **blob, uint64_t *len, uint64_t *cap, const void *p, size_t n)
{
    if (*len + n > *cap) {
        *cap = (*len + n) * 2;
        char *grown = realloc(*blob, *cap);
        if (!grown)
            abort();
        *blob = grown;
    }
    memcpy(*blob + *len, p, n);
    *len += n;
}

void rp_text_receive(rp_msg *m, char **blob, uint64_t *len)
{
    uint64_t cap = 0;
    *blob = NULL;
    *len = 0;
    uint32_t files = rp_msg_u32(m);
    for (uint32_t f = 0; f < files && !m->bad; f++) {
        char *key = rp_msg_str(m);
        int64_t head[2];
        head[0] = rp_msg_i64(m);
        head[1] = rp_msg_i64(m);
        if (!key || m->bad || head[1] < 0) {
            free(key);
            break;
        }
        put(blob, len, &cap, key, strlen(key) + 1);
        put(blob, len, &cap, head, sizeof head);
        for (int64_t i = 0; i < head[1] && !m->bad; i++) {
            int64_t at = rp_msg_i64(m);
            put(blob, len, &cap, &at, sizeof at);
        }
        free(key);
    }
}

void rp_text_init(const char *blob, uint64_t len)
{
    if (!len)
        return;
    lines = rf_lines_new();
    scan = rf_inputs_new(0);
    uint32_t file = 0;
    for (uint64_t at = 0; at < len; file++) {
        const char *key = blob + at;
        at += strlen(key) + 1;
        int64_t head[2];
        memcpy(head, blob + at, sizeof head);
        at += sizeof head;
        rf_lines_set_key(lines, file, key);
        for (int64_t i = 0; i < head[1]; i++, at += sizeof(int64_t)) {
            int64_t mark;
            memcpy(&mark, blob + at, sizeof mark);
            rf_lines_note(lines, file, mark, 1, 0, (int)head[0]); /* a one-byte line read ending there */
        }
    }
    rf_lines_finish(lines);
}

/* The scan follows every thread's records as they are replayed, one at a time. */
static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;

static void note(rp_ctx *x, const rp_rec *r)
{
    x->text_known = 0;
    const rec_func_desc *f = scan ? rec_function_by_id(r->func) : NULL;
    if (!f || !r->compatible)
        return;
    rec_record rec;
    memset(&rec, 0, sizeof rec);
    const char *paths[REC_MAX_ARGS] = {0};
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        const rp_value *v = &r->args[k];
        rec.args[k] = (rec_value){.i = v->i, .ptr = v->a ? (const void *)v->a : v->s, .len = v->len};
        if (f->args[k].kind == REC_KIND_PATH)
            paths[k] = v->s;
    }
    rec.ret = (rec_value){.i = r->ret.i, .ptr = r->ret.s, .len = r->ret.len};
    rec.err = r->err;
    rf_inputs_add(scan, f, &rec, 0, (double)r->seq, paths);
    rf_span span;
    uint32_t file;
    if (!(f->flags & REC_FN_WRITE) || !rf_inputs_last_span(scan, &span) ||
        !rf_lines_find(lines, rf_inputs_key(scan, span.file), &file))
        return;
    x->text_known = 1;
    x->text_off = span.offset;
    x->text_n = rf_lines_in(lines, file, span.offset, span.bytes, &x->text_at);
    x->text_delim = rf_lines_delim(lines, file);
}

void rp_text_note(rp_ctx *x, const rp_rec *r)
{
    if (!scan) {
        x->text_known = 0;
        return;
    }
    pthread_mutex_lock(&scan_lock);
    note(x, r);
    pthread_mutex_unlock(&scan_lock);
}

void rp_text_free(void)
{
    rf_lines_free(lines);
    if (scan) {
        rf_input *in;
        rf_inputs_free(in, rf_inputs_finish(scan, &in));
    }
    lines = NULL;
    scan = NULL;
}
