/* h5_netcdf_like: HDF5 called the way netCDF-4 calls it (nc_create_par,
 * nc_def_dim, nc_def_var, nc_put_att, nc_enddef, nc_put_vara), without
 * netCDF: a file whose root group tracks and indexes link and attribute
 * creation order; the root's _NCProperties (a fixed-length string), a
 * variable-length string attribute, an array of them and a compound one;
 * two dimension-scale datasets (CLASS, NAME, _Netcdf4Dimid); a variable
 * with a fill value (H5Pset_fill_value), a "units" string and a
 * DIMENSION_LIST attribute, a variable-length sequence of object
 * references to its dimensions (what H5DSattach_scale writes); then, as
 * netCDF does when it opens a file, H5Aiterate2 over the variable's
 * attributes by creation order with an operator that stops at the second
 * (returns 1), and H5Literate over the root's links, stopped at the first;
 * every rank writes its band of rows collectively. */
#include "corpus_h5.h"

enum { ROWS = 4, COLS = 8 }; /* each rank's band */

/* An attribute of type and dataspace (which it closes) holding value, as nc_put_att writes one. */
static void write_attribute(hid_t loc, const char *name, hid_t type, hid_t space, const void *value)
{
    hid_t attr = H5OK(H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Awrite(attr, type, value));
    H5OK(H5Aclose(attr));
    H5OK(H5Sclose(space));
}

static void string_attribute(hid_t loc, const char *name, const char *value)
{
    hid_t type = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(type, strlen(value)));
    H5OK(H5Tset_strpad(type, H5T_STR_NULLTERM));
    write_attribute(loc, name, type, H5OK(H5Screate(H5S_SCALAR)), value);
    H5OK(H5Tclose(type));
}

static void int_attribute(hid_t loc, const char *name, int value)
{
    write_attribute(loc, name, H5T_NATIVE_INT, H5OK(H5Screate(H5S_SCALAR)), &value);
}

/* n variable-length strings (h5py's and netCDF's NC_STRING attributes). */
static void vlen_strings_attribute(hid_t loc, const char *name, const char **values, hsize_t n)
{
    hid_t type = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(type, H5T_VARIABLE));
    write_attribute(loc, name, type, H5OK(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL)),
                    values);
    H5OK(H5Tclose(type));
}

static void root_attributes(hid_t file)
{
    string_attribute(file, "_NCProperties", "version=2,netcdf=4.9.2,hdf5=1.10.8");
    const char *title = "a netCDF-4-like file";
    vlen_strings_attribute(file, "title", &title, 1);
    const char *history[] = {"created", "written by 4 ranks", ""};
    vlen_strings_attribute(file, "history", history, 3);
    struct cell {
        int index;
        double weight;
        char tag[6];
    } cells[2] = {{1, 0.5, "left"}, {2, 0.25, "right"}};
    hid_t tag = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(tag, sizeof cells[0].tag));
    hid_t type = H5OK(H5Tcreate(H5T_COMPOUND, sizeof(struct cell)));
    H5OK(H5Tinsert(type, "index", HOFFSET(struct cell, index), H5T_NATIVE_INT));
    H5OK(H5Tinsert(type, "weight", HOFFSET(struct cell, weight), H5T_NATIVE_DOUBLE));
    H5OK(H5Tinsert(type, "tag", HOFFSET(struct cell, tag), tag));
    hsize_t two = 2;
    write_attribute(file, "cells", type, H5OK(H5Screate_simple(1, &two, NULL)), cells);
    H5OK(H5Tclose(type));
    H5OK(H5Tclose(tag));
}

/* nc_def_dim: a dataset of the dimension's length that is a dimension scale. */
static void dimension(hid_t file, const char *name, hsize_t len, int id)
{
    hid_t dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    H5OK(H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    hid_t space = H5OK(H5Screate_simple(1, &len, NULL));
    hid_t dset = H5OK(H5Dcreate2(file, name, H5T_IEEE_F32BE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    string_attribute(dset, "CLASS", "DIMENSION_SCALE");
    string_attribute(dset, "NAME", "This is a netCDF dimension but not a netCDF variable.");
    int_attribute(dset, "_Netcdf4Dimid", id);
    H5OK(H5Dclose(dset));
    H5OK(H5Sclose(space));
    H5OK(H5Pclose(dcpl));
}

/* DIMENSION_LIST: one sequence per dimension of the variable, each one reference to its scale. */
static void dimension_list(hid_t file, hid_t var, const char *const *dims, hsize_t ndims)
{
    hobj_ref_t refs[2];
    hvl_t lists[2];
    for (hsize_t d = 0; d < ndims; d++) {
        H5OK(H5Rcreate(&refs[d], file, dims[d], H5R_OBJECT, -1));
        lists[d] = (hvl_t){1, &refs[d]};
    }
    hid_t type = H5OK(H5Tvlen_create(H5T_STD_REF_OBJ));
    write_attribute(var, "DIMENSION_LIST", type, H5OK(H5Screate_simple(1, &ndims, NULL)), lists);
    H5OK(H5Tclose(type));
}

/* Counts the attributes it is shown and stops at the second (returns 1). */
static herr_t second_attribute(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    (void)loc, (void)name, (void)info;
    return ++*(int *)data == 2 ? 1 : 0;
}

/* Stops at the first link (netCDF looks for one object, then stops). */
static herr_t first_link(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)group, (void)name, (void)info;
    ++*(int *)data;
    return 1;
}

int main(int argc, char **argv)
{
    char path[CORPUS_PATH_MAX];
    corpus_init(&argc, &argv, "h5_netcdf_like");
    corpus_path(path, "netcdf4.h5");
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    hid_t fcpl = H5OK(H5Pcreate(H5P_FILE_CREATE));
    H5OK(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    H5OK(H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl));
    root_attributes(file);

    hsize_t dims[2] = {(hsize_t)ROWS * (hsize_t)corpus_size, COLS};
    dimension(file, "y", dims[0], 0);
    dimension(file, "x", dims[1], 1);
    hid_t dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    H5OK(H5Pset_attr_creation_order(dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    double fill = -999.0;
    H5OK(H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &fill));
    hid_t space = H5OK(H5Screate_simple(2, dims, NULL));
    hid_t var = H5OK(H5Dcreate2(file, "temp", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    string_attribute(var, "units", "K");
    int_attribute(var, "_Netcdf4Coordinates", 1);
    const char *const dim_names[] = {"/y", "/x"};
    dimension_list(file, var, dim_names, 2);

    int seen = 0;
    H5OK(H5Aiterate2(var, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, second_attribute, &seen));
    if (seen != 2)
        corpus_fail("H5Aiterate2 called its operator %d times, not 2", seen);
    int links = 0;
    H5OK(H5Literate(file, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, first_link, &links));
    if (links != 1)
        corpus_fail("H5Literate called its operator %d times, not 1", links);

    double band[ROWS][COLS];
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            band[i][j] = corpus_rank * 100 + i * COLS + j;
    hsize_t start[2] = {(hsize_t)ROWS * (hsize_t)corpus_rank, 0}, count[2] = {ROWS, COLS};
    hid_t mem = H5OK(H5Screate_simple(2, count, NULL));
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t dxpl = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    H5OK(H5Dwrite(var, H5T_NATIVE_DOUBLE, mem, space, dxpl, band));

    H5OK(H5Pclose(dxpl));
    H5OK(H5Sclose(mem));
    H5OK(H5Sclose(space));
    H5OK(H5Dclose(var));
    H5OK(H5Pclose(dcpl));
    H5OK(H5Pclose(fcpl));
    H5OK(H5Pclose(fapl));
    H5OK(H5Fclose(file));
    return corpus_finish();
}
