/* Unit tests of the HDF5 layer's calls of a Darshan log (importer/
 * import_upper.c) on the committed h5-vpic log with some of its H5F and
 * H5D counters changed, for what the committed logs do not have: a file
 * opened without the MPI-IO driver, more opens of a dataset than the
 * sessions its calls fall in, more H5F opens than MPI-IO sessions, and a
 * corrupt record's counts. Each rank's calls are counted by the table's
 * sole role of their function. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_import.h"
#include "rk_test.h"

enum { NRANKS = 4 };

static ri_darshan_log *vpic(void)
{
    rec_error err;
    ri_darshan_log *log = ri_darshan_open(RI_TEST_DATA_DIR "/h5-vpic.darshan", &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    return log;
}

/* Sets the counter of every record of the module (or, with id != 0, of that record). */
static void set(ri_darshan_log *log, unsigned m, uint64_t id, const char *name, int64_t v)
{
    int f;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && !f);
    for (size_t i = 0; i < log->modules[m].nrecords; i++)
        if (!id || log->modules[m].records[i].id == id)
            ((int64_t *)log->modules[m].records[i].counters)[c] = v;
}

typedef struct counts {
    long sole[REC_SOLE_LIMIT]; /* every rank's calls of each sole role, at the top */
    long hdf5, mpiio_top, mpiio_nested, not_inferred_hdf5;
} counts;

static int import(const ri_darshan_log *log, const char *name, counts *n, rec_error *err)
{
    char *dir = rk_test_dir(name);
    char trace[4096];
    snprintf(trace, sizeof trace, "%s/trace", dir);
    free(dir);
    memset(n, 0, sizeof *n);
    if (ri_import_darshan(log, trace, NULL, NULL, err) != 0)
        return -1;
    rec_trace *t = rec_trace_open(trace, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (uint32_t r = 0; r < NRANKS; r++) {
        rec_cursor *c = rec_cursor_open(t, r, err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        rec_record rec;
        while (rec_cursor_next(c, &rec, err) == 1) {
            const rec_func_desc *f = rec_table_lookup(rec_trace_table(t), rec.func);
            if (f->layer == REC_LAYER_HDF5) {
                n->hdf5++;
                n->not_inferred_hdf5 += !rec.inferred;
                CU_ASSERT_EQUAL(rec.depth, 0);
                if (rec.depth == 0)
                    n->sole[rec_func_sole(rec_function_by_id(f->id))]++;
            } else if (f->layer == REC_LAYER_MPIIO)
                *(rec.depth ? &n->mpiio_nested : &n->mpiio_top) += 1;
        }
        rec_cursor_close(c);
    }
    rec_trace_close(t);
    return 0;
}

/* The committed log: per rank 2 sessions, 16 datasets each written and read once. */
RK_TEST(import_upper, the_vpic_log_as_counted)
{
    ri_darshan_log *log = vpic();
    counts n;
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "upper-vpic", &n, &err), 0);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CREATES_H5_FILE], 4);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_OPENS_H5_FILE], 4);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CLOSES_H5_FILE], 8);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_SETS_FAPL_MPIO], 4);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_SETS_DXPL_MPIO], 4);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CREATES_DATASET], 64);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_OPENS_DATASET], 64);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CLOSES_DATASET], 128);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_WRITES_DATASET], 64);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_READS_DATASET], 64);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_SETS_CHUNK], 0);
    CU_ASSERT_EQUAL(n.not_inferred_hdf5, 0);
    CU_ASSERT_EQUAL(n.mpiio_top, 0);
    /* 4 of them MPI_File_get_size (POSIX_SEEKS 5: rank 0 two in one call, the others one), after the accesses */
    CU_ASSERT_EQUAL(n.mpiio_nested, 268);
    ri_darshan_free(log);
}

/* Without the MPI-IO driver: no access list is set; a dataset opened 4
 * times a rank (16 over the ranks): its 2 extra opens a rank open and close
 * it with no call; 12 H5F opens over 2 MPI-IO sessions a rank: the third
 * session of each rank holds no MPI-IO call, its datasets' extra opens in
 * it. */
RK_TEST(import_upper, opens_beyond_the_sessions_and_no_mpiio_driver)
{
    ri_darshan_log *log = vpic();
    uint64_t one = log->modules[RI_DARSHAN_H5D].records[0].id;
    set(log, RI_DARSHAN_H5F, 0, "H5F_USE_MPIIO", 0);
    set(log, RI_DARSHAN_H5D, one, "H5D_OPENS", 16);
    set(log, RI_DARSHAN_H5F, 0, "H5F_OPENS", 12);
    counts n;
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "upper-opens", &n, &err), 0);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_SETS_FAPL_MPIO], 0);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_SETS_DXPL_MPIO], 0);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CREATES_H5_FILE], 4);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_OPENS_H5_FILE], 8);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CLOSES_H5_FILE], 12);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CREATES_DATASET] + n.sole[REC_SOLE_OPENS_DATASET], 128 + 8);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_CLOSES_DATASET], 128 + 8);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_WRITES_DATASET], 64);
    CU_ASSERT_EQUAL(n.sole[REC_SOLE_READS_DATASET], 64);
    CU_ASSERT_EQUAL(n.mpiio_top, 0);
    ri_darshan_free(log);
}

/* A corrupt record's counts: too many calls to place is an error naming the log. */
RK_TEST(import_upper, a_corrupt_record_is_refused)
{
    ri_darshan_log *log = vpic();
    set(log, RI_DARSHAN_H5D, log->modules[RI_DARSHAN_H5D].records[0].id, "H5D_WRITES", (int64_t)1 << 40);
    counts n;
    rec_error err = {{0}};
    CU_ASSERT_EQUAL(import(log, "upper-corrupt", &n, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "h5-vpic.darshan: an H5D record counts more than 4194304"));
    ri_darshan_log *l2 = vpic();
    set(l2, RI_DARSHAN_H5F, 0, "H5F_OPENS", (int64_t)1 << 40);
    CU_ASSERT_EQUAL(import(l2, "upper-corrupt-opens", &n, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "an H5F record counts more than 4194304 opens"));
    ri_darshan_free(log);
    ri_darshan_free(l2);
}
