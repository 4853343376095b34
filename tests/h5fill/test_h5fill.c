#define _GNU_SOURCE
/* Units of the filtered-data generator (templates/h5fill.c.tmpl): the
 * tuner reaches stored/raw targets through deflate, shuffle + deflate and
 * scale-offset, and gives what n-bit stores whatever the data. */
#include "h5fill.c.tmpl"

#include "rk_test.h"

/* A dcpl of chunk x chunk ints with filters chosen by `which`. */
static hid_t dcpl_with(const char *which, hsize_t *chunk)
{
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    chunk[0] = 64, chunk[1] = 64;
    H5Pset_chunk(dcpl, 2, chunk);
    if (!strcmp(which, "shuffle"))
        H5Pset_shuffle(dcpl);
    if (!strcmp(which, "scaleoffset"))
        H5Pset_scaleoffset(dcpl, H5Z_SO_INT, H5Z_SO_INT_MINBITS_DEFAULT);
    else if (!strcmp(which, "nbit"))
        H5Pset_nbit(dcpl);
    else
        H5Pset_deflate(dcpl, 6);
    return dcpl;
}

/* The ratio the tuner reaches for a target, through the filters `which`. */
static double tuned(const char *which, hid_t type, double target)
{
    hsize_t chunk[2];
    hid_t dcpl = dcpl_with(which, chunk);
    double reached = -1, knob = h5fill_tune(dcpl, type, type, 2, chunk, target, &reached);
    H5Pclose(dcpl);
    printf("h5fill: %s, target %.3f: knob %.4f stores %.4f of the raw size\n", which, target, knob, reached);
    CU_ASSERT(knob >= 0 && knob <= 1);
    return reached;
}

static int within(double reached, double target, double fraction)
{
    return reached >= target * (1 - fraction) && reached <= target * (1 + fraction);
}

RK_TEST(h5fill, deflate_reaches_10_50_90_percent_within_1_percent)
{
    CU_ASSERT(within(tuned("deflate", H5T_NATIVE_INT, 0.10), 0.10, 0.01));
    CU_ASSERT(within(tuned("deflate", H5T_NATIVE_INT, 0.50), 0.50, 0.01));
    CU_ASSERT(within(tuned("deflate", H5T_NATIVE_INT, 0.90), 0.90, 0.01));
    CU_ASSERT(within(tuned("deflate", H5T_NATIVE_DOUBLE, 0.50), 0.50, 0.01));
}

RK_TEST(h5fill, shuffle_deflate_reaches_10_50_90_percent_within_1_percent)
{
    CU_ASSERT(within(tuned("shuffle", H5T_NATIVE_INT, 0.10), 0.10, 0.01));
    CU_ASSERT(within(tuned("shuffle", H5T_NATIVE_INT, 0.50), 0.50, 0.01));
    CU_ASSERT(within(tuned("shuffle", H5T_NATIVE_INT, 0.90), 0.90, 0.01));
}

/* Scale-offset stores whole bits a value: the nearest step, 1 bit in 32. */
RK_TEST(h5fill, scaleoffset_reaches_its_nearest_bit_step)
{
    CU_ASSERT(within(tuned("scaleoffset", H5T_NATIVE_INT, 0.25), 0.25, 0.04));
    CU_ASSERT(within(tuned("scaleoffset", H5T_NATIVE_INT, 0.60), 0.60, 0.04));
}

/* N-bit on a full-precision int stores every bit, whatever the values:
 * the tuner says what it reaches (the whole size), never fails. */
RK_TEST(h5fill, nbit_stores_what_it_stores)
{
    double reached = tuned("nbit", H5T_NATIVE_INT, 0.5);
    CU_ASSERT(reached > 0.99 && reached < 1.05);
}

/* The same seed gives the same bytes; the knob moves them, a salt only
 * the first H5FILL_SALTED elements. */
RK_TEST(h5fill, values_are_deterministic)
{
    int a[256], b[256];
    CU_ASSERT_FATAL(h5fill_load());
    h5fill_values(a, sizeof a, H5T_NATIVE_INT, 0.5, 7, 0);
    h5fill_values(b, sizeof b, H5T_NATIVE_INT, 0.5, 7, 0);
    CU_ASSERT_EQUAL(memcmp(a, b, sizeof a), 0);
    h5fill_values(b, sizeof b, H5T_NATIVE_INT, 0.5, 7, 99);
    int salted = 0, elsewhere = 0;
    for (int i = 0; i < 256; i++) {
        salted += i < H5FILL_SALTED && a[i] != b[i];
        elsewhere += i >= H5FILL_SALTED && a[i] != b[i];
    }
    CU_ASSERT(salted >= H5FILL_SALTED - 2); /* 8 or 9 random bits each: one or two may agree */
    CU_ASSERT_EQUAL(elsewhere, 0);
    h5fill_values(b, sizeof b, H5T_NATIVE_INT, 0.25, 7, 0);
    CU_ASSERT_NOT_EQUAL(memcmp(a, b, sizeof a), 0);
    for (int i = 0; i < 256; i++)
        CU_ASSERT(b[i] >= 0 && b[i] <= 512); /* 8 bits, or 9 by chance */
}

/* A chunk of traced size: exactly that many bytes stored (bisection, and
 * salts where no knob lands on it); 4,096 ints: 16 KiB raw. Each search
 * starts from the knob of the chunk before, as a file's chunks do. */
RK_TEST(h5fill, chunks_reach_their_exact_stored_size)
{
    hsize_t chunk[2];
    hid_t dcpl = dcpl_with("deflate", chunk);
    static int buf[64 * 64];
    static const double targets[] = {300, 2000, 8000, 12345, 16000, 12346, 12344, 12341};
    double hint = -1;
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        long long stored = h5fill_chunk(dcpl, H5T_NATIVE_INT, 2, chunk, targets[i], &hint, buf);
        printf("h5fill: a chunk of %.0f bytes: %lld stored\n", targets[i], stored);
        CU_ASSERT_EQUAL(stored, (long long)targets[i]);
    }
    H5Pclose(dcpl);
}

/* Random floats (as h5bench writes) compress worse than any float of
 * 24-bit integer value: knobs past 1 make a share of the values random
 * bytes, so such a chunk's traced size is reached exactly too. 4,096
 * floats: 16 KiB raw. */
RK_TEST(h5fill, random_floats_reach_their_exact_stored_size)
{
    hsize_t chunk[2];
    hid_t dcpl = dcpl_with("deflate", chunk);
    static float buf[64 * 64];
    double hint = -1;
    long long at_one = h5fill_chunk(dcpl, H5T_NATIVE_FLOAT, 2, chunk, 1e9, &hint, buf);
    CU_ASSERT_EQUAL(hint, H5FILL_KNOB_MAX); /* a size no data stores: the most random there is */
    hint = -1;
    long long below = h5fill_chunk(dcpl, H5T_NATIVE_FLOAT, 2, chunk, 12000, &hint, buf);
    CU_ASSERT_EQUAL(below, 12000);
    CU_ASSERT(hint > 0 && hint <= 1);
    double target = 16000;
    long long past = h5fill_chunk(dcpl, H5T_NATIVE_FLOAT, 2, chunk, target, &hint, buf);
    printf("h5fill: random floats store up to %lld bytes; a chunk of %.0f: %lld stored, knob %.3f\n", at_one,
           target, past, hint);
    CU_ASSERT_EQUAL(past, (long long)target);
    CU_ASSERT(hint > 1);
    H5Pclose(dcpl);
}

/* The whole path of a kernel's or replay's write: a dataset the targets name
 * (file base name and path), chunks of traced sizes (the last one at the
 * dataset's edge, 36 of its 64 ints inside), one H5Dwrite of h5fill_write's
 * buffer: each chunk stores its traced size exactly. */
RK_TEST(h5fill, a_write_stores_each_traced_chunk_size)
{
    static const h5fill_target targets[] = {{"h5fill-write.h5", "/d", 0.5, "1 0,151 64,97"}};
    const hsize_t dims = 100, chunk = 64;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_fapl_core(fapl, 1 << 16, 0);
    H5Pset_chunk(dcpl, 1, &chunk);
    H5Pset_deflate(dcpl, 9);
    hid_t file = H5Fcreate("/proc/self/h5fill-write.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(1, &dims, NULL);
    hid_t dset = H5Dcreate2(file, "d", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    CU_ASSERT_FATAL(dset >= 0);
    const void *buf = h5fill_write(targets, 1, dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, "pattern");
    CU_ASSERT_FATAL(buf != (const void *)"pattern");
    CU_ASSERT(H5Dwrite(dset, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
    H5Fflush(file, H5F_SCOPE_LOCAL);
    for (hsize_t c = 0; c < 2; c++) {
        hsize_t offset, size = 0;
        unsigned mask;
        haddr_t addr;
        CU_ASSERT(H5Dget_chunk_info(dset, space, c, &offset, &mask, &addr, &size) >= 0);
        printf("h5fill: chunk at %llu stores %llu bytes\n", (unsigned long long)offset,
               (unsigned long long)size);
        CU_ASSERT_EQUAL(size, offset == 0 ? 151u : 97u);
    }
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(dcpl);
    H5Pclose(fapl);
}

/* szip (libaec) where the HDF5 library has it: 30 % of the raw size within
 * 1 %, through the same knob. */
RK_TEST(h5fill, szip_reaches_30_percent_within_1_percent)
{
    if (H5Zfilter_avail(H5Z_FILTER_SZIP) <= 0) {
        printf("h5fill: this HDF5 has no szip: nothing to tune\n");
        return;
    }
    hsize_t chunk[2] = {64, 64};
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 2, chunk);
    H5Pset_szip(dcpl, H5_SZIP_NN_OPTION_MASK, 16);
    double reached = -1, knob = h5fill_tune(dcpl, H5T_NATIVE_INT, H5T_NATIVE_INT, 2, chunk, 0.30, &reached);
    printf("h5fill: szip, target 0.300: knob %.4f stores %.4f of the raw size\n", knob, reached);
    CU_ASSERT(within(reached, 0.30, 0.01));
    H5Pclose(dcpl);
}

/* Writes through a union of hyperslabs (rows 0-1 and 3-7, H5S_SELECT_OR: no
 * regular pattern) and then row 2: each chunk of 4 rows gets the values of
 * its places, so it stores its traced size exactly. */
RK_TEST(h5fill, writes_through_unions_of_hyperslabs_store_traced_sizes)
{
    static const h5fill_target targets[] = {{"h5fill-union.h5", "/u", 0.5, "2 0,0,150 4,0,170"}};
    const hsize_t dims[2] = {8, 16}, chunk[2] = {4, 16};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_fapl_core(fapl, 1 << 16, 0);
    H5Pset_chunk(dcpl, 2, chunk);
    H5Pset_deflate(dcpl, 6);
    hid_t file = H5Fcreate("/proc/self/h5fill-union.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dset = H5Dcreate2(file, "u", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hsize_t start[2] = {0, 0}, count[2] = {2, 16};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
    start[0] = 3, count[0] = 5;
    H5Sselect_hyperslab(space, H5S_SELECT_OR, start, NULL, count, NULL);
    CU_ASSERT(H5Sis_regular_hyperslab(space) <= 0);
    for (int pass = 0; pass < 2; pass++) {
        const void *buf = h5fill_write(targets, 1, dset, H5T_NATIVE_INT, space, space, "pattern");
        CU_ASSERT_FATAL(buf != (const void *)"pattern");
        CU_ASSERT(H5Dwrite(dset, H5T_NATIVE_INT, space, space, H5P_DEFAULT, buf) >= 0);
        start[0] = 2, count[0] = 1; /* then the row left out */
        H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
    }
    H5Sselect_all(space);
    H5Fflush(file, H5F_SCOPE_LOCAL);
    for (hsize_t c = 0; c < 2; c++) {
        hsize_t offset[2], size = 0;
        unsigned mask;
        haddr_t addr;
        CU_ASSERT(H5Dget_chunk_info(dset, space, c, offset, &mask, &addr, &size) >= 0);
        printf("h5fill: chunk at row %llu stores %llu bytes\n", (unsigned long long)offset[0],
               (unsigned long long)size);
        CU_ASSERT_EQUAL(size, offset[0] == 0 ? 150u : 170u);
    }
    H5Dclose(dset);
    H5Sclose(space);
    H5Fclose(file);
    H5Pclose(dcpl);
    H5Pclose(fapl);
}
