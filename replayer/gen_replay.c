/* gen_replay: writes the replayer's dispatch from the function table.
 *   gen_replay OUTDIR  ->  OUTDIR/replay_{posix,mpi,mpiio,hdf5}.c
 * One function per table entry turns a record back into the real call: each
 * argument is rebuilt by its kind (handle ids -> the handles the replay made,
 * paths re-rooted, strings NUL-terminated, arrays as C arrays of the
 * parameter's element type, buffers as scratch memory of the right size,
 * out arguments as local storage), the call goes through its normal,
 * interposable name, and the handles it creates or destroys are entered in
 * or dropped from the replay's maps. Nothing here knows individual
 * functions: the exceptions are macros in replayer/hooks.h, keyed by
 * function (and argument) name. */
#include "gen_replay.h"

#include <stdlib.h>
#include <string.h>

static FILE *out;

/* The parameter's type without a leading const (locals we fill in). */
static const char *mutable_type(const char *ctype)
{
    return strncmp(ctype, "const ", 6) == 0 ? ctype + 6 : ctype;
}

static int is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether a length expression names the return value (not known before the call). */
static int mentions_ret(const char *expr)
{
    for (const char *p = strstr(expr, "ret"); p; p = strstr(p + 1, "ret"))
        if ((p == expr || !is_word_char(p[-1])) && !is_word_char(p[3]))
            return 1;
    return 0;
}

static int find_kind(const rec_func_desc *f, unsigned kind)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if (f->args[i].kind == kind && !(f->args[i].flags & REC_ARG_DERIVED))
            return (int)i;
    return -1;
}

/* A variadic stand-in for a function that takes a va_list (vfprintf): the
 * replay passes its arguments through "..." and the stand-in calls the real
 * function with them. */
static void emit_trampoline(const rec_func_desc *f)
{
    const char *last = "";
    for (unsigned i = 0; i < f->nargs; i++)
        if (!gen_is_va_list(&f->args[i]) && !(f->args[i].flags & REC_ARG_DERIVED))
            last = f->args[i].name;
    fprintf(out, "static %s rp_tramp_%s(", f->ret_ctype, f->name);
    gen_print_params(out, f, GEN_PARAM_NAMES | GEN_PARAM_ELLIPSIS);
    fprintf(out, ")\n{\n    va_list rp_ap;\n    va_start(rp_ap, %s);\n    %s ret = %s(", last, f->ret_ctype,
            f->name);
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++)
        if (!(f->args[i].flags & REC_ARG_DERIVED))
            fprintf(out, "%s%s", n++ ? ", " : "", gen_is_va_list(&f->args[i]) ? "rp_ap" : f->args[i].name);
    fprintf(out, ");\n    va_end(rp_ap);\n    return ret;\n}\n");
}

#define SKIP " {\n        rp_skip(rp_x, rp_r);\n        return;\n    }\n"

/* Phase 1: values the call reads, taken from the record. */
static void emit_in(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    const char *n = a->name;
    char elem[128];
    rec_ctype_element(a->ctype, elem, sizeof elem);
    unsigned k = a->kind;
    rec_class cls = rec_kind_class(k);
    if (rec_kind_is_handle(k)) {
        if (rec_arg_by_pointer(a) && gen_is_out_only(a))
            return; /* phase 2 */
        if ((a->flags & REC_ARG_CREATE) && rec_kind_pointer_is_value(k) && gen_is_pointer(a->ctype)) {
            /* the object at the address the call is given: the replay's own, which the handle keeps */
            fprintf(out, "    %s %s = rp_object_new(rp_x, sizeof(%s));\n    if (!%s)" SKIP, a->ctype, n, elem, n);
            return;
        }
        /* A destroying call frees the latest reference (handles.c). */
        int releases = i == REC_ARG_SUBJECT && (f->flags & REC_FN_DESTROYS);
        fprintf(out,
                "    uint64_t rp_h%u = 0;\n    if (rp_handle_%s(rp_x, REC_KIND_%s, rp_r->args[%u].i, "
                "&rp_h%u))" SKIP,
                i, releases ? "latest" : "in", rec_kind_name(k), i, i);
        if (rec_arg_by_pointer(a))
            fprintf(out, "    %s rp_v_%s = (%s)(uintptr_t)rp_h%u;\n    %s %s = &rp_v_%s;\n", elem, n, elem, i,
                    a->ctype, n, n);
        else
            fprintf(out, "    %s %s = (%s)(uintptr_t)rp_h%u;\n", a->ctype, n, a->ctype, i);
        gen_replay_tune_arg(out, f, i); /* a tuning set's hints and lists */
        return;
    }
    switch (k) {
    case REC_KIND_PATH:
        /* A link's target is re-rooted as a target; an external link's file need not exist. */
        fprintf(out, "    const char *%s = NULL;\n    if (rp_path(rp_x, rp_r, %u, %s, &%s))" SKIP, n, i,
                a->role == REC_AROLE_LINK_TARGET ? "RP_PATH_LINK_TARGET"
                : a->role == REC_AROLE_LINK_FILE ? "RP_PATH_NO_PARENT"
                                                 : "RP_PATH_NORMAL",
                n);
        return;
    case REC_KIND_STRING:
    case REC_KIND_STDIO_MODE:
        fprintf(out, "    %s %s = rp_str(rp_x, &rp_r->args[%u]);\n", a->ctype, n, i);
        return;
    case REC_KIND_STRLEN:
        fprintf(
            out,
            "    %s %s = rp_pattern_str(rp_x, rp_r->args[%u].i);\n    if (!%s) {\n        rp_x->reason = "
            "\"the traced call passed no string\";\n        rp_skip(rp_x, rp_r);\n        return;\n    }\n",
            a->ctype, n, i, n);
        return;
    case REC_KIND_FORMAT: {
        int bytes = rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED);
        if (strstr(a->ctype, "wchar_t")) /* as many spaces as the stream took bytes (the traced result when unknown) */
            fprintf(out,
                    "    %s %s = L\"%%*ls\";\n    int rp_fmt_width = (int)(rp_r->args[%d].i >= 0 ? rp_r->args[%d].i : "
                    "rp_r->ret.i > 0 ? rp_r->ret.i : 0);\n    const wchar_t *rp_fmt_arg = L\"\";\n",
                    a->ctype, n, bytes, bytes);
        else
            fprintf(out,
                    "    %s %s = \"%%s\";\n    char *rp_fmt_arg = rp_pattern_str(rp_x, rp_r->ret.i > 0 ? "
                    "rp_r->ret.i : 0);\n",
                    a->ctype, n);
        return;
    }
    case REC_KIND_SCAN_FORMAT: /* reads the bytes the traced scan read, making as many conversions */
        fprintf(out, "    %s %s = %sscan_format(rp_r->ret.i, rp_r->args[%d].i);\n", a->ctype, n,
                strstr(a->ctype, "wchar_t") ? "w" : "", rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED));
        return;
    case REC_KIND_DOUBLE:
        fprintf(out, "    double %s;\n    memcpy(&%s, &rp_r->args[%u].i, sizeof %s);\n", n, n, i, n);
        return;
    case REC_KIND_IOVEC:
        fprintf(out, "    struct iovec *%s = rp_iovec(rp_x, &rp_r->args[%u], %d);\n", n, i,
                (f->flags & REC_FN_WRITE) ? 1 : 0);
        return;
    case REC_KIND_MPI_DATATYPE_ARRAY:
        fprintf(out,
                "    MPI_Datatype *%s = NULL;\n    if (rp_datatype_array(rp_x, &rp_r->args[%u], &%s))" SKIP,
                n, i, n);
        return;
    case REC_KIND_MPI_REQUEST_ARRAY:
        fprintf(out, "    MPI_Request *%s = rp_request_array(rp_x, &rp_r->args[%u], 0);\n", n, i);
        return;
    case REC_KIND_NC_REQUEST_ARRAY:
        fprintf(out, "    int *%s = rp_nc_request_array(rp_x, &rp_r->args[%u]);\n", n, i);
        return;
    case REC_KIND_NC_OFFSET_ROWS: /* the recorded rows, as many as the ROWS argument says */
        fprintf(out, "    MPI_Offset **%s = rp_nc_offset_rows(rp_x, &rp_r->args[%u], rp_r->args[%d].i);\n", n, i,
                rec_arg_with_role(f, REC_AROLE_ROWS));
        return;
    case REC_KIND_NC_VALUES:
        fprintf(out, "    %s %s = rp_nc_values(rp_x, &rp_r->args[%u]);\n", a->ctype, n, i);
        return;
    case REC_KIND_NC_STRINGS:
        fprintf(out, "    %s %s = rp_nc_attribute_strings(rp_x, &rp_r->args[%u]);\n", a->ctype, n, i);
        return;
    case REC_KIND_BUFFER_ARRAY: /* buffers: emit_buffer_rows */
        return;
    case REC_KIND_CALLBACK: /* the application's function is its code: the stand-in for its id
                               (gen_replay_callbacks.c) */
        if (gen_callback_template(a->ctype)) {
            char type[128];
            rec_ctype_element(a->ctype, type, sizeof type);
            fprintf(out,
                    "    %s %s = rp_r->args[%u].i > 0 ? rp_callbacks_%s[rp_r->args[%u].i < RP_CALLBACKS ? "
                    "rp_r->args[%u].i : RP_CALLBACKS] : NULL;\n",
                    a->ctype, n, i, type, i, i);
        } else {
            fprintf(out,
                    "    %s %s = NULL;\n    rp_x->reason = \"a callback the replay has no stand-in for\";\n"
                    "    rp_skip(rp_x, rp_r);\n    return;\n",
                    a->ctype, n);
        }
        return;
    case REC_KIND_H5_ENCODED: /* the recorded bytes; none: NULL, which fails as the traced call did */
        fprintf(out, "    %s %s = rp_r->args[%u].len ? rp_r->args[%u].s : NULL;\n", a->ctype, n, i, i);
        return;
    case REC_KIND_H5_VALUE: /* the recorded value, references in the subject's file; not kept: the hook's */
        fprintf(out, "    %s %s = rp_h5_value(&rp_r->args[%u], (hid_t)(%s));\n", a->ctype, n, i,
                f->args[REC_ARG_SUBJECT].name);
        fprintf(out, "#ifdef RP_VALUE_%s_%s\n    if (rp_r->args[%u].len == REC_H5_VALUE_UNKEPT)\n", f->name, n, i);
        fprintf(out, "        %s = RP_VALUE_%s_%s;\n#endif\n", n, f->name, n);
        return;
    default:
        break;
    }
    if (cls == REC_CLASS_ARRAY) {
        if (gen_is_out_only(a))
            return; /* phase 2 */
        /* IN (or IN|OUT) arrays: the recorded values; an in/out array is at
         * least as long as its length expression says. */
        const char *min = (a->flags & REC_ARG_OUT) && !mentions_ret(a->len) && *a->len ? a->len : "0";
        if (strstr(a->ctype, "rec_int3")) /* rows of three ints, recorded as ints */
            fprintf(out, "    rec_int3 *%s = (rec_int3 *)RP_ARRAY(rp_x, &rp_r->args[%u], %s, %s);\n", n, i, elem, min);
        else
            fprintf(out, "    %s *%s = RP_ARRAY(rp_x, &rp_r->args[%u], %s, %s);\n", elem, n, i, elem, min);
        return;
    }
    if (cls == REC_CLASS_NONE || k == REC_KIND_STRING_OUT || k == REC_KIND_STATBUF ||
        k == REC_KIND_MPI_STATUS)
        return; /* buffers, addresses, out storage: phase 2 and 3 */
    if (rec_arg_by_pointer(a)) {
        if (gen_is_out_only(a))
            return;
        fprintf(out, "    %s rp_v_%s = (%s)rp_r->args[%u].i;\n    %s %s = &rp_v_%s;\n", elem, n, elem, i,
                mutable_type(a->ctype), n, n);
        return;
    }
    if (rec_kind_has_mpi_constants(k)) { /* recorded canonically: this MPI's value */
        fprintf(out,
                "#ifdef RP_IN_%s_%s\n    %s %s = RP_IN_%s_%s;\n#else\n    %s %s = "
                "(%s)rp_mpi_constant(REC_KIND_%s, "
                "rp_r->args[%u].i);\n#endif\n",
                f->name, n, a->ctype, n, f->name, n, a->ctype, n, a->ctype, rec_kind_name(k), i);
        return;
    }
    fprintf(
        out,
        "#ifdef RP_IN_%s_%s\n    %s %s = RP_IN_%s_%s;\n#else\n    %s %s = (%s)rp_r->args[%u].i;\n#endif\n",
        f->name, n, a->ctype, n, f->name, n, a->ctype, n, a->ctype, i);
}

/* Phase 2: storage for what the call writes. */
static void emit_out(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    const char *n = a->name;
    char elem[128];
    rec_ctype_element(a->ctype, elem, sizeof elem);
    unsigned k = a->kind;
    rec_class cls = rec_kind_class(k);
    if (gen_is_va_list(a) || (a->flags & REC_ARG_DERIVED) || k == REC_KIND_NC_VALUES || /* values: phase 1 */
        k == REC_KIND_BUFFER_ARRAY)
        return;
    if (rec_kind_is_handle(k)) {
        if (rec_arg_by_pointer(a) && gen_is_out_only(a))
            fprintf(out, "    %s rp_v_%s;\n    memset(&rp_v_%s, 0, sizeof rp_v_%s);\n    %s %s = &rp_v_%s;\n",
                    elem, n, n, n, a->ctype, n, n);
        return;
    }
    if (k == REC_KIND_NONE) { /* not recorded (a pthread attribute): the default */
        if (gen_is_pointer(a->ctype))
            fprintf(out, "    %s %s = NULL;\n", a->ctype, n);
        else
            fprintf(out, "    %s %s;\n    memset(&%s, 0, sizeof %s);\n", mutable_type(a->ctype), n, n, n);
        return;
    }
    if (k == REC_KIND_MPI_STATUS && gen_is_out_only(a)) {
        /* -1: the application passed MPI_STATUS_IGNORE (or the call failed). */
        fprintf(out,
                "    %s rp_v_%s;\n    memset(&rp_v_%s, 0, sizeof rp_v_%s);\n"
                "    %s %s = rp_r->args[%u].i == -1 ? MPI_STATUS_IGNORE : &rp_v_%s;\n",
                elem, n, n, n, a->ctype, n, i, n);
        return;
    }
    if (k == REC_KIND_STATBUF) {
        fprintf(out, "    %s rp_v_%s;\n    memset(&rp_v_%s, 0, sizeof rp_v_%s);\n    %s %s = &rp_v_%s;\n",
                elem, n, n, n, a->ctype, n, n);
        return;
    }
    if (k == REC_KIND_MPI_STATUS) {
        fprintf(out, "    %s %s = &rp_x->last_status;\n", a->ctype, n);
        return;
    }
    if (k == REC_KIND_STRING_OUT || (cls == REC_CLASS_ARRAY && gen_is_out_only(a))) {
        /* Room for the largest of: what was recorded, the length expression
         * when it is known before the call, and every count argument. */
        const char *unit = k == REC_KIND_STRING_OUT ? "char" : elem;
        fprintf(out, "    size_t rp_n%u = rp_out_len(&rp_r->args[%u], %s);\n", i, i,
                *a->len && !mentions_ret(a->len) ? a->len : "0");
        for (unsigned j = 0; j < f->nargs; j++) {
            const rec_arg_desc *b = &f->args[j];
            if ((b->kind == REC_KIND_SIZE || b->kind == REC_KIND_COUNT) && !gen_is_pointer(b->ctype) &&
                !(b->flags & REC_ARG_DERIVED) && !gen_is_out_only(b))
                fprintf(out,
                        "    if ((long)(%s) > 0 && (size_t)(%s) < ((size_t)1 << 24) && (size_t)(%s) + 1 > "
                        "rp_n%u)\n        rp_n%u = (size_t)(%s) + 1;\n",
                        b->name, b->name, b->name, i, i, b->name);
        }
        fprintf(out, "    %s *%s = rp_alloc(rp_x, rp_n%u * sizeof(%s));\n", unit, n, i, unit);
        /* An array as long as the result recorded empty beside a positive
         * result was NULL (H5Sget_simple_extent_dims without maxdims). */
        if (cls == REC_CLASS_ARRAY && mentions_ret(a->len))
            fprintf(out, "    if (rp_r->args[%u].len == 0 && rp_r->ret.i > 0)\n        %s = NULL;\n", i, n);
        if (k == REC_KIND_MPI_STATUS_ARRAY)
            fprintf(out, "    if (rp_statuses_ignored(&rp_r->args[%u]))\n        %s = MPI_STATUSES_IGNORE;\n",
                    i, n);
        return;
    }
    if (k == REC_KIND_ADDRESS) {
        const char *op_ret;
        fprintf(out, "#ifdef RP_ADDR_%s_%s\n    %s %s = RP_ADDR_%s_%s;\n#else\n", f->name, n, a->ctype, n,
                f->name, n);
        int data = -1;
        if (gen_counted_operator(f, &data) >= 0 && data == (int)i) /* where the traced operator stopped */
            fprintf(out, "    %s %s = rp_op_stop(rp_x, rp_r->args[%d].i, rp_r->ret.i);\n", a->ctype, n,
                    rec_arg_with_kind(f, REC_KIND_OP_CALLS, REC_ARG_DERIVED));
        else         if (!(a->flags & REC_ARG_OUT) && rec_operator_params(a->ctype, &op_ret))
            fprintf(out, "    %s %s = rp_noop_%s;\n", a->ctype, n, a->ctype); /* gen_replay_callbacks.c */
        else if (!gen_is_pointer(a->ctype))
            fprintf(out, "    %s %s = 0;\n", a->ctype, n);
        else if (!(a->flags & REC_ARG_OUT))
            fprintf(out, "    %s %s = NULL;\n", a->ctype, n);
        else if (!strcmp(elem, "char") || !strcmp(elem, "void"))
            fprintf(out, "    %s %s = rp_alloc(rp_x, 65536);\n", a->ctype, n);
        else
            fprintf(out, "    %s rp_v_%s;\n    memset(&rp_v_%s, 0, sizeof rp_v_%s);\n    %s %s = &rp_v_%s;\n",
                    elem, n, n, n, a->ctype, n, n);
        fprintf(out, "#endif\n");
        return;
    }
    if (rec_arg_by_pointer(a) && gen_is_out_only(a)) {
        fprintf(out, "    %s rp_v_%s;\n    memset(&rp_v_%s, 0, sizeof rp_v_%s);\n    %s %s = &rp_v_%s;\n",
                elem, n, n, n, a->ctype, n, n);
        if (rec_arg_minus_one_is_null(f, i)) /* the program passed none */
            fprintf(out, "    if (rp_r->args[%u].i == -1)\n        %s = NULL;\n", i, n);
    }
}

/* How many elements a count stands for in a buffer: the ranks, for a root's
 * share of a collective. */
static const char *count_factor(const rec_func_desc *f)
{
    return (f->flags & REC_FN_COLLECTIVE) && find_kind(f, REC_KIND_MPI_COMM) >= 0
               ? "(size_t)rp_maxz(1, comm_size(comm))"
               : "1";
}

/* An MPI call whose one buffer holds `count` elements of `datatype` (MPI-IO
 * reads and writes, broadcasts, sends and receives; not reductions, whose
 * op needs the type, nor *v calls): when no buffer fits that datatype, the
 * same bytes can go as MPI_BYTE (rp_mpi_as_bytes). The index of the count,
 * that of the datatype in *type; -1 when the call is not one. */
static int bytes_instead(const rec_func_desc *f, int *type)
{
    int count = -1, buffers = 0;
    *type = -1;
    if (f->layer != REC_LAYER_MPI && f->layer != REC_LAYER_MPIIO)
        return -1;
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if (a->flags & REC_ARG_DERIVED)
            continue;
        if (rec_kind_class(a->kind) == REC_CLASS_ARRAY || a->kind == REC_KIND_MPI_OP)
            return -1;
        if (a->kind == REC_KIND_BUFFER)
            buffers++;
        else if (a->kind == REC_KIND_COUNT) {
            if (count >= 0 || strcmp(a->ctype, "int") || gen_is_out_only(a))
                return -1;
            count = (int)i;
        } else if (a->kind == REC_KIND_MPI_DATATYPE) {
            if (*type >= 0 || strcmp(a->ctype, "MPI_Datatype"))
                return -1;
            *type = (int)i;
        }
    }
    return buffers == 1 && *type >= 0 ? count : -1;
}

/* The DERIVED SIZE argument of f (the bytes it moved), or -1. */
static int derived_size(const rec_func_desc *f)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if (f->args[i].kind == REC_KIND_SIZE && (f->args[i].flags & REC_ARG_DERIVED))
            return (int)i;
    return -1;
}

/* A BUFFER_ARRAY (PnetCDF mput's bufs): rp_buffer_rows, from its layout, the ROWS argument, the traced
 * bytes and the counts a row (the ARRAY as long as the MPI_DATATYPE_ARRAY) of its datatypes. */
static void emit_buffer_rows(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    int types = find_kind(f, REC_KIND_MPI_DATATYPE_ARRAY), counts = -1;
    for (unsigned j = 0; types >= 0 && j < f->nargs; j++)
        if (f->args[j].kind == REC_KIND_ARRAY && !strcmp(f->args[j].len, f->args[types].len))
            counts = (int)j;
    fprintf(out, "    %s %s = (%s)rp_buffer_rows(rp_x, rp_r, %u, %d, %d, %d, %d, %s);\n    if (!%s)" SKIP, a->ctype,
            a->name, a->ctype, i, !(a->flags & REC_ARG_OUT), rec_arg_with_role(f, REC_AROLE_ROWS), derived_size(f),
            counts, counts >= 0 ? f->args[types].name : "NULL", a->name);
}

/* The bytes a buffer argument needs, as a C expression, by layer. */
static void emit_buffer(const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    const char *n = a->name;
    if (a->kind == REC_KIND_BUFFER_ARRAY)
        emit_buffer_rows(f, i);
    if (a->kind != REC_KIND_BUFFER)
        return;
    if (!gen_is_pointer(a->ctype)) { /* fputc's character */
        fprintf(out, "    %s %s = 'R';\n", a->ctype, n);
        return;
    }
    int in = (a->flags & REC_ARG_IN) && !(a->flags & REC_ARG_OUT);
    fprintf(out, "#ifdef RP_BUFFER_%s_%s\n    %s %s = RP_BUFFER_%s_%s;\n#else\n", f->name, n, a->ctype, n,
            f->name, n);
    if (f->layer == REC_LAYER_POSIX) {
        fprintf(out, "    size_t rp_b%u = 1", i);
        for (unsigned j = 0; j < f->nargs; j++) {
            const rec_arg_desc *b = &f->args[j];
            if ((b->kind == REC_KIND_SIZE || b->kind == REC_KIND_COUNT) && !gen_is_pointer(b->ctype) &&
                !(b->flags & REC_ARG_DERIVED))
                fprintf(out, " * (size_t)((%s) > 0 ? (%s) : 0)", b->name, b->name);
        }
        fprintf(out, ";\n    %s %s = rp_scratch(rp_x, %d, rp_b%u ? rp_b%u : 1);\n", a->ctype, n, in, i, i);
    } else if (f->layer == REC_LAYER_MPI || f->layer == REC_LAYER_MPIIO) {
        int fh = find_kind(f, REC_KIND_MPI_FILE), type = -1, count = bytes_instead(f, &type);
        int counted = 0;
        for (unsigned j = 0; j < f->nargs; j++)
            counted |=
                f->args[j].kind == REC_KIND_COUNT || rec_kind_class(f->args[j].kind) == REC_CLASS_ARRAY;
        if (fh >= 0 && !counted) {
            /* A split collective's _end: the buffer its _begin was given. */
            fprintf(out, "    %s %s = rp_handle_pending(rp_x, REC_KIND_MPI_FILE, rp_r->args[%d].i);\n",
                    a->ctype, n, fh);
        } else {
            /* Elements: the largest count (times the ranks, for a root's
             * share of a collective), or the counts and displacements of a
             * *v call added up (an upper bound of max(displs[i] + counts[i])). */
            if (count >= 0)
                fprintf(out, "    rp_mpi_as_bytes(rp_x, rp_r, %s, &%s, &%s);\n", count_factor(f),
                        f->args[count].name, f->args[type].name);
            fprintf(out, "    size_t rp_e%u = 1, rp_s%u = 1, rp_a%u = 0;\n", i, i, i);
            for (unsigned j = 0; j < f->nargs; j++) {
                const rec_arg_desc *b = &f->args[j];
                if (b->kind == REC_KIND_COUNT && !gen_is_pointer(b->ctype))
                    fprintf(out,
                            "    if ((size_t)((%s) > 0 ? (%s) : 0) * %s > rp_e%u)\n        rp_e%u = "
                            "(size_t)((%s) > 0 ? (%s) : 0) * %s;\n",
                            b->name, b->name, count_factor(f), i, i, b->name, b->name, count_factor(f));
                else if (b->kind == REC_KIND_ARRAY)
                    fprintf(out, "    rp_a%u += (size_t)rp_array_bound(&rp_r->args[%u]);\n", i, j);
                else if (b->kind == REC_KIND_MPI_DATATYPE && !gen_is_pointer(b->ctype))
                    fprintf(out, "    if (rp_mpi_span(%s) > rp_s%u)\n        rp_s%u = rp_mpi_span(%s);\n",
                            b->name, i, i, b->name);
            }
            fprintf(out, "    if (rp_a%u > rp_e%u)\n        rp_e%u = rp_a%u;\n", i, i, i, i);
            if (f->flags & REC_FN_NONBLOCKING)
                fprintf(out, "    %s %s = rp_owned(rp_x, %d, rp_e%u * rp_s%u + 64);\n", a->ctype, n, in, i,
                        i);
            else
                fprintf(out, "    %s %s = rp_scratch(rp_x, %d, rp_e%u * rp_s%u + 64);\n", a->ctype, n, in, i,
                        i);
        }
    } else if (derived_size(f) >= 0) {
        /* the bytes the traced call moved (PnetCDF: its elements in memory), kept until
         * the request completes for a nonblocking call */
        fprintf(out, "    size_t rp_b%u = rp_r->args[%d].i > 0 ? (size_t)rp_r->args[%d].i : 0;\n", i, derived_size(f),
                derived_size(f));
        /* a flexible call's buffer spans bufcount of its buftype's extent (a subarray type's holes too;
         * not vard's filetype, the file's) */
        int type = -1, count = -1;
        for (unsigned j = 0; j < f->nargs; j++)
            if (f->args[j].kind == REC_KIND_COUNT && !gen_is_pointer(f->args[j].ctype) &&
                !(f->args[j].flags & REC_ARG_DERIVED) && f->args[j].role != REC_AROLE_ROWS)
                count = (int)j;
            else if (f->args[j].kind == REC_KIND_MPI_DATATYPE && f->args[j].role != REC_AROLE_VIEW_FILETYPE)
                type = (int)j;
        if (type >= 0 && count >= 0 && !gen_is_pointer(f->args[type].ctype))
            fprintf(out,
                    "    if ((%s) > 0 && (size_t)(%s) * rp_mpi_span(%s) > rp_b%u)\n        rp_b%u = (size_t)(%s) * "
                    "rp_mpi_span(%s);\n",
                    f->args[count].name, f->args[count].name, f->args[type].name, i, i, f->args[count].name,
                    f->args[type].name);
        fprintf(out, "    %s %s = %s(rp_x, %d, rp_b%u + 64);\n", a->ctype, n,
                f->flags & REC_FN_NONBLOCKING ? "rp_owned" : "rp_scratch", in, i);
        if (in) /* zeros: a value of every type, which PnetCDF converts without NC_ERANGE (the pattern's
                 * bytes read as doubles are no float) */
            fprintf(out, "    if (%s)\n        memset((void *)%s, 0, rp_b%u + 64);\n", n, n, i);
        int pointers = in && gen_replay_nc_pointers(out, f, n, a->ctype);
        int ncid = find_kind(f, REC_KIND_NC_ID), varid = find_kind(f, REC_KIND_NC_VARID);
        if (in && f->layer == REC_LAYER_NETCDF && (f->flags & REC_FN_WRITE) && ncid >= 0 && varid >= 0) {
            /* what a filtered variable's filters store as they did in the trace (strings: none) */
            int at[3] = {rec_arg_with_role(f, REC_AROLE_STARTS), rec_arg_with_role(f, REC_AROLE_COUNT),
                         rec_arg_with_role(f, REC_AROLE_STRIDE)};
            char traits[160];
            gen_nc_mem_traits(a->ctype, traits, sizeof traits);
            fprintf(out, "%s    %s = (%s)rp_nc_filtered(rp_x, %s, %s, %s, %s, %s, %s, %s);\n",
                    pointers ? "    else\n    " : "", n, a->ctype, f->args[ncid].name, f->args[varid].name,
                    at[0] >= 0 ? f->args[at[0]].name : "NULL", at[1] >= 0 ? f->args[at[1]].name : "NULL",
                    at[2] >= 0 ? f->args[at[2]].name : "NULL", traits, n);
        }
    } else {
        fprintf(out, "    %s %s = NULL;\n    rp_x->reason = \"no rule gives the size of its buffer\";\n",
                a->ctype, n);
    }
    fprintf(out, "#endif\n");
    if (in)
        gen_replay_h5_pointers(out, f, n);
    fprintf(out, "    if (!%s)" SKIP, n);
}

static void emit_call_args(const rec_func_desc *f)
{
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if ((a->flags & REC_ARG_DERIVED) || gen_is_va_list(a))
            continue;
        fprintf(out, "%s%s", n++ ? ", " : "", a->name);
    }
    int format = find_kind(f, REC_KIND_FORMAT);
    if (format >= 0)
        fprintf(out, "%s%srp_fmt_arg", n++ ? ", " : "", strstr(f->args[format].ctype, "wchar_t") ? "rp_fmt_width, " : "");
    if (find_kind(f, REC_KIND_SCAN_FORMAT) >= 0)
        fprintf(out, "%sSCAN_TO", n++ ? ", " : "");
}

/* The bytes the replayed call moved, after it returned. */
static void emit_bytes(const rec_func_desc *f)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if ((f->args[i].flags & REC_ARG_DERIVED) && f->args[i].kind == REC_KIND_SIZE) {
            char stream[64];
            /* the traced bytes, which the call was made to move; PnetCDF's and netCDF's, as
             * their queries call their API, which a traced replay would record as its own */
            if (gen_measures_position(f, stream, sizeof stream) || f->layer == REC_LAYER_PNETCDF ||
                f->layer == REC_LAYER_NETCDF)
                fprintf(out, "    int64_t rp_bytes = ok && rp_r->args[%u].i > 0 ? rp_r->args[%u].i : 0;\n", i, i);
            else
                fprintf(out, "    int64_t rp_bytes = ok ? (int64_t)(%s) : 0;\n", f->args[i].len);
            return;
        }
    int strlen_arg = find_kind(f, REC_KIND_STRLEN), buffer = find_kind(f, REC_KIND_BUFFER),
        size = find_kind(f, REC_KIND_SIZE);
    if (!(f->flags & REC_FN_DATA) || !strcmp(f->ret_ctype, "void"))
        fprintf(out, "    int64_t rp_bytes = 0;\n");
    else if (gen_is_pointer(f->ret_ctype) && buffer >= 0)
        fprintf(out, "    int64_t rp_bytes = ok ? (int64_t)strlen(%s) : 0;\n", f->args[buffer].name);
    else if (f->fail == REC_FAIL_EOF && f->ret_kind == REC_KIND_SIZE)
        fprintf(out, "    int64_t rp_bytes = ok ? 1 : 0;\n");
    else if (f->ret_kind == REC_KIND_COUNT && size >= 0)
        fprintf(out, "    int64_t rp_bytes = (int64_t)ret * (int64_t)%s;\n", f->args[size].name);
    else if (strlen_arg >= 0)
        fprintf(out, "    int64_t rp_bytes = ok ? (int64_t)strlen(%s) : 0;\n", f->args[strlen_arg].name);
    else
        fprintf(out, "    int64_t rp_bytes = (int64_t)ret > 0 ? (int64_t)ret : 0;\n");
}

/* After the call: the handles it made and released, the buffers it keeps. */
static void emit_post(const rec_func_desc *f)
{
    int path = find_kind(f, REC_KIND_PATH), fd = find_kind(f, REC_KIND_FD);
    char key[128];
    if (path >= 0)
        snprintf(key, sizeof key, "rp_x->pathkey[%d]", path);
    else if (fd >= 0)
        snprintf(key, sizeof key, "rp_handle_path(rp_x, REC_KIND_FD, rp_r->args[%d].i)", fd);
    else
        snprintf(key, sizeof key, "NULL");
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if (rec_kind_is_handle(a->kind) && (a->flags & REC_ARG_CREATE) && rec_kind_pointer_is_value(a->kind) &&
            gen_is_pointer(a->ctype)) /* the object the replay gave the call, kept with the handle */
            fprintf(out,
                    "    if (ok) {\n        rp_handle_new(rp_x, REC_KIND_%s, rp_r->args[%u].i, (uint64_t)(uintptr_t)%s, "
                    "%s);\n        rp_handle_attach(rp_x, REC_KIND_%s, rp_r->args[%u].i, (void *)%s);\n    } else {\n"
                    "        free((void *)%s);\n    }\n",
                    rec_kind_name(a->kind), i, a->name, key, rec_kind_name(a->kind), i, a->name, a->name);
        else if (rec_kind_is_handle(a->kind) && (a->flags & REC_ARG_CREATE))
            fprintf(out,
                    "    if (ok)\n        rp_handle_new(rp_x, REC_KIND_%s, rp_r->args[%u].i, "
                    "(uint64_t)(uintptr_t)rp_v_%s, %s);\n",
                    rec_kind_name(a->kind), i, a->name, key);
        if (a->kind == REC_KIND_MPI_STATUS && gen_is_out_only(a))
            fprintf(out, "    if (%s != MPI_STATUS_IGNORE)\n        rp_x->last_status = rp_v_%s;\n", a->name,
                    a->name);
        if (a->kind == REC_KIND_MPI_REQUEST_ARRAY)
            fprintf(out, "    rp_requests_settle(rp_x, &rp_r->args[%u], %s, rp_r->args[%u].len);\n", i,
                    a->name, i);
        if (a->kind == REC_KIND_MPI_REQUEST && rec_arg_by_pointer(a) && !gen_is_out_only(a))
            fprintf(out, "    rp_requests_settle(rp_x, &rp_r->args[%u], %s, 1);\n", i, a->name);
    }
    if (rec_kind_is_handle(f->ret_kind) && (f->flags & REC_FN_CREATES))
        fprintf(out,
                "    if (ok)\n        rp_handle_new(rp_x, REC_KIND_%s, rp_r->ret.i, "
                "(uint64_t)(uintptr_t)ret, %s);\n",
                rec_kind_name(f->ret_kind), key);
    /* Buffers a nonblocking call keeps until it completes. */
    int req = -1, fh = find_kind(f, REC_KIND_MPI_FILE);
    for (unsigned i = 0; i < f->nargs; i++)
        if (f->args[i].kind == REC_KIND_MPI_REQUEST && (f->args[i].flags & REC_ARG_CREATE))
            req = (int)i;
    int counted = 0;
    for (unsigned j = 0; j < f->nargs; j++)
        counted |= f->args[j].kind == REC_KIND_COUNT;
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if (a->kind != REC_KIND_BUFFER || !gen_is_pointer(a->ctype) || f->layer == REC_LAYER_POSIX ||
            f->layer == REC_LAYER_HDF5)
            continue;
        if (f->flags & REC_FN_NONBLOCKING) {
            if (req >= 0)
                fprintf(out,
                        "    rp_handle_attach(rp_x, REC_KIND_MPI_REQUEST, ok ? rp_r->args[%d].i : -1, (void "
                        "*)%s);\n",
                        req, a->name);
            else if (fh >= 0)
                fprintf(out,
                        "    rp_handle_attach(rp_x, REC_KIND_MPI_FILE, ok ? rp_r->args[%d].i : -1, (void "
                        "*)%s);\n",
                        fh, a->name);
        } else if (fh >= 0 && !counted) {
            fprintf(out, "    rp_handle_release(rp_x, REC_KIND_MPI_FILE, rp_r->args[%d].i);\n", fh);
        }
    }
    /* References as the trace counted them (tracer/handles.c). */
    int change = rec_func_reference_change(f);
    if (change)
        fprintf(out, "    if (ok)\n        rp_handle_%s(rp_x, REC_KIND_%s, rp_r->args[%u].i);\n",
                change < 0 ? "drop" : "retain", rec_kind_name(f->args[REC_ARG_SUBJECT].kind), REC_ARG_SUBJECT);
}

/* The call of f's base in place of f (gen_narrow_base), under #if !REC_HAVE_MPI4:
 * counts that do not fit the base's int skip the call, with the reason. */
static void emit_narrowed_call(const rec_func_desc *f, const rec_func_desc *b)
{
    fprintf(out, "#if REC_HAVE_MPI4\n    ret = %s(", f->name);
    emit_call_args(f);
    fprintf(out, ");\n#else /* this MPI lacks MPI-4's large counts: %s, while each count fits an int */\n",
            b->name);
    for (unsigned i = 0; i < f->nargs; i++)
        if (gen_count_out(&f->args[i]))
            fprintf(out, "    int rp_n%u = 0;\n", i);
    fprintf(out, "    ret = %s(", b->name);
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if (a->flags & REC_ARG_DERIVED)
            continue;
        if (gen_count_out(a))
            fprintf(out, "%s%s ? &rp_n%u : NULL", n++ ? ", " : "", a->name, i);
        else if (!strcmp(a->ctype, "MPI_Count"))
            fprintf(out, "%s(%s)%s", n++ ? ", " : "", b->args[i].ctype, a->name);
        else
            fprintf(out, "%s%s", n++ ? ", " : "", a->name);
    }
    fprintf(out, ");\n");
    for (unsigned i = 0; i < f->nargs; i++)
        if (gen_count_out(&f->args[i]))
            fprintf(out, "    if (%s)\n        *%s = rp_n%u;\n", f->args[i].name, f->args[i].name, i);
    fprintf(out, "#endif\n");
}

/* Before the narrowed call: a count past int is not replayed. */
static void emit_narrowing_check(const rec_func_desc *f, const rec_func_desc *b)
{
    int any = 0;
    for (unsigned i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i].ctype, "MPI_Count") && !strcmp(b->args[i].ctype, "int") &&
            !(f->args[i].flags & REC_ARG_DERIVED)) {
            fprintf(out, "%s(%s < INT_MIN || %s > INT_MAX)",
                    any++ ? " ||\n        " : "#if !REC_HAVE_MPI4\n    if (", f->args[i].name,
                    f->args[i].name);
        }
    if (any)
        fprintf(
            out,
            ") {\n        rp_x->reason = \"a count past an int, and this MPI lacks MPI-4's large counts\";\n"
            "        rp_skip(rp_x, rp_r);\n        return;\n    }\n#endif\n");
}

/* The call itself, from rp_begin on. */
static void emit_call(const rec_func_desc *f, int is_void)
{
    fprintf(out, "    rp_begin(rp_x, rp_r);\n    RP_TAKE_TURN(rp_x);\n    ");
    if (!is_void)
        fprintf(out, "%s ret = ", f->ret_ctype);
    if (f->flags & REC_FN_NODECL)
        fprintf(out, "rp_real(");
    else if (gen_has_va_list(f))
        fprintf(out, "rp_tramp_%s(", f->name);
    else
        fprintf(out, "%s(", f->name);
    emit_call_args(f);
    fprintf(out, ");\n");
}

/* The guard around f's replay: none when an MPI without f can replay it through its base. */
static const char *replay_guard_begin(const rec_func_desc *f)
{
    return gen_narrow_base(f) ? "" : gen_guard_begin(f);
}

static const char *replay_guard_end(const rec_func_desc *f)
{
    return gen_narrow_base(f) ? "" : gen_guard_end(f);
}

static void emit_function(const rec_func_desc *f)
{
    int is_void = strcmp(f->ret_ctype, "void") == 0;
    fprintf(out, "\n/* %s (id %u) */\n", f->name, f->id);
    const rec_func_desc *twin = rec_func_plain_twin(f);
    if (twin && gen_has_va_list(f)) { /* the tracer records it as its twin: no trace holds its id */
        fprintf(out, "static void rp_fn_%s(rp_ctx *rp_x, const rp_rec *rp_r)\n{\n    rp_x->reason = \"traced as %s, "
                     "never under its own id\";\n    rp_skip(rp_x, rp_r);\n}\n", f->name, twin->name);
        return;
    }
    if (gen_has_va_list(f))
        emit_trampoline(f);
    fprintf(out, "static void rp_fn_%s(rp_ctx *rp_x, const rp_rec *rp_r)\n{\n", f->name);
    if (f->flags & REC_FN_OPAQUE) {
        fprintf(out, "    rp_x->reason = \"issued by the replayer itself\";\n    rp_skip(rp_x, rp_r);\n}\n");
        return;
    }
    if (rec_arg_with_kind(f, REC_KIND_THREAD_ID, 0) >= 0) {
        gen_replay_thread_call(out, f);
        return;
    }
    if (f->roles & REC_ROLE_ABORTS) {
        fprintf(out, "    rp_x->reason = \"%s would end the replay\";\n    rp_skip(rp_x, rp_r);\n}\n", f->name);
        return;
    }
    if (f->flags & REC_FN_NODECL) {
        fprintf(out, "    static _Thread_local %s (*rp_real)(", f->ret_ctype);
        gen_print_params(out, f, 0);
        fprintf(out, ");\n    if (!rp_real)\n        *(void **)&rp_real = rp_symbol(\"%s\");\n", f->name);
        fprintf(out, "    if (!rp_real) {\n        rp_x->reason = \"not provided by this system's "
                     "libraries\";\n        rp_skip(rp_x, rp_r);\n        return;\n    }\n");
    }
    for (unsigned i = 0; i < f->nargs; i++)
        if (!(f->args[i].flags & REC_ARG_DERIVED))
            emit_in(f, i);
        else if (rec_kind_is_handle(f->args[i].kind)) { /* the stream no argument names: the console is skipped */
            emit_in(f, i);
            fprintf(out, "    (void)%s;\n", f->args[i].name);
        }
    for (unsigned i = 0; i < f->nargs; i++)
        emit_out(f, i);
    for (unsigned i = 0; i < f->nargs; i++)
        emit_buffer(f, i);
    const rec_func_desc *base = gen_narrow_base(f);
    if (base) {
        emit_narrowing_check(f, base);
        fprintf(out, "    rp_begin(rp_x, rp_r);\n    RP_TAKE_TURN(rp_x);\n    %s ret;\n", f->ret_ctype);
        emit_narrowed_call(f, base);
    } else {
        emit_call(f, is_void);
    }
    fprintf(out, "    int ok = %s;\n", is_void ? "1" : gen_success_test(f));
    if (!is_void)
        fprintf(out, "    (void)ret;\n");
    emit_bytes(f);
    fprintf(out, "    rp_end(rp_x, rp_r, ok, rp_bytes);\n");
    emit_post(f);
    gen_replay_h5_reclaim(out, f);
    fprintf(out, "}\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_replay OUTDIR\n");
        return 2;
    }
    for (unsigned layer = 0; layer < REC_LAYER_COUNT; layer++) {
        char name[64];
        snprintf(name, sizeof name, "replay_%s.c", gen_layer_part(layer));
        out = gen_create("gen_replay", argv[1], name);
        fprintf(out, "/* Generated by gen_replay from the function table: do not edit. */\n"
                     "#include \"replay_prelude.h\"\n");
        const char *safe = rec_layer_thread_safe_test(layer);
        if (safe) /* its calls take turns where its library is not thread-safe */
            fprintf(out, "#if %s\n#define RP_TAKE_TURN(x) ((void)(x))\n#else\n#define RP_TAKE_TURN(x) rp_take_turn(x)\n#endif\n", safe);
        else
            fprintf(out, "#define RP_TAKE_TURN(x) ((void)(x))\n");
        gen_replay_callbacks(out, layer);
        for (size_t i = 0; i < rec_function_count; i++)
            if (rec_functions[i].layer == layer) {
                fprintf(out, "%s", replay_guard_begin(&rec_functions[i]));
                emit_function(&rec_functions[i]);
                fprintf(out, "%s", replay_guard_end(&rec_functions[i]));
            }
        fprintf(out, "\nvoid rp_register_%s(rp_replay_fn *table)\n{\n", gen_layer_part(layer));
        for (size_t i = 0; i < rec_function_count; i++)
            if (rec_functions[i].layer == layer)
                fprintf(out, "%s    table[%u] = rp_fn_%s;\n%s", replay_guard_begin(&rec_functions[i]),
                        rec_functions[i].id, rec_functions[i].name, replay_guard_end(&rec_functions[i]));
        fprintf(out, "}\n");
        gen_close("gen_replay", out, argv[1], name);
    }
    return 0;
}
