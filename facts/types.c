/* types.c: MPI datatype layouts and HDF5 object sizes, from a constructor's
 * shape (functions/recorder_functions.h, REC_SHAPE_*) and its arguments,
 * read by their roles. */
#include "recorder_facts.h"

#include <mpi.h>

enum { MAX_BLOCKS = 64, MAX_DIMS = 32 };

rf_type rf_type_predefined(int64_t id)
{
    const rec_handle_desc *h = rec_predefined_handle(REC_KIND_MPI_DATATYPE, id);
    rf_type t = {0, 0, 0, 0, 0, 0};
    if (h && h->size > 0) {
        t.size = h->size;
        t.extent = h->extent;
        t.known = 1;
        t.contiguous = 1;
    }
    return t;
}

static int64_t scalar(const rf_values *v, const rec_func_desc *f, unsigned role)
{
    int a = rec_arg_with_role(f, role);
    return a < 0 ? 0 : v->scalar(v->ctx, (unsigned)a);
}

/* The argument's elements (a short one leaves zeros); how many it holds. */
static size_t array(const rf_values *v, const rec_func_desc *f, unsigned role, int64_t *out, size_t cap)
{
    for (size_t i = 0; i < cap; i++)
        out[i] = 0;
    int a = rec_arg_with_role(f, role);
    return a < 0 ? 0 : v->array(v->ctx, (unsigned)a, out, cap);
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static rf_type vector(const rec_func_desc *f, const rf_values *v, rf_type old)
{
    int64_t count = scalar(v, f, REC_AROLE_COUNT), bl = scalar(v, f, REC_AROLE_BLOCKLENGTH);
    int64_t stride = scalar(v, f, REC_AROLE_STRIDE);
    if (f->shape == REC_SHAPE_TYPE_VECTOR)
        stride *= old.extent;
    int dense = old.size == old.extent;
    rf_type t = {count * bl * old.size, old.lb, 0, old.true_lb, old.known, 0};
    if (count > 0) {
        int64_t last = (count - 1) * stride;
        t.lb = old.lb + min64(0, last);
        t.extent = (last < 0 ? -last : last) + bl * old.extent;
        t.true_lb = old.true_lb + min64(0, last);
    }
    t.contiguous = old.contiguous && (bl == 1 || dense) && (count == 1 || (dense && stride == bl * old.extent));
    return t;
}

/* (h)indexed, (h)indexed_block and struct: blocks at displacements. */
static rf_type blocks(const rec_func_desc *f, const rf_values *v, rf_type old)
{
    int64_t bls[MAX_BLOCKS], disps[MAX_BLOCKS], types[MAX_BLOCKS];
    rf_type t = {0, 0, 0, 0, 0, 0};
    int64_t count = scalar(v, f, REC_AROLE_COUNT);
    size_t nd = array(v, f, REC_AROLE_DISPLACEMENTS, disps, MAX_BLOCKS);
    int one_length = rec_arg_with_role(f, REC_AROLE_BLOCKLENGTHS) < 0;
    if (one_length)
        for (size_t i = 0; i < MAX_BLOCKS; i++)
            bls[i] = scalar(v, f, REC_AROLE_BLOCKLENGTH);
    else
        array(v, f, REC_AROLE_BLOCKLENGTHS, bls, MAX_BLOCKS);
    int is_struct = f->shape == REC_SHAPE_TYPE_STRUCT;
    if (is_struct)
        array(v, f, REC_AROLE_TYPES, types, MAX_BLOCKS);
    int in_bytes = is_struct || f->shape == REC_SHAPE_TYPE_HINDEXED || f->shape == REC_SHAPE_TYPE_HINDEXED_BLOCK;
    if (nd == 0 || nd > MAX_BLOCKS || count <= 0)
        return t;
    t.known = 1;
    int64_t lb = INT64_MAX, ub = INT64_MIN, true_lb = INT64_MAX;
    for (size_t i = 0; i < nd && i < (size_t)count; i++) {
        rf_type ti = is_struct ? v->type(v->ctx, types[i]) : old;
        int64_t at = in_bytes ? disps[i] : disps[i] * old.extent;
        t.size += bls[i] * ti.size;
        t.known &= ti.known;
        lb = min64(lb, at + ti.lb);
        ub = max64(ub, at + ti.lb + bls[i] * ti.extent);
        true_lb = min64(true_lb, at + ti.true_lb);
    }
    t.lb = lb;
    t.extent = ub - lb;
    t.true_lb = true_lb;
    rf_type first = is_struct ? v->type(v->ctx, types[0]) : old;
    t.contiguous = count == 1 && first.contiguous && (bls[0] == 1 || first.size == first.extent);
    return t;
}

static rf_type subarray(const rec_func_desc *f, const rf_values *v, rf_type old)
{
    int64_t sizes[MAX_DIMS], subs[MAX_DIMS], starts[MAX_DIMS];
    size_t nd = array(v, f, REC_AROLE_SIZES, sizes, MAX_DIMS);
    array(v, f, REC_AROLE_SUBSIZES, subs, MAX_DIMS);
    array(v, f, REC_AROLE_STARTS, starts, MAX_DIMS);
    rf_type t = {0, 0, 0, 0, 0, 0};
    if (nd == 0 || nd > MAX_DIMS)
        return t;
    int order = rec_arg_with_kind(f, REC_KIND_MPI_ORDER, 0);
    int fortran =
        order >= 0 && v->scalar(v->ctx, (unsigned)order) == rec_mpi_constant_value("MPI_ORDER_FORTRAN");
    int64_t total = 1, sub = 1, lin = 0;
    for (size_t k = 0; k < nd; k++) {
        size_t i = fortran ? nd - 1 - k : k; /* slowest dimension first */
        total *= sizes[i];
        sub *= subs[i];
        lin = lin * sizes[i] + starts[i];
    }
    /* One block when, from the slowest dimension, the selection is a
     * single index, then at most one partial dimension, then whole ones. */
    int single = 1, partial = 0;
    for (size_t k = 0; k < nd && single; k++) {
        size_t i = fortran ? nd - 1 - k : k;
        if (partial && subs[i] != sizes[i])
            single = 0;
        else if (subs[i] != 1)
            partial = 1;
    }
    t.size = sub * old.size;
    t.lb = old.lb;
    t.extent = total * old.extent;
    t.true_lb = lin * old.extent + old.true_lb;
    t.known = old.known;
    t.contiguous = single && old.contiguous && old.size == old.extent;
    return t;
}

/* A distributed array's local part is not worked out: only its extent. */
static rf_type darray(const rec_func_desc *f, const rf_values *v, rf_type old)
{
    int64_t gsizes[MAX_DIMS];
    size_t nd = array(v, f, REC_AROLE_SIZES, gsizes, MAX_DIMS);
    rf_type t = {0, old.lb, 0, old.true_lb, 0, 0};
    if (nd == 0 || nd > MAX_DIMS)
        return t;
    t.extent = old.extent;
    for (size_t k = 0; k < nd; k++)
        t.extent *= gsizes[k];
    return t;
}

rf_type rf_type_construct(const rec_func_desc *f, const rf_values *v)
{
    int o = rec_arg_with_role(f, REC_AROLE_OLDTYPE);
    rf_type old = o >= 0 ? v->type(v->ctx, v->scalar(v->ctx, (unsigned)o)) : (rf_type){0, 0, 0, 0, 0, 0};
    rf_type t = {0, 0, 0, 0, 0, 0};
    switch (f->shape) {
    case REC_SHAPE_TYPE_CONTIGUOUS: {
        int64_t count = scalar(v, f, REC_AROLE_COUNT);
        t = (rf_type){count * old.size, old.lb,    count * old.extent,
                      old.true_lb,      old.known, old.contiguous && (count == 1 || old.size == old.extent)};
        break;
    }
    case REC_SHAPE_TYPE_VECTOR:
    case REC_SHAPE_TYPE_HVECTOR:
        t = vector(f, v, old);
        break;
    case REC_SHAPE_TYPE_INDEXED:
    case REC_SHAPE_TYPE_HINDEXED:
    case REC_SHAPE_TYPE_INDEXED_BLOCK:
    case REC_SHAPE_TYPE_HINDEXED_BLOCK:
    case REC_SHAPE_TYPE_STRUCT:
        t = blocks(f, v, old);
        break;
    case REC_SHAPE_TYPE_SUBARRAY:
        t = subarray(f, v, old);
        break;
    case REC_SHAPE_TYPE_DARRAY:
        t = darray(f, v, old);
        break;
    case REC_SHAPE_TYPE_RESIZED:
        t = old;
        t.lb = scalar(v, f, REC_AROLE_LOWER_BOUND);
        t.extent = scalar(v, f, REC_AROLE_EXTENT);
        break;
    case REC_SHAPE_TYPE_DUP:
        t = old;
        break;
    default:
        break;
    }
    return t;
}

int64_t rf_h5_type_size_predefined(int64_t id)
{
    const rec_handle_desc *h = rec_predefined_handle(REC_KIND_H5_TYPE, id);
    return h && h->size ? h->size : -1;
}

static int64_t product(const int64_t *x, size_t n)
{
    int64_t p = 1;
    for (size_t e = 0; e < n; e++)
        p *= x[e] > 0 ? x[e] : 1;
    return p;
}

int64_t rf_h5_construct(const rec_func_desc *f, const rf_values *v,
                        int64_t (*size)(const void *ctx, unsigned kind, int64_t id))
{
    int64_t dims[MAX_BLOCKS];
    int has_dims = rec_arg_with_role(f, REC_AROLE_DIMS) >= 0;
    size_t n = has_dims ? array(v, f, REC_AROLE_DIMS, dims, MAX_BLOCKS) : 0;
    n = n < MAX_BLOCKS ? n : MAX_BLOCKS;
    switch (f->shape) {
    case REC_SHAPE_SPACE_SIMPLE:
        return has_dims ? product(dims, n) : -1;
    case REC_SHAPE_SPACE_CLASS:
        return 1;
    case REC_SHAPE_SPACE_COPY:
        return size(v->ctx, REC_KIND_H5_SPACE, scalar(v, f, REC_AROLE_SPACE));
    case REC_SHAPE_TYPE_COPY_H5:
        return size(v->ctx, REC_KIND_H5_TYPE, scalar(v, f, REC_AROLE_OLDTYPE));
    case REC_SHAPE_TYPE_CREATE_H5:
        return scalar(v, f, REC_AROLE_TYPE_SIZE);
    case REC_SHAPE_TYPE_ARRAY_H5:
        return has_dims ? product(dims, n) * size(v->ctx, REC_KIND_H5_TYPE, scalar(v, f, REC_AROLE_OLDTYPE)) : -1;
    default:
        return -1;
    }
}
