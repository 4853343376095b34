/* Unit tests of the Darshan log reader on the forms of logs Darshan 3.5 does
 * not write here: the other byte order (a committed log written again
 * swapped), the older formats (3.00, 3.10, 3.21: 16 module slots, the
 * modules numbered before H5D and PNETCDF_VAR, older module versions), the
 * partial-module flags; and on logs cut short or corrupted, each refused
 * with one message naming the log, the reason and the byte. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan_make.h"
#include "recorder_import.h"
#include "rk_test.h"

static uint8_t *slurp(const char *name, size_t *n, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s.darshan", RI_TEST_DATA_DIR, name);
    FILE *fp = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    fseek(fp, 0, SEEK_END);
    *n = (size_t)ftell(fp);
    rewind(fp);
    uint8_t *d = malloc(*n);
    CU_ASSERT_EQUAL_FATAL(fread(d, 1, *n, fp), *n);
    fclose(fp);
    return d;
}

static int same_counters(const ri_darshan_module *a, const ri_darshan_module *b)
{
    if (a->nrecords != b->nrecords || a->version != b->version)
        return 0;
    for (size_t r = 0; r < a->nrecords; r++) {
        const ri_darshan_record *x = &a->records[r], *y = &b->records[r];
        if (x->id != y->id || x->rank != y->rank || x->file_id != y->file_id ||
            memcmp(x->counters, y->counters, a->ncounters * 8) ||
            memcmp(x->fcounters, y->fcounters, a->nfcounters * 8))
            return 0;
    }
    return 1;
}

static int same_dxt(const ri_darshan_module *a, const ri_darshan_module *b)
{
    if (a->nrecords != b->nrecords || a->version != b->version)
        return 0;
    for (size_t r = 0; r < a->nrecords; r++) {
        const ri_darshan_dxt *x = &a->dxt[r], *y = &b->dxt[r];
        if (x->id != y->id || x->rank != y->rank || x->shared != y->shared ||
            strcmp(x->hostname, y->hostname) || x->nwrites != y->nwrites || x->nreads != y->nreads ||
            memcmp(x->writes, y->writes, (x->nwrites + x->nreads) * sizeof *x->writes))
            return 0;
    }
    return 1;
}

/* A log written on a machine of the other byte order reads the same. */
static void check_swapped(const char *name)
{
    char path[4096];
    size_t n;
    uint8_t *data = slurp(name, &n, path, sizeof path);
    rec_error err;
    ri_darshan_log *log = ri_darshan_read(data, n, path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(log->swapped, 0);
    size_t sn;
    uint8_t *swapped = dm_swapped_copy(log, &sn);
    CU_ASSERT_NOT_EQUAL(memcmp(swapped + 8, data + 8, 8), 0); /* the magic number, the other way round */
    ri_darshan_log *other = ri_darshan_read(swapped, sn, "swapped.darshan", &err);
    if (!other)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(other);
    CU_ASSERT_EQUAL(other->swapped, 1);
    CU_ASSERT_EQUAL(other->nprocs, log->nprocs);
    CU_ASSERT_EQUAL(other->jobid, log->jobid);
    CU_ASSERT_EQUAL(other->start_sec, log->start_sec);
    CU_ASSERT_EQUAL(other->start_nsec, log->start_nsec);
    CU_ASSERT_EQUAL(other->end_nsec, log->end_nsec);
    CU_ASSERT_EQUAL(other->partial_flags, log->partial_flags);
    CU_ASSERT_STRING_EQUAL(other->exe, log->exe);
    CU_ASSERT_STRING_EQUAL(other->metadata, log->metadata);
    CU_ASSERT_EQUAL_FATAL(other->nmounts, log->nmounts);
    for (size_t i = 0; i < log->nmounts; i++) {
        CU_ASSERT_STRING_EQUAL(other->mounts[i].path, log->mounts[i].path);
        CU_ASSERT_STRING_EQUAL(other->mounts[i].type, log->mounts[i].type);
    }
    CU_ASSERT_EQUAL_FATAL(other->nnames, log->nnames);
    for (size_t i = 0; i < log->nnames; i++) {
        CU_ASSERT_EQUAL(other->names[i].id, log->names[i].id);
        CU_ASSERT_STRING_EQUAL(other->names[i].name, log->names[i].name);
    }
    CU_ASSERT_TRUE(same_counters(&other->modules[RI_DARSHAN_POSIX], &log->modules[RI_DARSHAN_POSIX]));
    CU_ASSERT_TRUE(same_counters(&other->modules[RI_DARSHAN_MPIIO], &log->modules[RI_DARSHAN_MPIIO]));
    CU_ASSERT_TRUE(same_counters(&other->modules[RI_DARSHAN_STDIO], &log->modules[RI_DARSHAN_STDIO]));
    for (unsigned m = RI_DARSHAN_H5F; m <= RI_DARSHAN_PNETCDF_VAR; m++)
        CU_ASSERT_TRUE(same_counters(&other->modules[m], &log->modules[m]));
    CU_ASSERT_TRUE(same_dxt(&other->modules[RI_DARSHAN_DXT_POSIX], &log->modules[RI_DARSHAN_DXT_POSIX]));
    CU_ASSERT_TRUE(same_dxt(&other->modules[RI_DARSHAN_DXT_MPIIO], &log->modules[RI_DARSHAN_DXT_MPIIO]));
    CU_ASSERT_TRUE(log->modules[RI_DARSHAN_DXT_POSIX].nrecords > 0);
    ri_darshan_free(other);
    ri_darshan_free(log);
    free(swapped);
    free(data);
}

RK_TEST(darshan, other_byte_order_reads_the_same)
{
    check_swapped("ior-coll");
    check_swapped("vpic");
    check_swapped("fpp");
    check_swapped("h5-vpic");
    check_swapped("pnc-climate");
}

/* ---- older formats, written by the test ---- */

static const char *const mounts[] = {"ext4", "/", "lustre", "/scratch"};
enum { ID_A = 1111, ID_B = 2222 };

/* A counter record of `nints` then `nfloats` values: integer i is base + i,
 * float i is 0.5 + i, but for `first_int`, the first integer. */
static void counter_record(dm_log *l, unsigned slot, uint64_t id, int64_t rank, unsigned nints,
                           unsigned nfloats, int64_t base, int64_t first_int)
{
    dm_buf *b = &l->modules[slot];
    dm_u64(b, id, l->swap);
    dm_u64(b, (uint64_t)rank, l->swap);
    for (unsigned i = 0; i < nints; i++)
        dm_u64(b, (uint64_t)(i == 0 ? first_int : base + i), l->swap);
    for (unsigned i = 0; i < nfloats; i++)
        dm_f64(b, 0.5 + i, l->swap);
}

static void dxt_record(dm_log *l, unsigned slot, uint64_t id, int64_t rank, unsigned writes, unsigned reads)
{
    dm_buf *b = &l->modules[slot];
    int s = l->swap;
    dm_u64(b, id, s);
    dm_u64(b, (uint64_t)rank, s);
    dm_u64(b, 0, s);
    char host[64] = "node7";
    dm_put(b, host, 64);
    dm_u64(b, writes, s);
    dm_u64(b, reads, s);
    for (unsigned i = 0; i < writes + reads; i++) {
        dm_u64(b, 4096 * i, s);
        dm_u64(b, 4096, s);
        dm_f64(b, 1.0 + i, s);
        dm_f64(b, 1.25 + i, s);
    }
}

static ri_darshan_log *read_made(dm_log *l, const char *name, rec_error *err)
{
    size_t n;
    uint8_t *data = dm_write(l, &n);
    ri_darshan_log *log = ri_darshan_read(data, n, name, err);
    free(data);
    dm_release(l);
    return log;
}

static int64_t counter_of(const ri_darshan_log *log, unsigned m, size_t r, const char *name)
{
    int f;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && !f);
    return log->modules[m].records[r].counters[c];
}

static double fcounter_of(const ri_darshan_log *log, unsigned m, size_t r, const char *name)
{
    int f;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && f);
    return log->modules[m].records[r].fcounters[c];
}

/* Format 3.10 (Darshan 3.1): 16 slots, STDIO at 7 and DXT at 8 and 9 (today
 * 9, 10, 11), POSIX 3 without the fileno, dup and rename counters, MPI-IO 2
 * without the first close and last open times, STDIO 1 without fdopens,
 * DXT_MPIIO 1 without offsets; the other byte order, two streams a region. */
RK_TEST(darshan, format_3_10_maps_onto_todays_modules_and_counters)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = "3.10";
    l.swap = 1;
    l.split_streams = 1;
    l.partial = 1u << 8; /* old DXT_POSIX ran out of memory */
    const int64_t times[4] = {1500000000, 0, 1500000060, 0};
    dm_job(&l, 2, times, "lib_ver=3.1.8\n", "/bin/app -x", mounts, 2);
    dm_name(&l, ID_A, "/scratch/a.dat");
    dm_name(&l, ID_B, "/scratch/b.dat");
    counter_record(&l, 1, ID_A, -1, 64, 17, 100, 6); /* POSIX 3 */
    counter_record(&l, 2, ID_A, -1, 51, 15, 200, 7); /* MPI-IO 2 */
    counter_record(&l, 7, ID_B, 1, 13, 15, 300, 8);  /* STDIO 1 */
    dxt_record(&l, 8, ID_A, 0, 2, 1);
    dxt_record(&l, 9, ID_A, 1, 1, 0);
    l.versions[1] = 3;
    l.versions[2] = 2;
    l.versions[7] = 1;
    l.versions[8] = 1;
    l.versions[9] = 1;
    rec_error err;
    ri_darshan_log *log = read_made(&l, "v310.darshan", &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL(log->swapped, 1);
    CU_ASSERT_EQUAL(log->minor, 10);
    CU_ASSERT_EQUAL(log->header_size, 360);
    CU_ASSERT_EQUAL(log->nprocs, 2);
    CU_ASSERT_EQUAL(log->start_sec, 1500000000);
    CU_ASSERT_STRING_EQUAL(log->exe, "/bin/app -x");
    CU_ASSERT_EQUAL_FATAL(log->nmounts, 2);
    CU_ASSERT_STRING_EQUAL(log->mounts[1].path, "/scratch");
    CU_ASSERT_STRING_EQUAL(ri_darshan_name_of(log, ID_B), "/scratch/b.dat");
    /* modules renumbered */
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_STDIO].version, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_POSIX].version, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_MPIIO].version, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_H5D].region.length, 0);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_PNETCDF_VAR].region.length, 0);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_POSIX].partial, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_STDIO].partial, 0);
    CU_ASSERT_EQUAL(log->partial_flags, 1u << RI_DARSHAN_DXT_POSIX);
    /* POSIX 3: stored integers 0, 1, 2, ... are OPENS, READS, WRITES, ...; the
     * five counters it lacks read -1 (RENAMED_FROM 0) */
    CU_ASSERT_EQUAL_FATAL(log->modules[RI_DARSHAN_POSIX].nrecords, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_POSIX].records[0].rank, -1);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_OPENS"), 6);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_FILENOS"), -1);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_DUPS"), -1);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_READS"), 101);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_FDSYNCS"), 107);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_RENAME_SOURCES"), -1);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_RENAMED_FROM"), 0);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_MODE"), 108);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_SLOWEST_RANK_BYTES"), 163);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_F_CLOSE_START_TIMESTAMP"), 3.5);
    /* MPI-IO 2: floats 0-2 as stored, the next two -1, the rest from stored 3 on */
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_INDEP_OPENS"), 7);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_SLOWEST_RANK_BYTES"), 250);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_F_WRITE_START_TIMESTAMP"), 2.5);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_F_CLOSE_START_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_F_OPEN_END_TIMESTAMP"), -1);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_F_READ_END_TIMESTAMP"), 3.5);
    CU_ASSERT_EQUAL(fcounter_of(log, RI_DARSHAN_MPIIO, 0, "MPIIO_F_VARIANCE_RANK_BYTES"), 14.5);
    /* STDIO 1: FDOPENS -1 */
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_STDIO, 0, "STDIO_OPENS"), 8);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_STDIO, 0, "STDIO_FDOPENS"), -1);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_STDIO, 0, "STDIO_READS"), 301);
    /* DXT: writes then reads; DXT_MPIIO 1's offsets are unknown */
    const ri_darshan_dxt *d = &log->modules[RI_DARSHAN_DXT_POSIX].dxt[0];
    CU_ASSERT_EQUAL(d->nwrites, 2);
    CU_ASSERT_EQUAL(d->nreads, 1);
    CU_ASSERT_EQUAL(d->reads[0].offset, 8192);
    CU_ASSERT_EQUAL(d->reads[0].end, 3.25);
    CU_ASSERT_STRING_EQUAL(d->hostname, "node7");
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_MPIIO].dxt[0].writes[0].offset, -1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_MPIIO].dxt[0].writes[0].length, 4096);
    ri_darshan_free(log);
}

/* Format 3.00 (Darshan 3.0): name records with their length, POSIX 1 whose
 * records of streams (FOPENS at stored integer 6) are left out. */
RK_TEST(darshan, format_3_00_names_and_posix_1)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = "3.00";
    const int64_t times[4] = {1400000000, 0, 1400000010, 0};
    dm_job(&l, 1, times, "", "/bin/old", NULL, 0);
    dm_name(&l, ID_A, "/old/a");
    dm_name(&l, ID_B, "/old/b");
    /* POSIX 1: 68 integers (the 4 stream counters from 6), 15 floats */
    dm_buf *b = &l.modules[1];
    for (int rec = 0; rec < 2; rec++) {
        dm_u64(b, rec ? ID_B : ID_A, 0);
        dm_u64(b, 0, 0);
        for (unsigned i = 0; i < 68; i++)
            dm_u64(b, i == 6 ? (uint64_t)rec : 10 + i, 0); /* record B has a stream open */
        for (unsigned i = 0; i < 15; i++)
            dm_f64(b, i, 0);
    }
    l.versions[1] = 1;
    rec_error err;
    ri_darshan_log *log = read_made(&l, "v300.darshan", &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_STRING_EQUAL(ri_darshan_name_of(log, ID_A), "/old/a");
    CU_ASSERT_STRING_EQUAL(ri_darshan_name_of(log, ID_B), "/old/b");
    CU_ASSERT_EQUAL(log->nmounts, 0);
    CU_ASSERT_EQUAL_FATAL(log->modules[RI_DARSHAN_POSIX].nrecords, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_POSIX].records[0].id, ID_A);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_MMAPS"), 15);
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_FSYNCS"),
                    20); /* past the 4 stream counters */
    CU_ASSERT_EQUAL(counter_of(log, RI_DARSHAN_POSIX, 0, "POSIX_SLOWEST_RANK_BYTES"), 77);
    ri_darshan_free(log);
}

/* Format 3.21 (Darshan 3.2 to 3.4.0): H5D is there, PNETCDF_VAR not yet. */
RK_TEST(darshan, format_3_21_shifts_past_pnetcdf)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = "3.21";
    const int64_t times[4] = {1600000000, 0, 1600000001, 0};
    dm_job(&l, 4, times, "", "/bin/mid", mounts, 1);
    dm_name(&l, ID_A, "/mid/a");
    dxt_record(&l, 9, ID_A, 3, 0, 2); /* old DXT_POSIX */
    l.versions[9] = 1;
    l.partial = 1u << 9;
    rec_error err;
    ri_darshan_log *log = read_made(&l, "v321.darshan", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_EQUAL_FATAL(log->modules[RI_DARSHAN_DXT_POSIX].nrecords, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_POSIX].dxt[0].rank, 3);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_POSIX].dxt[0].nreads, 2);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_DXT_POSIX].partial, 1);
    CU_ASSERT_EQUAL(log->modules[RI_DARSHAN_STDIO].region.length, 0);
    ri_darshan_free(log);
}

/* ---- logs cut short or corrupted: one message, naming the byte ---- */

static void expect_error(const uint8_t *data, size_t n, const char *want)
{
    rec_error err = {{0}};
    ri_darshan_log *log = ri_darshan_read(data, n, "x.darshan", &err);
    CU_ASSERT_PTR_NULL(log);
    if (strcmp(err.msg, want) != 0)
        fprintf(stderr, "got:  %s\nwant: %s\n", err.msg, want);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    ri_darshan_free(log);
}

RK_TEST(darshan, truncated_logs_name_the_byte)
{
    char path[4096], want[2048];
    size_t n;
    uint8_t *data = slurp("ior-indep", &n, path, sizeof path);
    rec_error err;
    ri_darshan_log *log = ri_darshan_read(data, n, path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    expect_error(data, 5, "x.darshan: truncated header at byte 5: not even a version string");
    expect_error(data, 100, "x.darshan: truncated header at byte 100: a 3.41 header is 1328 bytes");
    /* cut inside the last region, then inside DXT_POSIX's */
    unsigned last = 0;
    for (unsigned m = 0; m < RI_DARSHAN_MAX_MODULES; m++)
        if (log->modules[m].region.offset > log->modules[last].region.offset)
            last = m;
    ri_darshan_region r = log->modules[last].region;
    CU_ASSERT_EQUAL(r.offset + r.length, n);
    snprintf(want, sizeof want,
             "x.darshan: truncated region at byte %zu: the %s module region ends at byte %zu", n - 7,
             ri_darshan_module_name(last), n);
    expect_error(data, n - 7, want);
    r = log->modules[RI_DARSHAN_DXT_POSIX].region;
    snprintf(want, sizeof want,
             "x.darshan: truncated region at byte %llu: the DXT_POSIX module region ends at byte %llu",
             (unsigned long long)(r.offset + 10), (unsigned long long)(r.offset + r.length));
    expect_error(data, r.offset + 10, want);
    ri_darshan_free(log);
    free(data);
}

RK_TEST(darshan, corrupt_logs_say_what_is_wrong)
{
    char path[4096], want[2048];
    size_t n;
    uint8_t *data = slurp("ior-indep", &n, path, sizeof path);
    rec_error err;
    ri_darshan_log *log = ri_darshan_read(data, n, path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    uint8_t *copy = malloc(n);
    memcpy(copy, data, n);
    copy[8] ^= 0x5a;
    expect_error(copy, n, "x.darshan: not a Darshan log: bad magic number at byte 8");
    memcpy(copy, data, n);
    memcpy(copy, "2.06\0\0\0\0", 8);
    expect_error(copy, n,
                 "x.darshan: Darshan log format 2.06: this reader reads 3.00, 3.10, 3.20, 3.21 and 3.41 "
                 "(Darshan 3.0 to 3.5)");
    memcpy(copy, "GIF89a\0\0", 8);
    expect_error(copy, n, "x.darshan: not a Darshan log: it does not start with a format version");
    /* the POSIX region's zlib header broken */
    ri_darshan_region r = log->modules[RI_DARSHAN_POSIX].region;
    memcpy(copy, data, n);
    copy[r.offset] = 0;
    snprintf(want, sizeof want,
             "x.darshan: corrupt POSIX module region at byte %llu: zlib: incorrect header check",
             (unsigned long long)(r.offset + 2));
    expect_error(copy, n, want);
    /* a region said to start inside the header */
    memcpy(copy, data, n);
    uint64_t inside = 100;
    memcpy(copy + 48 + 16 * RI_DARSHAN_MPIIO, &inside, 8);
    snprintf(want, sizeof want, "x.darshan: corrupt header: the MPI-IO module region is bytes 100 to %llu",
             (unsigned long long)(100 + log->modules[RI_DARSHAN_MPIIO].region.length));
    expect_error(copy, n, want);
    free(copy);
    ri_darshan_free(log);
    free(data);
}

RK_TEST(darshan, records_that_do_not_fit_their_region_are_corrupt)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = "3.41";
    const int64_t times[4] = {1700000000, 0, 1700000001, 0};
    dm_job(&l, 2, times, "", "/bin/x", mounts, 1);
    dm_name(&l, ID_A, "/a");
    counter_record(&l, RI_DARSHAN_POSIX, ID_A, 0, 69, 17, 0, 1);
    l.modules[RI_DARSHAN_POSIX].len -= 4;
    l.versions[RI_DARSHAN_POSIX] = 4;
    rec_error err;
    CU_ASSERT_PTR_NULL(read_made(&l, "x.darshan", &err));
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "x.darshan: corrupt POSIX region: 700 bytes are not whole 704-byte records "
                           "(module version 4)");
    memset(&l, 0, sizeof l);
    l.version = "3.41";
    dm_job(&l, 2, times, "", "/bin/x", mounts, 1);
    dxt_record(&l, RI_DARSHAN_DXT_MPIIO, ID_A, 1, 3, 1);
    l.modules[RI_DARSHAN_DXT_MPIIO].len -= 32; /* one segment short */
    l.versions[RI_DARSHAN_DXT_MPIIO] = 2;
    CU_ASSERT_PTR_NULL(read_made(&l, "x.darshan", &err));
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "x.darshan: corrupt DXT_MPIIO region: the record at byte 0 claims 3 writes and 1 "
                           "reads, 3 segments remain");
    memset(&l, 0, sizeof l);
    l.version = "3.41";
    dm_job(&l, 2, times, "", "/bin/x", mounts, 1);
    counter_record(&l, RI_DARSHAN_MPIIO, ID_A, 5, 51, 17, 0, 1);
    l.versions[RI_DARSHAN_MPIIO] = 4;
    CU_ASSERT_PTR_NULL(read_made(&l, "x.darshan", &err));
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "x.darshan: the MPI-IO module's version 4 is none this reader knows (1 to 3)");
    l.version = "3.41";
    dm_job(&l, 2, times, "", "/bin/x", mounts, 1);
    counter_record(&l, RI_DARSHAN_MPIIO, ID_A, 5, 51, 17, 0, 1);
    l.versions[RI_DARSHAN_MPIIO] = 3;
    CU_ASSERT_PTR_NULL(read_made(&l, "x.darshan", &err));
    CU_ASSERT_STRING_EQUAL(err.msg, "x.darshan: corrupt MPI-IO region: record 0 is of rank 5, the job had 2");
}
