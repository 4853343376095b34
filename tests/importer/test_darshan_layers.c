/* Unit tests of the Darshan log reader on the upper-layer modules (H5F,
 * H5D, PNETCDF_FILE, PNETCDF_VAR) in every module version darshan-util 3.5
 * reads, from logs the tests write (darshan_make.h): H5F 1 (two floats) and
 * 2 (four), without FLUSHES, USE_MPIIO and META_TIME; H5D 1 without the
 * file's record id; PNETCDF_FILE 1 and 2, whose INDEP_OPENS and COLL_OPENS
 * add up to today's OPENS; today's H5D 2 and PNETCDF_VAR 1 with it. The
 * logs Darshan 3.5 wrote are checked against darshan-parser in
 * test_darshan.c. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan_make.h"
#include "recorder_import.h"
#include "rk_test.h"

enum { ID_F = 0x1111, ID_D = 0x2222, ID_P = 0x3333, ID_V = 0x4444 };

/* A record: id, rank, the file's id when file_id != 0, integer i = base + i,
 * float i = 0.5 + i. */
static void record(dm_log *l, unsigned slot, uint64_t id, int64_t rank, uint64_t file_id, unsigned nints,
                   unsigned nfloats, int64_t base)
{
    dm_buf *b = &l->modules[slot];
    dm_u64(b, id, l->swap);
    dm_u64(b, (uint64_t)rank, l->swap);
    if (file_id)
        dm_u64(b, file_id, l->swap);
    for (unsigned i = 0; i < nints; i++)
        dm_u64(b, (uint64_t)(base + i), l->swap);
    for (unsigned i = 0; i < nfloats; i++)
        dm_f64(b, 0.5 + i, l->swap);
}

static ri_darshan_log *made(dm_log *l, const char *name)
{
    size_t n;
    uint8_t *data = dm_write(l, &n);
    rec_error err = {{0}};
    ri_darshan_log *log = ri_darshan_read(data, n, name, &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    free(data);
    dm_release(l);
    return log;
}

static int64_t ci(const ri_darshan_log *log, unsigned m, const char *name)
{
    int f;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && !f);
    CU_ASSERT_EQUAL_FATAL(log->modules[m].nrecords, 1);
    return log->modules[m].records[0].counters[c];
}

static double cf(const ri_darshan_log *log, unsigned m, const char *name)
{
    int f;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && f);
    return log->modules[m].records[0].fcounters[c];
}

/* The log l is refused with the message want. */
static void refused(dm_log *l, const char *name, const char *want)
{
    size_t n;
    uint8_t *data = dm_write(l, &n);
    dm_release(l);
    rec_error err = {{0}};
    CU_ASSERT_PTR_NULL(ri_darshan_read(data, n, name, &err));
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    free(data);
}

static void job(dm_log *l, const char *version, int swap)
{
    static const char *const mounts[] = {"ext4", "/"};
    const int64_t times[4] = {1600000000, 0, 1600000010, 0};
    memset(l, 0, sizeof *l);
    l->version = version;
    l->swap = swap;
    dm_job(l, 4, times, "", "/bin/h5app", mounts, 1);
    dm_name(l, ID_F, "/out/a.h5");
    dm_name(l, ID_D, "/out/a.h5:/fields/e");
    dm_name(l, ID_P, "/out/b.nc");
}

/* Format 3.10 (Darshan 3.1): H5F at slot 3 in version 1, PNETCDF_FILE at 4
 * in version 1 (today 5), no H5D and no PNETCDF_VAR. */
RK_TEST(darshan_layers, h5f_1_and_pnetcdf_file_1)
{
    dm_log l;
    job(&l, "3.10", 0);
    record(&l, 3, ID_F, -1, 0, 1, 2, 7);   /* OPENS; OPEN_START, CLOSE_END */
    record(&l, 4, ID_P, 2, 0, 2, 2, 3);    /* INDEP_OPENS 3, COLL_OPENS 4; OPEN_START, CLOSE_END */
    l.versions[3] = 1;
    l.versions[4] = 1;
    ri_darshan_log *log = made(&l, "h5f1.darshan");
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5F, "H5F_OPENS"), 7);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5F, "H5F_FLUSHES"), -1);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5F, "H5F_USE_MPIIO"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_OPEN_START_TIMESTAMP"), 0.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_CLOSE_START_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_OPEN_END_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_CLOSE_END_TIMESTAMP"), 1.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_META_TIME"), -1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_PNETCDF_FILE].records[0].rank, 2);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_CREATES"), -1);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_OPENS"), 7);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_BYTES_WRITTEN"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_OPEN_START_TIMESTAMP"), 0.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_CLOSE_START_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_CLOSE_END_TIMESTAMP"), 1.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_WAIT_TIME"), -1);
    ri_darshan_free(log);
}

/* Format 3.21 (Darshan 3.2 to 3.4.0): H5F 2, H5D 1 (no file id), PNETCDF_FILE 2. */
RK_TEST(darshan_layers, h5f_2_h5d_1_and_pnetcdf_file_2)
{
    dm_log l;
    job(&l, "3.21", 1); /* the other byte order */
    record(&l, 3, ID_F, 0, 0, 1, 4, 5);
    record(&l, 4, ID_D, -1, 0, 94, 17, 10);
    record(&l, 5, ID_P, -1, 0, 2, 4, 1);
    l.versions[3] = 2;
    l.versions[4] = 1;
    l.versions[5] = 2;
    ri_darshan_log *log = made(&l, "h5d1.darshan");
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5F, "H5F_OPENS"), 5);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5F, "H5F_USE_MPIIO"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_CLOSE_START_TIMESTAMP"), 1.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_CLOSE_END_TIMESTAMP"), 3.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5F, "H5F_F_META_TIME"), -1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_H5D].records[0].file_id, 0);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_OPENS"), 10);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_BYTES_WRITTEN"), 15);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_DATASPACE_NDIMS"), 10 + 80);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_SLOWEST_RANK_BYTES"), 10 + 93);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_H5D, "H5D_F_VARIANCE_RANK_BYTES"), 16.5);
    CU_ASSERT_STRING_EQUAL(ri_darshan_name_of(log, ID_D), "/out/a.h5:/fields/e");
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_OPENS"), 3);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_SYNCS"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_CLOSE_START_TIMESTAMP"), 1.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_WAIT_START_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_OPEN_END_TIMESTAMP"), 2.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_CLOSE_END_TIMESTAMP"), 3.5);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_FILE, "PNETCDF_FILE_F_META_TIME"), -1);
    ri_darshan_free(log);
}

/* Format 3.41: H5D 2 and PNETCDF_VAR 1 with the file's id; a region of
 * records one counter short is corrupt. */
RK_TEST(darshan_layers, h5d_2_and_pnetcdf_var_1_name_their_file)
{
    dm_log l;
    job(&l, "3.41", 0);
    record(&l, RI_DARSHAN_H5D, ID_D, 1, ID_F, 94, 17, 0);
    record(&l, RI_DARSHAN_PNETCDF_VAR, ID_V, -1, ID_P, 120, 17, 100);
    l.versions[RI_DARSHAN_H5D] = 2;
    l.versions[RI_DARSHAN_PNETCDF_VAR] = 1;
    ri_darshan_log *log = made(&l, "v341.darshan");
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_H5D].records[0].file_id, ID_F);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_H5D].records[0].rank, 1);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_USE_MPIIO_COLLECTIVE"), 88);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_H5D, "H5D_CHUNK_SIZE_D1"), 83);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_PNETCDF_VAR].records[0].file_id, ID_P);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_COLL_WRITES"), 104);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_NDIMS"), 100 + 112);
    CU_ASSERT_EQUAL(ci(log, RI_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_SLOWEST_RANK_BYTES"), 100 + 119);
    CU_ASSERT_EQUAL(cf(log, RI_DARSHAN_PNETCDF_VAR, "PNETCDF_VAR_F_OPEN_START_TIMESTAMP"), 0.5);
    CU_ASSERT_STRING_EQUAL(ri_darshan_counter_name(RI_DARSHAN_PNETCDF_VAR, 119, 0), "PNETCDF_VAR_SLOWEST_RANK_BYTES");
    ri_darshan_free(log);

    job(&l, "3.41", 0);
    record(&l, RI_DARSHAN_H5D, ID_D, 1, 0, 94, 17, 0); /* no file id: 8 bytes short */
    l.versions[RI_DARSHAN_H5D] = 2;
    refused(&l, "short.darshan",
            "short.darshan: corrupt H5D region: 904 bytes are not whole 912-byte records (module version 2)");
}

/* A version newer than the reader knows is refused, naming the ones it does. */
RK_TEST(darshan_layers, unknown_versions_are_refused)
{
    dm_log l;
    job(&l, "3.41", 0);
    record(&l, RI_DARSHAN_PNETCDF_VAR, ID_V, 0, ID_P, 120, 17, 0);
    l.versions[RI_DARSHAN_PNETCDF_VAR] = 2;
    refused(&l, "new.darshan", "new.darshan: the PNETCDF_VAR module's version 2 is none this reader knows (1 to 1)");
}
