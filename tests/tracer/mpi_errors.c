/* mpi_errors: failed MPI calls, recorded by their error class. Each failure
 * below gets its own error code from MPICH (a code names a message made for
 * that failure), but the same class; the program prints each call's class
 * as the application saw it, one per line, for the script to compare with
 * the trace.
 *   mpi_errors DIR   (DIR exists; DIR/missing/x does not) */
#include <mpi.h>
#include <stdio.h>

static void report(const char *what, int code)
{
    int cls = -1;
    MPI_Error_class(code, &cls);
    printf("%s %d\n", what, code == MPI_SUCCESS ? 0 : cls);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: mpi_errors DIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/missing/x", argv[1]);
    MPI_File fh;
    /* Files' default error handler returns: no MPI_Comm_set_errhandler needed. */
    for (int i = 0; i < 2; i++)
        report("open_missing", MPI_File_open(MPI_COMM_SELF, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    char made[4096];
    snprintf(made, sizeof made, "%s/made", argv[1]);
    report("create", MPI_File_open(MPI_COMM_SELF, made, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    MPI_File_close(&fh);
    report("create_excl", MPI_File_open(MPI_COMM_SELF, made, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                                        MPI_INFO_NULL, &fh));
    MPI_Finalize();
    return 0;
}
