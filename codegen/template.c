/* template.c: the template engine (see template.h). A template is parsed
 * into a small tree of text, variables and sections, then rendered against
 * a context tree; errors name the template and the line. */
#include "template.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

/* ---- contexts ---- */

typedef struct tpl_entry {
    char *key;
    char *str;       /* a string value, or NULL for a list */
    tpl_ctx **items; /* a list's items */
    size_t nitems;
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
    for (size_t i = 0; i < e->nitems; i++)
        tpl_free(e->items[i]);
    free(e->items);
    e->str = NULL;
    e->items = NULL;
    e->nitems = 0;
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
    *e = (tpl_entry){.key = cg_strdup(key)};
    return e;
}

void tpl_set(tpl_ctx *c, const char *key, const char *value)
{
    tpl_entry *e = entry(c, key);
    entry_clear(e);
    e->str = cg_strdup(value);
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
    e->items = cg_realloc(e->items, (e->nitems + 1) * sizeof *e->items);
    tpl_ctx *item = tpl_new();
    item->parent = c;
    e->items[e->nitems++] = item;
    return item;
}

static const tpl_entry *lookup(const tpl_ctx *c, const char *key)
{
    for (; c; c = c->parent)
        for (size_t i = 0; i < c->n; i++)
            if (!strcmp(c->entries[i].key, key))
                return &c->entries[i];
    return NULL;
}

/* ---- parsing ---- */

typedef enum { N_ROOT, N_TEXT, N_VAR, N_SECTION } nkind;

typedef struct tnode {
    nkind kind;
    char *text;   /* TEXT: the text; VAR, SECTION: the name */
    char *indent; /* VAR: the blanks before it when it starts its line */
    int inverted, line;
    struct tnode **kids;
    size_t nkids;
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
    parent->kids = cg_realloc(parent->kids, (parent->nkids + 1) * sizeof *parent->kids);
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

/* The line of p, counted on from the last position asked (*at, line *line):
 * parse asks in increasing order, so a template is scanned once, not once
 * per tag (hardening: quadratic in the template's length before). */
static int line_of(const char **at, int *line, const char *p)
{
    for (; *at < p; ++*at)
        *line += **at == '\n';
    return *line;
}

static void add_text(tnode *parent, const char *a, const char *b, int line)
{
    if (b <= a)
        return;
    tnode *t = node_new(N_TEXT, line);
    t->text = copy_n(a, (size_t)(b - a));
    node_add(parent, t);
}

/* Parses text into root; 0, or -1 with err set. */
static int parse(const char *name, const char *text, tnode *root, char *err, size_t cap)
{
    enum { MAX_DEPTH = 64 };
    tnode *stack[MAX_DEPTH];
    size_t depth = 0;
    stack[0] = root;
    const char *seg = text, *p = text, *at = text;
    int lines = 1;
    while ((p = strstr(seg, "{{")) != NULL) {
        const char *close = strstr(p + 2, "}}");
        int seg_line = line_of(&at, &lines, seg), line = line_of(&at, &lines, p);
        if (!close) {
            snprintf(err, cap, "%s line %d: unterminated tag", name, line);
            return -1;
        }
        const char *ls = p;
        while (ls > text && ls[-1] != '\n')
            ls--;
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
        n->text = copy_n(nb, (size_t)(ne - nb));
        n->inverted = sigil == '^';
        if (!is_block && at_line_start && p > ls)
            n->indent = copy_n(ls, (size_t)(p - ls));
        node_add(stack[depth], n);
        if (is_block) {
            if (depth + 1 == MAX_DEPTH) {
                snprintf(err, cap, "%s line %d: sections nested too deeply", name, line);
                return -1;
            }
            stack[++depth] = n;
        }
    }
    add_text(stack[depth], seg, seg + strlen(seg), line_of(&at, &lines, seg));
    if (depth) {
        snprintf(err, cap, "%s line %d: section {{#%s}} is never closed", name, stack[depth]->line,
                 stack[depth]->text);
        return -1;
    }
    return 0;
}

/* ---- rendering ---- */

static void put_indented(sb *out, const char *value, const char *indent)
{
    for (const char *v = value; *v; v++) {
        sb_putc(out, *v);
        if (*v == '\n' && indent && v[1] && v[1] != '\n')
            sb_puts(out, indent);
    }
}

static int truthy(const tpl_entry *e)
{
    return e && (e->str ? e->str[0] != 0 : e->nitems > 0);
}

static int render(const char *name, const tnode *n, const tpl_ctx *c, sb *out, char *err, size_t cap)
{
    for (size_t i = 0; i < n->nkids; i++) {
        const tnode *k = n->kids[i];
        if (k->kind == N_TEXT) {
            sb_puts(out, k->text);
            continue;
        }
        const tpl_entry *e = lookup(c, k->text);
        if (k->kind == N_VAR) {
            if (!e || !e->str) {
                snprintf(err, cap, "%s line %d: no value for {{%s}}", name, k->line, k->text);
                return -1;
            }
            put_indented(out, e->str, k->indent);
            continue;
        }
        if (k->inverted) {
            if (!truthy(e) && render(name, k, c, out, err, cap))
                return -1;
        } else if (e && !e->str) {
            for (size_t j = 0; j < e->nitems; j++)
                if (render(name, k, e->items[j], out, err, cap))
                    return -1;
        } else if (truthy(e) && render(name, k, c, out, err, cap)) {
            return -1;
        }
    }
    return 0;
}

char *tpl_render(const char *name, const char *text, const tpl_ctx *c, char *err, size_t cap)
{
    tnode *root = node_new(N_ROOT, 1);
    sb out = {0};
    char *result = NULL;
    if (parse(name, text, root, err, cap) == 0 && render(name, root, c, &out, err, cap) == 0)
        result = sb_take(&out);
    sb_free(&out);
    node_free(root);
    return result;
}
