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
#include "netcdf_like.h"

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
    hsize_t dims[2] = {(hsize_t)ROWS * (hsize_t)corpus_size, COLS};
    hid_t file = netcdf_file(path, fapl, dims);
    hid_t dcpl, space;
    hid_t var = netcdf_variable(file, dims, &dcpl, &space);

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
    H5OK(H5Pclose(fapl));
    H5OK(H5Fclose(file));
    return corpus_finish();
}
