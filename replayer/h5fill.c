/* h5fill.c: the data of replayed writes to filtered HDF5 datasets, from the
 * generator kernels share (templates/h5fill.c.tmpl), tuned to what the
 * trace says the filters stored (its h5store file, read with untraced
 * system calls: the replay's own trace shows only the replayed calls). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "h5fill.c.tmpl"
#include "rec_h5store.h"
#include "fs.h"
#include "replay.h"

static h5fill_target *targets;
static size_t ntargets;

/* The file's text, or NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    char *text = NULL;
    size_t cap = 0;
    *len = 0;
    while (fd >= 0) {
        if (*len + 4096 > cap) {
            char *grown = realloc(text, cap = cap * 2 + 8192);
            if (!grown)
                break;
            text = grown;
        }
        ssize_t n = rp_sys_read(fd, text + *len, cap - *len);
        if (n <= 0)
            break;
        *len += (size_t)n;
    }
    if (fd >= 0)
        rp_sys_close(fd);
    return text;
}

/* The trace's merged.h5store, or this rank's RANK.h5store. */
static void load_targets(const rp_ctx *x)
{
    char path[RP_PATH_MAX];
    size_t len;
    rec_h5store s = {0};
    rec_error err;
    snprintf(path, sizeof path, "%s/merged.h5store", x->opt.trace_dir);
    char *text = slurp(path, &len);
    if (!text) {
        snprintf(path, sizeof path, "%s/%d.h5store", x->opt.trace_dir, x->rank);
        text = slurp(path, &len);
    }
    if (text && rec_h5store_parse(text, len, path, &s, &err) != 0)
        rp_say(2, "recorder-replay: %s: filtered writes get the pattern\n", err.msg);
    free(text);
    targets = s.n ? calloc(s.n, sizeof *targets) : NULL;
    for (size_t i = 0; targets && i < s.n; i++) {
        const char *slash = strrchr(s.e[i].file, '/');
        h5fill_target *t = &targets[ntargets++];
        t->file = strdup(slash ? slash + 1 : s.e[i].file);
        t->dataset = strdup(s.e[i].dataset);
        t->ratio = rec_h5store_ratio(&s.e[i]);
        t->chunks = rec_h5store_chunks_text(&s.e[i]);
    }
    rec_h5store_free(&s);
}

const void *rp_h5_filtered(rp_ctx *x, hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space,
                           const void *pattern)
{
    static int loaded;
    if (!loaded++)
        load_targets(x);
    return h5fill_write(targets, ntargets, dset, mem_type, mem_space, file_space, pattern);
}
