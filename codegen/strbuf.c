/* strbuf.c: the growable string, its spans, and the aborting allocators. */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Noreturn void out_of_memory(void)
{
    fputs("recorder-codegen: out of memory\n", stderr);
    exit(1);
}

void *cg_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *cg_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *cg_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory();
    return q;
}

char *cg_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(cg_alloc(n), s, n);
}

static void reserve(sb *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1)
        cap *= 2;
    b->s = cg_realloc(b->s, cap);
    b->cap = cap;
}

char *sb_extend(sb *b, size_t n)
{
    reserve(b, n);
    char *at = b->s + b->len;
    b->len += n;
    b->s[b->len] = 0;
    return at;
}

void sb_putn(sb *b, const char *s, size_t n)
{
    memcpy(sb_extend(b, n), s, n);
}

void sb_puts(sb *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_putc(sb *b, char c)
{
    sb_putn(b, &c, 1);
}

void sb_vprintf(sb *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (n <= 0)
        return;
    reserve(b, (size_t)n);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *sb_str(sb *b)
{
    if (!b->s)
        reserve(b, 0), b->s[0] = 0;
    return b->s;
}

char *sb_take(sb *b)
{
    sb_str(b);
    char *s = b->s;
    free(b->spans);
    *b = (sb){0};
    return s;
}

void sb_free(sb *b)
{
    free(b->s);
    free(b->spans);
    *b = (sb){0};
}

void sb_add_span(sb *b, size_t at, size_t len, uint32_t tag)
{
    if (b->nspans == b->capspans) {
        b->capspans = b->capspans ? 2 * b->capspans : 16;
        b->spans = cg_realloc(b->spans, b->capspans * sizeof *b->spans);
    }
    b->spans[b->nspans++] = (sb_span){at, len, tag};
}

void sb_tag(sb *b, size_t at, uint32_t tag)
{
    sb_add_span(b, at, b->len - at, tag);
}

void sb_append_range(sb *b, const sb *from, size_t at, size_t n)
{
    size_t base = b->len;
    if (n)
        sb_putn(b, from->s + at, n);
    for (size_t i = 0; i < from->nspans; i++) { /* their parts in the range */
        const sb_span *x = &from->spans[i];
        size_t start = x->at > at ? x->at : at, end = x->at + x->len < at + n ? x->at + x->len : at + n;
        if (start < end || (x->at >= at && x->at <= at + n && !x->len))
            sb_add_span(b, base + start - at, end > start ? end - start : 0, x->tag);
    }
}

void sb_append(sb *b, const sb *from)
{
    if (from->s)
        sb_append_range(b, from, 0, from->len);
}
