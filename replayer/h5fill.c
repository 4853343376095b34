/* h5fill.c: the data of replayed writes to filtered HDF5 datasets (and of
 * netCDF-4 writes to filtered variables, templates/ncfill.c.tmpl), from the
 * generator kernels share (templates/h5fill.c.tmpl), tuned to what the
 * trace says the filters stored (its h5store file, read with untraced
 * system calls: the replay's own trace shows only the replayed calls). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
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

/* Bytes [at, at + n) of the file, read untraced; NULL when they cannot be.
 * *size: the file's size. */
static uint8_t *read_range(const char *path, uint64_t at, size_t n, uint64_t *size)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    off_t end = (off_t)syscall(SYS_lseek, fd, 0, SEEK_END);
    uint8_t *buf = malloc(n ? n : 1);
    int ok = buf && end >= 0 && (off_t)syscall(SYS_lseek, fd, (off_t)at, SEEK_SET) == (off_t)at &&
             rp_sys_read_all(fd, buf, n) == 0;
    rp_sys_close(fd);
    if (!ok) {
        free(buf);
        return NULL;
    }
    *size = (uint64_t)end;
    return buf;
}

/* The rank's h5store when the trace keeps it in an aggregate file
 * (aggregate.K, docs/reference/format.md section 14), else NULL. */
static char *aggregated_h5store(const char *dir, uint32_t rank, size_t *len, char *name, size_t name_cap)
{
    uint32_t count = 1;
    for (uint32_t k = 0; k < count; k++) {
        char path[RP_PATH_MAX];
        uint64_t size;
        rec_aggregate_info info;
        rec_error err;
        snprintf(path, sizeof path, "%s/aggregate.%u", dir, k);
        uint8_t *head = read_range(path, 0, REC_AGGREGATE_HEAD_BYTES, &size);
        size_t table_size = head ? rec_aggregate_table_size(head, REC_AGGREGATE_HEAD_BYTES) : 0;
        free(head);
        uint8_t *table = table_size ? read_range(path, 0, table_size, &size) : NULL;
        int parsed = table && rec_aggregate_parse(table, table_size, size, path, &info, &err) == 0;
        free(table);
        if (!parsed)
            return NULL;
        count = info.count;
        for (uint32_t i = 0; i < info.n; i++) {
            const rec_aggregate_member *m = &info.members[i];
            if (m->rank != rank)
                continue;
            char *text = m->length[REC_PART_H5STORE] && m->length[REC_PART_H5STORE] < SIZE_MAX
                             ? (char *)read_range(path, m->offset[REC_PART_H5STORE],
                                                  (size_t)m->length[REC_PART_H5STORE], &size)
                             : NULL;
            *len = text ? (size_t)m->length[REC_PART_H5STORE] : 0;
            snprintf(name, name_cap, "%s (%u.h5store)", path, rank);
            free(info.members);
            return text;
        }
        free(info.members);
    }
    return NULL;
}

/* The trace's merged.h5store, or this rank's RANK.h5store (a file, or a member of an aggregate). */
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
    if (!text)
        text = aggregated_h5store(x->opt.trace_dir, (uint32_t)x->rank, &len, path, sizeof path);
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

static void targets_loaded(const rp_ctx *x)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int loaded;
    pthread_mutex_lock(&lock);
    if (!loaded++)
        load_targets(x);
    pthread_mutex_unlock(&lock);
}

const void *rp_h5_filtered(rp_ctx *x, hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space,
                           const void *pattern)
{
    targets_loaded(x);
    return h5fill_write(targets, ntargets, dset, mem_type, mem_space, file_space, pattern);
}

#ifdef RECORDER_HAVE_NETCDF
#include "ncfill.c.tmpl"

_Static_assert(sizeof(rp_nc_vlen) == sizeof(nc_vlen_t) && offsetof(rp_nc_vlen, len) == offsetof(nc_vlen_t, len) &&
                   offsetof(rp_nc_vlen, p) == offsetof(nc_vlen_t, p),
               "rp_nc_vlen is netCDF's nc_vlen_t");

const void *rp_nc_filtered(rp_ctx *x, int ncid, int varid, const size_t *start, const size_t *count,
                           const ptrdiff_t *stride, size_t size, int real, int is_signed, const void *fallback)
{
    targets_loaded(x);
    return ncfill_write(targets, ntargets, ncid, varid, start, count, stride, size, real, is_signed, fallback);
}
#endif
