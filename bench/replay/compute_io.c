/* compute_io: an MPI program whose run time is mostly computation between
 * I/O phases, the case where replay timing modes matter: a faithful replay
 * must take as long as the program, an asap replay only as long as its I/O.
 *
 *   mpirun -np N compute_io [--phases 4] [--compute 0.5] [--bytes 1048576] OUTDIR
 *
 * Each phase computes for --compute seconds, then every rank writes
 * --bytes to a shared file (MPI_File_write_at_all) and to its own file
 * (POSIX pwrite + fsync), and the ranks meet at a barrier. Rank 0 prints
 * the wall time from MPI_Init to MPI_Finalize. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static double compute(double seconds)
{
    /* Real floating-point work, for a given time (not a fixed count: the
     * point is the gap's length, on any machine). */
    double t0 = MPI_Wtime(), x = 0.5;
    while (MPI_Wtime() - t0 < seconds)
        for (int i = 0; i < 10000; i++)
            x = sin(x) * cos(x) + 0.5;
    return x;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    double start = MPI_Wtime();
    int rank, size, phases = 4;
    double seconds = 0.5;
    long bytes = 1 << 20;
    const char *outdir = NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--phases") && i + 1 < argc)
            phases = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--compute") && i + 1 < argc)
            seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
            bytes = atol(argv[++i]);
        else
            outdir = argv[i];
    }
    if (!outdir || phases < 1 || bytes < 1) {
        if (rank == 0)
            fprintf(stderr, "usage: compute_io [--phases N] [--compute SECONDS] [--bytes B] OUTDIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        mkdir(outdir, 0755);
    MPI_Barrier(MPI_COMM_WORLD);
    char shared[4096], own[4096];
    snprintf(shared, sizeof shared, "%s/shared.dat", outdir);
    snprintf(own, sizeof own, "%s/rank.%d.dat", outdir, rank);
    char *buf = malloc((size_t)bytes);
    memset(buf, rank + 'a', (size_t)bytes);
    MPI_File fh;
    MPI_File_open(MPI_COMM_WORLD, shared, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    int fd = open(own, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    double sink = 0;
    for (int p = 0; p < phases; p++) {
        sink += compute(seconds);
        MPI_Offset at = ((MPI_Offset)p * size + rank) * bytes;
        MPI_File_write_at_all(fh, at, buf, (int)bytes, MPI_BYTE, MPI_STATUS_IGNORE);
        if (pwrite(fd, buf, (size_t)bytes, (off_t)p * bytes) != bytes)
            perror(own);
        fsync(fd);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    close(fd);
    MPI_File_close(&fh);
    free(buf);
    double elapsed = MPI_Wtime() - start;
    if (rank == 0)
        printf("compute_io: %d ranks, %d phases, %.3f s of compute each, %ld bytes per rank per phase: %.3f "
               "s%s\n",
               size, phases, seconds, bytes, elapsed, sink == 42 ? " " : "");
    MPI_Finalize();
    return 0;
}
