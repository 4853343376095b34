/* table.c: the compiled-in function table, expanded from the functions/ .def files. */
#include "recorder_functions.h"

#include <string.h>

#include "table_macros.h"

/* One argument array per function: the A() entries plus a terminator, so a
 * function without arguments still has a (one-element) array. */
#define A(ctype, name, kind, flags, len) {#name, #ctype, REC_KIND_##kind, (flags), len},
#define FN(id, name, layer, rtype, rkind, fail, flags, args) \
    static const rec_arg_desc args_of_##name[] = {args{0, 0, 0, 0, 0}};
#include "all_functions.def"
#undef FN

#define FN(id, name, layer, rtype, rkind, fail, flags, args)                        \
    {id,                                                                            \
     REC_LAYER_##layer,                                                             \
     REC_KIND_##rkind,                                                              \
     REC_FAIL_##fail,                                                               \
     (uint8_t)(sizeof args_of_##name / sizeof args_of_##name[0] - 1),               \
     (flags),                                                                       \
     #name,                                                                         \
     #rtype,                                                                        \
     args_of_##name},
const rec_func_desc rec_functions[] = {
#include "all_functions.def"
};
#undef FN
#undef A
#include "table_macros_end.h"

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

static const char *const layer_names[REC_LAYER_COUNT] = {"POSIX", "MPI", "MPI-IO", "HDF5"};

const char *rec_layer_name(unsigned layer)
{
    return layer < REC_LAYER_COUNT ? layer_names[layer] : "?";
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
#define H(kind, id, expr) {REC_KIND_##kind, id, #expr},
#include "handles.def"
#undef H
};
const size_t rec_predefined_handle_count = sizeof rec_predefined_handles / sizeof rec_predefined_handles[0];

const char *rec_predefined_handle_name(unsigned kind, int64_t id)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        if (rec_predefined_handles[i].kind == kind && rec_predefined_handles[i].id == id)
            return rec_predefined_handles[i].name;
    return NULL;
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
    case REC_KIND_H5_FILE: case REC_KIND_H5_GROUP: case REC_KIND_H5_DATASET: case REC_KIND_H5_SPACE:
    case REC_KIND_H5_PLIST: case REC_KIND_H5_ATTR: case REC_KIND_H5_TYPE: case REC_KIND_H5_LOC:
    case REC_KIND_H5_PLIST_CLASS:
        return REC_SPACE_HDF5;
    default: return REC_SPACE_NONE;
    }
}

int rec_kind_is_handle(unsigned kind)
{
    return rec_kind_handle_space(kind) != REC_SPACE_NONE && rec_kind_class(kind) == REC_CLASS_INT;
}

int rec_kind_pointer_is_value(unsigned kind)
{
    return kind == REC_KIND_FILE_STREAM || kind == REC_KIND_DIR_STREAM || kind == REC_KIND_MAPPING;
}

static int ends_with_star(const char *ctype)
{
    size_t n = strlen(ctype);
    return n && ctype[n - 1] == '*';
}

int rec_arg_by_pointer(const rec_arg_desc *a)
{
    rec_class cls = rec_kind_class(a->kind);
    if (!ends_with_star(a->ctype) || rec_kind_pointer_is_value(a->kind) || cls == REC_CLASS_ARRAY ||
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
}
