/* diff_side.c: one trace's rank as recorder-diff sees it: the sequence of
 * top-level I/O calls, with everything else in the stream filtered out as
 * the comment at the top of diff_main.c explains. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* Requests started by nonblocking MPI-IO calls: the MPI calls that complete
 * them (MPI_Wait*, MPI_Test*) belong to the I/O. */
struct diff_request {
    int64_t id;
    UT_hash_handle hh;
};

/* The facts library's bytes moved (a short MPI-IO read: what its status
 * says it read), 0 where the call moved none or its record does not say. */
int64_t diff_bytes_moved(const rec_func_desc *f, const rec_record *r)
{
    rf_args a;
    rf_args_of(f, &a);
    if (a.derived < 0 && (!(f->flags & REC_FN_DATA) || !rf_succeeded(f, r)))
        return 0;
    int64_t bytes = rf_bytes_moved(f, &a, r);
    return bytes > 0 ? bytes : 0;
}

/* A call on the terminal streams is console output, not file I/O. */
static int on_console(const rec_func_desc *f, const rec_record *r)
{
    for (unsigned a = 0; a < f->nargs; a++) {
        if (f->args[a].kind == REC_KIND_FILE_STREAM && r->args[a].i >= 1 && r->args[a].i <= 3)
            return 1;
        if (f->args[a].kind == REC_KIND_FD && r->args[a].i >= 0 && r->args[a].i <= 2)
            return 1;
    }
    return 0;
}

/* A call on /dev, /proc or /sys, or on a handle one made: kernels and
 * replays leave them out, as they do the console. */
static int on_special(diff_side *s, const rec_func_desc *f, const rec_record *r)
{
    const char *paths[REC_MAX_ARGS] = {0};
    for (unsigned a = 0; a < f->nargs && a < REC_MAX_ARGS; a++)
        if (f->args[a].kind == REC_KIND_PATH)
            paths[a] = diff_side_path(s, r->args[a].i);
    return rf_special_call(s->special, f, r, s->rank, paths);
}

static int is_io_object(unsigned kind)
{
    return kind == REC_KIND_MPI_COMM || kind == REC_KIND_MPI_GROUP || kind == REC_KIND_MPI_DATATYPE ||
           kind == REC_KIND_MPI_INFO || kind == REC_KIND_MPI_ERRHANDLER; /* whether I/O that fails goes on */
}

static int has_request(const diff_side *s, int64_t id)
{
    struct diff_request *q;
    HASH_FIND(hh, s->requests, &id, sizeof id, q);
    return q != NULL;
}

static int64_t *array_of(const rec_value *v, int64_t *small, size_t nsmall, size_t *n)
{
    *n = v->len;
    int64_t *out = v->len <= nsmall ? small : malloc(v->len * sizeof *out);
    if (!out) {
        *n = 0;
        return small;
    }
    rec_value_array(v, out, v->len);
    return out;
}

/* Completes (or tests) a request a nonblocking MPI-IO call started. Calls
 * whose only outputs are statuses (MPI_Wait, MPI_Waitall) retire them. */
static int completes_io_request(diff_side *s, const rec_func_desc *f, const rec_record *r)
{
    int found = 0, retires = (f->flags & REC_FN_DESTROYS) != 0;
    if (!retires) {
        retires = 1;
        for (unsigned a = 0; a < f->nargs; a++)
            if ((f->args[a].flags & REC_ARG_OUT) && f->args[a].kind != REC_KIND_MPI_STATUS &&
                f->args[a].kind != REC_KIND_MPI_STATUS_ARRAY)
                retires = 0;
    }
    for (unsigned a = 0; a < f->nargs; a++) {
        unsigned kind = f->args[a].kind;
        if (kind != REC_KIND_MPI_REQUEST && kind != REC_KIND_MPI_REQUEST_ARRAY)
            continue;
        int64_t small[64], one = r->args[a].i, *ids = &one;
        size_t n = 1;
        if (kind == REC_KIND_MPI_REQUEST_ARRAY)
            ids = array_of(&r->args[a], small, 64, &n);
        for (size_t k = 0; k < n; k++) {
            struct diff_request *q;
            HASH_FIND(hh, s->requests, &ids[k], sizeof ids[k], q);
            if (!q)
                continue;
            found = 1;
            if (retires) {
                HASH_DEL(s->requests, q);
                free(q);
            }
        }
        if (ids != small && ids != &one)
            free(ids);
    }
    return found;
}

/* MPI calls that shape I/O: they create, change or free the communicators,
 * groups, datatypes and info objects I/O calls take, or the error handlers
 * that decide whether a run goes on past a failing call, or complete
 * nonblocking MPI-IO. Communication, barriers and queries do not count. */
static int mpi_shapes_io(diff_side *s, const rec_func_desc *f, const rec_record *r)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if ((f->args[a].flags & REC_ARG_CREATE) && is_io_object(f->args[a].kind))
            return 1;
    if (f->nargs && is_io_object(f->args[REC_ARG_SUBJECT].kind) && (f->flags & REC_FN_DESTROYS))
        return 1;
    if (rf_changes_mpi_object(f))
        return 1;
    return s->requests && completes_io_request(s, f, r);
}

static void note_io_requests(diff_side *s, const rec_func_desc *f, const rec_record *r)
{
    if (f->layer != REC_LAYER_MPIIO)
        return;
    for (unsigned a = 0; a < f->nargs; a++) {
        if (f->args[a].kind != REC_KIND_MPI_REQUEST || !(f->args[a].flags & REC_ARG_CREATE) ||
            !rec_handle_is_dynamic(r->args[a].i) || has_request(s, r->args[a].i))
            continue;
        struct diff_request *q = calloc(1, sizeof *q);
        if (!q)
            return;
        q->id = r->args[a].i;
        HASH_ADD(hh, s->requests, id, sizeof q->id, q);
    }
}

static void clear_requests(diff_side *s)
{
    struct diff_request *q, *tmp;
    HASH_ITER(hh, s->requests, q, tmp) {
        HASH_DEL(s->requests, q);
        free(q);
    }
}

/* The threads of the rank's top-level calls, and those the program's calls
 * started (STARTS_THREAD): --threads compares the main one and those. */
static void note_thread(diff_ctx *ctx, uint32_t thread, const rec_func_desc *d, const rec_record *r)
{
    const rec_func_desc *mine = rec_function_by_name(d->name);
    int t = mine && rec_func_sole(mine) == REC_SOLE_STARTS_THREAD ? rec_arg_with_kind(d, REC_KIND_THREAD_ID, 0) : -1;
    if (t >= 0 && r->args[t].i > 0 && r->args[t].i < DIFF_MAX_STARTED)
        ctx->started[r->args[t].i] = 1;
    for (size_t i = 0; i < ctx->nthreads; i++)
        if (ctx->threads[i] == thread)
            return;
    if (ctx->nthreads < DIFF_MAX_THREADS)
        ctx->threads[ctx->nthreads++] = thread;
}

int diff_side_open(diff_ctx *ctx, diff_side *s, uint32_t rank, rec_error *err)
{
    (void)ctx;
    s->cursor = rec_cursor_open(s->trace, rank, err);
    s->rank = rank;
    s->calls = 0;
    clear_requests(s);
    diff_handles_clear(s);
    rf_special_free(s->special);
    s->special = rf_special_new();
    return s->cursor ? 0 : -1;
}

int diff_side_next(diff_ctx *ctx, diff_side *s, rec_record *r, const rec_func_desc **f, rec_error *err)
{
    for (;;) {
        int rc = rec_cursor_next(s->cursor, r, err);
        if (rc <= 0)
            return rc;
        const rec_func_desc *d = rec_table_lookup(s->table, r->func);
        if (!d) {
            snprintf(err->msg, sizeof err->msg, "%s/%u.rec: record of function id %u, which its table lacks",
                     rec_trace_dir(s->trace), s->rank, r->func);
            return -1;
        }
        if (r->depth != 0 || (s->thread >= 0 && r->thread != s->thread) || on_console(d, r) ||
            on_special(s, d, r))
            continue;
        if (s->thread < 0)
            note_thread(ctx, r->thread, d, r);
        if (d->layer == REC_LAYER_MPI && !ctx->opt.all_mpi && !mpi_shapes_io(s, d, r))
            continue;
        note_io_requests(s, d, r);
        if (s->tracking)
            diff_files_account(ctx, s, d, r);
        s->calls++;
        *f = d;
        return 1;
    }
}

void diff_side_close(diff_side *s)
{
    if (s->cursor)
        rec_cursor_close(s->cursor);
    s->cursor = NULL;
    clear_requests(s);
    diff_handles_clear(s);
    rf_special_free(s->special);
    s->special = NULL;
}

const char *diff_side_path(const diff_side *s, int64_t id)
{
    return s->cursor ? rec_cursor_path(s->cursor, id) : NULL;
}

static const char *side_path(void *ctx, int64_t id)
{
    return diff_side_path(ctx, id);
}

const char *diff_call_text(const diff_side *s, const rec_record *r, char *buf, size_t cap)
{
    rec_print_record(buf, cap, s->table, r, s->rank, 1.0, side_path, (void *)s);
    /* Skip "RANK TSTART TEND DEPTH ": positions and times are not compared. */
    const char *p = buf;
    for (int field = 0; field < 4 && p; field++) {
        p = strchr(p, ' ');
        if (p)
            p++;
    }
    return p ? p : buf;
}
