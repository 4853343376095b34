/* pnetcdf-loop: a PnetCDF write loop that times itself, for bench-pnetcdf.
 *
 * Creates FILE (CDF-5) with an unlimited dimension "time", a dimension "x"
 * of LEN floats a rank, and VARS float variables (time, x); then writes
 * RECORDS records, every rank its LEN floats of each variable a record:
 *   put_all  VARS ncmpi_put_vara_float_all calls a record
 *   iput     VARS ncmpi_iput_vara_float calls then one ncmpi_wait_all a record
 * and closes the file. The loop is timed between two barriers (MPI_Wtime;
 * the slowest rank's time), so MPI start-up, the file's definition and the
 * tracer's writing of its trace at MPI_Finalize are not counted. Rank 0
 * prints one line: "loop_s SECONDS calls CALLS" (CALLS: the PnetCDF calls of
 * the loop, every rank).
 *
 *   pnetcdf-loop [--records N] [--vars V] [--len L] put_all|iput FILE */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *tool = "pnetcdf-loop";

/* check: a PnetCDF call that failed names itself, the file and the library's reason, and ends the run. */
static void check(int status, const char *call, const char *path)
{
    if (status == NC_NOERR)
        return;
    fprintf(stderr, "%s: %s on %s: %s\n", tool, call, path, ncmpi_strerror(status));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

static long parse_count(const char *text, const char *option)
{
    char *end;
    long value = strtol(text, &end, 10);
    if (*text == 0 || *end != 0 || value < 1) {
        fprintf(stderr, "%s: %s wants a positive count, not \"%s\"\n", tool, option, text);
        exit(2);
    }
    return value;
}

int main(int argc, char **argv)
{
    long records = 200, vars = 4, len = 1024;
    int arg = 1;
    for (; arg + 1 < argc && strncmp(argv[arg], "--", 2) == 0; arg += 2) {
        if (strcmp(argv[arg], "--records") == 0)
            records = parse_count(argv[arg + 1], "--records");
        else if (strcmp(argv[arg], "--vars") == 0)
            vars = parse_count(argv[arg + 1], "--vars");
        else if (strcmp(argv[arg], "--len") == 0)
            len = parse_count(argv[arg + 1], "--len");
        else
            break;
    }
    if (argc - arg != 2 || (strcmp(argv[arg], "put_all") != 0 && strcmp(argv[arg], "iput") != 0)) {
        fprintf(stderr, "usage: %s [--records N] [--vars V] [--len L] put_all|iput FILE\n", tool);
        return 2;
    }
    int nonblocking = strcmp(argv[arg], "iput") == 0;
    const char *path = argv[arg + 1];

    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);

    int ncid, dims[2];
    int *varids = malloc(sizeof *varids * (size_t)vars);
    int *requests = malloc(sizeof *requests * (size_t)vars);
    int *statuses = malloc(sizeof *statuses * (size_t)vars);
    float *data = malloc(sizeof *data * (size_t)len);
    if (!varids || !requests || !statuses || !data) {
        fprintf(stderr, "%s: out of memory for %ld variables of %ld floats\n", tool, vars, len);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 0; i < len; i++)
        data[i] = (float)(rank * len + i);

    check(ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &ncid), "ncmpi_create",
          path);
    check(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]), "ncmpi_def_dim", path);
    check(ncmpi_def_dim(ncid, "x", (MPI_Offset)len * nranks, &dims[1]), "ncmpi_def_dim", path);
    for (long v = 0; v < vars; v++) {
        char name[32];
        snprintf(name, sizeof name, "v%ld", v);
        check(ncmpi_def_var(ncid, name, NC_FLOAT, 2, dims, &varids[v]), "ncmpi_def_var", path);
    }
    check(ncmpi_enddef(ncid), "ncmpi_enddef", path);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long r = 0; r < records; r++) {
        MPI_Offset begin[2] = {r, (MPI_Offset)rank * len}, count[2] = {1, len};
        for (long v = 0; v < vars; v++) {
            if (nonblocking)
                check(ncmpi_iput_vara_float(ncid, varids[v], begin, count, data, &requests[v]),
                      "ncmpi_iput_vara_float", path);
            else
                check(ncmpi_put_vara_float_all(ncid, varids[v], begin, count, data), "ncmpi_put_vara_float_all",
                      path);
        }
        if (nonblocking) {
            check(ncmpi_wait_all(ncid, (int)vars, requests, statuses), "ncmpi_wait_all", path);
            for (long v = 0; v < vars; v++)
                check(statuses[v], "ncmpi_iput_vara_float (its status)", path);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - start, slowest;
    MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    MPI_Offset written;
    check(ncmpi_inq_dimlen(ncid, dims[0], &written), "ncmpi_inq_dimlen", path);
    if (written != records) { /* the benchmark's sanity check: every record landed */
        fprintf(stderr, "%s: %s holds %lld records, not %ld\n", tool, path, (long long)written, records);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    check(ncmpi_close(ncid), "ncmpi_close", path);
    long calls = records * (vars + nonblocking) * nranks;
    if (rank == 0)
        printf("loop_s %.6f calls %ld\n", slowest, calls);
    free(varids);
    free(requests);
    free(statuses);
    free(data);
    MPI_Finalize();
    return 0;
}
