/* prep.c: before any rank replays, the loader of rank 0 reads every rank's
 * records once (which also proves the whole trace readable, so a corrupt
 * trace stops the replay before it writes anything) and finds the inputs:
 * paths whose first event, in the ranks' common time line, shows that they
 * existed before the application touched them (a successful call that does
 * not create them, or a creation that failed with EEXIST). They are
 * pre-created under the prefix: directories as directories, files with the
 * largest size the trace shows for them before they were first created
 * (st_size of a stat, the end of a read, MPI_File_get_size), else empty.
 * An HDF5 input cannot be synthesized that way: it is reported, and the
 * replay skips the HDF5 calls on it. */
#define _GNU_SOURCE
#include "prep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include <hdf5.h>
#include <mpi.h>

#include "creation.h"
#include "fs.h"
#include "source.h"

typedef struct evidence {
    double t;
    int64_t size;
} evidence;

typedef struct pinfo {
    UT_hash_handle hh;
    double first_access, first_create;
    int is_dir, hdf5, has_child;
    int linked, under_link; /* made by symlink(); below such a path */
    evidence *ev;           /* per rank increasing sizes, with their times */
    size_t nev, capev;
    uint32_t ev_rank;
    int64_t ev_rank_max;
    char key[];
} pinfo;

/* A handle of the rank -> the path it was opened as, and its position. */
typedef struct hinfo {
    UT_hash_handle hh;
    uint64_t hkey; /* kind << 56 | id */
    pinfo *p;
    int64_t pos;
} hinfo;

typedef struct scan {
    pinfo *paths;
    hinfo *handles;
    uint32_t rank;
} scan;

static pinfo *path_info(scan *s, const char *key)
{
    pinfo *p = NULL;
    HASH_FIND_STR(s->paths, key, p);
    if (p)
        return p;
    size_t n = strlen(key) + 1;
    p = calloc(1, sizeof *p + n);
    if (!p)
        return NULL;
    memcpy(p->key, key, n);
    p->first_access = p->first_create = INFINITY;
    p->ev_rank = UINT32_MAX;
    HASH_ADD_STR(s->paths, key, p);
    return p;
}

static void add_size(pinfo *p, uint32_t rank, double t, int64_t size)
{
    if (!p || size < 0)
        return;
    if (p->ev_rank != rank) {
        p->ev_rank = rank;
        p->ev_rank_max = -1;
    }
    if (size <= p->ev_rank_max)
        return;
    p->ev_rank_max = size;
    if (p->nev == p->capev) {
        size_t cap = p->capev ? 2 * p->capev : 4;
        evidence *ev = realloc(p->ev, cap * sizeof *ev);
        if (!ev)
            return;
        p->ev = ev;
        p->capev = cap;
    }
    p->ev[p->nev++] = (evidence){t, size};
}

static hinfo *handle_info(scan *s, unsigned kind, int64_t id, int create)
{
    uint64_t k = (uint64_t)kind << 56 ^ (uint64_t)id;
    hinfo *h = NULL;
    HASH_FIND(hh, s->handles, &k, sizeof k, h);
    if (h || !create)
        return h;
    h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->hkey = k;
    HASH_ADD(hh, s->handles, hkey, sizeof h->hkey, h);
    return h;
}

static int name_is(const rec_func_desc *f, const char *a, const char *b, const char *c)
{
    return !strcmp(f->name, a) || (b && !strcmp(f->name, b)) || (c && !strcmp(f->name, c));
}

static int succeeded(const rec_func_desc *f, const rec_record *r)
{
    int ptr = f->ret_ctype[strlen(f->ret_ctype) - 1] == '*';
    switch (f->fail) {
    case REC_FAIL_NEG1:
        return r->ret.i != -1;
    case REC_FAIL_NULL:
        return ptr ? r->ret.i != -1 : r->ret.i != 0;
    case REC_FAIL_NEGATIVE:
        return r->ret.i >= 0;
    case REC_FAIL_NONZERO:
        return r->ret.i == 0;
    case REC_FAIL_EOF:
        return r->ret.i != -1;
    default:
        return 1;
    }
}

/* Whether argument `arg` (a PATH) is created by this call. */
static int creates(const rec_func_desc *f, const rec_record *r, unsigned arg)
{
    int64_t ints[REC_MAX_ARGS];
    const char *strs[REC_MAX_ARGS];
    char modes[REC_MAX_ARGS][8];
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        ints[k] = r->args[k].i;
        strs[k] = NULL;
        if (f->args[k].kind == REC_KIND_STDIO_MODE && r->args[k].ptr) {
            snprintf(modes[k], sizeof modes[k], "%.*s", (int)r->args[k].len, (const char *)r->args[k].ptr);
            strs[k] = modes[k];
        }
    }
    return rp_arg_creates(f, arg, ints, strs);
}

static double at(const rec_record *r, double start, double resolution)
{
    return start + (double)r->tstart * resolution;
}

/* Paths and handles: who created what, what existed, how big it was. */
static void scan_record(scan *s, const rec_func_desc *f, const rec_record *r, rp_source *src, double t)
{
    int ok = succeeded(f, r);
    pinfo *first = NULL;
    for (unsigned k = 0; k < f->nargs; k++) {
        if (f->args[k].kind != REC_KIND_PATH || r->args[k].i < 0 || rp_names_no_file(f, k))
            continue;
        const char *path = src->ops->path(src, r->args[k].i);
        char key[RP_PATH_MAX];
        if (!path || rp_norm(path, key, sizeof key, 1) != 0 || rp_is_system(key))
            continue;
        pinfo *p = path_info(s, key);
        if (!p)
            continue;
        if (!first)
            first = p;
        int creating = creates(f, r, k);
        if (ok && creating) {
            if (!strncmp(f->name, "symlink", 7))
                p->linked = 1;
            if (t < p->first_create)
                p->first_create = t;
        } else if (ok || (creating && r->err == EEXIST)) {
            if (t < p->first_access)
                p->first_access = t;
            if (!ok && rp_is_mkdir(f))
                p->is_dir = 1;
        }
        if (ok && name_is(f, "opendir", NULL, NULL))
            p->is_dir = 1;
        if (ok && f->layer == REC_LAYER_HDF5 && !creating)
            p->hdf5 = 1;
        for (unsigned j = 0; j < f->nargs; j++)
            if (f->args[j].kind == REC_KIND_STATBUF && ok)
                add_size(p, s->rank, t, r->args[j].i);
    }
    /* Handles opened on a path (or duplicated from one) carry it along. */
    pinfo *origin = first;
    for (unsigned k = 0; k < f->nargs && !origin; k++)
        if (f->args[k].kind == REC_KIND_FD || f->args[k].kind == REC_KIND_FILE_STREAM) {
            hinfo *h = handle_info(s, f->args[k].kind == REC_KIND_FD ? 1 : 2, r->args[k].i, 0);
            origin = h ? h->p : NULL;
        }
    if (ok && (f->flags & REC_FN_CREATES) && origin) {
        unsigned rk = f->ret_kind;
        if (rk == REC_KIND_FD || rk == REC_KIND_FILE_STREAM) {
            hinfo *h = handle_info(s, rk == REC_KIND_FD ? 1 : 2, r->ret.i, 1);
            if (h)
                h->p = origin, h->pos = 0;
        }
        for (unsigned k = 0; k < f->nargs; k++)
            if (f->args[k].kind == REC_KIND_MPI_FILE && (f->args[k].flags & REC_ARG_CREATE)) {
                hinfo *h = handle_info(s, 3, r->args[k].i, 1);
                if (h)
                    h->p = origin, h->pos = 0;
            }
    }
    if (!ok)
        return;
    /* Positions and sizes through handles. */
    int64_t offset = -1, bytes = -1, size_arg = -1, derived = -1, statbuf = -1;
    hinfo *h = NULL;
    for (unsigned k = 0; k < f->nargs; k++) {
        unsigned kind = f->args[k].kind;
        const rec_value *v = &r->args[k];
        if (kind == REC_KIND_FD && !h)
            h = handle_info(s, 1, v->i, 0);
        else if (kind == REC_KIND_FILE_STREAM && !h)
            h = handle_info(s, 2, v->i, 0);
        else if (kind == REC_KIND_MPI_FILE && !h)
            h = handle_info(s, 3, v->i, 0);
        else if (kind == REC_KIND_OFFSET || kind == REC_KIND_MPI_FILE_POS)
            offset = (f->args[k].flags & REC_ARG_OUT) ? -1 : v->i;
        else if (kind == REC_KIND_SIZE && !(f->args[k].flags & REC_ARG_DERIVED))
            size_arg = v->i;
        if (f->args[k].flags & REC_ARG_DERIVED)
            derived = v->i;
        if (kind == REC_KIND_STATBUF)
            statbuf = v->i;
        if (kind == REC_KIND_OFFSET && (f->args[k].flags & REC_ARG_OUT) &&
            name_is(f, "MPI_File_get_size", NULL, NULL))
            statbuf = v->i;
    }
    if (!h || !h->p)
        return;
    if (statbuf >= 0)
        add_size(h->p, s->rank, t, statbuf);
    if (!(f->flags & REC_FN_DATA)) {
        if (name_is(f, "lseek", "lseek64", "ftell") || name_is(f, "ftello", "ftello64", NULL))
            h->pos = r->ret.i;
        else if (name_is(f, "rewind", NULL, NULL))
            h->pos = 0;
        else if (name_is(f, "fseek", "fseeko", "fseeko64") && r->args[2].i == SEEK_SET)
            h->pos = r->args[1].i;
        return;
    }
    if (derived >= 0)
        bytes = derived;
    else if (f->ret_kind == REC_KIND_COUNT && size_arg >= 0)
        bytes = r->ret.i * size_arg;
    else if (f->ret_kind == REC_KIND_SIZE && f->fail == REC_FAIL_EOF)
        bytes = r->ret.i > 0 ? 1 : 0;
    else
        bytes = r->ret.i;
    if (bytes < 0)
        return;
    int64_t end = offset >= 0 ? offset + bytes : h->pos + bytes;
    if (offset < 0)
        h->pos = end;
    if (f->flags & REC_FN_READ)
        add_size(h->p, s->rank, t, end);
}

static int scan_rank(scan *s, rec_trace *t, uint32_t rank, char *err, size_t cap)
{
    rec_error e;
    const rec_rank_meta *meta = rec_trace_rank_meta(t, rank, &e);
    double start = meta ? (double)meta->start_time_ns * 1e-9 : 0;
    double resolution = rec_trace_get_info(t)->time_resolution;
    rp_source *src = rp_source_open(t, rank, &e);
    if (!src) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    const rec_table *table = rec_trace_table(t);
    s->rank = rank;
    rec_record r;
    int rc;
    while ((rc = src->ops->next(src, &r, &e)) == 1) {
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        if (f)
            scan_record(s, f, &r, src, at(&r, start, resolution));
    }
    int complete = rc == 0 && src->ops->complete(src);
    src->ops->close(src);
    if (rc < 0) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    if (!complete) {
        char file[64];
        if (rec_trace_is_merged(t))
            snprintf(file, sizeof file, "merged.rec (rank %u)", rank);
        else
            snprintf(file, sizeof file, "%u.rec", rank);
        snprintf(err, cap,
                 "%s/%s: the stream ends without its end marker (the traced program did not finish "
                 "cleanly): a partial replay could hang in a collective",
                 rec_trace_dir(t), file);
        return -1;
    }
    return 0;
}

/* Existed before the application touched it; what lies under a link the
 * trace makes is reached through the link, not pre-created. */
static int is_input(const pinfo *p)
{
    return p->first_access < p->first_create && !p->under_link;
}

static int by_key(const pinfo *a, const pinfo *b)
{
    return strcmp(a->key, b->key);
}

int rp_prep(rec_trace *t, const rp_options *opt, rp_out *o, char *err, size_t cap)
{
    scan s = {0};
    int rc = 0;
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    hinfo *h, *htmp;
    for (uint32_t rank = 0; rank < nranks && rc == 0; rank++) {
        HASH_ITER(hh, s.handles, h, htmp)
        {
            HASH_DEL(s.handles, h);
            free(h);
        }
        rc = scan_rank(&s, t, rank, err, cap);
    }
    HASH_ITER(hh, s.handles, h, htmp)
    {
        HASH_DEL(s.handles, h);
        free(h);
    }
    pinfo *p, *tmp;
    if (rc == 0 && rp_mkdirs("", opt->prefix) != 0) {
        snprintf(err, cap, "%s: cannot create the output directory: %s", opt->prefix, strerror(errno));
        rc = -1;
    }
    if (rc == 0) {
        /* A path with something below it was a directory. */
        HASH_ITER(hh, s.paths, p, tmp)
        {
            char dir[RP_PATH_MAX];
            snprintf(dir, sizeof dir, "%s", p->key);
            while (strcmp(dir, "/") != 0) {
                char up[RP_PATH_MAX];
                rp_dirname(dir, up, sizeof up);
                pinfo *q = NULL;
                HASH_FIND_STR(s.paths, up, q);
                if (q) {
                    q->has_child = 1;
                    p->under_link |= q->linked;
                }
                snprintf(dir, sizeof dir, "%s", up);
            }
        }
        HASH_SORT(s.paths, by_key);
        uint32_t ninputs = 0, nwarn = 0;
        HASH_ITER(hh, s.paths, p, tmp)
        ninputs += is_input(p);
        rp_out_begin(o, RP_MSG_PREP);
        rp_out_u32(o, ninputs);
        char warnings[8][600];
        HASH_ITER(hh, s.paths, p, tmp)
        {
            if (!is_input(p))
                continue;
            int dir = p->is_dir || p->has_child;
            int64_t size = 0;
            for (size_t i = 0; i < p->nev; i++)
                if (p->ev[i].t < p->first_create && p->ev[i].size > size)
                    size = p->ev[i].size;
            char full[RP_PATH_MAX + 64], parent[RP_PATH_MAX + 64];
            int made =
                rp_reroot(opt->prefix, p->key, full, sizeof full) == 0 && rp_safe(opt->prefix, full) == 0;
            if (made && dir)
                made = rp_mkdirs(opt->prefix, full) == 0;
            else if (made) {
                rp_dirname(full, parent, sizeof parent);
                made = rp_mkdirs(opt->prefix, parent) == 0 && rp_sys_kind(full) != 2 &&
                       rp_sys_make_file(full, size) == 0;
            }
            if (!made && nwarn < 8)
                snprintf(warnings[nwarn++], sizeof warnings[0], "cannot pre-create the input %s under %s",
                         p->key, opt->prefix);
            rp_out_u8(o, (uint8_t)dir);
            rp_out_i64(o, dir ? 0 : size);
            rp_out_u8(o, (uint8_t)p->hdf5);
            rp_out_str(o, p->key, (uint32_t)strlen(p->key));
        }
        rp_out_u32(o, nwarn);
        for (uint32_t i = 0; i < nwarn; i++)
            rp_out_str(o, warnings[i], (uint32_t)strlen(warnings[i]));
        rp_out_end(o);
    }
    HASH_ITER(hh, s.paths, p, tmp)
    {
        HASH_DEL(s.paths, p);
        free(p->ev);
        free(p);
    }
    return rc;
}
