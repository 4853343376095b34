/* advise_loops: opens and seeks in a loop for recorder-advise to find. Every
 * rank, 20 times (OUTDIR made by rank 0): opens OUTDIR/loop.dat, seeks to its next 100-byte piece
 * ((i x N + rank) x 100), writes it and closes the file. Run at 2 ranks:
 *   mpirun -np 2 advise_loops OUTDIR
 * recorder-advise: small accesses (40 POSIX writes of 100 B: no set), 20
 * opens and 20 seeks of the file by each rank. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { LOOPS = 20, PIECE = 100 };

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nprocs;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    if (argc != 2) {
        fprintf(stderr, "usage: advise_loops OUTDIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0 && mkdir(argv[1], 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "advise_loops: %s: cannot create: %s\n", argv[1], strerror(errno));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    char path[4096], piece[PIECE];
    snprintf(path, sizeof path, "%s/loop.dat", argv[1]);
    memset(piece, 'a' + rank, sizeof piece);
    for (int i = 0; i < LOOPS; i++) {
        int fd = open(path, O_WRONLY | O_CREAT, 0644);
        off_t at = (off_t)(i * nprocs + rank) * PIECE;
        if (fd < 0 || lseek(fd, at, SEEK_SET) != at || write(fd, piece, PIECE) != PIECE || close(fd) != 0) {
            fprintf(stderr, "advise_loops: rank %d: %s: %s\n", rank, path, strerror(errno));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Finalize();
    return 0;
}
