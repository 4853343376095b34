/* ra_plan.c: what the I/O model reads from each function's records, worked
 * out once per trace from the trace's own function table (argument kinds and
 * function flags), plus MPI datatype and file view arithmetic.
 *
 * Most of the model is driven by kinds: the file comes from the first PATH
 * argument or file handle, explicit offsets from an OFFSET or MPI_FILE_POS
 * argument, bytes from the DERIVED argument or the return value. A few
 * functions have semantics no kind expresses (what lseek returns, what a
 * view does to later offsets, how a datatype is laid out); those are keyed
 * by name in special_of() below. */
#include "ra_internal.h"

#include <string.h>

int ra_kind_space(unsigned kind)
{
    switch (kind) {
    case REC_KIND_FD:
    case REC_KIND_DIRFD:
        return RA_HS_FD;
    case REC_KIND_FILE_STREAM:
        return RA_HS_STREAM;
    case REC_KIND_DIR_STREAM:
        return RA_HS_DIR;
    case REC_KIND_MPI_FILE:
        return RA_HS_MPIFILE;
    case REC_KIND_MPI_DATATYPE:
        return RA_HS_TYPE;
    case REC_KIND_H5_FILE:
    case REC_KIND_H5_GROUP:
    case REC_KIND_H5_DATASET:
    case REC_KIND_H5_ATTR:
    case REC_KIND_H5_LOC:
        return RA_HS_HDF5;
    default:
        return RA_HS_NONE;
    }
}

typedef struct named_special {
    const char *name;
    uint8_t special;
} named_special;

/* Functions whose effect on positions, sizes or datatypes no argument kind
 * tells. Names missing from a trace's table are simply never matched. */
static const named_special specials[] = {
    {"rewind", RA_SP_REWIND},
    {"ftruncate", RA_SP_TRUNCATE},
    {"ftruncate64", RA_SP_TRUNCATE},
    {"truncate", RA_SP_TRUNCATE},
    {"truncate64", RA_SP_TRUNCATE},
    {"MPI_File_set_view", RA_SP_SET_VIEW},
    {"MPI_File_seek", RA_SP_MPI_SEEK},
    {"MPI_File_get_position", RA_SP_MPI_GETPOS},
    {"MPI_File_set_size", RA_SP_MPI_SETSIZE},
    {"MPI_File_preallocate", RA_SP_MPI_SETSIZE},
    {"MPI_File_get_size", RA_SP_MPI_GETSIZE},
    {"MPI_Type_contiguous", RA_SP_TYPE_CONTIG},
    {"MPI_Type_vector", RA_SP_TYPE_VECTOR},
    {"MPI_Type_create_hvector", RA_SP_TYPE_HVECTOR},
    {"MPI_Type_hvector", RA_SP_TYPE_HVECTOR},
    {"MPI_Type_indexed", RA_SP_TYPE_INDEXED},
    {"MPI_Type_create_hindexed", RA_SP_TYPE_HINDEXED},
    {"MPI_Type_hindexed", RA_SP_TYPE_HINDEXED},
    {"MPI_Type_create_indexed_block", RA_SP_TYPE_INDEXED_BLOCK},
    {"MPI_Type_create_hindexed_block", RA_SP_TYPE_HINDEXED_BLOCK},
    {"MPI_Type_create_subarray", RA_SP_TYPE_SUBARRAY},
    {"MPI_Type_create_struct", RA_SP_TYPE_STRUCT},
    {"MPI_Type_struct", RA_SP_TYPE_STRUCT},
    {"MPI_Type_create_resized", RA_SP_TYPE_RESIZED},
    {"MPI_Type_dup", RA_SP_TYPE_DUP},
    {"MPI_Type_size", RA_SP_TYPE_SIZE},
    {"MPI_Type_get_extent", RA_SP_TYPE_EXTENT},
};

static int arg_with_kind(const rec_func_desc *f, unsigned kind)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].kind == kind)
            return (int)a;
    return -1;
}

static uint8_t special_of(const rec_func_desc *f, const ra_plan *p)
{
    for (size_t i = 0; i < sizeof specials / sizeof *specials; i++)
        if (!strcmp(f->name, specials[i].name))
            return specials[i].special;
    if (f->layer == REC_LAYER_MPIIO && (f->flags & REC_FN_DATA) && p->offset_arg < 0 &&
        (strstr(f->name, "_shared") || strstr(f->name, "_ordered")))
        return RA_SP_SHARED;
    if (p->new_space == RA_HS_TYPE)
        return RA_SP_TYPE_OTHER;
    if (f->layer == REC_LAYER_POSIX && !(f->flags & REC_FN_DATA)) {
        int stream = arg_with_kind(f, REC_KIND_FILE_STREAM) >= 0, fd = arg_with_kind(f, REC_KIND_FD) >= 0;
        if (p->whence_arg >= 0 && f->ret_kind == REC_KIND_OFFSET)
            return RA_SP_LSEEK;
        if (p->whence_arg >= 0 && stream)
            return RA_SP_FSEEK;
        if (p->whence_arg < 0 && f->ret_kind == REC_KIND_OFFSET && (stream || fd) && f->nargs == 1)
            return RA_SP_FTELL;
    }
    return RA_SP_NONE;
}

static void plan_one(ra_plan *p, const rec_func_desc *f)
{
    memset(p, 0, sizeof *p);
    p->f = f;
    p->file_arg = p->dirfd_arg = p->offset_arg = p->whence_arg = p->size_arg = -1;
    p->strlen_arg = p->derived_arg = p->stat_arg = p->mode_arg = p->name_arg = p->new_arg = -1;
    p->data = (f->flags & REC_FN_DATA) != 0;
    p->op = p->data                    ? ((f->flags & REC_FN_READ)    ? RA_OP_READ
                                          : (f->flags & REC_FN_WRITE) ? RA_OP_WRITE
                                                                      : RA_OP_OTHER)
            : (f->flags & REC_FN_META) ? RA_OP_META
                                       : RA_OP_OTHER;
    int first_handle = -1, first_path = -1;
    for (unsigned a = 0; a < f->nargs; a++) {
        const rec_arg_desc *d = &f->args[a];
        int space = ra_kind_space(d->kind);
        if (d->flags & REC_ARG_CREATE) {
            if (p->new_arg < 0 && space != RA_HS_NONE) {
                p->new_arg = (int8_t)a;
                p->new_space = (uint8_t)space;
                p->new_kind = d->kind;
            }
            continue;
        }
        switch (d->kind) {
        case REC_KIND_PATH:
            if (first_path < 0)
                first_path = (int)a;
            break;
        case REC_KIND_DIRFD:
            if (p->dirfd_arg < 0)
                p->dirfd_arg = (int8_t)a;
            break;
        case REC_KIND_OFFSET:
        case REC_KIND_MPI_FILE_POS:
            if (p->offset_arg < 0)
                p->offset_arg = (int8_t)a;
            break;
        case REC_KIND_WHENCE:
        case REC_KIND_MPI_WHENCE:
            p->whence_arg = (int8_t)a;
            break;
        case REC_KIND_SIZE:
            if (p->size_arg < 0 && !(d->flags & REC_ARG_DERIVED))
                p->size_arg = (int8_t)a;
            break;
        case REC_KIND_STRLEN:
            p->strlen_arg = (int8_t)a;
            break;
        case REC_KIND_STATBUF:
            p->stat_arg = (int8_t)a;
            break;
        case REC_KIND_OFLAGS:
        case REC_KIND_STDIO_MODE:
        case REC_KIND_MPI_AMODE:
            if (p->mode_arg < 0)
                p->mode_arg = (int8_t)a;
            break;
        case REC_KIND_STRING:
            if (p->name_arg < 0 && f->layer == REC_LAYER_HDF5)
                p->name_arg = (int8_t)a;
            break;
        default:
            break;
        }
        if (d->flags & REC_ARG_DERIVED)
            p->derived_arg = (int8_t)a;
        if ((d->kind == REC_KIND_FD || d->kind == REC_KIND_FILE_STREAM) && p->nconsole < RA_MAX_CONSOLE_ARGS)
            p->console_args[p->nconsole++] = (int8_t)a;
        /* The file of a call: its first PATH, else its first file handle
         * (a directory fd only when nothing else names the file). */
        if (space != RA_HS_NONE && space != RA_HS_TYPE && first_handle < 0 && d->kind != REC_KIND_DIRFD)
            first_handle = (int)a;
    }
    if (first_path >= 0) {
        p->file_arg = (int8_t)first_path; /* relative to dirfd_arg, if it has one */
        p->file_space = RA_HS_NONE;
    } else if (first_handle >= 0) {
        p->file_arg = (int8_t)first_handle;
        p->file_space = (uint8_t)ra_kind_space(f->args[first_handle].kind);
        p->dirfd_arg = -1;
    } else if (p->dirfd_arg >= 0) {
        p->file_arg = p->dirfd_arg; /* calls on a directory fd alone */
        p->file_space = RA_HS_FD;
        p->dirfd_arg = -1;
    }
    int ret_space = ra_kind_space(f->ret_kind);
    if ((f->flags & REC_FN_CREATES) && ret_space != RA_HS_NONE && f->ret_kind != REC_KIND_DIRFD) {
        p->new_arg = -2;
        p->new_space = (uint8_t)ret_space;
        p->new_kind = f->ret_kind;
    }
    if ((f->flags & REC_FN_DESTROYS) && f->nargs > 0)
        p->destroys = (uint8_t)ra_kind_space(f->args[0].kind);
    p->special = special_of(f, p);
}

ra_plan *ra_plans_build(const rec_table *table)
{
    ra_plan *plans = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *plans);
    for (size_t i = 0; i < rec_table_count(table); i++) {
        const rec_func_desc *f = rec_table_at(table, i);
        if (f->id < REC_FUNCTION_ID_LIMIT)
            plan_one(&plans[f->id], f);
    }
    return plans;
}

/* ---- datatypes and views ---- */

ra_type ra_type_predefined(int64_t id)
{
    unsigned s = ra_mpi_predefined_size(id);
    ra_type t = {s, s, 0, s > 0, 1};
    return t;
}

void ra_view_default(ra_view *v)
{
    v->disp = 0;
    v->esize = 1;
    v->ft = ra_type_predefined(4); /* MPI_BYTE */
}

int64_t ra_view_map(const ra_view *v, int64_t pos, int64_t bytes, int *exact)
{
    int64_t off = pos * v->esize;
    const ra_type *ft = &v->ft;
    if (ft->known && ft->single_block && ft->size > 0) {
        if (ft->size == ft->extent && ft->data_lb == 0) {
            *exact = 1;
            return v->disp + off;
        }
        int64_t k = off / ft->size, within = off % ft->size;
        *exact = within + bytes <= ft->size;
        return v->disp + k * ft->extent + ft->data_lb + within;
    }
    *exact = 0;
    return v->disp + off;
}
