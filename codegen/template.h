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
 * so templates can be laid out one construct per line.
 *
 * Limits: a section repeats what it encloses once per item, and a section
 * nested in another finds the outer one's list again through the parents,
 * so a short template can ask for work and output exponential in its length
 * ({{#a}} nested 30 deep over a list a of 2 items: 2^30 repetitions, empty
 * or not). tpl_render fails, never cuts its output short, past
 *   S = TPL_MAX_STEPS steps, and TPL_STEPS_PER_INPUT more per byte of the
 *     template and per entry (a value or a list) and list item in the
 *     context's tree, a step being a tag or text rendered, a list item
 *     entered, an entry looked at or a byte of a name compared: "NAME line
 *     N: rendering stopped after S steps (sections nested over lists
 *     multiply)";
 *   B = TPL_MAX_OUTPUT bytes of output, and more for what the context
 *     holds: each of its values once, every byte followed by the widest
 *     indent of a {{name}} in the template, and the template's length per
 *     entry and list item: "NAME line N: rendering stopped at B bytes of
 *     output";
 * N the line of the tag or text being rendered. recorder-codegen's renders,
 * on the 750 traces of the tests (with loops and without): at most 1,287
 * steps, and at most a few KB of output beyond their values (a kernel of
 * 280 MB, tracer.ten_million's without loops, goes through). Parsing is
 * linear in the template's length. */
#ifndef RECORDER_CODEGEN_TEMPLATE_H
#define RECORDER_CODEGEN_TEMPLATE_H

#include <stddef.h>

#include "strbuf.h"

enum { TPL_MAX_STEPS = 1 << 20, TPL_STEPS_PER_INPUT = 64 };
#define TPL_MAX_OUTPUT ((size_t)16 << 20) /* bytes: 16 MiB */

typedef struct tpl_ctx tpl_ctx;

tpl_ctx *tpl_new(void);
void tpl_free(tpl_ctx *c);
/* Sets (or replaces) a string value; the value is copied. */
void tpl_set(tpl_ctx *c, const char *key, const char *value);
void tpl_setf(tpl_ctx *c, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Sets a value with its spans, which rendering carries to where the value goes. */
void tpl_set_sb(tpl_ctx *c, const char *key, const sb *value);
/* A flag for {{#key}}: "1" when on, removed when off. */
void tpl_flag(tpl_ctx *c, const char *key, int on);
/* Appends a new item to the list `key` and returns it (owned by c). */
tpl_ctx *tpl_push(tpl_ctx *c, const char *key);

/* Renders `text` (named `name` in errors) with c. Returns a malloc'd string,
 * or NULL with "NAME line N: reason" in err. */
char *tpl_render(const char *name, const char *text, const tpl_ctx *c, char *err, size_t cap);
/* The same, appended to out with the spans of the values: 0, or -1 with err. */
int tpl_render_sb(const char *name, const char *text, const tpl_ctx *c, sb *out, char *err, size_t cap);

#endif
