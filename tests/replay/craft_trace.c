/* craft_trace: writes small traces with the format's writer API, for the
 * replayer's tests.
 *   craft_trace safety SANDBOX DIR   1 rank: every way a trace can name a
 *                                    file outside the replay's prefix
 *   craft_trace h5input DIR          1 rank: reads an HDF5 file it never made
 *   craft_trace timing DIR           2 ranks: MPI_Init, a barrier 0.3 s
 *                                    later, MPI_Finalize at 0.6 s
 *   craft_trace ranks N DIR          N ranks: MPI_Init, a barrier, MPI_Finalize
 *   craft_trace farapart DIR         2 ranks: MPI_File_write_at_all of one
 *                                    element of an hindexed memory type
 *                                    that spans 64 GiB on rank 0 only, then
 *                                    of one that reaches below its buffer;
 *                                    an MPI_Allreduce of a 64 GiB type
 *   craft_trace threads DIR          1 rank: a thread the main one starts,
 *                                    joins and meets at a barrier, one never
 *                                    started in the trace, one a call started */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mpi.h>

#include "recorder_format.h"

#define TICKS_PER_SECOND 10000000ll /* resolution 1e-7 */
#define H5F_ACC_RDONLY_VALUE 0      /* H5F_ACC_RDONLY, without linking HDF5 */

static rec_writer *w;
static uint64_t now_ticks;
static uint32_t on_thread; /* the thread and depth of the calls call() writes */
static uint8_t at_depth;

static void die(const char *what, const rec_error *err)
{
    fprintf(stderr, "craft_trace: %s: %s\n", what, err ? err->msg : strerror(errno));
    exit(1);
}

static int64_t path(const char *p)
{
    return rec_writer_path_id(w, p);
}

/* One depth-0 call, 10 us long, at the current time; args as int64 values
 * (PATH values from path(), STR values as char * cast to intptr_t, ARRAY
 * values from ARR()). */
static void call(const char *name, int64_t ret, int64_t err, ...)
{
    const rec_func_desc *f = rec_function_by_name(name);
    if (!f) {
        fprintf(stderr, "craft_trace: no function %s\n", name);
        exit(1);
    }
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = f->id;
    r.thread = on_thread;
    r.depth = at_depth;
    r.tstart = now_ticks;
    r.tend = now_ticks + 100;
    now_ticks += 200;
    va_list ap;
    va_start(ap, err);
    for (unsigned i = 0; i < f->nargs; i++) {
        int64_t v = rec_kind_class(f->args[i].kind) == REC_CLASS_NONE ? 0 : va_arg(ap, int64_t);
        if (rec_kind_class(f->args[i].kind) == REC_CLASS_STR) {
            r.args[i].ptr = (const char *)(intptr_t)v;
            r.args[i].len = (uint32_t)strlen((const char *)(intptr_t)v);
        } else if (rec_kind_class(f->args[i].kind) == REC_CLASS_ARRAY) {
            r.args[i] = *(const rec_value *)(intptr_t)v;
        } else {
            r.args[i].i = v;
        }
    }
    va_end(ap);
    r.ret.i = ret;
    r.err = err;
    rec_error e;
    if (rec_writer_append(w, &r, &e) != 0)
        die("append", &e);
}

static void open_rank(const char *dir, uint32_t rank)
{
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.start_time_ns = 1700000000000000000ull;
    rec_error e;
    if (!(w = rec_writer_open(dir, rank, &o, &e)))
        die(dir, &e);
    now_ticks = 0;
}

static void close_rank(void)
{
    rec_error e;
    if (rec_writer_close(w, &e) != 0)
        die("close", &e);
}

static void global_meta(const char *dir, uint32_t nranks)
{
    rec_trace_info info = {
        .nranks = nranks, .time_resolution = 1e-7, .start_time_ns = 1700000000000000000ull, .window = 3};
    rec_error e;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        die(dir, NULL);
    if (rec_write_global_metadata(dir, &info, NULL, NULL, &e) != 0)
        die(dir, &e);
}

#define S(s) ((int64_t)(intptr_t)(s))
/* An ARRAY argument: ARR(n, v0, v1, ...), valid for the statement. */
#define ARR(n, ...) ((int64_t)(intptr_t)(&(rec_value){.ptr = (const int64_t[]){__VA_ARGS__}, .len = (n)}))

static void safety(const char *sandbox, const char *dir)
{
    char p[4096];
    global_meta(dir, 1);
    open_rank(dir, 0);
    call("MPI_Init", 0, 0);
    /* An input read from outside: pre-created under the prefix, with its size. */
    call("open", 64, 0, path("/etc/passwd"), (int64_t)O_RDONLY, (int64_t)0);
    call("fstat", 0, 0, (int64_t)64, (int64_t)1234);
    call("read", 1234, 0, (int64_t)64, (int64_t)4096);
    call("close", 0, 0, (int64_t)64);
    /* Truncating and writing an absolute path outside the prefix. */
    snprintf(p, sizeof p, "%s/victim", sandbox);
    call("open", 65, 0, path(p), (int64_t)(O_WRONLY | O_TRUNC), (int64_t)0);
    call("write", 100, 0, (int64_t)65, (int64_t)100);
    call("close", 0, 0, (int64_t)65);
    /* Climbing out with "..". */
    snprintf(p, sizeof p, "../../../../../../../../../..%s/victim2", sandbox);
    call("open", 66, 0, path(p), (int64_t)(O_WRONLY | O_CREAT | O_TRUNC), (int64_t)0644);
    call("write", 50, 0, (int64_t)66, (int64_t)50);
    call("close", 0, 0, (int64_t)66);
    /* A symlink to the sandbox, then writing through it. */
    call("symlink", 0, 0, path(sandbox), path("/link"));
    call("open", 67, 0, path("/link/victim3"), (int64_t)(O_WRONLY | O_CREAT | O_TRUNC), (int64_t)0644);
    call("write", 10, 0, (int64_t)67, (int64_t)10);
    call("close", 0, 0, (int64_t)67);
    /* A relative symlink target that climbs out, then writing through it. */
    call("symlink", 0, 0, path("../../../../../../../../.."), path("/up"));
    snprintf(p, sizeof p, "/up%s/victim", sandbox);
    call("open", 68, 0, path(p), (int64_t)(O_WRONLY | O_TRUNC), (int64_t)0);
    call("write", 7, 0, (int64_t)68, (int64_t)7);
    call("close", 0, 0, (int64_t)68);
    /* A path under a link the test plants in the prefix, pointing out. */
    call("open", 69, 0, path("/evil/victim4"), (int64_t)(O_WRONLY | O_CREAT), (int64_t)0644);
    call("write", 5, 0, (int64_t)69, (int64_t)5);
    call("close", 0, 0, (int64_t)69);
    /* Devices and kernel files are never touched. */
    call("open", 70, 0, path("/dev/null"), (int64_t)O_WRONLY, (int64_t)0);
    call("write", 3, 0, (int64_t)70, (int64_t)3);
    call("mkdir", -1, ENOENT, path("/proc/recorder-replay-test"), (int64_t)0755);
    call("symlink", 0, 0, path("/dev/sda"), path("/disk"));
    /* Removing and renaming files outside. */
    snprintf(p, sizeof p, "%s/victim5", sandbox);
    call("unlink", 0, 0, path(p));
    char q[4096];
    snprintf(p, sizeof p, "%s/victim6", sandbox);
    snprintf(q, sizeof q, "%s/victim6.renamed", sandbox);
    call("rename", 0, 0, path(p), path(q));
    call("truncate", 0, 0, path(q), (int64_t)0);
    call("MPI_Finalize", 0, 0);
    close_rank();
}

/* An HDF5 file the application only read: the replay cannot make one. And a
 * mkdir that failed for want of permission, which the replay will not. */
static void h5input(const char *dir)
{
    global_meta(dir, 1);
    open_rank(dir, 0);
    call("MPI_Init", 0, 0);
    call("H5Fopen", 64, 0, path("/data/in.h5"), (int64_t)H5F_ACC_RDONLY_VALUE, (int64_t)0);
    call("H5Dopen2", 65, 0, (int64_t)64, S("x"), (int64_t)0);
    call("H5Dread", 0, 0, (int64_t)65, (int64_t)6, (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)400);
    call("H5Dclose", 0, 0, (int64_t)65);
    call("H5Fclose", 0, 0, (int64_t)64);
    call("mkdir", -1, EACCES, path("/denied"), (int64_t)0755);
    call("MPI_Finalize", 0, 0);
    close_rank();
}

static void barrier_trace(const char *dir, uint32_t nranks, double barrier_at, double finalize_at)
{
    global_meta(dir, nranks);
    for (uint32_t rank = 0; rank < nranks; rank++) {
        open_rank(dir, rank);
        call("MPI_Init", 0, 0);
        now_ticks = (uint64_t)(barrier_at * TICKS_PER_SECOND);
        call("MPI_Barrier", 0, 0, (int64_t)1);
        now_ticks = (uint64_t)(finalize_at * TICKS_PER_SECOND);
        call("MPI_Finalize", 0, 0);
        close_rank();
    }
}

/* HDF5 writes its metadata with a memory type whose displacements are the
 * distances between malloc'd buffers: far apart under some allocators, and
 * negative when a buffer lies below the first. The replay must still issue
 * the collective writes on every rank. First write: rank 0's type would need
 * a 64 GiB buffer, rank 1's a few KiB; rank 0 writes 2 x 4096 bytes at 0,
 * rank 1 1000 + 2000 bytes at 8192. Second write: rank 1's type reaches 4096
 * bytes below its buffer; it writes 2 x 100 bytes at 11192, rank 0 nothing.
 * The file is 11392 bytes. Last, an MPI_Allreduce of a 64 GiB type on both
 * ranks (skipped, and said so). */
static void farapart(const char *dir)
{
    enum { FH = 64, TYPE = 64, TYPE2 = 65, TYPE3 = 66, BYTE = 4, WORLD = 1, INFO_NULL = 0, SUM = 3 };
    global_meta(dir, 2);
    for (uint32_t rank = 0; rank < 2; rank++) {
        open_rank(dir, rank);
        call("MPI_Init", 0, 0);
        call("MPI_File_open", 0, 0, (int64_t)WORLD, path("/farapart.dat"),
             (int64_t)(MPI_MODE_CREATE | MPI_MODE_WRONLY), (int64_t)INFO_NULL, (int64_t)FH);
        if (rank == 0)
            call("MPI_Type_create_hindexed", 0, 0, (int64_t)2, ARR(2, 4096, 4096), ARR(2, 0, 68719455744),
                 (int64_t)BYTE, (int64_t)TYPE);
        else
            call("MPI_Type_create_hindexed", 0, 0, (int64_t)2, ARR(2, 1000, 2000), ARR(2, 0, 4096),
                 (int64_t)BYTE, (int64_t)TYPE);
        call("MPI_Type_commit", 0, 0, (int64_t)TYPE);
        int64_t bytes = rank == 0 ? 8192 : 3000;
        call("MPI_File_write_at_all", 0, 0, (int64_t)FH, (int64_t)(rank == 0 ? 0 : 8192), (int64_t)1,
             (int64_t)TYPE, bytes, bytes);
        call("MPI_Type_free", 0, 0, (int64_t)TYPE);
        if (rank == 0) {
            call("MPI_File_write_at_all", 0, 0, (int64_t)FH, (int64_t)0, (int64_t)0, (int64_t)BYTE,
                 (int64_t)0, (int64_t)0);
        } else {
            call("MPI_Type_create_hindexed", 0, 0, (int64_t)2, ARR(2, 100, 100), ARR(2, 0, -4096),
                 (int64_t)BYTE, (int64_t)TYPE2);
            call("MPI_Type_commit", 0, 0, (int64_t)TYPE2);
            call("MPI_File_write_at_all", 0, 0, (int64_t)FH, (int64_t)11192, (int64_t)1, (int64_t)TYPE2,
                 (int64_t)200, (int64_t)200);
            call("MPI_Type_free", 0, 0, (int64_t)TYPE2);
        }
        /* A reduction cannot go as MPI_BYTE: skipped, here on every rank. */
        call("MPI_Type_create_hindexed", 0, 0, (int64_t)2, ARR(2, 1, 1), ARR(2, 0, 68719455744),
             (int64_t)BYTE, (int64_t)TYPE3);
        call("MPI_Type_commit", 0, 0, (int64_t)TYPE3);
        call("MPI_Allreduce", 0, 0, (int64_t)1, (int64_t)TYPE3, (int64_t)SUM, (int64_t)WORLD);
        call("MPI_Type_free", 0, 0, (int64_t)TYPE3);
        call("MPI_File_close", 0, 0, (int64_t)FH);
        call("MPI_Finalize", 0, 0);
        close_rank();
    }
}

/* Records in the order the calls ended, as the tracer writes them:
 * thread 1's first records come before the pthread_create that started it;
 * thread 2 has no pthread_create (started before tracing); thread 3's is
 * made inside an fsync (a library's thread). Thread 1 writes to the fd the
 * main thread opened, after the barrier both meet at; the main thread waits
 * there first, so thread 1 must read on past the main thread's records. */
static void threads(const char *dir)
{
    const int64_t create = O_WRONLY | O_CREAT | O_TRUNC;
    global_meta(dir, 1);
    open_rank(dir, 0);
#define ON(t, d) (on_thread = (t), at_depth = (d))
    ON(0, 0), call("pthread_barrier_init", 0, 0, (int64_t)64, (int64_t)2);
    ON(0, 0), call("open", 65, 0, path("/data/shared"), create, (int64_t)0644);
    ON(1, 0), call("open", 64, 0, path("/data/a.1"), create, (int64_t)0644);
    ON(1, 0), call("write", 100, 0, (int64_t)64, (int64_t)100);
    ON(0, 0), call("pthread_create", 0, 0, (int64_t)1);
    ON(2, 0), call("open", 66, 0, path("/data/b.2"), create, (int64_t)0644);
    ON(2, 0), call("write", 10, 0, (int64_t)66, (int64_t)10);
    ON(2, 0), call("close", 0, 0, (int64_t)66);
    ON(3, 0), call("open", 67, 0, path("/data/c.3"), create, (int64_t)0644);
    ON(0, 1), call("pthread_create", 0, 0, (int64_t)3);
    ON(0, 0), call("fsync", 0, 0, (int64_t)65);
    ON(3, 0), call("write", 10, 0, (int64_t)67, (int64_t)10);
    ON(3, 0), call("close", 0, 0, (int64_t)67);
    ON(0, 0), call("pthread_barrier_wait", -1, 0, (int64_t)64);
    ON(1, 0), call("pthread_barrier_wait", 0, 0, (int64_t)64);
    ON(1, 0), call("pwrite", 50, 0, (int64_t)65, (int64_t)50, (int64_t)0);
    ON(1, 0), call("close", 0, 0, (int64_t)64);
    ON(0, 0), call("pthread_join", 0, 0, (int64_t)1);
    ON(0, 0), call("pthread_barrier_destroy", 0, 0, (int64_t)64);
    ON(0, 0), call("pwrite", 20, 0, (int64_t)65, (int64_t)20, (int64_t)50);
    ON(0, 0), call("close", 0, 0, (int64_t)65);
#undef ON
    close_rank();
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "safety"))
        safety(argv[2], argv[3]);
    else if (argc == 3 && !strcmp(argv[1], "h5input"))
        h5input(argv[2]);
    else if (argc == 3 && !strcmp(argv[1], "timing"))
        barrier_trace(argv[2], 2, 0.3, 0.6);
    else if (argc == 4 && !strcmp(argv[1], "ranks"))
        barrier_trace(argv[3], (uint32_t)atoi(argv[2]), 0.001, 0.002);
    else if (argc == 3 && !strcmp(argv[1], "farapart"))
        farapart(argv[2]);
    else if (argc == 3 && !strcmp(argv[1], "threads"))
        threads(argv[2]);
    else {
        fprintf(stderr, "usage: craft_trace safety SANDBOX DIR | h5input DIR | timing DIR | ranks N DIR | "
                        "farapart DIR | threads DIR\n");
        return 2;
    }
    return 0;
}
