/* netcdf_like.h: HDF5 objects written the way netCDF-4 writes them
 * (nc_put_att, nc_def_dim, H5DSattach_scale), shared by the corpus's
 * netCDF-4-like writer (h5_netcdf_like) and reader (h5_netcdf_reader). */
#ifndef CORPUS_NETCDF_LIKE_H
#define CORPUS_NETCDF_LIKE_H

#include <string.h>

#include "corpus_h5.h"

enum { ROWS = 4, COLS = 8 }; /* each rank's band */

/* An attribute of type and dataspace (which it closes) holding value, as nc_put_att writes one. */
static inline void write_attribute(hid_t loc, const char *name, hid_t type, hid_t space, const void *value)
{
    hid_t attr = H5OK(H5Acreate2(loc, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Awrite(attr, type, value));
    H5OK(H5Aclose(attr));
    H5OK(H5Sclose(space));
}

static inline void string_attribute(hid_t loc, const char *name, const char *value)
{
    hid_t type = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(type, strlen(value)));
    H5OK(H5Tset_strpad(type, H5T_STR_NULLTERM));
    write_attribute(loc, name, type, H5OK(H5Screate(H5S_SCALAR)), value);
    H5OK(H5Tclose(type));
}

static inline void int_attribute(hid_t loc, const char *name, int value)
{
    write_attribute(loc, name, H5T_NATIVE_INT, H5OK(H5Screate(H5S_SCALAR)), &value);
}

/* n variable-length strings (h5py's and netCDF's NC_STRING attributes). */
static inline void vlen_strings_attribute(hid_t loc, const char *name, const char **values, hsize_t n)
{
    hid_t type = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(type, H5T_VARIABLE));
    write_attribute(loc, name, type, H5OK(n == 1 ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL)),
                    values);
    H5OK(H5Tclose(type));
}

static inline void root_attributes(hid_t file)
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
static inline void dimension(hid_t file, const char *name, hsize_t len, int id)
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
static inline void dimension_list(hid_t file, hid_t var, const char *const *dims, hsize_t ndims)
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

/* nc_create_par and nc_def_dim: the file, its root group tracking and indexing creation order, with the
 * root's attributes and the dimension scales y and x of the variable's dims. */
static inline hid_t netcdf_file(const char *path, hid_t fapl, const hsize_t *dims)
{
    hid_t fcpl = H5OK(H5Pcreate(H5P_FILE_CREATE));
    H5OK(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    H5OK(H5Pset_attr_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl));
    H5OK(H5Pclose(fcpl));
    root_attributes(file);
    dimension(file, "y", dims[0], 0);
    dimension(file, "x", dims[1], 1);
    return file;
}

/* nc_def_var and nc_put_att: the variable temp (y, x) with a fill value, units and its DIMENSION_LIST;
 * *dcpl and *space are its creation properties and dataspace, which the caller closes. */
static inline hid_t netcdf_variable(hid_t file, const hsize_t *dims, hid_t *dcpl, hid_t *space)
{
    *dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    H5OK(H5Pset_attr_creation_order(*dcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED));
    double fill = -999.0;
    H5OK(H5Pset_fill_value(*dcpl, H5T_NATIVE_DOUBLE, &fill));
    *space = H5OK(H5Screate_simple(2, dims, NULL));
    hid_t var = H5OK(H5Dcreate2(file, "temp", H5T_IEEE_F64LE, *space, H5P_DEFAULT, *dcpl, H5P_DEFAULT));
    string_attribute(var, "units", "K");
    int_attribute(var, "_Netcdf4Coordinates", 1);
    const char *const dim_names[] = {"/y", "/x"};
    dimension_list(file, var, dim_names, 2);
    return var;
}

/* REFERENCE_LIST on a dimension scale: per variable it is attached to, a reference to the variable and
 * which of its dimensions it is (what H5DSattach_scale writes, a compound of a reference and an int). */
typedef struct reference_entry {
    hobj_ref_t dataset;
    int dimension;
} reference_entry;

static inline void reference_list(hid_t file, hid_t scale, const char *var, int dimension)
{
    reference_entry entry = {0, dimension};
    H5OK(H5Rcreate(&entry.dataset, file, var, H5R_OBJECT, -1));
    hid_t type = H5OK(H5Tcreate(H5T_COMPOUND, sizeof entry));
    H5OK(H5Tinsert(type, "dataset", HOFFSET(reference_entry, dataset), H5T_STD_REF_OBJ));
    H5OK(H5Tinsert(type, "dimension", HOFFSET(reference_entry, dimension), H5T_NATIVE_INT));
    hsize_t one = 1;
    write_attribute(scale, "REFERENCE_LIST", type, H5OK(H5Screate_simple(1, &one, NULL)), &entry);
    H5OK(H5Tclose(type));
}

#endif
