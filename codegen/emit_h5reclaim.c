/* emit_h5reclaim.c: after a dataset read into a memory type the program
 * made (a string, sequence or compound type may hold pointers), the kernel
 * calls h5_reclaim() (templates/h5reclaim.c.tmpl), which frees what HDF5
 * allocated for the variable-length data the read read: a kernel leaks none
 * of it, though the program's own H5Dvlen_reclaim is untraced. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

void cg_h5_reclaim(cg_emitter *e, cg_stmtinfo *s, tpl_ctx *c, int quiet)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    int fields[] = {rec_arg_with_role(f, REC_AROLE_DATASET), rec_arg_with_role(f, REC_AROLE_MEM_TYPE),
                    rec_arg_with_role(f, REC_AROLE_MEM_SPACE), rec_arg_with_role(f, REC_AROLE_FILE_SPACE),
                    rec_arg_with_kind(f, REC_KIND_BUFFER, REC_ARG_OUT)};
    int made = 0;
    for (size_t k = 0; k < sizeof fields / sizeof *fields; k++)
        if (fields[k] < 0)
            return;
    /* a read that takes turns among threads frees nothing (its reclaim would take none), nor one that
     * failed in the traced run (it fills nothing) */
    if (!(f->flags & REC_FN_READ) || e->threaded || quiet)
        return;
    for (uint32_t u = 0; u < s->node->ninsts && !made; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, (unsigned)fields[1]);
        for (uint32_t k = 0; k < in->nr && !made; k++)
            made = v[k] >= CG_HOBJ_BASE;
    }
    if (!made)
        return;
    sb args = {0};
    for (size_t k = 0; k < sizeof fields / sizeof *fields; k++) {
        if (k)
            sb_puts(&args, ", ");
        cg_arg_text(e, s, (unsigned)fields[k], &args);
    }
    tpl_set_sb(c, "reclaim", &args);
    sb_free(&args);
    e->uses_h5reclaim = 1;
}

int cg_h5_reclaim_code(cg_emitter *e, sb *text, char *err, size_t cap)
{
    if (!e->uses_h5reclaim)
        return 0;
    char *code = cg_template(e->o->templates, "h5reclaim.c.tmpl", err, cap);
    if (!code)
        return 1;
    size_t len = strlen(code);
    while (len && code[len - 1] == '\n')
        code[--len] = 0;
    sb_printf(text, "%s%s", text->len ? "\n\n" : "", code);
    free(code);
    return 0;
}
