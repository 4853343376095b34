/* darshan_log.c: a Darshan log's header, regions, job record, executable,
 * mount table and name records.
 *
 * A log is an uncompressed header (version string, magic number, the
 * compression, the partial-module flags, and where each region is: the
 * name records, up to 64 modules, each with its own version), then the
 * job region right after it, the name region and the modules' regions.
 * Each region is one or more compressed streams back to back (every rank
 * compresses its own share): zlib, or bzip2 when the log was converted.
 * Fields are in the writer's byte order; the magic number tells which.
 * Format 3.41 (Darshan 3.4.1 on) has 64 module slots and a 64-bit partial
 * flag; 3.00 to 3.21 have 16 and 32 bits, and their module ids are shifted
 * to today's (H5D arrived in 3.20, PNETCDF_VAR in 3.41). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef RI_HAVE_BZIP2
#include <bzlib.h>
#endif

#include "darshan_internal.h"

typedef struct arena {
    void **blocks;
    size_t n, cap;
} arena;

void *dl_alloc(ri_darshan_log *log, size_t n)
{
    arena *a = log->mem;
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 16;
        void **b = realloc(a->blocks, cap * sizeof *b);
        if (!b)
            return NULL;
        a->blocks = b;
        a->cap = cap;
    }
    void *p = calloc(1, n ? n : 1);
    if (p)
        a->blocks[a->n++] = p;
    return p;
}

char *dl_strndup(ri_darshan_log *log, const char *s, size_t n)
{
    char *p = dl_alloc(log, n + 1);
    if (p)
        memcpy(p, s, n);
    return p;
}

int dl_fail(const ri_darshan_log *log, rec_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    char what[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err->msg, sizeof err->msg, "%s: %s", log->path, what);
    return -1;
}

uint64_t dl_u64(const ri_darshan_log *log, const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return log->swapped ? __builtin_bswap64(v) : v;
}

uint32_t dl_u32(const ri_darshan_log *log, const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return log->swapped ? __builtin_bswap32(v) : v;
}

double dl_f64(const ri_darshan_log *log, const uint8_t *p)
{
    uint64_t bits = dl_u64(log, p);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

int ri_darshan_reads_bzip2(void)
{
#ifdef RI_HAVE_BZIP2
    return 1;
#else
    return 0;
#endif
}

/* ---- regions ---- */

typedef struct growbuf {
    uint8_t *data;
    size_t len, cap;
} growbuf;

static int grow(growbuf *b, size_t want)
{
    if (b->cap - b->len >= want)
        return 0;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->len < want)
        cap *= 2;
    if (cap > DL_REGION_MAX)
        return -1;
    uint8_t *d = realloc(b->data, cap);
    if (!d)
        return -1;
    b->data = d;
    b->cap = cap;
    return 0;
}

static int inflate_streams(ri_darshan_log *log, const uint8_t *in, size_t n, uint64_t at, const char *what,
                           growbuf *out, rec_error *err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit(&z) != Z_OK)
        return dl_fail(log, err, "zlib cannot start");
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)n;
    int rc = Z_OK;
    for (;;) {
        if (grow(out, 65536) != 0) {
            inflateEnd(&z);
            return dl_fail(log, err, "corrupt %s region at byte %llu: it inflates past %zu bytes", what,
                           (unsigned long long)at, (size_t)DL_REGION_MAX);
        }
        z.next_out = out->data + out->len;
        z.avail_out = (uInt)(out->cap - out->len);
        rc = inflate(&z, Z_NO_FLUSH);
        out->len = out->cap - z.avail_out;
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0)
                break;
            inflateReset(&z); /* the next rank's stream */
            continue;
        }
        if (rc == Z_OK)
            continue;
        if (rc == Z_BUF_ERROR && z.avail_in == 0) {
            inflateEnd(&z);
            return dl_fail(log, err, "corrupt %s region at byte %llu: its zlib stream stops short of its end",
                           what, (unsigned long long)(at + n));
        }
        if (rc == Z_BUF_ERROR)
            continue; /* more output room */
        unsigned long long where = at + (n - z.avail_in);
        const char *why = z.msg ? z.msg : "invalid data";
        inflateEnd(&z);
        return dl_fail(log, err, "corrupt %s region at byte %llu: zlib: %s", what, where, why);
    }
    inflateEnd(&z);
    return 0;
}

#ifdef RI_HAVE_BZIP2
static int bunzip_streams(ri_darshan_log *log, const uint8_t *in, size_t n, uint64_t at, const char *what,
                          growbuf *out, rec_error *err)
{
    bz_stream z;
    memset(&z, 0, sizeof z);
    if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
        return dl_fail(log, err, "bzip2 cannot start");
    z.next_in = (char *)in;
    z.avail_in = (unsigned)n;
    for (;;) {
        if (grow(out, 65536) != 0) {
            BZ2_bzDecompressEnd(&z);
            return dl_fail(log, err, "corrupt %s region at byte %llu: it decompresses past %zu bytes", what,
                           (unsigned long long)at, (size_t)DL_REGION_MAX);
        }
        z.next_out = (char *)out->data + out->len;
        z.avail_out = (unsigned)(out->cap - out->len);
        unsigned before_in = z.avail_in, before_out = z.avail_out;
        int rc = BZ2_bzDecompress(&z);
        out->len = out->cap - z.avail_out;
        if (rc == BZ_STREAM_END) {
            if (z.avail_in == 0)
                break;
            const char *rest = z.next_in;
            unsigned left = z.avail_in;
            BZ2_bzDecompressEnd(&z);
            memset(&z, 0, sizeof z);
            if (BZ2_bzDecompressInit(&z, 0, 0) != BZ_OK)
                return dl_fail(log, err, "bzip2 cannot start");
            z.next_in = (char *)rest;
            z.avail_in = left;
            continue;
        }
        if (rc == BZ_OK && (z.avail_in != before_in || z.avail_out != before_out))
            continue;
        unsigned long long where = at + (n - z.avail_in);
        BZ2_bzDecompressEnd(&z);
        if (rc == BZ_OK)
            return dl_fail(log, err,
                           "corrupt %s region at byte %llu: its bzip2 stream stops short of its end", what,
                           where);
        return dl_fail(log, err, "corrupt %s region at byte %llu: bzip2 error %d", what, where, rc);
    }
    BZ2_bzDecompressEnd(&z);
    return 0;
}
#endif

int dl_region_bytes(ri_darshan_log *log, const uint8_t *file, size_t size, ri_darshan_region r,
                    const char *what, uint8_t **out, size_t *n, rec_error *err)
{
    *out = NULL;
    *n = 0;
    if (r.length == 0)
        return 0;
    if (r.offset < log->header_size)
        return dl_fail(log, err, "corrupt header: the %s region starts at byte %llu, inside the header", what,
                       (unsigned long long)r.offset);
    if (r.offset > size || r.length > size - r.offset)
        return dl_fail(log, err, "truncated region at byte %zu: the %s region ends at byte %llu", size, what,
                       r.offset < UINT64_MAX / 2 && r.length < UINT64_MAX / 2
                           ? (unsigned long long)(r.offset + r.length)
                           : 0ull);
    growbuf b = {0};
    int rc = 0;
    const uint8_t *in = file + r.offset;
    switch (log->compression) {
    case RI_DARSHAN_ZLIB:
        rc = inflate_streams(log, in, (size_t)r.length, r.offset, what, &b, err);
        break;
    case RI_DARSHAN_BZIP2:
#ifdef RI_HAVE_BZIP2
        rc = bunzip_streams(log, in, (size_t)r.length, r.offset, what, &b, err);
#else
        rc = dl_fail(log, err, "a bzip2-compressed log, and this reader was built without libbz2");
#endif
        break;
    default:
        if (grow(&b, (size_t)r.length) != 0)
            rc = dl_fail(log, err, "corrupt %s region: %llu bytes", what, (unsigned long long)r.length);
        else {
            memcpy(b.data, in, (size_t)r.length);
            b.len = (size_t)r.length;
        }
    }
    if (rc != 0) {
        free(b.data);
        return -1;
    }
    *out = dl_alloc(log, b.len);
    if (!*out) {
        free(b.data);
        return dl_fail(log, err, "out of memory");
    }
    memcpy(*out, b.data, b.len);
    *n = b.len;
    free(b.data);
    return 0;
}

/* "name record", "POSIX module", ...: region -1 is the name records'. */
static const char *region_name(int m)
{
    static __thread char name[48];
    const char *mod = m >= 0 ? ri_darshan_module_name((unsigned)m) : NULL;
    if (m < 0)
        return "name record";
    snprintf(name, sizeof name, "%s module", mod ? mod : "unknown");
    return name;
}

/* ---- the header ---- */

enum { HEADER_3_41 = 1328, HEADER_3_00 = 360, OLD_MODULES = 16 };

static int known_version(int major, int minor)
{
    return major == 3 && (minor == 0 || minor == 10 || minor == 20 || minor == 21 || minor == 41);
}

/* Old logs numbered the modules after H5F (3.20 added H5D) and after
 * PNETCDF (3.41 added PNETCDF_VAR) one lower. */
static void insert_module_slot(ri_darshan_log *log, unsigned at)
{
    memmove(&log->modules[at + 1], &log->modules[at],
            (RI_DARSHAN_MAX_MODULES - at - 1) * sizeof log->modules[0]);
    memset(&log->modules[at], 0, sizeof log->modules[at]);
    uint64_t low = log->partial_flags & ((1ull << at) - 1);
    uint64_t high = (log->partial_flags >> at) << (at + 1);
    log->partial_flags = low | high;
}

static int read_header(ri_darshan_log *log, const uint8_t *file, size_t size, rec_error *err)
{
    if (size < 8)
        return dl_fail(log, err, "truncated header at byte %zu: not even a version string", size);
    memcpy(log->version, file, 8);
    log->version[8] = 0;
    char tail = 0;
    if (sscanf(log->version, "%d.%d%c", &log->major, &log->minor, &tail) < 2 || log->version[0] < '0' ||
        log->version[0] > '9')
        return dl_fail(log, err, "not a Darshan log: it does not start with a format version");
    if (!known_version(log->major, log->minor))
        return dl_fail(log, err,
                       "Darshan log format %s: this reader reads 3.00, 3.10, 3.20, 3.21 and 3.41 "
                       "(Darshan 3.0 to 3.5)",
                       log->version);
    int wide = log->minor >= 41;
    log->header_size = wide ? HEADER_3_41 : HEADER_3_00;
    if (size < log->header_size)
        return dl_fail(log, err, "truncated header at byte %zu: a %s header is %llu bytes", size,
                       log->version, (unsigned long long)log->header_size);
    int64_t magic;
    memcpy(&magic, file + 8, sizeof magic);
    if (magic == DL_MAGIC)
        log->swapped = 0;
    else if ((int64_t)__builtin_bswap64((uint64_t)magic) == DL_MAGIC)
        log->swapped = 1;
    else
        return dl_fail(log, err, "not a Darshan log: bad magic number at byte 8");
    log->compression = file[16];
    if (log->compression > RI_DARSHAN_NO_COMPRESSION)
        return dl_fail(log, err, "corrupt header: compression %d at byte 16 is none Darshan knows",
                       log->compression);
    unsigned nmods = wide ? RI_DARSHAN_MAX_MODULES : OLD_MODULES;
    size_t maps = wide ? 32 : 24;
    log->partial_flags = wide ? dl_u64(log, file + 24) : dl_u32(log, file + 20);
    log->name_region.offset = dl_u64(log, file + maps);
    log->name_region.length = dl_u64(log, file + maps + 8);
    for (unsigned m = 0; m < nmods; m++) {
        log->modules[m].region.offset = dl_u64(log, file + maps + 16 + 16 * m);
        log->modules[m].region.length = dl_u64(log, file + maps + 16 + 16 * m + 8);
        log->modules[m].version = dl_u32(log, file + maps + 16 + 16 * nmods + 4 * m);
    }
    if (log->minor < 20)
        insert_module_slot(log, RI_DARSHAN_H5D);
    if (log->minor < 41)
        insert_module_slot(log, RI_DARSHAN_PNETCDF_VAR);
    for (unsigned m = 0; m < RI_DARSHAN_MAX_MODULES; m++) {
        ri_darshan_module *mod = &log->modules[m];
        mod->partial = (log->partial_flags >> m) & 1;
        if (mod->region.length == 0)
            mod->version = 0; /* absent */
    }
    /* The job region runs from the header to the next region. */
    log->job_region.offset = log->header_size;
    uint64_t next = log->name_region.offset;
    for (unsigned m = 0; !next && m < RI_DARSHAN_MAX_MODULES; m++)
        next = log->modules[m].region.offset;
    if (!next)
        next = size;
    if (next < log->header_size)
        return dl_fail(log, err, "corrupt header: the name region starts at byte %llu, inside the header",
                       (unsigned long long)next);
    log->job_region.length = next - log->header_size;
    return 0;
}

/* Every region must be in the file, read or not: a truncated log shows
 * in the first region it cuts. */
static int check_regions(ri_darshan_log *log, size_t size, rec_error *err)
{
    int cut = -2;
    uint64_t cut_at = UINT64_MAX, cut_end = 0;
    for (int m = -1; m < RI_DARSHAN_MAX_MODULES; m++) {
        ri_darshan_region r = m < 0 ? log->name_region : log->modules[m].region;
        if (r.length == 0)
            continue;
        if (r.offset < log->header_size || r.offset > UINT64_MAX / 2 || r.length > UINT64_MAX / 2)
            return dl_fail(log, err, "corrupt header: the %s region is bytes %llu to %llu", region_name(m),
                           (unsigned long long)r.offset, (unsigned long long)(r.offset + r.length));
        if ((r.offset > size || r.length > size - r.offset) && r.offset < cut_at) {
            cut = m;
            cut_at = r.offset;
            cut_end = r.offset + r.length;
        }
    }
    if (cut > -2)
        return dl_fail(log, err, "truncated region at byte %zu: the %s region ends at byte %llu", size,
                       region_name(cut), (unsigned long long)cut_end);
    return 0;
}

/* ---- the job region: the job record, then the executable and the
 * mount table ("EXE\nTYPE\tPATH\n..." up to a NUL) ---- */

static int read_job(ri_darshan_log *log, const uint8_t *file, size_t size, rec_error *err)
{
    uint8_t *job;
    size_t n;
    if (dl_region_bytes(log, file, size, log->job_region, "job", &job, &n, err) != 0)
        return -1;
    int nsec = log->minor >= 41; /* 3.41 added the start and end nanoseconds */
    size_t fixed = (nsec ? 7 : 5) * 8, record = fixed + 1024;
    if (n < record)
        return dl_fail(log, err, "corrupt job region: %zu bytes, the job record alone is %zu", n, record);
    const uint8_t *p = job;
    log->uid = (int64_t)dl_u64(log, p);
    log->start_sec = (int64_t)dl_u64(log, p + 8);
    log->start_nsec = nsec ? (int64_t)dl_u64(log, p + 16) : 0;
    log->end_sec = (int64_t)dl_u64(log, p + (nsec ? 24 : 16));
    log->end_nsec = nsec ? (int64_t)dl_u64(log, p + 32) : 0;
    log->nprocs = (int64_t)dl_u64(log, p + (nsec ? 40 : 24));
    log->jobid = (int64_t)dl_u64(log, p + (nsec ? 48 : 32));
    log->metadata = dl_strndup(log, (const char *)p + fixed, strnlen((const char *)p + fixed, 1024));
    const char *rest = (const char *)job + record, *end = (const char *)job + n;
    size_t len = strnlen(rest, (size_t)(end - rest));
    const char *nl = memchr(rest, '\n', len);
    log->exe = dl_strndup(log, rest, nl ? (size_t)(nl - rest) : len);
    size_t count = 0;
    for (const char *q = nl; q && q < rest + len; q = memchr(q + 1, '\n', (size_t)(rest + len - q - 1)))
        count++;
    ri_darshan_mount *mounts = dl_alloc(log, (count ? count : 1) * sizeof *mounts);
    if (!log->metadata || !log->exe || !mounts)
        return dl_fail(log, err, "out of memory");
    size_t k = 0;
    for (const char *q = nl; q && q < rest + len && k < count;) {
        const char *line = q + 1, *stop = memchr(line, '\n', (size_t)(rest + len - line));
        if (!stop)
            stop = rest + len;
        const char *tab = memchr(line, '\t', (size_t)(stop - line));
        if (!tab)
            return dl_fail(log, err, "corrupt job region: mount table entry %zu has no tab", k + 1);
        mounts[k].type = dl_strndup(log, line, (size_t)(tab - line));
        mounts[k].path = dl_strndup(log, tab + 1, (size_t)(stop - tab - 1));
        if (!mounts[k].type || !mounts[k].path)
            return dl_fail(log, err, "out of memory");
        k++;
        q = stop < rest + len ? stop : NULL;
    }
    log->mounts = mounts;
    log->nmounts = k;
    if (log->nprocs <= 0 || log->nprocs > (1 << 24))
        return dl_fail(log, err, "corrupt job region: %lld processes", (long long)log->nprocs);
    return 0;
}

/* ---- name records: id, then the NUL-terminated path (3.00: id, u32
 * length, the path) ---- */

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const ri_darshan_name *)a)->id, y = ((const ri_darshan_name *)b)->id;
    return x < y ? -1 : x > y;
}

static int read_names(ri_darshan_log *log, const uint8_t *file, size_t size, rec_error *err)
{
    uint8_t *b;
    size_t n;
    if (dl_region_bytes(log, file, size, log->name_region, "name record", &b, &n, err) != 0)
        return -1;
    size_t cap = n / 9 + 1;
    ri_darshan_name *names = dl_alloc(log, cap * sizeof *names);
    if (!names)
        return dl_fail(log, err, "out of memory");
    size_t count = 0, at = 0;
    while (at < n) {
        if (n - at < (log->minor == 0 ? 12u : 9u))
            return dl_fail(log, err,
                           "corrupt name record region: %zu bytes left at byte %zu of %zu, too few for "
                           "a record",
                           n - at, at, n);
        uint64_t id = dl_u64(log, b + at);
        const char *name = (const char *)b + at + 8;
        size_t len;
        if (log->minor == 0) {
            len = dl_u32(log, b + at + 8);
            name += 4;
            if (len > n - at - 12)
                return dl_fail(
                    log, err, "corrupt name record region: the record at byte %zu claims %zu bytes", at, len);
            at += 12 + len;
        } else {
            len = strnlen(name, n - at - 8);
            if (len == n - at - 8)
                return dl_fail(log, err, "corrupt name record region: the record at byte %zu has no end", at);
            at += 8 + len + 1;
        }
        names[count].id = id;
        names[count].name = dl_strndup(log, name, len);
        if (!names[count].name)
            return dl_fail(log, err, "out of memory");
        count++;
    }
    qsort(names, count, sizeof *names, by_id);
    /* One name an id: a record that ranks registered more than once keeps
     * its first name that is not empty, as darshan-util does. */
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        if (kept && names[kept - 1].id == names[i].id) {
            if (!names[kept - 1].name[0])
                names[kept - 1].name = names[i].name;
            continue;
        }
        names[kept++] = names[i];
    }
    log->names = names;
    log->nnames = kept;
    return 0;
}

const char *ri_darshan_name_of(const ri_darshan_log *log, uint64_t id)
{
    size_t lo = 0, hi = log->nnames;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (log->names[mid].id == id)
            return log->names[mid].name;
        if (log->names[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

uint64_t ri_darshan_start_ns(const ri_darshan_log *log)
{
    int64_t s = log->start_sec > 0 ? log->start_sec : 0, ns = log->start_nsec > 0 ? log->start_nsec : 0;
    return (uint64_t)s * 1000000000ull + (uint64_t)ns % 1000000000ull;
}

/* ---- opening ---- */

ri_darshan_log *ri_darshan_read(const void *data, size_t n, const char *name, rec_error *err)
{
    ri_darshan_log *log = calloc(1, sizeof *log);
    arena *a = calloc(1, sizeof *a);
    if (!log || !a) {
        free(log);
        free(a);
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: out of memory", name);
        return NULL;
    }
    log->mem = a;
    log->path = dl_strndup(log, name, strlen(name));
    if (!log->path) {
        log->path = "";
        dl_fail(log, err, "out of memory");
        ri_darshan_free(log);
        return NULL;
    }
    const uint8_t *file = data;
    if (read_header(log, file, n, err) != 0 || check_regions(log, n, err) != 0 ||
        read_job(log, file, n, err) != 0 || read_names(log, file, n, err) != 0 ||
        dl_read_modules(log, file, n, err) != 0) {
        ri_darshan_free(log);
        return NULL;
    }
    return log;
}

ri_darshan_log *ri_darshan_open(const char *path, rec_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: not a regular file", path);
        close(fd);
        return NULL;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *data = malloc(n ? n : 1);
    size_t got = 0;
    while (data && got < n) {
        ssize_t r = read(fd, data + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    int saved = errno;
    close(fd);
    if (!data || got < n) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: %s", path, data ? strerror(saved) : "out of memory");
        free(data);
        return NULL;
    }
    ri_darshan_log *log = ri_darshan_read(data, n, path, err);
    free(data);
    return log;
}

void ri_darshan_free(ri_darshan_log *log)
{
    if (!log)
        return;
    arena *a = log->mem;
    for (size_t i = 0; a && i < a->n; i++)
        free(a->blocks[i]);
    if (a)
        free(a->blocks);
    free(a);
    free(log);
}
