/* libpassthrough.so: the floor any LD_PRELOAD tracer pays on bench-overhead's
 * loop. Its pwrite reads the clock before and after the real call (as a
 * tracer stamps a record) and does nothing else: the interposition, the
 * indirect call and two clock reads. bench-overhead runs it beside the
 * untraced and the traced loop and prints the tracer's cost over this one. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
/* Kept where the compiler cannot drop the clock reads. */
volatile uint64_t passthrough_sink;

static uint64_t stamp(void)
{
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc(); /* what the tracer reads, where it can */
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
    if (!real_pwrite)
        *(void **)&real_pwrite = dlsym(RTLD_NEXT, "pwrite");
    uint64_t start = stamp();
    ssize_t ret = real_pwrite(fd, buf, count, offset);
    passthrough_sink += stamp() - start;
    return ret;
}

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) __attribute__((alias("pwrite")));
