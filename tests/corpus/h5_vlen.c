/* h5_vlen: variable-length data through parallel HDF5, as netCDF-4 and
 * checkpoint codes that store names and ragged lists write it.
 *   mpiexec -np N h5_vlen OUTDIR
 * OUTDIR/vlen.h5, created by every rank (H5Pset_fapl_mpio): a dataset of
 * LINES variable-length strings (H5Tcopy of H5T_C_S1, H5Tset_size
 * H5T_VARIABLE), one of VOYAGES variable-length sequences of ints
 * (H5Tvlen_create), a block of ints a rank written collectively, and a
 * variable-length string attribute on the root group (H5Awrite, every rank
 * the same value). Parallel HDF5 writes no variable-length data, so rank 0
 * alone opens the file again (the sec2 driver) and writes both: the
 * strings from a memory space of LINES + 1 elements of which it selects the
 * last LINES (a hyperslab), one of them empty; the sequences under H5S_ALL,
 * one of them empty. Then every rank opens the file in parallel, reads
 * both back (HDF5 allocates what they point to: H5Dvlen_reclaim frees it)
 * and checks them. Same bytes on every run. */
#include "corpus_h5.h"

#include <string.h>

enum { LINES = 5, VOYAGES = 4, PER_RANK = 8 };

static const char *const story[LINES] = {"We had sailed seven years", "", "when the measles broke out",
                                         "and the ship lost its way in the fog", "x"};
static const size_t calls_of[VOYAGES] = {3, 0, 7, 1};
static const char *const motto = "the last of the Irish Rover";

static int port(int voyage, int k)
{
    return 100 * voyage + k;
}

static hid_t string_type(void)
{
    hid_t t = H5OK(H5Tcopy(H5T_C_S1));
    H5OK(H5Tset_size(t, H5T_VARIABLE));
    return t;
}

/* Every rank: the file, its datasets, the root's attribute and each rank's block of ids. */
static void create_file(const char *path, hid_t strings, hid_t ports)
{
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    hsize_t lines = LINES, voyages = VOYAGES, all = (hsize_t)PER_RANK * (hsize_t)corpus_size;
    hid_t space = H5OK(H5Screate_simple(1, &lines, NULL));
    H5OK(H5Dclose(H5OK(H5Dcreate2(file, "story", strings, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT))));
    H5OK(H5Sclose(space));
    space = H5OK(H5Screate_simple(1, &voyages, NULL));
    H5OK(H5Dclose(H5OK(H5Dcreate2(file, "ports", ports, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT))));
    H5OK(H5Sclose(space));

    space = H5OK(H5Screate(H5S_SCALAR));
    hid_t attr = H5OK(H5Acreate2(file, "motto", strings, space, H5P_DEFAULT, H5P_DEFAULT));
    H5OK(H5Awrite(attr, strings, &motto));
    H5OK(H5Aclose(attr));
    H5OK(H5Sclose(space));

    space = H5OK(H5Screate_simple(1, &all, NULL));
    hid_t ids = H5OK(H5Dcreate2(file, "ids", H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    int block[PER_RANK];
    for (int k = 0; k < PER_RANK; k++)
        block[k] = corpus_rank * PER_RANK + k;
    hsize_t start = (hsize_t)corpus_rank * PER_RANK, count = PER_RANK;
    hid_t mem = H5OK(H5Screate_simple(1, &count, NULL));
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &count, NULL));
    hid_t dxpl = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    H5OK(H5Dwrite(ids, H5T_NATIVE_INT, mem, space, dxpl, block));
    H5OK(H5Pclose(dxpl));
    H5OK(H5Sclose(mem));
    H5OK(H5Sclose(space));
    H5OK(H5Dclose(ids));
    H5OK(H5Pclose(fapl));
    H5OK(H5Fclose(file));
}

/* Rank 0 alone: the strings and the sequences. */
static void write_vlen(const char *path, hid_t strings, hid_t ports)
{
    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT));
    hid_t story_d = H5OK(H5Dopen2(file, "story", H5P_DEFAULT));
    const char *lines[LINES + 1] = {NULL};
    for (int k = 0; k < LINES; k++)
        lines[k + 1] = story[k];
    hsize_t room = LINES + 1, start = 1, count = LINES;
    hid_t mem = H5OK(H5Screate_simple(1, &room, NULL));
    H5OK(H5Sselect_hyperslab(mem, H5S_SELECT_SET, &start, NULL, &count, NULL));
    H5OK(H5Dwrite(story_d, strings, mem, H5S_ALL, H5P_DEFAULT, lines));
    H5OK(H5Sclose(mem));
    H5OK(H5Dclose(story_d));

    int numbers[VOYAGES][8];
    hvl_t values[VOYAGES];
    for (int v = 0; v < VOYAGES; v++) {
        for (size_t k = 0; k < calls_of[v]; k++)
            numbers[v][k] = port(v, (int)k);
        values[v] = (hvl_t){calls_of[v], calls_of[v] ? numbers[v] : NULL};
    }
    hid_t ports_d = H5OK(H5Dopen2(file, "ports", H5P_DEFAULT));
    H5OK(H5Dwrite(ports_d, ports, H5S_ALL, H5S_ALL, H5P_DEFAULT, values));
    H5OK(H5Dclose(ports_d));
    H5OK(H5Fclose(file));
}

/* Every rank: both read back, what HDF5 allocated for them freed. */
static void read_vlen(const char *path, hid_t strings, hid_t ports)
{
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    hid_t file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, fapl));
    hid_t story_d = H5OK(H5Dopen2(file, "story", H5P_DEFAULT));
    hid_t space = H5OK(H5Dget_space(story_d));
    char *lines[LINES];
    H5OK(H5Dread(story_d, strings, H5S_ALL, H5S_ALL, H5P_DEFAULT, lines));
    for (int k = 0; k < LINES; k++)
        if (strcmp(lines[k], story[k]))
            corpus_fail("%s: story[%d] is \"%s\"", path, k, lines[k]);
    H5OK(H5Dvlen_reclaim(strings, space, H5P_DEFAULT, lines));
    H5OK(H5Sclose(space));
    H5OK(H5Dclose(story_d));

    hid_t ports_d = H5OK(H5Dopen2(file, "ports", H5P_DEFAULT));
    space = H5OK(H5Dget_space(ports_d));
    hvl_t values[VOYAGES];
    H5OK(H5Dread(ports_d, ports, H5S_ALL, H5S_ALL, H5P_DEFAULT, values));
    for (int v = 0; v < VOYAGES; v++) {
        if (values[v].len != calls_of[v])
            corpus_fail("%s: ports[%d] holds %zu ports, written %zu", path, v, values[v].len, calls_of[v]);
        for (size_t k = 0; k < values[v].len; k++)
            if (((const int *)values[v].p)[k] != port(v, (int)k))
                corpus_fail("%s: ports[%d][%zu] is %d", path, v, k, ((const int *)values[v].p)[k]);
    }
    H5OK(H5Dvlen_reclaim(ports, space, H5P_DEFAULT, values));
    H5OK(H5Sclose(space));
    H5OK(H5Dclose(ports_d));
    H5OK(H5Pclose(fapl));
    H5OK(H5Fclose(file));
}

int main(int argc, char **argv)
{
    char path[CORPUS_PATH_MAX];
    corpus_init(&argc, &argv, "h5_vlen");
    corpus_path(path, "vlen.h5");
    hid_t strings = string_type(), ports = H5OK(H5Tvlen_create(H5T_NATIVE_INT));
    create_file(path, strings, ports);
    if (corpus_rank == 0)
        write_vlen(path, strings, ports);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    read_vlen(path, strings, ports);
    H5OK(H5Tclose(ports));
    H5OK(H5Tclose(strings));
    return corpus_finish();
}
