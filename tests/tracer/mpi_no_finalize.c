/* mpi_no_finalize: an MPI program that ends with exit(0) and never calls
 * MPI_Finalize (tracer.mpi_exit_without_finalize).
 *
 *   mpiexec -np 2 ... mpi_no_finalize DIR N
 *
 * Every rank pwrites N blocks of 64 bytes to DIR/rank-R.dat, waits at a
 * barrier, prints "rank R pwrite N ok 1" and calls exit(0) with the file
 * still open. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 3) {
        fprintf(stderr, "usage: %s DIR N\n", argv[0]);
        exit(2);
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = atol(argv[2]), errors = 0;
    char path[4096], block[64];
    snprintf(path, sizeof path, "%s/rank-%d.dat", argv[1], rank);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "mpi_no_finalize: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    for (long k = 0; k < n; k++) {
        memset(block, 'a' + (int)(k % 26), sizeof block);
        if (pwrite(fd, block, sizeof block, (off_t)k * 64) != (ssize_t)sizeof block)
            errors++;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d pwrite %ld ok %d\n", rank, n, errors == 0);
    fflush(stdout);
    exit(0); /* no MPI_Finalize, no close */
}
