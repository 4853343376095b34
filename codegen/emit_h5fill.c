/* emit_h5fill.c: a kernel whose trace says what HDF5's filters stored
 * (rec_h5store.h) writes those datasets with data that they store alike:
 * the generator kernels and replays share (templates/h5fill.c.tmpl, pure C
 * embedded as it is, and netCDF-4's, templates/ncfill.c.tmpl), the trace's
 * ratios as a table, and filtered(), the data of each such write
 * (emit_stmt.c), nc_filtered(), of each netCDF-4 one (emit_netcdf.c). */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "static const char h5fill_chunks_N[] = ...;", the text on one line, or
 * broken after spaces into literals on lines of their own, as clang-format
 * keeps them (no literal is longer than a line: chunks are short words). */
static void chunk_string(sb *out, size_t n, const char *text)
{
    size_t start = out->len, len = strlen(text);
    sb_printf(out, "static const char h5fill_chunks_%zu[] =", n);
    if (out->len - start + len + 4 <= CG_COLUMNS) {
        sb_printf(out, " \"%s\";\n", text);
        return;
    }
    sb_puts(out, "\n");
    while (len) {
        size_t room = CG_COLUMNS - 4 - 3, take = len;
        if (take > room) { /* up to and with the last space that fits */
            take = room;
            while (take > 1 && text[take - 1] != ' ')
                take--;
        }
        sb_printf(out, "    \"%.*s\"%s\n", (int)take, text, take == len ? ";" : "");
        text += take, len -= take;
    }
}

int cg_h5fill_values(cg_emitter *e, tpl_ctx *c, char *err, size_t cap)
{
    if (!e->uses_h5fill && !e->uses_h5fill_chunks)
        return 0;
    tpl_flag(c, "h5fill_writes", e->uses_h5fill); /* the table of what filters stored, and filtered() */
    tpl_flag(c, "ncfill_writes", e->uses_ncfill);  /* nc_filtered() */
    char *code = cg_template(e->o->templates, "h5fill.c.tmpl", err, cap);
    char *nc = e->uses_ncfill ? cg_template(e->o->templates, "ncfill.c.tmpl", err, cap) : NULL;
    if (!code || (e->uses_ncfill && !nc)) {
        free(code);
        return -1;
    }
    sb table = {0}, arrays = {0};
    const rec_h5store *s = &e->m->h5store;
    size_t n = s->n, width = 0;
    sb *entries = calloc(n ? n : 1, sizeof *entries);
    for (size_t i = 0; entries && i < n; i++) {
        const rec_h5store_entry *t = &s->e[i];
        const char *slash = strrchr(t->file, '/'), *base = slash ? slash + 1 : t->file;
        char *chunks = rec_h5store_chunks_text(t);
        if (chunks) /* each chunk's coordinates and stored size */
            chunk_string(&arrays, i, chunks);
        free(chunks);
        sb_puts(&entries[i], "{");
        cg_string_literal(e, base, (uint32_t)strlen(base), &entries[i]);
        sb_puts(&entries[i], ", ");
        cg_string_literal(e, t->dataset, (uint32_t)strlen(t->dataset), &entries[i]);
        sb_printf(&entries[i], ", %.6g, ", rec_h5store_ratio(t));
        if (t->rank)
            sb_printf(&entries[i], "h5fill_chunks_%zu},", i);
        else
            sb_puts(&entries[i], "NULL},");
        width = entries[i].len > width ? entries[i].len : width;
    }
    /* One entry a line, its sizes in a comment aligned as clang-format aligns them. */
    for (size_t i = 0; entries && i < n; i++) {
        sb_printf(&table, "%-*s /* %llu of %llu bytes */\n", (int)width, sb_str(&entries[i]),
                  (unsigned long long)s->e[i].stored,
                  (unsigned long long)(s->e[i].chunks * s->e[i].chunk_bytes));
        sb_free(&entries[i]);
    }
    free(entries);
    while (table.len && table.s[table.len - 1] == '\n')
        table.s[--table.len] = 0;
    sb all = {0};
    sb_puts(&all, code);
    if (nc) { /* after the generator it calls */
        sb_puts(&all, "\n");
        sb_puts(&all, nc);
        free(nc);
    }
    if (arrays.len && e->uses_h5fill)
        sb_puts(&all, "\n");
    if (e->uses_h5fill)
        sb_append(&all, &arrays);
    while (all.len && all.s[all.len - 1] == '\n') /* the template's lines space it */
        all.s[--all.len] = 0;
    tpl_set_sb(c, "h5fill", &all);
    sb_free(&all);
    sb_free(&arrays);
    tpl_set_sb(c, "h5fill_targets", &table);
    sb_free(&table);
    free(code);
    return 0;
}
