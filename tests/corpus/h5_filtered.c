/* h5_filtered: a parallel HDF5 writer of compressed data, the way
 * checkpoint writers that turn on HDF5's filters write it (HDF5's own
 * parallel filtered-writes example, h5bench with compression): one file
 * over MPI-IO, chunked 1-D datasets of ints, each rank writing its two
 * chunks collectively (parallel HDF5 writes filtered datasets with
 * collective I/O only):
 *   deflate levels 1, 5 and 9 on data of low entropy (long runs of a few
 *     values), middle entropy (random 12-bit numbers) and high entropy
 *     (random 32-bit numbers);
 *   shuffle + deflate on the middle-entropy data.
 * Then the file is reopened and each rank reads its part of every dataset
 * back and checks it. What HDF5's filters store depends on the values: a
 * kernel or replay does the same I/O only with data that compresses alike. */
#include "corpus_h5.h"

#include <stdint.h>

enum { PER_RANK = 8192, CHUNK = PER_RANK / 2 }; /* ints: each rank writes 32 KiB, two chunks */

/* A deterministic value of each element, by entropy. */
static int value(int entropy, uint64_t i)
{
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z ^= z >> 31;
    if (entropy == 0)
        return (int)((i / 256) % 8); /* long runs */
    if (entropy == 1)
        return (int)(z & 0xFFF);
    return (int)(uint32_t)z;
}

static const char *const entropy_names[] = {"low", "middle", "high"};

static void fill(int *buf, int entropy)
{
    for (uint64_t k = 0; k < PER_RANK; k++)
        buf[k] = value(entropy, (uint64_t)corpus_rank * PER_RANK + k);
}

/* This rank's part of the dataset's space. */
static hid_t my_part(hsize_t total)
{
    hid_t space = H5OK(H5Screate_simple(1, &total, NULL));
    hsize_t start = (hsize_t)corpus_rank * PER_RANK, count = PER_RANK;
    H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, &start, NULL, &count, NULL));
    return space;
}

static void write_dataset(hid_t file, hid_t dxpl, const char *name, int level, int shuffle, int entropy)
{
    static int buf[PER_RANK];
    const hsize_t total = (hsize_t)corpus_size * PER_RANK, chunk = CHUNK, mine = PER_RANK;
    hid_t dcpl = H5OK(H5Pcreate(H5P_DATASET_CREATE));
    H5OK(H5Pset_chunk(dcpl, 1, &chunk));
    if (shuffle)
        H5OK(H5Pset_shuffle(dcpl));
    H5OK(H5Pset_deflate(dcpl, (unsigned)level));
    hid_t fspace = my_part(total), mspace = H5OK(H5Screate_simple(1, &mine, NULL));
    hid_t dset = H5OK(H5Dcreate2(file, name, H5T_NATIVE_INT, fspace, H5P_DEFAULT, dcpl, H5P_DEFAULT));
    fill(buf, entropy);
    H5OK(H5Dwrite(dset, H5T_NATIVE_INT, mspace, fspace, dxpl, buf));
    H5OK(H5Dclose(dset));
    H5OK(H5Sclose(mspace));
    H5OK(H5Sclose(fspace));
    H5OK(H5Pclose(dcpl));
}

static void check_dataset(hid_t file, hid_t dxpl, const char *name, int entropy)
{
    static int buf[PER_RANK];
    const hsize_t total = (hsize_t)corpus_size * PER_RANK, mine = PER_RANK;
    hid_t fspace = my_part(total), mspace = H5OK(H5Screate_simple(1, &mine, NULL));
    hid_t dset = H5OK(H5Dopen2(file, name, H5P_DEFAULT));
    H5OK(H5Dread(dset, H5T_NATIVE_INT, mspace, fspace, dxpl, buf));
    for (uint64_t k = 0; k < PER_RANK; k++)
        if (buf[k] != value(entropy, (uint64_t)corpus_rank * PER_RANK + k))
            corpus_fail("%s: element %llu is %d, expected %d", name, (unsigned long long)k, buf[k],
                        value(entropy, (uint64_t)corpus_rank * PER_RANK + k));
    H5OK(H5Dclose(dset));
    H5OK(H5Sclose(mspace));
    H5OK(H5Sclose(fspace));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "h5_filtered");
    char path[CORPUS_PATH_MAX], name[64];
    corpus_path(path, "filtered.h5");
    hid_t fapl = H5OK(H5Pcreate(H5P_FILE_ACCESS)), dxpl = H5OK(H5Pcreate(H5P_DATASET_XFER));
    H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
    H5OK(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
    static const int levels[] = {1, 5, 9};

    hid_t file = H5OK(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl));
    for (int l = 0; l < 3; l++)
        for (int e = 0; e < 3; e++) {
            snprintf(name, sizeof name, "deflate%d_%s", levels[l], entropy_names[e]);
            write_dataset(file, dxpl, name, levels[l], 0, e);
        }
    write_dataset(file, dxpl, "shuffle_deflate5_middle", 5, 1, 1);
    H5OK(H5Fclose(file));

    file = H5OK(H5Fopen(path, H5F_ACC_RDONLY, fapl));
    for (int l = 0; l < 3; l++)
        for (int e = 0; e < 3; e++) {
            snprintf(name, sizeof name, "deflate%d_%s", levels[l], entropy_names[e]);
            check_dataset(file, dxpl, name, e);
        }
    check_dataset(file, dxpl, "shuffle_deflate5_middle", 1);
    H5OK(H5Fclose(file));
    H5OK(H5Pclose(dxpl));
    H5OK(H5Pclose(fapl));
    return corpus_finish();
}
