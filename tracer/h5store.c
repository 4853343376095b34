/* h5store.c: what HDF5's filters stored. Right before a dataset that this
 * process wrote is closed (the table's CLOSES_DATASET role; the writes are
 * the calls that write through a DATASET argument), the tracer asks HDF5
 * its chunks, their raw and stored sizes and its filters, and keeps one
 * line per dataset, written as RANK.h5store beside RANK.rec when the rank's
 * stream closes (docs/reference/format.md, section 13). Kernels and replays
 * make data that the same filters store in the same size.
 *
 * Safe in parallel: a filtered dataset of a parallel file is written
 * collectively (HDF5 requires it), so every rank that opened it wrote it
 * and closes it, making the same queries in the same order; the queries
 * only read metadata (collectively under H5Pset_all_coll_metadata_ops, as
 * every rank makes them). A dataset without filters costs one query. The
 * queries are untraced (the caller is inside a traced call) and leave
 * errno and HDF5's error reporting as they were. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "late.h"
#include "runtime.h"

/* A dataset of more chunks is recorded without each chunk's size (the
 * queries walk the chunk index once a chunk). */
enum { MAX_WRITTEN = 1024, MAX_CHUNKS = 4096 };

static pthread_mutex_t store_mutex = PTHREAD_MUTEX_INITIALIZER;
static hid_t written[MAX_WRITTEN];
static size_t nwritten;
static char *lines; /* the file's lines so far */
static size_t used, capacity;
static char store_path[PATH_MAX];

void rt_h5store_written(hid_t dset)
{
    pthread_mutex_lock(&store_mutex);
    size_t i = 0;
    while (i < nwritten && written[i] != dset)
        i++;
    if (i == nwritten && nwritten < MAX_WRITTEN)
        written[nwritten++] = dset;
    pthread_mutex_unlock(&store_mutex);
}

static void append(const char *line)
{
    size_t n = strlen(line);
    if (used + n + 1 > capacity) {
        size_t grown = (used + n + 1) * 2;
        char *p = realloc(lines, grown);
        if (!p)
            return;
        lines = p, capacity = grown;
    }
    memcpy(lines + used, line, n + 1);
    used += n;
}

/* Each chunk's first element's coordinates and stored size: " RANK x,..,size x,..,size ...". */
static void chunk_sizes(hid_t dset, hid_t space, int rank, hsize_t nchunks)
{
    char text[64 * (H5S_MAX_RANK + 1)];
    snprintf(text, sizeof text, "\t%d", rank);
    append(text);
    for (hsize_t i = 0; i < nchunks; i++) {
        hsize_t offset[H5S_MAX_RANK], size = 0;
        unsigned mask = 0;
        haddr_t addr;
        if (H5Dget_chunk_info(dset, space, i, offset, &mask, &addr, &size) < 0)
            break; /* the chunks listed so far */
        size_t at = 0;
        for (int d = 0; d < rank; d++)
            at += (size_t)snprintf(text + at, sizeof text - at, "%c%llu", d ? ',' : ' ', (unsigned long long)offset[d]);
        snprintf(text + at, sizeof text - at, ",%llu", (unsigned long long)size);
        append(text);
    }
}

/* The line of a chunked, filtered dataset, or 0 (nothing to say). */
static int describe(hid_t dset, char *line, size_t cap)
{
    char file[PATH_MAX], name[PATH_MAX], filters[128] = "";
    hid_t dcpl = H5Dget_create_plist(dset), type = H5Dget_type(dset), space = H5Dget_space(dset);
    hsize_t chunk[H5S_MAX_RANK], nchunks = 0;
    int nfilters = dcpl < 0 ? 0 : H5Pget_nfilters(dcpl), rank = 0, ok = 0;
    if (nfilters > 0 && H5Pget_layout(dcpl) == H5D_CHUNKED)
        rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, chunk);
    if (rank > 0 && type >= 0 && space >= 0 && H5Dget_num_chunks(dset, space, &nchunks) >= 0 &&
        H5Fget_name(dset, file, sizeof file) > 0 && H5Iget_name(dset, name, sizeof name) > 0 &&
        !strpbrk(file, "\t\n") && !strpbrk(name, "\t\n")) {
        hsize_t chunk_bytes = H5Tget_size(type);
        for (int i = 0; i < rank; i++)
            chunk_bytes *= chunk[i];
        size_t at = 0;
        for (int i = 0; i < nfilters && at < sizeof filters - 12; i++) {
            unsigned flags, config;
            size_t nvalues = 0;
            H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &nvalues, NULL, 0, NULL, &config);
            at += (size_t)snprintf(filters + at, sizeof filters - at, "%s%d", i ? "," : "", (int)id);
        }
        snprintf(line, cap, "%llu %llu %llu %s\t%s\t%s", (unsigned long long)H5Dget_storage_size(dset),
                 (unsigned long long)nchunks, (unsigned long long)chunk_bytes, filters, file, name);
        append(line);
        if (nchunks <= MAX_CHUNKS)
            chunk_sizes(dset, space, rank, nchunks);
        append("\n");
        ok = 1;
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (dcpl >= 0)
        H5Pclose(dcpl);
    return ok;
}

void rt_h5store_before_close(hid_t dset)
{
    pthread_mutex_lock(&store_mutex);
    size_t i = 0;
    while (i < nwritten && written[i] != dset)
        i++;
    if (i == nwritten) {
        pthread_mutex_unlock(&store_mutex);
        return;
    }
    written[i] = written[--nwritten];
    int saved_errno = errno;
    char line[2 * PATH_MAX + 256];
    H5E_BEGIN_TRY
    {
        describe(dset, line, sizeof line);
    }
    H5E_END_TRY;
    errno = saved_errno;
    pthread_mutex_unlock(&store_mutex);
}

void rt_h5store_attach(const char *dir, uint32_t rank)
{
    snprintf(store_path, sizeof store_path, "%s/%u.h5store", dir, rank);
}

void rt_h5store_flush(const rec_io *io)
{
    pthread_mutex_lock(&store_mutex);
    if (used && store_path[0]) {
        int fd = io->open(store_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        const char *header = "recorder-kit h5store 1\n";
        if (fd < 0 || io->write(fd, header, strlen(header)) < 0 || io->write(fd, lines, used) != (ssize_t)used)
            rt_warn("recorder: %s: cannot write what HDF5's filters stored: %s", store_path, strerror(errno));
        if (fd >= 0)
            io->close(fd);
    }
    used = 0;
    pthread_mutex_unlock(&store_mutex);
}
