/* printer.c: renders records as text, each argument by its kind's meaning:
 * paths as paths, flags symbolically, handles by name or per-rank id.
 * Constant values come from the system, MPI and HDF5 headers this was built
 * against (traces are read on the kind of system that wrote them). */
#define _GNU_SOURCE
#include "recorder_format.h"
#include "rec_bytes.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* H5F_ACC_* expand to "H5check(), H5open(), value": only the value is wanted. */
#undef H5CHECK
#undef H5OPEN
#define H5CHECK
#define H5OPEN

typedef struct named {
    int64_t value;
    const char *name;
} named;

#define N(c) {(int64_t)(c), #c}
#define END {0, NULL}

static const named whence_names[] = {N(SEEK_SET), N(SEEK_CUR), N(SEEK_END), END};
static const named oflag_names[] = {N(O_TMPFILE), N(O_SYNC), N(O_CREAT),  N(O_EXCL),   N(O_NOCTTY),    N(O_TRUNC),    N(O_APPEND),
                                    N(O_NONBLOCK), N(O_DSYNC), N(O_DIRECT),   N(O_LARGEFILE), N(O_DIRECTORY),
                                    N(O_NOFOLLOW), N(O_NOATIME), N(O_CLOEXEC), N(O_PATH), END};
static const named access_names[] = {N(R_OK), N(W_OK), N(X_OK), END};
static const named at_names[] = {N(AT_SYMLINK_NOFOLLOW), N(AT_REMOVEDIR), N(AT_SYMLINK_FOLLOW),
                                 N(AT_NO_AUTOMOUNT), N(AT_EMPTY_PATH), N(AT_EACCESS), END};
static const named fcntl_names[] = {N(F_DUPFD), N(F_GETFD), N(F_SETFD), N(F_GETFL), N(F_SETFL), N(F_GETLK),
                                    N(F_SETLK), N(F_SETLKW), N(F_DUPFD_CLOEXEC), N(F_SETOWN), N(F_GETOWN),
                                    N(F_OFD_GETLK), N(F_OFD_SETLK), N(F_OFD_SETLKW), END};
static const named prot_names[] = {N(PROT_READ), N(PROT_WRITE), N(PROT_EXEC), END};
static const named map_names[] = {N(MAP_SHARED), N(MAP_PRIVATE), N(MAP_FIXED), N(MAP_ANONYMOUS),
                                  N(MAP_POPULATE), N(MAP_NORESERVE), END};
static const named amode_names[] = {N(MPI_MODE_RDONLY), N(MPI_MODE_RDWR), N(MPI_MODE_WRONLY),
                                    N(MPI_MODE_CREATE), N(MPI_MODE_EXCL), N(MPI_MODE_DELETE_ON_CLOSE),
                                    N(MPI_MODE_UNIQUE_OPEN), N(MPI_MODE_SEQUENTIAL), N(MPI_MODE_APPEND), END};
static const named facc_names[] = {N(H5F_ACC_RDWR), N(H5F_ACC_TRUNC), N(H5F_ACC_EXCL), N(H5F_ACC_CREAT),
                                   N(H5F_ACC_SWMR_WRITE), N(H5F_ACC_SWMR_READ), END};
static const named selop_names[] = {N(H5S_SELECT_NOOP), N(H5S_SELECT_SET), N(H5S_SELECT_OR), N(H5S_SELECT_AND),
                                    N(H5S_SELECT_XOR), N(H5S_SELECT_NOTB), N(H5S_SELECT_NOTA),
                                    N(H5S_SELECT_APPEND), N(H5S_SELECT_PREPEND), END};
static const named xfer_names[] = {N(H5FD_MPIO_INDEPENDENT), N(H5FD_MPIO_COLLECTIVE), END};
static const named layout_names[] = {N(H5D_COMPACT), N(H5D_CONTIGUOUS), N(H5D_CHUNKED), N(H5D_VIRTUAL), END};
static const named alloc_names[] = {N(H5D_ALLOC_TIME_DEFAULT), N(H5D_ALLOC_TIME_EARLY), N(H5D_ALLOC_TIME_LATE),
                                    N(H5D_ALLOC_TIME_INCR), END};
static const named fill_names[] = {N(H5D_FILL_TIME_ALLOC), N(H5D_FILL_TIME_NEVER), N(H5D_FILL_TIME_IFSET), END};
static const named scope_names[] = {N(H5F_SCOPE_LOCAL), N(H5F_SCOPE_GLOBAL), END};
static const named tclass_names[] = {N(H5T_INTEGER), N(H5T_FLOAT), N(H5T_TIME),   N(H5T_STRING),
                                     N(H5T_BITFIELD), N(H5T_OPAQUE), N(H5T_COMPOUND), N(H5T_REFERENCE),
                                     N(H5T_ENUM),    N(H5T_VLEN),  N(H5T_ARRAY), END};
static const named sclass_names[] = {N(H5S_SCALAR), N(H5S_SIMPLE), N(H5S_NULL), END};
static const named index_names[] = {N(H5_INDEX_NAME), N(H5_INDEX_CRT_ORDER), END};
static const named iter_names[] = {N(H5_ITER_INC), N(H5_ITER_DEC), N(H5_ITER_NATIVE), END};
/* netCDF's constants by value: they are its file format's and API's, the same in
 * every build, so the printer needs no netCDF header. */
static const named nc_type_names[] = {{1, "NC_BYTE"},   {2, "NC_CHAR"},   {3, "NC_SHORT"}, {4, "NC_INT"},
                                      {5, "NC_FLOAT"},  {6, "NC_DOUBLE"}, {7, "NC_UBYTE"}, {8, "NC_USHORT"},
                                      {9, "NC_UINT"},   {10, "NC_INT64"}, {11, "NC_UINT64"}, {12, "NC_STRING"},
                                      END};
static const named nc_mode_names[] = {{0x1, "NC_WRITE"},          {0x4, "NC_NOCLOBBER"},   {0x8, "NC_DISKLESS"},
                                      {0x20, "NC_64BIT_DATA"},    {0x100, "NC_CLASSIC_MODEL"}, {0x200, "NC_64BIT_OFFSET"},
                                      {0x800, "NC_SHARE"},        {0x1000, "NC_NETCDF4"},  {0x2000, "NC_MPIIO"},
                                      {0x4000, "NC_PERSIST"},     {0x8000, "NC_INMEMORY"}, {0x20000, "NC_NOATTCREORD"},
                                      {0x40000, "NC_NODIMSCALE_ATTACH"}, END};
static const named nc_format_names[] = {{1, "NC_FORMAT_CLASSIC"}, {2, "NC_FORMAT_64BIT_OFFSET"},
                                        {3, "NC_FORMAT_NETCDF4"}, {4, "NC_FORMAT_NETCDF4_CLASSIC"},
                                        {5, "NC_FORMAT_64BIT_DATA"}, END};
static const named nc_fill_names[] = {{0, "NC_FILL"}, {0x100, "NC_NOFILL"}, END};
static const named nc_error_names[] = {
    {0, "NC_NOERR"},        {-33, "NC_EBADID"},     {-34, "NC_ENFILE"},    {-35, "NC_EEXIST"},
    {-36, "NC_EINVAL"},     {-37, "NC_EPERM"},      {-38, "NC_ENOTINDEFINE"}, {-39, "NC_EINDEFINE"},
    {-40, "NC_EINVALCOORDS"}, {-41, "NC_EMAXDIMS"}, {-42, "NC_ENAMEINUSE"}, {-43, "NC_ENOTATT"},
    {-44, "NC_EMAXATTS"},   {-45, "NC_EBADTYPE"},   {-46, "NC_EBADDIM"},   {-47, "NC_EUNLIMPOS"},
    {-48, "NC_EMAXVARS"},   {-49, "NC_ENOTVAR"},    {-50, "NC_EGLOBAL"},   {-51, "NC_ENOTNC"},
    {-52, "NC_ESTS"},       {-53, "NC_EMAXNAME"},   {-54, "NC_EUNLIMIT"},  {-55, "NC_ENORECVARS"},
    {-56, "NC_ECHAR"},      {-57, "NC_EEDGE"},      {-58, "NC_ESTRIDE"},   {-59, "NC_EBADNAME"},
    {-60, "NC_ERANGE"},     {-61, "NC_ENOMEM"},     {-62, "NC_EVARSIZE"},  {-63, "NC_EDIMSIZE"},
    {-64, "NC_ETRUNC"},     {-68, "NC_EIO"},        {-77, "NC_EACCESS"},   {-90, "NC_ENOTFOUND"},
    {-92, "NC_EINTERNAL"},  {-93, "NC_EPNETCDF"},   {-101, "NC_EHDFERR"},  {-102, "NC_ECANTREAD"},
    {-103, "NC_ECANTWRITE"}, {-104, "NC_ECANTCREATE"}, {-105, "NC_EFILEMETA"}, {-106, "NC_EDIMMETA"},
    {-107, "NC_EATTMETA"},  {-108, "NC_EVARMETA"},  {-110, "NC_EATTEXISTS"}, {-111, "NC_ENOTNC4"},
    {-112, "NC_ESTRICTNC3"}, {-113, "NC_ENOTNC3"},  {-114, "NC_ENOPAR"},   {-115, "NC_EPARINIT"},
    {-116, "NC_EBADGRPID"}, {-117, "NC_EBADTYPID"}, {-122, "NC_ELATEFILL"}, {-123, "NC_ELATEDEF"},
    {-125, "NC_ENOGRP"},    {-126, "NC_ESTORAGE"},  {-127, "NC_EBADCHUNK"}, {-128, "NC_ENOTBUILT"},
    {-131, "NC_EMPI"},      {-132, "NC_EFILTER"},   {-136, "NC_ENOFILTER"}, END};
/* netCDF-C's own: nc_var_par_access' modes, netCDF-4 storage and byte order. */
static const named nc_par_access_names[] = {{0, "NC_INDEPENDENT"}, {1, "NC_COLLECTIVE"}, END};
static const named nc_storage_names[] = {{0, "NC_CHUNKED"}, {1, "NC_CONTIGUOUS"}, {2, "NC_COMPACT"}, END};
static const named nc_endian_names[] = {{0, "NC_ENDIAN_NATIVE"}, {1, "NC_ENDIAN_LITTLE"}, {2, "NC_ENDIAN_BIG"}, END};

/* ---- a bounded string builder ---- */
typedef struct out {
    char *p;
    size_t cap, len;
} out;

static void emit(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(out *o, const char *fmt, ...)
{
    if (o->len >= o->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        o->len = o->len + (size_t)n < o->cap ? o->len + (size_t)n : o->cap - 1;
}

static const char *name_of(const named *list, int64_t v)
{
    for (; list->name; list++)
        if (list->value == v)
            return list->name;
    return NULL;
}

static void emit_enum(out *o, const named *list, int64_t v)
{
    const char *name = name_of(list, v);
    if (name)
        emit(o, "%s", name);
    else
        emit(o, "%lld", (long long)v);
}

/* MPI's named integer constants, by their canonical values (functions/constants.def). */
static void emit_mpi_constant(out *o, unsigned kind, int64_t v)
{
    const char *name = rec_mpi_constant_name(kind, v);
    if (name)
        emit(o, "%s", name);
    else
        emit(o, "%lld", (long long)v);
}

/* Flags as NAME|NAME|0x...; zero_name is printed for 0. */
static void emit_flags(out *o, const named *list, int64_t v, const char *zero_name)
{
    if (v == 0) {
        emit(o, "%s", zero_name);
        return;
    }
    int first = 1;
    for (; list->name; list++) {
        if (list->value && (v & list->value) == list->value) {
            emit(o, "%s%s", first ? "" : "|", list->name);
            v &= ~list->value;
            first = 0;
        }
    }
    if (v)
        emit(o, "%s0x%llx", first ? "" : "|", (unsigned long long)v);
}

static void emit_oflags(out *o, int64_t v)
{
    int64_t acc = v & O_ACCMODE;
    emit(o, "%s", acc == O_RDONLY ? "O_RDONLY" : acc == O_WRONLY ? "O_WRONLY" : acc == O_RDWR ? "O_RDWR" : "O_ACCMODE");
    v &= ~(int64_t)O_ACCMODE;
    if (v) {
        emit(o, "|");
        emit_flags(o, oflag_names, v, "");
    }
}

static void emit_quoted(out *o, const void *bytes, size_t n)
{
    const unsigned char *s = bytes;
    emit(o, "\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '"' || c == '\\')
            emit(o, "\\%c", c);
        else if (c < 0x20 || c == 0x7f)
            emit(o, "\\x%02x", c);
        else
            emit(o, "%c", c);
    }
    emit(o, "\"");
}

/* netCDF metadata values: text as a string, other bytes by their count and CRC-32. */
static void emit_nc_values(out *o, const rec_value *v)
{
    const unsigned char *s = v->ptr;
    int text = v->len > 0;
    for (uint32_t i = 0; text && i < v->len; i++)
        text = (s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\n' || s[i] == '\t' || (s[i] == 0 && i + 1 == v->len);
    if (text)
        emit_quoted(o, v->ptr, v->len);
    else if (v->len)
        emit(o, "{%u bytes, crc32=%08x}", (unsigned)v->len, (unsigned)rec_crc32(0, v->ptr, v->len));
    else
        emit(o, "{}");
}

/* netCDF strings: ["a", "b"], with how many more there were where not all were kept. */
static void emit_nc_strings(out *o, const rec_value *v)
{
    const unsigned char *s = v->ptr;
    if (v->len < 4) {
        emit(o, "{}");
        return;
    }
    uint32_t n = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24, k = 0;
    emit(o, "[");
    for (uint32_t at = 4; at < v->len && k < n; k++) {
        const unsigned char *end = memchr(s + at, 0, v->len - at);
        uint32_t one = end ? (uint32_t)(end - (s + at)) : v->len - at;
        if (k)
            emit(o, ", ");
        emit_quoted(o, (const char *)s + at, one);
        at += one + 1;
    }
    if (k < n)
        emit(o, "%s... %u in all", k ? ", " : "", (unsigned)n);
    emit(o, "]");
}

static const char *handle_prefix(unsigned kind)
{
    switch (kind) {
    case REC_KIND_FD:
    case REC_KIND_DIRFD: return "fd";
    case REC_KIND_FILE_STREAM: return "FILE";
    case REC_KIND_DIR_STREAM: return "DIR";
    case REC_KIND_MAPPING: return "map";
    case REC_KIND_MPI_COMM: return "comm";
    case REC_KIND_MPI_DATATYPE: return "type";
    case REC_KIND_MPI_OP: return "op";
    case REC_KIND_MPI_INFO: return "info";
    case REC_KIND_MPI_REQUEST: return "req";
    case REC_KIND_MPI_FILE: return "mpifile";
    case REC_KIND_MPI_GROUP: return "mpigroup";
    case REC_KIND_MPI_ERRHANDLER: return "errhandler";
    case REC_KIND_NC_ID: return "ncid";
    case REC_KIND_NC_REQUEST: return "ncreq";
    case REC_KIND_H5_FILE: return "h5file";
    case REC_KIND_H5_GROUP: return "group";
    case REC_KIND_H5_DATASET: return "dset";
    case REC_KIND_H5_SPACE: return "space";
    case REC_KIND_H5_PLIST: return "plist";
    case REC_KIND_H5_ATTR: return "attr";
    case REC_KIND_H5_TYPE: return "h5type";
    case REC_KIND_H5_LOC: return "loc";
    case REC_KIND_H5_PLIST_CLASS: return "plistclass";
    case REC_KIND_PTHREAD_BARRIER: return "barrier";
    default: return NULL;
    }
}

static void emit_handle(out *o, unsigned kind, int64_t id)
{
    const char *name = rec_predefined_handle_name(kind, id);
    if (!name && kind == REC_KIND_DIRFD)
        name = rec_predefined_handle_name(REC_KIND_FD, id);
    if (name)
        emit(o, "%s", name);
    else if (id < 0)
        emit(o, "invalid(%lld)", (long long)id);
    else
        emit(o, "%s#%lld", handle_prefix(kind), (long long)id);
}

static void emit_errno(out *o, int64_t e)
{
    const char *name = e > 0 && e < 4096 ? strerrorname_np((int)e) : NULL;
    if (name)
        emit(o, "%s", name);
    else
        emit(o, "%lld", (long long)e);
}

static void emit_array(out *o, unsigned kind, const rec_value *v)
{
    int64_t small[64];
    size_t n = rec_value_array(v, small, 64);
    emit(o, "[");
    for (size_t k = 0; k < n && k < 64; k++) {
        if (k)
            emit(o, ",");
        switch (kind) {
        case REC_KIND_MPI_DATATYPE_ARRAY: emit_handle(o, REC_KIND_MPI_DATATYPE, small[k]); break;
        case REC_KIND_MPI_REQUEST_ARRAY: emit_handle(o, REC_KIND_MPI_REQUEST, small[k]); break;
        case REC_KIND_NC_REQUEST_ARRAY: emit_handle(o, REC_KIND_NC_REQUEST, small[k]); break;
        case REC_KIND_NC_VARID_ARRAY: emit(o, small[k] == -1 ? "NC_GLOBAL" : "%lld", (long long)small[k]); break;
        case REC_KIND_MPI_DISTRIB_ARRAY: emit_mpi_constant(o, kind, small[k]); break;
        case REC_KIND_HSIZE_ARRAY:
            if (small[k] == -1)
                emit(o, "H5S_UNLIMITED");
            else
                emit(o, "%llu", (unsigned long long)small[k]);
            break;
        default: emit(o, "%lld", (long long)small[k]); break;
        }
    }
    if (n > 64)
        emit(o, ",... %zu in all", n);
    emit(o, "]");
}

size_t rec_print_value(char *buf, size_t cap, unsigned kind, const rec_value *v, rec_path_fn path, void *ctx)
{
    out o = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    int64_t x = v->i;
    switch (kind) {
    case REC_KIND_WHENCE: emit_enum(&o, whence_names, x); break;
    case REC_KIND_OFLAGS: emit_oflags(&o, x); break;
    case REC_KIND_MODE: emit(&o, "%#llo", (unsigned long long)x); break;
    case REC_KIND_ACCESS_MODE: emit_flags(&o, access_names, x, "F_OK"); break;
    case REC_KIND_AT_FLAGS: emit_flags(&o, at_names, x, "0"); break;
    case REC_KIND_FCNTL_CMD: emit_enum(&o, fcntl_names, x); break;
    case REC_KIND_MMAP_PROT: emit_flags(&o, prot_names, x, "PROT_NONE"); break;
    case REC_KIND_MMAP_FLAGS: emit_flags(&o, map_names, x, "0"); break;
    case REC_KIND_PATH: {
        const char *p = path ? path(ctx, x) : NULL;
        if (p)
            emit_quoted(&o, p, strlen(p));
        else if (x < 0)
            emit(&o, "NULL");
        else
            emit(&o, "path#%lld", (long long)x);
        break;
    }
    case REC_KIND_STRING:
    case REC_KIND_STDIO_MODE:
    case REC_KIND_STRING_OUT: emit_quoted(&o, v->ptr, v->len); break;
    case REC_KIND_IOVEC:
    case REC_KIND_ARRAY:
    case REC_KIND_HSIZE_ARRAY:
    case REC_KIND_MPI_DATATYPE_ARRAY:
    case REC_KIND_MPI_REQUEST_ARRAY:
    case REC_KIND_MPI_STATUS_ARRAY:
    case REC_KIND_MPI_DISTRIB_ARRAY: emit_array(&o, kind, v); break;
    case REC_KIND_STATBUF: emit(&o, x < 0 ? "{}" : "{st_size=%lld}", (long long)x); break;
    case REC_KIND_MPI_STATUS: emit(&o, "{bytes=%lld}", (long long)x); break;
    case REC_KIND_MPI_RANK: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_MPI_TAG: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_MPI_WHENCE: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_MPI_AMODE: emit_flags(&o, amode_names, x, "0"); break;
    case REC_KIND_MPI_THREAD_LEVEL: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_MPI_ORDER: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_MPI_ERROR: {
        const char *cls = rec_predefined_handle_name(REC_KIND_MPI_ERROR, x);
        if (cls)
            emit(&o, "%s", cls);
        else if (x >= 64 && x < 64 + 4096) /* an implementation's own class */
            emit(&o, "MPI error class %lld", (long long)(x - 64));
        else /* a code, as older traces recorded it */
            emit(&o, "%lld", (long long)x);
        break;
    }
    case REC_KIND_MPI_COMM_SPLIT_TYPE: emit_mpi_constant(&o, kind, x); break;
    case REC_KIND_H5_FACC: emit_flags(&o, facc_names, x, "H5F_ACC_RDONLY"); break;
    case REC_KIND_H5_SELOP: emit_enum(&o, selop_names, x); break;
    case REC_KIND_H5_XFER_MODE: emit_enum(&o, xfer_names, x); break;
    case REC_KIND_H5_LAYOUT: emit_enum(&o, layout_names, x); break;
    case REC_KIND_H5_ALLOC_TIME: emit_enum(&o, alloc_names, x); break;
    case REC_KIND_H5_FILL_TIME: emit_enum(&o, fill_names, x); break;
    case REC_KIND_H5_SCOPE: emit_enum(&o, scope_names, x); break;
    case REC_KIND_H5_TCLASS: emit_enum(&o, tclass_names, x); break;
    case REC_KIND_H5_SCLASS: emit_enum(&o, sclass_names, x); break;
    case REC_KIND_H5_INDEX: emit_enum(&o, index_names, x); break;
    case REC_KIND_H5_ITER_ORDER: emit_enum(&o, iter_names, x); break;
    case REC_KIND_NC_TYPE: emit_enum(&o, nc_type_names, x); break;
    case REC_KIND_NC_MODE: emit_flags(&o, nc_mode_names, x, "0"); break;
    case REC_KIND_NC_FORMAT: emit_enum(&o, nc_format_names, x); break;
    case REC_KIND_NC_FILL_MODE: emit_enum(&o, nc_fill_names, x); break;
    case REC_KIND_NC_PAR_ACCESS: emit_enum(&o, nc_par_access_names, x); break;
    case REC_KIND_NC_STORAGE: emit_enum(&o, nc_storage_names, x); break;
    case REC_KIND_NC_ENDIAN: emit_enum(&o, nc_endian_names, x); break;
    case REC_KIND_NC_ERROR: emit_enum(&o, nc_error_names, x); break;
    case REC_KIND_NC_VARID: emit(&o, x == -1 ? "NC_GLOBAL" : "%lld", (long long)x); break;
    case REC_KIND_NC_VALUES: emit_nc_values(&o, v); break;
    case REC_KIND_NC_STRINGS: emit_nc_strings(&o, v); break;
    case REC_KIND_NC_REQUEST_ARRAY:
    case REC_KIND_NC_DIMID_ARRAY:
    case REC_KIND_NC_STRING_LENGTHS:
    case REC_KIND_ROW_BYTES:
    case REC_KIND_NC_VLEN_LENGTHS:
    case REC_KIND_H5_STRING_LENGTHS:
    case REC_KIND_H5_VLEN_LENGTHS:
    case REC_KIND_NC_VARID_ARRAY:
    case REC_KIND_BUFFER_ARRAY:
    case REC_KIND_NC_OFFSET_ROWS: emit_array(&o, kind, v); break;
    case REC_KIND_H5_BOOL:
    case REC_KIND_BOOL: emit(&o, x > 0 ? "true" : x == 0 ? "false" : "%lld", (long long)x); break;
    case REC_KIND_HSIZE:
        if (x == -1)
            emit(&o, "H5S_UNLIMITED");
        else
            emit(&o, "%llu", (unsigned long long)x);
        break;
    case REC_KIND_DOUBLE: {
        double d;
        memcpy(&d, &x, sizeof d);
        emit(&o, "%g", d);
        break;
    }
    case REC_KIND_ERRNO: emit_errno(&o, x); break;
    case REC_KIND_STRLEN: emit(&o, "{strlen=%lld}", (long long)x); break;
    case REC_KIND_CALLBACK: /* which of the rank's functions, never its address */
        emit(&o, x > 0 ? "function#%lld" : x == 0 ? "NULL" : "invalid(%lld)", (long long)x);
        break;
    case REC_KIND_H5_ENCODED: /* its bytes by their CRC-32: two encodings read apart */
    case REC_KIND_NC_HEADER:
    case REC_KIND_H5_VALUE:
        if (kind == REC_KIND_H5_VALUE && v->len == REC_H5_VALUE_UNKEPT)
            emit(&o, "{not kept}");
        else if (v->len)
            emit(&o, "{%u bytes, crc32=%08x}", (unsigned)v->len, (unsigned)rec_crc32(0, v->ptr, v->len));
        else
            emit(&o, "NULL");
        break;
    default:
        if (handle_prefix(kind))
            emit_handle(&o, kind, x);
        else
            emit(&o, "%lld", (long long)x);
        break;
    }
    return o.len;
}

/* Digits after the decimal point that the time resolution supports. */
static int time_digits(double resolution)
{
    int d = (int)ceil(-log10(resolution) - 1e-9);
    return d < 0 ? 0 : d > 12 ? 12 : d;
}

size_t rec_print_record(char *buf, size_t cap, const rec_table *table, const rec_record *r, uint32_t rank,
                        double resolution, rec_path_fn path, void *ctx)
{
    out o = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    const rec_func_desc *f = rec_table_lookup(table, r->func);
    int digits = time_digits(resolution);
    emit(&o, "%u %.*f %.*f %u %s %s(", rank, digits, (double)r->tstart * resolution, digits,
         (double)r->tend * resolution, r->depth, f ? rec_layer_name(f->layer) : "?", f ? f->name : "?");
    if (!f) {
        emit(&o, "function id %u)", r->func);
        return o.len;
    }
    int shown = 0;
    char value[2048];
    for (unsigned a = 0; a < f->nargs; a++) {
        if (rec_kind_class(f->args[a].kind) == REC_CLASS_NONE)
            continue;
        /* an H5Dwrite of data that holds no pointers has no lengths to show */
        unsigned kind = f->args[a].kind;
        if ((kind == REC_KIND_H5_STRING_LENGTHS || kind == REC_KIND_H5_VLEN_LENGTHS) && !r->args[a].len)
            continue;
        rec_print_value(value, sizeof value, f->args[a].kind, &r->args[a], path, ctx);
        emit(&o, "%s%s=%s", shown++ ? ", " : "", f->args[a].name, value);
    }
    emit(&o, ")");
    if (f->ret_kind != REC_KIND_NONE) {
        rec_print_value(value, sizeof value, f->ret_kind, &r->ret, path, ctx);
        emit(&o, " = %s", value);
        if (r->err) {
            rec_value e = {.i = r->err};
            rec_print_value(value, sizeof value, REC_KIND_ERRNO, &e, NULL, NULL);
            emit(&o, " errno=%s", value);
        }
    }
    if (r->thread)
        emit(&o, " thread=%u", r->thread);
    if (r->synthetic)
        emit(&o, " [rebuilt]");
    if (r->inferred)
        emit(&o, " [inferred]");
    return o.len;
}
