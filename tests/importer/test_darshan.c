/* Unit tests of the Darshan log reader against Darshan itself: each log of
 * tests/data/darshan is read, and everything Darshan 3.5.0's darshan-parser
 * and darshan-dxt-parser read in it (NAME.figures, bench/real-apps/darshan.sh)
 * must be what the reader read: the header, the regions and their module
 * versions, the mount table, every record of the POSIX, MPI-IO, STDIO,
 * H5F, H5D, PNETCDF_FILE and PNETCDF_VAR modules with every counter (and
 * the file record id of each dataset and variable) (those the figures leave out are 0, as %f
 * prints them), every
 * DXT record and segment. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_import.h"
#include "rk_test.h"

static int module_id(const char *name)
{
    for (unsigned m = 0; m < RI_DARSHAN_KNOWN_MODULES; m++)
        if (strcmp(ri_darshan_module_name(m), name) == 0)
            return (int)m;
    return -1;
}

static long find_record(const ri_darshan_module *m, uint64_t id, int64_t rank)
{
    for (size_t i = 0; i < m->nrecords; i++)
        if (m->records[i].id == id && m->records[i].rank == rank)
            return (long)i;
    return -1;
}

static const ri_darshan_dxt *find_dxt(const ri_darshan_module *m, uint64_t id, int64_t rank)
{
    for (size_t i = 0; i < m->nrecords; i++)
        if (m->dxt[i].id == id && m->dxt[i].rank == rank)
            return &m->dxt[i];
    return NULL;
}

/* Which counters of each record the figures listed. */
typedef struct listed {
    unsigned char *ints[RI_DARSHAN_KNOWN_MODULES], *floats[RI_DARSHAN_KNOWN_MODULES];
} listed;

static void check_log(const char *name)
{
    char path[4096], fpath[4096];
    snprintf(path, sizeof path, "%s/%s.darshan", RI_TEST_DATA_DIR, name);
    snprintf(fpath, sizeof fpath, "%s/%s.figures", RI_TEST_DATA_DIR, name);
    rec_error err = {{0}};
    ri_darshan_log *log = ri_darshan_open(path, &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    FILE *fp = fopen(fpath, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    listed seen;
    memset(&seen, 0, sizeof seen);
    for (unsigned m = 0; m < RI_DARSHAN_KNOWN_MODULES; m++) {
        const ri_darshan_module *mod = &log->modules[m];
        if (mod->records) {
            seen.ints[m] = calloc(mod->nrecords * mod->ncounters + 1, 1);
            seen.floats[m] = calloc(mod->nrecords * mod->nfcounters + 1, 1);
        }
    }
    size_t regions = 0, mounts = 0, records[RI_DARSHAN_KNOWN_MODULES] = {0}, segments = 0, facts = 0;
    char line[8192];
    while (fgets(line, sizeof line, fp)) {
        line[strcspn(line, "\n")] = 0;
        char key[32], mod[32], a[4096], b[4096];
        long long rank, offset;
        unsigned long long id, x, y, length;
        double f, g;
        if (line[0] == '#' || sscanf(line, "%31s", key) != 1)
            continue;
        const char *rest = line + strlen(key) + (line[strlen(key)] ? 1 : 0);
        facts++;
        if (strcmp(key, "version") == 0) {
            CU_ASSERT_STRING_EQUAL(log->version, rest);
        } else if (strcmp(key, "compression") == 0) {
            CU_ASSERT_EQUAL(log->compression, strcmp(rest, "ZLIB") == 0    ? RI_DARSHAN_ZLIB
                                              : strcmp(rest, "BZIP2") == 0 ? RI_DARSHAN_BZIP2
                                                                           : RI_DARSHAN_NO_COMPRESSION);
        } else if (strcmp(key, "exe") == 0) {
            CU_ASSERT_STRING_EQUAL(log->exe, rest);
        } else if (strcmp(key, "nprocs") == 0) {
            CU_ASSERT_EQUAL(log->nprocs, atoll(rest));
        } else if (strcmp(key, "jobid") == 0) {
            CU_ASSERT_EQUAL(log->jobid, atoll(rest));
        } else if (strcmp(key, "start_time") == 0) {
            CU_ASSERT_EQUAL(log->start_sec, atoll(rest));
        } else if (strcmp(key, "end_time") == 0) {
            CU_ASSERT_EQUAL(log->end_sec, atoll(rest));
        } else if (strcmp(key, "region") == 0 && sscanf(rest, "%31s %llu %llu", mod, &x, &y) == 3) {
            int m = module_id(mod);
            CU_ASSERT_TRUE_FATAL(m >= 0);
            CU_ASSERT_EQUAL(log->modules[m].region.length, x);
            CU_ASSERT_EQUAL(log->modules[m].version, y);
            regions++;
        } else if (strcmp(key, "mount") == 0 && sscanf(rest, "%4095s %4095s", a, b) == 2) {
            int found = 0;
            for (size_t i = 0; i < log->nmounts; i++)
                found |= strcmp(log->mounts[i].path, a) == 0 && strcmp(log->mounts[i].type, b) == 0;
            CU_ASSERT_TRUE(found);
            mounts++;
        } else if (strcmp(key, "record") == 0 &&
                   sscanf(rest, "%31s %lld %llu %4095[^\n]", mod, &rank, &id, a) == 4) {
            int m = module_id(mod);
            CU_ASSERT_TRUE_FATAL(m >= 0);
            CU_ASSERT_TRUE(find_record(&log->modules[m], id, rank) >= 0);
            const char *named = ri_darshan_name_of(log, id);
            CU_ASSERT_PTR_NOT_NULL_FATAL(named);
            CU_ASSERT_STRING_EQUAL(named, a);
            records[m]++;
        } else if ((strcmp(key, "counter") == 0 || strcmp(key, "fcounter") == 0) &&
                   sscanf(rest, "%31s %lld %llu %4095s %lf", mod, &rank, &id, a, &f) == 5) {
            int m = module_id(mod), is_float = -1;
            CU_ASSERT_TRUE_FATAL(m >= 0);
            long r = find_record(&log->modules[m], id, rank);
            if (strstr(a, "_FILE_REC_ID")) { /* H5D's, PNETCDF_VAR's file */
                CU_ASSERT_TRUE_FATAL(r >= 0);
                CU_ASSERT_EQUAL(log->modules[m].records[r].file_id, strtoull(strrchr(rest, ' ') + 1, NULL, 10));
                continue;
            }
            int c = ri_darshan_counter_index((unsigned)m, a, &is_float);
            CU_ASSERT_TRUE_FATAL(r >= 0 && c >= 0);
            CU_ASSERT_EQUAL(is_float, key[0] == 'f');
            const ri_darshan_module *mo = &log->modules[m];
            if (is_float) {
                CU_ASSERT_TRUE(fabs(mo->records[r].fcounters[c] - f) <= 1e-6 * (1 + fabs(f)));
                seen.floats[m][r * mo->nfcounters + c] = 1;
            } else {
                /* record ids (RENAMED_FROM) are printed unsigned */
                CU_ASSERT_EQUAL(mo->records[r].counters[c],
                                (int64_t)strtoull(strrchr(rest, ' ') + 1, NULL, 10));
                seen.ints[m][r * mo->ncounters + c] = 1;
            }
        } else if (strcmp(key, "dxt") == 0 &&
                   sscanf(rest, "%31s %lld %llu %4095s %llu %llu", mod, &rank, &id, a, &x, &y) == 6) {
            const ri_darshan_dxt *d = find_dxt(&log->modules[module_id(mod)], id, rank);
            CU_ASSERT_PTR_NOT_NULL_FATAL(d);
            CU_ASSERT_STRING_EQUAL(d->hostname, a);
            CU_ASSERT_EQUAL(d->nwrites, x);
            CU_ASSERT_EQUAL(d->nreads, y);
        } else if (strcmp(key, "segment") == 0 &&
                   sscanf(rest, "%31s %lld %llu %4095s %llu %lld %llu %lf %lf", mod, &rank, &id, a, &x,
                          &offset, &length, &f, &g) == 9) {
            const ri_darshan_dxt *d = find_dxt(&log->modules[module_id(mod)], id, rank);
            CU_ASSERT_PTR_NOT_NULL_FATAL(d);
            int write = strcmp(a, "write") == 0;
            CU_ASSERT_TRUE_FATAL(x < (write ? d->nwrites : d->nreads));
            const ri_darshan_segment *s = write ? &d->writes[x] : &d->reads[x];
            CU_ASSERT_EQUAL(s->offset, offset);
            CU_ASSERT_EQUAL((unsigned long long)s->length, length);
            CU_ASSERT_TRUE(fabs(s->start - f) <= 6e-5 && fabs(s->end - g) <= 6e-5);
            segments++;
        } else {
            CU_FAIL("a line of the figures this test does not know");
            fprintf(stderr, "%s: %s\n", fpath, line);
        }
    }
    fclose(fp);
    CU_ASSERT_TRUE(facts > 20);
    /* Nothing more in the log than in the figures. */
    size_t present = 0, dxt_segments = 0;
    for (unsigned m = 0; m < RI_DARSHAN_MAX_MODULES; m++)
        present += log->modules[m].region.length > 0;
    CU_ASSERT_EQUAL(regions, present);
    CU_ASSERT_EQUAL(mounts, log->nmounts);
    static const unsigned counted[] = {RI_DARSHAN_POSIX, RI_DARSHAN_MPIIO,        RI_DARSHAN_STDIO,
                                       RI_DARSHAN_H5F,   RI_DARSHAN_H5D,          RI_DARSHAN_PNETCDF_FILE,
                                       RI_DARSHAN_PNETCDF_VAR};
    for (size_t k = 0; k < sizeof counted / sizeof counted[0]; k++) {
        unsigned m = counted[k];
        const ri_darshan_module *mo = &log->modules[m];
        CU_ASSERT_EQUAL(records[m], mo->nrecords);
        for (size_t r = 0; r < mo->nrecords; r++) {
            for (unsigned c = 0; c < mo->ncounters; c++)
                if (!seen.ints[m][r * mo->ncounters + c])
                    CU_ASSERT_EQUAL(mo->records[r].counters[c], 0);
            for (unsigned c = 0; c < mo->nfcounters; c++)
                if (!seen.floats[m][r * mo->nfcounters + c]) /* printed 0.000000 */
                    CU_ASSERT_TRUE(fabs(mo->records[r].fcounters[c]) < 5e-7);
        }
    }
    for (unsigned m = RI_DARSHAN_DXT_POSIX; m <= RI_DARSHAN_DXT_MPIIO; m++)
        for (size_t r = 0; r < log->modules[m].nrecords; r++)
            dxt_segments += log->modules[m].dxt[r].nwrites + log->modules[m].dxt[r].nreads;
    CU_ASSERT_EQUAL(segments, dxt_segments);
    if (strstr(name, "nodxt")) {
        CU_ASSERT_EQUAL(dxt_segments, 0);
    } else {
        CU_ASSERT_TRUE(dxt_segments > 0);
    }
    for (unsigned m = 0; m < RI_DARSHAN_KNOWN_MODULES; m++) {
        free(seen.ints[m]);
        free(seen.floats[m]);
    }
    ri_darshan_free(log);
}

RK_TEST(darshan, ior_independent_log_is_what_darshan_reads)
{
    check_log("ior-indep");
}

RK_TEST(darshan, ior_collective_log_is_what_darshan_reads)
{
    check_log("ior-coll");
}

RK_TEST(darshan, vpic_hdf5_log_is_what_darshan_reads)
{
    check_log("vpic");
}

RK_TEST(darshan, file_per_process_log_is_what_darshan_reads)
{
    check_log("fpp");
}

RK_TEST(darshan, bzip2_log_is_what_darshan_reads)
{
    if (!ri_darshan_reads_bzip2()) {
        fprintf(stderr, "built without libbz2: the bzip2 log is refused\n");
        return;
    }
    check_log("ior-indep-bzip2");
}

/* The upper layers: Darshan's HDF5 module (H5F, H5D) over vpic-like and
 * h5-chunked, with DXT and without. */
RK_TEST(darshan, hdf5_module_logs_are_what_darshan_reads)
{
    check_log("h5-vpic");
    check_log("h5-vpic-nodxt");
    check_log("h5-chunked");
    check_log("h5-chunked-nodxt");
}

/* Darshan's PnetCDF module (PNETCDF_FILE, PNETCDF_VAR) over pnc_climate
 * (Open MPI), with DXT and without. */
RK_TEST(darshan, pnetcdf_module_logs_are_what_darshan_reads)
{
    check_log("pnc-climate");
    check_log("pnc-climate-nodxt");
}
