/* template.c: the template engine (see template.h). A template is parsed
 * into a small tree of text, variables and sections, then rendered against
 * a context tree; errors name the template and the line. Parsing is linear
 * in the template's length; rendering stops at template.h's limits. */
#include "template.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* ---- contexts ---- */

typedef struct tpl_entry {
    char *key;
    size_t keylen, len; /* len: str's */
    size_t indents;     /* str's newlines that text follows: where an indent goes */
    char *str;          /* a string value, or NULL for a list */
    sb_span *spans;     /* str's spans (tpl_set_sb) */
    size_t nspans;
    tpl_ctx **items;    /* a list's items */
    size_t nitems, capitems;
} tpl_entry;

struct tpl_ctx {
    const tpl_ctx *parent;
    tpl_entry *entries;
    size_t n, cap;
};

tpl_ctx *tpl_new(void)
{
    return cg_calloc(1, sizeof(tpl_ctx));
}

static void entry_clear(tpl_entry *e)
{
    free(e->str);
    free(e->spans);
    for (size_t i = 0; i < e->nitems; i++)
        tpl_free(e->items[i]);
    free(e->items);
    e->str = NULL;
    e->spans = NULL;
    e->items = NULL;
    e->len = e->indents = e->nspans = e->nitems = e->capitems = 0;
}

void tpl_free(tpl_ctx *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        entry_clear(&c->entries[i]);
        free(c->entries[i].key);
    }
    free(c->entries);
    free(c);
}

static tpl_entry *entry(tpl_ctx *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->entries[i].key, key))
            return &c->entries[i];
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->entries = cg_realloc(c->entries, c->cap * sizeof *c->entries);
    }
    tpl_entry *e = &c->entries[c->n++];
    *e = (tpl_entry){.key = cg_strdup(key), .keylen = strlen(key)};
    return e;
}

void tpl_set(tpl_ctx *c, const char *key, const char *value)
{
    tpl_entry *e = entry(c, key);
    entry_clear(e);
    e->len = strlen(value);
    e->str = memcpy(cg_alloc(e->len + 1), value, e->len + 1);
    for (const char *nl = value; (nl = strchr(nl, '\n')) != NULL; nl++)
        e->indents += nl[1] && nl[1] != '\n';
}

void tpl_set_sb(tpl_ctx *c, const char *key, const sb *value)
{
    tpl_set(c, key, value->s ? value->s : "");
    tpl_entry *e = entry(c, key);
    if (value->nspans) {
        e->spans = memcpy(cg_alloc(value->nspans * sizeof *e->spans), value->spans,
                          value->nspans * sizeof *e->spans);
        e->nspans = value->nspans;
    }
}

void tpl_setf(tpl_ctx *c, const char *key, const char *fmt, ...)
{
    sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    tpl_set(c, key, sb_str(&b));
    sb_free(&b);
}

void tpl_flag(tpl_ctx *c, const char *key, int on)
{
    tpl_set(c, key, on ? "1" : "");
}

tpl_ctx *tpl_push(tpl_ctx *c, const char *key)
{
    tpl_entry *e = entry(c, key);
    if (e->str) {
        free(e->str);
        e->str = NULL;
    }
    if (e->nitems == e->capitems) { /* doubling: a list of n items costs O(n) copies */
        e->capitems = e->capitems ? 2 * e->capitems : 4;
        e->items = cg_realloc(e->items, e->capitems * sizeof *e->items);
    }
    tpl_ctx *item = tpl_new();
    item->parent = c;
    e->items[e->nitems++] = item;
    return item;
}

/* The entry of key (n bytes) in c or its parents. *cost counts the work
 * (the renderer's steps): a step per entry looked at, and a step per byte
 * of a key as long as the name, compared. */
static const tpl_entry *lookup(const tpl_ctx *c, const char *key, size_t n, size_t *cost)
{
    for (; c; c = c->parent)
        for (size_t i = 0; i < c->n; i++) {
            const tpl_entry *e = &c->entries[i];
            *cost += 1 + (e->keylen == n ? n : 0);
            if (e->keylen == n && !memcmp(e->key, key, n))
                return e;
        }
    return NULL;
}

/* ---- parsing ---- */

typedef enum { N_ROOT, N_TEXT, N_VAR, N_SECTION } nkind;

typedef struct tnode {
    nkind kind;
    char *text;   /* TEXT: the text; VAR, SECTION: the name */
    char *indent; /* VAR: the blanks before it when it starts its line */
    size_t len, indent_len;
    int inverted, line;
    struct tnode **kids;
    size_t nkids, capkids;
} tnode;

static tnode *node_new(nkind kind, int line)
{
    tnode *n = cg_calloc(1, sizeof *n);
    n->kind = kind;
    n->line = line;
    return n;
}

static void node_add(tnode *parent, tnode *kid)
{
    if (parent->nkids == parent->capkids) {
        parent->capkids = parent->capkids ? 2 * parent->capkids : 4;
        parent->kids = cg_realloc(parent->kids, parent->capkids * sizeof *parent->kids);
    }
    parent->kids[parent->nkids++] = kid;
}

static void node_free(tnode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->nkids; i++)
        node_free(n->kids[i]);
    free(n->kids);
    free(n->text);
    free(n->indent);
    free(n);
}

static char *copy_n(const char *s, size_t n)
{
    char *p = cg_alloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static int blanks(const char *a, const char *b)
{
    for (; a < b; a++)
        if (*a != ' ' && *a != '\t')
            return 0;
    return 1;
}

/* Where parse has got to: the line of `at` and where that line starts. */
typedef struct cursor {
    const char *at, *line_start;
    int line;
} cursor;

/* The line of p, counted on from the last position asked: parse asks in
 * increasing order, so a template is scanned once, not once per tag (which
 * would be quadratic in its length). */
static int line_of(cursor *cur, const char *p)
{
    for (; cur->at < p; cur->at++)
        if (*cur->at == '\n') {
            cur->line++;
            cur->line_start = cur->at + 1;
        }
    return cur->line;
}

static void add_text(tnode *parent, const char *a, const char *b, int line)
{
    if (b <= a)
        return;
    tnode *t = node_new(N_TEXT, line);
    t->len = (size_t)(b - a);
    t->text = copy_n(a, t->len);
    node_add(parent, t);
}

/* Parses text into root; 0, or -1 with err set. *widest: the longest indent
 * of a variable. */
static int parse(const char *name, const char *text, tnode *root, size_t *widest, char *err, size_t cap)
{
    enum { MAX_DEPTH = 64 };
    tnode *stack[MAX_DEPTH];
    size_t depth = 0;
    stack[0] = root;
    const char *seg = text, *p = text;
    cursor cur = {text, text, 1};
    while ((p = strstr(seg, "{{")) != NULL) {
        const char *close = strstr(p + 2, "}}");
        int seg_line = line_of(&cur, seg), line = line_of(&cur, p);
        if (!close) {
            snprintf(err, cap, "%s line %d: unterminated tag", name, line);
            return -1;
        }
        const char *ls = cur.line_start; /* the start of p's line */
        char sigil = p[2];
        int is_block = sigil == '#' || sigil == '^' || sigil == '/' || sigil == '!';
        const char *nb = p + 2 + (is_block ? 1 : 0), *ne = close;
        while (nb < ne && *nb == ' ')
            nb++;
        while (ne > nb && ne[-1] == ' ')
            ne--;
        const char *after = close + 2, *eol = after;
        while (*eol == ' ' || *eol == '\t')
            eol++;
        int at_line_start = ls >= seg && blanks(ls, p);
        int standalone = is_block && at_line_start && (*eol == '\n' || *eol == 0);
        add_text(stack[depth], seg, standalone ? ls : p, seg_line);
        seg = standalone ? (*eol == '\n' ? eol + 1 : eol) : after;
        if (sigil == '!')
            continue;
        if (ne == nb) {
            snprintf(err, cap, "%s line %d: empty tag", name, line);
            return -1;
        }
        if (sigil == '/') {
            if (depth == 0 || strncmp(stack[depth]->text, nb, (size_t)(ne - nb)) ||
                stack[depth]->text[ne - nb]) {
                snprintf(err, cap, "%s line %d: {{/%.*s}} closes no open section", name, line, (int)(ne - nb),
                         nb);
                return -1;
            }
            depth--;
            continue;
        }
        tnode *n = node_new(is_block ? N_SECTION : N_VAR, line);
        n->len = (size_t)(ne - nb);
        n->text = copy_n(nb, n->len);
        n->inverted = sigil == '^';
        if (!is_block && at_line_start && p > ls) {
            n->indent_len = (size_t)(p - ls);
            n->indent = copy_n(ls, n->indent_len);
            if (n->indent_len > *widest)
                *widest = n->indent_len;
        }
        node_add(stack[depth], n);
        if (is_block) {
            if (depth + 1 == MAX_DEPTH) {
                snprintf(err, cap, "%s line %d: sections nested too deeply", name, line);
                return -1;
            }
            stack[++depth] = n;
        }
    }
    add_text(stack[depth], seg, seg + strlen(seg), line_of(&cur, seg));
    if (depth) {
        snprintf(err, cap, "%s line %d: section {{#%s}} is never closed", name, stack[depth]->line,
                 stack[depth]->text);
        return -1;
    }
    return 0;
}

/* ---- rendering ---- */

/* One render: its output and its steps, and their limits (template.h). */
typedef struct renderer {
    const char *name;
    sb out;
    size_t steps, max_steps, max_output;
    char *err;
    size_t cap;
} renderer;

/* Adds what c and its items hold: the bytes of the values, the entries and
 * list items. */
static void measure(const tpl_ctx *c, size_t *bytes, size_t *entries)
{
    for (size_t i = 0; i < c->n; i++) {
        const tpl_entry *e = &c->entries[i];
        *bytes += e->len;
        *entries += 1 + e->nitems;
        for (size_t j = 0; j < e->nitems; j++)
            measure(e->items[j], bytes, entries);
    }
}

/* Above any limit, so that sizes up to it add without overflow. */
#define OUTPUT_CAP (SIZE_MAX / 2)

/* a * b + c (c at most OUTPUT_CAP), or OUTPUT_CAP when more. */
static size_t capped(size_t a, size_t b, size_t c)
{
    return b && a > (OUTPUT_CAP - c) / b ? OUTPUT_CAP : a * b + c;
}

/* template.h's limits for a template of `length` bytes whose widest indent
 * is `widest`, rendered with c: they grow with c's whole tree (from its
 * root: all that lookups and sections can reach). */
static void set_limits(renderer *r, const tpl_ctx *c, size_t length, size_t widest)
{
    size_t bytes = 0, entries = 0;
    while (c && c->parent)
        c = c->parent;
    if (c)
        measure(c, &bytes, &entries);
    r->max_steps = capped(length + entries, TPL_STEPS_PER_INPUT, TPL_MAX_STEPS);
    r->max_output = capped(entries, length, capped(bytes, widest + 1, TPL_MAX_OUTPUT));
}

/* Counts n steps at k: 0, or -1 with the error set past the limit. */
static int spend(renderer *r, const tnode *k, size_t n)
{
    r->steps += n;
    if (r->steps <= r->max_steps)
        return 0;
    snprintf(r->err, r->cap,
             "%s line %d: rendering stopped after %zu steps (sections nested over lists multiply)", r->name,
             k->line, r->max_steps);
    return -1;
}

/* Room for n more bytes of output for k, or NULL with the error set past
 * the limit. */
static char *room(renderer *r, const tnode *k, size_t n)
{
    if (n > r->max_output - r->out.len) {
        snprintf(r->err, r->cap, "%s line %d: rendering stopped at %zu bytes of output", r->name, k->line,
                 r->max_output);
        return NULL;
    }
    return sb_extend(&r->out, n);
}

/* Appends n bytes for k: 0, or -1 with the error set past the limit. */
static int put(renderer *r, const tnode *k, const char *s, size_t n)
{
    char *o = room(r, k, n);
    if (o)
        memcpy(o, s, n);
    return o ? 0 : -1;
}

/* A variable's value (e), with k's indent after every newline that text
 * follows: the limit checked once, then a copy a line. */
static int put_lines(renderer *r, const tnode *k, const tpl_entry *e)
{
    if (!k->indent || !e->indents)
        return put(r, k, e->str, e->len);
    size_t width = k->indent_len, extra = e->indents > OUTPUT_CAP / width ? OUTPUT_CAP : e->indents * width;
    char *o = room(r, k, e->len + extra);
    if (!o)
        return -1;
    const char *v = e->str, *end = v + e->len;
    for (const char *nl; (nl = memchr(v, '\n', (size_t)(end - v))) != NULL; v = nl + 1) {
        memcpy(o, v, (size_t)(nl + 1 - v));
        o += nl + 1 - v;
        if (nl[1] && nl[1] != '\n') {
            memcpy(o, k->indent, width);
            o += width;
        }
    }
    memcpy(o, v, (size_t)(end - v));
    return 0;
}

/* How many of the n ascending offsets are below p. */
static size_t below(const size_t *v, size_t n, size_t p)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The value with its spans, which move with the indents put before them (an
 * indent at a span's start goes before the span). */
static int put_indented(renderer *r, const tnode *k, const tpl_entry *e)
{
    size_t base = r->out.len;
    if (put_lines(r, k, e))
        return -1;
    if (!e->nspans)
        return 0;
    size_t width = k->indent && e->indents ? k->indent_len : 0, n = 0;
    size_t *starts = cg_alloc((width ? e->indents : 0) * sizeof *starts + 1); /* where an indent went */
    for (size_t i = 0; width && i + 1 < e->len; i++)
        if (e->str[i] == '\n' && e->str[i + 1] != '\n')
            starts[n++] = i + 1;
    for (size_t i = 0; i < e->nspans; i++) {
        const sb_span *x = &e->spans[i];
        size_t at = x->at + width * below(starts, n, x->at + 1),
               end = x->at + x->len + width * below(starts, n, x->at + x->len);
        sb_add_span(&r->out, base + at, end > at ? end - at : 0, x->tag);
    }
    free(starts);
    return 0;
}

static int truthy(const tpl_entry *e)
{
    return e && (e->str ? e->str[0] != 0 : e->nitems > 0);
}

/* Renders n's kids in c: a step per kid and per list item entered, and the
 * lookups' (lookup). */
static int render(renderer *r, const tnode *n, const tpl_ctx *c)
{
    for (size_t i = 0; i < n->nkids; i++) {
        const tnode *k = n->kids[i];
        size_t cost = 1;
        const tpl_entry *e = k->kind == N_TEXT ? NULL : lookup(c, k->text, k->len, &cost);
        if (spend(r, k, cost))
            return -1;
        if (k->kind == N_TEXT) {
            if (put(r, k, k->text, k->len))
                return -1;
            continue;
        }
        if (k->kind == N_VAR) {
            if (!e || !e->str) {
                snprintf(r->err, r->cap, "%s line %d: no value for {{%s}}", r->name, k->line, k->text);
                return -1;
            }
            if (put_indented(r, k, e))
                return -1;
            continue;
        }
        if (k->inverted) {
            if (!truthy(e) && render(r, k, c))
                return -1;
        } else if (e && !e->str) {
            for (size_t j = 0; j < e->nitems; j++)
                if (spend(r, k, 1) || render(r, k, e->items[j]))
                    return -1;
        } else if (truthy(e) && render(r, k, c)) {
            return -1;
        }
    }
    return 0;
}

int tpl_render_sb(const char *name, const char *text, const tpl_ctx *c, sb *out, char *err, size_t cap)
{
    tnode *root = node_new(N_ROOT, 1);
    renderer r = {.name = name, .err = err, .cap = cap};
    size_t widest = 0;
    int rc = parse(name, text, root, &widest, err, cap);
    if (rc == 0) {
        set_limits(&r, c, strlen(text), widest);
        rc = render(&r, root, c);
    }
    if (rc == 0 && !out->len && !out->nspans) { /* the output as it is: no copy of a large kernel */
        sb_free(out);
        *out = r.out;
        r.out = (sb){0};
    } else if (rc == 0) {
        sb_append(out, &r.out);
    }
    sb_free(&r.out);
    node_free(root);
    return rc;
}

char *tpl_render(const char *name, const char *text, const tpl_ctx *c, char *err, size_t cap)
{
    sb out = {0};
    if (tpl_render_sb(name, text, c, &out, err, cap) != 0) {
        sb_free(&out);
        return NULL;
    }
    return sb_take(&out);
}
