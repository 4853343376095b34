/* vorpal-like: the HDF5 output pattern of VORPAL-IO (the plasma-simulation
 * kernel of Behzad et al., "Automatic Generation of I/O Kernels"). A 3-D grid
 * is block-decomposed over a px x py x pz process grid (MPI_Dims_create);
 * each timestep goes to its own file holding several 3-D field datasets, and
 * every rank writes its block through a 3-D hyperslab whose origin is
 * coords x block dims, a non-linear function of the rank. Every file is then
 * reopened and each rank's block read back and compared.
 *
 * --proc-dims 1|2|3 (default 3) chooses a 1-D (z slabs), 2-D (z-y pencils) or
 * 3-D process grid, all from MPI_Dims_create(N, ...).
 * --scaling weak (default): the block per rank is fixed (--block-z/y/x), the
 * grid is dims x block. --scaling strong: the grid is fixed (--grid-z/y/x)
 * and each rank's block is grid / dims along every axis, so every grid
 * dimension must be a multiple of the process-grid dimension along it. */
#include "kernel_h5.h"

#include <stdlib.h>

static const char SUMMARY[] =
    "VORPAL-IO: 3-D block-decomposed fields, one HDF5 file per timestep, collective hyperslabs.";

typedef struct {
    int block[3]; /* cells per rank along z, y, x (slowest to fastest) */
    int fields;
    int steps;
    int proc_dims;       /* dimensions of the process grid: 1, 2 or 3 */
    const char *scaling;
    int grid[3];         /* strong scaling: global cells along z, y, x */
} vorpal_options;

typedef struct {
    hsize_t global[3]; /* grid dimensions */
    hsize_t origin[3]; /* this rank's block origin in the grid */
    hsize_t count[3];  /* this rank's block dimensions */
    size_t cells;      /* count[0] x count[1] x count[2] */
} block_layout;

static const char axis_names[3] = {'z', 'y', 'x'};

/* The process grid: MPI_Dims_create over the first proc_dims axes, 1 along
 * the others (dims {0,0,0}, {0,0,1} or {0,1,1} on input). */
static void process_grid(const vorpal_options *opt, int dims[3])
{
    for (int d = 0; d < 3; d++)
        dims[d] = d < opt->proc_dims ? 0 : 1;
    MPI_Dims_create(kernel.nprocs, 3, dims);
}

/* Under strong scaling, the block each rank owns: the fixed grid divided by
 * the process grid, refused unless it divides exactly. */
static void strong_blocks(vorpal_options *opt)
{
    int dims[3];
    process_grid(opt, dims);
    for (int d = 0; d < 3; d++)
        if (opt->grid[d] % dims[d] != 0)
            kernel_scaling_error("the %dx%dx%d grid (z, y, x) cannot be split evenly over the %dx%dx%d "
                                 "process grid MPI_Dims_create gives for N=%d with --proc-dims %d "
                                 "(--grid-%c %d is not a multiple of %d)",
                                 opt->grid[0], opt->grid[1], opt->grid[2], dims[0], dims[1], dims[2],
                                 kernel.nprocs, opt->proc_dims, axis_names[d], opt->grid[d], dims[d]);
    for (int d = 0; d < 3; d++)
        opt->block[d] = opt->grid[d] / dims[d];
}

static block_layout decompose(const vorpal_options *opt)
{
    int dims[3];
    process_grid(opt, dims);
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
    /* The strong grid 48 x 24 x 16 divides evenly for every N in
     * {1, 2, 3, 4, 6, 8, 12, 16} with every --proc-dims: MPI_Dims_create
     * gives at most 16 ranks along z (1-D), 4 x 4 (2-D) or 4 x 2 x 2 (3-D). */
    vorpal_options opt = {.block = {8, 12, 16}, .fields = 3, .steps = 2, .proc_dims = 3, .scaling = "weak",
                          .grid = {48, 24, 16}};
    const kernel_option options[] = {
        KOPT_SCALING_OPT(&opt.scaling),
        KOPT_INT_OPT("--proc-dims", &opt.proc_dims, 1,
                     "process grid from MPI_Dims_create: 1 (z slabs), 2 (z-y pencils) or 3 (blocks)"),
        KOPT_WEAK_INT_OPT("--block-z", &opt.block[0], 1, "weak: cells per rank along z (slowest axis)"),
        KOPT_WEAK_INT_OPT("--block-y", &opt.block[1], 1, "weak: cells per rank along y"),
        KOPT_WEAK_INT_OPT("--block-x", &opt.block[2], 1, "weak: cells per rank along x (fastest axis)"),
        KOPT_STRONG_INT_OPT("--grid-z", &opt.grid[0], 1,
                            "strong: cells in all along z (a multiple of the ranks along z)"),
        KOPT_STRONG_INT_OPT("--grid-y", &opt.grid[1], 1, "strong: cells in all along y"),
        KOPT_STRONG_INT_OPT("--grid-x", &opt.grid[2], 1, "strong: cells in all along x"),
        KOPT_INT_OPT("--fields", &opt.fields, 1, "3-D field datasets per timestep"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "timesteps (one HDF5 file each)"),
    };
    kernel_init(&argc, &argv, "vorpal-like", SUMMARY, options, KOPT_COUNT(options));
    if (opt.proc_dims > 3)
        kernel_usage_error("--proc-dims must be 1, 2 or 3, got %d", opt.proc_dims);
    if (kernel_parse_scaling(opt.scaling) == KERNEL_SCALING_STRONG)
        strong_blocks(&opt);

    const block_layout layout = decompose(&opt);
    const size_t block_bytes = layout.cells * sizeof(double);

    hid_t fapl = kernel_h5_mpio_fapl();
    hid_t dxpl = kernel_h5_dxpl(H5FD_MPIO_COLLECTIVE);
    hid_t filespace, memspace;
    kernel_h5_open_slab(3, layout.global, layout.origin, layout.count, &filespace, &memspace);

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
    kernel_h5_close_slab(filespace, memspace);
    kernel_h5_close_lists(dxpl, fapl);
    return kernel_finish();
}
