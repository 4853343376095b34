/* darshan_make.c: Darshan logs written by the tests (darshan_make.h). The
 * layout is the format's: a header (3.41: 1328 bytes, 64 module slots and
 * a 64-bit partial flag; older: 360 bytes, 16 slots, 32 bits), the job
 * region right after it, then the name region and the modules' regions,
 * each zlib-compressed. */
#include "darshan_make.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

void dm_put(dm_buf *b, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        b->data = realloc(b->data, cap);
        b->cap = cap;
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void dm_u64(dm_buf *b, uint64_t v, int swap)
{
    if (swap)
        v = __builtin_bswap64(v);
    dm_put(b, &v, 8);
}

void dm_u32(dm_buf *b, uint32_t v, int swap)
{
    if (swap)
        v = __builtin_bswap32(v);
    dm_put(b, &v, 4);
}

void dm_f64(dm_buf *b, double v, int swap)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    dm_u64(b, bits, swap);
}

void dm_free(dm_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static int wide(const dm_log *l)
{
    return strcmp(l->version, "3.41") >= 0;
}

void dm_job(dm_log *l, int64_t nprocs, const int64_t times[4], const char *metadata, const char *exe,
            const char *const *mounts, size_t nmounts)
{
    int s = l->swap;
    dm_u64(&l->job, 0, s); /* uid */
    dm_u64(&l->job, (uint64_t)times[0], s);
    if (wide(l))
        dm_u64(&l->job, (uint64_t)times[1], s);
    dm_u64(&l->job, (uint64_t)times[2], s);
    if (wide(l))
        dm_u64(&l->job, (uint64_t)times[3], s);
    dm_u64(&l->job, (uint64_t)nprocs, s);
    dm_u64(&l->job, (uint64_t)l->jobid, s);
    char md[1024] = {0};
    strncpy(md, metadata, sizeof md - 1);
    dm_put(&l->job, md, sizeof md);
    dm_put(&l->job, exe, strlen(exe));
    for (size_t i = 0; i < nmounts; i++) {
        dm_put(&l->job, "\n", 1);
        dm_put(&l->job, mounts[2 * i], strlen(mounts[2 * i]));
        dm_put(&l->job, "\t", 1);
        dm_put(&l->job, mounts[2 * i + 1], strlen(mounts[2 * i + 1]));
    }
    dm_put(&l->job, "", 1);
}

void dm_name(dm_log *l, uint64_t id, const char *name)
{
    dm_u64(&l->names, id, l->swap);
    if (strcmp(l->version, "3.00") == 0) {
        dm_u32(&l->names, (uint32_t)strlen(name), l->swap);
        dm_put(&l->names, name, strlen(name));
    } else {
        dm_put(&l->names, name, strlen(name) + 1);
    }
}

/* Appends the region compressed (one or two streams) and says where it is. */
static void region(dm_buf *file, const dm_buf *raw, int split, uint64_t *off, uint64_t *len)
{
    *off = *len = 0;
    if (!raw->len)
        return;
    *off = file->len;
    size_t parts = split && raw->len > 1 ? 2 : 1, at = 0;
    for (size_t p = 0; p < parts; p++) {
        size_t n = parts == 2 && p == 0 ? raw->len / 2 : raw->len - at;
        uLongf out = compressBound(n);
        uint8_t *z = malloc(out);
        compress2(z, &out, raw->data + at, n, Z_DEFAULT_COMPRESSION);
        dm_put(file, z, out);
        free(z);
        at += n;
    }
    *len = file->len - *off;
}

uint8_t *dm_write(const dm_log *l, size_t *n)
{
    int w = wide(l), s = l->swap;
    unsigned nmods = w ? RI_DARSHAN_MAX_MODULES : 16;
    size_t header = w ? 1328 : 360;
    dm_buf file = {0};
    uint8_t zero[1328] = {0};
    dm_put(&file, zero, header);
    uint64_t job_off, job_len, name_off, name_len, off[RI_DARSHAN_MAX_MODULES], len[RI_DARSHAN_MAX_MODULES];
    region(&file, &l->job, l->split_streams, &job_off, &job_len);
    region(&file, &l->names, l->split_streams, &name_off, &name_len);
    for (unsigned m = 0; m < nmods; m++)
        region(&file, &l->modules[m], l->split_streams, &off[m], &len[m]);
    dm_buf h = {0};
    char version[8] = {0};
    memcpy(version, l->version, strnlen(l->version, 8));
    dm_put(&h, version, 8);
    dm_u64(&h, 6567223, s);
    uint8_t comp[8] = {0}; /* zlib, then padding */
    if (w) {
        dm_put(&h, comp, 8);
        dm_u64(&h, l->partial, s);
    } else {
        dm_put(&h, comp, 4);
        dm_u32(&h, (uint32_t)l->partial, s);
    }
    dm_u64(&h, name_off, s);
    dm_u64(&h, name_len, s);
    for (unsigned m = 0; m < nmods; m++) {
        dm_u64(&h, off[m], s);
        dm_u64(&h, len[m], s);
    }
    for (unsigned m = 0; m < nmods; m++)
        dm_u32(&h, len[m] ? l->versions[m] : 0, s);
    memcpy(file.data, h.data, h.len);
    dm_free(&h);
    *n = file.len;
    return file.data;
}

void dm_of_log(const ri_darshan_log *log, int swap, dm_log *out)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = "3.41";
    l.swap = swap;
    l.split_streams = 1;
    l.partial = log->partial_flags;
    l.jobid = log->jobid;
    const char **mounts = calloc(2 * log->nmounts + 1, sizeof *mounts);
    for (size_t i = 0; i < log->nmounts; i++) {
        mounts[2 * i] = log->mounts[i].type;
        mounts[2 * i + 1] = log->mounts[i].path;
    }
    const int64_t times[4] = {log->start_sec, log->start_nsec, log->end_sec, log->end_nsec};
    dm_job(&l, log->nprocs, times, log->metadata, log->exe, mounts, log->nmounts);
    free(mounts);
    for (size_t i = 0; i < log->nnames; i++)
        dm_name(&l, log->names[i].id, log->names[i].name);
    /* today's layouts, in today's versions (H5D 2 and PNETCDF_VAR 1 with the file's id) */
    static const unsigned counted[] = {RI_DARSHAN_POSIX, RI_DARSHAN_MPIIO,        RI_DARSHAN_STDIO,
                                       RI_DARSHAN_H5F,   RI_DARSHAN_H5D,          RI_DARSHAN_PNETCDF_FILE,
                                       RI_DARSHAN_PNETCDF_VAR};
    static const uint32_t newest[] = {4, 3, 2, 3, 2, 3, 1};
    for (size_t k = 0; k < sizeof counted / sizeof counted[0]; k++) {
        const ri_darshan_module *m = &log->modules[counted[k]];
        dm_buf *b = &l.modules[counted[k]];
        l.versions[counted[k]] = m->version ? newest[k] : 0;
        int file_id = counted[k] == RI_DARSHAN_H5D || counted[k] == RI_DARSHAN_PNETCDF_VAR;
        for (size_t r = 0; r < m->nrecords; r++) {
            dm_u64(b, m->records[r].id, l.swap);
            dm_u64(b, (uint64_t)m->records[r].rank, l.swap);
            if (file_id)
                dm_u64(b, m->records[r].file_id, l.swap);
            for (unsigned c = 0; c < m->ncounters; c++)
                dm_u64(b, (uint64_t)m->records[r].counters[c], l.swap);
            for (unsigned c = 0; c < m->nfcounters; c++)
                dm_f64(b, m->records[r].fcounters[c], l.swap);
        }
    }
    static const unsigned traced[] = {RI_DARSHAN_DXT_POSIX, RI_DARSHAN_DXT_MPIIO};
    for (size_t k = 0; k < 2; k++) {
        const ri_darshan_module *m = &log->modules[traced[k]];
        dm_buf *b = &l.modules[traced[k]];
        l.versions[traced[k]] = m->version;
        for (size_t r = 0; r < m->nrecords; r++) {
            const ri_darshan_dxt *d = &m->dxt[r];
            dm_u64(b, d->id, l.swap);
            dm_u64(b, (uint64_t)d->rank, l.swap);
            dm_u64(b, (uint64_t)d->shared, l.swap);
            char host[64] = {0};
            memcpy(host, d->hostname, sizeof host);
            dm_put(b, host, sizeof host);
            dm_u64(b, d->nwrites, l.swap);
            dm_u64(b, d->nreads, l.swap);
            for (uint64_t s = 0; s < d->nwrites + d->nreads; s++) {
                const ri_darshan_segment *g = s < d->nwrites ? &d->writes[s] : &d->reads[s - d->nwrites];
                dm_u64(b, (uint64_t)g->offset, l.swap);
                dm_u64(b, (uint64_t)g->length, l.swap);
                dm_f64(b, g->start, l.swap);
                dm_f64(b, g->end, l.swap);
            }
        }
    }
    *out = l;
}

void dm_release(dm_log *l)
{
    dm_free(&l->job);
    dm_free(&l->names);
    for (unsigned m = 0; m < RI_DARSHAN_MAX_MODULES; m++)
        dm_free(&l->modules[m]);
}

uint8_t *dm_swapped_copy(const ri_darshan_log *log, size_t *n)
{
    dm_log l;
    dm_of_log(log, 1, &l);
    uint8_t *out = dm_write(&l, n);
    dm_release(&l);
    return out;
}
