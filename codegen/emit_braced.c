/* emit_braced.c: a braced list of values as the kernel spells it: on one
 * line when it fits, else per_line values a line, each line labelled with
 * the index of its first value, laid out as clang-format lays it out. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A braced list "{a, b, ...}" too long for one line: per_line values a
 * line (a byte table's 12, else one), each line labelled with the index of
 * its first value (the comments, aligned one column after the longest line
 * as clang-format aligns them, also keep it from repacking). */
static void list_lines(cg_emitter *e, sb *list, uint32_t n, const char *label, unsigned per_line, int indent,
                       sb *out)
{
    sb_puts(out, "{\n");
    const char **starts = cg_alloc((n + 1) * sizeof *starts), *body = sb_str(list);
    int *lens = cg_alloc((n + 1) * sizeof *lens), width = 0;
    uint32_t count = 0;
    const char *p = body + 1;
    for (uint32_t k = 0; *p && *p != '}' && k < n; k++) {
        const char *start = p;
        int in_str = 0, depth = 0;
        for (; *p; p++) {
            if (in_str) {
                if (*p == '\\')
                    p++;
                else if (*p == '"')
                    in_str = 0;
            } else if (*p == '"') {
                in_str = 1;
            } else if (*p == '(' || *p == '{') {
                depth++;
            } else if ((*p == ')' || *p == '}') && depth-- == 0) {
                break;
            } else if (*p == ',' && depth == 0) {
                break;
            }
        }
        starts[count] = start;
        lens[count] = (int)(p - start);
        width = lens[count] > width ? lens[count] : width;
        count++;
        if (*p == ',')
            p++;
        while (*p == ' ')
            p++;
    }
    if (per_line < 1)
        per_line = 1;
    /* Several values a line are columns, each as wide as its widest value and
     * its comma, one space apart: clang-format lays such a list out so. */
    int *column = cg_alloc(per_line * sizeof *column);
    memset(column, 0, per_line * sizeof *column);
    for (uint32_t k = 0; per_line > 1 && k < count; k++)
        column[k % per_line] = lens[k] > column[k % per_line] ? lens[k] : column[k % per_line];
    sb *lines = cg_alloc((count / per_line + 1) * sizeof *lines);
    width = 0;
    for (uint32_t k = 0, line = 0; k < count; k += per_line, line++) {
        uint32_t last = k + per_line < count ? k + per_line - 1 : count - 1;
        sb *l = &lines[line];
        *l = (sb){0};
        if (per_line == 1)
            sb_append_range(l, list, (size_t)(starts[k] - body), (size_t)lens[k]);
        for (uint32_t v = k; per_line > 1 && v <= last; v++) {
            sb_append_range(l, list, (size_t)(starts[v] - body), (size_t)lens[v]);
            if (v < last)
                sb_printf(l, ",%*s", column[v - k] - lens[v] + 1, "");
        }
        lens[k] = (int)l->len;
        width = lens[k] > width ? lens[k] : width;
    }
    /* no comments when the widest line could not hold its own */
    char last_label[64];
    int labels =
        indent + 4 + width + 1 + snprintf(last_label, sizeof last_label, " /* %s %u */", label, count) <=
        CG_COLUMNS;
    for (uint32_t k = 0, line = 0; k < count; k += per_line, line++) {
        sb_printf(out, "%*s", indent + 4, "");
        sb_append(out, &lines[line]);
        sb_free(&lines[line]);
        sb_putc(out, ',');
        if (!labels) {
            sb_putc(out, '\n');
            continue;
        }
        size_t at = out->len;
        sb_printf(out, "%*s", width - lens[k], "");
        if (out->len > at) /* the alignment follows the values' widths, which the rank count may change */
            cg_span(e, out, at, CG_SPAN_NOTE);
        sb_printf(out, " /* %s %u */\n", label, k);
    }
    sb_printf(out, "%*s}", indent, "");
    free(starts);
    free(lens);
    free(column);
    free(lines);
}

void cg_braced(cg_emitter *e, sb *body, uint32_t n, const char *label, unsigned per_line, int indent,
               size_t prefix, sb *out)
{
    if (indent + prefix + body->len + 1 <= CG_COLUMNS)
        sb_append(out, body);
    else
        list_lines(e, body, n, label, per_line, indent, out);
}
