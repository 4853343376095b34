/* victim: a program that ends badly, for the tracer robustness tests
 * (tests/hardening/run_robustness.sh).
 *
 *   victim MODE DIR N
 *
 * Opens DIR/data and makes N pwrite calls of 64 bytes to it, prints
 * "pwrite N" and a line "ok 1" if every call wrote its 64 bytes, then:
 *   segv   stores to address 16 (SIGSEGV)
 *   abort  calls abort() (SIGABRT)
 *   term   prints "waiting", then sleeps until a signal ends it (the test
 *          sends SIGTERM)
 *   exit   closes the file and returns 0 (for the runs whose trace cannot
 *          be written: the program must not notice)
 *   files  also creates, writes, stats and removes N distinct files
 *          DIR/f<k>, then prints "maxrss_kb K" (peak RSS) and returns 0
 * stdout is flushed after every line, so the lines survive the crash. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pwrite_blocks.h"

static void say(const char *fmt, long v)
{
    printf(fmt, v);
    fflush(stdout);
}

static long many_files(const char *dir, long n)
{
    long errors = 0;
    char path[4096], line[32];
    for (long k = 0; k < n; k++) {
        snprintf(path, sizeof path, "%s/f%ld", dir, k);
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int len = snprintf(line, sizeof line, "%ld\n", k);
        struct stat st;
        if (fd < 0 || write(fd, line, (size_t)len) != len || close(fd) != 0 || stat(path, &st) != 0 ||
            st.st_size != len || unlink(path) != 0)
            errors++;
    }
    return errors;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s segv|abort|term|exit|files DIR N\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1];
    long n = atol(argv[3]), errors = 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/data", argv[2]);
    int fd = pwrite_blocks("victim", path, n, &errors);
    if (fd < 0)
        return 1;
    say("pwrite %ld\n", n);
    if (strcmp(mode, "files") == 0)
        errors += many_files(argv[2], n);
    say("ok %ld\n", errors == 0);
    if (strcmp(mode, "segv") == 0) {
        /* A real fault; not at address 0, which UBSan reports before the
         * fault, and through a volatile so that no compiler sees it coming. */
        volatile uintptr_t nowhere = 16;
        *(volatile int *)nowhere = 1;
    } else if (strcmp(mode, "abort") == 0) {
        abort();
    } else if (strcmp(mode, "term") == 0) {
        say("waiting %ld\n", n);
        for (;;)
            pause();
    } else if (strcmp(mode, "files") == 0) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        say("maxrss_kb %ld\n", ru.ru_maxrss);
    }
    return close(fd) == 0 ? 0 : 1;
}
