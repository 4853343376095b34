/* gcrm-like: the HDF5 output pattern of GCRM-IO (the Global Cloud Resolving
 * Model kernel of Behzad et al., "Automatic Generation of I/O Kernels"). The
 * geodesic mesh is semi-structured, so ranks own uneven numbers of cells
 * (base + (rank*7)%5); global offsets come from MPI_Exscan and the total from
 * MPI_Allreduce. The file holds 1-D mesh variables (cells) written once and
 * 2-D physics variables (cells x layers) per timestep, all collective, with
 * numeric and string attributes on the file and on every dataset. Everything,
 * attributes included, is read back and compared. */
#include "kernel_common.h"

#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- attributes (collective metadata in parallel HDF5: every rank writes
 * the same value) ---- */

static hid_t string_type(size_t length_with_nul)
{
    hid_t type = KH5(H5Tcopy, H5T_C_S1);
    KH5(H5Tset_size, type, length_with_nul);
    return type;
}

static void write_string_attribute(hid_t obj, const char *name, const char *value)
{
    size_t size = strlen(value) + 1;
    hid_t type = string_type(size);
    hid_t space = KH5(H5Screate, H5S_SCALAR);
    hid_t attr = KH5(H5Acreate2, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    KH5_DATA(H5Awrite, size, attr, type, value);
    KH5(H5Aclose, attr);
    KH5(H5Sclose, space);
    KH5(H5Tclose, type);
}

static void write_numeric_attribute(hid_t obj, const char *name, hid_t type, const void *value, size_t size)
{
    hid_t space = KH5(H5Screate, H5S_SCALAR);
    hid_t attr = KH5(H5Acreate2, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    KH5_DATA(H5Awrite, size, attr, type, value);
    KH5(H5Aclose, attr);
    KH5(H5Sclose, space);
}

static void check_string_attribute(hid_t obj, const char *name, const char *want)
{
    size_t size = strlen(want) + 1;
    char got[256] = {0};
    if (size > sizeof got)
        kernel_fail("attribute %s is too long to check", name);
    hid_t type = string_type(size);
    hid_t attr = KH5(H5Aopen, obj, name, H5P_DEFAULT);
    KH5_DATA(H5Aread, size, attr, type, got);
    KH5(H5Aclose, attr);
    KH5(H5Tclose, type);
    kernel_check_equal(got, want, size, 1, "attribute %s", name);
}

static void check_numeric_attribute(hid_t obj, const char *name, hid_t type, const void *want, size_t size)
{
    unsigned char got[16] = {0};
    hid_t attr = KH5(H5Aopen, obj, name, H5P_DEFAULT);
    KH5_DATA(H5Aread, size, attr, type, got);
    KH5(H5Aclose, attr);
    kernel_check_equal(got, want, 1, size, "attribute %s", name);
}

/* ---- datasets ---- */

typedef struct {
    hid_t file, dxpl;
    const mesh_layout *mesh;
    void *buf, *expected;
} gcrm_io;

/* File and memory dataspaces of this rank's rows of a 1-D or 2-D variable. */
static void make_spaces(const gcrm_io *io, const variable *v, hid_t *filespace, hid_t *memspace)
{
    int rank = v->layered ? 2 : 1;
    hsize_t dims[2] = {io->mesh->total_cells, io->mesh->layers};
    hsize_t start[2] = {io->mesh->my_offset, 0};
    hsize_t count[2] = {io->mesh->my_cells, io->mesh->layers};
    *filespace = KH5(H5Screate_simple, rank, dims, NULL);
    KH5(H5Sselect_hyperslab, *filespace, H5S_SELECT_SET, start, NULL, count, NULL);
    *memspace = KH5(H5Screate_simple, rank, count, NULL);
}

static size_t selection_bytes(const gcrm_io *io, const variable *v)
{
    return (size_t)io->mesh->my_cells * (v->layered ? (size_t)io->mesh->layers : 1) * type_size(v->type);
}

static void write_variable(const gcrm_io *io, const variable *v, int step)
{
    char name[64];
    dataset_name(name, sizeof name, v, step);
    hid_t filespace, memspace;
    make_spaces(io, v, &filespace, &memspace);
    fill_variable(io->buf, v, step, io->mesh);
    hid_t dset = KH5(H5Dcreate2, io->file, name, native_type(v->type), filespace, H5P_DEFAULT, H5P_DEFAULT,
                     H5P_DEFAULT);
    KH5_DATA(H5Dwrite, selection_bytes(io, v), dset, native_type(v->type), memspace, filespace, io->dxpl,
             io->buf);
    write_string_attribute(dset, "units", v->units);
    write_numeric_attribute(dset, "missing_value", H5T_NATIVE_DOUBLE, &MISSING_VALUE, sizeof MISSING_VALUE);
    KH5(H5Dclose, dset);
    KH5(H5Sclose, memspace);
    KH5(H5Sclose, filespace);
}

static void verify_variable(const gcrm_io *io, const variable *v, int step)
{
    char name[64];
    dataset_name(name, sizeof name, v, step);
    hid_t filespace, memspace;
    make_spaces(io, v, &filespace, &memspace);
    hid_t dset = KH5(H5Dopen2, io->file, name, H5P_DEFAULT);
    KH5_DATA(H5Dread, selection_bytes(io, v), dset, native_type(v->type), memspace, filespace, io->dxpl,
             io->buf);
    check_string_attribute(dset, "units", v->units);
    check_numeric_attribute(dset, "missing_value", H5T_NATIVE_DOUBLE, &MISSING_VALUE, sizeof MISSING_VALUE);
    KH5(H5Dclose, dset);
    KH5(H5Sclose, memspace);
    KH5(H5Sclose, filespace);
    fill_variable(io->expected, v, step, io->mesh);
    kernel_check_equal(io->buf, io->expected, selection_bytes(io, v) / type_size(v->type), type_size(v->type),
                       "%s", name);
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
    kernel_init(&argc, &argv, "gcrm-like",
                "GCRM-IO: uneven cells per rank, 1-D and 2-D collective variables with attributes in one HDF5 file.",
                options, sizeof options / sizeof options[0]);

    long long my_cells = opt.cells + (kernel.rank * 7) % 5, my_offset = 0, total = 0;
    MPI_Exscan(&my_cells, &my_offset, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (kernel.rank == 0)
        my_offset = 0; /* MPI_Exscan leaves rank 0's result undefined */
    MPI_Allreduce(&my_cells, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const mesh_layout mesh = {.my_cells = (hsize_t)my_cells, .my_offset = (hsize_t)my_offset,
                              .total_cells = (hsize_t)total, .layers = (hsize_t)opt.layers};

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "gcrm.h5");
    hid_t fapl = KH5(H5Pcreate, H5P_FILE_ACCESS);
    KH5(H5Pset_fapl_mpio, fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t dxpl = KH5(H5Pcreate, H5P_DATASET_XFER);
    KH5(H5Pset_dxpl_mpio, dxpl, H5FD_MPIO_COLLECTIVE);
    const size_t max_bytes = (size_t)my_cells * (size_t)opt.layers * sizeof(double);
    gcrm_io io = {.dxpl = dxpl, .mesh = &mesh, .buf = kernel_alloc(max_bytes),
                  .expected = kernel_alloc(max_bytes)};

    io.file = KH5(H5Fcreate, path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    write_string_attribute(io.file, "title", FILE_TITLE);
    write_numeric_attribute(io.file, "num_cells", H5T_NATIVE_LLONG, &total, sizeof total);
    write_numeric_attribute(io.file, "num_layers", H5T_NATIVE_INT, &opt.layers, sizeof opt.layers);
    for_each_dataset(&io, opt.steps, write_variable);
    KH5(H5Fclose, io.file);

    io.file = KH5(H5Fopen, path, H5F_ACC_RDONLY, fapl);
    check_string_attribute(io.file, "title", FILE_TITLE);
    check_numeric_attribute(io.file, "num_cells", H5T_NATIVE_LLONG, &total, sizeof total);
    check_numeric_attribute(io.file, "num_layers", H5T_NATIVE_INT, &opt.layers, sizeof opt.layers);
    for_each_dataset(&io, opt.steps, verify_variable);
    KH5(H5Fclose, io.file);

    free(io.buf);
    free(io.expected);
    KH5(H5Pclose, dxpl);
    KH5(H5Pclose, fapl);
    return kernel_finish();
}
