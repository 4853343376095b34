/* ra_model.c: walking one rank's records and resolving, per call, the file,
 * byte range, session and place in the call tree (see recorder_analysis.h).
 *
 * Handles map to "open file descriptions" (ofd): dup'ed fds and fdopen'ed
 * streams share the one of the fd they copy, so they share its position and
 * session, as in POSIX. HDF5 objects get an ofd of their own that carries
 * their file, name and the file's session. */
#include "ra_internal.h"

#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define AT_FDCWD_ID 3 /* handles.def: DIRFD 3 is AT_FDCWD */
#define MAX_DEPTH 256

typedef struct ofd {
    int file;
    int refs;
    uint8_t space, opener, append, pos_known;
    uint64_t session;
    int64_t pos; /* POSIX: bytes; MPI-IO: the individual file pointer, in etypes */
    char *object;
    ra_view view;
} ofd;

typedef struct thread_tree {
    uint32_t id;
    int maxd;
    uint64_t n;
    uint64_t mark[MAX_DEPTH + 1]; /* records of the thread up to the last one at depth <= k */
    uint32_t cnt[MAX_DEPTH + 2];  /* records at depth k since the last one at depth < k */
    uint8_t dfl[MAX_DEPTH + 2];   /* a data call at depth >= k since the last one at depth < k */
} thread_tree;

struct ra_rank {
    ra_trace *t;
    rec_cursor *c;
    uint32_t rank;
    unsigned flags;
    uint64_t index, sessions;
    double offset, res;
    rec_record rec;
    ra_map handles[RA_HS_COUNT];
    ra_map more_refs[RA_HS_COUNT]; /* id -> its references beyond the first (ids follow objects) */
    int *path_file; /* path id -> file + 1 */
    size_t npath_file;
    int64_t *size; /* file -> bytes as far as this rank knows, -1: unknown */
    size_t nsize;
    thread_tree *threads;
    size_t nthreads, last_thread;
    int64_t last_id[RA_HS_COUNT]; /* the last handle looked up per space, and what it was */
    ofd *last_ofd[RA_HS_COUNT];
    ofd console[3];
    char scratch[4096];
};

ra_rank *ra_rank_open(ra_trace *t, uint32_t rank, unsigned flags, rec_error *err)
{
    if (rank >= t->nranks) {
        snprintf(err->msg, sizeof err->msg, "%s: no rank %u (the trace has %u)", rec_trace_dir(t->rt), rank,
                 t->nranks);
        return NULL;
    }
    rec_cursor *c = rec_cursor_open(t->rt, rank, err);
    if (!c)
        return NULL;
    ra_rank *w = ra_xcalloc(1, sizeof *w);
    w->t = t;
    w->c = c;
    w->rank = rank;
    w->flags = flags;
    w->res = t->resolution;
    w->offset = ra_rank_time_offset(t, rank);
    for (int i = 0; i < 3; i++)
        w->console[i] = (ofd){.file = i, .refs = 1, .space = RA_HS_FD, .pos_known = 0};
    for (int s = 0; s < RA_HS_COUNT; s++)
        w->last_id[s] = INT64_MIN;
    return w;
}

static void free_handle(int space, uint64_t val)
{
    if (space == RA_HS_TYPE) {
        free((void *)(uintptr_t)val);
        return;
    }
    ofd *o = (ofd *)(uintptr_t)val;
    if (--o->refs == 0) {
        free(o->object);
        free(o);
    }
}

void ra_rank_close(ra_rank *w)
{
    if (!w)
        return;
    for (int s = 0; s < RA_HS_COUNT; s++) {
        ra_map *m = &w->handles[s];
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i] != RA_MAP_EMPTY)
                free_handle(s, m->vals[i]);
        ra_map_free(m);
        ra_map_free(&w->more_refs[s]);
    }
    free(w->path_file);
    free(w->size);
    free(w->threads);
    rec_cursor_close(w->c);
    free(w);
}

uint64_t ra_rank_records(const ra_rank *w)
{
    return w->index;
}
int ra_rank_complete(const ra_rank *w)
{
    return rec_cursor_complete(w->c);
}
void ra_rank_counts(const ra_rank *w, rec_counts *out)
{
    rec_cursor_counts(w->c, out);
}
const char *ra_rank_path(const ra_rank *w, int64_t id)
{
    return rec_cursor_path(w->c, id);
}

/* ---- handles ---- */

static inline ofd *handle_get(ra_rank *w, int space, int64_t id)
{
    if (id == w->last_id[space])
        return w->last_ofd[space];
    if (!rec_handle_is_dynamic(id)) {
        if (space == RA_HS_FD && id >= 0 && id <= 2)
            return &w->console[id];
        if (space == RA_HS_STREAM && id >= 1 && id <= 3)
            return &w->console[id - 1];
        return NULL;
    }
    uint64_t *v = ra_map_find(&w->handles[space], (uint64_t)id);
    ofd *o = v ? (ofd *)(uintptr_t)*v : NULL;
    if (o) {
        w->last_id[space] = id;
        w->last_ofd[space] = o;
    }
    return o;
}

static void forget_handle(ra_rank *w, int space)
{
    w->last_id[space] = INT64_MIN;
}

static void handle_put(ra_rank *w, int space, int64_t id, void *obj)
{
    forget_handle(w, space);
    int fresh;
    uint64_t *v = ra_map_insert(&w->handles[space], (uint64_t)id, &fresh);
    if (!fresh) /* ids are never reused; a corrupt trace may still repeat one */
        free_handle(space, *v);
    *v = (uint64_t)(uintptr_t)obj;
}

/* ---- files and sizes ---- */

static int64_t size_of(const ra_rank *w, int file)
{
    return file >= 0 && (size_t)file < w->nsize ? w->size[file] : -1;
}

static void set_size(ra_rank *w, int file, int64_t size, int grow_only)
{
    if (file < 0 || size < 0)
        return;
    if ((size_t)file >= w->nsize) {
        size_t n = w->nsize ? w->nsize : 64;
        while (n <= (size_t)file)
            n *= 2;
        w->size = ra_xrealloc(w->size, n * sizeof *w->size);
        memset(w->size + w->nsize, 0xff, (n - w->nsize) * sizeof *w->size);
        w->nsize = n;
    }
    if (!grow_only || w->size[file] < size)
        w->size[file] = size;
}

static int path_file(ra_rank *w, int64_t id, int64_t dirfd)
{
    if (id < 0)
        return -1;
    if (dirfd != AT_FDCWD_ID && dirfd >= 0) {
        const char *rel = rec_cursor_path(w->c, id);
        ofd *d = handle_get(w, RA_HS_FD, dirfd);
        const char *dir = d ? ra_file_path(w->t, d->file) : NULL;
        if (rel && rel[0] != '/' && dir) {
            snprintf(w->scratch, sizeof w->scratch, "%s/%s", dir, rel);
            return ra_file_intern(w->t, w->scratch);
        }
    }
    if ((uint64_t)id < w->npath_file && w->path_file[id])
        return w->path_file[id] - 1;
    const char *path = rec_cursor_path(w->c, id);
    if (!path)
        return -1;
    if ((uint64_t)id >= w->npath_file) {
        size_t n = w->npath_file ? w->npath_file : 64;
        while (n <= (uint64_t)id)
            n *= 2;
        w->path_file = ra_xrealloc(w->path_file, n * sizeof *w->path_file);
        memset(w->path_file + w->npath_file, 0, (n - w->npath_file) * sizeof *w->path_file);
        w->npath_file = n;
    }
    int file = ra_file_intern(w->t, path);
    w->path_file[id] = file + 1;
    return file;
}

/* ---- call trees ---- */

static thread_tree *thread_state(ra_rank *w, uint32_t id)
{
    if (w->nthreads && w->threads[w->last_thread].id == id)
        return &w->threads[w->last_thread];
    for (size_t i = 0; i < w->nthreads; i++)
        if (w->threads[i].id == id) {
            w->last_thread = i;
            return &w->threads[i];
        }
    w->threads = ra_xrealloc(w->threads, (w->nthreads + 1) * sizeof *w->threads);
    thread_tree *s = &w->threads[w->nthreads];
    memset(s, 0, sizeof *s);
    s->id = id;
    s->maxd = -1;
    w->last_thread = w->nthreads++;
    return s;
}

/* Children come just before their parent: the subtree of a record at depth
 * d is the run of deeper records since the last record at depth <= d. */
static void place_in_tree(ra_rank *w, ra_event *ev, int is_data)
{
    thread_tree *s = thread_state(w, ev->thread);
    int d = (int)ev->depth;
    if (d > s->maxd) {
        for (int k = s->maxd + 1; k <= d; k++) {
            s->mark[k] = s->n;
            s->cnt[k] = 0;
            s->dfl[k] = 0;
        }
        s->cnt[d + 1] = 0;
        s->dfl[d + 1] = 0;
        s->maxd = d;
    }
    ev->descendants = s->n - s->mark[d];
    ev->children = d + 1 <= s->maxd ? s->cnt[d + 1] : 0;
    int below = 0;
    for (int k = d + 1; k <= s->maxd; k++) {
        below |= s->dfl[k];
        s->dfl[k] = 0;
        s->cnt[k] = 0;
    }
    s->n++;
    for (int k = d; k <= s->maxd; k++)
        s->mark[k] = s->n;
    s->cnt[d]++;
    s->dfl[d] |= (uint8_t)(is_data || below);
    ev->leaf_data = is_data && !below;
}

/* ---- bytes and offsets ---- */

static int64_t bytes_of(const ra_plan *p, const rec_record *r)
{
    int64_t bytes = rf_bytes_moved(p->f, &p->args, r);
    return bytes > 0 ? bytes : 0;
}

static void locate(ra_rank *w, const ra_plan *p, const rec_record *r, ofd *o, ra_event *ev)
{
    unsigned layer = p->f->layer;
    if (layer == REC_LAYER_POSIX) {
        if (p->args.offset >= 0) {
            ev->offset = r->args[p->args.offset].i;
        } else if (o && o->pos_known) {
            ev->offset = ev->op == RA_OP_WRITE && o->append ? size_of(w, o->file) : o->pos;
            if (ev->offset < 0)
                o->pos_known = 0;
            else
                o->pos = ev->offset + ev->bytes;
        }
    } else if (layer == REC_LAYER_MPIIO && o && p->special != RA_SP_SHARED) {
        int exact = 1;
        if (p->args.offset >= 0) {
            ev->offset = ra_view_map(&o->view, r->args[p->args.offset].i, ev->bytes, &exact);
        } else if (o->pos_known) {
            ev->offset = ra_view_map(&o->view, o->pos, ev->bytes, &exact);
            o->pos += ev->bytes / o->view.esize;
        }
        ev->offset_exact = exact;
    }
    if (ev->op == RA_OP_WRITE && ev->offset >= 0)
        set_size(w, ev->file, ev->offset + ev->bytes, 1);
}

/* ---- datatypes ---- */

static rf_type type_get(ra_rank *w, int64_t id)
{
    if (!rec_handle_is_dynamic(id))
        return rf_type_predefined(id);
    uint64_t *v = ra_map_find(&w->handles[RA_HS_TYPE], (uint64_t)id);
    rf_type unknown = {0, 0, 0, 0, 0, 0};
    return v ? *(rf_type *)(uintptr_t)*v : unknown;
}

static rf_type *type_slot(ra_rank *w, int64_t id)
{
    uint64_t *v = rec_handle_is_dynamic(id) ? ra_map_find(&w->handles[RA_HS_TYPE], (uint64_t)id) : NULL;
    return v ? (rf_type *)(uintptr_t)*v : NULL;
}

/* A record's argument values, as the facts library reads a constructor's. */
typedef struct record_values {
    ra_rank *w;
    const rec_record *r;
} record_values;

static int64_t record_scalar(const void *ctx, unsigned arg)
{
    return ((const record_values *)ctx)->r->args[arg].i;
}

static size_t record_array(const void *ctx, unsigned arg, int64_t *out, size_t cap)
{
    return rec_value_array(&((const record_values *)ctx)->r->args[arg], out, cap);
}

static rf_type record_type(const void *ctx, int64_t id)
{
    return type_get(((const record_values *)ctx)->w, id);
}

/* Lays out a new datatype from its constructor's arguments; unknown
 * layouts stay unknown. */
static void type_create(ra_rank *w, const ra_plan *p, const rec_record *r, int64_t id)
{
    rf_type *t = ra_xmalloc(sizeof *t);
    *t = (rf_type){0, 0, 0, 0, 0, 0};
    if (p->special == RA_SP_TYPE_CONSTRUCT) {
        record_values ctx = {w, r};
        rf_values v = {record_scalar, record_array, record_type, &ctx};
        *t = rf_type_construct(p->f, &v);
    }
    handle_put(w, RA_HS_TYPE, id, t);
}

/* ---- effects of calls on the model ---- */

static void special(ra_rank *w, const ra_plan *p, const rec_record *r, ofd *o, ra_event *ev)
{
    const rec_value *a = r->args;
    int64_t off = p->args.offset >= 0 ? a[p->args.offset].i : 0,
            whence = p->args.whence >= 0 ? a[p->args.whence].i : 0;
    switch (p->special) {
    case RA_SP_LSEEK:
        if (!o)
            break;
        o->pos = r->ret.i;
        o->pos_known = 1;
        if (whence == SEEK_END)
            set_size(w, o->file, r->ret.i - off, 0);
        break;
    case RA_SP_FSEEK: {
        if (!o)
            break;
        int64_t end = size_of(w, o->file);
        if (whence == SEEK_SET || (whence == SEEK_END && end >= 0))
            o->pos = off + (whence == SEEK_END ? end : 0), o->pos_known = 1;
        else if (whence == SEEK_CUR)
            o->pos += off;
        else
            o->pos_known = 0;
        break;
    }
    case RA_SP_FTELL:
        if (o)
            o->pos = r->ret.i, o->pos_known = 1;
        break;
    case RA_SP_REWIND:
        if (o)
            o->pos = 0, o->pos_known = 1;
        break;
    case RA_SP_TRUNCATE:
        set_size(w, ev->file, off, 0);
        break;
    case RA_SP_SET_VIEW:
        if (!o)
            break;
        o->view.disp = a[p->sp_args[0]].i;
        o->view.esize = type_get(w, a[p->sp_args[1]].i).size;
        if (o->view.esize <= 0)
            o->view.esize = 1;
        o->view.ft = type_get(w, a[p->sp_args[2]].i);
        o->pos = 0;
        o->pos_known = 1;
        break;
    case RA_SP_MPI_SEEK:
        if (!o)
            break;
        if (whence == MPI_SEEK_SET) {
            o->pos = off, o->pos_known = 1;
        } else if (whence == MPI_SEEK_CUR) {
            o->pos += off;
        } else {
            int64_t end = size_of(w, o->file);
            o->pos_known = end >= 0;
            o->pos = (end - o->view.disp) / o->view.esize + off;
        }
        break;
    case RA_SP_MPI_GETPOS:
        if (o && p->sp_args[0] >= 0)
            o->pos = a[p->sp_args[0]].i, o->pos_known = 1;
        break;
    case RA_SP_MPI_SETSIZE:
    case RA_SP_MPI_GETSIZE:
        if (p->sp_args[0] >= 0)
            set_size(w, ev->file, a[p->sp_args[0]].i, (p->f->roles & REC_ROLE_GROWS_SIZE) != 0);
        break;
    case RA_SP_TYPE_SIZE: { /* what MPI says of a type the model laid out */
        rf_type *t = p->sp_args[0] >= 0 ? type_slot(w, a[p->sp_args[0]].i) : NULL;
        if (t && p->sp_args[1] >= 0 && a[p->sp_args[1]].i >= 0)
            t->size = a[p->sp_args[1]].i;
        break;
    }
    case RA_SP_TYPE_EXTENT: {
        rf_type *t = p->sp_args[0] >= 0 ? type_slot(w, a[p->sp_args[0]].i) : NULL;
        if (t && p->sp_args[2] >= 0 && a[p->sp_args[2]].i >= 0)
            t->extent = a[p->sp_args[2]].i;
        break;
    }
    default:
        break;
    }
}

static void open_flags(ra_rank *w, const ra_plan *p, const rec_record *r, ofd *n)
{
    const rec_func_desc *f = p->f;
    if (p->mode_arg < 0) {
        if (f->roles & REC_ROLE_TRUNCATES) /* creat() is open(O_CREAT|O_WRONLY|O_TRUNC) */
            set_size(w, n->file, 0, 0);
        return;
    }
    const rec_value *m = &r->args[p->mode_arg];
    switch (f->args[p->mode_arg].kind) {
    case REC_KIND_OFLAGS:
        if (m->i & O_TRUNC)
            set_size(w, n->file, 0, 0);
        n->append = (m->i & O_APPEND) != 0;
        break;
    case REC_KIND_STDIO_MODE:
        if (m->len && ((const char *)m->ptr)[0] == 'w')
            set_size(w, n->file, 0, 0);
        n->append = m->len && ((const char *)m->ptr)[0] == 'a';
        break;
    case REC_KIND_MPI_AMODE:
        if (m->i & MPI_MODE_APPEND) {
            int64_t end = size_of(w, n->file);
            n->pos = end;
            n->pos_known = end >= 0;
        }
        break;
    default:
        break;
    }
}

/* One reference more (+1) or fewer (-1) beyond an id's first; 0 when the
 * first is the one dropped (the handle goes). */
static int count_reference(ra_rank *w, int space, int64_t id, int change)
{
    int fresh;
    uint64_t *more = change > 0 ? ra_map_insert(&w->more_refs[space], (uint64_t)id, &fresh)
                                : ra_map_find(&w->more_refs[space], (uint64_t)id);
    if (change > 0) {
        *more = fresh ? 1 : *more + 1;
        return 1;
    }
    if (!more || !*more)
        return 0;
    --*more;
    return 1;
}

static void create(ra_rank *w, const ra_plan *p, const rec_record *r, ofd *src, ra_event *ev)
{
    int64_t id = p->new_arg == -2 ? r->ret.i : r->args[p->new_arg].i;
    if (!rec_handle_is_dynamic(id))
        return;
    /* A live handle handed back (MPI_Comm_group twice, H5Iget_file_id): the same object. */
    if (rec_space_counts_references(rec_kind_handle_space(p->new_kind)) &&
        ra_map_find(&w->handles[p->new_space], (uint64_t)id)) {
        count_reference(w, p->new_space, id, 1);
        return;
    }
    if (p->new_space == RA_HS_TYPE) {
        type_create(w, p, r, id);
        return;
    }
    ofd *n;
    if (src && src->space == RA_HS_FD && (p->new_space == RA_HS_FD || p->new_space == RA_HS_STREAM)) {
        n = src; /* dup*, fdopen: the same open file description */
        n->refs++;
    } else {
        n = ra_xcalloc(1, sizeof *n);
        n->file = ev->file;
        n->refs = 1;
        n->space = p->new_space;
        n->pos_known = 1;
        ra_view_default(&n->view);
        if (p->new_space == RA_HS_HDF5 && p->new_kind != REC_KIND_H5_FILE) {
            n->session = src ? src->session : 0;
            const rec_value *name = p->name_arg >= 0 ? &r->args[p->name_arg] : NULL;
            const char *parent = src && src->object ? src->object : "";
            int sep = p->new_kind == REC_KIND_H5_ATTR ? '@' : '/';
            if (name && name->len && ((const char *)name->ptr)[0] == '/' && sep == '/')
                snprintf(w->scratch, sizeof w->scratch, "%.*s", (int)name->len, (const char *)name->ptr);
            else if (name)
                snprintf(w->scratch, sizeof w->scratch, "%s%c%.*s", parent, sep, (int)name->len,
                         (const char *)name->ptr);
            else
                snprintf(w->scratch, sizeof w->scratch, "%s", parent);
            n->object = w->scratch[0] ? ra_xstrdup(w->scratch) : NULL;
        } else {
            n->opener = 1;
            n->session = ++w->sessions;
            ev->op = RA_OP_OPEN;
            ev->session = n->session;
            open_flags(w, p, r, n);
        }
    }
    handle_put(w, p->new_space, id, n);
}

static void destroy(ra_rank *w, const ra_plan *p, const rec_record *r, ra_event *ev)
{
    int64_t id = r->args[REC_ARG_SUBJECT].i;
    uint64_t val;
    forget_handle(w, p->destroys);
    if (!rec_handle_is_dynamic(id))
        return;
    if (rec_func_reference_change(p->f) > 0) { /* H5Iinc_ref */
        if (ra_map_find(&w->handles[p->destroys], (uint64_t)id))
            count_reference(w, p->destroys, id, 1);
        return;
    }
    if (count_reference(w, p->destroys, id, -1) || !ra_map_remove(&w->handles[p->destroys], (uint64_t)id, &val))
        return;
    if (p->destroys == RA_HS_TYPE) {
        free((void *)(uintptr_t)val);
        return;
    }
    ofd *o = (ofd *)(uintptr_t)val;
    if (o->opener) {
        ev->op = RA_OP_CLOSE;
        ev->session = o->session;
        ev->session_end = o->refs == 1;
    }
    if (o->refs == 1 && ev->object == o->object && o->object) {
        snprintf(w->scratch, sizeof w->scratch, "%s", o->object);
        ev->object = w->scratch;
    }
    free_handle(p->destroys, val);
}

int ra_rank_next(ra_rank *w, ra_event *ev, rec_error *err)
{
    int rc = rec_cursor_next(w->c, &w->rec, err);
    if (rc <= 0)
        return rc;
    const rec_record *r = &w->rec;
    const ra_plan *p = &w->t->plans[r->func < REC_FUNCTION_ID_LIMIT ? r->func : 0];
    if (!p->f) {
        snprintf(err->msg, sizeof err->msg,
                 "%s: rank %u: record %llu: function id %u is not in the trace's table",
                 rec_trace_dir(w->t->rt), w->rank, (unsigned long long)w->index, r->func);
        return -1;
    }
    const rec_func_desc *f = p->f;
    ev->rec = r;
    ev->func = f;
    ev->rank = w->rank;
    ev->index = w->index++;
    ev->layer = f->layer;
    ev->depth = r->depth;
    ev->thread = r->thread;
    ev->op = (ra_op)p->op;
    ev->failed = ra_call_failed(f, r);
    ev->console = 0;
    ev->file = -1;
    ev->object = NULL;
    ev->offset = -1;
    ev->bytes = 0;
    ev->offset_exact = 1;
    ev->session = 0;
    ev->session_end = 0;
    ev->ticks = r->tend - r->tstart;
    ev->tstart = (double)(int64_t)r->tstart * w->res; /* signed: one instruction, and ticks fit */
    ev->tend = (double)(int64_t)r->tend * w->res;
    ev->gstart = w->offset + ev->tstart;
    ev->gend = w->offset + ev->tend;
    if (!(w->flags & RA_WALK_NO_TREE))
        place_in_tree(w, ev, p->data && !ev->failed);
    else
        ev->children = 0, ev->descendants = 0, ev->leaf_data = 0;

    ofd *o = NULL;
    if (p->file_arg >= 0) {
        const rec_value *v = &r->args[p->file_arg];
        if (p->file_space == RA_HS_NONE) {
            ev->file = path_file(w, v->i, p->dirfd_arg >= 0 ? r->args[p->dirfd_arg].i : AT_FDCWD_ID);
        } else if ((o = handle_get(w, p->file_space, v->i)) != NULL) {
            ev->file = o->file;
            ev->object = o->object;
            ev->session = o->session;
        }
    }
    for (unsigned k = 0; k < p->nconsole; k++)
        if (rf_is_console(f->args[p->console_args[k]].kind, r->args[p->console_args[k]].i))
            ev->console = 1;
    if (ev->file >= 0 && ev->file <= 2)
        ev->console = 1;
    if (p->data)
        ev->bytes = ev->failed ? 0 : bytes_of(p, r);
    if (!ev->failed) {
        int track = !(w->flags & RA_WALK_NO_OFFSETS);
        if (p->data && track)
            locate(w, p, r, o, ev);
        if (p->special)
            special(w, p, r, o, ev);
        if (p->args.stat >= 0 && track && r->args[p->args.stat].i >= 0 && !(f->roles & REC_ROLE_NOFOLLOW))
            set_size(w, ev->file, r->args[p->args.stat].i, 0); /* lstat sizes a link, not its file */
        if (p->new_space)
            create(w, p, r, o, ev);
    }
    if (p->destroys)
        destroy(w, p, r, ev);
    return 1;
}
