/* strbuf.h: a growable string for recorder-codegen (internal). Allocation
 * failure aborts: codegen is a short-lived tool and has nothing to recover. */
#ifndef RECORDER_CODEGEN_STRBUF_H
#define RECORDER_CODEGEN_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct sb {
    char *s;
    size_t len, cap;
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
/* Hands the string over (malloc'd, never NULL) and empties b. */
char *sb_take(sb *b);
void sb_free(sb *b);

/* malloc/calloc/realloc/strdup that abort on failure. */
void *cg_alloc(size_t n);
void *cg_calloc(size_t n, size_t size);
void *cg_realloc(void *p, size_t n);
char *cg_strdup(const char *s);

#endif
