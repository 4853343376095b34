/* vorpal-like: the HDF5 output pattern of VORPAL-IO (the plasma-simulation
 * kernel of Behzad et al., "Automatic Generation of I/O Kernels"). A 3-D grid
 * is block-decomposed over a px x py x pz process grid (MPI_Dims_create);
 * each timestep goes to its own file holding several 3-D field datasets, and
 * every rank writes its block through a 3-D hyperslab whose origin is
 * coords x block dims, a non-linear function of the rank. Every file is then
 * reopened and each rank's block read back and compared. */
#include "kernel_common.h"

#include <hdf5.h>
#include <stdlib.h>

typedef struct {
    int block[3]; /* cells per rank along z, y, x (slowest to fastest) */
    int fields;
    int steps;
} vorpal_options;

typedef struct {
    hsize_t global[3]; /* grid dimensions */
    hsize_t origin[3]; /* this rank's block origin in the grid */
    hsize_t count[3];  /* this rank's block dimensions */
    size_t cells;      /* count[0] x count[1] x count[2] */
} block_layout;

static block_layout decompose(const vorpal_options *opt)
{
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(kernel.nprocs, 3, dims);
    /* Row-major process coordinates, as MPI_Cart_coords would give. */
    int coords[3] = {kernel.rank / (dims[1] * dims[2]), (kernel.rank / dims[2]) % dims[1],
                     kernel.rank % dims[2]};
    block_layout b = {.cells = 1};
    for (int d = 0; d < 3; d++) {
        b.count[d] = (hsize_t)opt->block[d];
        b.global[d] = (hsize_t)dims[d] * b.count[d];
        b.origin[d] = (hsize_t)coords[d] * b.count[d];
        b.cells *= (size_t)b.count[d];
    }
    return b;
}

/* Field values depend on the global cell index, so they verify regardless of
 * which rank wrote them. */
static void fill_block(double *buf, const block_layout *b, int field, int step)
{
    size_t i = 0;
    for (hsize_t z = 0; z < b->count[0]; z++)
        for (hsize_t y = 0; y < b->count[1]; y++)
            for (hsize_t x = 0; x < b->count[2]; x++) {
                uint64_t cell = ((b->origin[0] + z) * b->global[1] + (b->origin[1] + y)) * b->global[2] +
                                (b->origin[2] + x);
                buf[i++] = kernel_double_value(cell, (uint64_t)field, (uint64_t)step);
            }
}

static void step_file_path(char *path, int step)
{
    kernel_path(path, "vorpal_%04d.h5", step);
}

static void field_name(char *name, size_t size, int field)
{
    snprintf(name, size, "field_%d", field);
}

int main(int argc, char **argv)
{
    vorpal_options opt = {.block = {8, 12, 16}, .fields = 3, .steps = 2};
    const kernel_option options[] = {
        KOPT_INT_OPT("--block-z", &opt.block[0], 1, "cells per rank along z (slowest axis)"),
        KOPT_INT_OPT("--block-y", &opt.block[1], 1, "cells per rank along y"),
        KOPT_INT_OPT("--block-x", &opt.block[2], 1, "cells per rank along x (fastest axis)"),
        KOPT_INT_OPT("--fields", &opt.fields, 1, "3-D field datasets per timestep"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "timesteps (one HDF5 file each)"),
    };
    kernel_init(&argc, &argv, "vorpal-like",
                "VORPAL-IO: 3-D block-decomposed fields, one HDF5 file per timestep, collective hyperslabs.",
                options, sizeof options / sizeof options[0]);

    const block_layout layout = decompose(&opt);
    const size_t block_bytes = layout.cells * sizeof(double);

    hid_t fapl = KH5(H5Pcreate, H5P_FILE_ACCESS);
    KH5(H5Pset_fapl_mpio, fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t dxpl = KH5(H5Pcreate, H5P_DATASET_XFER);
    KH5(H5Pset_dxpl_mpio, dxpl, H5FD_MPIO_COLLECTIVE);
    hid_t filespace = KH5(H5Screate_simple, 3, layout.global, NULL);
    KH5(H5Sselect_hyperslab, filespace, H5S_SELECT_SET, layout.origin, NULL, layout.count, NULL);
    hid_t memspace = KH5(H5Screate_simple, 3, layout.count, NULL);

    double *buf = kernel_alloc(block_bytes);
    double *expected = kernel_alloc(block_bytes);
    char path[KERNEL_PATH_MAX], name[32];

    for (int step = 0; step < opt.steps; step++) {
        step_file_path(path, step);
        hid_t file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
        for (int field = 0; field < opt.fields; field++) {
            field_name(name, sizeof name, field);
            fill_block(buf, &layout, field, step);
            hid_t dset = KH5(H5Dcreate2, file, name, H5T_NATIVE_DOUBLE, filespace, H5P_DEFAULT,
                             H5P_DEFAULT, H5P_DEFAULT);
            KH5_DATA(H5Dwrite, block_bytes, dset, H5T_NATIVE_DOUBLE, memspace, filespace, dxpl, buf);
            KH5(H5Dclose, dset);
        }
        KH5(H5Fclose, file);
    }

    for (int step = 0; step < opt.steps; step++) {
        step_file_path(path, step);
        hid_t file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
        for (int field = 0; field < opt.fields; field++) {
            field_name(name, sizeof name, field);
            hid_t dset = KH5(H5Dopen2, file, name, H5P_DEFAULT);
            KH5_DATA(H5Dread, block_bytes, dset, H5T_NATIVE_DOUBLE, memspace, filespace, dxpl, buf);
            KH5(H5Dclose, dset);
            fill_block(expected, &layout, field, step);
            kernel_check_equal(buf, expected, layout.cells, sizeof(double), "vorpal_%04d.h5/%s", step, name);
        }
        KH5(H5Fclose, file);
    }

    free(buf);
    free(expected);
    KH5(H5Sclose, memspace);
    KH5(H5Sclose, filespace);
    KH5(H5Pclose, dxpl);
    KH5(H5Pclose, fapl);
    return kernel_finish();
}
