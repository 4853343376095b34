/* bufsize.c: the two data buffers the kernel allocates once, at the
 * largest size any call needs: wbuf (a pattern: what writes send, and the
 * text fprintf/fputs write) and rbuf (where reads land). A call needs its
 * byte counts (POSIX), count x datatype extent (MPI, MPI-IO; the last
 * element to its data's end, and at least the bytes the trace says moved;
 * collectives may gather from every rank), the memory dataspace's extent x the memory
 * type's size (HDF5; at least the bytes the trace says moved). Extents of
 * derived MPI datatypes, dataspaces and HDF5 type sizes are followed from
 * the calls that made them. */
#include "emit.h"
#include "recorder_facts.h"

#include <stdlib.h>
#include <string.h>

typedef struct sizer {
    cg_model *m;
    int64_t *
        obj; /* per handle object: MPI datatype's upper bound, H5 type size or dataspace points; -1 unknown */
    rf_type *type; /* per handle object (MPI datatypes): its layout */
    int64_t *dset; /* per handle object (datasets): points of their dataspace */
} sizer;

/* A predefined handle's size: an MPI datatype's extent, an HDF5 type's bytes. */
static int64_t predefined_size(unsigned kind, int64_t id)
{
    if (kind == REC_KIND_H5_TYPE)
        return rf_h5_type_size_predefined(id);
    const rec_handle_desc *h = rec_predefined_handle(kind, id);
    return h && h->extent ? h->extent : -1;
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

/* A call's argument values, as the facts library reads a constructor's. */
typedef struct member {
    const sizer *z;
    const cg_inst *in;
    uint32_t k; /* the rank's position in the instance */
} member;

static int64_t member_scalar(const void *ctx, unsigned arg)
{
    const member *c = ctx;
    return cg_inst_values(c->in, arg)[c->k];
}

static size_t member_array(const void *ctx, unsigned arg, int64_t *out, size_t cap)
{
    const member *c = ctx;
    uint32_t n;
    const int64_t *a = cg_arr(c->z->m, cg_inst_values(c->in, arg)[c->k], &n);
    for (uint32_t e = 0; a && e < n && e < cap; e++)
        out[e] = a[e];
    return a ? n : 0;
}

static rf_type member_type(const void *ctx, int64_t id)
{
    const member *c = ctx;
    return id >= CG_HOBJ_BASE ? c->z->type[id - CG_HOBJ_BASE] : rf_type_predefined(id);
}

static int64_t member_size(const void *ctx, unsigned kind, int64_t id)
{
    const member *c = ctx;
    return size_of(c->z, kind, id);
}

/* Argument `role` of the member (0 when the call has none). */
static int64_t arg(const member *c, unsigned role)
{
    int a = rec_arg_with_role(c->in->f, role);
    return a < 0 ? 0 : member_scalar(c, (unsigned)a);
}

/* Sizes what the member's call creates (of this kind) into handle object h. */
static void created(sizer *z, const member *c, unsigned kind, int64_t h)
{
    const rec_func_desc *f = c->in->f;
    rf_values v = {member_scalar, member_array, member_type, c};
    if (kind == REC_KIND_MPI_DATATYPE) {
        rf_type t = rf_type_construct(f, &v);
        z->type[h] = t;
        z->obj[h] = f->shape != REC_SHAPE_NONE ? t.lb + t.extent : -1;
        return;
    }
    if (f->layer != REC_LAYER_HDF5) {
        z->obj[h] = -1;
        return;
    }
    z->obj[h] = rf_h5_construct(f, &v, member_size);
    if (f->shape == REC_SHAPE_DATASET_CREATE)
        z->dset[h] = size_of(z, REC_KIND_H5_SPACE, arg(c, REC_AROLE_SPACE));
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
    int64_t count = 0, type = 1, data = 0, moved = 0;
    for (unsigned a = 0; a < in->f->nargs; a++) {
        const rec_arg_desc *d = &in->f->args[a];
        int64_t v = cg_inst_values(in, a)[k];
        if ((d->flags & REC_ARG_DERIVED) && d->kind == REC_KIND_SIZE)
            moved = max64(moved, v); /* the bytes the trace says moved */
        if (d->kind == REC_KIND_COUNT && !strchr(d->ctype, '*'))
            count = max64(count, v);
        if (d->role == REC_AROLE_VIEW_FILETYPE)
            continue; /* the file's layout (PnetCDF vard's), not the buffer's */
        if (d->kind == REC_KIND_MPI_DATATYPE && !strchr(d->ctype, '*')) {
            /* a type resized below its data (IOR's file views resize to extent 0) still reads its data */
            rf_type t = v >= CG_HOBJ_BASE ? z->type[v - CG_HOBJ_BASE] : rf_type_predefined(v);
            data = max64(data, t.true_lb + t.size);
        }
        if (d->kind == REC_KIND_MPI_DATATYPE_ARRAY &&
            in->f->layer == REC_LAYER_PNETCDF) { /* a datatype a buffer (mput) */
            uint32_t n;
            const int64_t *x = cg_arr(z->m, v, &n);
            for (uint32_t e = 0; e < n; e++) {
                int64_t each = size_of(z, REC_KIND_MPI_DATATYPE, x[e]);
                type = max64(type, each > 0 ? each : 64);
            }
        }
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
    int64_t need = max64(count * type, count ? (count - 1) * type + data : 0);
    return max64(need, moved) * (coll ? (int64_t)z->m->nranks : 1);
}

static int64_t hdf5_need(const sizer *z, const member *c)
{
    const cg_inst *in = c->in;
    int64_t bytes = 0;
    for (unsigned a = 0; a < in->f->nargs; a++)
        if ((in->f->args[a].flags & REC_ARG_DERIVED) && in->f->args[a].kind == REC_KIND_SIZE)
            bytes = cg_inst_values(in, a)[c->k];
    if (rec_arg_with_role(in->f, REC_AROLE_MEM_SPACE) >= 0) { /* dataset data */
        int64_t mem = arg(c, REC_AROLE_MEM_SPACE), file = arg(c, REC_AROLE_FILE_SPACE);
        int64_t points = mem    ? size_of(z, REC_KIND_H5_SPACE, mem)
                         : file ? size_of(z, REC_KIND_H5_SPACE, file)
                                : -1;
        int64_t dset = arg(c, REC_AROLE_DATASET);
        if (points < 0 && !mem && !file && dset >= CG_HOBJ_BASE)
            points = z->dset[dset - CG_HOBJ_BASE];
        int64_t size = size_of(z, REC_KIND_H5_TYPE, arg(c, REC_AROLE_MEM_TYPE));
        if (points > 0 && size > 0)
            bytes = max64(bytes, points * size);
    }
    for (unsigned a = 0; a < in->f->nargs; a++)
        if (in->f->args[a].kind == REC_KIND_SIZE && !(in->f->args[a].flags & REC_ARG_DERIVED))
            bytes = max64(bytes, cg_inst_values(in, a)[c->k]);
    return bytes;
}

void cg_buffer_sizes(cg_emitter *e)
{
    cg_model *m = e->m;
    sizer z = {m, cg_alloc((m->nhobjs + 1) * sizeof *z.obj), cg_calloc(m->nhobjs + 1, sizeof *z.type),
               cg_alloc((m->nhobjs + 1) * sizeof *z.dset)};
    for (size_t h = 0; h < m->nhobjs; h++)
        z.obj[h] = z.dset[h] = -1;
    int64_t wsize = 0, rsize = 0;
    for (uint32_t i = 0; i < m->ninsts; i++) {
        const cg_inst *in = &m->insts[i];
        const rec_func_desc *f = in->f;
        for (uint32_t k = 0; k < in->nr; k++) {
            member c = {&z, in, k};
            /* what it makes */
            for (unsigned field = 0; field < in->nf; field++) {
                int64_t v = cg_inst_values(in, field)[k];
                if (cg_field_role(f, field) == CG_ROLE_CREATE && v >= CG_HOBJ_BASE)
                    created(&z, &c, cg_field_kind(f, field), v - CG_HOBJ_BASE);
            }
            if (f->roles & REC_ROLE_SETS_TYPE_SIZE) {
                int t = rec_arg_with_kind(f, REC_KIND_H5_TYPE, REC_ARG_IN);
                int64_t type = t < 0 ? 0 : cg_inst_values(in, (unsigned)t)[k];
                if (type >= CG_HOBJ_BASE)
                    z.obj[type - CG_HOBJ_BASE] = arg(&c, REC_AROLE_TYPE_SIZE);
            }
            /* what it moves */
            int64_t need = f->layer == REC_LAYER_POSIX  ? posix_need(in, k, m)
                           : f->layer == REC_LAYER_HDF5 ? hdf5_need(&z, &c)
                                                        : mpi_need(&z, in, k);
            for (unsigned a = 0; a < f->nargs; a++) {
                const rec_arg_desc *d = &f->args[a];
                int64_t v = cg_inst_values(in, a)[k];
                if (d->kind == REC_KIND_STRLEN)
                    wsize = max64(wsize, v + 1);
                if (d->kind == REC_KIND_NC_VALUES && (d->flags & REC_ARG_OUT)) /* a fill value read */
                    rsize = max64(rsize, (int64_t)cg_str_len(m, v));
                if (d->kind == REC_KIND_NC_STRING_LENGTHS ||
                    d->kind == REC_KIND_H5_STRING_LENGTHS) { /* TEXT(n) */
                    uint32_t n = 0;
                    const int64_t *len = cg_arr(m, v, &n);
                    for (uint32_t j = 0; j < n; j++)
                        wsize = max64(wsize, len[j] + 1);
                }
                if (d->kind == REC_KIND_NC_VLEN_LENGTHS ||
                    d->kind == REC_KIND_H5_VLEN_LENGTHS) { /* VLEN(n), HVL(n) */
                    uint32_t n = 0;
                    const int64_t *len = cg_arr(m, v, &n);
                    for (uint32_t j = 1; j < n && len[0] > 0; j++)
                        if (len[j] > 0 && len[j] <= INT64_MAX / len[0])
                            wsize = max64(wsize, len[0] * len[j]);
                }
                if (d->kind == REC_KIND_FORMAT)
                    wsize = max64(wsize, cg_inst_values(in, f->nargs)[k] + 1);
                if (d->kind == REC_KIND_STRING_OUT ||
                    (d->kind == REC_KIND_ADDRESS && (d->flags & REC_ARG_OUT)))
                    rsize = max64(rsize, max64(need, 4096));
                if (d->kind == REC_KIND_IOVEC && (f->flags & REC_FN_READ))
                    rsize = max64(rsize, need);
                else if (d->kind == REC_KIND_IOVEC)
                    wsize = max64(wsize, need);
                if ((d->kind != REC_KIND_BUFFER && d->kind != REC_KIND_BUFFER_ARRAY) ||
                    !strchr(d->ctype, '*'))
                    continue;
                /* buffers a row, laid out as the trace says: as far apart as they spread */
                int64_t spread = d->kind == REC_KIND_BUFFER_ARRAY ? cg_nc_buffer_spread(m, in, a, k) : 0;
                if ((d->flags & REC_ARG_IN) && !(d->flags & REC_ARG_OUT))
                    wsize = max64(wsize, need + max64(spread, 0));
                else
                    rsize = max64(rsize, need + max64(spread, 0));
            }
        }
    }
    e->wsize = wsize;
    e->rsize = rsize;
    free(z.obj);
    free(z.type);
    free(z.dset);
}
