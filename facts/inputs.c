/* inputs.c: what existed before the traced run (see rf_inputs_new). The
 * code generator's setup step and the replayer's pre-creation both come
 * from this one scan of the top-level calls, which also follows the file
 * positions that place line-oriented reads (lines.c) and data calls. */
#define _GNU_SOURCE
#include "recorder_facts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

enum { KEY_MAX = 4096 };

/* A size the trace shows for a path, and when. */
typedef struct evidence {
    double t;
    int64_t size;
} evidence;

typedef struct pinfo {
    UT_hash_handle hh;
    double first_access, first_create;
    int is_dir, hdf5, has_child;
    int linked, under_link; /* made by symlink(); below such a path */
    char *link;             /* a link the run read: its target */
    unsigned char *head;    /* the bytes a call that opened it found at its start (a netCDF header) */
    uint32_t head_len;
    uint32_t id;
    evidence *ev;           /* per rank, only sizes larger than the rank's last */
    size_t nev, capev;
    uint32_t ev_rank;
    int64_t ev_rank_max;
    char key[];
} pinfo;

typedef struct hkey {
    uint32_t rank, space;
    int64_t id;
} hkey;

/* A file handle of a rank: the path it was opened as, and its position. */
typedef struct hinfo {
    UT_hash_handle hh;
    hkey k;
    pinfo *p;
    int64_t pos;
} hinfo;

struct rf_inputs {
    unsigned flags;
    pinfo *paths;
    hinfo *handles;
    uint32_t next_id;
    pinfo **byid; /* next_id of them */
    rf_lines *lines;
    rf_span span;
    int has_span;
    rf_args args[REC_FUNCTION_ID_LIMIT];
    const rec_func_desc *planned[REC_FUNCTION_ID_LIMIT];
};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "recorder: out of memory\n");
        abort();
    }
    return p;
}

rf_inputs *rf_inputs_new(unsigned flags)
{
    rf_inputs *s = xcalloc(1, sizeof *s);
    s->flags = flags;
    s->lines = rf_lines_new();
    return s;
}

static pinfo *path_info(rf_inputs *s, const char *key)
{
    pinfo *p = NULL;
    HASH_FIND_STR(s->paths, key, p);
    if (p)
        return p;
    size_t n = strlen(key) + 1;
    p = xcalloc(1, sizeof *p + n);
    memcpy(p->key, key, n);
    p->first_access = p->first_create = INFINITY;
    p->ev_rank = UINT32_MAX;
    if ((p->id = s->next_id++) % 64 == 0) {
        s->byid = realloc(s->byid, (p->id + 64) * sizeof *s->byid);
        if (!s->byid) {
            fprintf(stderr, "recorder: out of memory\n");
            abort();
        }
    }
    s->byid[p->id] = p;
    HASH_ADD_STR(s->paths, key, p);
    return p;
}

/* Only a size larger than any the rank showed before can raise the
 * largest one before the path's creation (the rank's calls come in order). */
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
        p->capev = p->capev ? 2 * p->capev : 4;
        p->ev = realloc(p->ev, p->capev * sizeof *p->ev);
        if (!p->ev) {
            fprintf(stderr, "recorder: out of memory\n");
            abort();
        }
    }
    p->ev[p->nev++] = (evidence){t, size};
}

static hinfo *handle_info(rf_inputs *s, uint32_t rank, unsigned kind, int64_t id, int create)
{
    hkey k;
    memset(&k, 0, sizeof k);
    k.rank = rank;
    k.space = rec_kind_handle_space(kind);
    k.id = id;
    hinfo *h = NULL;
    HASH_FIND(hh, s->handles, &k, sizeof k, h);
    if (h || !create)
        return h;
    h = xcalloc(1, sizeof *h);
    h->k = k;
    HASH_ADD(hh, s->handles, k, sizeof h->k, h);
    return h;
}

/* Every directory above key existed by time t. */
static void ancestors_exist(rf_inputs *s, const char *key, double t)
{
    char dir[KEY_MAX];
    snprintf(dir, sizeof dir, "%s", key);
    for (char *slash = strrchr(dir, '/'); slash && slash != dir; slash = strrchr(dir, '/')) {
        *slash = 0;
        pinfo *p = path_info(s, dir);
        p->is_dir = 1;
        if (t < p->first_access)
            p->first_access = t;
    }
}

/* The header a call that opened an existing file recorded of it (NC_HEADER), kept. */
static void keep_head(pinfo *p, const rec_func_desc *f, const rec_record *r)
{
    int k = rec_arg_with_kind(f, REC_KIND_NC_HEADER, 0);
    if (k < 0 || !r->args[k].len || !r->args[k].ptr)
        return;
    p->head = malloc(r->args[k].len);
    if (!p->head)
        return;
    memcpy(p->head, r->args[k].ptr, r->args[k].len);
    p->head_len = r->args[k].len;
}


/* Tables hold ids below REC_FUNCTION_ID_LIMIT (rec_table_new refuses others). */
static const rf_args *args_of(rf_inputs *s, const rec_func_desc *f)
{
    if (s->planned[f->id] != f) {
        rf_args_of(f, &s->args[f->id]);
        s->planned[f->id] = f;
    }
    return &s->args[f->id];
}

/* Positions and sizes through the file handle a successful call acts on. */
static void track_handle(rf_inputs *s, const rec_func_desc *f, const rf_args *a, const rec_record *r,
                         uint32_t rank, hinfo *h, double t)
{
    if (a->stat >= 0)
        add_size(h->p, rank, t, r->args[a->stat].i);
    if (f->roles & REC_ROLE_REPORTS_SIZE) {
        int k = rec_arg_with_kind(f, REC_KIND_OFFSET, REC_ARG_OUT);
        if (k >= 0)
            add_size(h->p, rank, t, r->args[k].i);
    }
    if (!(f->flags & REC_FN_DATA)) {
        /* POSIX positions only: an MPI-IO position counts etypes of a view */
        if (f->roles & REC_ROLE_TELLS_POSITION)
            h->pos = r->ret.i;
        else if (f->roles & REC_ROLE_REWINDS)
            h->pos = 0;
        else if ((f->roles & REC_ROLE_SEEKS) && a->whence >= 0 && f->args[a->whence].kind == REC_KIND_WHENCE &&
                 a->offset >= 0 && r->args[a->whence].i == SEEK_SET)
            h->pos = r->args[a->offset].i;
        return;
    }
    int64_t bytes = rf_bytes_moved(f, a, r);
    if (f->ret_kind == REC_KIND_SIZE && f->fail == REC_FAIL_EOF && a->derived < 0)
        bytes = bytes > 0; /* fgetc, fputc: one byte, none at EOF */
    if (bytes < 0)
        return;
    int64_t offset = a->offset >= 0 ? r->args[a->offset].i : -1;
    int64_t start = offset >= 0 ? offset : h->pos, end = start + bytes;
    if (offset < 0)
        h->pos = end;
    if (f->flags & REC_FN_READ)
        add_size(h->p, rank, t, end);
    if (f->layer != REC_LAYER_POSIX) /* an MPI-IO offset counts etypes of a view */
        return;
    s->span = (rf_span){h->p->id, start, bytes};
    s->has_span = 1;
    if (f->roles & REC_ROLE_READS_LINE) {
        int d = rec_arg_with_role(f, REC_AROLE_DELIMITER);
        rf_lines_note(s->lines, h->p->id, start, bytes, a->size >= 0 ? r->args[a->size].i : 0,
                      d >= 0 ? (int)r->args[d].i : '\n');
    }
}

/* A name readdir returned: that entry of the directory was there. */
static void note_entry(rf_inputs *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, double t)
{
    int k = rec_arg_with_kind(f, REC_KIND_DIR_STREAM, REC_ARG_IN);
    hinfo *h = k >= 0 ? handle_info(s, rank, REC_KIND_DIR_STREAM, r->args[k].i, 0) : NULL;
    const char *name = r->ret.ptr;
    size_t len = r->ret.len;
    if (!h || !h->p || !name || !len || memchr(name, '/', len) || (len <= 2 && !strncmp(name, "..", len)))
        return;
    char key[KEY_MAX];
    if (snprintf(key, sizeof key, "%s/%.*s", strcmp(h->p->key, "/") ? h->p->key : "", (int)len, name) >=
        (int)sizeof key)
        return;
    pinfo *p = path_info(s, key);
    if (t < p->first_access)
        p->first_access = t;
}

/* A target readlink read: the path was a link. */
static void note_link(const rec_func_desc *f, const rec_record *r, pinfo *p)
{
    int k = rec_arg_with_role(f, REC_AROLE_LINK_TARGET);
    if (!p || p->link || k < 0 || f->args[k].kind != REC_KIND_STRING_OUT || !r->args[k].ptr ||
        !r->args[k].len)
        return;
    p->link = strndup(r->args[k].ptr, r->args[k].len);
}

void rf_inputs_add(rf_inputs *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, double t,
                   const char *const *paths)
{
    const rf_args *a = args_of(s, f);
    int ok = rf_succeeded(f, r);
    pinfo *first = NULL;
    s->has_span = 0;
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        if (f->args[k].kind != REC_KIND_PATH || !paths[k] || rf_path_names_no_file(f, k))
            continue;
        char key[KEY_MAX];
        if (rf_path_normalize(paths[k], key, sizeof key, RF_PATH_ROOTED | rf_path_flags(f)) != 0 || rf_path_is_system(key))
            continue;
        pinfo *p = path_info(s, key);
        if (!first)
            first = p;
        int creating = rf_record_creates(f, r, k);
        int existed = !ok && creating && r->err == EEXIST;
        if (ok && creating) {
            if (rec_arg_with_role(f, REC_AROLE_LINK_TARGET) >= 0)
                p->linked = 1;
            if (t < p->first_create)
                p->first_create = t;
        } else if (ok || existed) {
            if (t < p->first_access)
                p->first_access = t;
            if (existed && (f->roles & REC_ROLE_MAKES_DIR))
                p->is_dir = 1;
        }
        if (ok && (f->roles & REC_ROLE_OPENS_DIR))
            p->is_dir = 1;
        if (ok && f->layer == REC_LAYER_HDF5 && !creating)
            p->hdf5 = 1;
        if (ok && !creating && !p->head)
            keep_head(p, f, r);
        if (ok && a->stat >= 0)
            add_size(p, rank, t, r->args[a->stat].i);
        if ((ok || existed) && (s->flags & RF_INPUTS_ANCESTORS))
            ancestors_exist(s, key, t);
    }
    hinfo *h = a->handle >= 0 ? handle_info(s, rank, f->args[a->handle].kind, r->args[a->handle].i, 0) : NULL;
    /* Handles opened on a path (or duplicated from one) carry it along. */
    pinfo *origin = first ? first : h ? h->p : NULL;
    if (!ok)
        return;
    if (f->roles & REC_ROLE_DIR_ENTRY)
        note_entry(s, f, r, rank, t);
    if (f->roles & REC_ROLE_NAME_LENGTH)
        note_link(f, r, first);
    if ((f->flags & REC_FN_CREATES) && origin) {
        if (f->ret_kind == REC_KIND_FD || f->ret_kind == REC_KIND_FILE_STREAM ||
            f->ret_kind == REC_KIND_DIR_STREAM) {
            hinfo *n = handle_info(s, rank, f->ret_kind, r->ret.i, 1);
            n->p = origin;
            n->pos = 0;
        }
        for (unsigned k = 0; k < f->nargs; k++)
            if (f->args[k].kind == REC_KIND_MPI_FILE && (f->args[k].flags & REC_ARG_CREATE)) {
                hinfo *n = handle_info(s, rank, REC_KIND_MPI_FILE, r->args[k].i, 1);
                n->p = origin;
                n->pos = 0;
            }
    }
    if (h && h->p)
        track_handle(s, f, a, r, rank, h, t);
}

int rf_inputs_last_span(const rf_inputs *s, rf_span *out)
{
    if (s->has_span)
        *out = s->span;
    return s->has_span;
}

const char *rf_inputs_key(const rf_inputs *s, uint32_t file)
{
    return file < s->next_id ? s->byid[file]->key : NULL;
}

rf_lines *rf_inputs_lines(rf_inputs *s)
{
    rf_lines *l = s->lines;
    s->lines = rf_lines_new();
    rf_lines_finish(l);
    for (uint32_t file = 0; file < rf_lines_count(l); file++)
        if (rf_lines_delim(l, file) >= 0)
            rf_lines_set_key(l, file, s->byid[file]->key);
    return l;
}

static int by_key(const pinfo *a, const pinfo *b)
{
    return strcmp(a->key, b->key);
}

static int existed(const pinfo *p)
{
    return p->first_access < p->first_create && !p->under_link && strcmp(p->key, "/") != 0;
}

/* Where a link the run found leads, as a key: 0, or -1 when it leads out
 * of "/" or names nothing the tree can hold. */
static int link_key(const pinfo *link, char *key, size_t cap)
{
    if (link->link[0] == '/')
        return rf_path_normalize(link->link, key, cap, RF_PATH_ROOTED | RF_PATH_ESCAPE_FAILS) == 0 ? 0 : -1;
    return rf_link_target_key(link->key, link->link, key, cap) == 0 ? 0 : -1;
}

/* What the run reached through a link it found is where the link leads:
 * p (the link itself or a path below it) moves there, merged with what
 * the run showed of that place. */
static void move_through(rf_inputs *s, pinfo *link, pinfo *p)
{
    char target[KEY_MAX], key[KEY_MAX];
    size_t n = strlen(link->key);
    if (link_key(link, target, sizeof target) != 0 ||
        snprintf(key, sizeof key, "%s%s", target, p->key + n) >= (int)sizeof key || !strcmp(key, p->key))
        return;
    pinfo *q = path_info(s, key);
    if (p->first_access < q->first_access)
        q->first_access = p->first_access;
    q->is_dir |= p->is_dir;
    q->has_child |= p->has_child;
    q->hdf5 |= p->hdf5;
    for (size_t i = 0; i < p->nev; i++) {
        q->ev_rank = UINT32_MAX; /* evidence from elsewhere: kept whatever its size */
        add_size(q, 0, p->ev[i].t, p->ev[i].size);
    }
    p->under_link = p != link; /* the link stays, as a link */
    p->nev = 0;
}

static void mark_children(rf_inputs *s)
{
    pinfo *p, *tmp;
    /* A path with something below it was a directory; what lies below a
     * link the run made is reached through the link. */
    HASH_ITER(hh, s->paths, p, tmp)
    {
        char dir[KEY_MAX];
        snprintf(dir, sizeof dir, "%s", p->key);
        for (char *slash = strrchr(dir, '/'); slash; slash = strrchr(dir, '/')) {
            slash[slash == dir] = 0; /* "/x" -> "/" */
            pinfo *q = NULL;
            HASH_FIND_STR(s->paths, dir, q);
            if (q) {
                q->has_child = 1;
                p->under_link |= q->linked;
            }
            if (slash == dir)
                break;
        }
    }
}

size_t rf_inputs_finish(rf_inputs *s, rf_input **out)
{
    mark_children(s);
    /* the paths below the links the run found, and the links, before any moves */
    size_t npaths = HASH_COUNT(s->paths), nmoves = 0;
    pinfo **moves = xcalloc(2 * npaths + 1, sizeof *moves), *p, *tmp;
    HASH_ITER(hh, s->paths, p, tmp)
    {
        if (!p->link || !existed(p))
            continue;
        size_t n = strlen(p->key);
        pinfo *q, *qtmp;
        HASH_ITER(hh, s->paths, q, qtmp)
        if (!strncmp(q->key, p->key, n) && (q->key[n] == '/' || q == p) && nmoves < 2 * npaths) {
            moves[nmoves++] = p;
            moves[nmoves++] = q;
        }
    }
    for (size_t i = 0; i < nmoves; i += 2)
        move_through(s, moves[i], moves[i + 1]);
    free(moves);
    HASH_SORT(s->paths, by_key);
    size_t n = 0, cap = 0;
    *out = NULL;
    HASH_ITER(hh, s->paths, p, tmp)
    {
        if (existed(p)) {
            int dir = !p->link && (p->is_dir || p->has_child);
            int64_t size = 0;
            for (size_t i = 0; i < p->nev && !p->link; i++)
                if (p->ev[i].t < p->first_create && p->ev[i].size > size)
                    size = p->ev[i].size;
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                *out = realloc(*out, cap * sizeof **out);
                if (!*out) {
                    fprintf(stderr, "recorder: out of memory\n");
                    abort();
                }
            }
            (*out)[n++] =
                (rf_input){strdup(p->key), dir, dir ? 0 : size, !dir && !p->link && p->hdf5, p->link, p->id,
                           dir ? NULL : p->head, dir ? 0 : p->head_len};
            p->link = NULL;
            if (!dir)
                p->head = NULL;
        }
        HASH_DEL(s->paths, p);
        free(p->link);
        free(p->head);
        free(p->ev);
        free(p);
    }
    hinfo *h, *htmp;
    HASH_ITER(hh, s->handles, h, htmp)
    {
        HASH_DEL(s->handles, h);
        free(h);
    }
    rf_lines_free(s->lines);
    free(s->byid);
    free(s);
    return n;
}

void rf_inputs_free(rf_input *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(in[i].key);
        free(in[i].link);
        free(in[i].head);
    }
    free(in);
}
