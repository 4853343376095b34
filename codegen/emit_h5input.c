/* emit_h5input.c: the HDF5 inputs setup() re-creates. Each one is a table
 * of its objects, a comment a row saying what the object is, made by
 * make_h5_input() (h5skel/h5_make_input.c, the code recorder-replay runs
 * too, compiled in as the template h5_make_input.c). Rows are laid out as
 * clang-format lays them out: short values packed on a line, a string too
 * long for one split into literals of PIECE characters, each on a line of
 * its own, and what follows it on the next line. An encoding that several
 * objects share (a group's properties, a dataset's type) is a constant of
 * its own, which their rows name. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "recorder_h5skel.h"

enum { PIECE = 100, INDENT = 5 };

/* A value of a row: its literals, each on a line if more than one. */
typedef struct item {
    char **pieces;
    size_t n, cap;
} item;

static void piece_of(item *it, sb *s)
{
    if (it->n == it->cap) {
        it->cap = it->cap ? 2 * it->cap : 4;
        char **grown = cg_alloc(it->cap * sizeof *grown);
        if (it->n)
            memcpy(grown, it->pieces, it->n * sizeof *grown);
        free(it->pieces);
        it->pieces = grown;
    }
    it->pieces[it->n++] = cg_strdup(sb_str(s));
}

/* s as C string literals of at most PIECE columns, never cut in an escape. */
static void string_item(item *it, const char *s, size_t len)
{
    sb cur = {0};
    sb_putc(&cur, '"');
    for (size_t i = 0; i < len; i++) {
        char esc[8];
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            snprintf(esc, sizeof esc, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f || ch == '?')
            snprintf(esc, sizeof esc, "\\%03o", ch);
        else
            snprintf(esc, sizeof esc, "%c", ch);
        if (cur.len + strlen(esc) + 1 > PIECE) {
            sb_putc(&cur, '"');
            piece_of(it, &cur);
            cur.len = 0;
            sb_putc(&cur, '"');
        }
        sb_puts(&cur, esc);
    }
    sb_putc(&cur, '"');
    piece_of(it, &cur);
    sb_free(&cur);
}

/* An encoding and how many rows hold it, by its role and hex. */
typedef struct shared {
    UT_hash_handle hh;
    unsigned uses;
    char name[32]; /* its constant, once it has one */
    char key[];    /* role letter, then the hex */
} shared;

typedef struct blobs {
    shared *all;
    unsigned named[3]; /* constants so far, per role */
} blobs;

static const char *const roles[] = {"type", "space", "plist"};

static shared *blob(blobs *b, int role, const h5skel_bytes *bytes)
{
    char *hex = h5skel_hex(bytes);
    size_t n = strlen(hex);
    shared *s = cg_alloc(sizeof *s + n + 2);
    memset(s, 0, sizeof *s);
    s->key[0] = (char)('0' + role);
    memcpy(s->key + 1, hex, n + 1);
    free(hex);
    shared *found = NULL;
    HASH_FIND_STR(b->all, s->key, found);
    if (found) {
        free(s);
        return found;
    }
    HASH_ADD_STR(b->all, key, s);
    return s;
}

/* A row's encoding: its constant's name, or the literal itself. */
static void blob_item(blobs *b, item *it, int role, const h5skel_bytes *bytes)
{
    shared *s = blob(b, role, bytes);
    if (s->uses > 1 && s->key[1]) {
        sb name = {0};
        sb_puts(&name, s->name);
        piece_of(it, &name);
        sb_free(&name);
    } else
        string_item(it, s->key + 1, strlen(s->key + 1));
}

/* Counts every row's encodings, then names those several rows hold, as
 * constants in out. */
static void share(blobs *b, const cg_model *m, sb *out)
{
    for (size_t i = 0; i < m->ninputs; i++)
        for (size_t k = 0; m->inputs[i].skel && k < m->inputs[i].skel->nobjects; k++) {
            const h5skel_object *o = &m->inputs[i].skel->objects[k];
            blob(b, 0, &o->type)->uses++;
            blob(b, 1, &o->space)->uses++;
            blob(b, 2, &o->plist)->uses++;
        }
    for (shared *s = b->all; s; s = s->hh.next) {
        if (s->uses < 2 || !s->key[1])
            continue;
        int role = s->key[0] - '0';
        snprintf(s->name, sizeof s->name, "h5_%s_%u", roles[role], ++b->named[role]);
        if (b->named[0] + b->named[1] + b->named[2] == 1) /* the first constant */
            sb_puts(out, "/* Encodings that several objects share. */\n");
        item it = {0};
        string_item(&it, s->key + 1, strlen(s->key + 1));
        sb_printf(out, "static const char %s[] =", s->name);
        if (it.n == 1 &&
            strlen("static const char [] = ;") + strlen(s->name) + strlen(it.pieces[0]) <= CG_COLUMNS)
            sb_printf(out, " %s;\n", it.pieces[0]);
        else
            for (size_t p = 0; p < it.n; p++)
                sb_printf(out, "\n    %s%s", it.pieces[p], p + 1 == it.n ? ";\n" : "");
        for (size_t p = 0; p < it.n; p++)
            free(it.pieces[p]);
        free(it.pieces);
    }
    if (b->named[0] + b->named[1] + b->named[2])
        sb_putc(out, '\n');
}

/* One row: "    {a, b," packed while values fit in the column limit. */
static void emit_row(item *items, size_t n, sb *out)
{
    size_t col = 0;
    int after_long = 0;
    for (size_t i = 0; i < n; i++) {
        const char *end = i + 1 == n ? "}," : ",";
        item *it = &items[i];
        if (it->n == 1) {
            size_t w = strlen(it->pieces[0]) + strlen(end);
            if (i == 0) {
                sb_puts(out, "    {");
                col = 5;
            } else if (!after_long && col + 1 + w <= CG_COLUMNS) {
                sb_putc(out, ' ');
                col++;
            } else {
                sb_printf(out, "\n%*s", INDENT, "");
                col = INDENT;
            }
            sb_puts(out, it->pieces[0]);
            sb_puts(out, end);
            col += w;
            after_long = 0;
        } else {
            for (size_t p = 0; p < it->n; p++)
                sb_printf(out, "\n%*s%s", INDENT, "", it->pieces[p]);
            sb_puts(out, end);
            after_long = 1;
        }
        for (size_t p = 0; p < it->n; p++)
            free(it->pieces[p]);
        it->n = 0;
    }
    sb_putc(out, '\n');
}

/* "    / * what * /" within the column limit, with nothing that ends a comment. */
static void comment(const h5skel_object *o, sb *out)
{
    static const char *const kinds[] = {"f", "the file", "g", "group",    "t", "named datatype",
                                        "d", "dataset",  "w", "data of",  "a", "attribute",
                                        "l", "link",     "s", "soft link"};
    const char *kind = "object";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i += 2)
        if (kinds[i][0] == o->kind)
            kind = kinds[i + 1];
    char text[512];
    int n = o->kind == H5SKEL_FILE ? snprintf(text, sizeof text, "%s", kind)
            : o->kind == H5SKEL_ATTRIBUTE
                ? snprintf(text, sizeof text, "%s %s of %s", kind, o->other, o->name)
            : o->kind == H5SKEL_HARD_LINK || o->kind == H5SKEL_SOFT_LINK
                ? snprintf(text, sizeof text, "%s %s to %s", kind, o->name, o->other)
                : snprintf(text, sizeof text, "%s %s", kind, o->name);
    if (n > 0 && (size_t)n < sizeof text && o->about && o->about[0])
        snprintf(text + n, sizeof text - (size_t)n, ": %s", o->about);
    for (char *p = text; *p; p++)
        if ((p[0] == '*' && p[1] == '/') || (unsigned char)*p < 0x20 || (unsigned char)*p >= 0x7f)
            *p = '_';
    size_t room = CG_COLUMNS - strlen("    /*  */");
    if (strlen(text) > room)
        memcpy(text + room - 3, "...", 4);
    sb_printf(out, "    /* %s */\n", text);
}

/* The table of an input's objects; 1 when a filtered dataset's chunks are listed (setup() then fills
 * them with the filtered-data generator). */
static int table(blobs *b, const h5skel *s, const char *name, sb *out)
{
    int chunked = 0;
    sb_printf(out, "static const struct h5_object %s[] = {\n", name);
    item items[9];
    memset(items, 0, sizeof items);
    for (size_t i = 0; i < s->nobjects; i++) {
        const h5skel_object *o = &s->objects[i];
        comment(o, out);
        sb kind = {0};
        sb_printf(&kind, "'%c'", o->kind);
        piece_of(&items[0], &kind);
        sb_free(&kind);
        string_item(&items[1], o->name, strlen(o->name));
        string_item(&items[2], o->other, strlen(o->other));
        blob_item(b, &items[3], 0, &o->type);
        blob_item(b, &items[4], 1, &o->space);
        blob_item(b, &items[5], 2, &o->plist);
        char *value = h5skel_hex(&o->value);
        string_item(&items[6], value, strlen(value));
        free(value);
        char *chunks = h5skel_chunks_text(o);
        string_item(&items[7], chunks, strlen(chunks));
        chunked |= chunks[0] != 0;
        free(chunks);
        sb order = {0};
        sb_printf(&order, "%lld", o->corder >= 0 ? (long long)o->corder + 1 : 0);
        piece_of(&items[8], &order);
        sb_free(&order);
        emit_row(items, 9, out);
    }
    for (size_t i = 0; i < 9; i++)
        free(items[i].pieces);
    sb_puts(out, "};\n");
    return chunked;
}

int cg_h5_inputs(cg_emitter *e, tpl_ctx *c, char *err, size_t cap)
{
    const cg_model *m = e->m;
    sb tables = {0};
    blobs b = {0};
    share(&b, m, &tables);
    int n = 0;
    for (size_t i = 0; i < m->ninputs; i++) {
        const cg_input *in = &m->inputs[i];
        if (!in->hdf5 || !in->skel)
            continue;
        char name[32];
        snprintf(name, sizeof name, "h5_input_%d", ++n);
        sb_printf(&tables, "%s/* The HDF5 input %s as the traced run found it: %zu objects. */\n",
                  n > 1 ? "\n" : "", name, in->skel->nobjects);
        e->uses_h5fill_chunks |= table(&b, in->skel, name, &tables);
        tpl_ctx *f = tpl_push(c, "h5files");
        sb path = {0};
        cg_path_text(e, in->path, strlen(in->path), 0, &path);
        tpl_set_sb(f, "path", &path);
        sb_free(&path);
        tpl_set(f, "table", name);
    }
    shared *s, *tmp;
    HASH_ITER(hh, b.all, s, tmp)
    {
        HASH_DEL(b.all, s);
        free(s);
    }
    tpl_flag(c, "h5inputs", n > 0);
    if (n) {
        e->uses_h5value = 1; /* make_h5_input() writes attributes' values with h5_value() */
        char *code = cg_template(e->o->templates, "h5_make_input.c", err, cap);
        if (!code) {
            sb_free(&tables);
            return -1;
        }
        size_t len = strlen(code);
        while (len && code[len - 1] == '\n')
            code[--len] = 0;
        tpl_set(c, "h5make", code);
        free(code);
        while (tables.len && tables.s[tables.len - 1] == '\n')
            tables.s[--tables.len] = 0;
        tpl_set_sb(c, "h5tables", &tables);
    }
    sb_free(&tables);
    return n;
}
