/* Unit tests of the trace of a log without DXT (importer/stat_*.c): the
 * sizes a record's counters give its reads and writes (each in its
 * histogram bin, the common access sizes among them, the bytes exact;
 * sizes as equal as the bytes allow when the histogram cannot be
 * followed), and the offsets its consecutive and sequential counts and
 * largest byte give them (IOR's segments over four ranks; every rank
 * reading a whole file; one rank's own file with a gap). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_stat.h"
#include "rk_test.h"

static int64_t sum(const int64_t *v, size_t n)
{
    int64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

static size_t count_of(const int64_t *v, size_t n, int64_t x)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += v[i] == x;
    return c;
}

/* vpic-like's POSIX record (tests/data/darshan/vpic.figures): 179 reads,
 * 69 writes in four bins each, ACCESS1..4 4096 x128, 512 x85, 544 x12, 328
 * x12 over both. */
RK_TEST(import_stat, sizes_follow_the_histogram_and_the_common_sizes)
{
    ri_sizes_in in = {.n = {179, 69},
                      .bytes = {486072, 433912},
                      .bins = {{3, 109, 64, 3}, {1, 0, 65, 3}},
                      .common = {4096, 512, 544, 328},
                      .common_count = {128, 85, 12, 12},
                      .max_size = (int64_t)1 << 40};
    int64_t r[179], w[69];
    unsigned how = ri_solve_sizes(&in, r, w);
    CU_ASSERT_EQUAL(how, RI_SIZES_HISTOGRAM | RI_SIZES_COMMON);
    CU_ASSERT_EQUAL(sum(r, 179), 486072);
    CU_ASSERT_EQUAL(sum(w, 69), 433912);
    int64_t bins[2][RI_BINS] = {{0}};
    for (size_t i = 0; i < 179; i++)
        bins[0][ri_size_bin(r[i])]++;
    for (size_t i = 0; i < 69; i++)
        bins[1][ri_size_bin(w[i])]++;
    CU_ASSERT_EQUAL(memcmp(bins, in.bins, sizeof bins), 0);
    /* 512, 544 and 328 are in a bin of reads alone; 4096 x128 split as the bin's 64 reads and 65 writes: 63
     * reads */
    CU_ASSERT_EQUAL(count_of(r, 179, 512), 85);
    CU_ASSERT_EQUAL(count_of(r, 179, 544), 12);
    CU_ASSERT_EQUAL(count_of(r, 179, 328), 12);
    CU_ASSERT_EQUAL(count_of(r, 179, 4096) + count_of(w, 69, 4096), 128);
    CU_ASSERT_EQUAL(count_of(r, 179, 4096), 63);
}

RK_TEST(import_stat, sizes_as_equal_as_the_bytes_allow_when_the_histogram_cannot_be_followed)
{
    /* 4 reads counted in 0-100 cannot make 1000 bytes */
    ri_sizes_in in = {.n = {4, 0}, .bytes = {1000, 0}, .bins = {{4}}, .max_size = 1 << 30};
    int64_t r[4], w[1];
    CU_ASSERT_EQUAL(ri_solve_sizes(&in, r, w), RI_SIZES_EVEN);
    CU_ASSERT_TRUE(r[0] == 250 && r[1] == 250 && r[2] == 250 && r[3] == 250);
    /* the bins add up to 3, the reads to 4 */
    ri_sizes_in odd = {.n = {4, 0}, .bytes = {10, 0}, .bins = {{3}}, .max_size = 1 << 30};
    CU_ASSERT_EQUAL(ri_solve_sizes(&odd, r, w), RI_SIZES_EVEN);
    CU_ASSERT_TRUE(r[0] == 3 && r[1] == 3 && r[2] == 2 && r[3] == 2);
}

RK_TEST(import_stat, a_bin_of_free_slots_shares_its_bytes)
{
    /* 3 writes in 1K-10K, 2 in 10K-100K, 100000 bytes: each bin at the same place in it */
    ri_sizes_in in = {.n = {0, 5}, .bytes = {0, 100000}, .bins = {{0}, {0, 0, 3, 2}}, .max_size = 1 << 30};
    int64_t r[1], w[5];
    CU_ASSERT_EQUAL(ri_solve_sizes(&in, r, w), RI_SIZES_HISTOGRAM);
    CU_ASSERT_EQUAL(sum(w, 5), 100000);
    CU_ASSERT_EQUAL(ri_size_bin(w[0]), 2);
    CU_ASSERT_EQUAL(ri_size_bin(w[2]), 2);
    CU_ASSERT_EQUAL(ri_size_bin(w[3]), 3);
    CU_ASSERT_EQUAL(ri_size_bin(w[4]), 3);
    CU_ASSERT_TRUE(w[0] - w[2] <= 1 && w[3] - w[4] <= 1);
}

/* ior-like --segments 2 at 4 ranks (ior-coll.figures): 16 writes of 16384,
 * one session a rank, 8 consecutive, 15 sequential, largest byte 262143. */
RK_TEST(import_stat, ior_segments_partition_the_file_rank_after_rank)
{
    int64_t sizes[16], off[16];
    ri_layout_session ss[4];
    for (int i = 0; i < 16; i++)
        sizes[i] = 16384;
    for (uint32_t r = 0; r < 4; r++)
        ss[r] = (ri_layout_session){r, 4 * r, 4};
    ri_layout_in in = {4, 1, sizes, 16, ss, 4, 8, 15, 262144};
    CU_ASSERT_EQUAL(ri_layout(&in, off), RI_LAYOUT_PARTITIONED);
    for (int r = 0; r < 4; r++) {
        CU_ASSERT_EQUAL(off[4 * r + 0], 32768 * r);
        CU_ASSERT_EQUAL(off[4 * r + 1], 32768 * r + 16384);
        CU_ASSERT_EQUAL(off[4 * r + 2], 131072 + 32768 * r);
        CU_ASSERT_EQUAL(off[4 * r + 3], 131072 + 32768 * r + 16384);
    }
}

/* serial-io (serial-nodxt.figures): every rank reads the whole 20000-byte
 * input, 8 reads a rank (the last one 0 bytes, at the end), 28
 * consecutive, 28 sequential, largest byte 19999. */
RK_TEST(import_stat, every_rank_reading_the_whole_file_is_replicated)
{
    static const int64_t one[8] = {3000, 3000, 3000, 3000, 3000, 3000, 2000, 0};
    int64_t sizes[32], off[32];
    ri_layout_session ss[4];
    for (uint32_t r = 0; r < 4; r++) {
        memcpy(sizes + 8 * r, one, sizeof one);
        ss[r] = (ri_layout_session){r, 8 * r, 8};
    }
    ri_layout_in in = {4, 1, sizes, 32, ss, 4, 28, 28, 20000};
    CU_ASSERT_EQUAL(ri_layout(&in, off), RI_LAYOUT_REPLICATED);
    for (int r = 0; r < 4; r++) {
        int64_t at = 0;
        for (int j = 0; j < 8; j++) {
            CU_ASSERT_EQUAL(off[8 * r + j], at);
            at += one[j];
        }
    }
}

/* One rank's own file: 4 reads of 1000 in one session, 2 consecutive, 3
 * sequential (one gap), largest byte 4999: the gap of 1000 bytes between
 * the segments. Then 2 sessions re-reading 2 accesses each, 1 consecutive
 * each, largest byte 1999: each from byte 0. */
RK_TEST(import_stat, a_rank_of_its_own_gets_its_gaps_and_passes)
{
    int64_t sizes[4] = {1000, 1000, 1000, 1000}, off[4];
    ri_layout_session one = {0, 0, 4};
    ri_layout_in in = {1, 0, sizes, 4, &one, 1, 2, 3, 5000};
    CU_ASSERT_EQUAL(ri_layout(&in, off), RI_LAYOUT_OWN);
    CU_ASSERT_TRUE(off[0] == 0 && off[1] == 1000 && off[2] == 3000 && off[3] == 4000);
    ri_layout_session two[2] = {{0, 0, 2}, {0, 2, 2}};
    ri_layout_in again = {1, 0, sizes, 4, two, 2, 2, 2, 2000};
    CU_ASSERT_EQUAL(ri_layout(&again, off), RI_LAYOUT_OWN);
    CU_ASSERT_TRUE(off[0] == 0 && off[1] == 1000 && off[2] == 0 && off[3] == 1000);
}

/* HDF5 reading a file of 266,328 bytes (h5-chunked-nodxt.figures): a rank
 * reads its metadata (4 small consecutive reads) then the whole 262,144-byte
 * chunk, all consecutive: the blocks add up past the file. The read that
 * would end past the largest byte ends at it, its size kept; the others
 * stay where they were. */
RK_TEST(import_stat, no_access_lies_past_the_largest_byte)
{
    int64_t sizes[5] = {512, 512, 2616, 1200, 262144}, off[5];
    ri_layout_session one = {0, 0, 5};
    ri_layout_in in = {1, 0, sizes, 5, &one, 1, 4, 4, 266328};
    CU_ASSERT_EQUAL(ri_layout(&in, off), RI_LAYOUT_OWN);
    CU_ASSERT_TRUE(off[0] == 0 && off[1] == 512 && off[2] == 1024 && off[3] == 3640);
    CU_ASSERT_EQUAL(off[4], 266328 - 262144);
    for (int j = 0; j < 5; j++)
        CU_ASSERT_TRUE(off[j] >= 0 && off[j] + sizes[j] <= 266328);
}
