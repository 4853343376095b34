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
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    char path[4096], block[64];
    snprintf(path, sizeof path, "%s/rank-%d.dat", argv[1], rank);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "mpi_victim: %s: %s\n", path, strerror(errno));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long k = 0; k < n; k++) {
        memset(block, 'a' + (int)(k % 26), sizeof block);
        if (pwrite(fd, block, sizeof block, (off_t)k * 64) != (ssize_t)sizeof block)
            errors++;
    }
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
