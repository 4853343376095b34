/* special.c: calls on /dev, /proc and /sys (see rf_special_new). A kernel
 * leaves them out as it does console I/O: it must never touch those files,
 * and a call on a handle one of them made would act on nothing. */
#define _GNU_SOURCE
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct skey {
    uint32_t rank, space;
    int64_t id;
} skey;

typedef struct shandle {
    UT_hash_handle hh;
    skey k;
} shandle;

struct rf_special {
    shandle *handles;
};

static void *zalloc(size_t size)
{
    void *p = calloc(1, size);
    if (!p) {
        fprintf(stderr, "recorder: out of memory\n");
        abort();
    }
    return p;
}

rf_special *rf_special_new(void)
{
    return zalloc(sizeof(rf_special));
}

static shandle *find(rf_special *s, uint32_t rank, unsigned kind, int64_t id)
{
    skey k;
    memset(&k, 0, sizeof k); /* the key's padding is hashed too */
    k.rank = rank;
    k.space = rec_kind_handle_space(kind);
    k.id = id;
    shandle *h = NULL;
    HASH_FIND(hh, s->handles, &k, sizeof k, h);
    return h;
}

static void remember(rf_special *s, uint32_t rank, unsigned kind, int64_t id)
{
    if (id < REC_HANDLE_DYNAMIC_BASE || find(s, rank, kind, id))
        return; /* a failed call made nothing */
    shandle *h = zalloc(sizeof *h);
    h->k.rank = rank;
    h->k.space = rec_kind_handle_space(kind);
    h->k.id = id;
    HASH_ADD(hh, s->handles, k, sizeof h->k, h);
}

/* Whether PATH argument k names a special file the call touches. */
static int special_path(const rec_func_desc *f, unsigned k, const char *path)
{
    char key[4096];
    return path && !rf_path_names_no_file(f, k) &&
           rf_path_normalize(path, key, sizeof key, RF_PATH_ROOTED | rf_path_flags(f)) == 0 && rf_path_is_system(key);
}

int rf_special_call(rf_special *s, const rec_func_desc *f, const rec_record *r, uint32_t rank,
                    const char *const *paths)
{
    int special = 0;
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS && !special; k++) {
        unsigned kind = f->args[k].kind;
        if (kind == REC_KIND_PATH)
            special = special_path(f, k, paths[k]);
        else if (rec_kind_handle_space(kind) != REC_SPACE_NONE && !(f->args[k].flags & REC_ARG_CREATE))
            special = find(s, rank, kind, r->args[k].i) != NULL;
    }
    if (!special)
        return 0;
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++)
        if (f->args[k].flags & REC_ARG_CREATE)
            remember(s, rank, f->args[k].kind, r->args[k].i);
    if (f->flags & REC_FN_CREATES && rec_kind_handle_space(f->ret_kind) != REC_SPACE_NONE)
        remember(s, rank, f->ret_kind, r->ret.i);
    if (f->flags & REC_FN_DESTROYS && f->nargs > REC_ARG_SUBJECT) {
        shandle *h = find(s, rank, f->args[REC_ARG_SUBJECT].kind, r->args[REC_ARG_SUBJECT].i);
        if (h) {
            HASH_DEL(s->handles, h);
            free(h);
        }
    }
    return 1;
}

void rf_special_free(rf_special *s)
{
    if (!s)
        return;
    shandle *h, *tmp;
    HASH_ITER(hh, s->handles, h, tmp)
    {
        HASH_DEL(s->handles, h);
        free(h);
    }
    free(s);
}
