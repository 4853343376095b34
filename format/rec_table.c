/* rec_table.c: function tables for the writer and reader. The compiled-in
 * table is wrapped once; a trace's own table (from recorder.meta) or a test's
 * custom table is copied and indexed the same way. */
#include "codec.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec_table {
    size_t count;
    const rec_func_desc *funcs;
    short index[REC_FUNCTION_ID_LIMIT]; /* id -> position, -1 if absent */
    rec_layout *layouts;
    void (*release)(rec_table *);
};

static int build(rec_table *t, rec_error *err)
{
    for (size_t i = 0; i < REC_FUNCTION_ID_LIMIT; i++)
        t->index[i] = -1;
    t->layouts = calloc(t->count ? t->count : 1, sizeof *t->layouts);
    if (!t->layouts) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < t->count; i++) {
        const rec_func_desc *f = &t->funcs[i];
        if (f->id == 0 || f->id >= REC_FUNCTION_ID_LIMIT || t->index[f->id] >= 0) {
            snprintf(err->msg, sizeof err->msg, "function table: id %u of %s is out of range or repeated",
                     f->id, f->name ? f->name : "?");
            return -1;
        }
        if (f->nargs > REC_MAX_ARGS) {
            snprintf(err->msg, sizeof err->msg, "function table: %s has %u arguments (at most %d)", f->name,
                     f->nargs, REC_MAX_ARGS);
            return -1;
        }
        t->index[f->id] = (short)i;
        rec_layout *lay = &t->layouts[i];
        lay->nargs = f->nargs;
        lay->nfields = f->nargs;
        for (unsigned a = 0; a < f->nargs; a++)
            lay->cls[a] = (uint8_t)rec_kind_class(f->args[a].kind);
        if (f->ret_kind != REC_KIND_NONE) {
            lay->cls[lay->nfields++] = (uint8_t)rec_kind_class(f->ret_kind);
            lay->cls[lay->nfields++] = REC_CLASS_INT; /* errno */
        }
        for (unsigned k = 0; k < lay->nfields; k++)
            lay->nrecorded += lay->cls[k] != REC_CLASS_NONE;
        lay->all_scalar = 1;
        for (unsigned k = 0; k < lay->nfields; k++) {
            if (lay->cls[k] == REC_CLASS_NONE)
                continue;
            lay->at[lay->nrec] =
                (uint16_t)(k < lay->nargs    ? offsetof(rec_record, args) + k * sizeof(rec_value)
                           : k == lay->nargs ? offsetof(rec_record, ret)
                                             : offsetof(rec_record, err));
            lay->rec[lay->nrec++] = (uint8_t)k;
            if (lay->cls[k] != REC_CLASS_INT && lay->cls[k] != REC_CLASS_PATH)
                lay->all_scalar = 0;
        }
    }
    return 0;
}

const rec_table *rec_table_builtin(void)
{
    static rec_table builtin;
    static int ready;
    if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE)) {
        static rec_table fresh;
        rec_error err;
        fresh.count = rec_function_count;
        fresh.funcs = rec_functions;
        if (build(&fresh, &err) != 0) {
            fprintf(stderr, "recorder: the compiled-in %s\n", err.msg);
            abort();
        }
        builtin = fresh;
        __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    }
    return &builtin;
}

rec_table *rec_table_new(const rec_func_desc *funcs, size_t count, rec_error *err)
{
    rec_table *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    t->funcs = funcs;
    t->count = count;
    if (build(t, err) != 0) {
        free(t->layouts);
        free(t);
        return NULL;
    }
    return t;
}

void rec_table_free(rec_table *t)
{
    if (!t || t == rec_table_builtin())
        return;
    free(t->layouts);
    free(t);
}

const rec_func_desc *rec_table_lookup(const rec_table *t, unsigned id)
{
    return id < REC_FUNCTION_ID_LIMIT && t->index[id] >= 0 ? &t->funcs[t->index[id]] : NULL;
}

const rec_layout *rec_table_layout(const rec_table *t, unsigned id)
{
    return id < REC_FUNCTION_ID_LIMIT && t->index[id] >= 0 ? &t->layouts[t->index[id]] : NULL;
}

size_t rec_table_count(const rec_table *t)
{
    return t->count;
}

const rec_func_desc *rec_table_at(const rec_table *t, size_t index)
{
    return index < t->count ? &t->funcs[index] : NULL;
}

unsigned rec_func_nfields(const rec_func_desc *f)
{
    return f->nargs + (f->ret_kind != REC_KIND_NONE ? 2u : 0u);
}

int rec_func_same_kinds(const rec_func_desc *a, const rec_func_desc *b)
{
    if (!a || !b || strcmp(a->name, b->name) != 0 || a->nargs != b->nargs || a->ret_kind != b->ret_kind)
        return 0;
    for (unsigned i = 0; i < a->nargs; i++)
        if (a->args[i].kind != b->args[i].kind)
            return 0;
    return 1;
}
