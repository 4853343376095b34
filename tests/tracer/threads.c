/* threads: many threads making many traced calls at once
 * (tracer.threads_bounded_memory).
 *
 *   threads DIR [NTHREADS [CALLS]]      (defaults: 8 threads, 100000 calls)
 *
 * The main thread creates one file per thread in DIR; thread t then writes
 * CALLS blocks of 64 bytes to its file with pwrite, at distinct offsets,
 * and every 1000th block reads it back with lseek + read. The main thread
 * finally checks every file's size and a sample of blocks with pread. On
 * stdout: the calls made per function, "ok", and the peak RSS:
 *   calls pwrite N / calls lseek N / calls read N / calls pread N
 *   ok 1
 *   maxrss_kb N */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK 64
#define CHECK_EVERY 1000

typedef struct worker {
    pthread_t tid;
    int index, fd;
    long calls;
    long pwrites, lseeks, reads, errors;
} worker;

/* The content of block k of thread t's file. */
static void fill(char *buf, int t, long k)
{
    int n = snprintf(buf, BLOCK, "thread %d block %ld ", t, k);
    for (int i = n; i < BLOCK; i++)
        buf[i] = (char)('a' + (t + k + i) % 26);
}

static void *work(void *arg)
{
    worker *w = arg;
    char buf[BLOCK], back[BLOCK];
    for (long k = 0; k < w->calls; k++) {
        fill(buf, w->index, k);
        w->pwrites++;
        if (pwrite(w->fd, buf, BLOCK, (off_t)k * BLOCK) != BLOCK) {
            w->errors++;
            continue;
        }
        if (k % CHECK_EVERY == 0) {
            w->lseeks++;
            w->reads++;
            if (lseek(w->fd, (off_t)k * BLOCK, SEEK_SET) != (off_t)k * BLOCK ||
                read(w->fd, back, BLOCK) != BLOCK || memcmp(buf, back, BLOCK) != 0)
                w->errors++;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) {
        fprintf(stderr, "usage: %s DIR [NTHREADS [CALLS]]\n", argv[0]);
        return 2;
    }
    int nthreads = argc > 2 ? atoi(argv[2]) : 8;
    long calls = argc > 3 ? atol(argv[3]) : 100000;
    if (nthreads < 1 || nthreads > 256 || calls < 1) {
        fprintf(stderr, "threads: bad NTHREADS or CALLS\n");
        return 2;
    }
    worker *w = calloc((size_t)nthreads, sizeof *w);
    if (!w)
        return 1;
    for (int t = 0; t < nthreads; t++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/thread-%d.dat", argv[1], t);
        w[t] = (worker){.index = t, .calls = calls};
        w[t].fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
        if (w[t].fd < 0) {
            fprintf(stderr, "threads: %s: %s\n", path, strerror(errno));
            return 1;
        }
    }
    for (int t = 0; t < nthreads; t++)
        if ((errno = pthread_create(&w[t].tid, NULL, work, &w[t])) != 0) {
            perror("threads: pthread_create");
            return 1;
        }
    long pwrites = 0, lseeks = 0, reads = 0, preads = 0, errors = 0;
    for (int t = 0; t < nthreads; t++) {
        pthread_join(w[t].tid, NULL);
        pwrites += w[t].pwrites;
        lseeks += w[t].lseeks;
        reads += w[t].reads;
        errors += w[t].errors;
    }
    /* Every file complete, a sample of blocks right. */
    for (int t = 0; t < nthreads; t++) {
        struct stat st;
        if (fstat(w[t].fd, &st) != 0 || st.st_size != (off_t)calls * BLOCK) {
            fprintf(stderr, "threads: file %d has the wrong size\n", t);
            errors++;
        }
        for (long k = t; k < calls; k += calls / 7 + 1) {
            char buf[BLOCK], back[BLOCK];
            fill(buf, t, k);
            preads++;
            if (pread(w[t].fd, back, BLOCK, (off_t)k * BLOCK) != BLOCK || memcmp(buf, back, BLOCK) != 0) {
                fprintf(stderr, "threads: file %d block %ld is wrong\n", t, k);
                errors++;
            }
        }
        close(w[t].fd);
    }
    free(w);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("calls pwrite %ld\ncalls lseek %ld\ncalls read %ld\ncalls pread %ld\nerrors %ld\nok %d\nmaxrss_kb %ld\n",
           pwrites, lseeks, reads, preads, errors, errors == 0, ru.ru_maxrss);
    return errors ? 1 : 0;
}
