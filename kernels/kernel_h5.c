/* kernel_h5.c: the HDF5 plumbing the HDF5 kernels share (see kernel_h5.h). */
#include "kernel_h5.h"

#include <string.h>

hid_t kernel_h5_mpio_fapl(void)
{
    hid_t fapl = KH5(H5Pcreate, H5P_FILE_ACCESS);
    KH5(H5Pset_fapl_mpio, fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    return fapl;
}

hid_t kernel_h5_dxpl(H5FD_mpio_xfer_t mode)
{
    hid_t dxpl = KH5(H5Pcreate, H5P_DATASET_XFER);
    KH5(H5Pset_dxpl_mpio, dxpl, mode);
    return dxpl;
}

void kernel_h5_close_lists(hid_t dxpl, hid_t fapl)
{
    KH5(H5Pclose, dxpl);
    KH5(H5Pclose, fapl);
}

void kernel_h5_open_slab(int rank, const hsize_t *dims, const hsize_t *start, const hsize_t *count,
                         hid_t *filespace, hid_t *memspace)
{
    *filespace = KH5(H5Screate_simple, rank, dims, NULL);
    KH5(H5Sselect_hyperslab, *filespace, H5S_SELECT_SET, start, NULL, count, NULL);
    *memspace = KH5(H5Screate_simple, rank, count, NULL);
}

void kernel_h5_close_slab(hid_t filespace, hid_t memspace)
{
    KH5(H5Sclose, memspace);
    KH5(H5Sclose, filespace);
}

static hid_t string_type(size_t length_with_nul)
{
    hid_t type = KH5(H5Tcopy, H5T_C_S1);
    KH5(H5Tset_size, type, length_with_nul);
    return type;
}

void kernel_h5_write_attribute(hid_t obj, const char *name, hid_t type, const void *value, size_t size)
{
    hid_t space = KH5(H5Screate, H5S_SCALAR);
    hid_t attr = KH5(H5Acreate2, obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
    KH5_DATA(H5Awrite, size, attr, type, value);
    KH5(H5Aclose, attr);
    KH5(H5Sclose, space);
}

void kernel_h5_write_string_attribute(hid_t obj, const char *name, const char *value)
{
    size_t size = strlen(value) + 1;
    hid_t type = string_type(size);
    kernel_h5_write_attribute(obj, name, type, value, size);
    KH5(H5Tclose, type);
}

/* The longest attribute value the checks below read back. */
enum { ATTRIBUTE_CHECK_MAX = 256 };

static void require_checkable(const char *name, size_t size)
{
    if (size > ATTRIBUTE_CHECK_MAX)
        kernel_fail("attribute %s is too long to check", name);
}

static void read_attribute(hid_t obj, const char *name, hid_t type, void *got, size_t size)
{
    hid_t attr = KH5(H5Aopen, obj, name, H5P_DEFAULT);
    KH5_DATA(H5Aread, size, attr, type, got);
    KH5(H5Aclose, attr);
}

void kernel_h5_check_string_attribute(hid_t obj, const char *name, const char *want)
{
    size_t size = strlen(want) + 1;
    require_checkable(name, size);
    char got[ATTRIBUTE_CHECK_MAX] = {0};
    hid_t type = string_type(size);
    read_attribute(obj, name, type, got, size);
    KH5(H5Tclose, type);
    kernel_check_equal(got, want, size, 1, "attribute %s", name);
}

void kernel_h5_check_attribute(hid_t obj, const char *name, hid_t type, const void *want, size_t size)
{
    require_checkable(name, size);
    unsigned char got[ATTRIBUTE_CHECK_MAX] = {0};
    read_attribute(obj, name, type, got, size);
    kernel_check_equal(got, want, 1, size, "attribute %s", name);
}
