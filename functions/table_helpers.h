/* table_helpers.h: the helpers the table's length and DERIVED expressions
 * name (comm_size(comm), space_ndims(space_id), dset_ndims(dset_id),
 * rt_mpi_bytes(count, datatype), rt_h5d_bytes(...), rt_h5a_bytes(...)).
 * Included by the code that evaluates those expressions -- the tracer's
 * wrappers and the replayer's dispatch -- each of which reaches MPI through
 * PMPI_ and says how it reaches HDF5 (REC_H5(Sclose) -> H5Sclose or a
 * private table's Sclose) so that evaluating them is never traced. Static:
 * never exported, so they cannot clash with an application's symbols. */
#ifndef RECORDER_TABLE_HELPERS_H
#define RECORDER_TABLE_HELPERS_H

#include <errno.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

#ifndef REC_H5
#define REC_H5(fn) H5##fn
#endif
/* How the helpers tell a stream's position: the tracer's untraced ftello. */
#ifndef REC_FTELLO
#define REC_FTELLO ftello
#endif

/* MPI_Group_range_incl's `int ranges[][3]` in the table's one-word C types:
 * recorded and replayed as 3 n ints (rec_ctype_element reads it as int). */
#ifndef REC_INT3_DEFINED
#define REC_INT3_DEFINED
typedef int rec_int3[3];
#endif
/* pthread_create's start routine, in one word. */
#ifndef REC_THREAD_START_DEFINED
#define REC_THREAD_START_DEFINED
typedef void *(*rec_thread_start)(void *);
#endif

static inline int comm_size(MPI_Comm comm)
{
    int n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

static inline int cart_ndims(MPI_Comm comm)
{
    int n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Cartdim_get(comm, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

/* Invalid ids and H5S_ALL give 0, never an HDF5 error message. */
static inline int space_ndims(hid_t space)
{
    if (space <= 0 || REC_H5(Iis_valid)(space) <= 0)
        return 0;
    int n = REC_H5(Sget_simple_extent_ndims)(space);
    return n < 0 ? 0 : n;
}

static inline int dset_ndims(hid_t dset)
{
    if (dset <= 0 || REC_H5(Iis_valid)(dset) <= 0)
        return 0;
    hid_t space = REC_H5(Dget_space)(dset);
    if (space < 0)
        return 0;
    int n = REC_H5(Sget_simple_extent_ndims)(space);
    REC_H5(Sclose)(space);
    return n < 0 ? 0 : n;
}

/* Bytes an MPI-IO access moves: count x the datatype's size. */
static inline MPI_Count rt_mpi_bytes(MPI_Count count, MPI_Datatype type)
{
    int size = 0;
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1;
    return count * size;
}

static inline hssize_t rec_select_npoints(hid_t space)
{
    return space > 0 ? REC_H5(Sget_select_npoints)(space) : -1;
}

/* Invalid ids give -1; H5E_BEGIN_TRY keeps HDF5 from printing its error
 * stack for them, which the application would otherwise see on stderr. */
/* Bytes an H5Dwrite/H5Dread moves: selected elements x the memory type's size. */
static inline hssize_t rt_h5d_bytes(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space)
{
    hssize_t n = -1;
    size_t size = 0;
    if (mem_type <= 0)
        return -1;
    H5E_BEGIN_TRY
    {
        n = mem_space != H5S_ALL ? rec_select_npoints(mem_space) : -1;
        if (n < 0 && file_space != H5S_ALL)
            n = rec_select_npoints(file_space);
        if (n < 0 && dset > 0) {
            hid_t space = REC_H5(Dget_space)(dset);
            n = rec_select_npoints(space);
            if (space >= 0)
                REC_H5(Sclose)(space);
        }
        size = REC_H5(Tget_size)(mem_type);
    }
    H5E_END_TRY
    return n < 0 || !size ? -1 : n * (hssize_t)size;
}

/* The elements of an attribute's dataspace (0 for an invalid id, quietly). */
static inline hssize_t h5_attr_points(hid_t attr)
{
    hssize_t n = 0;
    if (attr <= 0)
        return 0;
    H5E_BEGIN_TRY
    {
        hid_t space = REC_H5(Aget_space)(attr);
        n = space >= 0 ? REC_H5(Sget_simple_extent_npoints)(space) : 0;
        if (space >= 0)
            REC_H5(Sclose)(space);
    }
    H5E_END_TRY
    return n < 0 ? 0 : n;
}

/* Bytes an H5Awrite/H5Aread moves: the attribute's elements x the type's size. */
static inline hssize_t rt_h5a_bytes(hid_t attr, hid_t type)
{
    hssize_t n = -1;
    size_t size = 0;
    if (attr <= 0 || type <= 0)
        return -1;
    H5E_BEGIN_TRY
    {
        hid_t space = REC_H5(Aget_space)(attr);
        n = rec_select_npoints(space);
        if (space >= 0)
            REC_H5(Sclose)(space);
        size = REC_H5(Tget_size)(type);
    }
    H5E_END_TRY
    return n < 0 || !size ? -1 : n * (hssize_t)size;
}

/* A stream's byte position, -1 when it cannot tell one (a pipe, a
 * terminal); errno stays the application's. */
static inline int64_t rec_stream_pos(FILE *stream)
{
    int saved = errno;
    int64_t pos = stream ? (int64_t)REC_FTELLO(stream) : -1;
    errno = saved;
    return pos;
}

/* The bytes a stream moved over since it was at before (the generators
 * name rt_pos_before, its position right before the call, in a DERIVED
 * expression): what a scan read or a wide call took, -1 when either
 * position is unknown. */
static inline int64_t rec_stream_moved(FILE *stream, int64_t before)
{
    int64_t after = rec_stream_pos(stream);
    return before < 0 || after < 0 ? -1 : after - before;
}

#ifdef RECORDER_HAVE_PNETCDF
/* PnetCDF's queries, reached as the tracer or the replayer says (REC_NC). */
#include <pnetcdf.h>
#ifndef REC_NC
#define REC_NC(fn) ncmpi_##fn
#endif

/* A variable's rank: the length of its start, count, stride and imap (0 if unknown). */
static inline int rt_nc_ndims(int ncid, int varid)
{
    int n = 0;
    return REC_NC(inq_varndims)(ncid, varid, &n) == NC_NOERR && n > 0 ? n : 0;
}

/* The elements an access names: count's product, or with no count the
 * whole variable as it is now (its record dimension's current length). */
static inline MPI_Offset rt_nc_elements(int ncid, int varid, const MPI_Offset *count)
{
    int n = rt_nc_ndims(ncid, varid);
    MPI_Offset total = 1;
    if (count) {
        for (int i = 0; i < n; i++)
            total *= count[i] > 0 ? count[i] : 0;
        return total;
    }
    int dims[1024]; /* PnetCDF's NC_MAX_VAR_DIMS is INT_MAX: not a size for the stack */
    if (n > 1024 || REC_NC(inq_vardimid)(ncid, varid, dims) != NC_NOERR)
        return 0;
    for (int i = 0; i < n; i++) {
        MPI_Offset len = 0;
        if (REC_NC(inq_dimlen)(ncid, dims[i], &len) != NC_NOERR)
            return 0;
        total *= len;
    }
    return total;
}

/* The elements a varn access names: each subarray's count product (one
 * element each without counts). */
static inline MPI_Offset rt_nc_varn_elements(int ncid, int varid, int num, MPI_Offset *const *counts)
{
    if (num <= 0)
        return 0;
    if (!counts)
        return num;
    MPI_Offset total = 0;
    for (int r = 0; r < num; r++)
        total += counts[r] ? rt_nc_elements(ncid, varid, counts[r]) : 0;
    return total;
}


/* The size of one element of an external type in memory (NC_FLOAT: 4). */
static inline MPI_Offset rt_nc_type_size(nc_type type)
{
    switch (type) {
    case NC_BYTE: case NC_CHAR: case NC_UBYTE: return 1;
    case NC_SHORT: case NC_USHORT: return 2;
    case NC_INT: case NC_UINT: case NC_FLOAT: return 4;
    case NC_DOUBLE: case NC_INT64: case NC_UINT64: return 8;
    default: return 0;
    }
}

static inline MPI_Offset rt_nc_var_type_size(int ncid, int varid)
{
    nc_type type = 0;
    return REC_NC(inq_vartype)(ncid, varid, &type) == NC_NOERR ? rt_nc_type_size(type) : 0;
}

/* An attribute's length in elements, and the size of one in its own type (0 if none). */
static inline MPI_Offset rt_nc_att_length(int ncid, int varid, const char *name)
{
    MPI_Offset len = 0;
    return name && REC_NC(inq_attlen)(ncid, varid, name, &len) == NC_NOERR ? len : 0;
}

static inline MPI_Offset rt_nc_att_type_size(int ncid, int varid, const char *name)
{
    nc_type type = 0;
    return name && REC_NC(inq_atttype)(ncid, varid, name, &type) == NC_NOERR ? rt_nc_type_size(type) : 0;
}


/* Bytes a flexible call moves: bufcount elements of buftype, or with
 * bufcount -1 (buftype MPI_DATATYPE_NULL) the access's elements in the
 * variable's own type. */
static inline MPI_Offset rt_nc_flexible_bytes(int ncid, int varid, MPI_Offset elements, MPI_Offset bufcount,
                                              MPI_Datatype buftype)
{
    if (bufcount < 0 || buftype == MPI_DATATYPE_NULL)
        return elements * rt_nc_var_type_size(ncid, varid);
    int size = 0;
    return PMPI_Type_size(buftype, &size) == MPI_SUCCESS ? bufcount * size : -1;
}

/* The largest rank of the file's variables: the length of every row of a
 * multi-variable call's starts and counts (a row of a smaller rank padded
 * with zeros), the same on every rank, which defines the same variables. */
static inline int rt_nc_widest_rank(int ncid)
{
    int nvars = 0, widest = 0;
    if (REC_NC(inq_nvars)(ncid, &nvars) != NC_NOERR)
        return 0;
    for (int v = 0; v < nvars; v++)
        if (rt_nc_ndims(ncid, v) > widest)
            widest = rt_nc_ndims(ncid, v);
    return widest;
}

/* Bytes a multi-variable call (mput, mget) moves: each variable's elements
 * (its whole extent, 1, or its count row's product) as a flexible call
 * (bufcounts and buftypes) or in elements of elem_size bytes (a typed one);
 * all rows' (row -1) or row row's alone (ROW_BYTES). */
static inline MPI_Offset rt_nc_multi_bytes(int ncid, int nvars, const int *varids, long row, int whole,
                                           MPI_Offset *const *counts, const MPI_Offset *bufcounts,
                                           const MPI_Datatype *buftypes, MPI_Offset elem_size)
{
    MPI_Offset total = 0;
    for (int i = row < 0 ? 0 : (int)row; varids && i < nvars && (row < 0 || i == row); i++) {
        MPI_Offset elements = whole ? rt_nc_elements(ncid, varids[i], NULL)
                              : counts ? (counts[i] ? rt_nc_elements(ncid, varids[i], counts[i]) : 0)
                                       : 1;
        MPI_Offset bytes = buftypes ? rt_nc_flexible_bytes(ncid, varids[i], elements, bufcounts ? bufcounts[i] : -1,
                                                           buftypes[i])
                                    : elements * elem_size;
        total += bytes > 0 ? bytes : 0;
    }
    return total;
}

/* The elements a vard call's filetype selects, in the variable's own type (0 if none). */
static inline MPI_Offset rt_nc_filetype_elements(int ncid, int varid, MPI_Datatype filetype)
{
    int size = 0;
    MPI_Offset each = rt_nc_var_type_size(ncid, varid);
    if (filetype == MPI_DATATYPE_NULL || PMPI_Type_size(filetype, &size) != MPI_SUCCESS || size <= 0 || each <= 0)
        return 0;
    return size / each;
}
#endif

#ifdef RECORDER_HAVE_NETCDF
/* netCDF-C's queries, reached as the tracer or the replayer says (REC_NCC).
 * A unit sees netCDF's header or PnetCDF's, never both: they define the
 * same NC_ macros differently. */
#include <netcdf.h>
#include <netcdf_par.h>
#include <netcdf_filter.h>
#include <stddef.h>
#include <stdlib.h>
#ifndef REC_NCC
#define REC_NCC(fn) nc_##fn
#endif

/* A variable's rank: the length of its start, count, stride and imap (0 if unknown). */
static inline int rt_ncc_ndims(int ncid, int varid)
{
    int n = 0;
    return REC_NCC(inq_varndims)(ncid, varid, &n) == NC_NOERR && n > 0 ? n : 0;
}

/* The elements an access names: count's product, or with no count the
 * whole variable as it is now (its unlimited dimensions' current lengths). */
static inline long long rt_ncc_elements(int ncid, int varid, const size_t *count)
{
    int n = rt_ncc_ndims(ncid, varid);
    long long total = 1;
    if (count) {
        for (int i = 0; i < n; i++)
            total *= (long long)count[i];
        return total;
    }
    int few[32], *dims = n <= 32 ? few : malloc((size_t)n * sizeof *dims); /* NC_MAX_VAR_DIMS is 1024 */
    if (!dims || REC_NCC(inq_vardimid)(ncid, varid, dims) != NC_NOERR)
        total = 0;
    for (int i = 0; total && i < n; i++) {
        size_t len = 0;
        total = REC_NCC(inq_dimlen)(ncid, dims[i], &len) == NC_NOERR ? total * (long long)len : 0;
    }
    if (dims != few)
        free(dims);
    return total;
}

/* The size of one element of a type in memory (NC_FLOAT: 4; a user-defined
 * type: its size; NC_STRING: a pointer's). */
static inline long long rt_ncc_type_size(int ncid, nc_type type)
{
    size_t size = 0;
    return REC_NCC(inq_type)(ncid, type, NULL, &size) == NC_NOERR ? (long long)size : 0;
}

/* An attribute's length in elements (0 if none), and its bytes in memory in its own type. */
static inline long long rt_ncc_att_length(int ncid, int varid, const char *name)
{
    size_t len = 0;
    return name && REC_NCC(inq_attlen)(ncid, varid, name, &len) == NC_NOERR ? (long long)len : 0;
}

static inline long long rt_ncc_att_bytes(int ncid, int varid, const char *name)
{
    nc_type type = NC_NAT;
    return name && REC_NCC(inq_atttype)(ncid, varid, name, &type) == NC_NOERR
               ? rt_ncc_att_length(ncid, varid, name) * rt_ncc_type_size(ncid, type)
               : 0;
}

/* A variable's type (NC_NAT if unknown). */
static inline nc_type rt_ncc_var_type(int ncid, int varid)
{
    nc_type type = NC_NAT;
    return REC_NCC(inq_vartype)(ncid, varid, &type) == NC_NOERR ? type : NC_NAT;
}

static inline long long rt_ncc_var_type_size(int ncid, int varid)
{
    nc_type type = NC_NAT;
    return REC_NCC(inq_vartype)(ncid, varid, &type) == NC_NOERR ? rt_ncc_type_size(ncid, type) : 0;
}

/* Whether values of a type hold pointers: NC_STRING's, a variable-length
 * type's (nc_vlen_t), a compound's with a field of either (depth: its
 * nesting so far). */
static inline int rt_ncc_holds_pointers_at(int ncid, nc_type type, int depth)
{
    size_t nfields = 0;
    int cls = 0;
    if (type == NC_STRING)
        return 1;
    if (type < NC_FIRSTUSERTYPEID || depth > 16 ||
        REC_NCC(inq_user_type)(ncid, type, NULL, NULL, NULL, &nfields, &cls) != NC_NOERR)
        return 0;
    if (cls == NC_VLEN)
        return 1;
    for (size_t i = 0; cls == NC_COMPOUND && i < nfields; i++) {
        nc_type field = NC_NAT;
        if (REC_NCC(inq_compound_field)(ncid, type, (int)i, NULL, NULL, &field, NULL, NULL) == NC_NOERR &&
            rt_ncc_holds_pointers_at(ncid, field, depth + 1))
            return 1;
    }
    return 0;
}

static inline int rt_ncc_holds_pointers(int ncid, nc_type type)
{
    return rt_ncc_holds_pointers_at(ncid, type, 0);
}

/* The size of an element of a variable's base type, where its type is a
 * variable-length one whose elements hold no pointers (0 otherwise). */
static inline long long rt_ncc_vlen_base_size(int ncid, int varid)
{
    nc_type type = rt_ncc_var_type(ncid, varid), base = NC_NAT;
    int cls = 0;
    if (type < NC_FIRSTUSERTYPEID || REC_NCC(inq_user_type)(ncid, type, NULL, NULL, &base, NULL, &cls) != NC_NOERR ||
        cls != NC_VLEN || rt_ncc_holds_pointers(ncid, base))
        return 0;
    return rt_ncc_type_size(ncid, base);
}

/* An NC_VLEN_LENGTHS field of n values at buf (nc_vlen_t): v[0] their base
 * type's element size, v[1 + k] value k's length in elements. */
static inline void rt_ncc_vlen_lengths(int64_t *v, long n, int ncid, int varid, const void *buf)
{
    const nc_vlen_t *vl = (const nc_vlen_t *)buf;
    v[0] = rt_ncc_vlen_base_size(ncid, varid);
    for (long k = 0; k < n; k++)
        v[1 + k] = (int64_t)vl[k].len;
}
#endif

#endif
