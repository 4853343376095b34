/* mpi_no_finalize: an MPI program that ends with exit(0) and never calls
 * MPI_Finalize (tracer.mpi_exit_without_finalize).
 *
 *   mpiexec -np 2 ... mpi_no_finalize DIR N
 *
 * Every rank pwrites N blocks of 64 bytes to DIR/rank-R.dat, waits at a
 * barrier, prints "rank R pwrite N ok 1" and calls exit(0) with the file
 * still open. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pwrite_blocks.h"

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
    if (pwrite_rank_blocks("mpi_no_finalize", argv[1], rank, n, &errors) < 0)
        exit(1);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d pwrite %ld ok %d\n", rank, n, errors == 0);
    fflush(stdout);
    exit(0); /* no MPI_Finalize, no close */
}
