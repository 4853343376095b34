/* codegen.c: recorder-codegen's pipeline (see cg.h): load, SPMD re-merge,
 * handle resolution, loop folding, emission. */
#include "cg.h"
#include "emit.h"

#include <stdlib.h>
#include <string.h>

void rec_codegen_options_init(rec_codegen_options *o)
{
    *o = (rec_codegen_options){.loops = 1, .layer = REC_CODEGEN_TOP};
}

void cg_doc_free(cg_doc *d)
{
    sb_free(&d->text);
    free(d->slots);
    free(d->root);
    memset(d, 0, sizeof *d);
}

int rec_codegen(const char *trace_dir, const rec_codegen_options *o, char **kernel, rec_error *err)
{
    return cg_codegen(trace_dir, o, kernel, NULL, err);
}

int cg_codegen(const char *trace_dir, const cg_options *o, char **kernel, cg_doc *doc, rec_error *err)
{
    rec_codegen_options defaults;
    if (!o) {
        rec_codegen_options_init(&defaults);
        o = &defaults;
    }
    cg_model m;
    if (cg_load(trace_dir, o, &m, err) != 0) {
        cg_model_free(&m);
        return -1;
    }
    m.hints = o->hints;
    cg_remerge(&m);
    cg_resolve_handles(&m);
    cg_tree t = {0};
    cg_fold(&m, o, &t);
    int rc = cg_emit_kernel(&m, &t, o, kernel, doc, err);
    cg_tree_free(&t);
    cg_model_free(&m);
    return rc;
}
