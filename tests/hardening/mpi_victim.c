/* mpi_victim: the MPI variant of victim.c (run_robustness.sh).
 *
 *   mpiexec -np P mpi_victim DIR N [CRASH_RANK]
 *
 * Every rank makes N pwrite calls of 64 bytes to DIR/rank-R.dat and prints
 * "rank R pwrite N ok 1" (ok 0 if a call wrote less), and waits for the
 * others in a barrier. Then, if CRASH_RANK is given, that rank stores to
 * address 16 (SIGSEGV) while the others wait in a second barrier (the
 * launcher ends them); otherwise every rank passes it and calls
 * MPI_Finalize. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pwrite_blocks.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: %s DIR N [CRASH_RANK]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    long n = atol(argv[2]), errors = 0;
    int fd = pwrite_rank_blocks("mpi_victim", argv[1], rank, n, &errors);
    if (fd < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    printf("rank %d pwrite %ld ok %d\n", rank, n, errors == 0);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank's I/O is done before the crash */
    if (argc == 4 && rank == atoi(argv[3])) {
        /* A real fault; not at address 0, which UBSan reports before the
         * fault, and through a volatile so that no compiler sees it coming. */
        volatile uintptr_t nowhere = 16;
        *(volatile int *)nowhere = 1;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    close(fd);
    MPI_Finalize();
    return 0;
}
