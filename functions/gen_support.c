/* gen_support.c: see gen_support.h. */
#include "gen_support.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int gen_is_pointer(const char *ctype)
{
    size_t n = strlen(ctype);
    return n && ctype[n - 1] == '*';
}

void gen_nc_mem_traits(const char *buffer_ctype, char *buf, size_t cap)
{
    char elem[128];
    rec_ctype_element(buffer_ctype, elem, sizeof elem);
    const char *e = strncmp(elem, "const ", 6) ? elem : elem + 6;
    if (!strcmp(e, "void"))
        snprintf(buf, cap, "0, 0, 0");
    else
        snprintf(buf, cap, "sizeof(%s), %d, %d", e, strstr(e, "float") || strstr(e, "double"), !strstr(e, "unsigned"));
}

int gen_is_va_list(const rec_arg_desc *a)
{
    return strcmp(a->ctype, "va_list") == 0;
}

int gen_has_va_list(const rec_func_desc *f)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if (gen_is_va_list(&f->args[i]))
            return 1;
    return 0;
}

int gen_forwards_va_list(const rec_func_desc *f)
{
    if (!(f->flags & REC_FN_VARIADIC))
        return 0;
    for (unsigned i = 0; i < f->nargs; i++)
        if (f->args[i].flags & REC_ARG_VA)
            return 0;
    return 1;
}

int gen_arg_named(const rec_func_desc *f, const char *name)
{
    for (unsigned i = 0; i < f->nargs; i++)
        if (!strcmp(f->args[i].name, name))
            return (int)i;
    return -1;
}

void gen_va_list_form(const rec_func_desc *f, char *name, size_t size)
{
    const rec_func_desc *twin = rec_func_plain_twin(f);
    const char *at = twin ? strstr(f->name, twin->name) : NULL;
    if (!at)
        snprintf(name, size, "v%s", f->name);
    else
        snprintf(name, size, "%.*sv%s", (int)(at - f->name), f->name, at);
}

int gen_measures_position(const rec_func_desc *f, char *stream, size_t size)
{
    int measured = 0, at = -1;
    for (unsigned i = 0; i < f->nargs; i++) {
        measured |= (f->args[i].flags & REC_ARG_DERIVED) && strstr(f->args[i].len, "rt_pos_before") != NULL;
        if (f->args[i].kind == REC_KIND_FILE_STREAM && at < 0)
            at = (int)i;
    }
    if (!measured || at < 0)
        return 0;
    const rec_arg_desc *a = &f->args[at];
    snprintf(stream, size, "%s", (a->flags & REC_ARG_DERIVED) ? a->len : a->name);
    return 1;
}

int gen_is_out_only(const rec_arg_desc *a)
{
    return (a->flags & REC_ARG_OUT) && !(a->flags & REC_ARG_IN);
}

int rec_kind_is_handle(unsigned kind)
{
    return rec_kind_handle_space(kind) != REC_SPACE_NONE && rec_kind_class(kind) == REC_CLASS_INT;
}

int rec_kind_pointer_is_value(unsigned kind)
{
    return kind == REC_KIND_FILE_STREAM || kind == REC_KIND_DIR_STREAM || kind == REC_KIND_MAPPING ||
           kind == REC_KIND_PTHREAD_BARRIER;
}

int rec_arg_by_pointer(const rec_arg_desc *a)
{
    rec_class cls = rec_kind_class(a->kind);
    if (!gen_is_pointer(a->ctype) || rec_kind_pointer_is_value(a->kind) || cls == REC_CLASS_ARRAY ||
        cls == REC_CLASS_NONE)
        return 0;
    switch (a->kind) {
    case REC_KIND_PATH:
    case REC_KIND_STRING:
    case REC_KIND_STDIO_MODE:
    case REC_KIND_STRING_OUT:
    case REC_KIND_STRLEN:
    case REC_KIND_STATBUF:
    case REC_KIND_MPI_STATUS:
    case REC_KIND_H5_ENCODED:
    case REC_KIND_CALLBACK: /* a function, by its id */
    case REC_KIND_H5_VALUE:
        return 0;
    default:
        return 1;
    }
}

void rec_ctype_element(const char *ctype, char *out, size_t cap)
{
    const char *s = strncmp(ctype, "const ", 6) == 0 ? ctype + 6 : ctype;
    size_t n = strlen(s);
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    while (n && (out[n - 1] == '*' || out[n - 1] == ' '))
        n--;
    out[n] = 0;
    if (rec_ctype_row(ctype) > 1) /* rows of ints: their ints, one by one */
        snprintf(out, cap, "int");
}

unsigned rec_ctype_row(const char *ctype)
{
    return strstr(ctype, "rec_int3") ? 3 : 1;
}

void gen_print_params(FILE *out, const rec_func_desc *f, unsigned how)
{
    int n = 0;
    for (unsigned i = 0; i < f->nargs; i++) {
        const rec_arg_desc *a = &f->args[i];
        if ((a->flags & (REC_ARG_VA | REC_ARG_DERIVED)) || ((how & GEN_PARAM_ELLIPSIS) && gen_is_va_list(a)))
            continue;
        fprintf(out, "%s%s", n++ ? ", " : "", a->ctype);
        if (how & GEN_PARAM_NAMES)
            fprintf(out, " %s", a->name);
    }
    if (how & GEN_PARAM_VA_LIST)
        fprintf(out, "%sva_list", n++ ? ", " : "");
    else if ((f->flags & REC_FN_VARIADIC) || ((how & GEN_PARAM_ELLIPSIS) && gen_has_va_list(f)))
        fprintf(out, "%s...", n++ ? ", " : "");
    if (!n)
        fprintf(out, "void");
}

const char *gen_success_test(const rec_func_desc *f)
{
    int ptr = gen_is_pointer(f->ret_ctype);
    switch (f->fail) {
    case REC_FAIL_NEG1:
        return ptr ? "ret != (void *)-1" : "(long long)ret != -1";
    case REC_FAIL_NULL:
        return ptr ? "ret != NULL" : "ret != 0";
    case REC_FAIL_NEGATIVE:
        return "ret >= 0";
    case REC_FAIL_NONZERO:
        return "ret == 0";
    case REC_FAIL_EOF: /* a wide character's end is WEOF */
        return strcmp(f->ret_ctype, "wint_t") ? "ret != EOF" : "ret != WEOF";
    default:
        return "1";
    }
}

/* An MPI-4 large-count function's base (X of X_c) when the two differ only
 * in counts (MPI_Count for int or MPI_Aint; MPI_Count * for int *): an MPI
 * without MPI-4 then replays it through the base while each count fits. */
const rec_func_desc *gen_narrow_base(const rec_func_desc *f)
{
    const rec_func_desc *b = rec_func_int_twin(f);
    if (!b || *gen_guard_begin(b) || b->nargs != f->nargs || strcmp(b->ret_ctype, f->ret_ctype) ||
        gen_has_va_list(f))
        return NULL;
    for (unsigned i = 0; i < f->nargs; i++) {
        const char *fc = f->args[i].ctype, *bc = b->args[i].ctype;
        /* mpio.h: #define MPIO_Request MPI_Request, in MPICH and Open MPI alike */
        int same = !strcmp(fc, bc) || (f->args[i].flags & REC_ARG_DERIVED) ||
                   (!strcmp(fc, "MPIO_Request *") && !strcmp(bc, "MPI_Request *"));
        int narrowed = !strcmp(fc, "MPI_Count") && (!strcmp(bc, "int") || !strcmp(bc, "MPI_Aint"));
        int out_int = gen_count_out(&f->args[i]) && !strcmp(bc, "int *");
        if (!same && !narrowed && !out_int)
            return NULL;
    }
    return b;
}

int gen_count_out(const rec_arg_desc *a)
{
    return !strcmp(a->ctype, "MPI_Count *") && !(a->flags & REC_ARG_DERIVED);
}

const char *gen_guard_begin(const rec_func_desc *f)
{
    if (f->roles & (REC_ROLE_LARGE_COUNT | REC_ROLE_SINCE_MPI4))
        return "#if REC_HAVE_MPI4\n";
    return (f->roles & REC_ROLE_REMOVED_MPI3) ? "#if REC_HAVE_MPI1\n" : "";
}

const char *gen_guard_end(const rec_func_desc *f)
{
    return *gen_guard_begin(f) ? "#endif\n" : "";
}

FILE *gen_create(const char *generator, const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "%s: %s: %s\n", generator, path, strerror(errno));
        exit(1);
    }
    return out;
}

void gen_close(const char *generator, FILE *out, const char *dir, const char *name)
{
    if (fclose(out) != 0) {
        fprintf(stderr, "%s: %s/%s: %s\n", generator, dir, name, strerror(errno));
        exit(1);
    }
}

const char *gen_layer_part(unsigned layer)
{
    static const char *const parts[REC_LAYER_COUNT] = {"posix", "mpi", "mpiio", "hdf5", "pnetcdf", "netcdf"};
    return layer < REC_LAYER_COUNT ? parts[layer] : "all";
}

void gen_write_wrap_options(FILE *out, unsigned layer)
{
    for (size_t i = 0; i < rec_function_count; i++)
        if (layer == REC_LAYER_COUNT || rec_functions[i].layer == layer)
            fprintf(out, "-Wl,--wrap=%s\n", rec_functions[i].name);
}

/* "<prefix><what>_<function type>_<id>" (id 0: "..._untraced"). */
static int stand_in_name(const char *prefix, const char *what, const char *ctype, int64_t id, char *buf,
                         size_t cap)
{
    char type[128];
    rec_ctype_element(ctype, type, sizeof type);
    int n = id ? snprintf(buf, cap, "%s%s_%s_%lld", prefix, what, type, (long long)id)
               : snprintf(buf, cap, "%s%s_%s_untraced", prefix, what, type);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

int gen_reduction_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    if (!rec_reduction_count_ctype(ctype) || id < 0)
        return -1;
    return stand_in_name(prefix, "reduce", ctype, id, buf, cap);
}

/* "static void <name>(<params>)" calling body, with the parameters of the function type it stands in for. */
static int stand_in_definition(const char *name, const char *params, const char *body, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "static void %s(%s)\n{\n    %s\n}\n", name, params, body);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

int gen_reduction_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    char name[160], params[256];
    if (gen_reduction_name(prefix, ctype, id, name, sizeof name))
        return -1;
    snprintf(params, sizeof params, "void *in, void *inout, %s *count, MPI_Datatype *type",
             rec_reduction_count_ctype(ctype));
    return stand_in_definition(name, params, "reduce_bytes(in, inout, *count, *type);", buf, cap);
}

int gen_errhandler_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    if (!rec_errhandler_subject_ctype(ctype) || id <= 0)
        return -1; /* one made out of sight is MPI_ERRORS_RETURN: no stand-in */
    return stand_in_name(prefix, "errhandler", ctype, id, buf, cap);
}

int gen_errhandler_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    char name[160], params[256];
    if (gen_errhandler_name(prefix, ctype, id, name, sizeof name))
        return -1;
    snprintf(params, sizeof params, "%s *handle, int *code, ...", rec_errhandler_subject_ctype(ctype));
    return stand_in_definition(name, params, "errhandler_returns(handle, code);", buf, cap);
}

int gen_callback_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    return rec_errhandler_subject_ctype(ctype) ? gen_errhandler_name(prefix, ctype, id, buf, cap)
                                               : gen_reduction_name(prefix, ctype, id, buf, cap);
}

int gen_callback_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap)
{
    return rec_errhandler_subject_ctype(ctype) ? gen_errhandler_function(prefix, ctype, id, buf, cap)
                                               : gen_reduction_function(prefix, ctype, id, buf, cap);
}

const char *gen_callback_template(const char *ctype)
{
    return rec_errhandler_subject_ctype(ctype) ? "errhandler.c.tmpl"
           : rec_reduction_count_ctype(ctype)  ? "reduce.c.tmpl"
                                               : NULL;
}

int gen_untraced_op_function(const char *prefix, int once, char *buf, size_t cap)
{
    const rec_func_desc *f = rec_function_with_sole(REC_SOLE_OP_OF_CALLBACK);
    int fn = f && f->layer == REC_LAYER_MPI ? rec_arg_with_kind(f, REC_KIND_CALLBACK, REC_ARG_IN) : -1;
    char call[512], name[160];
    if (fn < 0 || gen_reduction_name(prefix, f->args[fn].ctype, 0, name, sizeof name))
        return -1;
    /* MPI's profiling entry point: a tracer sees no call the trace did not have */
    size_t at = (size_t)snprintf(call, sizeof call, "P%s(", f->name);
    for (unsigned a = 0; a < f->nargs && at < sizeof call; a++)
        at += (size_t)snprintf(call + at, sizeof call - at, "%s%s", a ? ", " : "",
                               (int)a == fn                        ? name
                               : f->args[a].kind == REC_KIND_BOOL  ? "1"
                               : f->args[a].flags & REC_ARG_CREATE ? "&op"
                                                                   : "0");
    if (at + 2 >= sizeof call)
        return -1;
    int n =
        once ? snprintf(buf, cap,
                        "static MPI_Op %suntraced_op(void)\n{\n    static int made;\n    static MPI_Op op;\n"
                        "    if (!made) {\n        %s);\n        made = 1;\n    }\n    return op;\n}\n",
                        prefix, call)
             : snprintf(buf, cap,
                        "static MPI_Op %suntraced_op(void)\n{\n    MPI_Op op;\n    %s);\n    return op;\n}\n",
                        prefix, call);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

int gen_counted_operator(const rec_func_desc *f, int *data)
{
    int calls = rec_arg_with_kind(f, REC_KIND_OP_CALLS, REC_ARG_DERIVED);
    *data = -1;
    for (unsigned i = 0; calls >= 0 && i + 1 < f->nargs; i++)
        if (!strcmp(f->args[i].name, f->args[calls].len) && !strcmp(f->args[i + 1].ctype, "void *")) {
            *data = (int)i + 1;
            return (int)i;
        }
    return -1;
}

unsigned gen_operator_types(unsigned layer, int counted, const char **types, unsigned max)
{
    unsigned n = 0;
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        int data, op = counted && f->layer == layer ? gen_counted_operator(f, &data) : -1;
        for (unsigned k = 0; f->layer == layer && k < f->nargs; k++) {
            const rec_arg_desc *a = &f->args[k];
            const char *ret;
            unsigned seen = 0;
            while (seen < n && strcmp(types[seen], a->ctype))
                seen++;
            if (!rec_operator_params(a->ctype, &ret) || (a->flags & REC_ARG_OUT) || seen < n || n == max ||
                (counted && (int)k != op))
                continue;
            types[n++] = a->ctype;
        }
    }
    return n;
}

void gen_each_operator(unsigned layer, int counted, gen_operator_fn *fn)
{
    const char *types[64];
    for (unsigned t = 0, ntypes = gen_operator_types(layer, counted, types, 64); t < ntypes; t++) {
        const char *ret, *params = rec_operator_params(types[t], &ret);
        const char *names[REC_MAX_ARGS];
        unsigned lens[REC_MAX_ARGS], n = rec_param_names(params, names, lens, REC_MAX_ARGS);
        if (n)
            fn(types[t], ret, params, names, lens, n);
    }
}

const char *gen_layer_guard(unsigned layer)
{
    switch (layer) {
    case REC_LAYER_PNETCDF: return "RECORDER_HAVE_PNETCDF";
    case REC_LAYER_NETCDF: return "RECORDER_HAVE_NETCDF";
    default: return NULL;
    }
}

const char *gen_layer_includes(unsigned layer)
{
    switch (layer) {
    case REC_LAYER_PNETCDF: return "#include <pnetcdf.h>\n";
    /* netcdf_par.h and netcdf_filter.h need netcdf.h first */
    case REC_LAYER_NETCDF: return "#include <netcdf.h>\n#include <netcdf_par.h>\n#include <netcdf_filter.h>\n";
    default: return "";
    }
}
