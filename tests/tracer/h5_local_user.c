/* h5_local_user.c: a library that uses HDF5, loaded by h5_local.c with
 * dlopen(RTLD_LOCAL) the way Python loads h5py: its HDF5 is in no global
 * scope, yet its H5* calls reach a preloaded tracer's wrappers. */
#include <hdf5.h>

/* Writes 16 ints to PATH:/values and reads them back: 0 when they match. */
int h5_local_round_trip(const char *path)
{
    int out[16], in[16] = {0};
    for (int i = 0; i < 16; i++)
        out[i] = i * i;
    hsize_t n = 16;
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(1, &n, NULL);
    hid_t dset = H5Dcreate2(file, "values", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    herr_t wrote = H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, out);
    herr_t read = H5Dread(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, in);
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    if (file < 0 || dset < 0 || wrote < 0 || read < 0)
        return 1;
    for (int i = 0; i < 16; i++)
        if (in[i] != out[i])
            return 1;
    return 0;
}
