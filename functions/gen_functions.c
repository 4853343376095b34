/* gen_functions: checks the function table and generates what the build
 * needs from it. Run by CMake at build time:
 *   gen_functions OUTDIR
 * writes OUTDIR/rec_function_ids.h (REC_ID_<name> constants),
 * OUTDIR/rec_prototype_check.c (compiled against the real system, MPI and
 * HDF5 headers, so a wrong C type in the table fails the build) and
 * OUTDIR/recorder-wrap.opts (linker options for tracing statically linked
 * libraries with -Wl,--wrap) and OUTDIR/rec_combiners.h (MPI combiner ->
 * the table's constructor). Exits non-zero, naming the entry, on any
 * inconsistency: duplicate id or name, unknown kind, arrays without a length,
 * a sole role or combiner claimed twice, a contents source out of place. */
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
static void check_fortified(const rec_func_desc *f);
static void check_sole(const rec_func_desc *f);
static void check_contents(const rec_func_desc *f);

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
                if (!arg->len[0] || (arg->flags & REC_ARG_VA) ||
                    (a + 1 < f->nargs && !(f->args[a + 1].flags & REC_ARG_DERIVED)))
                    table_error(f, "a DERIVED field needs an expression and comes last");
                if (rec_kind_is_handle(arg->kind) && (arg->flags & (REC_ARG_OUT | REC_ARG_CREATE)))
                    table_error(f, "a DERIVED handle is one the call uses without naming it (stdout): IN only");
                int data;
                if (arg->kind == REC_KIND_OP_CALLS && gen_counted_operator(f, &data) < 0)
                    table_error(f, "an OP_CALLS field must name an operator argument followed by its void * data");
                if (arg->kind == REC_KIND_ROW_BYTES && rec_arg_with_role(f, REC_AROLE_ROWS) < 0)
                    table_error(f, "a ROW_BYTES field (a row's bytes, rt_k's) needs a ROWS argument");
                if (arg->kind == REC_KIND_NC_VLEN_LENGTHS &&
                    (rec_arg_with_kind(f, REC_KIND_BUFFER, REC_ARG_IN) < 0 ||
                     rec_arg_with_kind(f, REC_KIND_NC_ID, REC_ARG_IN) < 0 ||
                     rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_IN) < 0))
                    table_error(f, "an NC_VLEN_LENGTHS field needs an IN BUFFER, NC_ID and NC_VARID argument");
                if ((arg->kind == REC_KIND_H5_STRING_LENGTHS || arg->kind == REC_KIND_H5_VLEN_LENGTHS) &&
                    (rec_arg_with_kind(f, REC_KIND_BUFFER, REC_ARG_IN) < 0 ||
                     rec_arg_with_role(f, REC_AROLE_DATASET) < 0 ||
                     rec_arg_with_role(f, REC_AROLE_MEM_TYPE) < 0 ||
                     rec_arg_with_role(f, REC_AROLE_MEM_SPACE) < 0 ||
                     rec_arg_with_role(f, REC_AROLE_FILE_SPACE) < 0))
                    table_error(f, "an H5_STRING_LENGTHS or H5_VLEN_LENGTHS field needs an IN BUFFER and the "
                                   "DATASET, MEM_TYPE, MEM_SPACE and FILE_SPACE roles");
                continue;
            }
            int is_array = rec_kind_class(arg->kind) == REC_CLASS_ARRAY || arg->kind == REC_KIND_STRING_OUT ||
                           arg->kind == REC_KIND_H5_ENCODED || arg->kind == REC_KIND_H5_VALUE ||
                           arg->kind == REC_KIND_NC_VALUES || arg->kind == REC_KIND_NC_HEADER || /* in bytes; the file */
                           arg->kind == REC_KIND_NC_STRINGS; /* in strings */
            /* a value is walked by its memory type: the call must name it */
            if (arg->kind == REC_KIND_H5_VALUE && rec_arg_with_role(f, REC_AROLE_MEM_TYPE) < 0 &&
                rec_arg_with_role(f, REC_AROLE_REF_TYPE) < 0)
                table_error(f, "an H5_VALUE argument without a MEM_TYPE or REF_TYPE argument");
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
        check_fortified(f);
        check_sole(f);
        check_contents(f);
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
    if (f->shape >= REC_SHAPE_LIMIT || f->header > REC_HEADER_LAST)
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
    if ((f->roles & REC_ROLE_OPENS_H5_FILE) && rec_arg_with_kind(f, REC_KIND_PATH, 0) < 0)
        table_error(f, "OPENS_H5_FILE needs a PATH argument");
    if ((f->roles & REC_ROLE_NAME_LENGTH) && rec_arg_with_role(f, REC_AROLE_LINK_TARGET) < 0 &&
        rec_arg_with_role(f, REC_AROLE_FILE_NAME) < 0)
        table_error(f, "NAME_LENGTH needs a LINK_TARGET or FILE_NAME argument");
    if ((f->roles & (REC_ROLE_ADDS_REFERENCE | REC_ROLE_DROPS_REFERENCE)) &&
        (!f->nargs || !rec_kind_is_handle(f->args[REC_ARG_SUBJECT].kind) || (f->flags & REC_FN_DESTROYS)))
        table_error(f, "INC_REF and DEC_REF need a handle SUBJECT and no DESTROYS (which drops one itself)");
}

/* What the consumer of a sole role reads of its function: its SUBJECT's
 * kind (0: none), the kind of the handle it makes (0: none; its NEW
 * argument or its return value), the one IN argument of each kind, and
 * arguments by role. */
static const struct {
    unsigned sole;
    unsigned char subject, made, kinds[2], roles[4];
} sole_needs[] = {
    {REC_SOLE_COMM_GROUP, 0, REC_KIND_MPI_GROUP, {REC_KIND_MPI_COMM}, {0}},
    {REC_SOLE_GROUP_OF_RANKS, 0, REC_KIND_MPI_GROUP, {0}, {REC_AROLE_GROUP, REC_AROLE_RANKS}},
    {REC_SOLE_COMM_OF_GROUP, 0, REC_KIND_MPI_COMM, {REC_KIND_MPI_COMM, REC_KIND_MPI_TAG}, {REC_AROLE_GROUP}},
    {REC_SOLE_FREES_GROUP, REC_KIND_MPI_GROUP, 0, {0}, {0}},
    {REC_SOLE_EMPTY_INFO, 0, REC_KIND_MPI_INFO, {0}, {0}},
    {REC_SOLE_SETS_INFO_KEY, REC_KIND_MPI_INFO, 0, {0}, {REC_AROLE_INFO_KEY, REC_AROLE_INFO_VALUE}},
    {REC_SOLE_COMMITS_TYPE, REC_KIND_MPI_DATATYPE, 0, {0}, {0}},
    {REC_SOLE_SPACE_OF_CLASS, 0, REC_KIND_H5_SPACE, {REC_KIND_H5_SCLASS}, {0}},
    {REC_SOLE_SIMPLE_SPACE, 0, REC_KIND_H5_SPACE, {0}, {REC_AROLE_DIMS, REC_AROLE_MAXDIMS}},
    {REC_SOLE_SELECTS_HYPERSLAB, REC_KIND_H5_SPACE, 0, {REC_KIND_H5_SELOP},
     {REC_AROLE_STARTS, REC_AROLE_STRIDE, REC_AROLE_COUNT, REC_AROLE_BLOCK}},
    {REC_SOLE_SELECTS_POINTS, REC_KIND_H5_SPACE, 0, {REC_KIND_H5_SELOP}, {REC_AROLE_COUNT, REC_AROLE_COORDS}},
    {REC_SOLE_SELECTS_NONE, REC_KIND_H5_SPACE, 0, {0}, {0}},
    {REC_SOLE_COPIES_H5_TYPE, 0, REC_KIND_H5_TYPE, {0}, {REC_AROLE_OLDTYPE}},
    {REC_SOLE_H5_TYPE_OF_CLASS, 0, REC_KIND_H5_TYPE, {REC_KIND_H5_TCLASS}, {REC_AROLE_TYPE_SIZE}},
    {REC_SOLE_SETS_H5_TYPE_SIZE, REC_KIND_H5_TYPE, 0, {0}, {REC_AROLE_TYPE_SIZE}},
    {REC_SOLE_PLIST_OF_CLASS, 0, REC_KIND_H5_PLIST, {REC_KIND_H5_PLIST_CLASS}, {0}},
    {REC_SOLE_OPENS_H5_OBJECT, 0, REC_KIND_H5_LOC, {REC_KIND_H5_LOC, REC_KIND_STRING}, {0}},
    {REC_SOLE_CLOSES_H5_OBJECT, REC_KIND_H5_LOC, 0, {0}, {0}},
    {REC_SOLE_OP_OF_CALLBACK, 0, REC_KIND_MPI_OP, {REC_KIND_CALLBACK, REC_KIND_BOOL}, {0}},
    {REC_SOLE_OPENS_FD, 0, REC_KIND_FD, {REC_KIND_PATH, REC_KIND_OFLAGS}, {0}},
    {REC_SOLE_CLOSES_FD, REC_KIND_FD, 0, {0}, {0}},
    {REC_SOLE_READS_FD_AT, REC_KIND_FD, 0, {REC_KIND_SIZE, REC_KIND_OFFSET}, {0}},
    {REC_SOLE_WRITES_FD_AT, REC_KIND_FD, 0, {REC_KIND_SIZE, REC_KIND_OFFSET}, {0}},
    {REC_SOLE_OPENS_MPI_FILE, 0, REC_KIND_MPI_FILE, {REC_KIND_MPI_COMM, REC_KIND_MPI_AMODE}, {0}},
    {REC_SOLE_CLOSES_MPI_FILE, REC_KIND_MPI_FILE, 0, {0}, {0}},
    {REC_SOLE_READS_MPI_FILE_AT, REC_KIND_MPI_FILE, 0, {REC_KIND_MPI_FILE_POS, REC_KIND_MPI_DATATYPE}, {0}},
    {REC_SOLE_READS_MPI_FILE_AT_ALL, REC_KIND_MPI_FILE, 0, {REC_KIND_MPI_FILE_POS, REC_KIND_MPI_DATATYPE}, {0}},
    {REC_SOLE_WRITES_MPI_FILE_AT, REC_KIND_MPI_FILE, 0, {REC_KIND_MPI_FILE_POS, REC_KIND_MPI_DATATYPE}, {0}},
    {REC_SOLE_WRITES_MPI_FILE_AT_ALL, REC_KIND_MPI_FILE, 0, {REC_KIND_MPI_FILE_POS, REC_KIND_MPI_DATATYPE}, {0}},
    {REC_SOLE_STARTS_MPI_RUN, 0, 0, {0}, {0}},
    {REC_SOLE_ENDS_MPI_RUN, 0, 0, {0}, {0}},
    {REC_SOLE_STARTS_THREAD, 0, REC_KIND_THREAD_ID, {0}, {0}},
    {REC_SOLE_WAITS_AT_BARRIER, REC_KIND_PTHREAD_BARRIER, 0, {0}, {0}},
    {REC_SOLE_SEEKS_FD, REC_KIND_FD, 0, {REC_KIND_OFFSET, REC_KIND_WHENCE}, {0}},
    {REC_SOLE_STATS_PATH, 0, 0, {REC_KIND_PATH}, {0}},
    {REC_SOLE_SYNCS_FD, REC_KIND_FD, 0, {0}, {0}},
    {REC_SOLE_SYNCS_FD_DATA, REC_KIND_FD, 0, {0}, {0}},
    {REC_SOLE_SYNCS_MPI_FILE, REC_KIND_MPI_FILE, 0, {0}, {0}},
    {REC_SOLE_GETS_MPI_FILE_SIZE, REC_KIND_MPI_FILE, 0, {0}, {0}},
    {REC_SOLE_OPENS_STREAM, 0, REC_KIND_FILE_STREAM, {REC_KIND_PATH, REC_KIND_STDIO_MODE}, {0}},
    {REC_SOLE_CLOSES_STREAM, REC_KIND_FILE_STREAM, 0, {0}, {0}},
    {REC_SOLE_READS_STREAM, 0, 0, {REC_KIND_SIZE, REC_KIND_FILE_STREAM}, {0}},
    {REC_SOLE_WRITES_STREAM, 0, 0, {REC_KIND_SIZE, REC_KIND_FILE_STREAM}, {0}},
    {REC_SOLE_SEEKS_STREAM, REC_KIND_FILE_STREAM, 0, {REC_KIND_OFFSET, REC_KIND_WHENCE}, {0}},
    {REC_SOLE_FLUSHES_STREAM, REC_KIND_FILE_STREAM, 0, {0}, {0}},
    {REC_SOLE_CREATES_H5_FILE, 0, REC_KIND_H5_FILE, {REC_KIND_PATH, REC_KIND_H5_FACC}, {0}},
    {REC_SOLE_OPENS_H5_FILE, 0, REC_KIND_H5_FILE, {REC_KIND_PATH, REC_KIND_H5_FACC}, {0}},
    {REC_SOLE_CLOSES_H5_FILE, REC_KIND_H5_FILE, 0, {0}, {0}},
    {REC_SOLE_SETS_FAPL_MPIO, REC_KIND_H5_PLIST, 0, {REC_KIND_MPI_COMM, REC_KIND_MPI_INFO}, {0}},
    {REC_SOLE_SETS_DXPL_MPIO, REC_KIND_H5_PLIST, 0, {REC_KIND_H5_XFER_MODE}, {0}},
    {REC_SOLE_SETS_CHUNK, REC_KIND_H5_PLIST, 0, {REC_KIND_COUNT, REC_KIND_HSIZE_ARRAY}, {0}},
    {REC_SOLE_CREATES_DATASET, REC_KIND_H5_LOC, REC_KIND_H5_DATASET, {REC_KIND_STRING, REC_KIND_H5_TYPE}, {REC_AROLE_SPACE}},
    {REC_SOLE_OPENS_DATASET, REC_KIND_H5_LOC, REC_KIND_H5_DATASET, {REC_KIND_STRING, REC_KIND_H5_PLIST}, {0}},
    {REC_SOLE_CLOSES_DATASET, REC_KIND_H5_DATASET, 0, {0}, {0}},
    {REC_SOLE_WRITES_DATASET, REC_KIND_H5_DATASET, 0, {REC_KIND_H5_PLIST},
     {REC_AROLE_DATASET, REC_AROLE_MEM_TYPE, REC_AROLE_MEM_SPACE, REC_AROLE_FILE_SPACE}},
    {REC_SOLE_READS_DATASET, REC_KIND_H5_DATASET, 0, {REC_KIND_H5_PLIST},
     {REC_AROLE_DATASET, REC_AROLE_MEM_TYPE, REC_AROLE_MEM_SPACE, REC_AROLE_FILE_SPACE}},
    {REC_SOLE_CREATES_NC_FILE, 0, REC_KIND_NC_ID, {REC_KIND_MPI_COMM, REC_KIND_NC_MODE}, {REC_AROLE_NEW_PATH}},
    {REC_SOLE_OPENS_NC_FILE, 0, REC_KIND_NC_ID, {REC_KIND_MPI_COMM, REC_KIND_PATH}, {0}},
    {REC_SOLE_CLOSES_NC_FILE, REC_KIND_NC_ID, 0, {0}, {0}},
    {REC_SOLE_DEFINES_NC_DIM, REC_KIND_NC_ID, 0, {REC_KIND_STRING, REC_KIND_COUNT}, {0}},
    {REC_SOLE_DEFINES_NC_VAR, REC_KIND_NC_ID, 0, {REC_KIND_NC_TYPE, REC_KIND_NC_DIMID_ARRAY}, {0}},
    {REC_SOLE_ENDS_NC_DEFINE, REC_KIND_NC_ID, 0, {0}, {0}},
    {REC_SOLE_BEGINS_NC_INDEP, REC_KIND_NC_ID, 0, {0}, {0}},
    {REC_SOLE_ENDS_NC_INDEP, REC_KIND_NC_ID, 0, {0}, {0}},
    {REC_SOLE_WRITES_NC_VARA, REC_KIND_NC_ID, 0, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE}, {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_WRITES_NC_VARA_ALL, REC_KIND_NC_ID, 0, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE},
     {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_READS_NC_VARA, REC_KIND_NC_ID, 0, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE}, {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_READS_NC_VARA_ALL, REC_KIND_NC_ID, 0, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE},
     {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_STARTS_NC_WRITE_VARA, REC_KIND_NC_ID, REC_KIND_NC_REQUEST, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE},
     {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_STARTS_NC_READ_VARA, REC_KIND_NC_ID, REC_KIND_NC_REQUEST, {REC_KIND_NC_VARID, REC_KIND_MPI_DATATYPE},
     {REC_AROLE_STARTS, REC_AROLE_COUNT}},
    {REC_SOLE_WAITS_NC_ALL, REC_KIND_NC_ID, 0, {REC_KIND_COUNT}, {0}},
};

/* The kind of the handle f makes: its NEW argument's, else its return's. */
static unsigned made_kind(const rec_func_desc *f)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].flags & REC_ARG_CREATE)
            return f->args[a].kind;
    return (f->flags & REC_FN_CREATES) ? f->ret_kind : 0;
}

static void check_sole(const rec_func_desc *f)
{
    unsigned sole = rec_func_sole(f);
    if (sole == REC_SOLE_NONE)
        return;
    if (sole >= REC_SOLE_LIMIT) {
        table_error(f, "unknown sole role");
        return;
    }
    if (rec_function_with_sole(sole) != f)
        table_error(f, "a sole role another function has (SOLE(...) names what only one function does)");
    if (f->roles & REC_ROLE_LARGE_COUNT)
        table_error(f, "a large-count twin with a sole role: its base is the one");
    for (size_t i = 0; i < sizeof sole_needs / sizeof sole_needs[0]; i++) {
        if (sole_needs[i].sole != sole)
            continue;
        if (sole_needs[i].subject &&
            (f->nargs <= REC_ARG_SUBJECT || f->args[REC_ARG_SUBJECT].kind != sole_needs[i].subject))
            table_error(f, "its sole role acts on its first argument (REC_ARG_SUBJECT), of another kind");
        if (sole_needs[i].made && made_kind(f) != sole_needs[i].made)
            table_error(f, "its sole role makes a handle of another kind");
        for (unsigned k = 0; k < 2 && sole_needs[i].kinds[k]; k++)
            if (rec_arg_with_kind(f, sole_needs[i].kinds[k], REC_ARG_IN) < 0)
                table_error(f, "its sole role needs an IN argument of a kind it does not have");
        for (unsigned k = 0; k < 4 && sole_needs[i].roles[k]; k++)
            if (rec_arg_with_role(f, sole_needs[i].roles[k]) < 0)
                table_error(f, "its sole role needs an argument it does not mark (IS(...))");
    }
}

/* A combiner's constructor: its NEW datatype names the combiner, each IN
 * argument where MPI_Type_get_contents returns it. For n = 1, 2, 3 the
 * elements the arguments take of each array are disjoint and leave no
 * gap, as in the standard's layouts (MPI 4.0, 5.1.13), so every offset is
 * inside what MPI_Type_get_envelope reports. */
static void check_contents(const rec_func_desc *f)
{
    unsigned combiner = rec_func_combiner(f), sources = 0, combiners = 0;
    int n_arg = -1;
    for (unsigned a = 0; a < f->nargs; a++) {
        const rec_arg_desc *arg = &f->args[a];
        rec_contents s = rec_arg_contents(f, a);
        unsigned is_array = rec_kind_class(arg->kind) == REC_CLASS_ARRAY;
        unsigned is_type = arg->kind == REC_KIND_MPI_DATATYPE || arg->kind == REC_KIND_MPI_DATATYPE_ARRAY;
        if (s.array == REC_CONTENTS_NONE && (s.each || s.base || s.step))
            table_error(f, "FROM without an array");
        if (s.combiner) {
            combiners++;
            if (!(arg->flags & REC_ARG_CREATE) || arg->kind != REC_KIND_MPI_DATATYPE)
                table_error(f, "COMBINER goes on the NEW datatype a constructor makes");
        }
        if (s.array == REC_CONTENTS_NONE) {
            if (combiner && (arg->flags & REC_ARG_IN))
                table_error(f, "a combiner's constructor: an IN argument not FROM the contents");
            continue;
        }
        sources++;
        if (!(arg->flags & REC_ARG_IN) || (arg->flags & REC_ARG_OUT))
            table_error(f, "FROM on an argument that is not IN only");
        if (s.each != is_array)
            table_error(f, "FROM_N goes on arrays, FROM on single values");
        if ((s.array == REC_CONTENTS_TYPES) != is_type)
            table_error(f, "datatypes, and only they, come FROM(TYPES, ...)");
        if (s.each) {
            int l = rec_arg_length(f, a);
            if (l < 0 || (n_arg >= 0 && l != n_arg))
                table_error(f, "FROM_N arrays' length must name one argument, the same for all (n)");
            else
                n_arg = l;
        }
    }
    if (sources && !combiner)
        table_error(f, "FROM without a COMBINER on the NEW datatype");
    if (!combiner)
        return;
    if (combiner >= REC_COMBINER_LIMIT || combiners != 1)
        table_error(f, "COMBINER: once a constructor, a known combiner");
    if (f->roles & REC_ROLE_LARGE_COUNT)
        table_error(f, "a large-count twin: the classic constructor is the combiner's");
    for (const rec_func_desc *g = rec_functions; g < f; g++)
        if (rec_func_combiner(g) == combiner)
            table_error(f, "a combiner another function already constructs (COMBINER names one)");
    rec_contents n_src = n_arg >= 0 ? rec_arg_contents(f, (unsigned)n_arg) : (rec_contents){0, 0, 0, 0, 0};
    if (n_arg >= 0 && (n_src.array != REC_CONTENTS_INTS || n_src.each || n_src.step))
        table_error(f, "n, the arrays' length, must come FROM(INTS, i, 0)");
    for (unsigned n = 1; n <= 3; n++)
        for (unsigned array = REC_CONTENTS_INTS; array <= REC_CONTENTS_TYPES; array++) {
            unsigned char used[64] = {0};
            unsigned end = 0;
            for (unsigned a = 0; a < f->nargs; a++) {
                rec_contents s = rec_arg_contents(f, a);
                if (s.array != array)
                    continue;
                if (s.step && n_arg < 0)
                    table_error(f, "FROM with a step but no n (no FROM_N array names its length)");
                unsigned at = s.base + s.step * n, len = s.each ? n : 1;
                for (unsigned e = at; e < at + len && e < sizeof used; e++)
                    if (used[e]++)
                        table_error(f, "two arguments FROM the same element of the contents");
                end = at + len > end ? at + len : end;
            }
            for (unsigned e = 0; e < end && e < sizeof used; e++)
                if (!used[e]) {
                    table_error(f, "an element of the contents no argument comes FROM (a gap)");
                    break;
                }
        }
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
               (b->roles | REC_ROLE_LARGE_COUNT) == (f->roles | (b->roles & REC_ROLE_SINCE_MPI4)) &&
               b->shape == f->shape && b->header == f->header;
    for (unsigned a = 0; same && a < f->nargs; a++)
        same = b->args[a].kind == f->args[a].kind && b->args[a].role == f->args[a].role &&
               b->args[a].flags == f->args[a].flags &&
               strcmp(b->args[a].name, f->args[a].name) == 0;
    if (!same)
        table_error(f, "a large-count twin must match its base in every flag, role, kind and name");
}

/* __X_chk, __X_2, __isoc99_X: traced as X, so X must be traced and mean the
 * same; every argument of X is one of the twin's, of the same name, kind and
 * flags (but a variadic one the twin does not pass), and the twin's others
 * are the check's own integers, which no consumer reads. */
static void check_fortified(const rec_func_desc *f)
{
    const rec_func_desc *b = rec_func_plain_twin(f);
    if (!rec_func_fortified(f))
        return;
    if (!b) {
        table_error(f, "FORTIFIED, but no traced function of its name without __ and _chk, _2 or __isoc99_");
        return;
    }
    unsigned mask = ~(unsigned)(REC_FN_NODECL | REC_FN_VARIADIC);
    if (b->layer != f->layer || b->ret_kind != f->ret_kind || b->fail != f->fail || strcmp(b->ret_ctype, f->ret_ctype) ||
        (b->flags & mask) != (f->flags & mask) || b->roles != f->roles || b->shape != f->shape ||
        b->header != f->header || rec_func_plain_twin(b) || !(f->flags & REC_FN_NODECL))
        table_error(f, "a FORTIFIED entry point must be NODECL and match its plain twin in every flag, role and kind");
    for (unsigned a = 0; a < b->nargs; a++) {
        const rec_arg_desc *ba = &b->args[a];
        int found = 0;
        for (unsigned t = 0; t < f->nargs; t++)
            if (!strcmp(f->args[t].name, ba->name)) {
                found = 1;
                if (f->args[t].kind != ba->kind || f->args[t].role != ba->role ||
                    (f->args[t].flags & ~REC_ARG_VA) != (ba->flags & ~REC_ARG_VA) || strcmp(f->args[t].len, ba->len))
                    table_error(f, "an argument of a FORTIFIED entry point differs from its twin's of that name");
            }
        if (!found && !(ba->flags & REC_ARG_VA))
            table_error(f, "a FORTIFIED entry point lacks an argument of its twin that the twin always takes");
    }
    for (unsigned t = 0; t < f->nargs; t++)
        if (gen_arg_named(b, f->args[t].name) < 0 &&
            (f->args[t].kind != REC_KIND_INT || f->args[t].flags != REC_ARG_IN))
            table_error(f, "a FORTIFIED entry point's own argument must be a plain IN integer (the check's)");
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

static const char prototype_check_prelude[] =
    "/* Generated by gen_functions: every table entry's C types must match\n"
    " * the real declaration, or this file does not compile. */\n"
    "#define _GNU_SOURCE\n#include <dirent.h>\n#include <fcntl.h>\n#include <stdarg.h>\n"
    "#include <stdio.h>\n#include <sys/mman.h>\n#include <sys/stat.h>\n#include <sys/types.h>\n"
    "#include <sys/uio.h>\n#include <sys/time.h>\n#include <unistd.h>\n#include <utime.h>\n"
    "#include <wchar.h>\n#include <pthread.h>\n#include <mpi.h>\n#include <hdf5.h>\n#include \"rec_mpi_versions.h\"\n\n"
    "typedef int rec_int3[3]; /* functions/table_helpers.h */\n"
    "typedef void *(*rec_thread_start)(void *);\n\n";

/* One check per function of the layers an optional layer's guard names
 * (guard NULL: every layer every build has); the count of them. */
static size_t write_prototypes(FILE *out, const char *guard)
{
    size_t checked = 0;
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        if ((f->flags & REC_FN_NODECL) || gen_layer_guard(f->layer) != guard)
            continue;
        fprintf(out, "%s%s (*const check_%s)(", gen_guard_begin(f), f->ret_ctype, f->name);
        gen_print_params(out, f, 0);
        fprintf(out, ") = %s;\n%s", f->name, gen_guard_end(f));
        checked++;
    }
    return checked;
}

/* rec_prototype_check.c, and rec_prototype_check_<layer>.c for each
 * optional layer (checked where it is built): a file of its own, because
 * pnetcdf.h and netcdf.h define the same NC_ macros differently. */
static void write_prototype_check(const char *dir)
{
    FILE *out = gen_create("gen_functions", dir, "rec_prototype_check.c");
    fputs(prototype_check_prelude, out);
    size_t checked = write_prototypes(out, NULL);
    /* Every predefined handle must name a real constant. */
    fprintf(out, "\nvoid rec_check_handles(void);\nvoid rec_check_handles(void)\n{\n");
    for (size_t i = 0; i < rec_predefined_handle_count; i++) {
        const rec_handle_desc *h = &rec_predefined_handles[i];
        const char *guard = h->needs == REC_NEEDS_MPI4   ? "REC_HAVE_MPI4"
                            : h->needs == REC_NEEDS_MPI1 ? "REC_HAVE_MPI1"
                                                         : 0;
        fprintf(out, guard ? "#if %s\n    (void)(%s);\n#endif\n" : "%s    (void)(%s);\n", guard ? guard : "",
                h->name);
    }
    fprintf(out, "}\n");
    fprintf(out, "\nconst unsigned rec_prototypes_checked = %zu;\n", checked);
    gen_close("gen_functions", out, dir, "rec_prototype_check.c");
    for (unsigned layer = 0; layer < REC_LAYER_COUNT; layer++) {
        const char *guard = gen_layer_guard(layer);
        if (!guard)
            continue;
        char name[64];
        snprintf(name, sizeof name, "rec_prototype_check_%s.c", gen_layer_part(layer));
        out = gen_create("gen_functions", dir, name);
        fprintf(out, "%s#if %s\n%s", prototype_check_prelude, guard, gen_layer_includes(layer));
        size_t n = write_prototypes(out, guard);
        fprintf(out, "\nconst unsigned rec_prototypes_checked_%s = %zu;\n#endif\n", gen_layer_part(layer), n);
        gen_close("gen_functions", out, dir, name);
    }
}

/* Every sole role is some function's (a consumer finds it by the role). */
static void check_sole_roles_taken(void)
{
    for (unsigned sole = REC_SOLE_NONE + 1; sole < REC_SOLE_LIMIT; sole++) {
        int needs = 0;
        for (size_t i = 0; i < sizeof sole_needs / sizeof sole_needs[0]; i++)
            needs |= sole_needs[i].sole == sole;
        if (!rec_function_with_sole(sole) || !needs) {
            fprintf(stderr, "gen_functions: sole role %s: no function has it, or gen_functions does not "
                            "know what its consumer reads (sole_needs)\n", rec_sole_name(sole));
            errors++;
        }
    }
}

/* rec_combiners.h: MPI_Type_get_envelope's combiner -> the id of the
 * table's constructor of that combiner. A combiner a later MPI version
 * introduced is guarded by that version: the constants are enumerators
 * (MPICH, Open MPI), which #if cannot test. */
static void write_combiners(const char *dir)
{
    static const unsigned since[REC_COMBINER_LIMIT] = {
#define SINCE_(name, version) version,
        REC_COMBINER_LIST(SINCE_)
#undef SINCE_
    };
    FILE *out = gen_create("gen_functions", dir, "rec_combiners.h");
    fprintf(out, "/* Generated by gen_functions from the functions/ .def files: do not edit.\n"
                 " * The table's constructor of each MPI combiner (COMBINER(...) on its NEW\n"
                 " * datatype): rec_combiner_function(combiner) is the id of the function\n"
                 " * that makes a datatype MPI_Type_get_envelope reports with this\n"
                 " * combiner, from MPI_Type_get_contents' arrays (rec_arg_contents); 0\n"
                 " * for the others. Include after <mpi.h>. */\n"
                 "#ifndef REC_COMBINERS_H\n#define REC_COMBINERS_H\n\n#include \"rec_function_ids.h\"\n\n"
                 "static inline unsigned rec_combiner_function(int combiner)\n{\n    switch (combiner) {\n");
    for (unsigned c = REC_COMBINER_NONE + 1; c < REC_COMBINER_LIMIT; c++)
        for (size_t i = 0; i < rec_function_count; i++) {
            if (rec_func_combiner(&rec_functions[i]) != c)
                continue;
            const char *name = rec_combiner_name(c);
            if (since[c] > 2)
                fprintf(out, "#if MPI_VERSION >= %u\n", since[c]);
            fprintf(out, "    case MPI_COMBINER_%s:\n        return REC_ID_%s;\n", name, rec_functions[i].name);
            if (since[c] > 2)
                fprintf(out, "#endif\n");
        }
    fprintf(out, "    default:\n        return 0;\n    }\n}\n\n#endif\n");
    gen_close("gen_functions", out, dir, "rec_combiners.h");
}

static void write_wrap_options(const char *dir)
{
    FILE *out = gen_create("gen_functions", dir, "recorder-wrap.opts");
    gen_write_wrap_options(out, REC_LAYER_COUNT);
    gen_close("gen_functions", out, dir, "recorder-wrap.opts");
}

/* darshan.def names functions of the table, each once. */
static void check_darshan_marks(void)
{
    static const char *const names[] = {
#define DARSHAN(name, what) #name,
#include "darshan.def"
#undef DARSHAN
    };
    size_t n = sizeof names / sizeof names[0];
    for (size_t i = 0; i < n; i++) {
        if (!rec_function_by_name(names[i])) {
            fprintf(stderr, "gen_functions: darshan.def: %s is not in the table\n", names[i]);
            errors++;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0) {
                fprintf(stderr, "gen_functions: darshan.def: %s is listed twice\n", names[i]);
                errors++;
            }
    }
}

/* tuning.def names functions and arguments of the table; a call's MPI_Info
 * argument is an MPI_INFO, a list argument and a setter's first an
 * H5_PLIST; twins take the same arguments of the same kinds. */
static void tuning_arg(const char *row, const char *fn, const char *arg, unsigned kind)
{
    const rec_func_desc *f = rec_function_by_name(fn);
    int at = -1;
    for (unsigned a = 0; f && a < f->nargs; a++)
        if (!strcmp(f->args[a].name, arg))
            at = (int)a;
    if (!f || at < 0 || (kind && f->args[at].kind != kind)) {
        fprintf(stderr, "gen_functions: tuning.def: %s(%s, %s): %s\n", row, fn, arg,
                !f       ? "no such function in the table"
                : at < 0 ? "no such argument"
                         : "an argument of another kind");
        errors++;
    } else if (!strcmp(row, "TUNE_PROP") && f->args[0].kind != REC_KIND_H5_PLIST) {
        fprintf(stderr, "gen_functions: tuning.def: %s: a setter takes its list first\n", fn);
        errors++;
    }
}

static void tuning_twin(const char *a, const char *b)
{
    const rec_func_desc *f = rec_function_by_name(a), *g = rec_function_by_name(b);
    int same =
        f && g && f->nargs == g->nargs && (g->flags & REC_FN_COLLECTIVE) && !(f->flags & REC_FN_COLLECTIVE);
    for (unsigned i = 0; same && i < f->nargs; i++)
        same = f->args[i].kind == g->args[i].kind && !strcmp(f->args[i].name, g->args[i].name);
    if (!same) {
        fprintf(stderr,
                "gen_functions: tuning.def: TUNE_TWIN(%s, %s): not an independent call and its collective "
                "twin of the same arguments\n",
                a, b);
        errors++;
    }
}

static void check_tuning(void)
{
#define TUNE_INFO(f, a) tuning_arg("TUNE_INFO", #f, #a, REC_KIND_MPI_INFO);
#define TUNE_USE(f, a, c) tuning_arg("TUNE_USE", #f, #a, REC_KIND_H5_PLIST);
#define TUNE_TWIN(a, b) tuning_twin(#a, #b);
#define TUNE_DATA(k, doc)
#define TUNE_HINT(k, v, doc)
#define TUNE_PROP(k, f, a, c, v, d, doc) tuning_arg("TUNE_PROP", #f, #a, 0);
#include "tuning.def"
#include "tuning_end.h"
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_functions OUTDIR\n");
        return 2;
    }
    check_table();
    check_sole_roles_taken();
    check_handles();
    check_darshan_marks();
    check_tuning();
    if (errors) {
        fprintf(stderr, "gen_functions: %d error(s) in the function table\n", errors);
        return 1;
    }
    write_ids(argv[1]);
    write_prototype_check(argv[1]);
    write_wrap_options(argv[1]);
    write_combiners(argv[1]);
    return 0;
}
