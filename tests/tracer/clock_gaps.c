/* clock_gaps: 8 pwrite calls 10, 20, ... 80 ms apart (slept), each timed by
 * the program itself with CLOCK_MONOTONIC just before and just after it.
 * Prints one line a call, "before_ns after_ns" relative to the first call's
 * "before", for run_clock.sh to hold the trace's time stamps against. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: clock_gaps FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    long long before[8], after[8];
    for (int i = 0; i < 8; i++) {
        struct timespec gap = {0, 10000000l * (i + 1)};
        nanosleep(&gap, NULL);
        before[i] = now_ns();
        if (pwrite(fd, "x", 1, i) != 1)
            return 1;
        after[i] = now_ns();
    }
    close(fd);
    for (int i = 0; i < 8; i++)
        printf("%lld %lld\n", before[i] - before[0], after[i] - before[0]);
    return 0;
}
