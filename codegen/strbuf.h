/* strbuf.h: a growable string for recorder-codegen (internal). Allocation
 * failure aborts: codegen is a short-lived tool and has nothing to recover.
 *
 * A string may carry spans: stretches of its text tagged with a number
 * (the elastic emitter's record of a literal, a note, a call argument).
 * sb_append and sb_append_range copy them with the text; writing the text
 * through sb_str() drops them. */
#ifndef RECORDER_CODEGEN_STRBUF_H
#define RECORDER_CODEGEN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef struct sb_span {
    size_t at, len;
    uint32_t tag;
} sb_span;

typedef struct sb {
    char *s;
    size_t len, cap;
    sb_span *spans; /* in the order they were tagged */
    size_t nspans, capspans;
} sb;

void sb_putn(sb *b, const char *s, size_t n);
/* Appends n bytes for the caller to fill (after them, a NUL): where they start. */
char *sb_extend(sb *b, size_t n);
void sb_puts(sb *b, const char *s);
void sb_putc(sb *b, char c);
void sb_printf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(sb *b, const char *fmt, va_list ap);
/* The string (never NULL); stays owned by b. */
const char *sb_str(sb *b);
/* Hands the string over (malloc'd, never NULL) and empties b (its spans are dropped). */
char *sb_take(sb *b);
void sb_free(sb *b);

/* Tags b's text from at to its end with tag. */
void sb_tag(sb *b, size_t at, uint32_t tag);
/* Adds a span of len bytes at at. */
void sb_add_span(sb *b, size_t at, size_t len, uint32_t tag);
/* Appends from's text and spans. */
void sb_append(sb *b, const sb *from);
/* Appends n bytes of from's text from at, with the spans' parts inside them. */
void sb_append_range(sb *b, const sb *from, size_t at, size_t n);

/* malloc/calloc/realloc/strdup that abort on failure. */
void *cg_alloc(size_t n);
void *cg_calloc(size_t n, size_t size);
void *cg_realloc(void *p, size_t n);
char *cg_strdup(const char *s);

#endif
