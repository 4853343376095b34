/* emit_stmt.c: one call of the kernel, argument by argument. What to write
 * follows from each argument's kind (the function table): handles become
 * the variables their creating calls filled (predefined ones their C
 * constants), paths go through P() (re-rooted under OUTDIR), strings are
 * literals or S() patterns, arrays compound literals, data buffers the
 * shared pattern buffer (wbuf) or the scratch buffer (rbuf), out arguments
 * scratch storage; derived fields are not parameters. fprintf writes the
 * traced number of bytes, vfprintf-style functions go through a variadic
 * trampoline, and functions the headers do not declare get a prototype. */
#define _GNU_SOURCE
#include "emit.h"
#include "hooks.h"
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_CODE ((int64_t)1 << 52) /* a handle value rendered as a variable: + the name's string id */

/* "const hsize_t *" -> "hsize_t"; "MPI_Comm *" -> "MPI_Comm"; "void **" -> "void *"; "rec_int3 *" -> "int".
 */
static void element_type(const char *ctype, char *out, size_t cap)
{
    if (rec_ctype_row(ctype) > 1) { /* rows of ints: the kernel does not know the table's row typedef */
        rec_ctype_element(ctype, out, cap);
        return;
    }
    const char *s = strncmp(ctype, "const ", 6) == 0 ? ctype + 6 : ctype;
    snprintf(out, cap, "%s", s);
    size_t n = strlen(out);
    if (n && out[n - 1] == '*')
        out[--n] = 0;
    while (n && out[n - 1] == ' ')
        out[--n] = 0;
}

const char *cg_var_ctype(const rec_func_desc *f, unsigned field, char *buf, size_t cap)
{
    if (field >= f->nargs)
        snprintf(buf, cap, "%s", f->ret_ctype);
    else
        element_type(f->args[field].ctype, buf, cap);
    return buf;
}

/* ---- values of one field ---- */

/* NULL where the C library declares a pointer non-null (a path, a stream):
 * a variable, so the call compiles and fails as it failed in the trace. */
static void null_pointer_text(cg_emitter *e, sb *out)
{
    sb_puts(out, "no_pointer");
    e->uses_no_pointer = 1;
}

void cg_handle_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    if (v >= NAME_CODE) { /* a barrier is the object at its address: its variable is the object */
        sb_printf(out, "%s%s", kind == REC_KIND_PTHREAD_BARRIER ? "&" : "", cg_str(e->m, v - NAME_CODE));
        return;
    }
    const char *name = rec_handle_is_predefined(v) ? rec_predefined_handle_name(kind, v) : NULL;
    if (!name && kind == REC_KIND_DIRFD)
        name = rec_predefined_handle_name(REC_KIND_FD, v);
    int ptr = kind == REC_KIND_FILE_STREAM || kind == REC_KIND_DIR_STREAM || kind == REC_KIND_MAPPING;
    if (name && !(ptr && !strcmp(name, "NULL"))) {
        sb_puts(out, name);
        return;
    }
    if (kind == REC_KIND_MPI_OP && rec_handle_is_dynamic(v))
        cg_untraced_op_text(e, out); /* a reduction made out of the trace's sight: one like it */
    else if (kind == REC_KIND_MPI_ERRHANDLER && rec_handle_is_dynamic(v))
        sb_puts(out, "MPI_ERRORS_RETURN"); /* one made out of sight: returns, as the stand-ins do */
    else if (kind == REC_KIND_MPI_COMM || kind == REC_KIND_MPI_DATATYPE || kind == REC_KIND_MPI_INFO ||
             kind == REC_KIND_MPI_REQUEST || kind == REC_KIND_MPI_FILE || kind == REC_KIND_MPI_GROUP ||
             kind == REC_KIND_MPI_OP || kind == REC_KIND_MPI_ERRHANDLER)
        sb_puts(out, rec_predefined_handle_name(kind, 0)); /* not created by the application's own calls */
    else if (ptr)
        null_pointer_text(e, out);
    else if (rec_handle_is_dynamic(v) && rec_kind_handle_space(kind) == REC_SPACE_HDF5) {
        /* A handle no call of the trace made: one the program had closed (h5bench_read closes its file
         * twice) or never had. An id that names nothing fails alike, and is traced as such a handle. */
        cg_add_proto(e,
                     "/* An HDF5 id that names nothing: the traced call was given a handle it had closed,\n"
                     " * or never had. */\n#define STALE_HID(n) ((hid_t)0x7f00000000000000 + (n))\n");
        sb_printf(out, "STALE_HID(%lld)", (long long)v);
    } else
        sb_puts(out, rec_handle_is_predefined(v) ? "0" : "-1");
}

/* The address of a handle: its variable's, or a copy's for a constant (&MPI_REQUEST_NULL is not C). */
static void handle_address_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    int copy = v < NAME_CODE;
    sb_printf(out, copy ? "&(%s){" : "&", e->elem_type);
    cg_handle_text(e, v, kind, out);
    if (copy)
        sb_putc(out, '}');
}

static void string_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    const char *s = cg_str(e->m, v);
    if (s)
        cg_string_literal(e, s, cg_str_len(e->m, v), out);
    else
        sb_puts(out, "NULL");
}

static void path_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    const char *s = cg_str(e->m, v);
    if (s) {
        cg_path_text(e, s, cg_str_len(e->m, v), 0, out);
    } else {
        null_pointer_text(e, out);
    }
}

/* An encoded HDF5 object: a table of its bytes, by the table's name. */
/* An encoded HDF5 object, or a recorded HDF5 value, as a byte table of its own (NULL: none, or a
 * value the trace does not keep). */
static void encoded_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    const char *s = cg_str(e->m, v);
    uint32_t n = cg_str_len(e->m, v);
    if (!s || !n || (kind == REC_KIND_H5_VALUE && n == REC_H5_VALUE_UNKEPT)) {
        sb_puts(out, "NULL");
        return;
    }
    sb body = {0};
    if (kind ==
        REC_KIND_H5_VALUE) { /* a string literal (and its NUL), its bytes escaped where they must be */
        sb_putc(&body, '"');
        for (uint32_t k = 0; k < n; k++) {
            unsigned char c = (unsigned char)s[k], next = k + 1 < n ? (unsigned char)s[k + 1] : 0;
            if (c == '"' || c == '\\' || c == '?') /* ? too: no trigraph */
                sb_printf(&body, "\\%c", c);
            else if (c >= 0x20 && c < 0x7f)
                sb_putc(&body, (char)c);
            else /* octal, all three digits before a digit it would take in */
                sb_printf(&body, next >= '0' && next <= '7' ? "\\%03o" : "\\%o", c);
        }
        sb_putc(&body, '"');
        sb_puts(out, cg_table_add(e, "h5value", "unsigned char", &body, n + 1, 0, "byte", 0));
        sb_free(&body);
        return;
    }
    sb_putc(&body, '{');
    for (uint32_t k = 0; k < n; k++)
        sb_printf(&body, "%s0x%02x", k ? ", " : "", (unsigned char)s[k]);
    sb_putc(&body, '}');
    sb_puts(out, cg_table_add(e, "encoded", "unsigned char", &body, n, 0, "byte", 12));
    sb_free(&body);
}

static void status_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    int array = kind == REC_KIND_MPI_STATUS_ARRAY;
    /* MPI_STATUSES_IGNORE through a volatile: GCC 12 takes the constant
     * for an array of no elements, which -Werror=stringop-overflow rejects. */
    if (v)
        sb_puts(out, array ? "statuses_ignored" : "MPI_STATUS_IGNORE");
    else
        sb_puts(out, array ? "statuses" : "&status");
    e->uses_status |= !v && !array;
    e->uses_statuses_ignored |= v && array;
}

static void double_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)e;
    (void)kind;
    double d;
    memcpy(&d, &v, sizeof d);
    char text[64];
    snprintf(text, sizeof text, "%.17g", d);
    sb_puts(out, text);
    if (!strpbrk(text, ".eEni"))
        sb_puts(out, ".0");
}

static void const_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    cg_const_text(e, v, kind, out);
}

/* The field's values of every instance of the statement, handles as names. */
static int fit_field(cg_emitter *e, cg_stmtinfo *s, unsigned field, int cls, int el_cls, cg_fieldfit *fit)
{
    const cg_node *n = s->node;
    const cg_inst *first = &e->m->insts[n->insts[0]];
    unsigned kind = cg_field_kind(first->f, field);
    uint32_t nr = first->nr;
    int names = cg_is_handle_kind(kind) || el_cls == CG_FIT_CAT, tables = 1;
    int64_t *cells = names ? cg_alloc((size_t)n->ninsts * nr * sizeof *cells) : NULL;
    const int64_t **rows = cg_alloc(n->ninsts * sizeof *rows);
    for (uint32_t u = 0; u < n->ninsts; u++) {
        int64_t *v = cg_inst_values(&e->m->insts[n->insts[u]], field);
        rows[u] = names ? cells + (size_t)u * nr : v;
        for (uint32_t k = 0; names && k < nr; k++) {
            int64_t *dst = cells + (size_t)u * nr + k;
            uint32_t len = 0;
            const int64_t *a = cls == CG_FIT_ARR ? cg_arr(e->m, v[k], &len) : &v[k];
            int64_t *mapped = cg_alloc((len + 1) * sizeof *mapped);
            for (uint32_t x = 0; x < (cls == CG_FIT_ARR ? len : 1); x++) {
                int64_t h = a[x];
                if (h >= CG_HOBJ_BASE) {
                    const cg_hobj *o = &e->m->hobjs[h - CG_HOBJ_BASE];
                    cg_stmtinfo *c = e->inst_stmt[o->creator];
                    const char *var = c && c->vars[o->field] ? c->vars[o->field] : "0";
                    h = NAME_CODE + cg_str_id(e->m, var, strlen(var));
                }
                tables &= rec_handle_is_predefined(h);
                mapped[x] = h;
            }
            *dst = cls == CG_FIT_ARR ? cg_arr_id(e->m, mapped, len) : mapped[0];
            free(mapped);
        }
    }
    cg_fitctx x = {
        .m = e->m, .rs = &e->m->ranksets[first->rs], .dims = e->dims, .ninsts = n->ninsts, .vals = rows};
    e->m->hint_on = 1; /* elastic: the fits of the kernel's own fields follow the largest run */
    e->m->hint_stmt = (uint32_t)(s - e->stmts);
    e->m->hint_field = field;
    e->m->hint_sub = 0;
    int rc = cg_fit_values(&x, cls, el_cls, tables, fit);
    if (rc) /* a loop's validation guarantees a fit; a value stays visible anyway */
        rc = cg_fit_values(&x, CG_FIT_CAT, CG_FIT_CAT, 1, fit);
    e->m->hint_on = 0;
    free(cells);
    free(rows);
    return rc;
}

static int max_outlen(cg_emitter *e, cg_stmtinfo *s, unsigned field)
{
    int64_t best = 0;
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, field);
        for (uint32_t k = 0; k < in->nr; k++)
            best = v[k] > best ? v[k] : best;
    }
    return (int)(best > 4096 ? 4096 : best);
}

static int is_link_target(const rec_func_desc *f, unsigned field)
{
    return field < f->nargs && f->args[field].role == REC_AROLE_LINK_TARGET &&
           f->args[field].kind == REC_KIND_PATH;
}

/* Whether every rank's link target is relative and, read from its link's
 * directory below OUTDIR, stays there (as recorder-replay keeps one): else
 * the target is re-rooted, so no link the kernel makes leads out. */
static int all_relative_inside(cg_emitter *e, cg_stmtinfo *s, unsigned field)
{
    int link = rec_arg_with_role(e->m->insts[s->node->insts[0]].f, REC_AROLE_NEW_PATH);
    if (link < 0)
        return 0;
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        for (uint32_t k = 0; k < in->nr; k++) {
            const char *p = cg_str(e->m, cg_inst_values(in, field)[k]);
            const char *l = cg_str(e->m, cg_inst_values(in, (unsigned)link)[k]);
            char key[4096];
            if (!p || !l || p[0] == '/' || rf_link_target_key(l, p, key, sizeof key) != 0)
                return 0;
        }
    }
    return 1;
}

static void array_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);

/* A row flag: rows of pointers, each to its own array ((MPI_Offset *[]){(MPI_Offset[]){0, 4}, ...}:
 * PnetCDF varn's starts and counts), rather than rows of one array. */
#define ARRAY_POINTER_ROWS 0x80000000u

/* A compound literal of elem, in rows of row elements when row > 1
 * ((int[][3]){{0, 3, 1}}: the braces that -Wextra wants). */
static void array_open(const char *elem, unsigned row, sb *out)
{
    if (row & ARRAY_POINTER_ROWS)
        sb_printf(out, "(%s *[]){(%s[]){", elem, elem);
    else if (row > 1)
        sb_printf(out, "(%s[][%u]){{", elem, row);
    else
        sb_printf(out, "(%s[]){", elem);
}

/* What goes before element k: nothing, ", ", or "}, {" where a row starts. */
static void array_next(uint32_t k, const char *elem, unsigned row, sb *out)
{
    unsigned len = row & ~ARRAY_POINTER_ROWS;
    if (k && (row & ARRAY_POINTER_ROWS) && len && k % len == 0)
        sb_printf(out, "}, (%s[]){", elem);
    else if (k)
        sb_puts(out, row > 1 && k % row == 0 ? "}, {" : ", ");
}

static void array_close(unsigned row, sb *out)
{
    sb_puts(out, row > 1 ? "}}" : "}");
}

/* A numeric, string or array value of a VALUE field. */
static void value_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    const cg_inst *first = &e->m->insts[s->node->insts[0]];
    const rec_func_desc *f = first->f;
    const rec_arg_desc *a = field < f->nargs ? &f->args[field] : NULL;
    unsigned kind = cg_field_kind(f, field);
    const char *name = a ? a->name : "bytes";
    int el_cls = CG_FIT_NUM, cls;
    if (cg_is_categorical_kind(kind))
        cls = CG_FIT_CAT;
    else if (rec_kind_class(kind) == REC_CLASS_STR || rec_kind_class(kind) == REC_CLASS_PATH)
        cls = CG_FIT_STR;
    else if (rec_kind_class(kind) == REC_CLASS_ARRAY)
        cls = CG_FIT_ARR, el_cls = rec_kind_is_handle_array(kind) ? CG_FIT_CAT : CG_FIT_NUM;
    else
        cls = CG_FIT_NUM;
    cg_fieldfit fit;
    fit_field(e, s, field, cls, el_cls, &fit);
    char ctype[128];
    if (cg_is_handle_kind(kind)) {
        cg_var_ctype(f, field, ctype, sizeof ctype);
        int ptr = a && rec_arg_by_pointer(a);
        /* a choice of addresses, not the address of a choice; a table holds constants, so a copy of its entry
         */
        int table = fit.cat.mode != CG_CAT_CONST && fit.cat.mode != CG_CAT_TERNARY;
        snprintf(e->elem_type, sizeof e->elem_type, "%s", ctype);
        if (ptr && table)
            sb_printf(out, "&(%s){", ctype);
        cg_render_cat(e, &fit.cat, kind, name, ctype, ptr && !table ? handle_address_text : cg_handle_text,
                      out);
        if (ptr && table)
            sb_putc(out, '}');
    } else if (kind == REC_KIND_MPI_STATUS || kind == REC_KIND_MPI_STATUS_ARRAY) {
        cg_render_cat(e, &fit.cat, kind, name, "int", status_text, out);
    } else if (kind == REC_KIND_DOUBLE) {
        cg_render_cat(e, &fit.cat, kind, name, "double", double_text, out);
    } else if (kind == REC_KIND_H5_ENCODED) {
        cg_render_cat(e, &fit.cat, kind, name, "const void *", encoded_text, out);
    } else if (kind == REC_KIND_NC_VALUES || kind == REC_KIND_NC_STRING_LENGTHS ||
               kind == REC_KIND_NC_VLEN_LENGTHS || kind == REC_KIND_H5_STRING_LENGTHS ||
               kind == REC_KIND_H5_VLEN_LENGTHS) {
        cg_nc_values_render(e, &fit.cat, f, field, name, out);
    } else if (kind == REC_KIND_NC_STRINGS) {
        cg_nc_attribute_strings_render(e, &fit.cat, f, field, name, out);
    } else if (kind == REC_KIND_H5_VALUE) {
        uint32_t len = fit.cat.mode == CG_CAT_CONST ? cg_str_len(e->m, fit.cat.value) : 0;
        if (fit.cat.mode == CG_CAT_CONST && !len) {
            sb_puts(out, "NULL"); /* the program passed none */
        } else if (fit.cat.mode == CG_CAT_CONST && len == REC_H5_VALUE_UNKEPT) {
            /* a value the trace does not keep: zeros, which are valid pointers (NULL) and sequences (empty)
             * too */
            int bytes = rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED);
            int64_t need = bytes < 0 ? 4096 : 64;
            for (uint32_t u = 0; bytes >= 0 && u < s->node->ninsts; u++) {
                const cg_inst *in = &e->m->insts[s->node->insts[u]];
                const int64_t *v = cg_inst_values(in, (unsigned)bytes);
                for (uint32_t k = 0; k < in->nr; k++)
                    need = v[k] > need ? v[k] : need;
            }
            e->h5value_zeros = need > e->h5value_zeros ? need : e->h5value_zeros;
            sb_puts(out, "h5value_zeros");
        } else { /* the recorded value, its references made in the subject's file (h5value.c.tmpl) */
            sb_puts(out, "h5_value(");
            cg_render_cat(e, &fit.cat, kind, name, "const void *", encoded_text, out);
            sb_puts(out, ", SIZE_MAX, ");
            cg_arg_text(e, s, REC_ARG_SUBJECT, out);
            sb_putc(out, ')');
            e->uses_h5value = 1;
        }
    } else if (cls == CG_FIT_STR) {
        int literal = fit.cls == CG_FIT_CAT && fit.cat.mode == CG_CAT_CONST;
        const char *str = literal ? cg_str(e->m, fit.cat.value) : NULL;
        /* a relative symlink target resolves from the link: it stays as written */
        int path = kind == REC_KIND_PATH && !(is_link_target(f, field) && all_relative_inside(e, s, field));
        if (literal && !str) {
            null_pointer_text(e, out);
        } else if (fit.cls == CG_FIT_STR) {
            sb_puts(out, path ? "P(" : "S(");
            cg_render_pattern(e, &fit, name, path, out);
            sb_putc(out, ')');
            e->uses_P |= path;
            e->uses_S |= !path;
        } else if (path) {
            e->uses_P = 1;
            sb_puts(out, "P(");
            if (literal) {
                cg_path_text(e, str, cg_str_len(e->m, fit.cat.value), 1, out);
            } else {
                sb_puts(out, "\"%s\", ");
                cg_render_cat(e, &fit.cat, kind, name, "const char *", path_text, out);
            }
            sb_putc(out, ')');
        } else {
            cg_render_cat(e, &fit.cat, kind, name, "const char *", string_text, out);
        }
    } else if (cls == CG_FIT_ARR) {
        char elem[128];
        element_type(a->ctype, elem, sizeof elem);
        unsigned row = rec_ctype_row(a->ctype);
        if (kind == REC_KIND_NC_OFFSET_ROWS) /* rows of pointers, one a subarray of MPI_Offsets */
            row = ARRAY_POINTER_ROWS | cg_nc_row_length(e, s, field, elem, sizeof elem);
        int buffers = kind == REC_KIND_BUFFER_ARRAY; /* buffer_rows(buf, n, the distances or NULL) */
        if (buffers && !cg_nc_buffer_rows(e, s, field, elem, sizeof elem, out)) {
        } else if (fit.cls != CG_FIT_ARR) {
            /* arrays of other lengths on other ranks (the root's counts): a choice */
            snprintf(e->elem_type, sizeof e->elem_type, "%s", elem);
            e->array_row = row;
            cg_cat c = fit.cat;
            if (c.mode != CG_CAT_CONST)
                c.mode = CG_CAT_TERNARY;
            cg_render_cat(e, &c, kind, name, elem, array_text, out);
        } else if (fit.nel == 0) {
            sb_puts(out, "NULL");
        } else {
            int iovec = kind == REC_KIND_IOVEC;
            int reads = (f->flags & REC_FN_READ) != 0;
            array_open(elem, row, out); /* const or not, the call reads it */
            for (uint32_t k = 0; k < fit.nel; k++) {
                array_next(k, elem, row, out);
                unsigned ek = rec_kind_element(kind);
                if (iovec)
                    sb_printf(out, "{%s, ", reads ? "rbuf" : "wbuf");
                if (fit.el[k].cls == CG_FIT_CAT)
                    cg_render_cat(e, &fit.el[k].cat, ek, name, elem,
                                  el_cls == CG_FIT_CAT ? cg_handle_text : const_text, out);
                else
                    cg_render_num(e, &fit.el[k].num, ek, name, out, NULL);
                if (iovec)
                    sb_putc(out, '}');
            }
            array_close(row, out);
        }
        if (buffers)
            sb_putc(out, ')');
    } else if (kind == REC_KIND_STRLEN) {
        if (cg_text_wanted(e, s)) {
            sb n = {0};
            cg_render_num(e, &fit.num, REC_KIND_INT, name, &n, NULL);
            cg_text_source(e, s, &n, out);
            sb_free(&n);
        } else {
            e->uses_text = 1;
            sb_puts(out, "TEXT(");
            cg_render_num(e, &fit.num, REC_KIND_INT, name, out, NULL);
            sb_putc(out, ')');
        }
    } else if (kind ==
               REC_KIND_CALLBACK) { /* the application's function is its code: a stand-in per function */
        snprintf(e->elem_type, sizeof e->elem_type, "%s", a->ctype);
        cg_render_cat(e, &fit.cat, kind, name, a->ctype, cg_callback_text, out);
    } else if (fit.cls == CG_FIT_NUM) {
        int pointee = a && rec_arg_by_pointer(a) && kind != REC_KIND_THREAD_ID; /* a thread id is an index */
        if (pointee) {
            char elem[128];
            element_type(a->ctype, elem, sizeof elem);
            sb_printf(out, "&(%s){", elem);
        }
        cg_render_num(e, &fit.num, kind, name, out, NULL);
        if (pointee)
            sb_putc(out, '}');
    } else {
        cg_render_cat(e, &fit.cat, kind, name, "long long", const_text, out);
    }
    cg_fieldfit_free(&fit);
}

/* An argument a hook (hooks.h) writes; 0 when none does. */
static int hooked(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    for (size_t h = 0; h < sizeof cg_hooks / sizeof cg_hooks[0]; h++) {
        if (field >= f->nargs || (f->args[field].flags & cg_hooks[h].flags) != cg_hooks[h].flags)
            continue;
        for (unsigned d = 0; d < f->nargs; d++) {
            if (f->args[d].kind != cg_hooks[h].depends)
                continue;
            int64_t v = cg_inst_values(&e->m->insts[s->node->insts[0]], d)[0];
            for (uint32_t u = 0; u < s->node->ninsts; u++) {
                const cg_inst *in = &e->m->insts[s->node->insts[u]];
                for (uint32_t k = 0; k < in->nr; k++)
                    if (cg_inst_values(in, d)[k] != v)
                        return 0;
            }
            return cg_hooks[h].text(v, out);
        }
    }
    return 0;
}

/* An array value as a compound literal (NULL when empty), for choices by rank. */
static void array_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    uint32_t n;
    const int64_t *a = cg_arr(e->m, v, &n);
    if (!n) {
        sb_puts(out, "NULL");
        return;
    }
    array_open(e->elem_type, e->array_row, out);
    for (uint32_t k = 0; k < n; k++) {
        array_next(k, e->elem_type, e->array_row, out);
        if (rec_kind_is_handle_array(kind))
            cg_handle_text(e, a[k], rec_kind_element(kind), out);
        else
            cg_const_text(e, a[k], kind, out);
    }
    array_close(e->array_row, out);
}

void cg_field_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    value_text(e, s, field, out);
}

/* A dataset write's data when the trace says what filters stored: filtered()
 * (kernel.c.tmpl) makes values they store alike. */
static int filtered_text(cg_emitter *e, cg_stmtinfo *s, const rec_func_desc *f, sb *out)
{
    static const unsigned roles[] = {REC_AROLE_DATASET, REC_AROLE_MEM_TYPE, REC_AROLE_MEM_SPACE,
                                     REC_AROLE_FILE_SPACE};
    int fields[4];
    if (!e->m->h5store.n || !(f->flags & REC_FN_WRITE))
        return 0;
    for (int i = 0; i < 4; i++)
        if ((fields[i] = rec_arg_with_role(f, roles[i])) < 0)
            return 0;
    sb_puts(out, "filtered(");
    for (int i = 0; i < 4; i++) {
        cg_arg_text(e, s, (unsigned)fields[i], out);
        sb_puts(out, i < 3 ? ", " : ")");
    }
    e->uses_h5fill = 1;
    return 1;
}

/* The definition of noop_CTYPE, an operator of that type that does nothing
 * and returns 0, but where its data (an op_stop, the last parameter of
 * params: "(type name, ...)") says the traced iteration stopped. */
static void noop_operator(cg_emitter *e, const char *ctype, const char *ret, const char *params)
{
    sb def = {0};
    const char *names[REC_MAX_ARGS];
    unsigned lens[REC_MAX_ARGS], n = rec_param_names(params, names, lens, REC_MAX_ARGS);
    cg_add_proto(e, "/* Where an iteration stops: at the call of its operator the traced one stopped at. */\n"
                    "typedef struct op_stop {\n    long long calls, stop, ret;\n} op_stop;\n\n"
                    "static long long op_stop_next(void *data)\n{\n    op_stop *s = data;\n"
                    "    return s && ++s->calls == s->stop ? s->ret : 0;\n}\n");
    sb_printf(&def, "static %s noop_%s%s\n{\n", ret, ctype, params);
    for (unsigned i = 0; i + 1 < n; i++)
        sb_printf(&def, "    (void)%.*s;\n", (int)lens[i], names[i]);
    sb_printf(&def, "    return (%s)op_stop_next(%.*s);\n}\n", ret, (int)lens[n - 1], names[n - 1]);
    cg_add_proto(e, sb_str(&def));
    sb_free(&def);
}

/* Whether a field is not 0 on some rank of some instance: a VA argument worth passing (open's
 * mode without O_CREAT is not), an iteration's result that stopped it. */
static int nonzero_somewhere(cg_emitter *e, cg_stmtinfo *s, unsigned field)
{
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, field);
        for (uint32_t k = 0; k < in->nr; k++)
            if (v[k])
                return 1;
    }
    return 0;
}

/* Arguments the kernel does not take from the trace. */
static void scratch_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    const rec_arg_desc *a = &f->args[field];
    char elem[128];
    element_type(a->ctype, elem, sizeof elem);
    int in = (a->flags & REC_ARG_IN) && !(a->flags & REC_ARG_OUT);
    const char *op_ret, *op_params = in ? rec_operator_params(a->ctype, &op_ret) : NULL;
    if (op_params) { /* the application's operator is its code: one that lets the library go on */
        noop_operator(e, a->ctype, op_ret, op_params);
        sb_printf(out, "noop_%s", a->ctype);
        return;
    }
    int data, op = gen_counted_operator(f, &data);
    /* where the traced iteration stopped, if it did */
    if (op >= 0 && (int)field == data && nonzero_somewhere(e, s, f->nargs)) {
        sb_puts(out, "&(op_stop){0, ");
        value_text(e, s, (unsigned)rec_arg_with_kind(f, REC_KIND_OP_CALLS, REC_ARG_DERIVED), out);
        sb_puts(out, ", ");
        value_text(e, s, f->nargs, out);
        sb_puts(out, "}");
        return;
    }
    if (a->role ==
        REC_AROLE_CACHE_CONFIG) { /* one struct at the library's version: a set takes what a get filled */
        cg_add_proto(
            e, "static H5AC_cache_config_t cache_config = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};\n");
        sb_puts(out, "&cache_config");
        return;
    }
    switch (a->kind) {
    case REC_KIND_BUFFER:
        if (in && cg_pointers_field(e, s) >= 0) { /* NC_STRING or variable-length values */
            value_text(e, s, (unsigned)cg_pointers_field(e, s), out);
            return;
        }
        if (in && (filtered_text(e, s, f, out) ||
                   ((f->flags & REC_FN_WRITE) && cg_line_buffer(e, s, !gen_is_pointer(a->ctype), out)) ||
                   cg_nc_data(e, s, a, out)))
            return;
        char elem[64];
        cg_var_ctype(f, field, elem, sizeof elem);
        /* a typed buffer (fgetws' wide characters, ncmpi_put_vara_float's floats): the pattern buffer, cast
         */
        if (gen_is_pointer(a->ctype) && strcmp(elem, "void") && strcmp(elem, "char"))
            sb_printf(out, "(%s)(void *)%s", a->ctype, in ? "wbuf" : "rbuf");
        else
            sb_puts(out, !gen_is_pointer(a->ctype) ? "'x'" : in ? "wbuf" : "rbuf");
        return;
    case REC_KIND_NC_VALUES: /* a fill value read: rbuf, NULL where the program passed none */
        value_text(e, s, field, out);
        return;
    case REC_KIND_STRING_OUT:
        sb_puts(out, "rbuf");
        return;
    case REC_KIND_STATBUF: {
        int which = strstr(a->ctype, "struct statx") ? 2 : strstr(a->ctype, "stat64") ? 1 : 0;
        e->uses_stat[which] = 1;
        sb_printf(out, "&%s", which == 2 ? "stx" : which == 1 ? "st64" : "st");
        return;
    }
    case REC_KIND_FORMAT: {
        if (strstr(a->ctype, "wchar_t")) { /* as many spaces as the stream took bytes */
            sb_puts(out, "L\"%*ls\", (int)");
            value_text(e, s, (unsigned)rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED), out);
            sb_puts(out, ", L\"\"");
            return;
        }
        sb n = {0};
        value_text(e, s, f->nargs, &n);
        int plain = strspn(sb_str(&n), "0123456789") == n.len || !strpbrk(sb_str(&n), "L+-*/%? ");
        sb_printf(out, "\"%%.*s\", %s", plain ? "" : "(int)(");
        sb_append(out, &n);
        sb_printf(out, "%s, ", plain ? "" : ")");
        if (cg_text_wanted(e, s))
            cg_text_source(e, s, &n, out);
        else
            sb_puts(out, "wbuf");
        sb_free(&n);
        return;
    }
    case REC_KIND_SCAN_FORMAT: /* the bytes the traced scan read, and as many conversions (scan.c.tmpl) */
        cg_add_template(e, "scan.c.tmpl");
        sb_printf(out, "%sscan_format(", strstr(a->ctype, "wchar_t") ? "w" : "");
        value_text(e, s, f->nargs, out);
        sb_puts(out, ", ");
        value_text(e, s, (unsigned)rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED), out);
        sb_puts(out, "), SCAN_TO");
        return;
    default:
        break;
    }
    if (!gen_is_pointer(a->ctype) || (in && !rec_arg_by_pointer(a)))
        sb_puts(out, gen_is_pointer(a->ctype) ? "NULL" : "0");
    else if (!strcmp(elem, "char") || !strcmp(elem, "void"))
        sb_puts(out, "rbuf");
    else if (cg_passed_null(e, s, field))
        sb_puts(out, "NULL");
    else
        sb_printf(out, "&(%s){0}", elem);
}

/* One argument the kernel writes: what its role says. */
void cg_arg_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    switch (cg_field_role(f, field)) {
    case CG_ROLE_CREATE:
        sb_printf(out, "&%s", s->vars[field]);
        break;
    case CG_ROLE_VALUE:
        if (cg_field_kind(f, field) == REC_KIND_THREAD_ID)
            cg_thread_id_text(e, s, field, out);
        else
            value_text(e, s, field, out);
        break;
    case CG_ROLE_OUTLEN: {
        int len = max_outlen(e, s, field);
        char elem[128];
        element_type(f->args[field].ctype, elem, sizeof elem);
        if (len) {
            sb_printf(out, "(%s[", elem);
            cg_put_literal(e, len, "", 0, out);
            sb_puts(out, "]){0}");
        } else {
            sb_puts(out, "NULL");
        }
        break;
    }
    default:
        if (!cg_thread_start_text(e, f, field, out))
            scratch_text(e, s, field, out);
        break;
    }
}

/* Whether the statement's call failed on every rank of every instance:
 * an HDF5 call the program made knowing it could fail (a second close
 * inside H5E_BEGIN_TRY, as h5bench does), whose error report would only
 * be noise in the kernel's output. */
static int failed_everywhere(cg_emitter *e, cg_stmtinfo *s)
{
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        if (in->f->ret_kind == REC_KIND_NONE || in->nf <= in->f->nargs)
            return 0;
        for (uint32_t k = 0; k < in->nr; k++)
            if (rf_ret_status(in->f, in->v[(size_t)in->f->nargs * in->nr + k]) != 0)
                return 0;
    }
    return s->node->ninsts > 0;
}

void cg_emit_stmt(cg_emitter *e, cg_stmtinfo *s, tpl_ctx *c)
{
    sb decls = {0}, assign = {0}, fn = {0}, args = {0}, *out = &args;
    const cg_inst *first = &e->m->insts[s->node->insts[0]];
    const rec_func_desc *f = first->f;
    int quiet = f->layer == REC_LAYER_HDF5 && failed_everywhere(e, s);
    e->layers[f->layer] = 1;
    e->n_statements++;
    if (!s->guarded)
        cg_emit_decls(e, s, 0, &decls);
    if (f->ret_kind != REC_KIND_NONE && s->vars[f->nargs] && s->used[f->nargs]) {
        if (!s->guarded) { /* declared before a quiet call's block, which would end its scope */
            char ctype[128];
            cg_var_ctype(f, f->nargs, ctype, sizeof ctype);
            const char *sep = gen_is_pointer(ctype) ? "" : " ";
            if (cg_shared_var(e, s, f->nargs)) /* every thread sees it */
                sb_printf(&e->shared_decls, "static %s%s%s;\n", ctype, sep, s->vars[f->nargs]);
            else
                sb_printf(quiet ? &decls : &assign, "%s%s", ctype, sep);
            if (quiet && !cg_shared_var(e, s, f->nargs))
                sb_printf(&decls, "%s;\n", s->vars[f->nargs]);
        }
        sb_printf(&assign, "%s = ", s->vars[f->nargs]);
    }
    tpl_flag(c, "quiet", quiet);
    cg_h5_reclaim(e, s, c, quiet);
    cg_take_turn(e, f, c, assign.len != 0);
    int va = cg_va_list_arg(f);
    if (va >= 0 || (f->flags & REC_FN_NODECL) || gen_narrow_base(f))
        cg_need_declaration(e, f);
    sb_printf(&fn, "%s%s", f->name, va >= 0 ? "_va" : "");
    int n = 0;
    for (unsigned field = 0; field < f->nargs; field++) {
        const rec_arg_desc *a = &f->args[field];
        sb hook = {0};
        int by_hook = !(a->flags & REC_ARG_DERIVED) && hooked(e, s, field, &hook);
        if (!by_hook && ((a->flags & REC_ARG_DERIVED) || (int)field == va ||
                         ((a->flags & REC_ARG_VA) && !nonzero_somewhere(e, s, field)))) {
            sb_free(&hook);
            continue;
        }
        if (n++)
            sb_puts(out, ", ");
        size_t at = out->len;
        if (by_hook) {
            sb_puts(out, sb_str(&hook));
        } else {
            cg_arg_text(e, s, field, out);
        }
        sb_free(&hook);
        cg_slot *arg = cg_span(e, out, at, CG_SPAN_ARG); /* elastic: what a refusal names */
        if (arg) {
            arg->f = f;
            arg->arg = field;
            arg->stmt = e->n_statements;
        }
    }
    tpl_set(c, "decls", sb_str(&decls));
    tpl_set(c, "assign", sb_str(&assign));
    tpl_set(c, "function", sb_str(&fn));
    tpl_set_sb(c, "args", &args);
    sb_free(&decls);
    sb_free(&assign);
    sb_free(&fn);
    sb_free(&args);
}
