/* emit_kernel.h: what the parts of the kernel's text share (internal to
 * codegen's emit_kernel.c, emit_header.c and emit_threads.c). */
#ifndef RECORDER_CODEGEN_EMIT_KERNEL_H
#define RECORDER_CODEGEN_EMIT_KERNEL_H

#include "emit.h"

enum {
    T_KERNEL,
    T_HEADER,
    T_LOOP,
    T_GUARD,
    T_SECTION,
    T_TABLE,
    T_CALL,
    NTEMPLATES = T_CALL + REC_LAYER_COUNT
};

typedef struct kernel {
    cg_emitter e;
    char *tpl[NTEMPLATES];
    char err[1024];
    int failed;
    char **locals; /* main's local declarations, as written: a thread's function takes those it names */
    size_t nlocals;
} kernel;

/* Renders template which with c onto out (a failure is kept in k). */
void cg_render(kernel *k, int which, tpl_ctx *c, sb *out);
/* The first statement under n (NULL: an empty loop). */
const cg_node *cg_first_stmt(const cg_node *n);
/* The nodes as statements, loops and rank guards, at loop depth depth. */
void cg_render_block(kernel *k, cg_node *const *nodes, uint32_t n, uint32_t parent_rs, unsigned depth, sb *out);

/* ---- emit_header.c ---- */
/* The header comment: what the kernel is of and what it left out or inferred. */
void cg_build_header(kernel *k, const cg_tree *t, tpl_ctx *c);

/* ---- emit_threads.c: each thread's calls as a function of its own ---- */
typedef struct thread_body {
    uint32_t thread;
    sb text;
} thread_body;
/* The locals of main (k->locals) body names (NULL: all of them), as list's items (item: the text). */
void cg_push_locals_named(kernel *k, tpl_ctx *c, const char *list, const char *item, const char *body);
/* Each thread's calls, nodes first_thread_node on, as function bodies; how many. */
size_t cg_render_threads(kernel *k, uint32_t first_thread_node, uint32_t everyone, thread_body **out);
/* Each thread's function (thread_<id>), with the locals of main it names, and thread_mains[]. */
void cg_thread_functions(kernel *k, tpl_ctx *c, thread_body *bodies, size_t nbodies);

#endif
