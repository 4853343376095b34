/* h5_mix: HDF5 calls of the table that the kernels do not make, so their
 * generated replay is exercised too: compound, enum, array and
 * variable-length string types, committed types, links (hard, soft,
 * iteration, deletion), object and group info, point selections, attribute
 * queries and renames, cache configuration, property list queries; a type
 * and a dataset creation list sent through H5Tencode/H5Tdecode and
 * H5Pencode/H5Pdecode, as codes that ship them between ranks do; the
 * predefined types past the first 63 ids (H5T_NATIVE_INT_LEAST16, ...),
 * H5F_OBJ_ALL and the id 0 that HDF5's own Fortran start-up asks about.
 *   mpirun -np N h5_mix OUTDIR        writes OUTDIR/mix.h5
 * Every call is checked; a failure ends the program with a message. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int rank, size;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "h5_mix: rank %d: %s failed\n", rank, what);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static herr_t count_links(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)g;
    (void)name;
    (void)info;
    ++*(int *)data;
    return 0;
}

typedef struct particle {
    double x;
    int id;
    char tag[4];
} particle;

static void types(hid_t file)
{
    hid_t cmp = H5Tcreate(H5T_COMPOUND, sizeof(particle));
    hsize_t four = 4;
    hid_t tag = H5Tarray_create2(H5T_NATIVE_CHAR, 1, &four);
    check(cmp >= 0 && tag >= 0, "H5Tcreate");
    check(H5Tinsert(cmp, "x", HOFFSET(particle, x), H5T_NATIVE_DOUBLE) >= 0, "H5Tinsert");
    check(H5Tinsert(cmp, "id", HOFFSET(particle, id), H5T_NATIVE_INT) >= 0, "H5Tinsert");
    check(H5Tinsert(cmp, "tag", HOFFSET(particle, tag), tag) >= 0, "H5Tinsert");
    check(H5Tcommit2(file, "particle_t", cmp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Tcommit2");
    hid_t colors = H5Tenum_create(H5T_NATIVE_INT);
    int v = 0;
    check(H5Tenum_insert(colors, "red", &v) >= 0, "H5Tenum_insert");
    v = 1;
    check(H5Tenum_insert(colors, "green", &v) >= 0, "H5Tenum_insert");
    check(H5Tcommit2(file, "color_t", colors, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT) >= 0, "H5Tcommit2");
    /* Particles: each rank its slab, picked with a point selection. */
    hsize_t n = 8 * (hsize_t)size, mine = 8;
    hid_t fspace = H5Screate_simple(1, &n, NULL), mspace = H5Screate_simple(1, &mine, NULL);
    hid_t dset = H5Dcreate2(file, "particles", cmp, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(dset >= 0, "H5Dcreate2");
    hsize_t coords[8];
    for (int i = 0; i < 8; i++)
        coords[i] = (hsize_t)rank * 8 + (hsize_t)i;
    hid_t sel = H5Scopy(fspace);
    check(H5Sselect_elements(sel, H5S_SELECT_SET, 8, coords) >= 0, "H5Sselect_elements");
    particle p[8];
    memset(p, 0, sizeof p);
    for (int i = 0; i < 8; i++)
        p[i].id = rank * 8 + i;
    check(H5Dwrite(dset, cmp, mspace, sel, H5P_DEFAULT, p) >= 0, "H5Dwrite");
    check(H5Dread(dset, cmp, mspace, sel, H5P_DEFAULT, p) >= 0 && p[3].id == rank * 8 + 3, "H5Dread");
    check(H5Dget_storage_size(dset) == n * sizeof(particle), "H5Dget_storage_size");
    hid_t back = H5Topen2(file, "particle_t", H5P_DEFAULT);
    check(back >= 0 && H5Tget_class(back) == H5T_COMPOUND && H5Tget_size(back) == sizeof(particle),
          "H5Topen2");
    H5Tclose(back);
    H5Sclose(sel);
    H5Sclose(mspace);
    H5Sclose(fspace);
    H5Dclose(dset);
    H5Tclose(colors);
    H5Tclose(tag);
    H5Tclose(cmp);
}

static void attributes(hid_t file)
{
    hid_t group = H5Gcreate2(file, "meta", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t vstr = H5Tcopy(H5T_C_S1);
    check(group >= 0 && scalar >= 0 && vstr >= 0 && H5Tset_size(vstr, H5T_VARIABLE) >= 0, "H5Tset_size");
    hid_t a = H5Acreate2(group, "comment", vstr, scalar, H5P_DEFAULT, H5P_DEFAULT);
    const char *text = "written by h5_mix";
    check(a >= 0 && H5Awrite(a, vstr, &text) >= 0, "H5Awrite variable-length string");
    H5Aclose(a);
    a = H5Acreate2(group, "version", H5T_NATIVE_INT, scalar, H5P_DEFAULT, H5P_DEFAULT);
    int version = 3;
    check(a >= 0 && H5Awrite(a, H5T_NATIVE_INT, &version) >= 0, "H5Awrite");
    H5Aclose(a);
    check(H5Aexists(group, "version") > 0, "H5Aexists");
    check(H5Arename(group, "version", "revision") >= 0, "H5Arename");
    a = H5Aopen_by_name(file, "meta", "revision", H5P_DEFAULT, H5P_DEFAULT);
    char name[32];
    check(a >= 0 && H5Aget_name(a, sizeof name, name) == 8, "H5Aget_name");
    hid_t atype = H5Aget_type(a), aspace = H5Aget_space(a);
    check(atype >= 0 && aspace >= 0 && H5Aread(a, H5T_NATIVE_INT, &version) >= 0 && version == 3, "H5Aread");
    H5Tclose(atype);
    H5Sclose(aspace);
    H5Aclose(a);
    a = H5Acreate2(group, "scratch", H5T_NATIVE_DOUBLE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    check(a >= 0 && H5Aclose(a) >= 0 && H5Adelete(group, "scratch") >= 0, "H5Adelete");
    check(H5Aget_num_attrs(group) == 2, "H5Aget_num_attrs");
    H5Tclose(vstr);
    H5Sclose(scalar);
    H5Gclose(group);
}

/* What an encoder wrote, decoded again: the dataset made with them must be
 * the original's (h5dump -H of the replay's file shows its type and layout). */
static void encoded(hid_t file)
{
    hid_t cmp = H5Topen2(file, "particle_t", H5P_DEFAULT), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    hsize_t chunk = 4, n = 8 * (hsize_t)size;
    check(cmp >= 0 && dcpl >= 0 && H5Pset_chunk(dcpl, 1, &chunk) >= 0, "H5Pset_chunk");
    size_t tsize = 0, psize = 0;
    check(H5Tencode(cmp, NULL, &tsize) >= 0 && H5Pencode(dcpl, NULL, &psize) >= 0, "H5Tencode size");
    unsigned char *tbuf = malloc(tsize), *pbuf = malloc(psize);
    check(tbuf && pbuf && H5Tencode(cmp, tbuf, &tsize) >= 0 && H5Pencode(dcpl, pbuf, &psize) >= 0,
          "H5Tencode");
    hid_t type = H5Tdecode(tbuf), plist = H5Pdecode(pbuf), space = H5Screate_simple(1, &n, NULL);
    check(type >= 0 && plist >= 0 && H5Tequal(type, cmp) > 0, "H5Tdecode");
    hid_t dset = H5Dcreate2(file, "decoded", type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    check(dset >= 0 && H5Dclose(dset) >= 0, "H5Dcreate2 with decoded type and list");
    free(tbuf);
    free(pbuf);
    /* types named by ids past 63, as file and memory types */
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(file, "least16", H5T_NATIVE_INT_LEAST16, scalar, H5P_DEFAULT, H5P_DEFAULT);
    long long value = 12;
    check(a >= 0 && H5Awrite(a, H5T_NATIVE_INT_FAST64, &value) >= 0 && H5Aclose(a) >= 0, "H5Awrite least16");
    hid_t stamp = H5Tcopy(H5T_UNIX_D64LE);
    check(stamp >= 0 && H5Tclose(stamp) >= 0, "H5Tcopy(H5T_UNIX_D64LE)");
    /* no object has id 0; H5F_OBJ_ALL counts the objects of every open file */
    check(H5Iget_type(0) == H5I_BADID, "H5Iget_type(0)");
    check(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_FILE) == 1, "H5Fget_obj_count(H5F_OBJ_ALL)");
    H5Sclose(scalar);
    H5Sclose(space);
    H5Pclose(plist);
    H5Tclose(type);
    H5Pclose(dcpl);
    H5Tclose(cmp);
}

static void links(hid_t file)
{
    check(H5Lcreate_hard(file, "particles", file, "meta/particles_again", H5P_DEFAULT, H5P_DEFAULT) >= 0,
          "H5Lcreate_hard");
    check(H5Lcreate_soft("/particles", file, "meta/particles_soft", H5P_DEFAULT, H5P_DEFAULT) >= 0,
          "H5Lcreate_soft");
    check(H5Lexists(file, "meta/particles_soft", H5P_DEFAULT) > 0, "H5Lexists");
    hid_t g = H5Gopen2(file, "meta", H5P_DEFAULT);
    int count = 0;
    check(g >= 0 && H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, NULL, count_links, &count) >= 0 && count == 2,
          "H5Literate");
    H5G_info_t ginfo;
    check(H5Gget_info(g, &ginfo) >= 0 && ginfo.nlinks == 2, "H5Gget_info");
    check(H5Ldelete(g, "particles_again", H5P_DEFAULT) >= 0, "H5Ldelete");
    hid_t obj = H5Oopen(file, "particles", H5P_DEFAULT);
    H5O_info_t oinfo;
    check(obj >= 0 && H5Oget_info(obj, &oinfo) >= 0 && oinfo.type == H5O_TYPE_DATASET, "H5Oget_info");
    char name[64];
    check(H5Iget_name(obj, name, sizeof name) > 0 && H5Iget_type(obj) == H5I_DATASET, "H5Iget_name");
    H5Oclose(obj);
    H5Gclose(g);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        fprintf(stderr, "usage: h5_mix OUTDIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        mkdir(argv[1], 0755);
    MPI_Barrier(MPI_COMM_WORLD);
    char path[4096];
    snprintf(path, sizeof path, "%s/mix.h5", argv[1]);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    check(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL) >= 0, "H5Pset_fapl_mpio");
    check(H5Pset_alignment(fapl, 1, 4096) >= 0 &&
              H5Pset_libver_bounds(fapl, H5F_LIBVER_EARLIEST, H5F_LIBVER_LATEST) >= 0,
          "H5Pset_alignment");
    H5AC_cache_config_t config = {.version = H5AC__CURR_CACHE_CONFIG_VERSION};
    check(H5Pget_mdc_config(fapl, &config) >= 0 && H5Pset_mdc_config(fapl, &config) >= 0,
          "H5Pset_mdc_config");
    MPI_Comm comm;
    MPI_Info info;
    check(H5Pget_fapl_mpio(fapl, &comm, &info) >= 0, "H5Pget_fapl_mpio");
    MPI_Comm_free(&comm);
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    check(file >= 0, "H5Fcreate");
    types(file);
    attributes(file);
    encoded(file);
    links(file);
    check(H5Fflush(file, H5F_SCOPE_GLOBAL) >= 0, "H5Fflush");
    char name[4096];
    check(H5Fget_name(file, name, sizeof name) > 0, "H5Fget_name");
    check(H5Fclose(file) >= 0, "H5Fclose");
    check(H5Fis_hdf5(path) > 0, "H5Fis_hdf5");
    H5Pclose(fapl);
    if (rank == 0)
        printf("h5_mix: OK\n");
    MPI_Finalize();
    return 0;
}
