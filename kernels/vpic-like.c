/* vpic-like: the HDF5 output pattern of VPIC-IO (the plasma-physics particle
 * kernel of Behzad et al., "Automatic Generation of I/O Kernels"). Every rank
 * owns a contiguous run of particles; each timestep is a group holding eight
 * 1-D datasets (x, y, z, px, py, pz as float, id1, id2 as int) written
 * collectively, each rank into its slab at offset rank x particles. The file
 * is then reopened and every slab read back and compared.
 *
 * --scaling weak (default): --particles per rank, so the datasets hold
 * N x particles elements. --scaling strong: the datasets hold
 * --total-particles elements whatever N, and each rank owns total/N of them
 * (offset rank x total/N); N must divide the total. */
#include "kernel_h5.h"

#include <stdlib.h>

static const char SUMMARY[] =
    "VPIC-IO: 8 particle variables per timestep group, collective 1-D slabs in one HDF5 file.";

enum { NUM_VARIABLES = 8, NUM_FLOAT_VARIABLES = 6 };

static const char *const variable_names[NUM_VARIABLES] = {"x", "y", "z", "px", "py", "pz", "id1", "id2"};

typedef struct {
    int particles; /* per rank (under strong scaling: total_particles / N) */
    int steps;
    const char *scaling;
    int total_particles; /* strong scaling: elements per dataset */
} vpic_options;

/* The value of variable `var` for global particle `particle` at `step`: it
 * depends only on global coordinates, so any decomposition verifies. */
static void fill_variable(void *buf, int var, int step, hsize_t first_particle, int count)
{
    for (int i = 0; i < count; i++) {
        uint64_t particle = first_particle + (uint64_t)i;
        if (var < NUM_FLOAT_VARIABLES)
            ((float *)buf)[i] = kernel_float_value(particle, (uint64_t)var, (uint64_t)step);
        else
            ((int *)buf)[i] = kernel_int_value(particle, (uint64_t)var, (uint64_t)step);
    }
}

static hid_t memory_type(int var)
{
    return var < NUM_FLOAT_VARIABLES ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT;
}

/* A file-access list for MPI-IO with collective metadata reads and writes. */
static hid_t create_mpio_fapl(void)
{
    hid_t fapl = kernel_h5_mpio_fapl();
    KH5(H5Pset_coll_metadata_write, fapl, 1);
    KH5(H5Pset_all_coll_metadata_ops, fapl, 1);
    return fapl;
}

static void step_group_name(char *name, size_t size, int step)
{
    snprintf(name, size, "Timestep_%d", step);
}

static void write_file(const char *path, const vpic_options *opt, hid_t fapl, hid_t dxpl,
                       hid_t filespace, hid_t memspace, hsize_t my_offset, void *buf)
{
    hid_t file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    const size_t slab_bytes = (size_t)opt->particles * 4; /* float and int are both 4 bytes */
    for (int step = 0; step < opt->steps; step++) {
        char group_name[32];
        step_group_name(group_name, sizeof group_name, step);
        hid_t group = KH5(H5Gcreate2, file, group_name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        for (int var = 0; var < NUM_VARIABLES; var++) {
            fill_variable(buf, var, step, my_offset, opt->particles);
            hid_t dset = KH5(H5Dcreate2, group, variable_names[var], memory_type(var), filespace,
                             H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
            KH5_DATA(H5Dwrite, slab_bytes, dset, memory_type(var), memspace, filespace, dxpl, buf);
            KH5(H5Dclose, dset);
        }
        KH5(H5Gclose, group);
    }
    KH5(H5Fclose, file);
}

static void read_and_verify(const char *path, const vpic_options *opt, hid_t fapl, hid_t dxpl,
                            hid_t filespace, hid_t memspace, hsize_t my_offset, void *buf,
                            void *expected)
{
    hid_t file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
    const size_t slab_bytes = (size_t)opt->particles * 4;
    for (int step = 0; step < opt->steps; step++) {
        char group_name[32];
        step_group_name(group_name, sizeof group_name, step);
        hid_t group = KH5(H5Gopen2, file, group_name, H5P_DEFAULT);
        for (int var = 0; var < NUM_VARIABLES; var++) {
            hid_t dset = KH5(H5Dopen2, group, variable_names[var], H5P_DEFAULT);
            KH5_DATA(H5Dread, slab_bytes, dset, memory_type(var), memspace, filespace, dxpl, buf);
            KH5(H5Dclose, dset);
            fill_variable(expected, var, step, my_offset, opt->particles);
            kernel_check_equal(buf, expected, (size_t)opt->particles, 4, "Step#%d/%s", step,
                               variable_names[var]);
        }
        KH5(H5Gclose, group);
    }
    KH5(H5Fclose, file);
}

int main(int argc, char **argv)
{
    /* 12288 = 2^12 x 3: divisible by every N in {1, 2, 3, 4, 6, 8, 12, 16}. */
    vpic_options opt = {.particles = 4096, .steps = 2, .scaling = "weak", .total_particles = 12288};
    const kernel_option options[] = {
        KOPT_SCALING_OPT(&opt.scaling),
        KOPT_WEAK_INT_OPT("--particles", &opt.particles, 1, "weak: particles per rank"),
        KOPT_STRONG_INT_OPT("--total-particles", &opt.total_particles, 1,
                            "strong: particles in all (total/N per rank; N must divide it)"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "timesteps (one HDF5 group each)"),
    };
    kernel_init(&argc, &argv, "vpic-like", SUMMARY, options, KOPT_COUNT(options));
    if (kernel_parse_scaling(opt.scaling) == KERNEL_SCALING_STRONG)
        opt.particles = kernel_strong_share("--total-particles", opt.total_particles);

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "vpic.h5");
    const hsize_t total = (hsize_t)opt.particles * (hsize_t)kernel.nprocs;
    const hsize_t count = (hsize_t)opt.particles;
    const hsize_t my_offset = (hsize_t)kernel.rank * count;

    hid_t fapl = create_mpio_fapl();
    hid_t dxpl = kernel_h5_dxpl(H5FD_MPIO_COLLECTIVE);
    hid_t filespace, memspace;
    kernel_h5_open_slab(1, &total, &my_offset, &count, &filespace, &memspace);

    void *buf = kernel_alloc((size_t)opt.particles * 4);
    void *expected = kernel_alloc((size_t)opt.particles * 4);
    write_file(path, &opt, fapl, dxpl, filespace, memspace, my_offset, buf);
    read_and_verify(path, &opt, fapl, dxpl, filespace, memspace, my_offset, buf, expected);
    free(buf);
    free(expected);

    kernel_h5_close_slab(filespace, memspace);
    kernel_h5_close_lists(dxpl, fapl);
    return kernel_finish();
}
