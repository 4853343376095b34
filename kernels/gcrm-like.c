/* gcrm-like: the HDF5 output pattern of GCRM-IO (the Global Cloud Resolving
 * Model kernel of Behzad et al., "Automatic Generation of I/O Kernels"). The
 * geodesic mesh is semi-structured, so ranks own uneven numbers of cells
 * (base + (rank*7)%5); global offsets come from MPI_Exscan and the total from
 * MPI_Allreduce. The file holds 1-D mesh variables (cells) written once and
 * 2-D physics variables (cells x layers) per timestep, all collective, with
 * numeric and string attributes on the file and on every dataset. Everything,
 * attributes included, is read back and compared. */
#include "kernel_h5.h"

#include <stdlib.h>

static const char SUMMARY[] =
    "GCRM-IO: uneven cells per rank, 1-D and 2-D collective variables with attributes in one HDF5 file.";

typedef struct {
    int cells; /* base cell count; rank r owns base + (r*7)%5 */
    int layers;
    int steps;
} gcrm_options;

typedef enum { VAR_INT, VAR_FLOAT, VAR_DOUBLE } var_type;

typedef struct {
    const char *name;
    var_type type;
    bool layered;    /* 2-D (cells x layers) and written every step, else 1-D mesh */
    const char *units;
} variable;

static const variable variables[] = {
    {"cell_id", VAR_INT, false, "1"},
    {"cell_area", VAR_DOUBLE, false, "m2"},
    {"pressure", VAR_DOUBLE, true, "Pa"},
    {"temperature", VAR_FLOAT, true, "K"},
};
enum { NUM_VARIABLES = sizeof variables / sizeof variables[0] };

static const char FILE_TITLE[] = "gcrm-like: semi-structured geodesic mesh";
static const double MISSING_VALUE = -9999.0;

typedef struct {
    hsize_t my_cells, my_offset, total_cells;
    hsize_t layers;
} mesh_layout;

static hid_t native_type(var_type t)
{
    return t == VAR_INT ? H5T_NATIVE_INT : t == VAR_FLOAT ? H5T_NATIVE_FLOAT : H5T_NATIVE_DOUBLE;
}

static size_t type_size(var_type t)
{
    return t == VAR_DOUBLE ? 8 : 4;
}

static void dataset_name(char *name, size_t size, const variable *v, int step)
{
    if (v->layered)
        snprintf(name, size, "%s_t%d", v->name, step);
    else
        snprintf(name, size, "%s", v->name);
}

/* Values depend on (global cell, layer, variable, step) only. */
static void fill_variable(void *buf, const variable *v, int step, const mesh_layout *m)
{
    hsize_t layers = v->layered ? m->layers : 1;
    size_t var_index = (size_t)(v - variables);
    for (hsize_t c = 0; c < m->my_cells; c++)
        for (hsize_t l = 0; l < layers; l++) {
            uint64_t key = (m->my_offset + c) * layers + l;
            size_t i = (size_t)(c * layers + l);
            switch (v->type) {
            case VAR_INT: ((int *)buf)[i] = kernel_int_value(key, var_index, (uint64_t)step); break;
            case VAR_FLOAT: ((float *)buf)[i] = kernel_float_value(key, var_index, (uint64_t)step); break;
            case VAR_DOUBLE: ((double *)buf)[i] = kernel_double_value(key, var_index, (uint64_t)step); break;
            }
        }
}

/* ---- datasets ---- */

typedef struct {
    hid_t file, dxpl;
    const mesh_layout *mesh;
    void *buf, *expected;
} gcrm_io;

/* One dataset of a variable as this rank accesses it: its name, the file
 * and memory dataspaces of this rank's rows, and the bytes they select. */
typedef struct {
    char name[64];
    hid_t type;
    hid_t filespace, memspace;
    size_t bytes;
} dataset_access;

static dataset_access open_access(const gcrm_io *io, const variable *v, int step)
{
    dataset_access a = {.type = native_type(v->type)};
    dataset_name(a.name, sizeof a.name, v, step);
    int rank = v->layered ? 2 : 1;
    hsize_t dims[2] = {io->mesh->total_cells, io->mesh->layers};
    hsize_t start[2] = {io->mesh->my_offset, 0};
    hsize_t count[2] = {io->mesh->my_cells, io->mesh->layers};
    kernel_h5_open_slab(rank, dims, start, count, &a.filespace, &a.memspace);
    a.bytes = (size_t)io->mesh->my_cells * (v->layered ? (size_t)io->mesh->layers : 1) * type_size(v->type);
    return a;
}

/* Closes the dataset, then the dataspaces open_access made. */
static void close_access(const dataset_access *a, hid_t dset)
{
    KH5(H5Dclose, dset);
    kernel_h5_close_slab(a->filespace, a->memspace);
}

static void write_variable(const gcrm_io *io, const variable *v, int step)
{
    dataset_access a = open_access(io, v, step);
    fill_variable(io->buf, v, step, io->mesh);
    hid_t dset =
        KH5(H5Dcreate2, io->file, a.name, a.type, a.filespace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    KH5_DATA(H5Dwrite, a.bytes, dset, a.type, a.memspace, a.filespace, io->dxpl, io->buf);
    kernel_h5_write_string_attribute(dset, "units", v->units);
    kernel_h5_write_attribute(dset, "missing_value", H5T_NATIVE_DOUBLE, &MISSING_VALUE, sizeof MISSING_VALUE);
    close_access(&a, dset);
}

static void verify_variable(const gcrm_io *io, const variable *v, int step)
{
    dataset_access a = open_access(io, v, step);
    hid_t dset = KH5(H5Dopen2, io->file, a.name, H5P_DEFAULT);
    KH5_DATA(H5Dread, a.bytes, dset, a.type, a.memspace, a.filespace, io->dxpl, io->buf);
    kernel_h5_check_string_attribute(dset, "units", v->units);
    kernel_h5_check_attribute(dset, "missing_value", H5T_NATIVE_DOUBLE, &MISSING_VALUE, sizeof MISSING_VALUE);
    close_access(&a, dset);
    fill_variable(io->expected, v, step, io->mesh);
    kernel_check_equal(io->buf, io->expected, a.bytes / type_size(v->type), type_size(v->type), "%s", a.name);
}

/* Runs `visit` on every dataset of the file: mesh variables once, layered
 * variables once per step. */
static void for_each_dataset(const gcrm_io *io, int steps, void (*visit)(const gcrm_io *, const variable *, int))
{
    for (int i = 0; i < NUM_VARIABLES; i++)
        if (!variables[i].layered)
            visit(io, &variables[i], 0);
    for (int step = 0; step < steps; step++)
        for (int i = 0; i < NUM_VARIABLES; i++)
            if (variables[i].layered)
                visit(io, &variables[i], step);
}

int main(int argc, char **argv)
{
    gcrm_options opt = {.cells = 2048, .layers = 8, .steps = 2};
    const kernel_option options[] = {
        KOPT_INT_OPT("--cells", &opt.cells, 1, "base cells per rank (rank r gets base + (r*7)%5)"),
        KOPT_INT_OPT("--layers", &opt.layers, 1, "vertical layers of the 2-D variables"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "timesteps of the 2-D variables"),
    };
    kernel_init(&argc, &argv, "gcrm-like", SUMMARY, options, KOPT_COUNT(options));

    long long my_cells = opt.cells + (kernel.rank * 7) % 5, my_offset = 0, total = 0;
    MPI_Exscan(&my_cells, &my_offset, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (kernel.rank == 0)
        my_offset = 0; /* MPI_Exscan leaves rank 0's result undefined */
    MPI_Allreduce(&my_cells, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const mesh_layout mesh = {.my_cells = (hsize_t)my_cells, .my_offset = (hsize_t)my_offset,
                              .total_cells = (hsize_t)total, .layers = (hsize_t)opt.layers};

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "gcrm.h5");
    hid_t fapl = kernel_h5_mpio_fapl();
    hid_t dxpl = kernel_h5_dxpl(H5FD_MPIO_COLLECTIVE);
    const size_t max_bytes = (size_t)my_cells * (size_t)opt.layers * sizeof(double);
    gcrm_io io = {.dxpl = dxpl, .mesh = &mesh, .buf = kernel_alloc(max_bytes),
                  .expected = kernel_alloc(max_bytes)};

    io.file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    kernel_h5_write_string_attribute(io.file, "title", FILE_TITLE);
    kernel_h5_write_attribute(io.file, "num_cells", H5T_NATIVE_LLONG, &total, sizeof total);
    kernel_h5_write_attribute(io.file, "num_layers", H5T_NATIVE_INT, &opt.layers, sizeof opt.layers);
    for_each_dataset(&io, opt.steps, write_variable);
    KH5(H5Fclose, io.file);

    io.file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
    kernel_h5_check_string_attribute(io.file, "title", FILE_TITLE);
    kernel_h5_check_attribute(io.file, "num_cells", H5T_NATIVE_LLONG, &total, sizeof total);
    kernel_h5_check_attribute(io.file, "num_layers", H5T_NATIVE_INT, &opt.layers, sizeof opt.layers);
    for_each_dataset(&io, opt.steps, verify_variable);
    KH5(H5Fclose, io.file);

    free(io.buf);
    free(io.expected);
    kernel_h5_close_lists(dxpl, fapl);
    return kernel_finish();
}
