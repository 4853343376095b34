/* handles.c: recorded handle ids -> the handles the replay made.
 *
 * Ids are per rank and per id space, the tracer's spaces (fds and dirfds
 * share one, all HDF5 ids share one): predefined ids (below 64, or
 * REC_HANDLE_MORE(n)) are the C constants of functions/handles.def, the
 * others count up from 64 in creation order and are never reused, so each
 * space is a plain array. In a reference-counted space a creating call may
 * hand back an id that is still live (the tracer's ids follow objects): one
 * more reference, whose handle this MPI may make the same (MPICH's
 * MPI_Comm_group) or another; every reference is freed as the trace frees it,
 * the latest first. A handle one thread made is used on others (a
 * communicator, a barrier): every function here holds the lock. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder_facts.h"
#include "replay.h"

enum space {
    SPACE_NONE,
    SPACE_FD,
    SPACE_FILE,
    SPACE_DIR,
    SPACE_MAPPING,
    SPACE_COMM,
    SPACE_DATATYPE,
    SPACE_OP,
    SPACE_INFO,
    SPACE_REQUEST,
    SPACE_MPIFILE,
    SPACE_GROUP,
    SPACE_HDF5,
    SPACE_ERRHANDLER,
    SPACE_NCFILE,
    SPACE_NCREQUEST,
    SPACE_BARRIER,
    SPACE_COUNT
};

static enum space space_of(unsigned kind)
{
    switch (kind) {
    case REC_KIND_FD:
    case REC_KIND_DIRFD:
        return SPACE_FD;
    case REC_KIND_FILE_STREAM:
        return SPACE_FILE;
    case REC_KIND_DIR_STREAM:
        return SPACE_DIR;
    case REC_KIND_MAPPING:
        return SPACE_MAPPING;
    case REC_KIND_MPI_COMM:
        return SPACE_COMM;
    case REC_KIND_MPI_DATATYPE:
        return SPACE_DATATYPE;
    case REC_KIND_MPI_OP:
        return SPACE_OP;
    case REC_KIND_MPI_INFO:
        return SPACE_INFO;
    case REC_KIND_MPI_REQUEST:
        return SPACE_REQUEST;
    case REC_KIND_MPI_FILE:
        return SPACE_MPIFILE;
    case REC_KIND_MPI_GROUP:
        return SPACE_GROUP;
    case REC_KIND_MPI_ERRHANDLER:
        return SPACE_ERRHANDLER;
    case REC_KIND_NC_ID:
        return SPACE_NCFILE;
    case REC_KIND_NC_REQUEST:
        return SPACE_NCREQUEST;
    case REC_KIND_PTHREAD_BARRIER:
        return SPACE_BARRIER;
    case REC_KIND_H5_FILE:
    case REC_KIND_H5_GROUP:
    case REC_KIND_H5_DATASET:
    case REC_KIND_H5_SPACE:
    case REC_KIND_H5_PLIST:
    case REC_KIND_H5_ATTR:
    case REC_KIND_H5_TYPE:
    case REC_KIND_H5_LOC:
    case REC_KIND_H5_PLIST_CLASS:
        return SPACE_HDF5;
    default:
        return SPACE_NONE;
    }
}

typedef struct entry {
    uint64_t raw; /* the first reference's handle: what calls use */
    uint64_t *more; /* the handles of the later references, oldest first */
    uint32_t nmore, cap_more;
    int live;
    int not_made;  /* its creating call was skipped: the calls that use it are too */
    char *path;    /* what an fd, stream or file was opened as (normalized) */
    void *bufs[4]; /* data a nonblocking call still uses */
} entry;

static struct {
    entry *v;
    size_t cap;
} spaces[SPACE_COUNT];

/* Recursive: the functions here call each other. */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

/* Buffers of nonblocking calls whose request the trace does not name: kept
 * to the end, since MPI may still be using them. */
static void **orphans;
static size_t norphans;

/* By kind and predefined slot (rec_handle_predefined_slot). */
static uint64_t predefined_raw[REC_KIND_LIMIT][REC_HANDLE_PREDEFINED_SLOTS];
static unsigned char predefined_ok[REC_KIND_LIMIT][REC_HANDLE_PREDEFINED_SLOTS];

void rp_handles_init(void)
{
#define H(kind, id, expr)                                                                                    \
    predefined_raw[REC_KIND_##kind][rec_handle_predefined_slot(id)] = (uint64_t)(uintptr_t)(expr);           \
    predefined_ok[REC_KIND_##kind][rec_handle_predefined_slot(id)] = 1;
#define T(kind, id, expr, size, extent) H(kind, id, expr)
#include "handles.def"
#undef T
#undef H
}

int64_t rp_mpi_constant(unsigned kind, int64_t canonical)
{
#define C(kind_, name, value)                                                                                \
    if (kind == REC_KIND_##kind_ && canonical == (value))                                                    \
        return (int64_t)(name);
#include "constants.def"
#undef C
    return canonical;
}

/* Handles the replay makes for itself (a tuning set's lists, tune.c), by id from RP_HANDLE_OWN_BASE. */
static entry own[RP_HANDLE_OWN_COUNT];

static entry *lookup(unsigned kind, int64_t id, int grow)
{
    enum space sp = space_of(kind);
    if (sp != SPACE_NONE && id >= RP_HANDLE_OWN_BASE && id < RP_HANDLE_OWN_BASE + RP_HANDLE_OWN_COUNT)
        return &own[id - RP_HANDLE_OWN_BASE];
    if (sp == SPACE_NONE || !rec_handle_is_dynamic(id))
        return NULL;
    size_t i = (size_t)(id - REC_HANDLE_DYNAMIC_BASE);
    if (i >= spaces[sp].cap) {
        if (!grow)
            return NULL;
        size_t cap = spaces[sp].cap ? spaces[sp].cap : 256;
        while (cap <= i)
            cap *= 2;
        entry *v = realloc(spaces[sp].v, cap * sizeof *v);
        if (!v)
            return NULL;
        memset(v + spaces[sp].cap, 0, (cap - spaces[sp].cap) * sizeof *v);
        spaces[sp].v = v;
        spaces[sp].cap = cap;
    }
    return &spaces[sp].v[i];
}

static int rp_handle_in_locked(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw)
{
    if (rf_is_console(kind, id)) {
        x->reason = "console I/O (stdin, stdout, stderr) is not replayed";
        return -1;
    }
    if (id < 0) {
        /* The traced call was given an invalid handle and failed; an
         * invalid fd or hid fails the same way again, a NULL stream would crash. */
        enum space sp = space_of(kind);
        if (sp == SPACE_FD || sp == SPACE_HDF5) {
            *raw = (uint64_t)(int64_t)-1;
            return 0;
        }
        x->reason = "the traced call was given an invalid handle";
        return -1;
    }
    int slot = rec_handle_predefined_slot(id);
    if (slot >= 0) {
        unsigned k = kind == REC_KIND_DIRFD && !predefined_ok[kind][slot] ? REC_KIND_FD : kind;
        if (kind < REC_KIND_LIMIT && predefined_ok[k][slot]) {
            *raw = predefined_raw[k][slot];
            return 0;
        }
        x->reason = "a predefined handle this build does not know";
        return -1;
    }
    entry *e = lookup(kind, id, 0);
    if ((!e || (!e->live && !e->not_made)) && space_of(kind) == SPACE_HDF5) {
        /* A handle the program had closed (h5bench_read closes its file
         * twice), or one no call of the trace made: an id that names
         * nothing fails alike, and is traced as such a handle. */
        *raw = (uint64_t)RP_STALE_HID(id);
        return 0;
    }
    if ((!e || !e->live) && space_of(kind) == SPACE_OP) {
        /* A reduction the program made out of the trace's sight (or whose making was not replayed): one of
         * the stand-in function, which stands for this id from now on. */
        *raw = rp_untraced_op_raw();
        rp_handle_new(x, kind, id, *raw, NULL);
        return 0;
    }
    if ((!e || !e->live) && space_of(kind) == SPACE_ERRHANDLER) {
        /* An error handler the program made out of the trace's sight: MPI_ERRORS_RETURN, as the stand-ins
         * for the program's own handlers do, for this id from now on. */
        *raw = (uint64_t)(uintptr_t)MPI_ERRORS_RETURN;
        rp_handle_new(x, kind, id, *raw, NULL);
        return 0;
    }
    if (!e || !e->live) {
        x->reason = "uses a handle whose creating call was not replayed";
        return -1;
    }
    *raw = e->raw;
    return 0;
}

static void mark_not_made(unsigned kind, int64_t id)
{
    entry *e = rec_kind_class(kind) == REC_CLASS_INT ? lookup(kind, id, 1) : NULL;
    if (e && !e->live)
        e->not_made = 1;
}

static void rp_handles_not_made_locked(const rec_func_desc *f, const rp_rec *r)
{
    if (f->flags & REC_FN_CREATES)
        mark_not_made(f->ret_kind, r->ret.i);
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].flags & REC_ARG_CREATE)
            mark_not_made(f->args[a].kind, r->args[a].i);
}

/* One more reference to a live handle, made as raw. */
static void add_reference(entry *e, uint64_t raw)
{
    if (e->nmore == e->cap_more) {
        uint32_t cap = e->cap_more ? 2 * e->cap_more : 4;
        uint64_t *grown = realloc(e->more, cap * sizeof *grown);
        if (!grown)
            return;
        e->more = grown;
        e->cap_more = cap;
    }
    e->more[e->nmore++] = raw;
}

static void rp_handle_new_locked(rp_ctx *x, unsigned kind, int64_t id, uint64_t raw, const char *pathkey)
{
    (void)x;
    entry *e = lookup(kind, id, 1);
    if (!e)
        return; /* predefined or invalid: nothing to remember */
    if (e->live && rec_space_counts_references(rec_kind_handle_space(kind))) {
        add_reference(e, raw);
        return;
    }
    e->nmore = 0;
    e->not_made = 0;
    free(e->path);
    e->raw = raw;
    e->live = 1;
    e->path = pathkey && *pathkey ? strdup(pathkey) : NULL;
}

static void free_bufs(entry *e)
{
    for (size_t i = 0; i < sizeof e->bufs / sizeof e->bufs[0]; i++) {
        free(e->bufs[i]);
        e->bufs[i] = NULL;
    }
}

static void rp_handle_forget_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    (void)x;
    entry *e = lookup(kind, id, 0);
    if (!e)
        return;
    free(e->path);
    e->path = NULL;
    free_bufs(e);
    free(e->more);
    e->more = NULL;
    e->nmore = e->cap_more = 0;
    e->live = 0;
}

static int rp_handle_latest_locked(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw)
{
    entry *e = lookup(kind, id, 0);
    if (e && e->live && e->nmore) {
        *raw = e->more[e->nmore - 1];
        return 0;
    }
    return rp_handle_in(x, kind, id, raw);
}

static void rp_handle_retain_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    (void)x;
    entry *e = lookup(kind, id, 0);
    if (e && e->live)
        add_reference(e, e->raw);
}

static void rp_handle_drop_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    entry *e = lookup(kind, id, 0);
    if (e && e->live && e->nmore)
        e->nmore--;
    else
        rp_handle_forget(x, kind, id);
}

static const char *rp_handle_path_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    (void)x;
    entry *e = lookup(kind, id, 0);
    return e && e->live ? e->path : NULL;
}

static void rp_handle_attach_locked(rp_ctx *x, unsigned kind, int64_t id, void *buf)
{
    (void)x;
    if (!buf)
        return;
    entry *e = lookup(kind, id, 0);
    if (e && e->live)
        for (size_t i = 0; i < sizeof e->bufs / sizeof e->bufs[0]; i++)
            if (!e->bufs[i]) {
                e->bufs[i] = buf;
                return;
            }
    void **grown = realloc(orphans, (norphans + 1) * sizeof *grown);
    if (grown) {
        orphans = grown;
        orphans[norphans++] = buf;
    }
}

static void *rp_handle_pending_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    entry *e = lookup(kind, id, 0);
    if (!e || !e->live || !e->bufs[0]) {
        x->reason = "the split collective's _begin was not replayed";
        return NULL;
    }
    return e->bufs[0];
}

static void rp_handle_release_locked(rp_ctx *x, unsigned kind, int64_t id)
{
    (void)x;
    entry *e = lookup(kind, id, 0);
    if (e)
        free_bufs(e);
}

static void rp_requests_settle_locked(rp_ctx *x, const rp_value *ids, const MPI_Request *reqs, size_t n)
{
    if (!reqs)
        return;
    size_t recorded = ids->a ? ids->len : 1; /* a single request: its id is the INT value */
    for (size_t k = 0; k < n && k < recorded; k++) {
        int64_t id = ids->a ? ids->a[k] : ids->i;
        if (reqs[k] == MPI_REQUEST_NULL)
            rp_handle_forget(x, REC_KIND_MPI_REQUEST, id);
    }
}

/* ---- the entry points, under the lock ---- */
int rp_handle_in(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw)
{
    pthread_mutex_lock(&lock);
    int v = rp_handle_in_locked(x, kind, id, raw);
    pthread_mutex_unlock(&lock);
    return v;
}

void rp_handles_not_made(const rec_func_desc *f, const rp_rec *r)
{
    pthread_mutex_lock(&lock);
    rp_handles_not_made_locked(f, r);
    pthread_mutex_unlock(&lock);
}

void rp_handle_new(rp_ctx *x, unsigned kind, int64_t id, uint64_t raw, const char *pathkey)
{
    pthread_mutex_lock(&lock);
    rp_handle_new_locked(x, kind, id, raw, pathkey);
    pthread_mutex_unlock(&lock);
}

void rp_handle_forget(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    rp_handle_forget_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
}

int rp_handle_latest(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw)
{
    pthread_mutex_lock(&lock);
    int v = rp_handle_latest_locked(x, kind, id, raw);
    pthread_mutex_unlock(&lock);
    return v;
}

void rp_handle_retain(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    rp_handle_retain_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
}

void rp_handle_drop(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    rp_handle_drop_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
}

const char *rp_handle_path(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    const char *v = rp_handle_path_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
    return v;
}

void rp_handle_attach(rp_ctx *x, unsigned kind, int64_t id, void *buf)
{
    pthread_mutex_lock(&lock);
    rp_handle_attach_locked(x, kind, id, buf);
    pthread_mutex_unlock(&lock);
}

void *rp_handle_pending(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    void *v = rp_handle_pending_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
    return v;
}

void rp_handle_release(rp_ctx *x, unsigned kind, int64_t id)
{
    pthread_mutex_lock(&lock);
    rp_handle_release_locked(x, kind, id);
    pthread_mutex_unlock(&lock);
}

void rp_requests_settle(rp_ctx *x, const rp_value *ids, const MPI_Request *reqs, size_t n)
{
    pthread_mutex_lock(&lock);
    rp_requests_settle_locked(x, ids, reqs, n);
    pthread_mutex_unlock(&lock);
}
