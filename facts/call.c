/* call.c: a call's outcome, the bytes it moved and the console, from the
 * function table's kinds alone. */
#include "recorder_facts.h"

#include <string.h>

int rf_ret_status(const rec_func_desc *f, int64_t ret)
{
    rec_class cls = rec_kind_class(f->ret_kind);
    if (f->ret_kind == REC_KIND_NONE || (cls != REC_CLASS_INT && cls != REC_CLASS_PATH))
        return -1;
    /* A trace's own table may give no C type: an empty one is not a pointer. */
    size_t n = f->ret_ctype ? strlen(f->ret_ctype) : 0;
    int pointer = n > 0 && f->ret_ctype[n - 1] == '*';
    switch (f->fail) {
    case REC_FAIL_NEG1:
    case REC_FAIL_EOF:
        return ret != -1;
    case REC_FAIL_NULL: /* a NULL pointer is recorded as the id -1; a size_t query fails with 0 */
        return pointer ? ret != -1 : ret != 0;
    case REC_FAIL_NEGATIVE:
        return ret >= 0;
    case REC_FAIL_NONZERO:
        return ret == 0;
    default:
        return -1;
    }
}

void rf_args_of(const rec_func_desc *f, rf_args *out)
{
    memset(out, -1, sizeof *out);
    for (unsigned a = 0; a < f->nargs; a++) {
        const rec_arg_desc *d = &f->args[a];
        int8_t k = (int8_t)a;
        if (d->flags & REC_ARG_CREATE) /* a handle the call makes: never a position or a size */
            continue;
        if (d->flags & REC_ARG_DERIVED) { /* bytes moved; an iteration's operator calls are no bytes */
            if (d->kind == REC_KIND_SIZE)
                out->derived = k;
            else if (d->kind == REC_KIND_FILE_STREAM && out->handle < 0) /* printf's stdout */
                out->handle = k;
            else if (d->kind == REC_KIND_STATBUF) /* the size the file had when ncmpi_open opened it */
                out->stat = k;
            continue;
        }
        switch (d->kind) {
        case REC_KIND_OFFSET:
        case REC_KIND_MPI_FILE_POS:
            if (out->offset < 0 && !(d->flags & REC_ARG_OUT))
                out->offset = k;
            break;
        case REC_KIND_WHENCE:
        case REC_KIND_MPI_WHENCE:
            out->whence = k;
            break;
        case REC_KIND_SIZE:
            if (out->size < 0)
                out->size = k;
            break;
        case REC_KIND_STRLEN:
            out->strlen = k;
            break;
        case REC_KIND_STATBUF:
            out->stat = k;
            break;
        case REC_KIND_FD:
        case REC_KIND_FILE_STREAM:
        case REC_KIND_MPI_FILE:
            if (out->handle < 0 && !(d->flags & REC_ARG_CREATE))
                out->handle = k;
            break;
        default:
            break;
        }
    }
}

int64_t rf_bytes_moved(const rec_func_desc *f, const rf_args *a, const rec_record *r)
{
    if (a->derived >= 0) {
        /* an MPI-IO read short at the end of the file: what its status says it read */
        int status = (f->flags & REC_FN_READ) ? rec_arg_with_kind(f, REC_KIND_MPI_STATUS, REC_ARG_OUT) : -1;
        int64_t asked = r->args[a->derived].i, got = status >= 0 ? r->args[status].i : -1;
        return got >= 0 && got < asked ? got : asked;
    }
    if (f->ret_kind == REC_KIND_SIZE) /* fgetc and fputc are recorded as 1 byte, -1 at EOF */
        return r->ret.i;
    if (f->ret_kind == REC_KIND_COUNT && a->size >= 0)
        return r->ret.i >= 0 && r->args[a->size].i >= 0 ? r->ret.i * r->args[a->size].i : -1;
    if (a->strlen >= 0)
        return r->args[a->strlen].i;
    return -1;
}

/* Bit i: id i of the kind is a console handle (predefined ids are < 64). */
static uint64_t console_ids[2];
static int console_ready;

static void find_console_ids(void)
{
    uint64_t ids[2] = {0, 0};
    for (size_t i = 0; i < rec_predefined_handle_count; i++) {
        const rec_handle_desc *h = &rec_predefined_handles[i];
        int which = h->kind == REC_KIND_FD ? 0 : h->kind == REC_KIND_FILE_STREAM ? 1 : -1;
        if (which >= 0 && strcmp(h->name, "NULL") != 0 && h->id < 64)
            ids[which] |= 1ull << h->id;
    }
    console_ids[0] = ids[0];
    console_ids[1] = ids[1];
    __atomic_store_n(&console_ready, 1, __ATOMIC_RELEASE);
}

int rf_is_console(unsigned kind, int64_t id)
{
    if (kind != REC_KIND_FD && kind != REC_KIND_FILE_STREAM)
        return 0;
    if (!__atomic_load_n(&console_ready, __ATOMIC_ACQUIRE))
        find_console_ids();
    return id >= 0 && id < 64 && ((console_ids[kind == REC_KIND_FILE_STREAM] >> id) & 1);
}

int rf_on_console(const rec_func_desc *f, const rec_record *r)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (rf_is_console(f->args[a].kind, r->args[a].i))
            return 1;
    return 0;
}

int rf_changes_mpi_object(const rec_func_desc *f)
{
    if (f->nargs <= REC_ARG_SUBJECT)
        return 0;
    unsigned kind = f->args[REC_ARG_SUBJECT].kind;
    /* an error handler set on its subject: whether a failing call on it aborts the run from now on */
    int sets_errhandler = rec_arg_with_kind(f, REC_KIND_MPI_ERRHANDLER, REC_ARG_IN) > REC_ARG_SUBJECT;
    if (kind != REC_KIND_MPI_DATATYPE && kind != REC_KIND_MPI_INFO && !sets_errhandler)
        return 0;
    for (unsigned a = 0; a < f->nargs; a++) /* a query has an out argument */
        if ((f->args[a].flags & REC_ARG_OUT) && f->args[a].kind != REC_KIND_BUFFER &&
            f->args[a].kind != REC_KIND_MPI_STATUS)
            return 0;
    return 1;
}
