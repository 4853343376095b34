/* kernel_h5.h: what the HDF5 kernels share on top of kernel_common.h — the
 * MPI-IO property lists, this rank's slab of a dataset, and scalar
 * attributes. Every HDF5 call goes through KH5/KH5_DATA, so it is counted
 * for --expect exactly as if the kernel made it itself. */
#ifndef KERNEL_H5_H
#define KERNEL_H5_H

#include "kernel_common.h"

#include <hdf5.h>

/* A file-access property list for MPI-IO on MPI_COMM_WORLD (H5Pcreate +
 * H5Pset_fapl_mpio). */
hid_t kernel_h5_mpio_fapl(void);

/* A dataset-transfer property list with the MPI-IO transfer `mode`
 * (H5Pcreate + H5Pset_dxpl_mpio). */
hid_t kernel_h5_dxpl(H5FD_mpio_xfer_t mode);

/* Closes the two property lists, the transfer list first. */
void kernel_h5_close_lists(hid_t dxpl, hid_t fapl);

/* This rank's slab of a `rank`-dimensional dataset of `dims`: *filespace
 * covers the dataset with the block at `start` of `count` selected, and
 * *memspace is `count` itself. */
void kernel_h5_open_slab(int rank, const hsize_t *dims, const hsize_t *start, const hsize_t *count,
                         hid_t *filespace, hid_t *memspace);

/* Closes what kernel_h5_open_slab made, the memory dataspace first. */
void kernel_h5_close_slab(hid_t filespace, hid_t memspace);

/* Scalar attributes: in parallel HDF5 they are metadata, so every rank
 * writes the same value. A string attribute is a fixed-length C string with
 * its terminating NUL (H5Tcopy(H5T_C_S1) + H5Tset_size). */
void kernel_h5_write_string_attribute(hid_t obj, const char *name, const char *value);
void kernel_h5_write_attribute(hid_t obj, const char *name, hid_t type, const void *value, size_t size);

/* Read back and compared (kernel_check_equal): the string character by
 * character, a number as one element of `size` bytes. */
void kernel_h5_check_string_attribute(hid_t obj, const char *name, const char *want);
void kernel_h5_check_attribute(hid_t obj, const char *name, hid_t type, const void *want, size_t size);

#endif
