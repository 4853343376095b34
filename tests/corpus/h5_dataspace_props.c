/* h5_dataspace_props: the dataspace and property calls that shape a parallel
 * HDF5 application's I/O, used the way simulation checkpoint writers and
 * their readers (h5bench, VPIC, AMReX-like plotfile writers) use them.
 *   write: a file access list with MPI-IO, H5Pset_alignment (large objects
 *     on 64 KiB boundaries, as on Lustre stripes), H5Pset_meta_block_size,
 *     H5Pset_libver_bounds and, as h5bench does, its metadata cache's
 *     configuration read and set again larger (H5Pget/set_mdc_config); then H5Fset_libver_bounds on the open file, as a
 *     code that switches to the 1.8 format for its readers does. A group
 *     "fields" with an attribute; contiguous datasets with a fill value
 *     (H5Pset_fill_value) and a "units" string attribute; each rank's band of
 *     rows selected as two hyperslabs joined with H5S_SELECT_OR, that
 *     selection copied to a second dataset's space with H5Sselect_copy, and a
 *     third dataset's band made at the origin and moved with
 *     H5Soffset_simple; a chunked, deflated dataset (H5Pset_chunk +
 *     H5Pset_deflate, written collectively: parallel HDF5 1.10.2 and later
 *     write filtered datasets with collective I/O only). Every H5Dwrite is
 *     collective (H5Pset_dxpl_mpio).
 *   read: the file reopened; each rank's band rebuilt with
 *     H5Scombine_hyperslab, the read buffer cleared with H5Dfill through a
 *     memory space whose extent came from H5Sextent_copy; each rank encodes
 *     its selection (H5Sencode), sends it to its right neighbour, which
 *     decodes it (H5Sdecode) and reads that band, as an aggregator reading
 *     for another rank does. Every H5Dread is collective and checked. */
#include "corpus_h5.h"


enum { ROWS = 8, COLS = 16 }; /* each rank's band: ROWS x COLS doubles */

/* Each dataset's value at (row i, column j), exactly representable. */
static double temperature(hsize_t i, hsize_t j)
{
    return (double)(i * 1000 + j);
}
static double pressure(hsize_t i, hsize_t j)
{
    return -(double)(i * 1000 + j);
}
static double density(hsize_t i, hsize_t j)
{
    return (double)i + (double)j / 64;
}
static double compressed(hsize_t i, hsize_t j)
{
    return (double)(i % 4 + j % 2);
}

typedef double (*field_fn)(hsize_t, hsize_t);

static void fill_band(double *buf, int band, field_fn f)
{
    for (hsize_t i = 0; i < ROWS; i++)
        for (hsize_t j = 0; j < COLS; j++)
            buf[i * COLS + j] = f((hsize_t)band * ROWS + i, j);
}

static void check_band(const double *buf, int band, field_fn f, const char *what)
{
    for (hsize_t i = 0; i < ROWS; i++)
        for (hsize_t j = 0; j < COLS; j++)
            if (buf[i * COLS + j] != f((hsize_t)band * ROWS + i, j))
                corpus_fail("%s: band %d row %llu column %llu is %g, expected %g", what, band,
                            (unsigned long long)i, (unsigned long long)j, buf[i * COLS + j],
                            f((hsize_t)band * ROWS + i, j));
}

/* Rank `band`'s rows, as two halves joined with H5S_SELECT_OR. */
static void select_band(hid_t space, int band)
{
    hsize_t start[2] = {(hsize_t)band * ROWS, 0}, count[2] = {1, 1}, block[2] = {ROWS / 2, COLS};
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, block));
    start[0] += ROWS / 2;
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_OR, start, NULL, count, block));
}

static void string_attribute(hid_t obj, const char *name, const char *value)
{
    hid_t type = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(type, strlen(value) + 1));
    hid_t scalar = H5OK(H5Screate(H5S_SCALAR));
    hid_t attr = H5OK(H5Acreate2(obj, name, type, scalar, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Awrite(attr, type, value));
    H5OK(H5Aclose(attr));
    H5OK(H5Sclose(scalar));
    H5OK(H5Tclose(type));
}

static hid_t create_dataset(hid_t loc, const char *name, hid_t space, hid_t dcpl)
{
    hid_t dset = H5OK(H5Dcreate2(loc, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    string_attribute(dset, "units", "SI");
    return dset;
}

static hid_t file_access(void)
{
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    H5OK(H5Pset_alignment(fapl, 4096, 65536));
    H5OK(H5Pset_meta_block_size(fapl, 8192));
    H5OK(H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST));
    /* h5bench's tuning of the metadata cache: its configuration read, changed, set */
    H5AC_cache_config_t mdc = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};
    H5OK(H5Pget_mdc_config(fapl, &mdc));
    mdc.set_initial_size = 1;
    mdc.initial_size = 16 * 1024 * 1024;
    H5OK(H5Pset_mdc_config(fapl, &mdc));
    return fapl;
}

static void write_file(const char *path, hid_t dxpl)
{
    const hsize_t dims[2] = {(hsize_t)corpus_size * ROWS, COLS}, mdims[2] = {ROWS, COLS};
    double buf[ROWS * COLS];
    hid_t fapl = file_access();
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    H5OK(H5Fset_libver_bounds(file, H5F_LIBVER_V18, H5F_LIBVER_LATEST));
    hid_t group = H5OK(H5Gcreate2(file, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hid_t scalar = H5OK(H5Screate(H5S_SCALAR));
    hid_t step_attr = H5OK(H5Acreate2(group, "step", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT));
    int step = 42;
    H5OK(H5Awrite(step_attr, H5T_NATIVE_INT, &step));
    H5OK(H5Aclose(step_attr));
    H5OK(H5Sclose(scalar));

    const double fill = -1.0;
    hid_t dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    H5OK(H5Pset_fill_value(dcpl, H5T_NATIVE_DOUBLE, &fill));
    hid_t mspace = H5OK(H5Screate_simple(2, mdims, NULL));

    /* temperature: the band as two OR'ed hyperslabs */
    hid_t tspace = H5OK(H5Screate_simple(2, dims, NULL));
    select_band(tspace, corpus_rank);
    hid_t tset = create_dataset(group, "temperature", tspace, dcpl);
    fill_band(buf, corpus_rank, temperature);
    H5OK(H5Dwrite(tset, H5T_NATIVE_DOUBLE, mspace, tspace, dxpl, buf));

    /* pressure: the same selection, copied */
    hid_t pspace = H5OK(H5Screate_simple(2, dims, NULL));
    H5OK(H5Sselect_copy(pspace, tspace));
    hid_t pset = create_dataset(group, "pressure", pspace, dcpl);
    fill_band(buf, corpus_rank, pressure);
    H5OK(H5Dwrite(pset, H5T_NATIVE_DOUBLE, mspace, pspace, dxpl, buf));

    /* density: the band selected at the origin, then offset to this rank's rows */
    hid_t dspace = H5OK(H5Screate_simple(2, dims, NULL));
    select_band(dspace, 0);
    const hssize_t offset[2] = {(hssize_t)corpus_rank * ROWS, 0};
    H5OK(H5Soffset_simple(dspace, offset));
    hid_t dset = create_dataset(group, "density", dspace, dcpl);
    fill_band(buf, corpus_rank, density);
    H5OK(H5Dwrite(dset, H5T_NATIVE_DOUBLE, mspace, dspace, dxpl, buf));

    /* compressed: chunked (one band a chunk) and deflated */
    hid_t zcpl = H5OK(H5Pcopy(dcpl));
    H5OK(H5Pset_chunk(zcpl, 2, mdims));
    H5OK(H5Pset_deflate(zcpl, 6));
    hid_t zspace = H5OK(H5Screate_simple(2, dims, NULL));
    select_band(zspace, corpus_rank);
    hid_t zset = create_dataset(file, "compressed", zspace, zcpl);
    fill_band(buf, corpus_rank, compressed);
    H5OK(H5Dwrite(zset, H5T_NATIVE_DOUBLE, mspace, zspace, dxpl, buf));

    H5OK(H5Dclose(zset));
    H5OK(H5Dclose(dset));
    H5OK(H5Dclose(pset));
    H5OK(H5Dclose(tset));
    H5OK(H5Sclose(zspace));
    H5OK(H5Sclose(dspace));
    H5OK(H5Sclose(pspace));
    H5OK(H5Sclose(tspace));
    H5OK(H5Sclose(mspace));
    H5OK(H5Pclose(zcpl));
    H5OK(H5Pclose(dcpl));
    H5OK(H5Gclose(group));
    H5OK(H5Fclose(file));
    H5OK(H5Pclose(fapl));
}

/* Reads `name` through the file selection `fspace` into a cleared buffer and checks band `band`. */
static void read_band(hid_t loc, const char *name, hid_t fspace, hid_t mspace, hid_t dxpl, int band,
                      field_fn f)
{
    double buf[ROWS * COLS];
    const double sentinel = 1e300;
    H5OK(H5Dfill(&sentinel, H5T_NATIVE_DOUBLE, buf, H5T_NATIVE_DOUBLE, mspace));
    hid_t dset = H5OK(H5Dopen2(loc, name, H5P_DEFAULT));
    H5OK(H5Dread(dset, H5T_NATIVE_DOUBLE, mspace, fspace, dxpl, buf));
    H5OK(H5Dclose(dset));
    check_band(buf, band, f, name);
}

static void read_file(const char *path, hid_t dxpl)
{
    const hsize_t mdims[2] = {ROWS, COLS};
    hid_t fapl = file_access();
    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, fapl));
    hid_t group = H5OK(H5Gopen2(file, "fields", H5P_DEFAULT));

    /* The memory space's extent, copied from a band-sized template. */
    hid_t band_shape = H5OK(H5Screate_simple(2, mdims, NULL));
    hid_t mspace = H5OK(H5Screate(H5S_SIMPLE));
    H5OK(H5Sextent_copy(mspace, band_shape));
    H5OK(H5Sselect_all(mspace));

    /* This rank's band: the first half selected, the second combined in. */
    hid_t dset = H5OK(H5Dopen2(group, "temperature", H5P_DEFAULT));
    hid_t fspace = H5OK(H5Dget_space(dset));
    H5OK(H5Dclose(dset));
    hsize_t start[2] = {(hsize_t)corpus_rank * ROWS, 0}, count[2] = {1, 1}, block[2] = {ROWS / 2, COLS};
    H5OK(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, block));
    start[0] += ROWS / 2;
    hid_t mine = H5OK(H5Scombine_hyperslab(fspace, H5S_SELECT_OR, start, NULL, count, block));
    read_band(group, "temperature", mine, mspace, dxpl, corpus_rank, temperature);
    read_band(group, "density", mine, mspace, dxpl, corpus_rank, density);
    read_band(file, "compressed", mine, mspace, dxpl, corpus_rank, compressed);

    /* The left neighbour's selection, encoded there and decoded here. */
    size_t size = 0;
    H5OK(H5Sencode(mine, NULL, &size));
    unsigned char *mine_encoded = malloc(size), *theirs_encoded = malloc(size);
    if (!mine_encoded || !theirs_encoded)
        corpus_fail("out of memory");
    H5OK(H5Sencode(mine, mine_encoded, &size));
    int right = (corpus_rank + 1) % corpus_size, left = (corpus_rank + corpus_size - 1) % corpus_size;
    MPI_CHECK(MPI_Sendrecv(mine_encoded, (int)size, MPI_BYTE, right, 0, theirs_encoded, (int)size, MPI_BYTE,
                           left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    hid_t theirs = H5OK(H5Sdecode(theirs_encoded));
    read_band(group, "pressure", theirs, mspace, dxpl, left, pressure);
    free(mine_encoded);
    free(theirs_encoded);

    H5OK(H5Sclose(theirs));
    H5OK(H5Sclose(mine));
    H5OK(H5Sclose(fspace));
    H5OK(H5Sclose(mspace));
    H5OK(H5Sclose(band_shape));
    H5OK(H5Gclose(group));
    H5OK(H5Fclose(file));
    H5OK(H5Pclose(fapl));
}

int main(int argc, char **argv)
{
    char path[CORPUS_PATH_MAX];
    corpus_init(&argc, &argv, "h5_dataspace_props");
    corpus_path(path, "fields.h5");
    hid_t dxpl = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    write_file(path, dxpl);
    read_file(path, dxpl);
    H5OK(H5Pclose(dxpl));
    return corpus_finish();
}
