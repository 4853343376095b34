/* mpi_errhandlers: a program that lives through its failing MPI calls, as
 * codes that probe for an input file or fall back to another layout do: it
 * has MPI_COMM_WORLD's errors returned, hangs its own handlers (which count
 * the errors and return) on a communicator and, as the default of files
 * opened later, on MPI_FILE_NULL; then an open of a file that does not exist
 * fails, one that makes its file succeeds, a read of that write-only file
 * and a broadcast from a root that does not exist fail, and each handler it
 * gets back it frees. A kernel or replay without these handlers aborts at
 * the first failure (MPI_COMM_WORLD's default is MPI_ERRORS_ARE_FATAL).
 *   mpiexec -np N mpi_errhandlers OUTDIR */
#include "corpus.h"

static int comm_errors, file_errors;

static void count_comm_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    comm_errors++;
}

static void count_file_error(MPI_File *file, int *code, ...)
{
    (void)file;
    (void)code;
    file_errors++;
}

/* A call that must fail with this error class. */
static void expect_failure(int err, int want_class, const char *call)
{
    int got_class = MPI_SUCCESS;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &got_class);
    if (got_class != want_class)
        corpus_fail("%s returned error class %d, not %d", call, got_class, want_class);
}

/* The handler a get hands back is the one set; the program frees the
 * reference it got, but MPICH's MPI_File_get_errhandler (ROMIO's) hands
 * back none, which a free would take from the handler itself. */
static void expect_handler(MPI_Errhandler got, MPI_Errhandler want, const char *what, int free_it)
{
    if (got != want)
        corpus_fail("%s's error handler is not the one set", what);
    if (free_it)
        MPI_CHECK(MPI_Errhandler_free(&got));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "mpi_errhandlers");
    MPI_CHECK(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

    MPI_Comm comm;
    MPI_Errhandler on_comm, on_files, got;
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
    MPI_CHECK(MPI_Comm_create_errhandler(count_comm_error, &on_comm));
    MPI_CHECK(MPI_Comm_set_errhandler(comm, on_comm));
    MPI_CHECK(MPI_File_create_errhandler(count_file_error, &on_files));
    MPI_CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, on_files));

    char missing[CORPUS_PATH_MAX], made[CORPUS_PATH_MAX];
    corpus_path(missing, "no-such-input.dat");
    corpus_path(made, "output.dat");
    MPI_File fh;
    expect_failure(MPI_File_open(comm, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), MPI_ERR_NO_SUCH_FILE,
                   "MPI_File_open of a missing file");
    if (file_errors != 1)
        corpus_fail("the files' handler ran %d times for the failed open, not once", file_errors);

    MPI_CHECK(MPI_File_open(comm, made, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    MPI_CHECK(MPI_File_get_errhandler(fh, &got));
    expect_handler(got, on_files, "the opened file", 0); /* MPI_FILE_NULL's, when it was opened */
    int values[64];
    for (int i = 0; i < 64; i++)
        values[i] = corpus_rank * 64 + i;
    MPI_CHECK(MPI_File_write_at_all(fh, (MPI_Offset)corpus_rank * (MPI_Offset)sizeof values, values, 64,
                                    MPI_INT, MPI_STATUS_IGNORE));
    expect_failure(MPI_File_read_at(fh, 0, values, 64, MPI_INT, MPI_STATUS_IGNORE), MPI_ERR_ACCESS,
                   "MPI_File_read_at of a write-only file");
    if (file_errors != 2)
        corpus_fail("the files' handler ran %d times, not twice", file_errors);
    MPI_CHECK(MPI_File_close(&fh));

    expect_failure(MPI_Bcast(values, 1, MPI_INT, corpus_size, comm), MPI_ERR_ROOT, "MPI_Bcast from no rank");
    if (comm_errors != 1)
        corpus_fail("the communicator's handler ran %d times, not once", comm_errors);
    MPI_CHECK(MPI_Comm_get_errhandler(comm, &got));
    expect_handler(got, on_comm, "the communicator", 1);
    MPI_CHECK(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got));
    expect_handler(got, MPI_ERRORS_RETURN, "MPI_COMM_WORLD", 1);

    MPI_CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN));
    MPI_CHECK(MPI_Errhandler_free(&on_files));
    MPI_CHECK(MPI_Errhandler_free(&on_comm));
    MPI_CHECK(MPI_Comm_free(&comm));
    return corpus_finish();
}
