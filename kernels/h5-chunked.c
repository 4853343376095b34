/* h5-chunked: the append-as-you-go HDF5 pattern of time-series and event
 * loggers (e.g. particle tracks or diagnostics appended every step): one
 * chunked dataset with an unlimited first dimension (H5Pset_chunk, maxdims
 * H5S_UNLIMITED) grows by N x rows rows per step (H5Dset_extent), each rank
 * writing its rows of the new slab (collective or independent). The dataset
 * carries a string attribute (H5Tcopy(H5T_C_S1) + H5Tset_size) and numeric
 * ones. A second phase reopens the file read-only (H5Fopen, H5Dopen2,
 * H5Dget_space), checks the extent, reads the whole dataset on every rank
 * and verifies it and the attributes, then closes the file a second time
 * inside H5E_BEGIN_TRY, a call that fails on purpose. */
#include "kernel_h5.h"

#include <stdlib.h>

static const char SUMMARY[] =
    "Chunked extendible HDF5 dataset appended every step, attributes, then reopened and verified.";

typedef struct {
    int rows;       /* rows each rank appends per step */
    int cols;
    int steps;
    int chunk_rows;
    int collective;
} chunked_options;

static const char DESCRIPTION[] = "h5-chunked: rows appended by every rank at every step";

/* Row r of the final dataset, regardless of which rank or step wrote it. */
static void fill_rows(double *buf, hsize_t first_row, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            buf[(size_t)r * (size_t)cols + (size_t)c] =
                kernel_double_value(first_row + (hsize_t)r, (uint64_t)c, 0xC7);
}

static void append_phase(const char *path, const chunked_options *opt, hid_t fapl, hid_t dxpl)
{
    const hsize_t cols = (hsize_t)opt->cols, rows = (hsize_t)opt->rows;
    const hsize_t rows_per_step = rows * (hsize_t)kernel.nprocs;
    hid_t file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);

    hid_t dcpl = KH5(H5Pcreate, H5P_DATASET_CREATE);
    const hsize_t chunk[2] = {(hsize_t)opt->chunk_rows, cols};
    KH5(H5Pset_chunk, dcpl, 2, chunk);
    const hsize_t initial[2] = {0, cols}, max[2] = {H5S_UNLIMITED, cols};
    hid_t space = KH5(H5Screate_simple, 2, initial, max);
    hid_t dset = KH5(H5Dcreate2, file, "records", H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    KH5(H5Sclose, space);
    KH5(H5Pclose, dcpl);

    kernel_h5_write_string_attribute(dset, "description", DESCRIPTION);
    kernel_h5_write_attribute(dset, "columns", H5T_NATIVE_INT, &opt->cols, sizeof opt->cols);

    const hsize_t my_count[2] = {rows, cols};
    hid_t memspace = KH5(H5Screate_simple, 2, my_count, NULL);
    double *buf = kernel_alloc((size_t)(rows * cols) * sizeof(double));
    for (int step = 0; step < opt->steps; step++) {
        const hsize_t extent[2] = {(hsize_t)(step + 1) * rows_per_step, cols};
        KH5(H5Dset_extent, dset, extent);
        const hsize_t my_start[2] = {(hsize_t)step * rows_per_step + (hsize_t)kernel.rank * rows, 0};
        hid_t filespace = KH5(H5Dget_space, dset);
        KH5(H5Sselect_hyperslab, filespace, H5S_SELECT_SET, my_start, NULL, my_count, NULL);
        fill_rows(buf, my_start[0], opt->rows, opt->cols);
        KH5_DATA(H5Dwrite, rows * cols * sizeof(double), dset, H5T_NATIVE_DOUBLE, memspace, filespace, dxpl, buf);
        KH5(H5Sclose, filespace);
    }
    free(buf);
    KH5(H5Sclose, memspace);
    kernel_h5_write_attribute(file, "steps", H5T_NATIVE_INT, &opt->steps, sizeof opt->steps);
    KH5(H5Dclose, dset);
    KH5(H5Fclose, file);
}

static void verify_phase(const char *path, const chunked_options *opt, hid_t fapl, hid_t dxpl)
{
    const hsize_t want_rows = (hsize_t)opt->steps * (hsize_t)opt->rows * (hsize_t)kernel.nprocs;
    hid_t file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
    hid_t dset = KH5(H5Dopen2, file, "records", H5P_DEFAULT);
    hid_t space = KH5(H5Dget_space, dset);
    hsize_t dims[2] = {0, 0}, maxdims[2] = {0, 0};
    if (KH5(H5Sget_simple_extent_dims, space, dims, maxdims) != 2)
        kernel_fail("records is not 2-D after reopening");
    KH5(H5Sclose, space);
    if (dims[0] != want_rows || dims[1] != (hsize_t)opt->cols || maxdims[0] != H5S_UNLIMITED)
        kernel_fail("records has extent %llux%llu, expected %llux%d (unlimited rows)", (unsigned long long)dims[0],
                    (unsigned long long)dims[1], (unsigned long long)want_rows, opt->cols);

    const size_t elements = (size_t)(want_rows * (hsize_t)opt->cols);
    double *all = kernel_alloc(elements * sizeof(double));
    double *expected = kernel_alloc(elements * sizeof(double));
    KH5_DATA(H5Dread, elements * sizeof(double), dset, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, dxpl, all);
    fill_rows(expected, 0, (int)want_rows, opt->cols);
    kernel_check_equal(all, expected, elements, sizeof(double), "records (row = element / %d)", opt->cols);
    free(all);
    free(expected);

    kernel_h5_check_string_attribute(dset, "description", DESCRIPTION);
    kernel_h5_check_attribute(dset, "columns", H5T_NATIVE_INT, &opt->cols, sizeof opt->cols);
    kernel_h5_check_attribute(file, "steps", H5T_NATIVE_INT, &opt->steps, sizeof opt->steps);
    KH5(H5Dclose, dset);
    KH5(H5Fclose, file);
    /* A second close on the way out, silenced, as h5bench's error path does: it must fail. */
    H5E_BEGIN_TRY
    {
        if (KIO(H5Fclose, file) >= 0)
            kernel_fail("closing the file a second time succeeded");
    }
    H5E_END_TRY;
}

int main(int argc, char **argv)
{
    chunked_options opt = {.rows = 128, .cols = 16, .steps = 4, .chunk_rows = 64, .collective = 1};
    const kernel_option options[] = {
        KOPT_INT_OPT("--rows", &opt.rows, 1, "rows each rank appends per step"),
        KOPT_INT_OPT("--cols", &opt.cols, 1, "columns (doubles) per row"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "append steps (H5Dset_extent + H5Dwrite each)"),
        KOPT_INT_OPT("--chunk-rows", &opt.chunk_rows, 1, "rows per chunk"),
        KOPT_INT_OPT("--collective", &opt.collective, 0, "1: collective writes and reads, 0: independent"),
    };
    kernel_init(&argc, &argv, "h5-chunked", SUMMARY, options, KOPT_COUNT(options));
    if (opt.collective > 1)
        kernel_usage_error("--collective must be 0 or 1, got %d", opt.collective);

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "chunked.h5");
    hid_t fapl = kernel_h5_mpio_fapl();
    hid_t dxpl = kernel_h5_dxpl(opt.collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT);
    append_phase(path, &opt, fapl, dxpl);
    verify_phase(path, &opt, fapl, dxpl);
    kernel_h5_close_lists(dxpl, fapl);
    return kernel_finish();
}
