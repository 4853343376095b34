/* gen_replay_callbacks.c: gen_replay's code for what a layer's functions
 * call back (functions/operators.def): the operators an iteration is
 * replayed with, the stand-ins for the application's reductions and
 * error handlers, and the threads its start routines run (threads.c). */
#include "gen_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

/* An operator a function of this layer takes (functions/operators.def): an
 * iteration is replayed with one that does nothing but stop at the call the
 * traced one stopped at (OP_CALLS); what the application's operator did is
 * replayed from its own records. */
static void emit_operator(const char *type, const char *ret, const char *params, const char *const *names,
                          const unsigned *lens, unsigned n)
{
    fprintf(out, "\nstatic inline %s rp_noop_%s%s\n{\n", ret, type, params);
    for (unsigned j = 0; j + 1 < n; j++)
        fprintf(out, "    (void)%.*s;\n", (int)lens[j], names[j]);
    /* its data: where the iteration stops, or NULL (rp_op_stop) */
    fprintf(out, "    return (%s)rp_op_stop_next(%.*s);\n}\n", ret, (int)lens[n - 1], names[n - 1]);
}

/* The stand-ins for the application's functions this layer's functions
 * make reductions or error handlers of (functions/operators.def), one per
 * function id up to RP_CALLBACKS (the ids past it share the last), by id in
 * rp_callbacks_<type>[] (a reduction's id 0: the one for a reduction the
 * trace does not know; an error handler has none); and the reduction a
 * replay uses for one the trace does not know (rp_untraced_op_raw). */
enum { RP_CALLBACKS = 16 };
static void emit_callbacks(unsigned layer)
{
    char text[2048], type[128], name[160];
    const char *done[8], *templates[8];
    unsigned ndone = 0, ntemplates = 0, nreductions = 0;
    const rec_func_desc *maker = rec_function_with_sole(REC_SOLE_OP_OF_CALLBACK);
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        int k = f->layer == layer ? rec_arg_with_kind(f, REC_KIND_CALLBACK, REC_ARG_IN) : -1;
        unsigned seen = 0;
        while (k >= 0 && seen < ndone && strcmp(done[seen], f->args[k].ctype))
            seen++;
        const char *template_name = k >= 0 ? gen_callback_template(f->args[k].ctype) : NULL;
        if (k < 0 || seen < ndone || ndone == 8 || !template_name)
            continue;
        if (!ndone)
            fprintf(out, "\nenum { RP_CALLBACKS = %d };\n", RP_CALLBACKS);
        unsigned t = 0;
        while (t < ntemplates && strcmp(templates[t], template_name))
            t++;
        if (t == ntemplates) /* the code the stand-ins call, once */
            fprintf(out, "\n#include \"%s\"\n", templates[ntemplates++] = template_name);
        nreductions += rec_reduction_count_ctype(f->args[k].ctype) != NULL;
        done[ndone++] = f->args[k].ctype;
        rec_ctype_element(f->args[k].ctype, type, sizeof type);
        fprintf(out, "%s", gen_guard_begin(f)); /* the function type is as new as f */
        for (int id = 0; id <= RP_CALLBACKS; id++)
            if (gen_callback_function("rp_", f->args[k].ctype, id, text, sizeof text) == 0)
                fprintf(out, "\n%s", text);
        fprintf(out, "\nstatic %s *const rp_callbacks_%s[RP_CALLBACKS + 1] = {\n", type, type);
        for (int id = 0; id <= RP_CALLBACKS; id++)
            fprintf(out, "    %s,\n",
                    gen_callback_name("rp_", f->args[k].ctype, id, name, sizeof name) == 0 ? name : "NULL");
        fprintf(out, "};\n%s", gen_guard_end(f));
    }
    if (!maker || maker->layer != layer)
        return;
    if (!nreductions || gen_untraced_op_function("rp_", 0, text, sizeof text)) {
        fprintf(stderr, "gen_replay: %s (SOLE(OP_OF_CALLBACK)) makes no reduction of a stand-in\n",
                maker->name);
        exit(1);
    }
    fprintf(
        out,
        "\n%s\nuint64_t rp_untraced_op_raw(void)\n{\n    return (uint64_t)(uintptr_t)rp_untraced_op();\n}\n",
        text);
}

void gen_replay_callbacks(FILE *to, unsigned layer)
{
    out = to;
    gen_each_operator(layer, 0, emit_operator);
    emit_callbacks(layer);
}

/* A call on a thread (its THREAD_ID argument), by role: one that starts a thread
 * starts the replay's for it (the start routine the program passed is its code), one that destroys a thread joins it
 * (threads.c); no other is replayed. */
void gen_replay_thread_call(FILE *out, const rec_func_desc *f)
{
    int made = rec_arg_with_kind(f, REC_KIND_THREAD_ID, REC_ARG_CREATE), used = rec_arg_with_kind(f, REC_KIND_THREAD_ID, REC_ARG_IN);
    const char *call = NULL;
    int arg = -1;
    if (rec_func_sole(f) == REC_SOLE_STARTS_THREAD && made >= 0)
        call = "rp_thread_start", arg = made;
    else if ((f->flags & REC_FN_DESTROYS) && used >= 0)
        call = "rp_thread_join", arg = used;
    if (!call) {
        fprintf(out, "    rp_x->reason = \"acts on a thread in a way the replay has no rule for\";\n"
                     "    rp_skip(rp_x, rp_r);\n}\n");
        return;
    }
    fprintf(out, "    int ok = 0;\n    if (%s(rp_x, rp_r, rp_r->args[%d].i, &ok)) {\n        rp_skip(rp_x, rp_r);\n        return;\n    }\n"
                 "    rp_end(rp_x, rp_r, ok, 0);\n}\n", call, arg);
}
