/* emit_reduce.c: a kernel's stand-ins for the traced program's own
 * functions MPI calls back (functions/operators.def), passed where the trace
 * passed the program's function: for a reduction, one that does its work on
 * the same bytes (templates/reduce.c.tmpl), and a reduction of it for one
 * the trace did not see made (untraced_op()); for an error handler, one that
 * returns (templates/errhandler.c.tmpl). */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>

#include "gen_support.h"

void cg_add_template(cg_emitter *e, const char *name)
{
    char err[256];
    char *code = cg_template(e->o->templates, name, err, sizeof err);
    if (!code)
        code = cg_template(NULL, name, err, sizeof err);
    if (code)
        cg_add_proto(e, code);
    free(code);
}

/* The stand-in for function id (0: for a reduction the trace did not see made) of a CALLBACK of C type
 * ctype. */
static void stand_in(cg_emitter *e, const char *ctype, int64_t id, sb *out)
{
    char name[160], text[1024];
    const char *template_name = gen_callback_template(ctype);
    if (!template_name || gen_callback_name("", ctype, id, name, sizeof name) ||
        gen_callback_function("", ctype, id, text, sizeof text)) {
        sb_puts(out, "NULL"); /* no function (the traced call passed NULL), or no stand-in for its type */
        return;
    }
    cg_add_template(e, template_name); /* reduce_bytes(), errhandler_returns() */
    cg_add_proto(e, text);
    sb_puts(out, name);
}

void cg_callback_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    if (v <= 0)
        sb_puts(out, "NULL");
    else
        stand_in(e, e->elem_type, v, out);
}

void cg_untraced_op_text(cg_emitter *e, sb *out)
{
    const rec_func_desc *maker = rec_function_with_sole(REC_SOLE_OP_OF_CALLBACK);
    int fn = maker ? rec_arg_with_kind(maker, REC_KIND_CALLBACK, REC_ARG_IN) : -1;
    char text[1024];
    if (fn >= 0 && gen_untraced_op_function("", 1, text, sizeof text) == 0) {
        sb scratch = {0};
        stand_in(e, maker->args[fn].ctype, 0, &scratch); /* the stand-in it makes the reduction of */
        sb_free(&scratch);
        cg_add_proto(
            e,
            "/* A reduction the traced program made before it was traced: one of the stand-in, commutative.\n"
            " * MPI's profiling entry point, which no tracer sees. */\n");
        cg_add_proto(e, text);
    }
    sb_puts(out, "untraced_op()");
}
