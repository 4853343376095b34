/* gen_functions: checks the function table and generates what the build
 * needs from it. Run by CMake at build time:
 *   gen_functions OUTDIR
 * writes OUTDIR/rec_function_ids.h (REC_ID_<name> constants),
 * OUTDIR/rec_prototype_check.c (compiled against the real system, MPI and
 * HDF5 headers, so a wrong C type in the table fails the build) and
 * OUTDIR/recorder-wrap.opts (linker options for tracing statically linked
 * libraries with -Wl,--wrap). Exits non-zero, naming the entry, on any
 * inconsistency: duplicate id or name, unknown kind, arrays without a length. */
#include "gen_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int errors;

static void table_error(const rec_func_desc *f, const char *what)
{
    fprintf(stderr, "gen_functions: the functions/ .def files: %s (id %u): %s\n", f->name, f->id, what);
    errors++;
}

static void check_handles(void)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++) {
        const rec_handle_desc *h = &rec_predefined_handles[i];
        if (!rec_handle_is_predefined(h->id) || !rec_kind_name(h->kind)) {
            fprintf(stderr, "gen_functions: handles.def: %s: id or kind out of range\n", h->name);
            errors++;
        }
        for (size_t j = 0; j < i; j++)
            if (rec_predefined_handles[j].kind == h->kind && rec_predefined_handles[j].id == h->id) {
                fprintf(stderr, "gen_functions: handles.def: %s reuses the id of %s\n", h->name,
                        rec_predefined_handles[j].name);
                errors++;
            }
    }
}

static void check_roles(const rec_func_desc *f);
static void check_twin(const rec_func_desc *f);

static void check_table(void)
{
    static const rec_func_desc *by_id[REC_FUNCTION_ID_LIMIT];
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        if (f->id == 0 || f->id >= REC_FUNCTION_ID_LIMIT) {
            table_error(f, "id out of range 1..4095");
            continue;
        }
        if (by_id[f->id])
            table_error(f, "id already used");
        by_id[f->id] = f;
        for (size_t j = 0; j < i; j++)
            if (strcmp(rec_functions[j].name, f->name) == 0)
                table_error(f, "name declared twice");
        if (f->nargs > REC_MAX_ARGS)
            table_error(f, "more arguments than REC_MAX_ARGS");
        if (!rec_kind_name(f->ret_kind))
            table_error(f, "unknown return kind");
        if ((strcmp(f->ret_ctype, "void") == 0) != (f->ret_kind == REC_KIND_NONE))
            table_error(f, "a void return needs kind NONE, and only a void return");
        int has_va = 0;
        for (unsigned a = 0; a < f->nargs; a++) {
            const rec_arg_desc *arg = &f->args[a];
            /* the generated wrappers' and replays' own locals */
            static const char *const reserved[] = {"r", "ret", "ok", "call", "out", NULL};
            for (const char *const *w = reserved; *w; w++)
                if (strcmp(arg->name, *w) == 0)
                    table_error(f, "an argument named as a generated wrapper's local (rename it)");
            if (!rec_kind_name(arg->kind))
                table_error(f, "argument of unknown kind");
            if (arg->flags & REC_ARG_DERIVED) {
                if (!arg->len[0] || (arg->flags & REC_ARG_VA) || a + 1 < f->nargs)
                    table_error(f, "a DERIVED field needs an expression and comes last");
                continue;
            }
            int is_array = rec_kind_class(arg->kind) == REC_CLASS_ARRAY || arg->kind == REC_KIND_STRING_OUT ||
                           arg->kind == REC_KIND_H5_ENCODED;
            if (is_array && !arg->len[0])
                table_error(f, "array argument without a length expression");
            if (!is_array && arg->len[0])
                table_error(f, "length expression on a non-array argument");
            if (arg->flags & REC_ARG_VA)
                has_va = 1;
            else if (has_va)
                table_error(f, "a VA argument must come last");
        }
        if (has_va && !(f->flags & REC_FN_VARIADIC))
            table_error(f, "VA argument in a function not marked VARIADIC");
        check_roles(f);
        check_twin(f);
    }
}

/* The argument roles a shape's consumers read (rec_arg_with_role). */
static const struct {
    unsigned shape;
    unsigned char roles[5];
} shape_needs[] = {
    {REC_SHAPE_TYPE_CONTIGUOUS, {REC_AROLE_COUNT, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_VECTOR, {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTH, REC_AROLE_STRIDE, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_HVECTOR, {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTH, REC_AROLE_STRIDE, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_INDEXED, {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTHS, REC_AROLE_DISPLACEMENTS, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_HINDEXED, {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTHS, REC_AROLE_DISPLACEMENTS, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_INDEXED_BLOCK,
     {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTH, REC_AROLE_DISPLACEMENTS, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_HINDEXED_BLOCK,
     {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTH, REC_AROLE_DISPLACEMENTS, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_SUBARRAY, {REC_AROLE_SIZES, REC_AROLE_SUBSIZES, REC_AROLE_STARTS, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_DARRAY, {REC_AROLE_SIZES, REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_STRUCT, {REC_AROLE_COUNT, REC_AROLE_BLOCKLENGTHS, REC_AROLE_DISPLACEMENTS, REC_AROLE_TYPES}},
    {REC_SHAPE_TYPE_RESIZED, {REC_AROLE_OLDTYPE, REC_AROLE_LOWER_BOUND, REC_AROLE_EXTENT}},
    {REC_SHAPE_TYPE_DUP, {REC_AROLE_OLDTYPE}},
    {REC_SHAPE_COMM_CREATE, {REC_AROLE_GROUP}},
    {REC_SHAPE_COMM_CREATE_GROUP, {REC_AROLE_GROUP}},
    {REC_SHAPE_GROUP_INCL, {REC_AROLE_GROUP, REC_AROLE_RANKS}},
    {REC_SHAPE_GROUP_EXCL, {REC_AROLE_GROUP, REC_AROLE_RANKS}},
    {REC_SHAPE_GROUP_RANGE_INCL, {REC_AROLE_GROUP, REC_AROLE_RANKS}},
    {REC_SHAPE_GROUP_RANGE_EXCL, {REC_AROLE_GROUP, REC_AROLE_RANKS}},
    {REC_SHAPE_SPACE_SIMPLE, {REC_AROLE_DIMS}},
    {REC_SHAPE_SPACE_COPY, {REC_AROLE_SPACE}},
    {REC_SHAPE_TYPE_COPY_H5, {REC_AROLE_OLDTYPE}},
    {REC_SHAPE_TYPE_CREATE_H5, {REC_AROLE_TYPE_SIZE}},
    {REC_SHAPE_TYPE_ARRAY_H5, {REC_AROLE_OLDTYPE, REC_AROLE_DIMS}},
    {REC_SHAPE_DATASET_CREATE, {REC_AROLE_SPACE}},
};

/* The argument roles a function role's consumers read. */
static const struct {
    uint32_t role;
    unsigned char roles[3];
} role_needs[] = {
    {REC_ROLE_SETS_VIEW, {REC_AROLE_VIEW_DISP, REC_AROLE_VIEW_ETYPE, REC_AROLE_VIEW_FILETYPE}},
    {REC_ROLE_REPORTS_TYPE_SIZE, {REC_AROLE_TYPE_SIZE}},
    {REC_ROLE_REPORTS_TYPE_EXTENT, {REC_AROLE_LOWER_BOUND, REC_AROLE_EXTENT}},
    {REC_ROLE_SETS_TYPE_SIZE, {REC_AROLE_TYPE_SIZE}},
    {REC_ROLE_MAKES_DIR, {REC_AROLE_NEW_PATH}},
};

static void check_roles(const rec_func_desc *f)
{
    if (f->shape >= REC_SHAPE_LIMIT || f->header > REC_HEADER_UTIME)
        table_error(f, "unknown shape or header");
    for (unsigned a = 0; a < f->nargs; a++) {
        unsigned role = f->args[a].role, kind = f->args[a].kind;
        if (role >= REC_AROLE_LIMIT)
            table_error(f, "argument of unknown role");
        else if (role && rec_arg_with_role(f, role) != (int)a)
            table_error(f, "an argument role given twice (consumers find arguments by role)");
        if ((role == REC_AROLE_NEW_PATH || role == REC_AROLE_LINK_FILE) && kind != REC_KIND_PATH)
            table_error(f, "NEW_PATH and LINK_FILE go on PATH arguments");
        if ((role == REC_AROLE_LINK_TARGET || role == REC_AROLE_FILE_NAME) && kind != REC_KIND_PATH &&
            kind != REC_KIND_STRING_OUT)
            table_error(f, "LINK_TARGET and FILE_NAME go on PATH or STRING_OUT arguments");
    }
    for (size_t i = 0; i < sizeof shape_needs / sizeof shape_needs[0]; i++)
        for (unsigned k = 0; shape_needs[i].shape == f->shape && k < 5 && shape_needs[i].roles[k]; k++)
            if (rec_arg_with_role(f, shape_needs[i].roles[k]) < 0)
                table_error(f, "its shape needs an argument it does not mark (IS(...))");
    for (size_t i = 0; i < sizeof role_needs / sizeof role_needs[0]; i++)
        for (unsigned k = 0; (f->roles & role_needs[i].role) && k < 3 && role_needs[i].roles[k]; k++)
            if (rec_arg_with_role(f, role_needs[i].roles[k]) < 0)
                table_error(f, "its role needs an argument it does not mark (IS(...))");
    if ((f->roles & REC_ROLE_NAME_LENGTH) && rec_arg_with_role(f, REC_AROLE_LINK_TARGET) < 0 &&
        rec_arg_with_role(f, REC_AROLE_FILE_NAME) < 0)
        table_error(f, "NAME_LENGTH needs a LINK_TARGET or FILE_NAME argument");
}

/* X_c, the large-count twin of X: the same meaning, argument names and
 * kinds in the same order, so every consumer treats the two alike. */
static void check_twin(const rec_func_desc *f)
{
    size_t n = strlen(f->name);
    int named = n > 2 && strcmp(f->name + n - 2, "_c") == 0;
    if (!(f->roles & REC_ROLE_LARGE_COUNT)) {
        char base[128];
        snprintf(base, sizeof base, "%.*s", (int)(n > 2 ? n - 2 : 0), f->name);
        if (named && f->layer != REC_LAYER_POSIX && rec_function_by_name(base))
            table_error(f, "named as a large-count twin: mark it LARGE_COUNT");
        return;
    }
    char base[128];
    snprintf(base, sizeof base, "%.*s", (int)(n - 2), f->name);
    const rec_func_desc *b = named ? rec_function_by_name(base) : NULL;
    if (!b) {
        table_error(f, "LARGE_COUNT, but no function of its name without _c");
        return;
    }
    int same = b->layer == f->layer && b->ret_kind == f->ret_kind && b->fail == f->fail &&
               b->nargs == f->nargs && b->flags == f->flags &&
               (b->roles | REC_ROLE_LARGE_COUNT) == f->roles && b->shape == f->shape && b->header == f->header;
    for (unsigned a = 0; same && a < f->nargs; a++)
        same = b->args[a].kind == f->args[a].kind && b->args[a].role == f->args[a].role &&
               b->args[a].flags == f->args[a].flags &&
               strcmp(b->args[a].name, f->args[a].name) == 0;
    if (!same)
        table_error(f, "a large-count twin must match its base in every flag, role, kind and name");
}

static void write_ids(const char *dir)
{
    FILE *out = gen_create("gen_functions", dir, "rec_function_ids.h");
    fprintf(out, "/* Generated by gen_functions from the functions/ .def files: do not edit. */\n"
                 "#ifndef REC_FUNCTION_IDS_H\n#define REC_FUNCTION_IDS_H\n\nenum {\n");
    for (size_t i = 0; i < rec_function_count; i++)
        fprintf(out, "    REC_ID_%s = %u,\n", rec_functions[i].name, rec_functions[i].id);
    fprintf(out, "};\n\n#define REC_FUNCTION_COUNT %zu\n\n"
                 "/* Argument positions: REC_ARG_<function>_<argument>. */\nenum {\n",
            rec_function_count);
    for (size_t i = 0; i < rec_function_count; i++)
        for (unsigned a = 0; a < rec_functions[i].nargs; a++)
            fprintf(out, "    REC_ARG_%s_%s = %u,\n", rec_functions[i].name, rec_functions[i].args[a].name, a);
    fprintf(out, "};\n\n#endif\n");
    gen_close("gen_functions", out, dir, "rec_function_ids.h");
}

static void write_prototype_check(const char *dir)
{
    FILE *out = gen_create("gen_functions", dir, "rec_prototype_check.c");
    fprintf(out, "/* Generated by gen_functions: every table entry's C types must match\n"
                 " * the real declaration, or this file does not compile. */\n"
                 "#define _GNU_SOURCE\n#include <dirent.h>\n#include <fcntl.h>\n#include <stdarg.h>\n"
                 "#include <stdio.h>\n#include <sys/mman.h>\n#include <sys/stat.h>\n#include <sys/types.h>\n"
                 "#include <sys/uio.h>\n#include <sys/time.h>\n#include <unistd.h>\n#include <utime.h>\n"
                 "#include <mpi.h>\n#include <hdf5.h>\n\ntypedef int rec_int3[3]; /* functions/table_helpers.h */\n\n");
    size_t checked = 0;
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        if (f->flags & REC_FN_NODECL)
            continue;
        fprintf(out, "%s%s (*const check_%s)(", gen_guard_begin(f), f->ret_ctype, f->name);
        gen_print_params(out, f, 0);
        fprintf(out, ") = %s;\n%s", f->name, gen_guard_end(f));
        checked++;
    }
    /* Every predefined handle must name a real constant. */
    fprintf(out, "\nvoid rec_check_handles(void);\nvoid rec_check_handles(void)\n{\n");
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        fprintf(out, "    (void)(%s);\n", rec_predefined_handles[i].name);
    fprintf(out, "}\n");
    fprintf(out, "\nconst unsigned rec_prototypes_checked = %zu;\n", checked);
    gen_close("gen_functions", out, dir, "rec_prototype_check.c");
}

static void write_wrap_options(const char *dir)
{
    FILE *out = gen_create("gen_functions", dir, "recorder-wrap.opts");
    gen_write_wrap_options(out, REC_LAYER_COUNT);
    gen_close("gen_functions", out, dir, "recorder-wrap.opts");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_functions OUTDIR\n");
        return 2;
    }
    check_table();
    check_handles();
    if (errors) {
        fprintf(stderr, "gen_functions: %d error(s) in the function table\n", errors);
        return 1;
    }
    write_ids(argv[1]);
    write_prototype_check(argv[1]);
    write_wrap_options(argv[1]);
    return 0;
}
