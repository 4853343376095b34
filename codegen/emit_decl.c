/* emit_decl.c: the declarations a kernel adds for the functions it calls
 * that its headers do not declare as called: a variadic stand-in for one
 * taking a va_list, a prototype for one the headers lack, and MPI-4's
 * large-count functions as their int forms for an MPI without them. */
#include "emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cg_va_list_arg(const rec_func_desc *f)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i].ctype, "va_list"))
            return (int)i;
    return -1;
}

/* X_c for an MPI without MPI-4's large counts (gen_narrow_base): X itself
 * when only scalar counts differ (C converts them), else a function that
 * passes an int in place of each MPI_Count out argument. */
static void int_form(const rec_func_desc *f, const rec_func_desc *b, sb *d)
{
    int outs = 0;
    for (unsigned i = 0; i < f->nargs; i++)
        outs += gen_count_out(&f->args[i]);
    if (!outs) {
        sb_printf(d, "#define %s %s\n", f->name, b->name);
        return;
    }
    sb_printf(d, "static %s %s(", f->ret_ctype, f->name);
    for (unsigned i = 0, n = 0; i < f->nargs; i++)
        if (!(f->args[i].flags & REC_ARG_DERIVED))
            sb_printf(d, "%s%s%s%s", n++ ? ", " : "", f->args[i].ctype,
                      f->args[i].ctype[strlen(f->args[i].ctype) - 1] == '*' ? "" : " ", f->args[i].name);
    sb_puts(d, ")\n{\n");
    for (unsigned i = 0; i < f->nargs; i++)
        if (gen_count_out(&f->args[i]))
            sb_printf(d, "    int %s_int = 0;\n", f->args[i].name);
    sb_printf(d, "    %s ret = %s(", f->ret_ctype, b->name);
    for (unsigned i = 0, n = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if (!(a->flags & REC_ARG_DERIVED))
            sb_printf(d, gen_count_out(a) ? "%s&%s_int" : "%s%s", n++ ? ", " : "", a->name);
    }
    sb_puts(d, ");\n");
    for (unsigned i = 0; i < f->nargs; i++)
        if (gen_count_out(&f->args[i]))
            sb_printf(d, "    *%s = %s_int;\n", f->args[i].name, f->args[i].name);
    sb_puts(d, "    return ret;\n}\n");
}

/* Appends d to *list unless it is there. */
static void add_once(char **list, sb *d)
{
    if (!d->len || (*list && strstr(*list, sb_str(d))))
        return;
    sb all = {0};
    if (*list)
        sb_puts(&all, *list);
    sb_puts(&all, sb_str(d));
    free(*list);
    *list = sb_take(&all);
}

void cg_add_proto(cg_emitter *e, const char *text)
{
    sb d = {0};
    sb_puts(&d, text);
    add_once(&e->protos, &d);
    sb_free(&d);
}

/* A variadic stand-in for a function taking a va_list, or a prototype for
 * one the headers do not declare. */
void cg_need_declaration(cg_emitter *e, const rec_func_desc *f)
{
    sb d = {0};
    int va = cg_va_list_arg(f);
    if (va >= 0) {
        sb_printf(&d, "static %s %s_va(", f->ret_ctype, f->name);
        const char *last = "";
        for (unsigned i = 0; i < f->nargs; i++)
            if ((int)i != va && !(f->args[i].flags & REC_ARG_DERIVED)) {
                const char *t = f->args[i].ctype; /* "FILE *stream", as clang-format writes it */
                sb_printf(&d, "%s%s%s, ", t, *t && t[strlen(t) - 1] == '*' ? "" : " ", f->args[i].name);
                last = f->args[i].name;
            }
        sb_printf(&d, "...)\n{\n    va_list ap;\n    va_start(ap, %s);\n    %s ret = %s(", last, f->ret_ctype,
                  f->name);
        for (unsigned i = 0, n = 0; i < f->nargs; i++)
            if (!(f->args[i].flags & REC_ARG_DERIVED))
                sb_printf(&d, "%s%s", n++ ? ", " : "", (int)i == va ? "ap" : f->args[i].name);
        sb_puts(&d, ");\n    va_end(ap);\n    return ret;\n}\n");
    } else if (gen_narrow_base(f)) {
        int_form(f, gen_narrow_base(f), &d);
        add_once(&e->int_forms, &d);
        sb_free(&d);
        return;
    } else if (f->flags & REC_FN_NODECL) {
        sb_printf(&d, "%s %s(", f->ret_ctype, f->name);
        for (unsigned i = 0, n = 0; i < f->nargs; i++)
            if (!(f->args[i].flags & (REC_ARG_DERIVED | REC_ARG_VA)))
                sb_printf(&d, "%s%s", n++ ? ", " : "", f->args[i].ctype);
        sb_puts(&d, (f->flags & REC_FN_VARIADIC) ? ", ...);\n" : ");\n");
    }
    add_once(&e->protos, &d);
    sb_free(&d);
}

