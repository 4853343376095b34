/* h5_reader: an HDF5 read benchmark of a file that existed before the run,
 * as h5bench_read, restart readers and analysis codes read one.
 *   h5_reader --setup OUTDIR   (untraced, run_kernel.sh runs it first) rank 0
 *     writes OUTDIR/input.h5 with the 1.8 file format: groups /fields,
 *     /fields/sub and /meta; a named compound datatype /meta/particle_t; a
 *     contiguous double dataset (a "units" string attribute), a chunked float
 *     dataset, a chunked, deflated int64 dataset of unlimited length, a
 *     contiguous dataset of the named compound type; attributes on the root
 *     group and on /fields; a hard link /latest and a soft link /meta/current.
 *   h5_reader OUTDIR   (traced) every rank opens the file with the MPI-IO
 *     driver and collective metadata reads, reads the attributes, then its
 *     band of each dataset: collectively and independently, through the
 *     links too, checks every value; walks /fields by name (H5Literate_by_name,
 *     whose operator opens each member through the group id HDF5 passes it,
 *     as h5dump-like tools and analysis codes walk a file), closes; then
 *     rank 0 closes the file and its access list once more, as h5bench_read
 *     does (both fail). */
#include "corpus.h"

#include <hdf5.h>

enum { ROWS = 8, COLS = 16, PARTICLES = 64, ENERGY = 64 }; /* per rank */

typedef struct particle {
    int id;
    double x, y, z;
    float charge;
} particle;

static hid_t h5_check(hid_t ret, const char *call)
{
    if (ret < 0)
        corpus_fail("%s failed", call);
    return ret;
}
#define H5OK(call) h5_check((hid_t)(call), #call)

static hid_t particle_type(void)
{
    hid_t t = H5OK(H5Tcreate(H5T_COMPOUND, sizeof(particle)));
    H5OK(H5Tinsert(t, "id", HOFFSET(particle, id), H5T_NATIVE_INT));
    H5OK(H5Tinsert(t, "x", HOFFSET(particle, x), H5T_NATIVE_DOUBLE));
    H5OK(H5Tinsert(t, "y", HOFFSET(particle, y), H5T_NATIVE_DOUBLE));
    H5OK(H5Tinsert(t, "z", HOFFSET(particle, z), H5T_NATIVE_DOUBLE));
    H5OK(H5Tinsert(t, "charge", HOFFSET(particle, charge), H5T_NATIVE_FLOAT));
    return t;
}

static double temperature(hsize_t i, hsize_t j)
{
    return (double)(i * 1000 + j);
}

static void attribute(hid_t obj, const char *name, hid_t type, hsize_t n, const void *value)
{
    hid_t space = n ? H5OK(H5Screate_simple(1, &n, NULL)) : H5OK(H5Screate(H5S_SCALAR));
    hid_t attr = H5OK(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Awrite(attr, type, value));
    H5OK(H5Aclose(attr));
    H5OK(H5Sclose(space));
}

static hid_t dataset(hid_t loc, const char *name, hid_t type, int rank, const hsize_t *dims, const hsize_t *max,
                     const hsize_t *chunk, int deflate)
{
    hid_t space = H5OK(H5Screate_simple(rank, dims, max));
    hid_t dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    if (chunk)
        H5OK(H5Pset_chunk(dcpl, rank, chunk));
    if (deflate)
        H5OK(H5Pset_deflate(dcpl, (unsigned)deflate));
    hid_t dset = H5OK(H5Dcreate2(loc, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    H5OK(H5Pclose(dcpl));
    H5OK(H5Sclose(space));
    return dset;
}

static void setup(const char *path, int nranks)
{
    hsize_t rows = (hsize_t)nranks * ROWS, n_energy = (hsize_t)nranks * ENERGY, n_part = (hsize_t)nranks * PARTICLES;
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_LATEST));
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    int step = 42;
    attribute(file, "step", H5T_NATIVE_INT, 0, &step);
    hid_t fields = H5OK(H5Gcreate2(file, "fields", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hid_t sub = H5OK(H5Gcreate2(fields, "sub", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    hid_t meta = H5OK(H5Gcreate2(file, "meta", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    const double origin[3] = {0.5, -1.25, 2};
    attribute(fields, "origin", H5T_NATIVE_DOUBLE, 3, origin);
    hid_t ptype = particle_type();
    H5OK(H5Tcommit2(meta, "particle_t", ptype, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));

    hsize_t dims[2] = {rows, COLS}, chunk[2] = {ROWS, COLS};
    double *t = malloc(rows * COLS * sizeof *t);
    float *p = malloc(rows * COLS * sizeof *p);
    for (hsize_t i = 0; i < rows * COLS; i++) {
        t[i] = temperature(i / COLS, i % COLS);
        p[i] = (float)i / 4;
    }
    hid_t d = dataset(fields, "temperature", H5T_NATIVE_DOUBLE, 2, dims, NULL, NULL, 0);
    hid_t units = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(units, 8));
    static const char kelvin[8] = "kelvin"; /* the attribute's 8 bytes, padded */
    attribute(d, "units", units, 0, kelvin);
    H5OK(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, t));
    H5OK(H5Dclose(d));
    d = dataset(fields, "pressure", H5T_NATIVE_FLOAT, 2, dims, NULL, chunk, 0);
    H5OK(H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, p));
    H5OK(H5Dclose(d));

    hsize_t unlimited = H5S_UNLIMITED, echunk = ENERGY / 2;
    long long *e = malloc(n_energy * sizeof *e);
    for (hsize_t i = 0; i < n_energy; i++)
        e[i] = (long long)(i % 7) * 1000;
    d = dataset(sub, "energy", H5T_NATIVE_LLONG, 1, &n_energy, &unlimited, &echunk, 6);
    H5OK(H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, e));
    H5OK(H5Dclose(d));

    particle *q = malloc(n_part * sizeof *q);
    for (hsize_t i = 0; i < n_part; i++)
        q[i] = (particle){(int)i, (double)i, -(double)i, 0.5 * (double)i, (float)(i % 3)};
    d = dataset(file, "particles", ptype, 1, &n_part, NULL, NULL, 0);
    H5OK(H5Dwrite(d, ptype, H5S_ALL, H5S_ALL, H5P_DEFAULT, q));
    H5OK(H5Dclose(d));

    H5OK(H5Lcreate_hard(file, "fields/temperature", file, "latest", H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Lcreate_soft("/fields/pressure", meta, "current", H5P_DEFAULT, H5P_DEFAULT));
    free(q);
    free(e);
    free(p);
    free(t);
    H5OK(H5Tclose(units));
    H5OK(H5Tclose(ptype));
    H5OK(H5Gclose(meta));
    H5OK(H5Gclose(sub));
    H5OK(H5Gclose(fields));
    H5OK(H5Fclose(file));
    H5OK(H5Pclose(fapl));
}

/* This rank's band of a dataset: rows [rank * per, (rank + 1) * per) of the first dimension. */
static void read_band(hid_t file, const char *name, hid_t memtype, hsize_t per, hid_t dxpl, void *buf)
{
    hid_t d = H5OK(H5Dopen2(file, name, H5P_DEFAULT));
    hid_t fspace = H5OK(H5Dget_space(d));
    hsize_t dims[2] = {0, 0}, start[2] = {(hsize_t)corpus_rank * per, 0}, count[2];
    int rank = H5OK(H5Sget_simple_extent_dims(fspace, dims, NULL));
    count[0] = per;
    count[1] = dims[1];
    H5OK(H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL));
    hid_t mspace = H5OK(H5Screate_simple(rank, count, NULL));
    H5OK(H5Dread(d, memtype, mspace, fspace, dxpl, buf));
    H5OK(H5Sclose(mspace));
    H5OK(H5Sclose(fspace));
    H5OK(H5Dclose(d));
}

static void read_attribute(hid_t loc, const char *obj, const char *name, hid_t type, void *buf)
{
    hid_t attr = H5OK(H5Aopen_by_name(loc, obj, name, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Aread(attr, type, buf));
    H5OK(H5Aclose(attr));
}

/* An operator of the walk over /fields: loc is the group HDF5 opened for
 * it; counts the datasets (whose rank must be 2) and the groups. */
static herr_t count_member(hid_t loc, const char *name, const H5L_info_t *info, void *counts)
{
    (void)info;
    hid_t obj = H5OK(H5Oopen(loc, name, H5P_DEFAULT));
    H5I_type_t type = H5Iget_type(obj);
    if (type == H5I_DATASET) {
        hid_t space = H5OK(H5Dget_space(obj));
        if (H5Sget_simple_extent_ndims(space) != 2)
            corpus_fail("/fields/%s is not 2-D", name);
        H5OK(H5Sclose(space));
    }
    ((int *)counts)[type == H5I_DATASET ? 0 : 1]++;
    H5OK(H5Oclose(obj));
    return 0;
}

static void run(const char *path)
{
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    H5OK(H5Pset_all_coll_metadata_ops(fapl, 1));
    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, fapl));
    hid_t coll = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_dxpl_mpio(coll, H5FD_MPIO_COLLECTIVE));
    int step = 0;
    double origin[3];
    char units[8];
    hid_t utype = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(utype, sizeof units));
    read_attribute(file, ".", "step", H5T_NATIVE_INT, &step);
    read_attribute(file, "fields", "origin", H5T_NATIVE_DOUBLE, origin);
    read_attribute(file, "fields/temperature", "units", utype, units);
    if (step != 42 || origin[1] != -1.25 || strcmp(units, "kelvin"))
        corpus_fail("attributes: step %d, origin[1] %g, units %.8s", step, origin[1], units);
    int members[2] = {0, 0}; /* datasets, groups */
    H5OK(H5Literate_by_name(file, "fields", H5_INDEX_NAME, H5_ITER_INC, NULL, count_member, members, H5P_DEFAULT));
    if (members[0] != 2 || members[1] != 1)
        corpus_fail("/fields: %d datasets and %d groups, not 2 and 1", members[0], members[1]);

    double t[ROWS * COLS];
    float p[ROWS * COLS];
    long long e[ENERGY];
    particle q[PARTICLES];
    hid_t ptype = particle_type();
    read_band(file, "fields/temperature", H5T_NATIVE_DOUBLE, ROWS, coll, t);
    read_band(file, "latest", H5T_NATIVE_DOUBLE, ROWS, H5P_DEFAULT, t);
    read_band(file, "fields/pressure", H5T_NATIVE_FLOAT, ROWS, H5P_DEFAULT, p);
    read_band(file, "meta/current", H5T_NATIVE_FLOAT, ROWS, coll, p);
    read_band(file, "fields/sub/energy", H5T_NATIVE_LLONG, ENERGY, coll, e);
    read_band(file, "particles", ptype, PARTICLES, H5P_DEFAULT, q);
    hsize_t row0 = (hsize_t)corpus_rank * ROWS;
    for (hsize_t i = 0; i < ROWS * COLS; i++)
        if (t[i] != temperature(row0 + i / COLS, i % COLS) || p[i] != (float)(row0 * COLS + i) / 4)
            corpus_fail("band value %llu: temperature %g, pressure %g", (unsigned long long)i, t[i], p[i]);
    for (hsize_t i = 0; i < ENERGY; i++)
        if (e[i] != (long long)((hsize_t)corpus_rank * ENERGY + i) % 7 * 1000)
            corpus_fail("energy %llu is %lld", (unsigned long long)i, e[i]);
    for (int i = 0; i < PARTICLES; i++)
        if (q[i].id != corpus_rank * PARTICLES + i || q[i].x != (double)q[i].id)
            corpus_fail("particle %d: id %d, x %g", i, q[i].id, q[i].x);
    H5OK(H5Tclose(ptype));
    H5OK(H5Tclose(utype));
    H5OK(H5Pclose(coll));
    H5OK(H5Fclose(file));
    H5OK(H5Pclose(fapl));
    /* Closed again, as h5bench_read closes its file and list twice: both fail
     * (HDF5 prints its error stack), and a kernel or replay must fail alike.
     * Rank 0 alone: the stacks of several ranks interleave on stderr. */
    if (corpus_rank == 0 && (H5Fclose(file) >= 0 || H5Pclose(fapl) >= 0))
        corpus_fail("a second close succeeded");
}

int main(int argc, char **argv)
{
    char path[CORPUS_PATH_MAX];
    if (argc == 3 && !strcmp(argv[1], "--setup")) {
        corpus_name = "h5_reader";
        MPI_Init(&argc, &argv);
        MPI_Comm_rank(MPI_COMM_WORLD, &corpus_rank);
        MPI_Comm_size(MPI_COMM_WORLD, &corpus_size);
        corpus_outdir = argv[2];
        corpus_path(path, "input.h5");
        if (corpus_rank == 0 && mkdir(corpus_outdir, 0755) != 0 && errno != EEXIST)
            corpus_fail("mkdir %s: %s", corpus_outdir, strerror(errno));
        if (corpus_rank == 0)
            setup(path, corpus_size);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 0;
    }
    corpus_init(&argc, &argv, "h5_reader");
    corpus_path(path, "input.h5");
    run(path);
    return corpus_finish();
}
