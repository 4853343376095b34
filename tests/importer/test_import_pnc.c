/* Unit tests of the PnetCDF layer's calls of a Darshan log (importer/
 * import_upper_pnc.c) on the committed pnc-climate-nodxt log (two files of
 * 15 variables each, 4 ranks: collective, independent and nonblocking
 * writes, collective reads), as counted and with some of its PNETCDF_FILE
 * and PNETCDF_VAR counters changed: collective writes that do not divide
 * among the ranks, nonblocking writes without a counted wait. Each rank's
 * calls of climate.nc are tallied per variable (by the name its
 * ncmpi_def_var gave its id) and per sole role of their function. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_import.h"
#include "rk_test.h"

enum { NRANKS = 4, MAXVARS = 16 };

static ri_darshan_log *climate(void)
{
    rec_error err;
    ri_darshan_log *log = ri_darshan_open(RI_TEST_DATA_DIR "/pnc-climate-nodxt.darshan", &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    return log;
}

/* Sets a counter of the module's record whose name ends in `suffix` (NULL: of every record). */
static void set(ri_darshan_log *log, unsigned m, const char *suffix, const char *name, int64_t v)
{
    int f, hits = 0;
    int c = ri_darshan_counter_index(m, name, &f);
    CU_ASSERT_TRUE_FATAL(c >= 0 && !f);
    for (size_t i = 0; i < log->modules[m].nrecords; i++) {
        const char *n = ri_darshan_name_of(log, log->modules[m].records[i].id);
        size_t ln = n ? strlen(n) : 0, ls = suffix ? strlen(suffix) : 0;
        if (!suffix || (ln >= ls && strcmp(n + ln - ls, suffix) == 0)) {
            ((int64_t *)log->modules[m].records[i].counters)[c] = v;
            hits++;
        }
    }
    CU_ASSERT_TRUE_FATAL(hits > 0);
}

/* One rank's calls of climate.nc: per variable and sole role the calls and their bytes. */
typedef struct tally {
    char names[MAXVARS][32];
    long calls[MAXVARS][REC_SOLE_LIMIT], bytes[MAXVARS][REC_SOLE_LIMIT];
    long sole[REC_SOLE_LIMIT]; /* the file's calls of each sole role */
    long waited;               /* requests the waits completed */
    long mpiio_top, mpiio_nested, not_inferred;
} tally;

static int var_of(const tally *t, const char *name)
{
    for (int i = 0; i < MAXVARS; i++)
        if (strcmp(t->names[i], name) == 0)
            return i;
    return -1;
}

static int import(const ri_darshan_log *log, const char *name, tally *out, rec_error *err)
{
    char *dir = rk_test_dir(name);
    char trace[4096];
    snprintf(trace, sizeof trace, "%s/trace", dir);
    free(dir);
    memset(out, 0, NRANKS * sizeof *out);
    ri_import_summary sum;
    if (ri_import_darshan(log, trace, NULL, &sum, err) != 0)
        return -1;
    CU_ASSERT_TRUE(sum.pnetcdf_calls > 0);
    CU_ASSERT_EQUAL(sum.upper_calls, 0);
    rec_trace *t = rec_trace_open(trace, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (uint32_t r = 0; r < NRANKS; r++) {
        tally *n = &out[r];
        rec_cursor *c = rec_cursor_open(t, r, err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        rec_record rec;
        int64_t ncid = -1;
        while (rec_cursor_next(c, &rec, err) == 1) {
            const rec_func_desc *f = rec_table_lookup(rec_trace_table(t), rec.func);
            if (f->layer == REC_LAYER_MPIIO)
                *(rec.depth ? &n->mpiio_nested : &n->mpiio_top) += 1;
            if (f->layer != REC_LAYER_PNETCDF)
                continue;
            CU_ASSERT_EQUAL(rec.depth, 0);
            n->not_inferred += !rec.inferred;
            unsigned sole = rec_func_sole(rec_function_by_id(f->id));
            if (sole == REC_SOLE_CREATES_NC_FILE) { /* climate.nc, not climate_cdf2.nc */
                int p = rec_arg_with_kind(f, REC_KIND_PATH, REC_ARG_IN);
                const char *path = rec_cursor_path(c, rec.args[p].i);
                if (!path || !strstr(path, "/climate.nc")) /* the other file's calls may come between */
                    continue;
                ncid = rec.args[rec_arg_with_kind(f, REC_KIND_NC_ID, REC_ARG_OUT)].i;
            } else if (rec.args[0].i != ncid)
                continue;
            n->sole[sole]++;
            if (sole == REC_SOLE_DEFINES_NC_VAR) {
                int64_t id = rec.args[rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_OUT)].i;
                CU_ASSERT_TRUE_FATAL(id >= 0 && id < MAXVARS);
                snprintf(n->names[id], sizeof n->names[id], "%.*s", (int)rec.args[1].len,
                         (const char *)rec.args[1].ptr);
            }
            if (sole == REC_SOLE_WAITS_NC_ALL)
                n->waited += rec.args[rec_arg_with_kind(f, REC_KIND_COUNT, REC_ARG_IN)].i;
            int v = rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_IN),
                b = rec_arg_with_kind(f, REC_KIND_SIZE, 0);
            if (v >= 0 && b >= 0 && (f->flags & REC_FN_DATA)) {
                int64_t id = rec.args[v].i;
                CU_ASSERT_TRUE_FATAL(id >= 0 && id < MAXVARS);
                n->calls[id][sole]++;
                n->bytes[id][sole] += rec.args[b].i;
            }
        }
        rec_cursor_close(c);
    }
    rec_trace_close(t);
    return 0;
}

/* The calls and bytes of a variable of a rank in a sole role. */
#define EXPECT(t, var, sole, n, bytes_)                                                                      \
    do {                                                                                                     \
        int v_ = var_of(t, var);                                                                             \
        CU_ASSERT_TRUE_FATAL(v_ >= 0);                                                                       \
        CU_ASSERT_EQUAL((t)->calls[v_][REC_SOLE_##sole], n);                                                 \
        CU_ASSERT_EQUAL((t)->bytes[v_][REC_SOLE_##sole], bytes_);                                            \
    } while (0)

/* The committed log, per rank (its records reduced to rank -1, every count a multiple of 4). */
RK_TEST(import_pnc, the_climate_log_as_counted)
{
    ri_darshan_log *log = climate();
    tally t[NRANKS];
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "pnc-as-counted", t, &err), 0);
    for (int r = 0; r < NRANKS; r++) {
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_CREATES_NC_FILE], 1);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_OPENS_NC_FILE], 0);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_CLOSES_NC_FILE], 1);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_DEFINES_NC_VAR], 15);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_ENDS_NC_DEFINE], 1);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_BEGINS_NC_INDEP], 1);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_ENDS_NC_INDEP], 1);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_WAITS_NC_ALL], 4); /* PNETCDF_FILE_COLL_WAITS 16 */
        /* collective: put_vara_all (T 16 of 384 bytes, PS 16 of 128, lat 4 of 32, area's PUT_VARD 4 of 256)
         */
        EXPECT(&t[r], "T", WRITES_NC_VARA_ALL, 4, 4 * 384);
        EXPECT(&t[r], "PS", WRITES_NC_VARA_ALL, 4, 4 * 128);
        EXPECT(&t[r], "lat", WRITES_NC_VARA_ALL, 1, 32);
        EXPECT(&t[r], "area", WRITES_NC_VARA_ALL, 1, 256);
        EXPECT(&t[r], "area", READS_NC_VARA_ALL, 1, 256);
        /* independent: lon's PUT_VAR1 8 of 8 bytes, mask's PUT_VARA 4 of 128 */
        EXPECT(&t[r], "lon", WRITES_NC_VARA, 2, 16);
        EXPECT(&t[r], "mask", WRITES_NC_VARA, 1, 128);
        /* nonblocking: IPUT_VARA, IPUT_VARN and BPUT_VARA alike iput_vara */
        EXPECT(&t[r], "U", STARTS_NC_WRITE_VARA, 4, 4 * 768);
        EXPECT(&t[r], "V", STARTS_NC_WRITE_VARA, 4, 4 * 768);
        EXPECT(&t[r], "Q", STARTS_NC_WRITE_VARA, 4, 4 * 256);
        EXPECT(&t[r], "TS", STARTS_NC_WRITE_VARA, 4, 4 * 128);
        EXPECT(&t[r], "PRECT", STARTS_NC_WRITE_VARA, 4, 4 * 128);
        EXPECT(&t[r], "time", STARTS_NC_WRITE_VARA, 1, 8);
        /* defined, never read or written */
        EXPECT(&t[r], "FSNT", WRITES_NC_VARA_ALL, 0, 0);
        EXPECT(&t[r], "date", STARTS_NC_WRITE_VARA, 0, 0);
        CU_ASSERT_EQUAL(t[r].waited, 21); /* every request of the rank's */
        CU_ASSERT_EQUAL(t[r].mpiio_top, 0);
        CU_ASSERT_TRUE(t[r].mpiio_nested > 0);
        CU_ASSERT_EQUAL(t[r].not_inferred, 0);
    }
    ri_darshan_free(log);
}

/* T's 18 collective writes over 4 ranks: 4 collective ones each, the 2 left independent (ranks 0 and 1). */
RK_TEST(import_pnc, collective_calls_alike_on_every_rank)
{
    ri_darshan_log *log = climate();
    const unsigned V = RI_DARSHAN_PNETCDF_VAR;
    set(log, V, "/climate.nc:T", "PNETCDF_VAR_COLL_WRITES", 18);
    set(log, V, "/climate.nc:T", "PNETCDF_VAR_PUT_VARA", 18);
    set(log, V, "/climate.nc:T", "PNETCDF_VAR_BYTES_WRITTEN", 18 * 384);
    set(log, V, "/climate.nc:T", "PNETCDF_VAR_SIZE_WRITE_AGG_100_1K", 18);
    set(log, V, "/climate.nc:T", "PNETCDF_VAR_ACCESS1_COUNT", 18);
    tally t[NRANKS];
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "pnc-remainder", t, &err), 0);
    long bytes = 0;
    for (int r = 0; r < NRANKS; r++) {
        EXPECT(&t[r], "T", WRITES_NC_VARA_ALL, 4, 4 * 384);
        EXPECT(&t[r], "T", WRITES_NC_VARA, r < 2, r < 2 ? 384 : 0);
        bytes += t[r].bytes[var_of(&t[r], "T")][REC_SOLE_WRITES_NC_VARA_ALL] +
                 t[r].bytes[var_of(&t[r], "T")][REC_SOLE_WRITES_NC_VARA];
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_BEGINS_NC_INDEP], 1);
    }
    CU_ASSERT_EQUAL(bytes, 18 * 384);
    ri_darshan_free(log);
}

/* Nonblocking writes and no wait counted: one ncmpi_wait_all completes them all. */
RK_TEST(import_pnc, one_wait_when_none_is_counted)
{
    ri_darshan_log *log = climate();
    set(log, RI_DARSHAN_PNETCDF_FILE, NULL, "PNETCDF_FILE_COLL_WAITS", 0);
    tally t[NRANKS];
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "pnc-no-waits", t, &err), 0);
    for (int r = 0; r < NRANKS; r++) {
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_WAITS_NC_ALL], 1);
        CU_ASSERT_EQUAL(t[r].waited, 21);
    }
    ri_darshan_free(log);
}

/* No independent call anywhere: no independent data mode either. */
RK_TEST(import_pnc, no_independent_mode_without_independent_calls)
{
    ri_darshan_log *log = climate();
    const unsigned V = RI_DARSHAN_PNETCDF_VAR;
    for (int i = 0; i < 2; i++) { /* lon's 8 and mask's 4 made collective */
        const char *var = i ? "/climate.nc:mask" : "/climate.nc:lon";
        set(log, V, var, "PNETCDF_VAR_COLL_WRITES", i ? 4 : 8);
        set(log, V, var, "PNETCDF_VAR_INDEP_WRITES", 0);
    }
    tally t[NRANKS];
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(import(log, "pnc-no-indep", t, &err), 0);
    for (int r = 0; r < NRANKS; r++) {
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_BEGINS_NC_INDEP], 0);
        CU_ASSERT_EQUAL(t[r].sole[REC_SOLE_ENDS_NC_INDEP], 0);
        EXPECT(&t[r], "lon", WRITES_NC_VARA_ALL, 2, 16);
        EXPECT(&t[r], "mask", WRITES_NC_VARA_ALL, 1, 128);
    }
    ri_darshan_free(log);
}
