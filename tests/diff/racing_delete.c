/* racing_delete WINNER PATH: every rank removes PATH with MPI_File_delete,
 * rank WINNER first (it succeeds when PATH exists), then the others (they
 * fail). Two runs with different winners are the two outcomes of a race
 * that HDF5's ph5example runs for real (tests/diff/diff_racing_delete.sh). */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int winner = argc > 2 ? atoi(argv[1]) : 0;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == winner)
        MPI_File_delete(argv[2], MPI_INFO_NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != winner)
        MPI_File_delete(argv[2], MPI_INFO_NULL);
    MPI_Finalize();
    return 0;
}
