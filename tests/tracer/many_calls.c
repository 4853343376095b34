/* many_calls: one thread, one cheap traced call in a long loop
 * (tracer.ten_million_records).
 *
 *   many_calls FILE [CALLS]     (default 10000000)
 *
 * Opens FILE, calls lseek(fd, 0, SEEK_CUR) CALLS times, closes it. On stdout:
 *   calls lseek N / ok 1 / seconds S / maxrss_kb N */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s FILE [CALLS]\n", argv[0]);
        return 2;
    }
    long calls = argc > 2 ? atol(argv[2]) : 10000000;
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "many_calls: %s: %s\n", argv[1], strerror(errno));
        return 1;
    }
    long errors = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < calls; i++)
        if (lseek(fd, 0, SEEK_CUR) != 0)
            errors++;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (close(fd) != 0)
        errors++;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("calls lseek %ld\nerrors %ld\nok %d\nseconds %.3f\nmaxrss_kb %ld\n", calls, errors, errors == 0, s,
           ru.ru_maxrss);
    return errors ? 1 : 0;
}
