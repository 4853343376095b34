/* h5_netcdf_reader: a netCDF-4 file made before the run, read in parallel
 * the way nc_open_par reads one, without netCDF.
 *   h5_netcdf_reader --setup OUTDIR   (untraced, run_kernel.sh runs it first)
 *     rank 0 writes OUTDIR/input.h5 as h5_netcdf_like writes its file (root
 *     creation order tracked and indexed, _NCProperties, variable-length
 *     string attributes, a compound one; dimension scales y and x; the
 *     variable temp with a fill value, units, a DIMENSION_LIST of references
 *     to its scales), and on each scale the REFERENCE_LIST that
 *     H5DSattach_scale writes, a compound holding a reference to temp.
 *   h5_netcdf_reader OUTDIR   (traced) every rank opens the file with the
 *     MPI-IO driver; walks the root's links by creation order and its
 *     attributes by creation order, reading every value (variable-length
 *     strings too); opens temp, follows each DIMENSION_LIST reference
 *     (H5Rdereference2) and checks it reaches the scale of that name (the
 *     same object address, as netCDF matches dimensions), and each scale's
 *     REFERENCE_LIST back to temp; keeps a scale's id with H5Iinc_ref
 *     across its close, as netCDF keeps dimension ids; reads its band of
 *     temp collectively and checks every value. */
#include "netcdf_like.h"

/* The file of the setup step, with the values the reader checks. */
static void make_input(const char *outdir)
{
    char path[CORPUS_PATH_MAX];
    corpus_outdir = outdir;
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    corpus_path(path, "input.h5");
    int nranks;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    hsize_t dims[2] = {(hsize_t)ROWS * (hsize_t)nranks, COLS};
    hid_t file = netcdf_file(path, H5P_DEFAULT, dims);
    hid_t dcpl, space;
    hid_t var = netcdf_variable(file, dims, &dcpl, &space);
    const char *const dim_names[] = {"/y", "/x"};
    for (int d = 0; d < 2; d++) {
        hid_t scale = H5OK(H5Dopen2(file, dim_names[d], H5P_DEFAULT));
        reference_list(file, scale, "/temp", d);
        H5OK(H5Dclose(scale));
    }
    double *all = malloc(dims[0] * dims[1] * sizeof *all);
    if (!all)
        corpus_fail("out of memory");
    for (hsize_t k = 0; k < dims[0] * dims[1]; k++)
        all[k] = (double)k;
    H5OK(H5Dwrite(var, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, all));
    free(all);
    H5OK(H5Dclose(var));
    H5OK(H5Sclose(space));
    H5OK(H5Pclose(dcpl));
    H5OK(H5Fclose(file));
}

/* Reads an attribute's value whatever its type, as nc4_read_att does; its elements. */
static herr_t read_attribute(hid_t loc, const char *name, const H5A_info_t *info, void *data)
{
    (void)info;
    hid_t attr = H5OK(H5Aopen(loc, name, H5P_DEFAULT));
    hid_t type = H5OK(H5Aget_type(attr)), space = H5OK(H5Aget_space(attr));
    hid_t mem = H5OK(H5Tget_native_type(type, H5T_DIR_DEFAULT));
    hssize_t n = H5Sget_simple_extent_npoints(space);
    void *value = calloc((size_t)n, H5Tget_size(mem));
    if (!value)
        corpus_fail("out of memory");
    H5OK(H5Aread(attr, mem, value));
    if (H5Tis_variable_str(type) > 0) {
        for (hssize_t k = 0; k < n; k++)
            if (!((char **)value)[k])
                corpus_fail("attribute %s: string %lld is NULL", name, (long long)k);
        H5OK(H5Dvlen_reclaim(mem, space, H5P_DEFAULT, value));
    }
    if (!strcmp(name, "_NCProperties") && strncmp(value, "version=2", 9) != 0)
        corpus_fail("_NCProperties holds \"%.20s\"", (char *)value);
    *(long *)data += (long)n;
    free(value);
    H5OK(H5Tclose(mem));
    H5OK(H5Sclose(space));
    H5OK(H5Tclose(type));
    H5OK(H5Aclose(attr));
    return 0;
}

static herr_t count_link(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)group, (void)name, (void)info;
    ++*(int *)data;
    return 0;
}

/* The address of an object's header: how netCDF tells two handles of one object. */
static haddr_t address(hid_t obj)
{
    H5O_info_t info;
    H5OK(H5Oget_info2(obj, &info, H5O_INFO_BASIC));
    return info.addr;
}

/* Follows temp's DIMENSION_LIST to its scales, which must be y and x. */
static void check_dimension_list(hid_t var, const hid_t *scales)
{
    hid_t attr = H5OK(H5Aopen(var, "DIMENSION_LIST", H5P_DEFAULT));
    hid_t type = H5OK(H5Aget_type(attr)), space = H5OK(H5Aget_space(attr));
    hvl_t lists[2];
    H5OK(H5Aread(attr, type, lists));
    for (int d = 0; d < 2; d++) {
        if (lists[d].len != 1)
            corpus_fail("DIMENSION_LIST[%d] holds %zu references, not 1", d, lists[d].len);
        hid_t scale = H5OK(H5Rdereference2(var, H5P_DEFAULT, H5R_OBJECT, lists[d].p));
        if (address(scale) != address(scales[d]))
            corpus_fail("DIMENSION_LIST[%d] names another object than its scale", d);
        H5OK(H5Dclose(scale));
    }
    H5OK(H5Dvlen_reclaim(type, space, H5P_DEFAULT, lists));
    H5OK(H5Sclose(space));
    H5OK(H5Tclose(type));
    H5OK(H5Aclose(attr));
}

/* Follows a scale's REFERENCE_LIST back to temp. */
static void check_reference_list(hid_t scale, hid_t var, int dimension)
{
    hid_t attr = H5OK(H5Aopen(scale, "REFERENCE_LIST", H5P_DEFAULT));
    hid_t type = H5OK(H5Aget_type(attr));
    reference_entry entry;
    H5OK(H5Aread(attr, type, &entry));
    hid_t back = H5OK(H5Rdereference2(scale, H5P_DEFAULT, H5R_OBJECT, &entry.dataset));
    if (address(back) != address(var) || entry.dimension != dimension)
        corpus_fail("a REFERENCE_LIST names another variable or dimension (%d)", entry.dimension);
    H5OK(H5Dclose(back));
    H5OK(H5Tclose(type));
    H5OK(H5Aclose(attr));
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_input))
        return 0;
    char path[CORPUS_PATH_MAX];
    corpus_init(&argc, &argv, "h5_netcdf_reader");
    corpus_path(path, "input.h5");
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, fapl));
    int links = 0;
    H5OK(H5Literate(file, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, count_link, &links));
    if (links != 3)
        corpus_fail("the root holds %d links, not 3", links);
    long elements = 0;
    H5OK(H5Aiterate2(file, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, read_attribute, &elements));
    if (elements != 1 + 1 + 3 + 2)
        corpus_fail("the root's attributes hold %ld elements, not 7", elements);

    hid_t scales[2] = {H5OK(H5Dopen2(file, "y", H5P_DEFAULT)), H5OK(H5Dopen2(file, "x", H5P_DEFAULT))};
    hid_t var = H5OK(H5Dopen2(file, "temp", H5P_DEFAULT));
    elements = 0;
    H5OK(H5Aiterate2(var, H5_INDEX_CRT_ORDER, H5_ITER_INC, NULL, read_attribute, &elements));
    check_dimension_list(var, scales);
    for (int d = 0; d < 2; d++)
        check_reference_list(scales[d], var, d);
    /* netCDF keeps a dimension's id past the close of the dataset it came from */
    H5OK(H5Iinc_ref(scales[0]));
    H5OK(H5Dclose(scales[0]));
    if (H5Iget_ref(scales[0]) != 1)
        corpus_fail("the kept scale id holds %d references, not 1", H5Iget_ref(scales[0]));

    hsize_t dims[2];
    hid_t space = H5OK(H5Dget_space(var));
    H5OK(H5Sget_simple_extent_dims(space, dims, NULL));
    hsize_t start[2] = {(hsize_t)ROWS * (hsize_t)corpus_rank, 0}, count[2] = {ROWS, COLS};
    hid_t mem = H5OK(H5Screate_simple(2, count, NULL));
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t dxpl = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    double band[ROWS][COLS];
    H5OK(H5Dread(var, H5T_NATIVE_DOUBLE, mem, space, dxpl, band));
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            if (band[i][j] != (double)((start[0] + (hsize_t)i) * dims[1] + (hsize_t)j))
                corpus_fail("temp[%d][%d] holds %g", (int)start[0] + i, j, band[i][j]);

    H5OK(H5Idec_ref(scales[0]));
    H5OK(H5Dclose(scales[1]));
    H5OK(H5Pclose(dxpl));
    H5OK(H5Sclose(mem));
    H5OK(H5Sclose(space));
    H5OK(H5Dclose(var));
    H5OK(H5Pclose(fapl));
    H5OK(H5Fclose(file));
    return corpus_finish();
}
