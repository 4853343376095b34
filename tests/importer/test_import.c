/* Unit tests of the trace of a Darshan log (ri_import_darshan) on logs the
 * test writes: which calls each rank gets, in which order, at which depth,
 * with which arguments, and which are marked inferred; for the scopes the
 * committed logs do not have (an MPI-IO file of one rank, over
 * MPI_COMM_SELF; a POSIX file every rank opened twice) and the choices the
 * counters make (collective or not, the MPI-IO mode). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan_make.h"
#include "recorder_import.h"
#include "rk_test.h"

enum { ID = 777 };

/* A record of a counter module in today's layout: the named counters set,
 * the others 0. */
static void record(dm_log *l, unsigned module, int64_t rank, const char *const *names, const int64_t *values,
                   size_t n)
{
    unsigned nints = module == RI_DARSHAN_POSIX ? 69 : 51, nfloats = 17;
    int64_t ints[69] = {0};
    for (size_t i = 0; i < n; i++) {
        int f;
        int c = ri_darshan_counter_index(module, names[i], &f);
        CU_ASSERT_TRUE_FATAL(c >= 0 && !f);
        ints[c] = values[i];
    }
    dm_buf *b = &l->modules[module];
    dm_u64(b, ID, 0);
    dm_u64(b, (uint64_t)rank, 0);
    for (unsigned i = 0; i < nints; i++)
        dm_u64(b, (uint64_t)ints[i], 0);
    for (unsigned i = 0; i < nfloats; i++)
        dm_f64(b, -1, 0); /* no times: the opens go where the accesses are */
    l->versions[module] = module == RI_DARSHAN_POSIX ? 4 : 3;
}

typedef struct seg {
    int write;
    int64_t offset, length;
    double start, end;
} seg;

static void dxt(dm_log *l, unsigned module, int64_t rank, const seg *s, size_t n)
{
    dm_buf *b = &l->modules[module];
    uint64_t w = 0, r = 0;
    for (size_t i = 0; i < n; i++)
        *(s[i].write ? &w : &r) += 1;
    dm_u64(b, ID, 0);
    dm_u64(b, (uint64_t)rank, 0);
    dm_u64(b, 0, 0);
    char host[64] = "n1";
    dm_put(b, host, 64);
    dm_u64(b, w, 0);
    dm_u64(b, r, 0);
    for (int writes = 1; writes >= 0; writes--) /* writes first */
        for (size_t i = 0; i < n; i++)
            if (s[i].write == writes) {
                dm_u64(b, (uint64_t)s[i].offset, 0);
                dm_u64(b, (uint64_t)s[i].length, 0);
                dm_f64(b, s[i].start, 0);
                dm_f64(b, s[i].end, 0);
            }
    l->versions[module] = module == RI_DARSHAN_DXT_POSIX ? 1 : 2;
}

static void start_log(dm_log *l, int64_t nprocs)
{
    memset(l, 0, sizeof *l);
    l->version = "3.41";
    const int64_t times[4] = {1700000000, 0, 1700000010, 0};
    dm_job(l, nprocs, times, "lib_ver=3.5.0\n", "/bin/app", NULL, 0);
    dm_name(l, ID, "/scratch/run/out.dat");
}

/* The import's trace of the log, rank by rank, as lines
 * "DEPTH NAME [inferred]" and the arguments the test asks about. */
static char *import_lines(dm_log *l, const char *name, uint32_t rank)
{
    size_t n;
    uint8_t *data = dm_write(l, &n);
    rec_error err;
    ri_darshan_log *log = ri_darshan_read(data, n, name, &err);
    if (!log)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    char *dir = rk_test_dir(name);
    char trace[4096];
    snprintf(trace, sizeof trace, "%s/trace-%u", dir, rank);
    ri_import_summary sum;
    if (ri_import_darshan(log, trace, NULL, &sum, &err) != 0)
        fprintf(stderr, "%s\n", err.msg);
    rec_trace *t = rec_trace_open(trace, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    rec_cursor *c = rec_cursor_open(t, rank, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    size_t cap = 1 << 16, len = 0;
    char *out = calloc(cap, 1);
    rec_record r;
    while (rec_cursor_next(c, &r, &err) == 1) {
        const rec_func_desc *f = rec_table_lookup(rec_trace_table(t), r.func);
        len += (size_t)snprintf(out + len, cap - len, "%u %s", r.depth, f->name);
        for (unsigned a = 0; a < f->nargs; a++) {
            unsigned k = f->args[a].kind;
            if (k == REC_KIND_OFFSET || k == REC_KIND_MPI_FILE_POS || k == REC_KIND_OFLAGS ||
                k == REC_KIND_MPI_AMODE || k == REC_KIND_MPI_COMM)
                len += (size_t)snprintf(out + len, cap - len, " %s=%lld", f->args[a].name, (long long)r.args[a].i);
        }
        len += (size_t)snprintf(out + len, cap - len, "%s\n", r.inferred ? " [inferred]" : "");
    }
    rec_cursor_close(c);
    rec_trace_close(t);
    ri_darshan_free(log);
    free(data);
    free(dir);
    return out;
}

static void expect_lines(const char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fprintf(stderr, "got:\n%swant:\n%s", got, want);
    CU_ASSERT_STRING_EQUAL(got, want);
}

/* The import's trace of rank `rank` of the log is `want`. */
static void expect_rank(dm_log *l, const char *name, uint32_t rank, const char *want)
{
    char *got = import_lines(l, name, rank);
    expect_lines(got, want);
    free(got);
}

static int64_t comm_id(const char *name)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        if (rec_predefined_handles[i].kind == REC_KIND_MPI_COMM && strcmp(rec_predefined_handles[i].name, name) == 0)
            return rec_predefined_handles[i].id;
    return -1;
}

/* An MPI-IO file only rank 1 opened: over MPI_COMM_SELF, its POSIX open
 * inside, its pwrites inside the MPI_File_write_at they came from; rank 0
 * starts and ends MPI only. */
RK_TEST(import, a_file_of_one_rank_is_opened_over_comm_self)
{
    dm_log l;
    start_log(&l, 2);
    record(&l, RI_DARSHAN_POSIX, 1, (const char *[]){"POSIX_OPENS", "POSIX_WRITES", "POSIX_MODE"},
           (int64_t[]){1, 2, 0600}, 3);
    record(&l, RI_DARSHAN_MPIIO, 1, (const char *[]){"MPIIO_INDEP_OPENS", "MPIIO_INDEP_WRITES"}, (int64_t[]){1, 2}, 2);
    const seg mpi[] = {{1, 0, 100, 2.0, 2.1}, {1, 100, 100, 2.2, 2.3}};
    const seg posix[] = {{1, 0, 100, 2.01, 2.09}, {1, 100, 100, 2.21, 2.31}}; /* the last one ends late: clipped */
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, mpi, 2);
    dxt(&l, RI_DARSHAN_DXT_POSIX, 1, posix, 2);
    char want[2048];
    snprintf(want, sizeof want,
             "0 MPI_Init [inferred]\n"
             "1 open flags=%d [inferred]\n"
             "0 MPI_File_open comm=%lld amode=%d [inferred]\n"
             "1 pwrite offset=0\n"
             "0 MPI_File_write_at offset=0\n"
             "1 pwrite offset=100\n"
             "0 MPI_File_write_at offset=100\n"
             "1 close [inferred]\n"
             "0 MPI_File_close [inferred]\n"
             "0 MPI_Finalize [inferred]\n",
             O_WRONLY | O_CREAT, (long long)comm_id("MPI_COMM_SELF"), MPI_MODE_WRONLY | MPI_MODE_CREATE);
    char *got = import_lines(&l, "self-scope", 1);
    expect_lines(got, want);
    free(got);
    dm_release(&l);
    start_log(&l, 2);
    record(&l, RI_DARSHAN_MPIIO, 1, (const char *[]){"MPIIO_INDEP_OPENS", "MPIIO_INDEP_WRITES"}, (int64_t[]){1, 2}, 2);
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, mpi, 2);
    got = import_lines(&l, "self-scope-rank0", 0);
    expect_lines(got, "0 MPI_Init [inferred]\n0 MPI_Finalize [inferred]\n");
    free(got);
    dm_release(&l);
}

/* A POSIX file every rank opened twice (the rank -1 record counts 4 opens
 * over 2 ranks): each rank's accesses split at their longest pause, a
 * write-only created session, then a read-only one. */
RK_TEST(import, a_shared_file_opened_twice_splits_at_the_longest_pause)
{
    dm_log l;
    start_log(&l, 2);
    record(&l, RI_DARSHAN_POSIX, -1, (const char *[]){"POSIX_OPENS", "POSIX_WRITES", "POSIX_READS"},
           (int64_t[]){4, 3, 3}, 3);
    const seg r0[] = {{1, 0, 10, 1.0, 1.1}, {1, 10, 10, 1.2, 1.3}, {0, 0, 10, 5.0, 5.1}, {0, 10, 10, 5.2, 5.3}};
    const seg r1[] = {{1, 20, 10, 1.05, 1.15}, {0, 20, 10, 5.05, 5.15}};
    dxt(&l, RI_DARSHAN_DXT_POSIX, 0, r0, 4);
    dxt(&l, RI_DARSHAN_DXT_POSIX, 1, r1, 2);
    char want[2048];
    snprintf(want, sizeof want,
             "0 open flags=%d [inferred]\n0 pwrite offset=20\n0 close [inferred]\n"
             "0 open flags=%d [inferred]\n0 pread offset=20\n0 close [inferred]\n",
             O_WRONLY | O_CREAT, O_RDONLY);
    /* two processes, no MPI-IO: an MPI job all the same */
    char *got = import_lines(&l, "shared-twice", 1);
    const char *body = strchr(got, '\n') + 1; /* after MPI_Init */
    CU_ASSERT_EQUAL(strncmp(got, "0 MPI_Init [inferred]\n", 22), 0);
    CU_ASSERT_EQUAL(strncmp(body, want, strlen(want)), 0);
    if (strncmp(body, want, strlen(want)) != 0)
        fprintf(stderr, "got:\n%swant:\n%s", body, want);
    free(got);
    got = import_lines(&l, "shared-twice-rank0", 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "0 pwrite offset=10\n0 close [inferred]\n0 open"));
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "0 pread offset=10\n0 close [inferred]\n0 MPI_Finalize"));
    free(got);
    dm_release(&l);
}

/* MPI-IO accesses are collective as the counters count them (every write
 * here, no read); one open takes the record's mode. */
RK_TEST(import, the_counters_say_collective_and_the_mode)
{
    dm_log l;
    start_log(&l, 2);
    record(&l, RI_DARSHAN_MPIIO, -1,
           (const char *[]){"MPIIO_COLL_OPENS", "MPIIO_COLL_WRITES", "MPIIO_INDEP_WRITES", "MPIIO_INDEP_READS",
                            "MPIIO_MODE"},
           (int64_t[]){2, 4, 0, 2, MPI_MODE_RDWR | MPI_MODE_CREATE}, 5);
    const seg s0[] = {{1, 0, 8, 1.0, 1.1}, {1, 16, 8, 1.2, 1.3}, {0, 0, 8, 1.4, 1.5}};
    const seg s1[] = {{1, 8, 8, 1.0, 1.1}, {1, 24, 8, 1.2, 1.3}, {0, 8, 8, 1.4, 1.5}};
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 0, s0, 3);
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, s1, 3);
    char want[2048];
    snprintf(want, sizeof want,
             "0 MPI_Init [inferred]\n"
             "0 MPI_File_open comm=%lld amode=%d [inferred]\n"
             "0 MPI_File_write_at_all offset=8\n"
             "0 MPI_File_write_at_all offset=24\n"
             "0 MPI_File_read_at offset=8\n"
             "0 MPI_File_close [inferred]\n"
             "0 MPI_Finalize [inferred]\n",
             (long long)comm_id("MPI_COMM_WORLD"), MPI_MODE_RDWR | MPI_MODE_CREATE);
    char *got = import_lines(&l, "collective", 1);
    expect_lines(got, want);
    free(got);
    dm_release(&l);
}

/* Collective calls matched across the ranks (h5-chunked's rank 0 writing
 * HDF5's metadata on its own): the counters' 4 collective writes are 2 on
 * each rank, in rounds of one write of each rank whose windows meet once
 * rank 1's clock, 0.02 s behind, is allowed for; rank 0's third write, at
 * 1.61 s nearer rank 1's second than its own second is, stays independent;
 * the one collective read of each rank likewise. */
RK_TEST(import, collective_calls_are_rounds_of_every_rank)
{
    dm_log l;
    start_log(&l, 2);
    record(
        &l, RI_DARSHAN_MPIIO, -1,
        (const char *[]){"MPIIO_COLL_OPENS", "MPIIO_COLL_WRITES", "MPIIO_INDEP_WRITES", "MPIIO_COLL_READS"},
        (int64_t[]){2, 4, 1, 2}, 4);
    const seg s0[] = {{1, 0, 8, 1.0, 1.1}, {1, 16, 8, 1.5, 1.6}, {1, 32, 4, 1.61, 1.61}, {0, 0, 8, 2.0, 2.1}};
    const seg s1[] = {{1, 8, 8, 1.12, 1.22}, {1, 24, 8, 1.62, 1.72}, {0, 8, 8, 2.12, 2.22}};
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 0, s0, 4);
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, s1, 3);
    char open[256];
    snprintf(open, sizeof open, "0 MPI_Init [inferred]\n0 MPI_File_open comm=%lld amode=%d [inferred]\n",
             (long long)comm_id("MPI_COMM_WORLD"), MPI_MODE_RDWR | MPI_MODE_CREATE);
    const char *end = "0 MPI_File_close [inferred]\n0 MPI_Finalize [inferred]\n";
    char want[2048];
    snprintf(want, sizeof want,
             "%s0 MPI_File_write_at_all offset=0\n0 MPI_File_write_at_all offset=16\n0 MPI_File_write_at "
             "offset=32\n"
             "0 MPI_File_read_at_all offset=0\n%s",
             open, end);
    expect_rank(&l, "rounds-0", 0, want);
    snprintf(want, sizeof want,
             "%s0 MPI_File_write_at_all offset=8\n0 MPI_File_write_at_all offset=24\n"
             "0 MPI_File_read_at_all offset=8\n%s",
             open, end);
    expect_rank(&l, "rounds-1", 1, want);
    dm_release(&l);
}

/* A file every rank opened collectively once and on its own once (Darshan
 * counts an open over one rank independent: PnetCDF's independent-mode
 * handle): one collective session, then each rank's open over
 * MPI_COMM_SELF, accessing nothing. */
RK_TEST(import, independent_opens_of_a_shared_file_are_each_ranks_own)
{
    dm_log l;
    start_log(&l, 2);
    record(&l, RI_DARSHAN_MPIIO, -1,
           (const char *[]){"MPIIO_COLL_OPENS", "MPIIO_INDEP_OPENS", "MPIIO_COLL_WRITES", "MPIIO_SYNCS"},
           (int64_t[]){2, 2, 2, 2}, 4);
    const seg s0[] = {{1, 0, 8, 1.0, 1.1}};
    const seg s1[] = {{1, 8, 8, 1.0, 1.1}};
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 0, s0, 1);
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, s1, 1);
    char want[2048];
    snprintf(want, sizeof want,
             "0 MPI_Init [inferred]\n"
             "0 MPI_File_open comm=%lld amode=%d [inferred]\n"
             "0 MPI_File_write_at_all offset=8\n"
             "0 MPI_File_sync [inferred]\n"
             "0 MPI_File_close [inferred]\n"
             "0 MPI_File_open comm=%lld amode=%d [inferred]\n"
             "0 MPI_File_close [inferred]\n"
             "0 MPI_Finalize [inferred]\n",
             (long long)comm_id("MPI_COMM_WORLD"), MPI_MODE_WRONLY | MPI_MODE_CREATE,
             (long long)comm_id("MPI_COMM_SELF"), MPI_MODE_RDONLY);
    expect_rank(&l, "indep-opens", 1, want);
    dm_release(&l);
}

/* A file of one rank's own (over MPI_COMM_SELF): as many of its writes
 * collective as its record counts, its largest. */
RK_TEST(import, a_ranks_own_collective_accesses_are_its_largest)
{
    dm_log l;
    start_log(&l, 2);
    record(&l, RI_DARSHAN_MPIIO, 1, (const char *[]){"MPIIO_COLL_OPENS", "MPIIO_COLL_WRITES", "MPIIO_INDEP_WRITES"},
           (int64_t[]){1, 1, 2}, 3);
    const seg s1[] = {{1, 0, 8, 1.0, 1.1}, {1, 8, 100, 1.2, 1.3}, {1, 108, 8, 1.4, 1.5}};
    dxt(&l, RI_DARSHAN_DXT_MPIIO, 1, s1, 3);
    char want[2048];
    snprintf(want, sizeof want,
             "0 MPI_Init [inferred]\n"
             "0 MPI_File_open comm=%lld amode=%d [inferred]\n"
             "0 MPI_File_write_at offset=0\n"
             "0 MPI_File_write_at_all offset=8\n"
             "0 MPI_File_write_at offset=108\n"
             "0 MPI_File_close [inferred]\n"
             "0 MPI_Finalize [inferred]\n",
             (long long)comm_id("MPI_COMM_SELF"), MPI_MODE_WRONLY | MPI_MODE_CREATE);
    expect_rank(&l, "self-collective", 1, want);
    dm_release(&l);
}
