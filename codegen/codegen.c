/* codegen.c: recorder-codegen's pipeline (see cg.h): load, SPMD re-merge,
 * handle resolution, loop folding, emission. */
#include "cg.h"
#include "emit.h"

int cg_emit_kernel(cg_model *m, cg_tree *t, const cg_options *o, char **out, rec_error *err);

void rec_codegen_options_init(rec_codegen_options *o)
{
    *o = (rec_codegen_options){.loops = 1};
}

int rec_codegen(const char *trace_dir, const rec_codegen_options *o, char **kernel, rec_error *err)
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
    int rc = cg_emit_kernel(&m, &t, o, kernel, err);
    cg_tree_free(&t);
    cg_model_free(&m);
    return rc;
}
