/* ncheader.c: what netCDF metadata a record keeps of a file and of strings.
 * What a netCDF classic file held when a run opened it: the
 * header of a CDF-1, -2 or -5 file (dimensions, variables, attributes, the
 * format variant) is a block of bytes at its start: kept in the opening
 * call's record (NC_HEADER), it lets kernels and replays write the file
 * back before the run, so the library opens and reads it as it did.
 *
 * The header's length is read off the header itself, as the classic format
 * lays it out (magic, numrecs, then the dimension, attribute and variable
 * lists), the same for PnetCDF's opens and netCDF-C's; a file that is no
 * classic file (netCDF-4 is HDF5) keeps none. Each rank reads the header
 * its own open found, through the C library's functions (rt_real), never
 * the wrappers; errno stays the application's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "late.h"
#include "rt.h"
#include "runtime.h"

int64_t rt_nc_file_size(const char *path)
{
    struct stat st;
    int saved = errno;
    rt_real_resolve();
    int64_t size = path && rt_real.stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
    errno = saved;
    return size;
}

int64_t rt_nc_classic_file_size(const char *path)
{
    char magic[3] = {0};
    int saved = errno;
    rt_real_resolve();
    int fd = path ? rt_real.open(path, O_RDONLY | O_CLOEXEC) : -1;
    int classic = fd >= 0 && rt_real.read(fd, magic, sizeof magic) == (ssize_t)sizeof magic &&
                  memcmp(magic, "CDF", 3) == 0;
    if (fd >= 0)
        rt_real.close(fd);
    errno = saved;
    return classic ? rt_nc_file_size(path) : -1;
}

/* A walk over a header's bytes, big-endian as the format stores them. */
typedef struct walk {
    const unsigned char *b;
    size_t len, at;
    int version; /* 1, 2 (64-bit offsets) or 5 (64-bit data) */
    int short_of_bytes;
} walk;

static uint64_t take(walk *w, unsigned n)
{
    uint64_t v = 0;
    if (w->at + n > w->len) {
        w->short_of_bytes = 1;
        w->at = w->len;
        return 0;
    }
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | w->b[w->at++];
    return v;
}

static void skip(walk *w, uint64_t n)
{
    if (n > w->len - w->at) {
        w->short_of_bytes = 1;
        w->at = w->len;
    } else
        w->at += (size_t)n;
}

/* Counts and lengths: 8 bytes in CDF-5, else 4. */
static uint64_t count(walk *w)
{
    return take(w, w->version == 5 ? 8 : 4);
}

static uint64_t padded(uint64_t n)
{
    return (n + 3) & ~(uint64_t)3;
}

static void name(walk *w)
{
    skip(w, padded(count(w)));
}

/* The bytes of one element of an nc_type (0: none such). */
static unsigned type_size(uint64_t type)
{
    static const unsigned sizes[] = {0, 1, 1, 2, 4, 4, 8, 1, 2, 4, 8, 8};
    return type < sizeof sizes / sizeof sizes[0] ? sizes[type] : 0;
}

/* A list's tag and its length; 0 for ABSENT (ZERO ZERO); -1 for a wrong tag. */
static int64_t list(walk *w, uint32_t tag)
{
    uint32_t got = (uint32_t)take(w, 4);
    uint64_t n = count(w);
    if (got == 0 && n == 0)
        return 0;
    return got == tag && n < ((uint64_t)1 << 31) ? (int64_t)n : -1;
}

static int attributes(walk *w)
{
    int64_t n = list(w, 0x0C);
    for (int64_t i = 0; i < n && !w->short_of_bytes; i++) {
        name(w);
        unsigned size = type_size(take(w, 4));
        uint64_t elements = count(w);
        if (!size)
            return -1;
        skip(w, padded(elements * size));
    }
    return n < 0 ? -1 : 0;
}

/* The header's length in bytes; 0 while the bytes read so far end inside it; -1 for no classic header. */
static int64_t header_length(const unsigned char *b, size_t len)
{
    walk w = {b, len, 0, 0, 0};
    if (len < 4)
        return 0;
    if (memcmp(b, "CDF", 3) != 0 || (b[3] != 1 && b[3] != 2 && b[3] != 5))
        return -1;
    w.version = b[3];
    w.at = 4;
    count(&w); /* numrecs */
    int64_t dims = list(&w, 0x0A);
    for (int64_t i = 0; i < dims && !w.short_of_bytes; i++) {
        name(&w);
        count(&w);
    }
    if (dims < 0 || attributes(&w) < 0)
        return w.short_of_bytes ? 0 : -1;
    int64_t vars = list(&w, 0x0B);
    for (int64_t i = 0; i < vars && !w.short_of_bytes; i++) {
        name(&w);
        skip(&w, count(&w) * (w.version == 5 ? 8 : 4)); /* dimids */
        if (attributes(&w) < 0)
            return w.short_of_bytes ? 0 : -1;
        if (!type_size(take(&w, 4)))
            return w.short_of_bytes ? 0 : -1;
        count(&w);                                 /* vsize */
        skip(&w, w.version == 1 ? 4 : 8);          /* begin */
    }
    if (w.short_of_bytes)
        return 0;
    return vars < 0 ? -1 : (int64_t)w.at;
}

void rt_nc_header(rt_call *c, unsigned field, int ncid, const char *path)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    if (ncid < 0 || !path)
        return;
    int saved = errno;
    rt_real_resolve();
    int fd = rt_real.open(path, O_RDONLY | O_CLOEXEC);
    unsigned char *bytes = NULL;
    size_t got = 0, cap = 0;
    int64_t size = 0;
    /* read until the header's end is known: 8 KiB, then twice as much, up to RT_MAX_ENCODED */
    while (fd >= 0 && size == 0 && cap < RT_MAX_ENCODED) {
        cap = cap ? 2 * cap : 8192;
        unsigned char *grown = realloc(bytes, cap);
        if (!grown)
            break;
        bytes = grown;
        int at_end = 0;
        while (got < cap) {
            ssize_t n = rt_real.read(fd, bytes + got, cap - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                at_end = 1;
                break;
            }
            got += (size_t)n;
        }
        size = header_length(bytes, got);
        if (at_end && size == 0)
            size = -1; /* the file ends inside its header */
    }
    if (fd >= 0)
        rt_real.close(fd);
    unsigned char *kept = size > 0 ? (unsigned char *)rt_array(c, field, ((size_t)size + 7) / 8) : NULL;
    if (kept) {
        memcpy(kept, bytes, (size_t)size);
        v->ptr = kept;
        v->len = (uint32_t)size;
    }
    free(bytes);
    errno = saved;
}

void rt_nc_strings(rt_call *c, unsigned field, const char *const *strings, long long n)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    if (!strings || n <= 0 || n > (long long)UINT32_MAX)
        return;
    size_t len = 4;
    long long kept = 0;
    for (; kept < n; kept++) {
        size_t one = strings[kept] ? strnlen(strings[kept], RT_MAX_NC_VALUES) + 1 : 1;
        if (len + one > RT_MAX_NC_VALUES)
            break;
        len += one;
    }
    unsigned char *bytes = (unsigned char *)rt_array(c, field, (len + 7) / 8);
    if (!bytes)
        return;
    uint32_t count = (uint32_t)n;
    for (int b = 0; b < 4; b++)
        bytes[b] = (unsigned char)(count >> (8 * b));
    size_t at = 4;
    for (long long k = 0; k < kept; k++) {
        size_t one = strings[k] ? strnlen(strings[k], RT_MAX_NC_VALUES) : 0;
        memcpy(bytes + at, strings[k] ? strings[k] : "", one);
        bytes[at + one] = 0;
        at += one + 1;
    }
    v->ptr = bytes;
    v->len = (uint32_t)len;
}
