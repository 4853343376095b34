/* emit_netcdf.c: what kernels write of netCDF's own values: attribute and
 * fill values as typed literals, the NC_STRING values a put writes as
 * pattern strings of their lengths, its variable-length values as
 * nc_vlen_t of theirs (and HDF5's variable-length strings and hvl_t
 * sequences an H5Dwrite writes alike), out pointers the program passed NULL,
 * the rows of PnetCDF's varn and multi-variable calls and their buffers. */
#include "emit.h"

#include <string.h>

/* The element type of the NC_VALUES argument nc_values_text renders (its
 * ctype without const and *), and whether the call writes it (a fill value
 * read): cg_render_cat's callbacks take no argument. */
static char nc_values_elem[64];
static int nc_values_out;

/* A C floating literal of x (float: with the f suffix) that reads back as x:
 * a decimal point where %g printed none (200f is no literal), builtins for
 * infinities and NaNs. */
static void real_literal(sb *out, double x, int is_float)
{
    if (x != x) {
        sb_puts(out, is_float ? "__builtin_nanf(\"\")" : "__builtin_nan(\"\")");
        return;
    }
    if (x - x != 0) { /* infinite: finite x - x is 0 */
        sb_printf(out, "%s%s", x < 0 ? "-" : "", is_float ? "__builtin_inff()" : "__builtin_inf()");
        return;
    }
    char text[64];
    snprintf(text, sizeof text, is_float ? "%.9g" : "%.17g", x);
    sb_printf(out, "%s%s%s", text, strpbrk(text, ".e") ? "" : ".", is_float ? "f" : "");
}

/* A C string literal of s[0, n). */
static void string_literal(sb *out, const unsigned char *s, size_t n)
{
    sb_putc(out, '"');
    for (size_t k = 0; k < n; k++) {
        unsigned char c = s[k], next = k + 1 < n ? s[k + 1] : 0;
        if (c == '"' || c == '\\' || c == '?')
            sb_printf(out, "\\%c", c);
        else if (c >= 0x20 && c < 0x7f)
            sb_putc(out, (char)c);
        else
            sb_printf(out, next >= '0' && next <= '7' ? "\\%03o" : "\\%o", c);
    }
    sb_putc(out, '"');
}

/* netCDF attribute or fill values: a string literal of text, else a
 * compound literal of the argument's element type, the values as written. */
static void nc_values_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    const unsigned char *s = (const unsigned char *)cg_str(e->m, v);
    uint32_t n = cg_str_len(e->m, v);
    const char *t = nc_values_elem;
    if (!s || !n) {
        sb_puts(out, "NULL");
        return;
    }
    if (nc_values_out) { /* room the call writes the values into */
        sb_puts(out, "rbuf");
        return;
    }
    if (!strcmp(t, "char")) {
        string_literal(out, s, n);
        return;
    }
    int real = !strcmp(t, "float") || !strcmp(t, "double");
    int is_signed = real || !strncmp(t, "signed", 6) || (strncmp(t, "unsigned", 8) && strcmp(t, "void"));
    size_t size = !strcmp(t, "void") || strstr(t, "char") ? 1
                  : strstr(t, "short")                      ? 2
                  : !strcmp(t, "float") || strstr(t, "int")  ? 4
                                                             : 8;
    sb_printf(out, "(const %s[]){", strcmp(t, "void") ? t : "unsigned char");
    for (uint32_t k = 0; k + size <= n; k += (uint32_t)size) {
        if (k)
            sb_puts(out, ", ");
        if (size == 4 && real) {
            float x;
            memcpy(&x, s + k, 4);
            real_literal(out, (double)x, 1);
        } else if (size == 8 && real) {
            double x;
            memcpy(&x, s + k, 8);
            real_literal(out, x, 0);
        } else {
            uint64_t u = 0;
            memcpy(&u, s + k, size); /* little-endian: the low bytes */
            if (is_signed && size < 8 && (u >> (8 * size - 1)) & 1)
                u |= ~(uint64_t)0 << (8 * size);
            if (is_signed)
                sb_printf(out, "%lldLL", (long long)u);
            else
                sb_printf(out, "%lluULL", (unsigned long long)u);
        }
    }
    sb_putc(out, '}');
}

static void nc_strings_render(cg_emitter *e, const cg_cat *cat, const char *name, sb *out);
static void nc_vlens_render(cg_emitter *e, const cg_cat *cat, const char *name, sb *out);
static void nc_strings_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);
static void vlens_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);

void cg_nc_values_render(cg_emitter *e, const cg_cat *cat, const rec_func_desc *f, unsigned field, const char *name,
                         sb *out)
{
    if (f->args[field].kind == REC_KIND_NC_STRING_LENGTHS) {
        nc_strings_render(e, cat, name, out);
        return;
    }
    if (f->args[field].kind == REC_KIND_NC_VLEN_LENGTHS) {
        nc_vlens_render(e, cat, name, out);
        return;
    }
    if (f->args[field].kind ==
        REC_KIND_H5_STRING_LENGTHS) { /* HDF5's variable-length strings: char * alike */
        e->uses_text = 1;
        cg_render_cat(e, cat, REC_KIND_H5_STRING_LENGTHS, name, "const char **", nc_strings_text, out);
        return;
    }
    if (f->args[field].kind == REC_KIND_H5_VLEN_LENGTHS) {
        e->uses_hvl = 1;
        cg_render_cat(e, cat, REC_KIND_H5_VLEN_LENGTHS, name, "const hvl_t *", vlens_text, out);
        return;
    }
    cg_var_ctype(f, field, nc_values_elem, sizeof nc_values_elem);
    nc_values_out = (f->args[field].flags & REC_ARG_OUT) != 0;
    if (nc_values_out && cat->mode != CG_CAT_CONST) { /* room everywhere, or nowhere: no table of one choice */
        uint32_t empty = 0;
        for (uint32_t k = 0; k < cat->ntab; k++)
            empty += cg_str_len(e->m, cat->tab[k]) == 0;
        if (!empty || empty == cat->ntab) {
            sb_puts(out, empty ? "NULL" : "rbuf");
            return;
        }
    }
    cg_render_cat(e, cat, f->args[field].kind, name, nc_values_out ? "void *" : "const void *", nc_values_text, out);
}

/* netCDF attribute strings: an array of the recorded ones, then empty ones for those the trace did not keep. */
static void nc_attribute_strings_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    const unsigned char *s = (const unsigned char *)cg_str(e->m, v);
    uint32_t len = cg_str_len(e->m, v);
    if (!s || len < 4) {
        sb_puts(out, "NULL");
        return;
    }
    uint32_t n = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
    sb_puts(out, "(const char *[]){");
    for (uint32_t k = 0, at = 4; k < n; k++) {
        const unsigned char *end = at < len ? memchr(s + at, 0, len - at) : NULL;
        uint32_t one = at < len ? (end ? (uint32_t)(end - (s + at)) : len - at) : 0;
        sb_puts(out, k ? ", " : "");
        string_literal(out, s + at, one);
        at += at < len ? one + 1 : 0;
    }
    sb_putc(out, '}');
}

void cg_nc_attribute_strings_render(cg_emitter *e, const cg_cat *cat, const rec_func_desc *f, unsigned field,
                                    const char *name, sb *out)
{
    cg_render_cat(e, cat, f->args[field].kind, name, "const char **", nc_attribute_strings_text, out);
}

/* Whether an out value the tracer recorded as -1 everywhere was a NULL
 * pointer: where -1 is no value the call can write (a netCDF type, format or
 * mode; a netCDF length or count), the program passed none, and so does the kernel. */
int cg_passed_null(cg_emitter *e, cg_stmtinfo *s, unsigned field)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    if (!rec_arg_minus_one_is_null(f, field))
        return 0;
    for (uint32_t u = 0; u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, field);
        for (uint32_t k = 0; k < in->nr; k++)
            if (v[k] != -1)
                return 0;
    }
    return 1;
}

unsigned cg_nc_row_length(cg_emitter *e, cg_stmtinfo *s, unsigned field, char *elem, size_t cap)
{
    snprintf(elem, cap, "MPI_Offset");
    int rows = rec_arg_with_role(e->m->insts[s->node->insts[0]].f, REC_AROLE_ROWS);
    for (uint32_t u = 0; rows >= 0 && u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        for (uint32_t k = 0; k < in->nr; k++) {
            int64_t nrows = cg_inst_values(in, (unsigned)rows)[k];
            uint32_t n = 0;
            cg_arr(e->m, cg_inst_values(in, field)[k], &n);
            if (nrows > 0 && n)
                return n / (uint32_t)nrows;
        }
    }
    return 0;
}

int64_t cg_nc_buffer_spread(cg_model *m, const cg_inst *in, unsigned field, uint32_t k)
{
    uint32_t n = 0;
    const int64_t *at = cg_arr(m, cg_inst_values(in, field)[k], &n);
    int64_t low = 0, high = 0;
    for (uint32_t r = 0; at && r < n; r++) {
        low = at[r] < low ? at[r] : low;
        high = at[r] > high ? at[r] : high;
    }
    return high - low <= ((int64_t)1 << 28) ? high - low : -1;
}

int cg_nc_buffer_rows(cg_emitter *e, cg_stmtinfo *s, unsigned field, char *elem, size_t cap, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    int in = (f->args[field].flags & REC_ARG_IN) && !(f->args[field].flags & REC_ARG_OUT), layout = 1;
    for (uint32_t u = 0; u < s->node->ninsts; u++)
        for (uint32_t k = 0; k < e->m->insts[s->node->insts[u]].nr; k++)
            layout &= cg_nc_buffer_spread(e->m, &e->m->insts[s->node->insts[u]], field, k) >= 0;
    e->uses_zbuf |= in; /* zeros, as a PnetCDF write's single buffer */
    cg_add_proto(e, "/* n pointers into buf, at as far from the first as at says (NULL: all at buf): a PnetCDF\n"
                    " * multi-variable call's buffers, a variable each, laid out as the traced program's. */\n"
                    "static void **buffer_rows(char *buf, long long n, const long long *at)\n{\n"
                    "    static void **rows;\n    static long long cap;\n    if (n > cap) {\n"
                    "        void **grown = realloc(rows, (size_t)n * sizeof *grown);\n        if (!grown)\n"
                    "            return rows;\n        rows = grown;\n        cap = n;\n    }\n"
                    "    long long low = 0;\n    for (long long k = 0; at && k < n; k++)\n"
                    "        low = at[k] < low ? at[k] : low;\n"
                    "    for (long long k = 0; k < n; k++)\n        rows[k] = buf + (at ? at[k] - low : 0);\n"
                    "    return rows;\n}\n");
    sb_printf(out, "(%s)buffer_rows(%s, ", f->args[field].ctype, in ? "zbuf" : "rbuf");
    cg_field_text(e, s, (unsigned)rec_arg_with_role(f, REC_AROLE_ROWS), out);
    sb_puts(out, layout ? ", " : ", NULL");
    snprintf(elem, cap, "long long");
    return layout;
}

/* Field field of s, if some rank recorded values in it (-1 otherwise). */
static int recorded_somewhere(cg_emitter *e, cg_stmtinfo *s, int field)
{
    for (uint32_t u = 0; field >= 0 && u < s->node->ninsts; u++) {
        const cg_inst *in = &e->m->insts[s->node->insts[u]];
        const int64_t *v = cg_inst_values(in, (unsigned)field);
        for (uint32_t k = 0; k < in->nr; k++) {
            uint32_t n = 0;
            cg_arr(e->m, v[k], &n);
            if (n)
                return field;
        }
    }
    return -1;
}

int cg_pointers_field(cg_emitter *e, cg_stmtinfo *s)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    static const unsigned kinds[] = {REC_KIND_NC_STRING_LENGTHS, REC_KIND_NC_VLEN_LENGTHS,
                                     REC_KIND_H5_STRING_LENGTHS, REC_KIND_H5_VLEN_LENGTHS};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        int field = recorded_somewhere(e, s, rec_arg_with_kind(f, kinds[k], REC_ARG_DERIVED));
        if (field >= 0)
            return field;
    }
    return -1;
}

/* One rank's strings: (const char *[]){TEXT(52), NULL}; none (a put of no element, a failed one):
 * the pattern buffer, which the library does not read then. */
static void nc_strings_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    (void)kind;
    uint32_t n = 0;
    const int64_t *len = cg_arr(e->m, v, &n);
    if (!n) {
        sb_puts(out, "(const char **)(void *)wbuf");
        return;
    }
    sb_puts(out, "(const char *[]){");
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            sb_puts(out, ", ");
        if (len[k] < 0)
            sb_puts(out, "NULL");
        else
            sb_printf(out, "TEXT(%lld)", (long long)len[k]);
    }
    sb_putc(out, '}');
}

static void nc_strings_render(cg_emitter *e, const cg_cat *cat, const char *name, sb *out)
{
    e->uses_text = 1;
    cg_render_cat(e, cat, REC_KIND_NC_STRING_LENGTHS, name, "const char **", nc_strings_text, out);
}

/* One rank's variable-length values: (const nc_vlen_t[]){VLEN(3), VLEN(0)}, or HDF5's sequences (kind
 * H5_VLEN_LENGTHS) (const hvl_t[]){HVL(3), HVL(0)} (the field: the base type's element size, then each
 * one's length); none (a put of no element, a failed one): the pattern buffer, which the library does
 * not read then. */
static void vlens_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    const char *type = kind == REC_KIND_H5_VLEN_LENGTHS ? "hvl_t" : "nc_vlen_t",
               *macro = kind == REC_KIND_H5_VLEN_LENGTHS ? "HVL" : "VLEN";
    uint32_t n = 0;
    const int64_t *len = cg_arr(e->m, v, &n);
    if (n < 2) {
        sb_printf(out, "(const %s *)(void *)wbuf", type);
        return;
    }
    sb_printf(out, "(const %s[]){", type);
    for (uint32_t k = 1; k < n; k++)
        sb_printf(out, "%s%s(%lld)", k > 1 ? ", " : "", macro, (long long)(len[k] > 0 ? len[k] : 0));
    sb_putc(out, '}');
}

static void nc_vlens_render(cg_emitter *e, const cg_cat *cat, const char *name, sb *out)
{
    e->uses_vlen = 1;
    cg_render_cat(e, cat, REC_KIND_NC_VLEN_LENGTHS, name, "const nc_vlen_t *", vlens_text, out);
}

int cg_nc_data(cg_emitter *e, cg_stmtinfo *s, const rec_arg_desc *a, sb *out)
{
    const rec_func_desc *f = e->m->insts[s->node->insts[0]].f;
    if ((f->layer != REC_LAYER_PNETCDF && f->layer != REC_LAYER_NETCDF) || !gen_is_pointer(a->ctype))
        return 0;
    e->uses_zbuf = 1;
    int ncid = rec_arg_with_kind(f, REC_KIND_NC_ID, 0), varid = rec_arg_with_kind(f, REC_KIND_NC_VARID, 0);
    if (!e->m->h5store.n || f->layer != REC_LAYER_NETCDF || !(f->flags & REC_FN_WRITE) || ncid < 0 || varid < 0) {
        sb_printf(out, "(%s)(void *)zbuf", a->ctype);
        return 1;
    }
    const int fields[] = {ncid, varid, rec_arg_with_role(f, REC_AROLE_STARTS), rec_arg_with_role(f, REC_AROLE_COUNT),
                          rec_arg_with_role(f, REC_AROLE_STRIDE)};
    sb_printf(out, "(%s)nc_filtered(", a->ctype);
    for (unsigned i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (fields[i] >= 0)
            cg_arg_text(e, s, (unsigned)fields[i], out);
        else
            sb_puts(out, "NULL");
        sb_puts(out, ", ");
    }
    char traits[160];
    gen_nc_mem_traits(a->ctype, traits, sizeof traits);
    sb_printf(out, "%s)", traits);
    e->uses_h5fill = e->uses_ncfill = 1;
    return 1;
}
