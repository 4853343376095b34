/* emit_h5fill.c: a kernel whose trace says what HDF5's filters stored
 * (rec_h5store.h) writes those datasets with data that they store alike:
 * the generator kernels and replays share (templates/h5fill.c.tmpl, pure C
 * embedded as it is), the trace's ratios as a table, and filtered(), the
 * data of each such write (emit_stmt.c). */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cg_h5fill_values(cg_emitter *e, tpl_ctx *c, char *err, size_t cap)
{
    if (!e->uses_h5fill)
        return 0;
    char *code = cg_template(e->o->templates, "h5fill.c.tmpl", err, cap);
    if (!code)
        return -1;
    sb table = {0};
    const rec_h5store *s = &e->m->h5store;
    size_t n = s->n, width = 0;
    sb *entries = calloc(n ? n : 1, sizeof *entries);
    for (size_t i = 0; entries && i < n; i++) {
        const char *slash = strrchr(s->e[i].file, '/'), *base = slash ? slash + 1 : s->e[i].file;
        sb_puts(&entries[i], "{");
        cg_string_literal(e, base, (uint32_t)strlen(base), &entries[i]);
        sb_puts(&entries[i], ", ");
        cg_string_literal(e, s->e[i].dataset, (uint32_t)strlen(s->e[i].dataset), &entries[i]);
        sb_printf(&entries[i], ", %.6g},", rec_h5store_ratio(&s->e[i]));
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
    tpl_set(c, "h5fill", code);
    tpl_set_sb(c, "h5fill_targets", &table);
    sb_free(&table);
    free(code);
    return 0;
}
