/* sample.c: an HDF5 file of every kind of object a skeleton holds, for the
 * h5skel units and bench-h5skel. */
#include "sample.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>

int h5skel_sample_file(const char *path, unsigned ndatasets, int deflate)
{
    enum { N = 64 };
    static float data[N * N];
    for (unsigned i = 0; i < N * N; i++)
        data[i] = (float)(i % 97) / 7;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE), fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_userblock(fcpl, 512);
    H5Pset_sym_k(fcpl, 32, 8);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (file < 0)
        return -1;
    hid_t pair = H5Tcreate(H5T_COMPOUND, 12);
    H5Tinsert(pair, "a", 0, H5T_STD_I32LE);
    H5Tinsert(pair, "b", 4, H5T_IEEE_F64LE);
    H5Tcommit2(file, "pair_t", pair, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hsize_t dims[2] = {N, N}, chunk[2] = {16, N}, small = 8, maxdims[2] = {H5S_UNLIMITED, N};
    hid_t space = H5Screate_simple(2, dims, NULL), grown = H5Screate_simple(2, dims, maxdims);
    hid_t small_space = H5Screate_simple(1, &small, NULL), scalar = H5Screate(H5S_SCALAR);
    hid_t chunked = H5Pcreate(H5P_DATASET_CREATE), compact = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(chunked, 2, chunk);
    H5Pset_shuffle(chunked);
    if (deflate)
        H5Pset_deflate(chunked, 4);
    else
        H5Pset_fletcher32(chunked);
    H5Pset_layout(compact, H5D_COMPACT);
    hid_t group = -1;
    int rc = 0;
    for (unsigned i = 0; i < ndatasets && rc == 0; i++) {
        char name[64];
        if (i % 100 == 0) {
            if (group >= 0)
                H5Gclose(group);
            snprintf(name, sizeof name, "g%03u", i / 100);
            group = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        }
        snprintf(name, sizeof name, "d%04u", i);
        hid_t d;
        if (i % 10 == 9) {
            d = H5Dcreate2(group, name, pair, small_space, H5P_DEFAULT, compact, H5P_DEFAULT);
            rc |= H5Dwrite(d, pair, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0;
        } else {
            int filtered = i % 2;
            d = H5Dcreate2(group, name, H5T_NATIVE_FLOAT, filtered ? grown : space, H5P_DEFAULT,
                           filtered ? chunked : H5P_DEFAULT, H5P_DEFAULT);
            rc |= H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0;
        }
        hid_t a = H5Acreate2(d, "index", H5T_STD_U32LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
        rc |= a < 0 || H5Awrite(a, H5T_NATIVE_UINT, &i) < 0;
        H5Aclose(a);
        rc |= d < 0;
        H5Dclose(d);
    }
    if (group >= 0)
        H5Gclose(group);
    if (ndatasets) {
        rc |= H5Lcreate_hard(file, "g000/d0000", file, "first", H5P_DEFAULT, H5P_DEFAULT) < 0;
        rc |= H5Lcreate_soft("/g000/d0000", file, "alias", H5P_DEFAULT, H5P_DEFAULT) < 0;
    }
    H5Pclose(compact);
    H5Pclose(chunked);
    H5Sclose(scalar);
    H5Sclose(small_space);
    H5Sclose(grown);
    H5Sclose(space);
    H5Tclose(pair);
    rc |= H5Fclose(file) < 0;
    H5Pclose(fapl);
    H5Pclose(fcpl);
    return rc ? -1 : 0;
}
