/* nonblocking: the asynchronous MPI-IO calls that overlap I/O with compute
 * (as in E3SM's PIO or checkpoint libraries that post requests and wait
 * later). Phase 1 posts several MPI_File_iwrite_at requests per rank
 * (request r of rank p lands at block r*N + p), completes them with one
 * MPI_Waitall, then reads them back with MPI_File_iread_at + MPI_Waitall.
 * Phase 2 sets a view (each rank its block of an N-block row) past the
 * phase-1 region and writes rows with the split collective
 * MPI_File_write_all_begin/_end, syncs, and reads them back with
 * read_all_begin/_end. Everything read is compared. */
#include "kernel_common.h"

#include <stdlib.h>
#include <string.h>

static const char SUMMARY[] =
    "Nonblocking MPI-IO: iwrite_at/iread_at + MPI_Waitall, then split collectives after set_view.";

typedef struct {
    int count;    /* doubles per request / per rank per row */
    int requests; /* phase 1: nonblocking requests per rank */
    int steps;    /* phase 2: rows written with split collectives */
} nonblocking_options;

/* Values depend on the file position of the block, so the same generator
 * serves both phases. */
static void fill_block(double *buf, int count, uint64_t block_index)
{
    for (int i = 0; i < count; i++)
        buf[i] = kernel_double_value(block_index, (uint64_t)i, 0x1B);
}

/* MPI_Waitall, then checks that every request moved all `count` doubles. */
static void wait_for_all(int n, MPI_Request *requests, MPI_Status *statuses, int count, const char *what)
{
    if (MPI_Waitall(n, requests, statuses) != MPI_SUCCESS)
        kernel_fail("MPI_Waitall on the %s requests failed", what);
    for (int r = 0; r < n; r++) {
        int moved = -1;
        MPI_Get_count(&statuses[r], MPI_DOUBLE, &moved);
        if (moved != count)
            kernel_fail("%s request %d moved %d of %d doubles", what, r, moved, count);
    }
}

static void nonblocking_phase(MPI_File fh, const nonblocking_options *opt, double *bufs, double *expected)
{
    const int n = opt->requests, count = opt->count;
    const long long request_bytes = (long long)count * (long long)sizeof(double);
    MPI_Request *requests = kernel_alloc(sizeof(MPI_Request) * (size_t)n);
    MPI_Status *statuses = kernel_alloc(sizeof(MPI_Status) * (size_t)n);
    for (int r = 0; r < n; r++) {
        uint64_t block = (uint64_t)r * (uint64_t)kernel.nprocs + (uint64_t)kernel.rank;
        fill_block(bufs + (size_t)r * (size_t)count, count, block);
        KMPIIO_DATA(MPI_File_iwrite_at, request_bytes, fh, (MPI_Offset)block * request_bytes,
                    bufs + (size_t)r * (size_t)count, count, MPI_DOUBLE, &requests[r]);
    }
    wait_for_all(n, requests, statuses, count, "iwrite_at");

    memset(bufs, 0, (size_t)n * (size_t)request_bytes);
    for (int r = 0; r < n; r++) {
        uint64_t block = (uint64_t)r * (uint64_t)kernel.nprocs + (uint64_t)kernel.rank;
        KMPIIO_DATA(MPI_File_iread_at, request_bytes, fh, (MPI_Offset)block * request_bytes,
                    bufs + (size_t)r * (size_t)count, count, MPI_DOUBLE, &requests[r]);
    }
    wait_for_all(n, requests, statuses, count, "iread_at");
    for (int r = 0; r < n; r++) {
        uint64_t block = (uint64_t)r * (uint64_t)kernel.nprocs + (uint64_t)kernel.rank;
        fill_block(expected, count, block);
        kernel_check_equal(bufs + (size_t)r * (size_t)count, expected, (size_t)count, sizeof(double),
                           "iread_at request %d", r);
    }
    free(requests);
    free(statuses);
}

static void split_collective_phase(MPI_File fh, const nonblocking_options *opt, double *buf, double *expected)
{
    const int count = opt->count;
    const long long my_bytes = (long long)count * (long long)sizeof(double);
    const MPI_Offset row_bytes = (MPI_Offset)kernel.nprocs * my_bytes;
    const MPI_Offset phase_start = (MPI_Offset)opt->requests * row_bytes;
    int row_elements = kernel.nprocs * count, my_elements = count, my_start = kernel.rank * count;
    MPI_Datatype my_part_of_row;
    MPI_Type_create_subarray(1, &row_elements, &my_elements, &my_start, MPI_ORDER_C, MPI_DOUBLE,
                             &my_part_of_row);
    MPI_Type_commit(&my_part_of_row);

    /* The view repeats the filetype, so row `step` is the step-th tiling. */
    KMPIIO(MPI_File_set_view, fh, phase_start, MPI_DOUBLE, my_part_of_row, "native", MPI_INFO_NULL);
    for (int step = 0; step < opt->steps; step++) {
        uint64_t block = (uint64_t)(opt->requests + step) * (uint64_t)kernel.nprocs + (uint64_t)kernel.rank;
        fill_block(buf, count, block);
        KMPIIO_DATA(MPI_File_write_all_begin, my_bytes, fh, buf, count, MPI_DOUBLE);
        KMPIIO(MPI_File_write_all_end, fh, buf, MPI_STATUS_IGNORE);
    }
    KMPIIO(MPI_File_sync, fh);
    KMPIIO(MPI_File_seek, fh, 0, MPI_SEEK_SET);
    for (int step = 0; step < opt->steps; step++) {
        uint64_t block = (uint64_t)(opt->requests + step) * (uint64_t)kernel.nprocs + (uint64_t)kernel.rank;
        memset(buf, 0, (size_t)my_bytes);
        KMPIIO_DATA(MPI_File_read_all_begin, my_bytes, fh, buf, count, MPI_DOUBLE);
        KMPIIO(MPI_File_read_all_end, fh, buf, MPI_STATUS_IGNORE);
        fill_block(expected, count, block);
        kernel_check_equal(buf, expected, (size_t)count, sizeof(double), "split-collective row %d", step);
    }
    MPI_Type_free(&my_part_of_row);
}

int main(int argc, char **argv)
{
    nonblocking_options opt = {.count = 2048, .requests = 4, .steps = 2};
    const kernel_option options[] = {
        KOPT_INT_OPT("--count", &opt.count, 1, "doubles per request (phase 1) and per rank per row (phase 2)"),
        KOPT_INT_OPT("--requests", &opt.requests, 1, "MPI_File_iwrite_at/iread_at requests per rank"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "rows written with write_all_begin/_end"),
    };
    kernel_init(&argc, &argv, "nonblocking", SUMMARY, options, KOPT_COUNT(options));

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "nonblocking.dat");
    size_t max_elements = (size_t)opt.count * (size_t)opt.requests;
    double *bufs = kernel_alloc(max_elements * sizeof(double));
    double *expected = kernel_alloc((size_t)opt.count * sizeof(double));

    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    nonblocking_phase(fh, &opt, bufs, expected);
    split_collective_phase(fh, &opt, bufs, expected);
    KMPIIO(MPI_File_close, &fh);

    free(bufs);
    free(expected);
    return kernel_finish();
}
