/* import_upper_dset.c: a dataset of Darshan's H5D module as the HDF5
 * calls of import_upper.c make it (its dataspace, type and chunks, its
 * writes' and reads' sizes and rows), a variable of its PNETCDF_VAR module
 * as import_upper_pnc.c's PnetCDF calls make it (the same but chunks), and
 * an upper call's record, its arguments filled by kind. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_upper.h"
#include "import_view.h"

static int ix(unsigned m, const char *name)
{
    int f;
    return ri_darshan_counter_index(m, name, &f);
}

/* A counter of the record by its name after the module's prefix (H5D, PNETCDF_VAR). */
static int64_t cnt(const ri_darshan_record *r, unsigned m, const char *suffix)
{
    char name[64];
    snprintf(name, sizeof name, "%s_%s", m == RI_DARSHAN_H5D ? "H5D" : "PNETCDF_VAR", suffix);
    return ri_counter(r, ix(m, name));
}
static double fcnt(const ri_darshan_record *r, unsigned m, const char *suffix)
{
    char name[64];
    snprintf(name, sizeof name, "%s_F_%s", m == RI_DARSHAN_H5D ? "H5D" : "PNETCDF_VAR", suffix);
    return ri_fcounter(r, ix(m, name));
}

/* ---- a dataset's shape and calls ---- */

/* The shape of an H5D or PNETCDF_VAR record (module M): ACCESS1_LENGTH_D*
 * hold the commonest access's lengths, H5D's from D5 (the first dimension),
 * PnetCDF's from D1 (the first); the first dimension the points over the
 * others. A PnetCDF element of other than 1, 2, 4 or 8 bytes is its bytes,
 * the last dimension (or the only one) that many times longer. */
static void shape_of(const ri_darshan_record *rec, unsigned M, ri_dset *d)
{
    int64_t nd = cnt(rec, M, M == RI_DARSHAN_H5D ? "DATASPACE_NDIMS" : "NDIMS");
    d->ndims = nd < 1 ? 1 : nd > RI_UPPER_DIMS ? RI_UPPER_DIMS : (int)nd;
    d->tsize = cnt(rec, M, "DATATYPE_SIZE");
    if (d->tsize < 1 || d->tsize > RI_UPPER_MAX_EXTENT)
        d->tsize = 1;
    char name[48];
    int64_t inner = 1;
    for (int i = 1; i < d->ndims; i++) {
        snprintf(name, sizeof name, "ACCESS1_LENGTH_D%d", M == RI_DARSHAN_H5D ? 5 - i : i + 1);
        int64_t l = cnt(rec, M, name);
        d->inner[i] = l > 0 && l <= RI_UPPER_MAX_EXTENT && inner * l <= RI_UPPER_MAX_EXTENT ? l : 1;
        inner *= d->inner[i];
    }
    int64_t points = cnt(rec, M, M == RI_DARSHAN_H5D ? "DATASPACE_NPOINTS" : "NPOINTS");
    d->dims[0] = points > 0 ? points / inner : 1;
    if (d->dims[0] < 1)
        d->dims[0] = 1;
    if (M == RI_DARSHAN_PNETCDF_VAR && d->tsize != 1 && d->tsize != 2 && d->tsize != 4 && d->tsize != 8) {
        if (d->ndims > 1 && d->inner[d->ndims - 1] * d->tsize <= RI_UPPER_MAX_EXTENT)
            d->inner[d->ndims - 1] *= d->tsize;
        else
            d->dims[0] *= d->tsize;
        d->tsize = 1;
    }
    for (int i = 1; i < d->ndims; i++)
        d->dims[i] = d->inner[i];
}

int ri_upper_dataset(builder *b, uint32_t rank, const ri_darshan_record *rec, uint32_t nranks, ri_dset *d)
{
    return ri_upper_variable(b, rank, rec, nranks, RI_DARSHAN_H5D, d);
}

int ri_upper_variable(builder *b, uint32_t rank, const ri_darshan_record *rec, uint32_t nranks, unsigned M,
                      ri_dset *d)
{
    memset(d, 0, sizeof *d);
    d->id = rec->id;
    d->rec = rec;
    d->share_n = rec->rank < 0 ? nranks : 1;
    d->share_r = rec->rank < 0 ? rank : 0;
    const char *full = ri_darshan_name_of(b->log, rec->id), *colon = full ? strrchr(full, ':') : NULL;
    const char *nm = colon ? colon + 1 : "dataset";
    snprintf(d->name, sizeof d->name, "/%s", nm[0] == '/' ? nm + 1 : nm);
    for (char *q = d->name + 1; *q; q++) /* no groups are made: a path's groups join its name */
        if (*q == '/')
            *q = '_';
    shape_of(rec, M, d);
    int64_t inner = 1;
    for (int i = 1; i < d->ndims; i++)
        inner *= d->inner[i];
    char name[48];
    d->coll = M == RI_DARSHAN_H5D && cnt(rec, M, "USE_MPIIO_COLLECTIVE") > 0;
    for (int i = 0; i < d->ndims && M == RI_DARSHAN_H5D; i++) { /* CHUNK_SIZE_D1 is the last dimension */
        snprintf(name, sizeof name, "CHUNK_SIZE_D%d", d->ndims - i);
        d->chunk[i] = cnt(rec, M, name) > 0 ? cnt(rec, M, name) : 0;
        d->chunked |= d->chunk[i] > 0;
    }
    /* the sizes, as a POSIX record's */
    static const char *const bins[2][RI_BINS] = {
        {"SIZE_READ_AGG_0_100", "SIZE_READ_AGG_100_1K", "SIZE_READ_AGG_1K_10K", "SIZE_READ_AGG_10K_100K",
         "SIZE_READ_AGG_100K_1M", "SIZE_READ_AGG_1M_4M", "SIZE_READ_AGG_4M_10M", "SIZE_READ_AGG_10M_100M",
         "SIZE_READ_AGG_100M_1G", "SIZE_READ_AGG_1G_PLUS"},
        {"SIZE_WRITE_AGG_0_100", "SIZE_WRITE_AGG_100_1K", "SIZE_WRITE_AGG_1K_10K", "SIZE_WRITE_AGG_10K_100K",
         "SIZE_WRITE_AGG_100K_1M", "SIZE_WRITE_AGG_1M_4M", "SIZE_WRITE_AGG_4M_10M", "SIZE_WRITE_AGG_10M_100M",
         "SIZE_WRITE_AGG_100M_1G", "SIZE_WRITE_AGG_1G_PLUS"}};
    ri_sizes_in in;
    memset(&in, 0, sizeof in);
    if (M == RI_DARSHAN_H5D) {
        in.n[0] = cnt(rec, M, "READS");
        in.n[1] = cnt(rec, M, "WRITES");
    } else /* PnetCDF: its independent, collective and nonblocking calls */
        for (int k = 0; k < 2; k++)
            for (int m = 0; m < 3; m++) {
                in.n[k] += ri_upper_var_calls(rec, k, m);
                d->mode_n[k][m] = ri_upper_var_calls(rec, k, m);
            }
    in.bytes[0] = cnt(rec, M, "BYTES_READ");
    in.bytes[1] = cnt(rec, M, "BYTES_WRITTEN");
    for (int k = 0; k < 2; k++) {
        in.n[k] = in.n[k] > 0 ? in.n[k] : 0;
        in.bytes[k] = in.bytes[k] > 0 ? in.bytes[k] : 0;
        for (int j = 0; j < RI_BINS; j++) {
            int64_t x = cnt(rec, M, bins[k][j]);
            in.bins[k][j] = x > 0 ? x : 0;
        }
    }
    for (int j = 0; j < 4; j++) {
        snprintf(name, sizeof name, "ACCESS%d_ACCESS", j + 1);
        in.common[j] = cnt(rec, M, name) > 0 ? cnt(rec, M, name) : 0;
        snprintf(name, sizeof name, "ACCESS%d_COUNT", j + 1);
        in.common_count[j] = cnt(rec, M, name) > 0 ? cnt(rec, M, name) : 0;
    }
    in.max_size = (int64_t)1 << 40;
    if (in.n[0] > (int64_t)RI_MAX_STAT_CALLS || in.n[1] > (int64_t)RI_MAX_STAT_CALLS - in.n[0])
        return ri_fail(b, M == RI_DARSHAN_H5D ? "an H5D record counts more than 4194304 reads and writes: "
                                                "recorder-import makes no trace that large yet"
                                              : "a PNETCDF_VAR record counts more than 4194304 reads and writes: "
                                                "recorder-import makes no trace that large yet");
    for (int k = 0; k < 2; k++) {
        d->n[k] = in.n[k];
        d->sizes[k] = calloc((size_t)(in.n[k] ? in.n[k] : 1), sizeof(int64_t));
        d->start[k] = calloc((size_t)(in.n[k] ? in.n[k] : 1), sizeof(int64_t));
        if (!d->sizes[k] || !d->start[k])
            return ri_fail(b, "out of memory");
    }
    if (in.n[0] + in.n[1] > 0)
        ri_solve_sizes(&in, d->sizes[0], d->sizes[1]);
    /* rows: the first dimension holds the largest block; blocks in turn, starting over past the end */
    int64_t row = d->tsize * inner;
    for (int k = 0; k < 2; k++)
        for (int64_t j = 0; j < d->n[k]; j++) {
            int64_t rows = d->sizes[k][j] / row;
            if (rows > d->dims[0])
                d->dims[0] = rows;
        }
    for (int k = 0; k < 2; k++) {
        int64_t at = 0;
        for (int64_t j = 0; j < d->n[k]; j++) {
            int64_t rows = d->sizes[k][j] / row;
            if (at + rows > d->dims[0])
                at = 0;
            d->start[k][j] = at;
            at += rows;
        }
    }
    for (int i = 0; i < d->ndims; i++)
        if (d->chunk[i] > d->dims[i])
            d->chunk[i] = d->dims[i];
    static const char *const w[2][2] = {{"READ_START_TIMESTAMP", "READ_END_TIMESTAMP"},
                                        {"WRITE_START_TIMESTAMP", "WRITE_END_TIMESTAMP"}};
    for (int k = 0; k < 2; k++)
        for (int e = 0; e < 2; e++)
            d->win[k][e] =
                fcnt(rec, M, w[k][e]) >= 0 && fcnt(rec, M, w[k][e]) < 1e12 ? fcnt(rec, M, w[k][e]) : 0;
    d->opens = ri_share(cnt(rec, M, "OPENS") > 0 ? cnt(rec, M, "OPENS") : 0, d->share_n, d->share_r);
    return 0;
}

int64_t ri_upper_var_calls(const ri_darshan_record *rec, int write, int mode)
{
    static const char *const names[2][3] = {{"COLL_READS", "INDEP_READS", "NB_READS"},
                                            {"COLL_WRITES", "INDEP_WRITES", "NB_WRITES"}};
    int64_t n = cnt(rec, RI_DARSHAN_PNETCDF_VAR, names[write != 0][mode]);
    return n > 0 ? n : 0;
}

void ri_upper_dataset_free(ri_dset *d)
{
    for (int k = 0; k < 2; k++) {
        free(d->sizes[k]);
        free(d->start[k]);
    }
}

/* ---- the record ---- */

void ri_fill_upper(const rec_func_desc *f, const ri_upper *u, int64_t path, int64_t info_null,
                   struct rec_record *r)
{
    unsigned np = 0, ns = 0, na = 0;
    for (unsigned a = 0; a < f->nargs; a++) {
        rec_value *v = &r->args[a];
        v->i = 0;
        switch (f->args[a].kind) {
        case REC_KIND_PATH:
            v->i = path;
            break;
        case REC_KIND_H5_FACC:
        case REC_KIND_H5_XFER_MODE:
        case REC_KIND_H5_SELOP:
        case REC_KIND_H5_TCLASS:
        case REC_KIND_NC_MODE:
        case REC_KIND_NC_TYPE:
            v->i = u->flags;
            break;
        case REC_KIND_NC_ID:
        case REC_KIND_NC_REQUEST:
            v->i = (f->args[a].flags & REC_ARG_CREATE) ? u->made : u->subject;
            break;
        case REC_KIND_NC_VARID:
        case REC_KIND_NC_DIMID:
            v->i = u->id;
            break;
        case REC_KIND_MPI_DATATYPE:
            v->i = u->datatype;
            break;
        case REC_KIND_NC_REQUEST_ARRAY: /* the requests, then as many statuses (ARRAY, OUT) */
            v->ptr = u->list;
            v->len = u->nlist;
            break;
        case REC_KIND_STATBUF: /* an open's file size: not known */
            v->i = -1;
            break;
        case REC_KIND_NC_HEADER:
            v->ptr = "";
            v->len = 0;
            break;
        case REC_KIND_H5_PLIST:
            v->i = a == 0 ? u->subject : np < 3 ? u->plists[np++] : 0;
            break;
        case REC_KIND_H5_SPACE:
            v->i = a == 0 ? u->subject : ns < 2 ? u->spaces[ns++] : 0;
            break;
        case REC_KIND_H5_FILE:
        case REC_KIND_H5_LOC:
        case REC_KIND_H5_DATASET:
            v->i = u->subject;
            break;
        case REC_KIND_H5_TYPE:
            v->i = a == 0 ? u->subject : u->type;
            break;
        case REC_KIND_H5_PLIST_CLASS:
            v->i = u->cls;
            break;
        case REC_KIND_MPI_COMM:
            v->i = u->comm;
            break;
        case REC_KIND_MPI_INFO:
            v->i = info_null;
            break;
        case REC_KIND_STRING:
            v->ptr = u->name ? u->name : "";
            v->len = (uint32_t)strlen(v->ptr);
            break;
        case REC_KIND_COUNT:
            v->i = u->count;
            break;
        case REC_KIND_ARRAY: /* a wait's statuses, else a PnetCDF call's start and count in turn */
        case REC_KIND_NC_DIMID_ARRAY:
        case REC_KIND_HSIZE_ARRAY:
            if (u->list && f->args[a].kind == REC_KIND_ARRAY && (f->args[a].flags & REC_ARG_OUT)) {
                v->ptr = u->list + u->nlist;
                v->len = u->nlist;
            } else if (na < RI_UPPER_ARRAYS) {
                v->ptr = u->arr[na];
                v->len = u->arrlen[na];
                na++;
            }
            break;
        case REC_KIND_SIZE:
            v->i = u->bytes;
            break;
        default:
            break;
        }
    }
    r->ret.i = (f->flags & REC_FN_CREATES) && rec_kind_handle_space(f->ret_kind) ? u->made : 0;
    r->err = 0;
}
