/* bufsize.c: the two data buffers the kernel allocates once, at the
 * largest size any call needs: wbuf (a pattern: what writes send, and the
 * text fprintf/fputs write) and rbuf (where reads land). A call needs its
 * byte counts (POSIX), count x datatype extent (MPI, MPI-IO; collectives
 * may gather from every rank), the memory dataspace's extent x the memory
 * type's size (HDF5; at least the bytes the trace says moved). Extents of
 * derived MPI datatypes, dataspaces and HDF5 type sizes are followed from
 * the calls that made them. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

typedef struct sizer {
    cg_model *m;
    int64_t *obj;  /* per handle object: MPI extent, H5 type size or dataspace points; -1 unknown */
    int64_t *dset; /* per handle object (datasets): points of their dataspace */
} sizer;

/* Sizes of predefined MPI and HDF5 types, by their C names. */
static int64_t predefined_size(unsigned kind, int64_t id)
{
    static const struct {
        const char *name;
        int64_t size;
    } sizes[] = {{"MPI_CHAR", 1},
                 {"MPI_SIGNED_CHAR", 1},
                 {"MPI_UNSIGNED_CHAR", 1},
                 {"MPI_BYTE", 1},
                 {"MPI_WCHAR", 4},
                 {"MPI_SHORT", 2},
                 {"MPI_UNSIGNED_SHORT", 2},
                 {"MPI_INT", 4},
                 {"MPI_UNSIGNED", 4},
                 {"MPI_LONG", 8},
                 {"MPI_UNSIGNED_LONG", 8},
                 {"MPI_FLOAT", 4},
                 {"MPI_DOUBLE", 8},
                 {"MPI_LONG_DOUBLE", 16},
                 {"MPI_LONG_LONG_INT", 8},
                 {"MPI_LONG_LONG", 8},
                 {"MPI_UNSIGNED_LONG_LONG", 8},
                 {"MPI_PACKED", 1},
                 {"MPI_FLOAT_INT", 8},
                 {"MPI_DOUBLE_INT", 16},
                 {"MPI_LONG_INT", 16},
                 {"MPI_SHORT_INT", 8},
                 {"MPI_2INT", 8},
                 {"MPI_LONG_DOUBLE_INT", 32},
                 {"MPI_C_BOOL", 1},
                 {"MPI_AINT", 8},
                 {"MPI_OFFSET", 8},
                 {"MPI_COUNT", 8},
                 {"MPI_C_FLOAT_COMPLEX", 8},
                 {"MPI_C_DOUBLE_COMPLEX", 16},
                 {"MPI_DOUBLE_PRECISION", 8},
                 {"MPI_INTEGER", 4},
                 {"MPI_REAL", 4},
                 {"MPI_CHARACTER", 1},
                 {"H5T_NATIVE_CHAR", 1},
                 {"H5T_NATIVE_SCHAR", 1},
                 {"H5T_NATIVE_UCHAR", 1},
                 {"H5T_NATIVE_SHORT", 2},
                 {"H5T_NATIVE_USHORT", 2},
                 {"H5T_NATIVE_INT", 4},
                 {"H5T_NATIVE_UINT", 4},
                 {"H5T_NATIVE_LONG", 8},
                 {"H5T_NATIVE_ULONG", 8},
                 {"H5T_NATIVE_LLONG", 8},
                 {"H5T_NATIVE_ULLONG", 8},
                 {"H5T_NATIVE_FLOAT", 4},
                 {"H5T_NATIVE_DOUBLE", 8},
                 {"H5T_NATIVE_LDOUBLE", 16},
                 {"H5T_NATIVE_HSIZE", 8},
                 {"H5T_NATIVE_HSSIZE", 8},
                 {"H5T_NATIVE_HERR", 4},
                 {"H5T_NATIVE_HBOOL", 1},
                 {"H5T_C_S1", 1},
                 {"H5T_STD_REF_OBJ", 8}};
    const char *name = rec_predefined_handle_name(kind, id);
    if (!name)
        return -1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (!strcmp(sizes[i].name, name))
            return sizes[i].size;
    /* H5T_NATIVE_INT32, H5T_STD_U64LE, H5T_IEEE_F32BE, MPI_INT16_T: the bits are in the name */
    const char *d = strpbrk(name, "0123456789");
    return d ? atoi(d) / 8 : -1;
}

static int64_t size_of(const sizer *z, unsigned kind, int64_t v)
{
    if (v >= CG_HOBJ_BASE)
        return z->obj[v - CG_HOBJ_BASE];
    return predefined_size(kind, v);
}

static int64_t max64(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static int find(const rec_func_desc *f, const char *name)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (!strcmp(f->args[a].name, name))
            return (int)a;
    return -1;
}

/* Argument `name` of rank k (integers; 0 when absent). */
static int64_t arg(const cg_inst *in, const char *name, uint32_t k)
{
    int a = find(in->f, name);
    return a < 0 ? 0 : cg_inst_values(in, (unsigned)a)[k];
}

static const int64_t *arr(const sizer *z, const cg_inst *in, const char *name, uint32_t k, uint32_t *n)
{
    int a = find(in->f, name);
    if (a < 0) {
        *n = 0;
        return NULL;
    }
    return cg_arr(z->m, cg_inst_values(in, (unsigned)a)[k], n);
}

static int64_t product(const int64_t *v, uint32_t n)
{
    int64_t p = 1;
    for (uint32_t e = 0; e < n; e++)
        p *= v[e] > 0 ? v[e] : 1;
    return p;
}

/* The extent, size or points of what this call creates (rank k), or -1. */
static int64_t created_size(const sizer *z, const cg_inst *in, uint32_t k)
{
    const char *fn = in->f->name;
    uint32_t n, nb;
    const int64_t *a, *b;
    int64_t old = size_of(z, REC_KIND_MPI_DATATYPE, arg(in, "oldtype", k));
    if (!strcmp(fn, "MPI_Type_contiguous"))
        return arg(in, "count", k) * old;
    if (!strcmp(fn, "MPI_Type_vector"))
        return ((arg(in, "count", k) - 1) * arg(in, "stride", k) + arg(in, "blocklength", k)) * old;
    if (!strcmp(fn, "MPI_Type_create_hvector"))
        return (arg(in, "count", k) - 1) * arg(in, "stride", k) + arg(in, "blocklength", k) * old;
    if (!strcmp(fn, "MPI_Type_create_subarray"))
        return (a = arr(z, in, "array_of_sizes", k, &n)) ? product(a, n) * old : -1;
    if (!strcmp(fn, "MPI_Type_create_darray"))
        return (a = arr(z, in, "array_of_gsizes", k, &n)) ? product(a, n) * old : -1;
    if (!strcmp(fn, "MPI_Type_create_resized"))
        return arg(in, "lb", k) + arg(in, "extent", k);
    if (!strcmp(fn, "MPI_Type_dup"))
        return old;
    if (strstr(fn, "MPI_Type_") && (strstr(fn, "indexed") || strstr(fn, "struct"))) {
        int bytes = strstr(fn, "hindexed") || strstr(fn, "struct");
        a = arr(z, in, "array_of_displacements", k, &n);
        b = arr(z, in, "array_of_blocklengths", k, &nb);
        const int64_t *types = NULL;
        uint32_t nt = 0;
        if (strstr(fn, "struct"))
            types = arr(z, in, "array_of_types", k, &nt);
        int64_t ext = 0;
        for (uint32_t e = 0; a && e < n; e++) {
            int64_t bl = b && e < nb ? b[e] : arg(in, "blocklength", k);
            int64_t t = types && e < nt ? size_of(z, REC_KIND_MPI_DATATYPE, types[e]) : old;
            ext = max64(ext, bytes ? a[e] + bl * t : (a[e] + bl) * t);
        }
        return ext;
    }
    if (!strcmp(fn, "H5Screate_simple"))
        return (a = arr(z, in, "dims", k, &n)) ? product(a, n) : -1;
    if (!strcmp(fn, "H5Screate"))
        return 1;
    if (!strcmp(fn, "H5Scopy"))
        return size_of(z, REC_KIND_H5_SPACE, arg(in, "space_id", k));
    if (!strcmp(fn, "H5Tcopy"))
        return size_of(z, REC_KIND_H5_TYPE, arg(in, "type_id", k));
    if (!strcmp(fn, "H5Tcreate"))
        return arg(in, "size", k);
    if (!strcmp(fn, "H5Tarray_create2"))
        return (a = arr(z, in, "dim", k, &n))
                   ? product(a, n) * size_of(z, REC_KIND_H5_TYPE, arg(in, "base_id", k))
                   : -1;
    return -1;
}

static int64_t posix_need(const cg_inst *in, uint32_t k, cg_model *m)
{
    int64_t need = 1;
    for (unsigned a = 0; a < in->f->nargs; a++) {
        const rec_arg_desc *d = &in->f->args[a];
        int64_t v = cg_inst_values(in, a)[k];
        if ((d->kind == REC_KIND_SIZE || d->kind == REC_KIND_COUNT) && !(d->flags & REC_ARG_DERIVED) &&
            !strchr(d->ctype, '*'))
            need *= v > 0 ? v : 1;
        if (d->kind == REC_KIND_IOVEC) {
            uint32_t n;
            const int64_t *l = cg_arr(m, v, &n);
            for (uint32_t e = 0; e < n; e++)
                need = max64(need, l[e]);
        }
    }
    return need;
}

static int64_t mpi_need(const sizer *z, const cg_inst *in, uint32_t k)
{
    int64_t count = 0, type = 1;
    for (unsigned a = 0; a < in->f->nargs; a++) {
        const rec_arg_desc *d = &in->f->args[a];
        int64_t v = cg_inst_values(in, a)[k];
        if (d->kind == REC_KIND_COUNT && !strchr(d->ctype, '*'))
            count = max64(count, v);
        if (d->kind == REC_KIND_ARRAY && !(d->flags & REC_ARG_OUT)) {
            uint32_t n;
            const int64_t *x = cg_arr(z->m, v, &n);
            for (uint32_t e = 0; e < n; e++)
                count = max64(count, 2 * x[e]); /* counts and displacements */
        }
        if (d->kind == REC_KIND_MPI_DATATYPE && !strchr(d->ctype, '*'))
            type = max64(type, size_of(z, d->kind, v) > 0 ? size_of(z, d->kind, v) : 64);
    }
    int coll = (in->f->flags & REC_FN_COLLECTIVE) && in->f->layer == REC_LAYER_MPI;
    return count * type * (coll ? (int64_t)z->m->nranks : 1);
}

static int64_t hdf5_need(const sizer *z, const cg_inst *in, uint32_t k)
{
    int64_t bytes = 0;
    for (unsigned a = 0; a < in->f->nargs; a++)
        if (in->f->args[a].flags & REC_ARG_DERIVED)
            bytes = cg_inst_values(in, a)[k];
    const char *fn = in->f->name;
    if (!strcmp(fn, "H5Dwrite") || !strcmp(fn, "H5Dread")) {
        int64_t mem = arg(in, "mem_space_id", k), file = arg(in, "file_space_id", k);
        int64_t points = mem    ? size_of(z, REC_KIND_H5_SPACE, mem)
                         : file ? size_of(z, REC_KIND_H5_SPACE, file)
                                : -1;
        int64_t dset = arg(in, "dset_id", k);
        if (points < 0 && !mem && !file && dset >= CG_HOBJ_BASE)
            points = z->dset[dset - CG_HOBJ_BASE];
        int64_t size = size_of(z, REC_KIND_H5_TYPE, arg(in, "mem_type_id", k));
        if (points > 0 && size > 0)
            bytes = max64(bytes, points * size);
    }
    for (unsigned a = 0; a < in->f->nargs; a++)
        if (in->f->args[a].kind == REC_KIND_SIZE && !(in->f->args[a].flags & REC_ARG_DERIVED))
            bytes = max64(bytes, cg_inst_values(in, a)[k]);
    return bytes;
}

void cg_buffer_sizes(cg_emitter *e)
{
    cg_model *m = e->m;
    sizer z = {m, cg_alloc((m->nhobjs + 1) * sizeof *z.obj), cg_alloc((m->nhobjs + 1) * sizeof *z.dset)};
    for (size_t h = 0; h < m->nhobjs; h++)
        z.obj[h] = z.dset[h] = -1;
    int64_t wsize = 0, rsize = 0;
    for (uint32_t i = 0; i < m->ninsts; i++) {
        const cg_inst *in = &m->insts[i];
        const rec_func_desc *f = in->f;
        for (uint32_t k = 0; k < in->nr; k++) {
            /* what it makes */
            for (unsigned field = 0; field < in->nf; field++) {
                int64_t v = cg_inst_values(in, field)[k];
                if (cg_field_role(f, field) != CG_ROLE_CREATE || v < CG_HOBJ_BASE)
                    continue;
                z.obj[v - CG_HOBJ_BASE] = created_size(&z, in, k);
                if (!strcmp(f->name, "H5Dcreate2") || !strcmp(f->name, "H5Dcreate1"))
                    z.dset[v - CG_HOBJ_BASE] = size_of(&z, REC_KIND_H5_SPACE, arg(in, "space_id", k));
            }
            if (!strcmp(f->name, "H5Tset_size") && arg(in, "type_id", k) >= CG_HOBJ_BASE)
                z.obj[arg(in, "type_id", k) - CG_HOBJ_BASE] = arg(in, "size", k);
            /* what it moves */
            int64_t need = f->layer == REC_LAYER_POSIX  ? posix_need(in, k, m)
                           : f->layer == REC_LAYER_HDF5 ? hdf5_need(&z, in, k)
                                                        : mpi_need(&z, in, k);
            for (unsigned a = 0; a < f->nargs; a++) {
                const rec_arg_desc *d = &f->args[a];
                int64_t v = cg_inst_values(in, a)[k];
                if (d->kind == REC_KIND_STRLEN)
                    wsize = max64(wsize, v + 1);
                if (d->kind == REC_KIND_FORMAT)
                    wsize = max64(wsize, cg_inst_values(in, f->nargs)[k] + 1);
                if (d->kind == REC_KIND_STRING_OUT ||
                    (d->kind == REC_KIND_ADDRESS && (d->flags & REC_ARG_OUT)))
                    rsize = max64(rsize, max64(need, 4096));
                if (d->kind == REC_KIND_IOVEC && (f->flags & REC_FN_READ))
                    rsize = max64(rsize, need);
                else if (d->kind == REC_KIND_IOVEC)
                    wsize = max64(wsize, need);
                if (d->kind != REC_KIND_BUFFER || !strchr(d->ctype, '*'))
                    continue;
                if ((d->flags & REC_ARG_IN) && !(d->flags & REC_ARG_OUT))
                    wsize = max64(wsize, need);
                else
                    rsize = max64(rsize, need);
            }
        }
    }
    e->wsize = wsize;
    e->rsize = rsize;
    free(z.obj);
    free(z.dset);
}
