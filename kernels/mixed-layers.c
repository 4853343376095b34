/* mixed-layers: one run that does I/O at every layer of the stack, like a
 * real application whose mesh goes through HDF5, whose restart goes through
 * MPI-IO and whose per-rank scratch and rank-0 log use POSIX and stdio. It
 * exists to exercise a tracer's call-depth attribution: the kernel's own
 * H5Dwrite, MPI_File_write_at_all and pwrite calls are top-level, while the
 * MPI-IO and POSIX calls HDF5 and MPI-IO make underneath are not.
 *   mixed.h5        small collective 1-D dataset, read back with H5Dread
 *   mixed.mpiio     MPI_File_write_at_all, read back with read_at_all
 *   rank.<r>.bin    per-rank open/pwrite/close, read back with pread
 *   mixed.log       rank 0's stdio log (fopen/fprintf/fclose, then fread) */
#include "kernel_h5.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char SUMMARY[] = "HDF5 + MPI-IO + POSIX + stdio in one run, to exercise call-depth attribution.";

typedef struct {
    int count; /* doubles per rank in each layer */
} mixed_options;

enum { LAYER_HDF5 = 1, LAYER_MPIIO = 2, LAYER_POSIX = 3 };

/* Each layer stores different values so a file mix-up cannot pass. */
static void fill_values(double *buf, int count, int layer)
{
    for (int i = 0; i < count; i++)
        buf[i] = kernel_double_value((uint64_t)kernel.rank * (uint64_t)count + (uint64_t)i, (uint64_t)layer, 0x4D);
}

typedef struct {
    FILE *stream; /* rank 0 only */
    char *expected;
    size_t expected_len, capacity;
} run_log;

/* One log line: counted fprintf on rank 0, and the same text kept for the
 * final check. */
static void log_phase(run_log *log, const char *layer, long long bytes_per_rank)
{
    if (kernel.rank != 0)
        return;
    if (KIO_XFER(fprintf, log->stream, "layer %s: %d ranks x %lld bytes verified\n", layer, kernel.nprocs,
                 bytes_per_rank) < 0)
        kernel_fail_errno("fprintf to mixed.log failed");
    log->expected_len += (size_t)snprintf(log->expected + log->expected_len, log->capacity - log->expected_len,
                                          "layer %s: %d ranks x %lld bytes verified\n", layer, kernel.nprocs,
                                          bytes_per_rank);
}

static void hdf5_layer(const mixed_options *opt, double *buf, double *expected)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "mixed.h5");
    const hsize_t total = (hsize_t)opt->count * (hsize_t)kernel.nprocs, count = (hsize_t)opt->count;
    const hsize_t start = (hsize_t)kernel.rank * count;
    const size_t bytes = (size_t)opt->count * sizeof(double);

    hid_t fapl = kernel_h5_mpio_fapl();
    hid_t dxpl = kernel_h5_dxpl(H5FD_MPIO_COLLECTIVE);
    hid_t filespace, memspace;
    kernel_h5_open_slab(1, &total, &start, &count, &filespace, &memspace);

    hid_t file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t dset = KH5(H5Dcreate2, file, "field", H5T_NATIVE_DOUBLE, filespace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    fill_values(buf, opt->count, LAYER_HDF5);
    KH5_DATA(H5Dwrite, bytes, dset, H5T_NATIVE_DOUBLE, memspace, filespace, dxpl, buf);
    KH5(H5Dclose, dset);
    KH5(H5Fclose, file);

    file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
    dset = KH5(H5Dopen2, file, "field", H5P_DEFAULT);
    memset(buf, 0, bytes);
    KH5_DATA(H5Dread, bytes, dset, H5T_NATIVE_DOUBLE, memspace, filespace, dxpl, buf);
    KH5(H5Dclose, dset);
    KH5(H5Fclose, file);
    fill_values(expected, opt->count, LAYER_HDF5);
    kernel_check_equal(buf, expected, (size_t)opt->count, sizeof(double), "mixed.h5/field");

    kernel_h5_close_slab(filespace, memspace);
    kernel_h5_close_lists(dxpl, fapl);
}

static void mpiio_layer(const mixed_options *opt, double *buf, double *expected)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "mixed.mpiio");
    const long long bytes = (long long)opt->count * (long long)sizeof(double);
    const MPI_Offset offset = (MPI_Offset)kernel.rank * bytes;
    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    fill_values(buf, opt->count, LAYER_MPIIO);
    KMPIIO_DATA(MPI_File_write_at_all, bytes, fh, offset, buf, opt->count, MPI_DOUBLE, MPI_STATUS_IGNORE);
    KMPIIO(MPI_File_sync, fh);
    memset(buf, 0, (size_t)bytes);
    KMPIIO_DATA(MPI_File_read_at_all, bytes, fh, offset, buf, opt->count, MPI_DOUBLE, MPI_STATUS_IGNORE);
    KMPIIO(MPI_File_close, &fh);
    fill_values(expected, opt->count, LAYER_MPIIO);
    kernel_check_equal(buf, expected, (size_t)opt->count, sizeof(double), "mixed.mpiio");
}

static void posix_layer(const mixed_options *opt, double *buf, double *expected)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "rank.%d.bin", kernel.rank);
    const size_t bytes = (size_t)opt->count * sizeof(double);
    fill_values(buf, opt->count, LAYER_POSIX);
    int fd = kio_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    kio_pwrite_exact(fd, buf, bytes, 0, path);
    kio_close(fd, path);
    memset(buf, 0, bytes);
    fd = kio_open(path, O_RDONLY, 0);
    kio_pread_exact(fd, buf, bytes, 0, path);
    kio_close(fd, path);
    fill_values(expected, opt->count, LAYER_POSIX);
    kernel_check_equal(buf, expected, (size_t)opt->count, sizeof(double), "rank.%d.bin", kernel.rank);
}

static void verify_log(const run_log *log, const char *path)
{
    char *got = kernel_alloc(log->capacity);
    FILE *in = kio_fopen(path, "r");
    size_t got_len = 0;
    long long n;
    while ((n = KIO_XFER(fread, got + got_len, 1, log->capacity - got_len, in)) > 0)
        got_len += (size_t)n;
    kio_fclose(in, path);
    if (got_len != log->expected_len)
        kernel_fail("mixed.log has %zu bytes, expected %zu", got_len, log->expected_len);
    kernel_check_equal(got, log->expected, got_len, 1, "mixed.log");
    free(got);
}

int main(int argc, char **argv)
{
    mixed_options opt = {.count = 4096};
    const kernel_option options[] = {
        KOPT_INT_OPT("--count", &opt.count, 1, "doubles per rank in each of the HDF5, MPI-IO and POSIX files"),
    };
    kernel_init(&argc, &argv, "mixed-layers", SUMMARY, options, KOPT_COUNT(options));

    const size_t bytes = (size_t)opt.count * sizeof(double);
    double *buf = kernel_alloc(bytes), *expected = kernel_alloc(bytes);
    char log_path[KERNEL_PATH_MAX];
    kernel_path(log_path, "mixed.log");
    run_log log = {.capacity = 1024};
    if (kernel.rank == 0) {
        log.expected = kernel_alloc(log.capacity);
        log.stream = kio_fopen(log_path, "w");
    }

    hdf5_layer(&opt, buf, expected);
    log_phase(&log, "hdf5", (long long)bytes);
    mpiio_layer(&opt, buf, expected);
    log_phase(&log, "mpiio", (long long)bytes);
    posix_layer(&opt, buf, expected);
    log_phase(&log, "posix", (long long)bytes);

    if (kernel.rank == 0) {
        kio_fclose(log.stream, log_path);
        verify_log(&log, log_path);
        free(log.expected);
    }
    free(buf);
    free(expected);
    return kernel_finish();
}
