/* librecordfloor.so: the least a tracer that keeps every call can do on
 * bench-overhead's loop. Its pwrite stamps the clock around the real call,
 * like libpassthrough.so, and also keeps the call: a fixed 48-byte record
 * (function, fd, count, offset, result, both stamps) appended to a 1 MiB
 * buffer that goes to RECORDER_TRACES_DIR/raw.records through the real
 * write when full and at exit. No encoding, no compression, no lock, no
 * handle or path tables: what remains of a tracer once everything that
 * makes its trace small and meaningful is taken away. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

typedef struct raw_record {
    uint32_t function, fd;
    uint64_t count, offset;
    int64_t result;
    uint64_t start, end;
} raw_record;

enum { BUFFER_RECORDS = (1 << 20) / sizeof(raw_record) };

static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_write)(int, const void *, size_t);
static raw_record buffer[BUFFER_RECORDS];
static size_t used;
static int out_fd = -1;

static uint64_t stamp(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

__attribute__((constructor)) static void open_output(void)
{
    *(void **)&real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    *(void **)&real_write = dlsym(RTLD_NEXT, "write");
    const char *dir = getenv("RECORDER_TRACES_DIR");
    if (!dir)
        return;
    mkdir(dir, 0755);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/raw.records", dir);
    out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

static void flush_buffer(void)
{
    if (out_fd >= 0 && used && real_write(out_fd, buffer, used * sizeof buffer[0]) < 0)
        out_fd = -1;
    used = 0;
}

__attribute__((destructor)) static void close_output(void)
{
    flush_buffer();
    if (out_fd >= 0)
        close(out_fd);
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    uint64_t start = stamp();
    ssize_t ret = real_pwrite(fd, buf, count, offset);
    uint64_t end = stamp();
    buffer[used++] = (raw_record){1, (uint32_t)fd, count, (uint64_t)offset, ret, start, end};
    if (used == BUFFER_RECORDS)
        flush_buffer();
    return ret;
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) __attribute__((alias("pwrite")));
