/* ra_plan.c: what the I/O model reads from each function's records, worked
 * out once per trace from the trace's own function table (argument kinds,
 * function flags and roles), plus file view arithmetic.
 *
 * Most of the model is driven by kinds: the file comes from the first PATH
 * argument or file handle, explicit offsets from an OFFSET or MPI_FILE_POS
 * argument, bytes from the DERIVED argument or the return value (facts:
 * rf_args). What no kind expresses (what lseek returns, what a view does to
 * later offsets, how a datatype is laid out) the table's roles say:
 * special_of() below. */
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
    case REC_KIND_NC_ID:
        return RA_HS_NCFILE;
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

/* What the model does with a call beyond its kinds: its roles. */
static uint8_t special_of(const rec_func_desc *f, const ra_plan *p)
{
    uint32_t role = f->roles;
    int mpiio = f->layer == REC_LAYER_MPIIO, shared = (role & REC_ROLE_SHARED_POINTER) != 0;
    if (f->shape >= REC_SHAPE_TYPE_CONTIGUOUS && f->shape <= REC_SHAPE_TYPE_DUP)
        return RA_SP_TYPE_CONSTRUCT;
    if (role & REC_ROLE_REPORTS_TYPE_SIZE)
        return RA_SP_TYPE_SIZE;
    if (role & REC_ROLE_REPORTS_TYPE_EXTENT)
        return RA_SP_TYPE_EXTENT;
    if (role & REC_ROLE_SETS_VIEW)
        return RA_SP_SET_VIEW;
    if (role & (REC_ROLE_SETS_SIZE | REC_ROLE_GROWS_SIZE))
        return mpiio ? RA_SP_MPI_SETSIZE : RA_SP_TRUNCATE;
    if (role & REC_ROLE_REPORTS_SIZE)
        return RA_SP_MPI_GETSIZE;
    if (mpiio && (f->flags & REC_FN_DATA) && p->args.offset < 0 && shared)
        return RA_SP_SHARED;
    if (mpiio && !shared && (role & REC_ROLE_SEEKS))
        return RA_SP_MPI_SEEK;
    if (mpiio && !shared && (role & REC_ROLE_REPORTS_POSITION))
        return RA_SP_MPI_GETPOS;
    if (p->new_space == RA_HS_TYPE)
        return RA_SP_TYPE_OTHER;
    if (f->layer == REC_LAYER_POSIX) {
        if (role & REC_ROLE_REWINDS)
            return RA_SP_REWIND;
        if ((role & REC_ROLE_SEEKS) && (role & REC_ROLE_TELLS_POSITION))
            return RA_SP_LSEEK;
        if (role & REC_ROLE_SEEKS)
            return RA_SP_FSEEK;
        if (role & REC_ROLE_TELLS_POSITION)
            return RA_SP_FTELL;
    }
    return RA_SP_NONE;
}

/* The arguments a special reads, by role: sp_args[0..2]. */
static void special_args(ra_plan *p, const rec_func_desc *f)
{
    int8_t *a = p->sp_args;
    a[0] = a[1] = a[2] = -1;
    switch (p->special) {
    case RA_SP_SET_VIEW:
        a[0] = (int8_t)rec_arg_with_role(f, REC_AROLE_VIEW_DISP);
        a[1] = (int8_t)rec_arg_with_role(f, REC_AROLE_VIEW_ETYPE);
        a[2] = (int8_t)rec_arg_with_role(f, REC_AROLE_VIEW_FILETYPE);
        break;
    case RA_SP_MPI_GETPOS: /* the position it reports */
        a[0] = (int8_t)rec_arg_with_kind(f, REC_KIND_MPI_FILE_POS, REC_ARG_OUT);
        break;
    case RA_SP_MPI_SETSIZE: /* the size it sets */
        a[0] = p->args.offset;
        break;
    case RA_SP_MPI_GETSIZE: /* the size it reports */
        a[0] = (int8_t)rec_arg_with_kind(f, REC_KIND_OFFSET, REC_ARG_OUT);
        break;
    case RA_SP_TYPE_SIZE: /* the datatype and its size */
    case RA_SP_TYPE_EXTENT: /* the datatype, its lower bound and extent */
        a[0] = (int8_t)rec_arg_with_kind(f, REC_KIND_MPI_DATATYPE, REC_ARG_IN);
        a[1] = (int8_t)rec_arg_with_role(f, p->special == RA_SP_TYPE_SIZE ? REC_AROLE_TYPE_SIZE : REC_AROLE_LOWER_BOUND);
        a[2] = (int8_t)rec_arg_with_role(f, REC_AROLE_EXTENT);
        break;
    default:
        break;
    }
}

static void plan_one(ra_plan *p, const rec_func_desc *f)
{
    memset(p, 0, sizeof *p);
    p->f = f;
    p->file_arg = p->dirfd_arg = p->mode_arg = p->name_arg = p->new_arg = -1;
    rf_args_of(f, &p->args);
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
    /* H5Iinc_ref and H5Idec_ref count references as creates and closes do (ra_model.c). */
    if (rec_func_reference_change(f))
        p->destroys = (uint8_t)ra_kind_space(f->args[REC_ARG_SUBJECT].kind);
    p->special = special_of(f, p);
    special_args(p, f);
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

void ra_view_default(ra_view *v)
{
    v->disp = 0;
    v->esize = 1;
    v->ft = (rf_type){1, 0, 1, 0, 1, 1}; /* MPI_BYTE */
}

int64_t ra_view_map(const ra_view *v, int64_t pos, int64_t bytes, int *exact)
{
    int64_t off = pos * v->esize;
    const rf_type *ft = &v->ft;
    if (ft->known && ft->contiguous && ft->size > 0) {
        if (ft->size == ft->extent && ft->true_lb == 0) {
            *exact = 1;
            return v->disp + off;
        }
        int64_t k = off / ft->size, within = off % ft->size;
        *exact = within + bytes <= ft->size;
        return v->disp + k * ft->extent + ft->true_lb + within;
    }
    *exact = 0;
    return v->disp + off;
}
