/* emit_vars.c: the kernel's statements in program order, and the names of
 * the variables each creates (a handle's kind gives its name's base:
 * "fd", "comm", "dset", a property list's class "fapl", ...), unique in
 * their scope: a loop's variables are local to its body. */
#include "emit.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *plist_base(int64_t cls)
{
    static const char *const names[] = {"plist", "ocpl", "fcpl",   "fapl", "dcpl", "dapl",
                                        "dxpl",  "fmpl", "gcpl",   "gapl", "tcpl", "tapl",
                                        "scpl",  "acpl", "ocpypl", "lcpl", "lapl", "aapl"};
    return cls > 0 && cls < (int64_t)(sizeof names / sizeof names[0]) ? names[cls] : "plist";
}

static const char *var_base(const cg_inst *in, unsigned kind)
{
    switch (kind) {
    case REC_KIND_FD:
        return "fd";
    case REC_KIND_DIRFD:
        return "dirfd";
    case REC_KIND_FILE_STREAM:
        return "stream";
    case REC_KIND_DIR_STREAM:
        return "dir";
    case REC_KIND_MAPPING:
        return "map";
    case REC_KIND_PTHREAD_BARRIER:
        return "barrier";
    case REC_KIND_MPI_COMM:
        return "comm";
    case REC_KIND_MPI_DATATYPE:
        return "dtype";
    case REC_KIND_MPI_OP:
        return "op";
    case REC_KIND_MPI_INFO:
        return "info";
    case REC_KIND_MPI_REQUEST:
        return "req";
    case REC_KIND_NC_REQUEST:
        return "ncreq";
    case REC_KIND_NC_ID:
        return "ncid";
    case REC_KIND_MPI_FILE:
        return "fh";
    case REC_KIND_MPI_GROUP:
        return "mgroup";
    case REC_KIND_MPI_ERRHANDLER:
        return "errh";
    case REC_KIND_H5_FILE:
        return "file";
    case REC_KIND_H5_GROUP:
        return "group";
    case REC_KIND_H5_DATASET:
        return "dset";
    case REC_KIND_H5_SPACE:
        return "space";
    case REC_KIND_H5_ATTR:
        return "attr";
    case REC_KIND_H5_TYPE:
        return "h5type";
    case REC_KIND_H5_PLIST: {
        int cls = in->f->shape == REC_SHAPE_PLIST_CREATE ? rec_arg_with_kind(in->f, REC_KIND_H5_PLIST_CLASS, 0) : -1;
        return cls >= 0 ? plist_base(cg_inst_values(in, (unsigned)cls)[0]) : "plist";
    }
    default:
        return "obj";
    }
}

/* Names the variables a statement creates. */
static void name_vars(cg_emitter *e, cg_stmtinfo *s)
{
    const cg_inst *in = &e->m->insts[s->node->insts[0]];
    s->vars = cg_calloc(in->nf, sizeof *s->vars);
    s->used = cg_calloc(in->nf, sizeof *s->used);
    for (unsigned field = 0; field < in->nf; field++) {
        if (cg_field_role(in->f, field) != CG_ROLE_CREATE)
            continue;
        int any = 0;
        for (uint32_t u = 0; u < s->node->ninsts; u++) {
            const cg_inst *x = &e->m->insts[s->node->insts[u]];
            const int64_t *v = cg_inst_values(x, field);
            for (uint32_t r = 0; r < x->nr; r++) {
                if (v[r] < CG_HOBJ_BASE)
                    continue;
                any = 1;
                if (e->m->hobjs[v[r] - CG_HOBJ_BASE].last_use > s->node->insts[u])
                    s->used[field] = 1;
            }
        }
        if (any || field < in->f->nargs)
            s->vars[field] = cg_strdup(cg_unique_name(e, var_base(in, cg_field_kind(in->f, field))));
    }
}

/* Statements in program order; a loop's variables are local to its body,
 * so sibling loops may reuse their names. */
static void stmt_walk(cg_emitter *e, const cg_node *n)
{
    if (n->is_loop) {
        size_t mark = e->nnames;
        for (uint32_t b = 0; b < n->nbody; b++)
            stmt_walk(e, n->body[b]);
        while (e->nnames > mark)
            free(e->names[--e->nnames]);
        return;
    }
    if (e->nstmts == e->capstmts) {
        e->capstmts = e->capstmts ? 2 * e->capstmts : 256;
        e->stmts = cg_realloc(e->stmts, e->capstmts * sizeof *e->stmts);
    }
    cg_stmtinfo *s = &e->stmts[e->nstmts++];
    memset(s, 0, sizeof *s);
    s->node = n;
    name_vars(e, s);
}

void cg_prepare_stmts(cg_emitter *e)
{
    for (uint32_t i = 0; i < e->t->ntop; i++)
        stmt_walk(e, e->t->top[i]);
    e->inst_stmt = cg_calloc(e->m->ninsts + 1, sizeof *e->inst_stmt);
    for (size_t k = 0; k < e->nstmts; k++)
        for (uint32_t u = 0; u < e->stmts[k].node->ninsts; u++)
            e->inst_stmt[e->stmts[k].node->insts[u]] = &e->stmts[k];
}

/* Whether a call of another thread names the handle the statement's field creates. */
int cg_shared_var(const cg_emitter *e, const cg_stmtinfo *s, unsigned field)
{
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, field);
        for (uint32_t k = 0; k < in->nr; k++)
            if (v[k] >= CG_HOBJ_BASE && e->m->hobjs[v[k] - CG_HOBJ_BASE].shared)
                return 1;
    }
    return 0;
}

void cg_emit_decls(cg_emitter *e, cg_stmtinfo *s, int hoisted, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    for (unsigned field = 0; field < cg_nfields(f); field++) {
        if (!s->vars[field] || (field >= f->nargs && (!hoisted || !s->used[field])))
            continue;
        char ctype[128];
        cg_var_ctype(f, field, ctype, sizeof ctype);
        unsigned kind = cg_field_kind(f, field);
        const char *sep = gen_is_pointer(ctype) ? "" : " ";
        if (cg_shared_var(e, s, field)) { /* every thread sees it: at file scope, once */
            if (!hoisted)
                sb_printf(&e->shared_decls, "static %s%s%s;\n", ctype, sep, s->vars[field]);
            continue;
        }
        if (!hoisted) {
            sb_printf(out, "%s%s%s;\n", ctype, sep, s->vars[field]);
            continue;
        }
        sb init = {0};
        cg_handle_text(e, -1, kind, &init);
        sb_printf(out, "%s%s%s = %s;\n", ctype, sep, s->vars[field], sb_str(&init));
        sb_free(&init);
    }
}
