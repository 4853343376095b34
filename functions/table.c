/* table.c: the compiled-in function table, expanded from the functions/ .def files. */
#include "recorder_functions.h"

#include <ctype.h>
#include <string.h>

#include "table_macros.h"

/* One argument array per function: the A() entries plus a terminator, so a
 * function without arguments still has a (one-element) array. */
#define A(ctype, name, kind, flags, len)                                                            \
    {#name, #ctype, REC_KIND_##kind, (uint8_t)((flags)&0xff), len, (uint8_t)(((flags) >> 8) & 0xff)},
#define FN(id, name, layer, rtype, rkind, fail, flags, args) \
    static const rec_arg_desc args_of_##name[] = {args{0, 0, 0, 0, 0, 0}};
#include "all_functions.def"
#undef FN

#define FN(id, name, layer, rtype, rkind, fail, flags, args)                        \
    {id,                                                                            \
     REC_LAYER_##layer,                                                             \
     REC_KIND_##rkind,                                                              \
     REC_FAIL_##fail,                                                               \
     (uint8_t)(sizeof args_of_##name / sizeof args_of_##name[0] - 1),               \
     (uint16_t)((flags)&0xffff),                                                    \
     #name,                                                                         \
     #rtype,                                                                        \
     args_of_##name,                                                                \
     (uint32_t)((uint64_t)(flags) >> 16),                                           \
     (uint8_t)(((uint64_t)(flags) >> DEF_SHAPE_AT) & 0x3f),                         \
     (uint8_t)(((uint64_t)(flags) >> DEF_HEADER_AT) & 0x7)},
const rec_func_desc rec_functions[] = {
#include "all_functions.def"
};
#undef FN
#undef A

/* What the descriptors leave out, in .def order beside rec_functions[]: an
 * entry's sole role, whether it is FORTIFIED, and its arguments' contents
 * sources and combiner
 * (the bits from DEF_CONTENTS_AT: array 0-1, each 2, base 3-6, step 7-9,
 * combiner 10-14). */
#define A(ctype, name, kind, flags, len) (uint16_t)((uint32_t)(flags) >> DEF_CONTENTS_AT),
#define FN(id, name, layer, rtype, rkind, fail, flags, args) static const uint16_t contents_of_##name[] = {args 0};
#include "all_functions.def"
#undef FN
#undef A
#define FN(id, name, layer, rtype, rkind, fail, flags, args) \
    {(uint8_t)(((uint64_t)(flags) >> DEF_SOLE_AT) & 0x3f), (uint8_t)(((uint64_t)(flags) >> DEF_FORTIFIED_AT) & 1), \
     contents_of_##name},
static const struct {
    uint8_t sole, fortified;
    const uint16_t *contents;
} beside[] = {
#include "all_functions.def"
};
#undef FN
#include "table_macros_end.h"

_Static_assert(REC_SHAPE_LIMIT <= 64 && REC_HEADER_LAST < 8 && REC_SOLE_LIMIT <= 64 &&
                   REC_COMBINER_LIMIT <= 32 && REC_AROLE_LIMIT <= 256,
               "a shape, header, sole role, combiner or argument role outgrows its bits (table_macros.h)");

const size_t rec_function_count = sizeof rec_functions / sizeof rec_functions[0];

/* id -> index, built on first use (ids are dense below REC_FUNCTION_ID_LIMIT). */
static short index_of_id[REC_FUNCTION_ID_LIMIT];
static int index_ready;

static void build_index(void)
{
    for (size_t i = 0; i < REC_FUNCTION_ID_LIMIT; i++)
        index_of_id[i] = -1;
    for (size_t i = 0; i < rec_function_count; i++)
        if (rec_functions[i].id < REC_FUNCTION_ID_LIMIT)
            index_of_id[rec_functions[i].id] = (short)i;
    __atomic_store_n(&index_ready, 1, __ATOMIC_RELEASE);
}

const rec_func_desc *rec_function_by_id(unsigned id)
{
    if (!__atomic_load_n(&index_ready, __ATOMIC_ACQUIRE))
        build_index();
    if (id >= REC_FUNCTION_ID_LIMIT || index_of_id[id] < 0)
        return NULL;
    return &rec_functions[index_of_id[id]];
}

const rec_func_desc *rec_function_by_name(const char *name)
{
    for (size_t i = 0; i < rec_function_count; i++)
        if (strcmp(rec_functions[i].name, name) == 0)
            return &rec_functions[i];
    return NULL;
}

static const char *const layer_names[REC_LAYER_COUNT] = {"POSIX", "MPI", "MPI-IO", "HDF5", "PnetCDF", "netCDF"};

const char *rec_layer_name(unsigned layer)
{
    return layer < REC_LAYER_COUNT ? layer_names[layer] : "?";
}

/* HDF5 says so in H5pubconf.h, PnetCDF in pnetcdf.h; netCDF-C 4.9 has no thread-safe build. */
static const char *const layer_thread_safe_tests[REC_LAYER_COUNT] = {
    [REC_LAYER_HDF5] = "defined(H5_HAVE_THREADSAFE)",
    [REC_LAYER_PNETCDF] = "defined(PNETCDF_THREAD_SAFE) && PNETCDF_THREAD_SAFE",
    [REC_LAYER_NETCDF] = "0",
};

const char *rec_layer_thread_safe_test(unsigned layer)
{
    return layer < REC_LAYER_COUNT ? layer_thread_safe_tests[layer] : NULL;
}

int rec_layer_from_name(const char *name)
{
    for (int i = 0; i < REC_LAYER_COUNT; i++)
        if (strcmp(layer_names[i], name) == 0)
            return i;
    return -1;
}

static const struct {
    const char *name;
    rec_class cls;
} kind_info[REC_KIND_LIMIT] = {
#define REC_KIND_INFO_(name, num, cls, doc) [num] = {#name, REC_CLASS_##cls},
    REC_KIND_LIST(REC_KIND_INFO_)
#undef REC_KIND_INFO_
};

const char *rec_kind_name(unsigned kind)
{
    return kind < REC_KIND_LIMIT ? kind_info[kind].name : NULL;
}

rec_class rec_kind_class(unsigned kind)
{
    return kind < REC_KIND_LIMIT && kind_info[kind].name ? kind_info[kind].cls : REC_CLASS_NONE;
}

const rec_handle_desc rec_predefined_handles[] = {
#define H(kind, id, expr) {REC_KIND_##kind, id, #expr, 0, 0, 0},
#define T(kind, id, expr, size, extent) {REC_KIND_##kind, id, #expr, size, extent, 0},
#define HA(kind, id, expr, avail) {REC_KIND_##kind, id, #expr, 0, 0, REC_NEEDS_##avail},
#define TA(kind, id, expr, size, extent, avail) {REC_KIND_##kind, id, #expr, size, extent, REC_NEEDS_##avail},
#include "handles.def"
#undef T
#undef H
};
const size_t rec_predefined_handle_count = sizeof rec_predefined_handles / sizeof rec_predefined_handles[0];

const rec_mpi_constant rec_mpi_constants[] = {
#define C(kind, name, value) {REC_KIND_##kind, #name, value},
#include "constants.def"
#undef C
};
const size_t rec_mpi_constant_count = sizeof rec_mpi_constants / sizeof rec_mpi_constants[0];

int rec_kind_has_mpi_constants(unsigned kind)
{
    for (size_t i = 0; i < rec_mpi_constant_count; i++)
        if (rec_mpi_constants[i].kind == kind)
            return 1;
    return 0;
}

int64_t rec_mpi_constant_value(const char *name)
{
    for (size_t i = 0; i < rec_mpi_constant_count; i++)
        if (!strcmp(rec_mpi_constants[i].name, name))
            return rec_mpi_constants[i].value;
    return 0;
}

const char *rec_mpi_constant_name(unsigned kind, int64_t value)
{
    for (size_t i = 0; i < rec_mpi_constant_count; i++)
        if (rec_mpi_constants[i].kind == kind && rec_mpi_constants[i].value == value)
            return rec_mpi_constants[i].name;
    return NULL;
}

const rec_handle_desc *rec_predefined_handle(unsigned kind, int64_t id)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        if (rec_predefined_handles[i].kind == kind && rec_predefined_handles[i].id == id)
            return &rec_predefined_handles[i];
    return NULL;
}

const char *rec_predefined_handle_name(unsigned kind, int64_t id)
{
    const rec_handle_desc *h = rec_predefined_handle(kind, id);
    return h ? h->name : NULL;
}

const char *rec_operator_params(const char *ctype, const char **ret_ctype)
{
    static const struct {
        const char *ctype, *ret, *params;
    } operators[] = {
#define OP(type, ret, params) {#type, #ret, #params},
#define REDUCTION(type, count)
#define ERRHANDLER(type, subject)
#include "operators.def"
#undef ERRHANDLER
#undef REDUCTION
#undef OP
    };
    for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
        if (!strcmp(operators[i].ctype, ctype)) {
            *ret_ctype = operators[i].ret;
            return operators[i].params;
        }
    return NULL;
}

/* The second field of the REDUCTION or ERRHANDLER entry of operators.def
 * whose function type ctype points to, or NULL. */
enum { CALLBACK_REDUCTION, CALLBACK_ERRHANDLER };
static const char *callback_entry(unsigned which, const char *ctype)
{
    static const struct {
        unsigned which;
        const char *ctype, *field;
    } entries[] = {
#define OP(type, ret, params)
#define REDUCTION(type, count) {CALLBACK_REDUCTION, #type " *", #count},
#define ERRHANDLER(type, subject) {CALLBACK_ERRHANDLER, #type " *", #subject},
#include "operators.def"
#undef ERRHANDLER
#undef REDUCTION
#undef OP
    };
    for (size_t i = 0; ctype && i < sizeof entries / sizeof entries[0]; i++)
        if (entries[i].which == which && !strcmp(entries[i].ctype, ctype))
            return entries[i].field;
    return NULL;
}

const char *rec_reduction_count_ctype(const char *ctype)
{
    return callback_entry(CALLBACK_REDUCTION, ctype);
}

const char *rec_errhandler_subject_ctype(const char *ctype)
{
    return callback_entry(CALLBACK_ERRHANDLER, ctype);
}

unsigned rec_param_names(const char *params, const char **names, unsigned *lens, unsigned max)
{
    unsigned n = 0;
    for (const char *p = params; *p && *p != ')' && n < max; p++) {
        if (*p != ',' && p[1] != ')')
            continue;
        const char *end = *p == ',' ? p : p + 1, *name = end;
        while (name > params && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
            name--;
        names[n] = name;
        lens[n++] = (unsigned)(end - name);
    }
    return n;
}

unsigned rec_kind_handle_space(unsigned kind)
{
    switch (kind) {
    case REC_KIND_FD: case REC_KIND_DIRFD: return REC_SPACE_FD;
    case REC_KIND_FILE_STREAM: return REC_SPACE_FILE;
    case REC_KIND_DIR_STREAM: return REC_SPACE_DIR;
    case REC_KIND_MAPPING: return REC_SPACE_MAPPING;
    case REC_KIND_MPI_COMM: return REC_SPACE_COMM;
    case REC_KIND_MPI_DATATYPE: case REC_KIND_MPI_DATATYPE_ARRAY: return REC_SPACE_DATATYPE;
    case REC_KIND_MPI_OP: return REC_SPACE_OP;
    case REC_KIND_MPI_INFO: return REC_SPACE_INFO;
    case REC_KIND_MPI_REQUEST: case REC_KIND_MPI_REQUEST_ARRAY: return REC_SPACE_REQUEST;
    case REC_KIND_MPI_FILE: return REC_SPACE_MPIFILE;
    case REC_KIND_MPI_GROUP: return REC_SPACE_GROUP;
    case REC_KIND_MPI_ERRHANDLER: return REC_SPACE_ERRHANDLER;
    case REC_KIND_NC_ID: return REC_SPACE_NCFILE;
    case REC_KIND_NC_REQUEST: case REC_KIND_NC_REQUEST_ARRAY: return REC_SPACE_NCREQUEST;
    case REC_KIND_PTHREAD_BARRIER: return REC_SPACE_BARRIER;
    case REC_KIND_H5_FILE: case REC_KIND_H5_GROUP: case REC_KIND_H5_DATASET: case REC_KIND_H5_SPACE:
    case REC_KIND_H5_PLIST: case REC_KIND_H5_ATTR: case REC_KIND_H5_TYPE: case REC_KIND_H5_LOC:
    case REC_KIND_H5_PLIST_CLASS:
        return REC_SPACE_HDF5;
    default: return REC_SPACE_NONE;
    }
}

int rec_space_counts_references(unsigned space)
{
    return space == REC_SPACE_COMM || space == REC_SPACE_DATATYPE || space == REC_SPACE_INFO ||
           space == REC_SPACE_GROUP || space == REC_SPACE_HDF5 || space == REC_SPACE_ERRHANDLER;
}

int rec_func_reference_change(const rec_func_desc *f)
{
    if (!f->nargs || rec_kind_handle_space(f->args[REC_ARG_SUBJECT].kind) == REC_SPACE_NONE)
        return 0;
    if ((f->flags & REC_FN_DESTROYS) || (f->roles & REC_ROLE_DROPS_REFERENCE))
        return -1;
    return (f->roles & REC_ROLE_ADDS_REFERENCE) ? 1 : 0;
}

int rec_arg_with_role(const rec_func_desc *f, unsigned role)
{
    for (unsigned a = 0; role != REC_AROLE_NONE && a < f->nargs; a++)
        if (f->args[a].role == role)
            return (int)a;
    return -1;
}

int rec_arg_with_kind(const rec_func_desc *f, unsigned kind, unsigned flags)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].kind == kind && (f->args[a].flags & flags) == flags)
            return (int)a;
    return -1;
}

/* The names of the X-macro lists' entries (shapes, roles, sole roles,
 * combiners), each list's in enum order. */
#define NAME_(name, ...) #name,
static const char *const shape_names[REC_SHAPE_LIMIT] = {REC_SHAPE_LIST(NAME_)};
static const char *const arole_names[REC_AROLE_LIMIT] = {REC_AROLE_LIST(NAME_)};
static const char *const sole_names[REC_SOLE_LIMIT] = {REC_SOLE_LIST(NAME_)};
static const char *const combiner_names[REC_COMBINER_LIMIT] = {REC_COMBINER_LIST(NAME_)};
#undef NAME_

const char *rec_shape_name(unsigned shape)
{
    return shape < REC_SHAPE_LIMIT ? shape_names[shape] : NULL;
}

const char *rec_arole_name(unsigned role)
{
    return role < REC_AROLE_LIMIT ? arole_names[role] : NULL;
}

const char *rec_sole_name(unsigned sole)
{
    return sole < REC_SOLE_LIMIT ? sole_names[sole] : NULL;
}

const char *rec_combiner_name(unsigned combiner)
{
    return combiner < REC_COMBINER_LIMIT ? combiner_names[combiner] : NULL;
}

/* The compiled-in entry f is, or the one a trace's entry f (its arguments
 * `args`) stands for: the same id, name, return and argument kinds, but
 * DERIVED fields the compiled-in one adds after f's (a trace made before
 * them: its arguments are the first ones, in the same places); NULL. */
static const rec_func_desc *compiled_entry(const rec_func_desc *f, const rec_arg_desc *args)
{
    const rec_func_desc *mine = rec_function_by_id(f->id);
    if (mine == f)
        return mine;
    int same = mine && f->name && strcmp(mine->name, f->name) == 0 && mine->nargs >= f->nargs &&
               mine->ret_kind == f->ret_kind;
    for (unsigned a = 0; same && a < f->nargs; a++)
        same = mine->args[a].kind == args[a].kind;
    for (unsigned a = f->nargs; same && a < mine->nargs; a++)
        same = (mine->args[a].flags & REC_ARG_DERIVED) != 0;
    return same ? mine : NULL;
}

void rec_func_adopt_roles(rec_func_desc *f, rec_arg_desc *args)
{
    const rec_func_desc *mine = compiled_entry(f, args);
    int same = mine != NULL;
    f->roles = same ? mine->roles : 0;
    f->shape = same ? mine->shape : 0;
    f->header = same ? mine->header : 0;
    for (unsigned a = 0; a < f->nargs; a++)
        args[a].role = same ? mine->args[a].role : 0;
}

unsigned rec_func_sole(const rec_func_desc *f)
{
    const rec_func_desc *mine = compiled_entry(f, f->args);
    return mine ? beside[mine - rec_functions].sole : REC_SOLE_NONE;
}

const rec_func_desc *rec_function_with_sole(unsigned sole)
{
    for (size_t i = 0; sole != REC_SOLE_NONE && i < rec_function_count; i++)
        if (beside[i].sole == sole)
            return &rec_functions[i];
    return NULL;
}

/* Argument arg's bits from DEF_CONTENTS_AT (0 for none). */
static unsigned contents_bits(const rec_func_desc *f, unsigned arg)
{
    const rec_func_desc *mine = arg < f->nargs ? compiled_entry(f, f->args) : NULL;
    return mine ? beside[mine - rec_functions].contents[arg] : 0;
}

rec_contents rec_arg_contents(const rec_func_desc *f, unsigned arg)
{
    unsigned bits = contents_bits(f, arg);
    return (rec_contents){(uint8_t)(bits & 3), (uint8_t)(bits >> 2 & 1), (uint8_t)(bits >> 3 & 0xf),
                          (uint8_t)(bits >> 7 & 7), (uint8_t)(bits >> 10 & 0x1f)};
}

unsigned rec_func_combiner(const rec_func_desc *f)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (rec_arg_contents(f, a).combiner)
            return rec_arg_contents(f, a).combiner;
    return REC_COMBINER_NONE;
}

int rec_arg_length(const rec_func_desc *f, unsigned arg)
{
    const char *len = arg < f->nargs ? f->args[arg].len : NULL;
    for (unsigned a = 0; len && len[0] && a < f->nargs; a++)
        if (a != arg && f->args[a].name && strcmp(f->args[a].name, len) == 0)
            return (int)a;
    return -1;
}

int rec_func_fortified(const rec_func_desc *f)
{
    const rec_func_desc *mine = f ? compiled_entry(f, f->args) : NULL;
    return mine && beside[mine - rec_functions].fortified;
}

unsigned rec_func_darshan(const rec_func_desc *f)
{
    static const struct {
        const char *name;
        uint8_t what;
    } marks[] = {
#define DARSHAN(name, what) {#name, REC_DARSHAN_##what},
#include "darshan.def"
#undef DARSHAN
    };
    const rec_func_desc *mine = f ? compiled_entry(f, f->args) : NULL;
    for (size_t i = 0; mine && i < sizeof marks / sizeof marks[0]; i++)
        if (strcmp(marks[i].name, mine->name) == 0)
            return marks[i].what;
    return REC_DARSHAN_NONE;
}

/* __X_chk and __X_2 (_FORTIFY_SOURCE), __isoc99_X (C99 scanf): X. */
const rec_func_desc *rec_func_plain_twin(const rec_func_desc *f)
{
    static const struct {
        const char *prefix, *suffix;
    } forms[] = {{"__isoc99_", ""}, {"__", "_chk"}, {"__", "_2"}};
    if (!rec_func_fortified(f))
        return NULL;
    size_t n = strlen(f->name);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        size_t p = strlen(forms[i].prefix), s = strlen(forms[i].suffix);
        char plain[128];
        if (n <= p + s || n - p - s >= sizeof plain || strncmp(f->name, forms[i].prefix, p) ||
            strcmp(f->name + n - s, forms[i].suffix))
            continue;
        memcpy(plain, f->name + p, n - p - s);
        plain[n - p - s] = 0;
        const rec_func_desc *twin = rec_function_by_name(plain);
        if (twin && twin != f)
            return twin;
    }
    return NULL;
}

const rec_func_desc *rec_func_int_twin(const rec_func_desc *f)
{
    size_t n = strlen(f->name);
    char base[128];
    if (!(f->roles & REC_ROLE_LARGE_COUNT) || n < 3 || n - 2 >= sizeof base || strcmp(f->name + n - 2, "_c"))
        return NULL;
    memcpy(base, f->name, n - 2);
    base[n - 2] = 0;
    return rec_function_by_name(base);
}

unsigned rec_kind_element(unsigned kind)
{
    switch (kind) {
    case REC_KIND_MPI_DATATYPE_ARRAY: return REC_KIND_MPI_DATATYPE;
    case REC_KIND_MPI_REQUEST_ARRAY: return REC_KIND_MPI_REQUEST;
    case REC_KIND_NC_REQUEST_ARRAY: return REC_KIND_NC_REQUEST;
    case REC_KIND_NC_DIMID_ARRAY: return REC_KIND_NC_DIMID;
    case REC_KIND_NC_VARID_ARRAY: return REC_KIND_NC_VARID;
    default: return kind;
    }
}

const unsigned rec_layers_top_down[REC_LAYER_COUNT] = {REC_LAYER_NETCDF, REC_LAYER_PNETCDF, REC_LAYER_HDF5, REC_LAYER_MPIIO,
                                                       REC_LAYER_MPI, REC_LAYER_POSIX};

int rec_kind_is_handle_array(unsigned kind)
{
    return rec_kind_element(kind) != kind && rec_kind_handle_space(rec_kind_element(kind)) != REC_SPACE_NONE;
}

int rec_arg_minus_one_is_null(const rec_func_desc *f, unsigned arg)
{
    if (arg >= f->nargs || !(f->args[arg].flags & REC_ARG_OUT) || (f->args[arg].flags & REC_ARG_IN) ||
        !strchr(f->args[arg].ctype, '*'))
        return 0;
    unsigned kind = f->args[arg].kind;
    return kind == REC_KIND_NC_TYPE || kind == REC_KIND_NC_FORMAT || kind == REC_KIND_NC_MODE ||
           kind == REC_KIND_NC_FILL_MODE ||
           (f->layer == REC_LAYER_PNETCDF && (kind == REC_KIND_COUNT || kind == REC_KIND_SIZE)) ||
           (f->layer == REC_LAYER_NETCDF && rec_kind_class(kind) == REC_CLASS_INT && rec_kind_handle_space(kind) == REC_SPACE_NONE);
}
