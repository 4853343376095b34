/* pwrite_blocks.c: see pwrite_blocks.h. */
#define _GNU_SOURCE
#include "pwrite_blocks.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int pwrite_blocks(const char *program, const char *path, long n, long *short_writes)
{
    char block[64];
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", program, path, strerror(errno));
        return -1;
    }
    for (long k = 0; k < n; k++) {
        memset(block, 'a' + (int)(k % 26), sizeof block);
        if (pwrite(fd, block, sizeof block, (off_t)k * 64) != (ssize_t)sizeof block)
            (*short_writes)++;
    }
    return fd;
}

int pwrite_rank_blocks(const char *program, const char *dir, int rank, long n, long *short_writes)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rank-%d.dat", dir, rank);
    return pwrite_blocks(program, path, n, short_writes);
}
