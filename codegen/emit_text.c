/* emit_text.c: the newlines of what a kernel writes. Where the trace's
 * line-oriented reads showed lines (rf_lines), a write statement sends
 * the pattern with newlines at the same places of its bytes: LINE(n) when
 * each write is one whole line, lines(n, first, period, delim) when every
 * write holds lines of one length; other statements write the plain
 * pattern, and the header says how many writes lose their lines. */
#include "emit.h"
#include "recorder_facts.h"

#include <stdio.h>
#include <string.h>

/* The lines the writes of a statement carry: RF_LINES_NONE when none, or
 * the one shape all of them share (TRAILING, or REGULAR with one first and
 * period); IRREGULAR when they differ. */
static rf_line_shape statement_lines(const cg_emitter *e, const cg_stmtinfo *s, int *delim, uint64_t *writes)
{
    rf_line_shape all = {RF_LINES_NONE, 0, 0};
    int trailing = 1, same = 1, any = 0;
    *delim = '\n';
    *writes = 0;
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        for (uint32_t k = 0; in->spans && k < in->nr; k++) {
            const rf_span *sp = &in->spans[k];
            const int64_t *at;
            size_t n =
                sp->file == UINT32_MAX ? 0 : rf_lines_in(e->m->lines, sp->file, sp->offset, sp->bytes, &at);
            rf_line_shape one = n ? rf_lines_shape(at, n, sp->offset, sp->bytes) : (rf_line_shape){0, 0, 0};
            (*writes)++;
            if (one.kind == RF_LINES_NONE) {
                trailing = same = 0;
                continue;
            }
            if (one.kind == RF_LINES_IRREGULAR)
                return one;
            if (!any) {
                all = one;
                *delim = rf_lines_delim(e->m->lines, sp->file);
            }
            trailing &= one.kind == RF_LINES_TRAILING;
            same &= !any || (one.first == all.first && one.period == all.period);
            if (any && rf_lines_delim(e->m->lines, sp->file) != *delim)
                return (rf_line_shape){RF_LINES_IRREGULAR, 0, 0};
            any = 1;
        }
    }
    if (!any)
        return (rf_line_shape){RF_LINES_NONE, 0, 0};
    if (trailing && *delim == '\n')
        return (rf_line_shape){RF_LINES_TRAILING, 0, 0};
    if (same && (trailing || all.kind == RF_LINES_REGULAR)) /* one first and period for every write */
        return (rf_line_shape){RF_LINES_REGULAR, all.first, all.period};
    return (rf_line_shape){RF_LINES_IRREGULAR, 0, 0};
}

int cg_text_wanted(cg_emitter *e, cg_stmtinfo *s)
{
    int delim;
    uint64_t writes;
    rf_line_shape shape = statement_lines(e, s, &delim, &writes);
    if (shape.kind == RF_LINES_IRREGULAR)
        e->n_unlined += writes;
    return shape.kind == RF_LINES_TRAILING || shape.kind == RF_LINES_REGULAR;
}

void cg_text_source(cg_emitter *e, cg_stmtinfo *s, const sb *count, sb *out)
{
    int delim;
    uint64_t writes;
    rf_line_shape shape = statement_lines(e, s, &delim, &writes);
    if (!count) { /* one byte (fputc): it is the delimiter */
        sb_printf(out, delim == '\n' ? "'\\n'" : "%d", delim);
        return;
    }
    if (shape.kind == RF_LINES_TRAILING) {
        e->uses_line = 1;
        sb_puts(out, "LINE(");
        sb_append(out, count);
        sb_putc(out, ')');
        return;
    }
    e->uses_lines = 1;
    sb_puts(out, "lines(");
    sb_append(out, count);
    sb_puts(out, ", ");
    cg_put_literal(e, shape.first, "", 0, out);
    sb_puts(out, ", ");
    cg_put_literal(e, shape.period, "", 0, out);
    if (delim == '\n')
        sb_puts(out, ", '\\n')");
    else if (delim == '\'' || delim == '\\')
        sb_printf(out, ", '\\%c')", delim);
    else if (delim >= 32 && delim < 127)
        sb_printf(out, ", '%c')", delim);
    else
        sb_printf(out, ", %d)", delim);
}

/* The data a write sends when its bytes end lines (cg_text_source): its
 * byte count is the product of its SIZE and COUNT arguments (write's
 * count, fwrite's size and nmemb); 0 for the plain pattern. */
int cg_line_buffer(cg_emitter *e, cg_stmtinfo *s, int one_byte, sb *out)
{
    if (!cg_text_wanted(e, s))
        return 0;
    if (one_byte) {
        cg_text_source(e, s, NULL, out);
        return 1;
    }
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    sb count = {0};
    int factors = 0;
    for (unsigned a = 0; a < f->nargs; a++) {
        const rec_arg_desc *d = &f->args[a];
        if ((d->kind != REC_KIND_SIZE && d->kind != REC_KIND_COUNT) || !(d->flags & REC_ARG_IN) ||
            cg_field_role(f, a) != CG_ROLE_VALUE)
            continue;
        sb factor = {0};
        cg_field_text(e, s, a, &factor);
        int bare = !strpbrk(sb_str(&factor), " ?");
        sb_puts(&count, factors++ ? " * " : "");
        sb_puts(&count, bare ? "" : "(");
        sb_append(&count, &factor);
        sb_puts(&count, bare ? "" : ")");
        sb_free(&factor);
    }
    if (factors)
        cg_text_source(e, s, &count, out);
    sb_free(&count);
    return factors > 0;
}
