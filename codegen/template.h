/* template.h: recorder-codegen's template engine, a small mustache-like
 * language for C source (no escaping: the output is code, not HTML).
 *
 *   {{name}}              the value of name (looked up in the current context,
 *                         then in its parents); a missing name is an error.
 *                         When only blanks precede the tag on its line, every
 *                         further line of a multi-line value gets the same
 *                         blanks: nested code keeps its indentation.
 *   {{#name}}...{{/name}} once per item when name is a list, once when it is
 *                         a non-empty string, not at all when missing or empty
 *   {{^name}}...{{/name}} only when name is missing, empty or an empty list
 *   {{! comment }}        nothing
 *
 * A section or comment tag alone on its line takes the whole line with it,
 * so templates can be laid out one construct per line. */
#ifndef RECORDER_CODEGEN_TEMPLATE_H
#define RECORDER_CODEGEN_TEMPLATE_H

#include <stddef.h>

typedef struct tpl_ctx tpl_ctx;

tpl_ctx *tpl_new(void);
void tpl_free(tpl_ctx *c);
/* Sets (or replaces) a string value; the value is copied. */
void tpl_set(tpl_ctx *c, const char *key, const char *value);
void tpl_setf(tpl_ctx *c, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A flag for {{#key}}: "1" when on, removed when off. */
void tpl_flag(tpl_ctx *c, const char *key, int on);
/* Appends a new item to the list `key` and returns it (owned by c). */
tpl_ctx *tpl_push(tpl_ctx *c, const char *key);

/* Renders `text` (named `name` in errors) with c. Returns a malloc'd string,
 * or NULL with "NAME line N: reason" in err. */
char *tpl_render(const char *name, const char *text, const tpl_ctx *c, char *err, size_t cap);

#endif
