/* emit_threads.c: a program's threads in its kernel. The calls of each
 * thread the program started (load.c keeps them, grouped by thread, after
 * the main thread's) become a function of their own, thread_<id>, which the
 * statement that started the thread runs (thread_mains[id]); each function
 * declares the locals of main its calls name. */
#include "emit_kernel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int in_word(char c)
{
    return c == '_' || isalnum((unsigned char)c);
}

/* Whether text names the identifier (a whole word). */
static int names_identifier(const char *text, const char *id, size_t len)
{
    for (const char *p = strstr(text, id); p; p = strstr(p + 1, id))
        if (!(p > text && in_word(p[-1])) && !in_word(p[len]))
            return 1;
    return 0;
}

/* The identifier a local declaration declares (the word before its first "[", ";" or " ="); 0 for a
 * statement (a call before any of them). */
static size_t declared_name(const char *line, const char **name)
{
    size_t end = strcspn(line, "[;=(");
    if (line[end] == '(')
        return 0;
    while (end && line[end - 1] == ' ')
        end--;
    size_t start = end;
    while (start && line[start - 1] != ' ' && line[start - 1] != '*')
        start--;
    *name = line + start;
    return end - start;
}

void cg_push_locals_named(kernel *k, tpl_ctx *c, const char *list, const char *item, const char *body)
{
    int named = !body;
    for (size_t l = 0; l < k->nlocals; l++) {
        const char *name;
        size_t len = declared_name(k->locals[l], &name);
        if (len) {
            char id[128];
            snprintf(id, sizeof id, "%.*s", (int)(len < sizeof id ? len : sizeof id - 1), name);
            named = !body || names_identifier(body, id, strlen(id));
        }
        if (named) /* a statement goes with the declaration before it */
            tpl_set(tpl_push(c, list), item, k->locals[l]);
    }
}

/* Each thread's calls, nodes first_thread_node on, as the bodies of functions of their own; how many. */
size_t cg_render_threads(kernel *k, uint32_t first_thread_node, uint32_t everyone, thread_body **out)
{
    cg_emitter *e = &k->e;
    cg_tree *t = e->t;
    size_t n = 0;
    *out = NULL;
    for (uint32_t i = first_thread_node; i < t->ntop;) {
        uint32_t thread = e->m->insts[cg_first_stmt(t->top[i])->insts[0]].thread, j = i;
        while (j < t->ntop && e->m->insts[cg_first_stmt(t->top[j])->insts[0]].thread == thread)
            j++;
        *out = cg_realloc(*out, (n + 1) * sizeof **out);
        thread_body *tb = &(*out)[n++];
        *tb = (thread_body){.thread = thread};
        cg_render_block(k, t->top + i, j - i, everyone, 0, &tb->text);
        while (tb->text.len && tb->text.s[tb->text.len - 1] == '\n')
            tb->text.s[--tb->text.len] = 0;
        i = j;
    }
    return n;
}

/* Each thread's function (thread_<id>), with the locals of main its calls name, and thread_mains[]. */
void cg_thread_functions(kernel *k, tpl_ctx *c, thread_body *bodies, size_t nbodies)
{
    cg_emitter *e = &k->e;
    sb mains = {0};
    uint32_t slots = 1;
    for (uint32_t i = 0; i < e->m->ninsts; i++)
        if (e->m->insts[i].thread + 1 > slots)
            slots = e->m->insts[i].thread + 1;
    for (size_t i = 0; i < nbodies; i++) {
        const char *b = sb_str(&bodies[i].text);
        while (*b == '\n')
            b++;
        tpl_ctx *x = tpl_push(c, "thread_fns");
        tpl_setf(x, "id", "%u", bodies[i].thread);
        tpl_set(x, "tbody", b);
        if (e->grid_ndims && strstr(b, "coords["))
            tpl_setf(x, "tgrid", "%d", e->grid_ndims);
        cg_push_locals_named(k, x, "tlocals", "tlocal", b);
    }
    sb_puts(&mains, "{");
    for (uint32_t s = 0; s < slots; s++) {
        int has = 0;
        for (size_t i = 0; i < nbodies && !has; i++)
            has = bodies[i].thread == s;
        sb_printf(&mains, "%s%s%u", s ? ", " : "", has ? "thread_" : "NULL", has ? s : 0);
        if (!has) /* "NULL0" -> "NULL" */
            mains.s[--mains.len] = 0;
    }
    sb_puts(&mains, "}");
    /* a thread the program never joined (a pool's, left to the process's exit) is joined before MPI ends */
    unsigned char *joined = cg_calloc(slots, 1);
    for (uint32_t i = 0; i < e->m->ninsts; i++) {
        const cg_inst *in = &e->m->insts[i];
        int a = (in->f->flags & REC_FN_DESTROYS) ? rec_arg_with_kind(in->f, REC_KIND_THREAD_ID, 0) : -1;
        for (uint32_t r = 0; a >= 0 && r < in->nr; r++) {
            int64_t id = cg_inst_values(in, (unsigned)a)[r];
            if (id >= 0 && id < slots)
                joined[id] = 1;
        }
    }
    for (size_t i = 0; i < nbodies; i++)
        if (!joined[bodies[i].thread])
            tpl_setf(tpl_push(c, "unjoined"), "tid", "%u", bodies[i].thread);
    free(joined);
    tpl_setf(c, "thread_slots", "%u", slots);
    tpl_set_sb(c, "thread_mains", &mains);
    sb_free(&mains);
}

void cg_thread_id_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    sb_free(&e->thread_slot);
    cg_field_text(e, s, field, &e->thread_slot);
    sb_printf(out, "%sthreads[%s]", (f->args[field].flags & REC_ARG_CREATE) ? "&" : "",
              sb_str(&e->thread_slot));
    e->uses_threads = 1;
}

int cg_thread_start_text(cg_emitter *e, const rec_func_desc *f, unsigned field, sb *out)
{
    /* the start routine (the program's code, not recorded): no pointer type spelled with a '*' */
    if (rec_func_sole(f) != REC_SOLE_STARTS_THREAD || !e->thread_slot.len || field >= f->nargs ||
        f->args[field].kind != REC_KIND_NONE || strchr(f->args[field].ctype, '*'))
        return 0;
    sb_printf(out, "thread_mains[%s]", sb_str(&e->thread_slot));
    return 1;
}

void cg_take_turn(cg_emitter *e, const rec_func_desc *f, tpl_ctx *c, int assigned)
{
    tpl_set(c, "turn_open", "");
    tpl_set(c, "turn_close", "");
    /* a value ONE_AT_A_TIME carries as an integer: not a pointer's (nc_strerror's) */
    if (!e->threaded || !rec_layer_thread_safe_test(f->layer) || !strcmp(f->ret_ctype, "void") ||
        strchr(f->ret_ctype, '*'))
        return;
    e->turn_layers |= 1u << f->layer;
    tpl_set(c, "turn_open", assigned ? "ONE_AT_A_TIME(" : "(void)ONE_AT_A_TIME(");
    tpl_set(c, "turn_close", ")");
}

void cg_turns(cg_emitter *e, tpl_ctx *c)
{
    if (!e->turn_layers)
        return;
    sb test = {0}, names = {0};
    unsigned n = 0, total = (unsigned)__builtin_popcount(e->turn_layers);
    for (unsigned layer = 0; layer < REC_LAYER_COUNT; layer++)
        if (e->turn_layers & (1u << layer)) {
            sb_printf(&test, "%s(%s)", n ? " && " : "", rec_layer_thread_safe_test(layer));
            sb_printf(&names, "%s%s", n ? (n + 1 == total ? " and " : ", ") : "", rec_layer_name(layer));
            n++;
        }
    tpl_set_sb(c, "turn_test", &test);
    tpl_set_sb(c, "turn_libraries", &names);
    sb_free(&test);
    sb_free(&names);
}
