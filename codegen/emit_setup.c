/* emit_setup.c: what setup() re-creates below OUTDIR before the run, from
 * the inputs the facts library found (rf_inputs): the directories, the
 * files with their sizes (zeros, or text where line-oriented reads showed
 * lines: the newlines back where they were), and the symbolic links the
 * run found, to where they led. */
#include "emit.h"
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PER_ROW = 12 };

/* "{a, b, ...}": on rows of PER_ROW when it cannot fit on one line, each
 * value padded to its column's width after its comma, as clang-format
 * aligns a table's columns. */
static void line_table(const int64_t *len, size_t n, sb *out)
{
    int width[PER_ROW] = {0}, padded = 2;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(NULL, 0, "%lld", (long long)len[i]);
        width[i % PER_ROW] = w > width[i % PER_ROW] ? w : width[i % PER_ROW];
    }
    for (size_t i = 0; i < n; i++)
        padded += width[i % PER_ROW] + 2;
    /* "static const int line_lengths[N] = " at the least: a table longer than a line goes by rows */
    int rows = n > PER_ROW && 7 + 6 + 4 + 12 + snprintf(NULL, 0, "%zu", n) + 6 + padded + 1 > CG_COLUMNS;
    sb_putc(out, '{');
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(NULL, 0, "%lld", (long long)len[i]);
        int pad = rows && i + 1 < n && (i + 1) % PER_ROW ? width[i % PER_ROW] - w : 0;
        sb_printf(out, "%lld%s%*s", (long long)len[i], i + 1 < n ? ", " : "", pad, "");
    }
    sb_putc(out, '}');
}

/* A text file's lines as write_text() takes them (kernel.c.tmpl): every
 * line `every` bytes long from the start, or a table of their lengths. */
static void text_entry(cg_emitter *e, const cg_input *in, sb *out)
{
    const int64_t *at;
    size_t n = rf_lines_in(e->m->lines, in->file, 0, in->size, &at);
    int delim = rf_lines_delim(e->m->lines, in->file);
    rf_line_shape shape = rf_lines_shape(at, n, 0, in->size);
    int every =
        shape.kind == RF_LINES_REGULAR && shape.first == shape.period - 1; /* whole lines from byte 0 */
    sb_putc(out, '{');
    cg_path_text(e, in->path, strlen(in->path), 0, out);
    sb_puts(out, ", ");
    cg_put_literal(e, in->size, "", 0, out);
    if (delim == '\n')
        sb_puts(out, ", '\\n', ");
    else
        sb_printf(out, ", %d, ", delim);
    if (every) {
        cg_put_literal(e, shape.period, "", 0, out);
        sb_puts(out, ", 0, NULL}");
        return;
    }
    int64_t *len = cg_alloc(n * sizeof *len);
    rf_lines_lengths(at, n, 0, len, n);
    sb table = {0};
    line_table(len, n, &table);
    sb_printf(out, "0, %zu, %s}", n,
              cg_table_add(e, "line_lengths", "int", &table, (uint32_t)n, 0, "line", PER_ROW));
    sb_free(&table);
    free(len);
}

/* Whether the file's line reads showed lines: it is written as text. */
static int is_text(const cg_emitter *e, const cg_input *in)
{
    const int64_t *at;
    return in->size > 0 && !in->hdf5 && !in->link && rf_lines_in(e->m->lines, in->file, 0, in->size, &at) > 0;
}

/* The directories: inputs and the parents of input files and links, the deepest only (mkdir -p makes the
 * rest). */
static uint32_t leaf_dirs(cg_emitter *e, sb *list)
{
    cg_model *m = e->m;
    char **dirs = cg_calloc(m->ninputs + 1, sizeof *dirs);
    size_t ndirs = 0;
    for (size_t i = 0; i < m->ninputs; i++) {
        char *d = cg_strdup(m->inputs[i].path);
        if (m->inputs[i].size >= 0)
            *strrchr(d, '/') = 0;
        dirs[ndirs++] = d;
    }
    uint32_t nleaves = 0;
    for (size_t i = 0; i < ndirs; i++) {
        size_t len = strlen(dirs[i]);
        int dup = 0, parent = 0;
        for (size_t j = 0; j < ndirs; j++) {
            parent |= !strncmp(dirs[j], dirs[i], len) && dirs[j][len] == '/';
            dup |= j < i && !strcmp(dirs[j], dirs[i]);
        }
        if (dup || parent || !len)
            continue;
        sb_puts(list, nleaves++ ? ", " : "{");
        cg_path_text(e, dirs[i], len, 0, list);
    }
    if (!nleaves)
        sb_puts(list, "{\"\"");
    sb_putc(list, '}');
    for (size_t i = 0; i < ndirs; i++)
        free(dirs[i]);
    free(dirs);
    return nleaves;
}

/* One of setup()'s tables into the template's key (with its has_ flag). */
static void set_table(cg_emitter *e, tpl_ctx *c, const char *key, const char *flag, sb *list, uint32_t n,
                      const char *label, unsigned per_line, size_t prefix)
{
    if (flag)
        tpl_flag(c, flag, n > 0);
    if (!n)
        return;
    sb_putc(list, '}');
    sb text = {0};
    cg_braced(e, list, n, label, per_line, 4, prefix, &text);
    tpl_set_sb(c, key, &text);
    sb_free(&text);
}

void cg_setup_inputs(cg_emitter *e, tpl_ctx *c)
{
    cg_model *m = e->m;
    sb list = {0}, files = {0}, texts = {0}, links = {0};
    uint32_t nleaves = leaf_dirs(e, &list), nfiles = 0, ntexts = 0, nlinks = 0;
    for (size_t i = 0; i < m->ninputs; i++) {
        const cg_input *in = &m->inputs[i];
        if (in->size < 0 || in->hdf5)
            continue;
        if (in->link) {
            sb_puts(&links, nlinks++ ? ", {" : "{{");
            cg_path_text(e, in->path, strlen(in->path), 0, &links);
            sb_puts(&links, ", ");
            if (in->link[0] == '/') /* re-rooted when made */
                cg_path_text(e, in->link, strlen(in->link), 0, &links);
            else
                cg_string_literal(e, in->link, (uint32_t)strlen(in->link), &links);
            sb_putc(&links, '}');
        } else if (is_text(e, in)) {
            sb_puts(&texts, ntexts++ ? ", " : "{");
            text_entry(e, in, &texts);
        } else {
            sb_puts(&files, nfiles++ ? ", {" : "{{");
            cg_path_text(e, in->path, strlen(in->path), 0, &files);
            sb_puts(&files, ", ");
            cg_put_literal(e, in->size, "", 0, &files);
            sb_putc(&files, '}');
        }
    }
    /* the bytes an input began with (a netCDF header): written after the file is made */
    sb heads = {0};
    uint32_t nheads = 0;
    for (size_t i = 0; i < m->ninputs; i++) {
        const cg_input *in = &m->inputs[i];
        if (in->size < 0 || in->hdf5 || in->link || !in->head)
            continue;
        sb body = {0};
        sb_putc(&body, '{');
        for (uint32_t k = 0; k < in->head_len; k++)
            sb_printf(&body, "%s0x%02x", k ? ", " : "", in->head[k]);
        sb_putc(&body, '}');
        const char *table = cg_table_add(e, "header", "unsigned char", &body, in->head_len, 0, "byte", 12);
        sb_free(&body);
        sb_puts(&heads, nheads++ ? ", {" : "{{");
        cg_path_text(e, in->path, strlen(in->path), 0, &heads);
        sb_printf(&heads, ", %s, %u}", table, in->head_len);
    }
    cg_scope(e, &heads, CG_SCOPE_STATIC);
    set_table(e, c, "heads", "has_heads", &heads, nheads, "header", 1, 14);
    sb_free(&heads);
    cg_scope(e, &files, CG_SCOPE_STATIC);
    cg_scope(e, &texts, CG_SCOPE_STATIC);
    cg_scope(e, &links, CG_SCOPE_STATIC);
    sb text = {0};
    cg_braced(e, &list, nleaves ? nleaves : 1, "directory", 1, 4, 36, &text);
    tpl_set_sb(c, "dirs", &text);
    sb_free(&text);
    set_table(e, c, "files", "has_files", &files, nfiles, "file", 1, 14);
    set_table(e, c, "texts", "has_texts", &texts, ntexts, "text", 1, 14);
    set_table(e, c, "links", "has_links", &links, nlinks, "link", 1, 36);
    sb_free(&list);
    sb_free(&files);
    sb_free(&texts);
    sb_free(&links);
}
