/* endless: writes and synchronizes until it is killed, as a job cut off at
 * its time limit. Each rank pwrites 4 KiB blocks into its own file, and all
 * ranks meet in a barrier every 8 writes, so ranks killed at the same moment
 * have each written a different number of barriers into their traces.
 *   mpiexec -np N endless OUTDIR [PAUSE_US]
 * PAUSE_US: microseconds each rank sleeps after each barrier (default 200). */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: endless OUTDIR [PAUSE_US]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/part.%d", argv[1], rank);
    int fd = open(path, O_CREAT | O_WRONLY, 0644);
    if (fd < 0) {
        perror(path);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    useconds_t pause_us = argc == 3 ? (useconds_t)atol(argv[2]) : 200;
    static char block[4096];
    memset(block, 'e', sizeof block);
    for (long i = 0;; i++) {
        if (pwrite(fd, block, sizeof block, (off_t)(i % 256) * 4096) != (ssize_t)sizeof block) {
            perror(path);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (i % 8 == 7) {
            MPI_Barrier(MPI_COMM_WORLD);
            usleep(pause_us); /* a trace of some 10^5 records, not millions */
        }
    }
}
