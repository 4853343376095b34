/* paths.c: a recorded PATH argument -> the path the replay uses.
 *
 * The rule (fs.h) re-roots every path under the prefix. A path relative to
 * a directory fd is first joined to the directory's own (recorded) path. A
 * relative symlink target is interpreted by the kernel relative to the
 * link's directory, not to the working directory: it is kept as it is when,
 * resolved from there, it stays inside the prefix (so the link works as it
 * did); otherwise it is re-rooted like any other path. Before a call on a
 * path that succeeded in the trace, the path's directory existed: it is
 * created under the prefix if need be (mkdir -p, never above the prefix),
 * and a path it did not create existed: the replay waits (briefly) for
 * another rank to create it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uthash.h>

#include "fs.h"
#include "recorder_facts.h"
#include "replay.h"

/* The normalized form of argument `arg`, joined to its directory fd's path. */
static int key_of(rp_ctx *x, const rp_rec *r, const rec_func_desc *f, int arg, char *key, size_t cap)
{
    const char *orig = r->args[arg].s;
    char joined[2 * RP_PATH_MAX];
    if (orig[0] != '/') {
        for (int k = arg - 1; k >= 0; k--) {
            if (f->args[k].kind != REC_KIND_DIRFD)
                continue;
            const char *dir =
                rec_handle_is_dynamic(r->args[k].i) ? rp_handle_path(x, REC_KIND_FD, r->args[k].i) : NULL;
            if (dir) {
                snprintf(joined, sizeof joined, "%s/%s", dir, orig);
                orig = joined;
            }
            break;
        }
    }
    return rf_path_normalize(orig, key, cap, RF_PATH_ROOTED | rf_path_flags(f));
}

/* A relative symlink target, kept when it resolves inside the prefix. */
static int keep_link_target(rp_ctx *x, const rp_rec *r, const rec_func_desc *f, int arg, char *key)
{
    int link = rec_arg_with_role(f, REC_AROLE_NEW_PATH);
    char link_key[RP_PATH_MAX];
    if (link < 0 || !r->args[link].s || key_of(x, r, f, link, link_key, sizeof link_key) != 0)
        return 0;
    return rf_link_target_key(link_key, r->args[arg].s, key, RP_PATH_MAX) == 0;
}

/* A file another rank creates inside a collective (ROMIO's open, HDF5's
 * file creation) may not exist yet when a lower layer is replayed without
 * that collective's internal ordering: wait for it, a little. A path that
 * never appears is not waited for twice. */
typedef struct missing {
    UT_hash_handle hh;
    char path[];
} missing;
static missing *gave_up;
static pthread_mutex_t gave_up_lock = PTHREAD_MUTEX_INITIALIZER;

static void wait_for(const char *full)
{
    missing *m = NULL;
    pthread_mutex_lock(&gave_up_lock);
    HASH_FIND_STR(gave_up, full, m);
    pthread_mutex_unlock(&gave_up_lock);
    if (m)
        return;
    for (int i = 0; i < 5000; i++) {
        if (rp_sys_kind(full) != 0)
            return;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    size_t n = strlen(full) + 1;
    m = calloc(1, sizeof *m + n);
    if (m) {
        memcpy(m->path, full, n);
        missing *had = NULL;
        pthread_mutex_lock(&gave_up_lock);
        HASH_FIND_STR(gave_up, full, had);
        if (!had)
            HASH_ADD_STR(gave_up, path, m);
        pthread_mutex_unlock(&gave_up_lock);
        if (had)
            free(m);
    }
}

static int arg_creates(const rec_func_desc *f, const rp_rec *r, int arg)
{
    int64_t ints[REC_MAX_ARGS];
    const char *strs[REC_MAX_ARGS];
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        ints[k] = r->args[k].i;
        strs[k] = f->args[k].kind == REC_KIND_STDIO_MODE ? r->args[k].s : NULL;
    }
    return rf_path_created(f, (unsigned)arg, ints, strs);
}
static const char *copy(rp_ctx *x, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = rp_alloc(x, n);
    memcpy(p, s, n);
    return p;
}

int rp_path(rp_ctx *x, const rp_rec *r, int arg, int mode, const char **out)
{
    const rec_func_desc *f = rec_function_by_id(r->func);
    const rp_value *v = &r->args[arg];
    char key[RP_PATH_MAX], full[RP_PATH_MAX + 64];
    x->pathkey[arg][0] = 0;
    *out = NULL;
    if (!v->s)
        return 0; /* the application passed NULL */
    if (mode == RP_PATH_LINK_TARGET && v->s[0] != '/' && keep_link_target(x, r, f, arg, key)) {
        snprintf(x->pathkey[arg], RP_PATH_MAX, "%s", key);
        *out = copy(x, v->s);
        return 0;
    }
    if (key_of(x, r, f, arg, key, sizeof key) != 0) {
        x->reason = "path too long";
        return -1;
    }
    if (rf_path_is_system(key)) {
        x->reason = "a /dev, /proc or /sys path: never touched";
        return -1;
    }
    snprintf(x->pathkey[arg], RP_PATH_MAX, "%s", key);
    if (f->layer == REC_LAYER_HDF5 && rp_unsynth_has(x, key)) {
        x->reason = "an HDF5 input the trace did not create: it cannot be synthesized";
        return -1;
    }
    if (rf_path_reroot(x->opt.prefix, key, full, sizeof full) != 0) {
        x->reason = "path too long";
        return -1;
    }
    if (rp_safe(x->opt.prefix, full) != 0) {
        x->reason = "a symbolic link under the prefix leads outside it";
        return -1;
    }
    if (mode == RP_PATH_NORMAL && rf_ret_status(f, r->ret.i) == 1) {
        char dir[RP_PATH_MAX + 64];
        rf_path_dirname(full, dir, sizeof dir);
        rp_mkdirs(x->opt.prefix, dir);
        if (!arg_creates(f, r, arg) && !rf_path_names_no_file(f, (unsigned)arg) && rp_sys_kind(full) == 0)
            wait_for(full);
    }
    *out = copy(x, full);
    return 0;
}
