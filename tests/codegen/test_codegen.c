/* Unit tests of recorder-codegen end to end on synthetic per-rank traces:
 * a checkpoint loop becomes one loop whose paths and offsets are written
 * with the counter and the rank, calls of rank 0 alone a guarded block, an
 * input file a setup entry with its traced size; the kernel's size follows
 * the call shapes, not the number of steps; errors name the trace. */
#define _GNU_SOURCE
#include "rec_function_ids.h"
#include "recorder_codegen.h"
#include "rk_test.h"
#include "rk_trace.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NRANKS = 4 };

typedef struct tracer {
    rec_writer *w;
    uint64_t tick;
    rec_error err;
} tracer;

static void call(tracer *t, unsigned func, const int64_t *args, unsigned nargs, int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)func;
    r.tstart = t->tick;
    r.tend = t->tick + 5;
    t->tick += 10;
    for (unsigned a = 0; a < nargs; a++)
        r.args[a].i = args[a];
    r.ret.i = ret;
    CU_ASSERT_EQUAL_FATAL(rec_writer_append(t->w, &r, &t->err), 0);
}

/* Rank r: (rank 0) mkdir /data and read 100 bytes of /in/input.dat, then
 * per step open /data/ckpt.<step>.<r>, pwrite twice, close. */
static char *write_trace(const char *name, int steps)
{
    char *dir = rk_test_dir(name);
    rec_trace_info info = {.nranks = NRANKS, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    for (int64_t rank = 0; rank < NRANKS; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        int64_t fd = 64;
        if (rank == 0) {
            call(&t, REC_ID_mkdir, (int64_t[]){rec_writer_path_id(t.w, "/data"), 0755}, 2, 0);
            call(&t, REC_ID_open, (int64_t[]){rec_writer_path_id(t.w, "/in/input.dat"), O_RDONLY, 0}, 3, fd);
            call(&t, REC_ID_read, (int64_t[]){fd, 0, 100}, 3, 100);
            call(&t, REC_ID_close, (int64_t[]){fd}, 1, 0);
            fd++;
        }
        for (int64_t step = 0; step < steps; step++, fd++) {
            char path[64];
            snprintf(path, sizeof path, "/data/ckpt.%lld.%lld", (long long)step, (long long)rank);
            call(&t, REC_ID_open, (int64_t[]){rec_writer_path_id(t.w, path), O_WRONLY | O_CREAT, 0644}, 3,
                 fd);
            for (int64_t k = 0; k < 2; k++)
                call(&t, REC_ID_pwrite, (int64_t[]){fd, 0, 4096, 4096 * rank + 16384 * step + 8192 * k}, 4,
                     4096);
            call(&t, REC_ID_close, (int64_t[]){fd}, 1, 0);
        }
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    return dir;
}

static char *generate(const char *dir, int loops)
{
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    o.loops = loops;
    rec_error err;
    char *kernel = NULL;
    int rc = rec_codegen(dir, &o, &kernel, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return kernel;
}

static int occurrences(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

RK_TEST(codegen, loops_relations_guards_inputs)
{
    char *dir = write_trace("ckpt10", 10);
    char *k = generate(dir, 1);
    CU_ASSERT(strstr(k, "if (nranks != 4) {") != NULL); /* the rank-count check */
    CU_ASSERT(strstr(k, "    if (rank == 0) {\n        mkdir(P(\"/data\"), 0755);") != NULL); /* a guard */
    CU_ASSERT(strstr(k, "{\"/in/input.dat\", 100}") != NULL);       /* the input, by its size */
    CU_ASSERT(strstr(k, "for (int i = 0; i < 10; i++) {") != NULL); /* the steps */
    CU_ASSERT(strstr(k, "for (int j = 0; j < 2; j++) {") != NULL);  /* the writes of a step */
    CU_ASSERT(strstr(k, "open(P(\"/data/ckpt.%d.%d\", i, rank), O_WRONLY | O_CREAT, 0644)") != NULL);
    /* affine in the rank and the number of ranks: a step covers every rank's block */
    CU_ASSERT(strstr(k, ", wbuf, 4096, 4096 * rank + 4096 * nranks * i + 8192 * j);") != NULL);
    CU_ASSERT_EQUAL(occurrences(k, "pwrite("), 1);                        /* one statement for 20 calls */
    CU_ASSERT(strstr(k, "open(P(\"/in/input.dat\"), O_RDONLY)") != NULL); /* no mode without O_CREAT */
    free(k);
    free(dir);
}

RK_TEST(codegen, size_follows_shapes_not_length)
{
    char *d10 = write_trace("steps10", 10), *d100 = write_trace("steps100", 100);
    char *k10 = generate(d10, 1), *k100 = generate(d100, 1);
    long a = (long)strlen(k10), b = (long)strlen(k100);
    /* only the counts in the header and the loop bound differ */
    CU_ASSERT(labs(a - b) <= 24);
    CU_ASSERT(strstr(k100, "for (int i = 0; i < 100; i++) {") != NULL);
    char *flat = generate(d10, 0);
    CU_ASSERT_EQUAL(occurrences(flat, "pwrite("), 20); /* --no-loops: one call per record */
    CU_ASSERT_PTR_NULL(strstr(flat, "for (int i"));
    free(k10);
    free(k100);
    free(flat);
    free(d10);
    free(d100);
}

RK_TEST(codegen, errors_name_the_trace)
{
    rec_error err;
    char *kernel = NULL;
    CU_ASSERT_EQUAL(rec_codegen("/nonexistent/trace", NULL, &kernel, &err), -1);
    CU_ASSERT_PTR_NULL(kernel);
    CU_ASSERT(strstr(err.msg, "/nonexistent/trace") != NULL);
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    o.templates = "/nonexistent/templates";
    char *dir = write_trace("templates", 2);
    CU_ASSERT_EQUAL(rec_codegen(dir, &o, &kernel, &err), -1);
    CU_ASSERT(strstr(err.msg, "/nonexistent/templates/kernel.c.tmpl") != NULL);
    free(dir);
}

RK_TEST(codegen, special_arguments)
{
    char *dir = rk_test_dir("special");
    rec_trace_info info = {.nranks = 1, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    tracer t = {.w = rk_trace_open_rank(dir, 0, NULL)};
    /* a fortified open (no prototype in the headers), a lock, a gathered write */
    call(&t, REC_ID___open_2, (int64_t[]){rec_writer_path_id(t.w, "/d/f"), O_RDWR}, 2, 64);
    call(&t, REC_ID_fcntl, (int64_t[]){64, F_SETLKW, 0}, 3, 0);
    int64_t lens[2] = {10, 20};
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = REC_ID_writev;
    r.args[0].i = 64;
    r.args[1] = (rec_value){.ptr = lens, .len = 2};
    r.args[2].i = 2;
    r.ret.i = 30;
    CU_ASSERT_EQUAL_FATAL(rec_writer_append(t.w, &r, &t.err), 0);
    call(&t, REC_ID_close, (int64_t[]){64}, 1, 0);
    /* a wait on one request, statuses ignored (-1 each): GCC 12 rejects the
     * constant MPI_STATUSES_IGNORE there (-Werror=stringop-overflow) */
    int64_t requests[1] = {0}, ignored[1] = {-1};
    memset(&r, 0, sizeof r);
    r.func = REC_ID_MPI_Waitall;
    r.args[0].i = 1;
    r.args[1] = (rec_value){.ptr = requests, .len = 1};
    r.args[2] = (rec_value){.ptr = ignored, .len = 1};
    CU_ASSERT_EQUAL_FATAL(rec_writer_append(t.w, &r, &t.err), 0);
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    char *k = generate(dir, 1);
    CU_ASSERT(strstr(k, "MPI_Status *volatile statuses_ignored = MPI_STATUSES_IGNORE;") != NULL);
    CU_ASSERT(strstr(k, "MPI_Waitall(1, (MPI_Request[]){MPI_REQUEST_NULL}, statuses_ignored);") != NULL);
    CU_ASSERT(strstr(k, "int __open_2(const char *, int);") != NULL);
    CU_ASSERT(strstr(k, "int fd = __open_2(P(\"/d/f\"), O_RDWR);") != NULL);
    CU_ASSERT(strstr(k, "fcntl(fd, F_SETLKW, &(struct flock){.l_type = F_UNLCK});") != NULL);
    CU_ASSERT(strstr(k, "writev(fd, (struct iovec[]){{wbuf, 10}, {wbuf, 20}}, 2);") != NULL);
    CU_ASSERT(strstr(k, "#include <sys/uio.h>") != NULL);
    CU_ASSERT(strstr(k, "if (nranks != 1) {") != NULL);
    free(k);
    free(dir);
}

/* Handles a library predefines past the first 63 ids of their kind
 * (REC_HANDLE_MORE), H5F_OBJ_ALL where a file goes, an invalid hid, and
 * the bytes H5Sdecode was given: their C names, -1, and a byte table. */
RK_TEST(codegen, predefined_handles_and_encoded_objects)
{
    char *dir = rk_test_dir("predefined");
    rec_trace_info info = {.nranks = 1, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    tracer t = {.w = rk_trace_open_rank(dir, 0, NULL)};
    call(&t, REC_ID_MPI_Type_contiguous, (int64_t[]){2, REC_HANDLE_MORE(0), 64}, 3, 0);
    call(&t, REC_ID_H5Tcopy, (int64_t[]){REC_HANDLE_MORE(17)}, 1, 64);
    call(&t, REC_ID_H5Fget_obj_count, (int64_t[]){1, 31}, 2, 1);
    call(&t, REC_ID_H5Iget_type, (int64_t[]){-1}, 1, -1);
    unsigned char bytes[30];
    for (unsigned k = 0; k < sizeof bytes; k++)
        bytes[k] = (unsigned char)(k * 37);
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = REC_ID_H5Sdecode;
    r.args[0] = (rec_value){.ptr = bytes, .len = sizeof bytes};
    r.ret.i = 65;
    CU_ASSERT_EQUAL_FATAL(rec_writer_append(t.w, &r, &t.err), 0);
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    char *k = generate(dir, 1);
    CU_ASSERT(strstr(k, "MPI_Type_contiguous(2, MPI_CXX_FLOAT_COMPLEX, &") != NULL);
    CU_ASSERT(strstr(k, "H5Tcopy(H5T_NATIVE_INT_FAST32);") != NULL);
    CU_ASSERT(strstr(k, "H5Fget_obj_count(H5F_OBJ_ALL, 31);") != NULL);
    CU_ASSERT(strstr(k, "H5Iget_type(-1);") != NULL);
    const char *first =
        "static const unsigned char encoded[30] = {\n"
        "    0x00, 0x25, 0x4a, 0x6f, 0x94, 0xb9, 0xde, 0x03, 0x28, 0x4d, 0x72, 0x97, /* byte 0 */\n";
    CU_ASSERT(strstr(k, first) != NULL); /* 12 bytes a line */
    CU_ASSERT(strstr(k, "    0x78, 0x9d, 0xc2, 0xe7, 0x0c, 0x31,") != NULL);
    CU_ASSERT(strstr(k, " /* byte 24 */\n};") != NULL); /* the comments aligned */
    CU_ASSERT(strstr(k, "H5Sdecode(encoded);") != NULL);
    free(k);
    free(dir);
}

/* A merged record may list its ranks in overlapping ranges (the format
 * accepts them): two ranges of the same 2^21 ranks each. The loader sorted
 * the set by insertion, 2^21 steps per rank of the second range (hours);
 * now a sort, and each rank counted once. */
RK_TEST(codegen, overlapping_rank_ranges_sort_in_n_log_n)
{
    char *dir = rk_test_dir("overlap");
    enum { HALF = 1u << 21 };
    rec_trace_info info = {
        .nranks = 2 * HALF, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000, .flags = REC_TRACE_MERGED};
    rk_trace_write_global(dir, &info);
    rec_writer *w = rk_trace_open_rank(dir, REC_MERGED_STREAM, NULL);
    rec_error err;
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = REC_ID_mkdir;
    r.tstart = 10;
    r.tend = 15;
    r.args[0].i = rec_writer_path_id(w, "/out");
    r.args[1].i = 0755;
    const rec_rank_range twice[2] = {{0, HALF, 1}, {0, HALF, 1}};
    rec_merge_info mi = {.nranges = 2, .ranges = twice, .nranks = 2 * HALF};
    CU_ASSERT_EQUAL_FATAL(rec_writer_append_merged(w, &r, &mi, &err), 0);
    r.func = REC_ID_rmdir;
    r.tstart = 20;
    r.tend = 25;
    CU_ASSERT_EQUAL_FATAL(rec_writer_append_merged(w, &r, NULL, &err), 0);
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    char *k = generate(dir, 1);
    CU_ASSERT_EQUAL(occurrences(k, "mkdir("), 1);
    CU_ASSERT_EQUAL(occurrences(k, "rmdir("), 1);
    CU_ASSERT(strstr(k, "if (rank < 2097152)") != NULL);
    free(k);
    free(dir);
}

/* MPI arguments a kernel must write as C: MPI_Group_range_incl's rows of
 * (first, last, stride), grouped as MPI's int ranges[][3] wants them (the
 * table's rec_int3 is not the kernel's), and a handle passed by address that
 * differs by rank (rank 0 made its type otherwise): a choice of addresses,
 * since a choice is not an lvalue; a request no call made, a copy's address. */
RK_TEST(codegen, mpi_rows_and_addresses_are_c)
{
    char *dir = rk_test_dir("mpi_c");
    rec_trace_info info = {.nranks = NRANKS, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    enum { WORLD = 1, INT = 8, H = 64 };
    for (int64_t rank = 0; rank < NRANKS; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        call(&t, REC_ID_MPI_Comm_group, (int64_t[]){WORLD, H}, 2, 0);
        int64_t both[6] = {0, 1, 1, 2, 3, 1}, mine[3] = {0, rank, 1};
        const int64_t *rows[2] = {both, mine};
        for (int64_t k = 0; k < 2; k++) {
            rec_record r;
            memset(&r, 0, sizeof r);
            r.func = REC_ID_MPI_Group_range_incl;
            r.tstart = t.tick;
            r.tend = t.tick + 5;
            t.tick += 10;
            r.args[0].i = H;
            r.args[1].i = 2 - k;
            r.args[2] = (rec_value){.ptr = (int64_t *)rows[k], .len = 6 - 3 * (uint32_t)k};
            r.args[3].i = H + 1 + k;
            CU_ASSERT_EQUAL_FATAL(rec_writer_append(t.w, &r, &t.err), 0);
        }
        if (rank == 0)
            call(&t, REC_ID_MPI_Type_vector, (int64_t[]){2, 1, 2, INT, H}, 5, 0);
        else
            call(&t, REC_ID_MPI_Type_contiguous, (int64_t[]){4, INT, H}, 3, 0);
        call(&t, REC_ID_MPI_Barrier, (int64_t[]){WORLD}, 1, 0);
        call(&t, REC_ID_MPI_Type_commit, (int64_t[]){H}, 1, 0);
        call(&t, REC_ID_MPI_Type_free, (int64_t[]){H}, 1, 0);
        call(&t, REC_ID_MPI_Wait, (int64_t[]){0, 1}, 2, 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    char *k = generate(dir, 1);
    CU_ASSERT(strstr(k, "(int[][3]){{0, 1, 1}, {2, 3, 1}}") != NULL);
    CU_ASSERT(strstr(k, "(int[][3]){{0, rank, 1}}") != NULL);
    CU_ASSERT_PTR_NULL(strstr(k, "rec_int3"));
    CU_ASSERT(strstr(k, "MPI_Type_commit((rank == 0 ? &dtype_2 : &dtype));") != NULL);
    CU_ASSERT(strstr(k, "MPI_Type_free((rank == 0 ? &dtype_2 : &dtype));") != NULL);
    CU_ASSERT_PTR_NULL(strstr(k, "&(rank"));
    CU_ASSERT(strstr(k, "MPI_Wait(&(MPI_Request){MPI_REQUEST_NULL}, &status);") != NULL);
    free(k);
    free(dir);
}

/* 1,003 items of 8 bytes over 8 ranks and, on 64 ranks, every rank but
 * every 16th writing once more: the kernel says so in one expression each,
 * with no table by rank and no list of ranks. */
RK_TEST(codegen, block_starts_and_strided_rank_sets)
{
    char *dir = rk_test_dir("blocks");
    rec_trace_info info = {.nranks = 8, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    for (int64_t rank = 0; rank < 8; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        int64_t start = 125 * rank + (rank < 3 ? rank : 3), count = 125 + (rank < 3);
        call(&t, REC_ID_open, (int64_t[]){rec_writer_path_id(t.w, "/data/items"), O_WRONLY | O_CREAT, 0644}, 3, 64);
        call(&t, REC_ID_pwrite, (int64_t[]){64, 0, 8 * count, 8 * start}, 4, 8 * count);
        call(&t, REC_ID_close, (int64_t[]){64}, 1, 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    char *k = generate(dir, 1);
    CU_ASSERT(strstr(k, "1000 * rank + 8 * (rank < 3 ? rank : 3)") != NULL);
    CU_ASSERT_PTR_NULL(strstr(k, "_by_rank"));
    free(k);
    free(dir);

    dir = rk_test_dir("strided");
    info.nranks = 64;
    rk_trace_write_global(dir, &info);
    for (int64_t rank = 0; rank < 64; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        call(&t, REC_ID_open, (int64_t[]){rec_writer_path_id(t.w, "/data/shared"), O_WRONLY | O_CREAT, 0644}, 3, 64);
        call(&t, REC_ID_pwrite, (int64_t[]){64, 0, 4096, 4096 * rank}, 4, 4096);
        if (rank % 16)
            call(&t, REC_ID_fsync, (int64_t[]){64}, 1, 0);
        call(&t, REC_ID_close, (int64_t[]){64}, 1, 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    k = generate(dir, 1);
    CU_ASSERT(strstr(k, "if (rank % 16 != 0) {") != NULL);
    CU_ASSERT_PTR_NULL(strstr(k, "rank == 1 ||"));
    free(k);
    free(dir);
}

/* Uneven blocks (counts with no model) one after the other: the offsets are
 * the running sum of the counts, so on 64 ranks the kernel keeps the
 * counts' table alone and adds them up; on 4 ranks the offsets' table is
 * shorter than the helper, and stays. */
RK_TEST(codegen, offsets_that_are_running_sums_of_the_counts)
{
    for (uint32_t nranks = 4; nranks <= 64; nranks += 60) {
        char name[32];
        snprintf(name, sizeof name, "running_sum%u", nranks);
        char *dir = rk_test_dir(name);
        rec_trace_info info = {.nranks = nranks, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
        rk_trace_write_global(dir, &info);
        int64_t offset = 0;
        for (int64_t rank = 0; rank < nranks; rank++) {
            tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
            int64_t count = 8 * (100 + (rank * 7) % 13);
            call(&t, REC_ID_open, (int64_t[]){rec_writer_path_id(t.w, "/data/cells"), O_WRONLY | O_CREAT, 0644}, 3,
                 64);
            call(&t, REC_ID_pwrite, (int64_t[]){64, 0, count, offset}, 4, count);
            call(&t, REC_ID_close, (int64_t[]){64}, 1, 0);
            CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
            offset += count;
        }
        char *k = generate(dir, 1);
        if (nranks == 64) {
            CU_ASSERT(strstr(k, "sum_before(count_by_rank, rank)") != NULL);
            CU_ASSERT(strstr(k, "static long long sum_before(const int *table, int n)") != NULL);
            CU_ASSERT_PTR_NULL(strstr(k, "offset_by_rank"));
            CU_ASSERT(strstr(k, "running sums of a table (1)") != NULL);
        } else {
            CU_ASSERT_PTR_NULL(strstr(k, "sum_before"));
            CU_ASSERT(strstr(k, "offset_by_rank[4] = {0, 800, 1656, 2464}") != NULL);
        }
        free(k);
        free(dir);
    }
}

/* Ids follow objects (tracer/handles.c): MPICH hands MPI_Comm_group's group
 * back twice with one id. The second reference is a variable of its own,
 * which the first MPI_Group_free frees; the still-live first one is what
 * MPI_Comm_create uses and the second MPI_Group_free frees. */
RK_TEST(codegen, a_second_reference_is_its_own_variable)
{
    char *dir = rk_test_dir("second-reference");
    rec_trace_info info = {.nranks = 1, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    tracer t = {.w = rk_trace_open_rank(dir, 0, NULL)};
    enum { WORLD = 1, GROUP = 64, COMM = 64 };
    call(&t, REC_ID_MPI_Comm_group, (int64_t[]){WORLD, GROUP}, 2, 0);
    call(&t, REC_ID_MPI_Comm_group, (int64_t[]){WORLD, GROUP}, 2, 0);
    call(&t, REC_ID_MPI_Group_free, (int64_t[]){GROUP}, 1, 0);
    call(&t, REC_ID_MPI_Comm_create, (int64_t[]){WORLD, GROUP, COMM}, 3, 0);
    call(&t, REC_ID_MPI_Group_free, (int64_t[]){GROUP}, 1, 0);
    call(&t, REC_ID_MPI_Comm_free, (int64_t[]){COMM}, 1, 0);
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    char *k = generate(dir, 1);
    const char *want[] = {"MPI_Comm_group(MPI_COMM_WORLD, &mgroup);", "MPI_Comm_group(MPI_COMM_WORLD, &mgroup_2);",
                          "MPI_Group_free(&mgroup_2);", "MPI_Comm_create(MPI_COMM_WORLD, mgroup, &comm);",
                          "MPI_Group_free(&mgroup);", "MPI_Comm_free(&comm);"};
    const char *at = k;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *found = strstr(at, want[i]);
        if (!found)
            fprintf(stderr, "not in order in the kernel: %s\n", want[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(found);
        at = found + strlen(want[i]);
    }
    free(k);
    free(dir);
}

/* One id, two objects: the even rank's communicator is the first
 * MPI_Comm_create's, the odd rank's the second's (each gets MPI_COMM_NULL
 * from the other), and each frees its own: the merge numbers the second
 * create as its uses (its first rank made nothing), the kernel resolves ids
 * per rank. */
RK_TEST(codegen, an_id_is_per_rank)
{
    char *dir = rk_test_dir("per-rank-ids");
    rec_trace_info info = {.nranks = 2, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    enum { NULL_COMM = 0, WORLD = 1, EVENS = 64, ODDS = 65, COMM = 64 };
    for (int64_t rank = 0; rank < 2; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        call(&t, REC_ID_MPI_Comm_create, (int64_t[]){WORLD, EVENS, rank ? NULL_COMM : COMM}, 3, 0);
        call(&t, REC_ID_MPI_Comm_create, (int64_t[]){WORLD, ODDS, rank ? COMM : NULL_COMM}, 3, 0);
        call(&t, REC_ID_MPI_Comm_free, (int64_t[]){COMM}, 1, 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    char *k = generate(dir, 1);
    const char *free_call = strstr(k, "MPI_Comm_free(");
    CU_ASSERT_PTR_NOT_NULL_FATAL(free_call);
    const char *end = strchr(free_call, ';');
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(end - free_call), free_call);
    if (!strstr(line, "&comm ") && !strstr(line, "&comm)"))
        fprintf(stderr, "the free: %s\n", line);
    CU_ASSERT(strstr(line, "&comm_2") != NULL);
    CU_ASSERT(strstr(line, "&comm ") != NULL || strstr(line, "&comm)") != NULL);
    CU_ASSERT(strstr(line, "MPI_COMM_NULL") == NULL);
    free(k);
    free(dir);
}

/* One rank's record at depth `depth` (the call a call at depth - 1 made). */
static void nested(tracer *t, unsigned depth, unsigned func, const int64_t *args, unsigned nargs, int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)func;
    r.depth = (uint8_t)depth;
    r.tstart = t->tick;
    r.tend = t->tick + 5;
    t->tick += 10;
    for (unsigned a = 0; a < nargs; a++)
        r.args[a].i = args[a];
    r.ret.i = ret;
    CU_ASSERT_EQUAL_FATAL(rec_writer_append(t->w, &r, &t->err), 0);
}

static char *generate_at(const char *dir, int layer)
{
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    o.layer = layer;
    rec_error err;
    char *kernel = NULL;
    int rc = rec_codegen(dir, &o, &kernel, &err);
    if (rc != 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return kernel;
}

/* --layer: MPI-IO calls whose POSIX calls (and an MPI barrier) come first,
 * in exit order, and differ by rank (rank 0 alone seeks and syncs): the
 * default and --layer mpiio make the MPI-IO calls, --layer posix the POSIX
 * calls with rank 0's under a guard and the barrier, no MPI-IO call. */
RK_TEST(codegen, layer_below_the_top)
{
    char *dir = rk_test_dir("layers");
    rec_trace_info info = {.nranks = NRANKS, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    enum { INFO_NULL = 0, WORLD = 1, FH = 64, FD = 64 };
    for (int64_t rank = 0; rank < NRANKS; rank++) {
        tracer t = {.w = rk_trace_open_rank(dir, (uint32_t)rank, NULL)};
        int64_t path = rec_writer_path_id(t.w, "/data/f");
        nested(&t, 1, REC_ID_open, (int64_t[]){path, O_RDWR | O_CREAT, 0644}, 3, FD);
        if (rank == 0)
            nested(&t, 1, REC_ID_lseek, (int64_t[]){FD, 0, SEEK_END}, 3, 0);
        nested(&t, 1, REC_ID_MPI_Barrier, (int64_t[]){WORLD}, 1, 0);
        nested(&t, 0, REC_ID_MPI_File_open, (int64_t[]){WORLD, path, 0, INFO_NULL, FH}, 5, 0);
        nested(&t, 1, REC_ID_pwrite, (int64_t[]){FD, 0, 4096, 4096 * rank}, 4, 4096);
        nested(&t, 0, REC_ID_MPI_File_sync, (int64_t[]){FH}, 1, 0);
        if (rank == 0)
            nested(&t, 1, REC_ID_fsync, (int64_t[]){FD}, 1, 0);
        nested(&t, 0, REC_ID_MPI_File_sync, (int64_t[]){FH}, 1, 0);
        nested(&t, 1, REC_ID_close, (int64_t[]){FD}, 1, 0);
        nested(&t, 0, REC_ID_MPI_File_close, (int64_t[]){FH}, 1, 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(t.w, &t.err), 0);
    }
    char *top = generate_at(dir, REC_CODEGEN_TOP), *mpiio = generate_at(dir, REC_LAYER_MPIIO);
    char *posix = generate_at(dir, REC_LAYER_POSIX);
    for (char **k = (char *[]){top, mpiio, NULL}; *k; k++) {
        CU_ASSERT_EQUAL(occurrences(*k, "MPI_File_open("), 1);
        CU_ASSERT_EQUAL(occurrences(*k, "MPI_File_sync("), 2);
        CU_ASSERT_EQUAL(occurrences(*k, "MPI_File_close("), 1);
        CU_ASSERT_EQUAL(occurrences(*k, "pwrite("), 0);
        CU_ASSERT_EQUAL(occurrences(*k, "MPI_Barrier("), 0); /* made by MPI_File_open */
    }
    /* the same kernel but for the header's sentence naming the calls */
    const char *a = strstr(top, "\n#define"), *b = strstr(mpiio, "\n#define");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_STRING_EQUAL(a, b);
    CU_ASSERT(strstr(mpiio, "calls at the MPI-IO layer and below") != NULL);
    CU_ASSERT_EQUAL(occurrences(posix, "MPI_File_"), 0);
    CU_ASSERT_EQUAL(occurrences(posix, "open(P(\"/data/f\"), O_RDWR | O_CREAT, 0644)"), 1);
    CU_ASSERT_EQUAL(occurrences(posix, "MPI_Barrier("), 1);
    CU_ASSERT_EQUAL(occurrences(posix, "pwrite("), 1);
    CU_ASSERT_EQUAL(occurrences(posix, "close("), 1);
    const char *guard = strstr(posix, "if (rank == 0) {");
    CU_ASSERT_PTR_NOT_NULL_FATAL(guard);
    CU_ASSERT(strstr(guard, "lseek(") != NULL);
    CU_ASSERT(strstr(posix, "fsync(") != NULL && strstr(posix, "fsync(") > guard);
    CU_ASSERT(strstr(posix, "Build: mpicc kernel.c -o kernel") != NULL);
    free(top);
    free(mpiio);
    free(posix);
    free(dir);
}
