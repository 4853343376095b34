/* inputs.c: what existed before the traced run. A path whose first event
 * (in the ranks' common time line) shows it already there -- a successful
 * call that does not create it, a creation that failed with EEXIST, or a
 * file created below it -- was an input: the kernel's setup step makes it
 * under OUTDIR before the body runs, directories as directories, files with
 * the largest size the trace shows for them before anything created them
 * (st_size of a stat, the end of a read, MPI_File_get_size). HDF5 inputs
 * cannot be synthesized that way; they are reported. The replayer follows
 * the same rule; both read only the top-level calls. */
#define _GNU_SOURCE
#include "cg.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include <hdf5.h>
#include <mpi.h>

/* H5F_ACC_* expand to "H5check(), H5open(), value": only the value is wanted. */
#undef H5CHECK
#undef H5OPEN
#define H5CHECK
#define H5OPEN

typedef struct evidence {
    double t;
    int64_t size;
} evidence;

typedef struct pinfo {
    UT_hash_handle hh;
    double first_access, first_create;
    int is_dir, hdf5, has_child;
    evidence *ev;
    size_t nev, capev;
    char key[];
} pinfo;

typedef struct hkey {
    uint32_t rank, space;
    int64_t id;
} hkey;

typedef struct hinfo {
    UT_hash_handle hh;
    hkey k;
    pinfo *p;
    int64_t pos;
} hinfo;

struct cg_inputs {
    pinfo *paths;
    hinfo *handles;
};

cg_inputs *cg_inputs_new(void)
{
    return cg_calloc(1, sizeof(cg_inputs));
}

static pinfo *path_info(cg_inputs *s, const char *key)
{
    pinfo *p = NULL;
    HASH_FIND_STR(s->paths, key, p);
    if (p)
        return p;
    size_t n = strlen(key) + 1;
    p = cg_calloc(1, sizeof *p + n);
    memcpy(p->key, key, n);
    p->first_access = p->first_create = INFINITY;
    HASH_ADD_STR(s->paths, key, p);
    return p;
}

static void add_size(pinfo *p, double t, int64_t size)
{
    if (!p || size < 0)
        return;
    if (p->nev == p->capev) {
        p->capev = p->capev ? 2 * p->capev : 4;
        p->ev = cg_realloc(p->ev, p->capev * sizeof *p->ev);
    }
    p->ev[p->nev++] = (evidence){t, size};
}

static hinfo *handle_info(cg_inputs *s, uint32_t rank, unsigned kind, int64_t id, int create)
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
    h = cg_calloc(1, sizeof *h);
    h->k = k;
    HASH_ADD(hh, s->handles, k, sizeof h->k, h);
    return h;
}

static int name_in(const char *name, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(name, *names))
            return 1;
    return 0;
}

static int succeeded(const rec_func_desc *f, const rec_record *r)
{
    /* hardening: the trace's function table may give an empty C type */
    size_t n = strlen(f->ret_ctype);
    int ptr = n > 0 && f->ret_ctype[n - 1] == '*';
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

/* PATH argument `arg` names no file the call touches (a symlink's target). */
static int names_no_file(const rec_func_desc *f, unsigned arg)
{
    static const char *const links[] = {"symlink", "symlinkat", NULL};
    return (name_in(f->name, links) && arg == 0) ||
           (!strcmp(f->name, "H5Lcreate_external") && !strcmp(f->args[arg].name, "file_name"));
}

/* PATH argument `arg` is created by the call (when it succeeds). */
static int creates(const rec_func_desc *f, const rec_record *r, unsigned arg)
{
    static const char *const makers[] = {"creat", "creat64", "mkdir", "mkdirat", NULL};
    static const char *const last_path[] = {"link",   "linkat",   "symlink", "symlinkat",
                                            "rename", "renameat", NULL};
    if (name_in(f->name, makers))
        return 1;
    if (name_in(f->name, last_path)) {
        for (unsigned k = arg + 1; k < f->nargs; k++)
            if (f->args[k].kind == REC_KIND_PATH)
                return 0;
        return 1;
    }
    for (unsigned k = 0; k < f->nargs; k++) {
        int64_t v = r->args[k].i;
        switch (f->args[k].kind) {
        case REC_KIND_OFLAGS:
            if (v & O_CREAT)
                return 1;
            break;
        case REC_KIND_STDIO_MODE:
            if (r->args[k].ptr && r->args[k].len && strchr("wa", ((const char *)r->args[k].ptr)[0]))
                return 1;
            break;
        case REC_KIND_MPI_AMODE:
            if (v & MPI_MODE_CREATE)
                return 1;
            break;
        case REC_KIND_H5_FACC:
            if (v & (H5F_ACC_TRUNC | H5F_ACC_EXCL))
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

static void absolute_key(const char *path, char *key, size_t cap)
{
    snprintf(key, cap, "%s%s", path[0] == '/' ? "" : "/", path);
}

/* Every directory above key existed by time t (unless created before). */
static void ancestors_exist(cg_inputs *s, const char *key, double t)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", key);
    for (char *slash = strrchr(dir, '/'); slash && slash != dir; slash = strrchr(dir, '/')) {
        *slash = 0;
        pinfo *p = path_info(s, dir);
        p->is_dir = 1;
        if (t < p->first_access)
            p->first_access = t;
    }
}

/* The file a call acts on through its first handle argument. */
static hinfo *acted_on(cg_inputs *s, const rec_func_desc *f, const rec_record *r, uint32_t rank)
{
    for (unsigned k = 0; k < f->nargs; k++) {
        unsigned kind = f->args[k].kind;
        if ((kind == REC_KIND_FD || kind == REC_KIND_FILE_STREAM || kind == REC_KIND_MPI_FILE) &&
            !(f->args[k].flags & REC_ARG_CREATE))
            return handle_info(s, rank, kind, r->args[k].i, 0);
    }
    return NULL;
}

static void track_data(const rec_func_desc *f, const rec_record *r, hinfo *h, double t)
{
    int64_t offset = -1, size_arg = -1, derived = -1;
    for (unsigned k = 0; k < f->nargs; k++) {
        unsigned kind = f->args[k].kind, flags = f->args[k].flags;
        int64_t v = r->args[k].i;
        if (flags & REC_ARG_DERIVED)
            derived = v;
        else if ((kind == REC_KIND_OFFSET || kind == REC_KIND_MPI_FILE_POS) && !(flags & REC_ARG_OUT))
            offset = v;
        else if (kind == REC_KIND_SIZE)
            size_arg = v;
        if (kind == REC_KIND_STATBUF ||
            (kind == REC_KIND_OFFSET && (flags & REC_ARG_OUT) && !strcmp(f->name, "MPI_File_get_size")))
            add_size(h->p, t, v);
    }
    if (!(f->flags & REC_FN_DATA)) {
        static const char *const tell[] = {"lseek", "lseek64", "ftell", "ftello", "ftello64", NULL};
        static const char *const seek[] = {"fseek", "fseeko", "fseeko64", NULL};
        if (name_in(f->name, tell))
            h->pos = r->ret.i;
        else if (!strcmp(f->name, "rewind"))
            h->pos = 0;
        else if (name_in(f->name, seek) && r->args[2].i == SEEK_SET)
            h->pos = r->args[1].i;
        return;
    }
    int64_t bytes = derived >= 0                                              ? derived
                    : f->ret_kind == REC_KIND_COUNT && size_arg >= 0          ? r->ret.i * size_arg
                    : f->ret_kind == REC_KIND_SIZE && f->fail == REC_FAIL_EOF ? r->ret.i > 0
                                                                              : r->ret.i;
    if (bytes < 0)
        return;
    int64_t end = (offset >= 0 ? offset : h->pos) + bytes;
    if (offset < 0)
        h->pos = end;
    if (f->flags & REC_FN_READ)
        add_size(h->p, t, end);
}

void cg_inputs_record(cg_inputs *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, double t,
                      const char *const *paths)
{
    int ok = succeeded(f, r);
    pinfo *first = NULL;
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        if (f->args[k].kind != REC_KIND_PATH || !paths[k] || names_no_file(f, k))
            continue;
        char key[4096];
        absolute_key(paths[k], key, sizeof key);
        pinfo *p = path_info(s, key);
        if (!first)
            first = p;
        int creating = creates(f, r, k);
        int existed = !ok && creating && r->err == EEXIST;
        if (ok && creating) {
            if (t < p->first_create)
                p->first_create = t;
        } else if (ok || existed) {
            if (t < p->first_access)
                p->first_access = t;
            if (existed && (!strcmp(f->name, "mkdir") || !strcmp(f->name, "mkdirat")))
                p->is_dir = 1;
        }
        if (ok && !strcmp(f->name, "opendir"))
            p->is_dir = 1;
        if (ok && f->layer == REC_LAYER_HDF5 && !creating)
            p->hdf5 = 1;
        for (unsigned j = 0; j < f->nargs && ok; j++)
            if (f->args[j].kind == REC_KIND_STATBUF)
                add_size(p, t, r->args[j].i);
        if (ok || existed)
            ancestors_exist(s, key, t);
    }
    hinfo *h = acted_on(s, f, r, rank);
    pinfo *origin = first ? first : h ? h->p : NULL;
    if (ok && (f->flags & REC_FN_CREATES) && origin) {
        if (f->ret_kind == REC_KIND_FD || f->ret_kind == REC_KIND_FILE_STREAM) {
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
    if (ok && h && h->p)
        track_data(f, r, h, t);
}

static int by_key(const pinfo *a, const pinfo *b)
{
    return strcmp(a->key, b->key);
}

void cg_inputs_finish(cg_inputs *s, cg_model *m)
{
    pinfo *p, *tmp;
    HASH_ITER(hh, s->paths, p, tmp)
    {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", p->key);
        for (char *slash = strrchr(dir, '/'); slash && slash != dir; slash = strrchr(dir, '/')) {
            *slash = 0;
            pinfo *q = NULL;
            HASH_FIND_STR(s->paths, dir, q);
            if (q)
                q->has_child = 1;
        }
    }
    HASH_SORT(s->paths, by_key);
    HASH_ITER(hh, s->paths, p, tmp)
    {
        if (p->first_access < p->first_create && strcmp(p->key, "/")) {
            int dir = p->is_dir || p->has_child;
            int64_t size = 0;
            for (size_t i = 0; i < p->nev; i++)
                if (p->ev[i].t < p->first_create && p->ev[i].size > size)
                    size = p->ev[i].size;
            m->inputs = cg_realloc(m->inputs, (m->ninputs + 1) * sizeof *m->inputs);
            m->inputs[m->ninputs++] = (cg_input){cg_strdup(p->key), dir ? -1 : size, !dir && p->hdf5};
        }
        HASH_DEL(s->paths, p);
        free(p->ev);
        free(p);
    }
    hinfo *h, *htmp;
    HASH_ITER(hh, s->handles, h, htmp)
    {
        HASH_DEL(s->handles, h);
        free(h);
    }
    free(s);
}
