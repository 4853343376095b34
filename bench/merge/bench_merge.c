/* bench-merge: merge throughput and its growth with the number of ranks.
 *   bench-merge [--records N] [--ranks 64,256,1024,4096] [--window M] [--time-resolution S] [--repeat R]
 *               [--min-seconds S] [--keep] [--codegen] [--pattern pwrite|vpic|cells]
 * For each rank count, writes a synthetic SPMD trace (N records per rank:
 * strided pwrites at rank-dependent offsets, a barrier every 50 calls, and
 * now and then a call only some ranks make), merges it, and prints records
 * per second, the time per record relative to the smallest run, merged
 * records per rank record, and peak memory. Each size runs in its own child
 * process, so peak memory is that size's alone; its trace is merged at
 * least R times (default 3) and until the merges took S seconds in all
 * (--min-seconds, default 2), and the fastest merge counts: the machine may
 * be shared, and a small size merged in 0.1 s three times could land on
 * one noisy moment. (More tries favour the small sizes, so this can only
 * make the growth look worse, not better.)
 * For that merge it also prints the CPU time split into user and system
 * (kernel) time per record, the first (cold) merge's time and system time
 * per record, and the merged trace's bytes per input record. The later
 * merges reuse the memory the first one faulted in (glibc keeps it), so the
 * cold figures show what a single recorder-merge pays for fresh memory and
 * page cache, which on a virtual machine grows with the ranks too, as the
 * output does (each rank's times are kept).
 * --keep leaves each trace and its merge in place (their paths on stderr),
 * to profile recorder-merge alone. --codegen also generates the kernel of
 * each merged trace (recorder-codegen's library, in a process of its own)
 * and prints its size against the first size's, the time and peak memory.
 * --pattern vpic writes, instead of the pwrite loop, what VPIC-IO's HDF5
 * calls make on each rank (write_vpic_rank); --pattern cells the same with
 * a number of cells per rank that has no model, each rank's start the sum of
 * the counts before it.
 * --mpi P also runs recorder-merge as a user does, on its own and under the
 * build's mpiexec at P processes, alternated, as many times each as the
 * serial merge ran (fastest counting; each run a process started cold,
 * launch included: the in-process merges above reuse memory already faulted
 * in), and prints both times, the speedup, the peak memory of the largest
 * process against the serial merge's, and whether the merged traces are the
 * same bytes. */
#define _GNU_SOURCE
#include "rec_function_ids.h"
#include "recorder_codegen.h"
#include "recorder_merge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double seconds_of(struct timeval tv)
{
    return (double)tv.tv_sec + 1e-6 * (double)tv.tv_usec;
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int write_rank(const char *dir, uint32_t rank, uint32_t nranks, uint64_t records)
{
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.start_time_ns = 1000000 + rank * 1000;
    rec_error err;
    rec_writer *w = rec_writer_open(dir, rank, &o, &err);
    if (!w) {
        fprintf(stderr, "bench-merge: %s\n", err.msg);
        return -1;
    }
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = REC_ID_open;
    r.args[0].i = rec_writer_path_id(w, "/scratch/shared.dat");
    r.args[1].i = 0101;
    r.args[2].i = 0644;
    r.ret.i = 64;
    rec_writer_append(w, &r, &err);
    uint64_t t = 10, step = 0;
    for (uint64_t i = 1; i < records; i++) {
        memset(&r, 0, sizeof r);
        t += 8 + next_random() % 5;
        r.tstart = t;
        r.tend = t + 3 + next_random() % 3;
        if (i % 50 == 0) {
            r.func = REC_ID_MPI_Barrier;
            r.args[0].i = 1; /* MPI_COMM_WORLD */
        } else if (i % 97 == 0 && rank % 16 == 0) {
            r.func = REC_ID_fsync; /* a call only some ranks make */
            r.args[0].i = 64;
        } else {
            r.func = REC_ID_pwrite;
            r.args[0].i = 64;
            r.args[2].i = 4096;
            r.args[3].i = (int64_t)((step++ * nranks + rank) * 4096);
            r.ret.i = 4096;
        }
        if (rec_writer_append(w, &r, &err) != 0) {
            fprintf(stderr, "bench-merge: %s\n", err.msg);
            return -1;
        }
    }
    return rec_writer_close(w, &err);
}

/* --pattern vpic: what VPIC-IO's HDF5 writes make at depth 0 on each rank (as
 * tracing kernels/vpic-like does): a collective file access list and
 * transfer list, the file space of all particles with this rank's hyperslab
 * selected, then per time step a group and 8 datasets of P floats each,
 * written collectively. About 30 records a step; `records` sets the steps. */
typedef struct vpic_writer {
    rec_writer *w;
    uint64_t t;
    rec_error err;
    int failed;
} vpic_writer;

static int64_t vpic_call(vpic_writer *v, unsigned func, const rec_value *args, unsigned nargs, int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)func;
    v->t += 8 + next_random() % 5;
    r.tstart = v->t;
    r.tend = v->t + 3 + next_random() % 3;
    for (unsigned a = 0; a < nargs; a++)
        r.args[a] = args[a];
    r.ret.i = ret;
    if (!v->failed && rec_writer_append(v->w, &r, &v->err) != 0) {
        fprintf(stderr, "bench-merge: %s\n", v->err.msg);
        v->failed = 1;
    }
    return ret;
}

#define I(x) ((rec_value){.i = (x)})
#define STR(s) ((rec_value){.ptr = (s), .len = (uint32_t)strlen(s)})
#define ARR(a, n) ((rec_value){.ptr = (a), .len = (n)})

/* --pattern cells: each rank holds 4,096 cells and a few more, a number of
 * no model (a hash of the rank): its start is the sum of the counts before
 * it, as in an unstructured mesh's writers (gcrm-like). */
static int64_t extra_cells(uint32_t rank)
{
    return (int64_t)(((uint64_t)rank * 2654435761u >> 13) % 13);
}

/* The running sums of extra_cells, computed once per rank count. */
static int64_t extra_before(uint32_t rank, uint32_t nranks)
{
    static int64_t *sums;
    static uint32_t n;
    if (n != nranks + 1) {
        free(sums);
        n = nranks + 1;
        sums = calloc(n, sizeof *sums);
        for (uint32_t r = 0; sums && r < nranks; r++)
            sums[r + 1] = sums[r] + extra_cells(r);
    }
    return sums ? sums[rank] : 0;
}

static int write_vpic_rank(const char *dir, uint32_t rank, uint32_t nranks, uint64_t records, int uneven)
{
    enum { P = 4096, FLOAT_TYPE = 12, FILE_ACCESS = 3, DATASET_XFER = 6, COMM_WORLD = 1 };
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.start_time_ns = 1000000 + rank * 1000;
    vpic_writer v = {.w = rec_writer_open(dir, rank, &o, &v.err)};
    if (!v.w) {
        fprintf(stderr, "bench-merge: %s\n", v.err.msg);
        return -1;
    }
    int64_t id = REC_HANDLE_DYNAMIC_BASE, all = (int64_t)P * nranks, mine = P, start = (int64_t)P * rank;
    if (uneven) {
        mine += extra_cells(rank);
        start += extra_before(rank, nranks);
        all += extra_before(nranks, nranks);
    }
    int64_t fapl = vpic_call(&v, REC_ID_H5Pcreate, (rec_value[]){I(FILE_ACCESS)}, 1, id++);
    vpic_call(&v, REC_ID_H5Pset_fapl_mpio, (rec_value[]){I(fapl), I(COMM_WORLD), I(0)}, 3, 0);
    int64_t dxpl = vpic_call(&v, REC_ID_H5Pcreate, (rec_value[]){I(DATASET_XFER)}, 1, id++);
    vpic_call(&v, REC_ID_H5Pset_dxpl_mpio, (rec_value[]){I(dxpl), I(1)}, 2, 0);
    int64_t fspace =
        vpic_call(&v, REC_ID_H5Screate_simple, (rec_value[]){I(1), ARR(&all, 1), ARR(NULL, 0)}, 3, id++);
    vpic_call(&v, REC_ID_H5Sselect_hyperslab,
              (rec_value[]){I(fspace), I(0), ARR(&start, 1), ARR(NULL, 0), ARR(&mine, 1), ARR(NULL, 0)}, 6, 0);
    int64_t mspace =
        vpic_call(&v, REC_ID_H5Screate_simple, (rec_value[]){I(1), ARR(&mine, 1), ARR(NULL, 0)}, 3, id++);
    int64_t file = vpic_call(&v, REC_ID_H5Fcreate,
                             (rec_value[]){I(rec_writer_path_id(v.w, "/scratch/vpic.h5")), I(2), I(0), I(fapl)}, 4,
                             id++);
    static const char *const names[8] = {"x", "y", "z", "px", "py", "pz", "id1", "id2"};
    uint64_t steps = records / 30 ? records / 30 : 1;
    for (uint64_t s = 0; s < steps && !v.failed; s++) {
        char group_name[32];
        snprintf(group_name, sizeof group_name, "Timestep_%llu", (unsigned long long)s);
        int64_t group =
            vpic_call(&v, REC_ID_H5Gcreate2, (rec_value[]){I(file), STR(group_name), I(0), I(0), I(0)}, 5, id++);
        for (unsigned k = 0; k < 8; k++) {
            int64_t dset = vpic_call(&v, REC_ID_H5Dcreate2,
                                     (rec_value[]){I(group), STR(names[k]), I(FLOAT_TYPE), I(fspace), I(0), I(0), I(0)},
                                     7, id++);
            vpic_call(&v, REC_ID_H5Dwrite,
                      (rec_value[]){I(dset), I(FLOAT_TYPE), I(mspace), I(fspace), I(dxpl), I(0), I(4 * P)}, 7, 0);
            vpic_call(&v, REC_ID_H5Dclose, (rec_value[]){I(dset)}, 1, 0);
        }
        vpic_call(&v, REC_ID_H5Gclose, (rec_value[]){I(group)}, 1, 0);
    }
    vpic_call(&v, REC_ID_H5Sclose, (rec_value[]){I(mspace)}, 1, 0);
    vpic_call(&v, REC_ID_H5Sclose, (rec_value[]){I(fspace)}, 1, 0);
    vpic_call(&v, REC_ID_H5Pclose, (rec_value[]){I(dxpl)}, 1, 0);
    vpic_call(&v, REC_ID_H5Pclose, (rec_value[]){I(fapl)}, 1, 0);
    vpic_call(&v, REC_ID_H5Fclose, (rec_value[]){I(file)}, 1, 0);
    if (v.failed) {
        rec_writer_discard(v.w);
        return -1;
    }
    return rec_writer_close(v.w, &v.err);
}

#undef I
#undef STR
#undef ARR

typedef struct result {
    double write_s, merge_s, user_s, sys_s; /* user_s, sys_s: of the fastest merge */
    double cold_s, cold_sys_s;              /* the first merge's */
    uint64_t records_in, records_out, out_bytes;
    long peak_kb;
    uint64_t kernel_bytes; /* --codegen: the kernel generated from the merged trace */
    double codegen_s;
    long codegen_peak_kb;
    int merges; /* how many times the trace was merged */
    int ok;
    /* --mpi: recorder-merge under mpiexec */
    double mpi_s;
    double serial_cmd_s; /* recorder-merge on its own, as a process */
    double mpi_peak_mb;  /* its largest process's */
    int mpi_equal;      /* its merged trace is the serial one, byte for byte */
    int mpi_ok;
} result;

/* Whether two files hold the same bytes. */
static int same_file(const char *a, const char *b)
{
    FILE *x = fopen(a, "rb"), *y = fopen(b, "rb");
    int same = x && y;
    while (same) {
        int p = getc(x), q = getc(y);
        same = p == q;
        if (p == EOF)
            break;
    }
    if (x)
        fclose(x);
    if (y)
        fclose(y);
    return same;
}

/* recorder-merge under mpiexec at np processes and on its own, alternated,
 * `times` times each: the fastest runs (each a process started cold, as a
 * user runs it), the largest process's peak and whether the output is the
 * serial one. */
static void merge_mpi(const char *dir, const char *serial_out, int np, int times, result *res)
{
    char out[4300], cmd[9000], serial_cmd[9000], line[1024];
    snprintf(out, sizeof out, "%s/merged-mpi", dir);
    snprintf(cmd, sizeof cmd, "'%s' -np %d '%s' '%s' -o '%s'", MPIEXEC_EXE, np, RECORDER_MERGE_EXE, dir, out);
    snprintf(serial_cmd, sizeof serial_cmd, "'%s' '%s' -o '%s' --quiet", RECORDER_MERGE_EXE, dir, serial_out);
    for (int t = 0; t < times; t++) {
        double t0 = now();
        if (system(serial_cmd) != 0) {
            fprintf(stderr, "bench-merge: %s failed\n", serial_cmd);
            return;
        }
        double took = now() - t0;
        if (t == 0 || took < res->serial_cmd_s)
            res->serial_cmd_s = took;
        t0 = now();
        FILE *p = popen(cmd, "r");
        if (!p)
            return;
        double peak = 0;
        while (fgets(line, sizeof line, p)) {
            const char *at = strstr(line, ", peak ");
            if (at)
                peak = atof(at + 7);
        }
        int status = pclose(p);
        took = now() - t0;
        if (status != 0) {
            fprintf(stderr, "bench-merge: %s failed\n", cmd);
            return;
        }
        if (!res->mpi_ok || took < res->mpi_s)
            res->mpi_s = took;
        if (peak > res->mpi_peak_mb)
            res->mpi_peak_mb = peak;
        res->mpi_ok = 1;
    }
    static const char *const files[] = {"merged.rec", "merged.meta", "recorder.meta"};
    res->mpi_equal = 1;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char a[4400], b[4400];
        snprintf(a, sizeof a, "%s/%s", serial_out, files[i]);
        snprintf(b, sizeof b, "%s/%s", out, files[i]);
        res->mpi_equal &= same_file(a, b);
    }
}

/* The kernel recorder-codegen makes of the merged trace in out, generated in
 * a child of its own so that its peak memory is its own. */
static void generate_kernel(const char *out, result *res)
{
    struct {
        uint64_t bytes;
        double seconds;
        long peak_kb;
    } got = {0, 0, 0};
    int fds[2];
    if (pipe(fds) != 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        char *kernel = NULL;
        rec_error err;
        rec_codegen_options o;
        rec_codegen_options_init(&o);
        double t0 = now();
        if (rec_codegen(out, &o, &kernel, &err) != 0)
            fprintf(stderr, "bench-merge: %s\n", err.msg);
        got.seconds = now() - t0;
        got.bytes = kernel ? strlen(kernel) : 0;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        got.peak_kb = ru.ru_maxrss;
        _exit(write(fds[1], &got, sizeof got) == sizeof got ? 0 : 1);
    }
    close(fds[1]);
    if (pid > 0 && read(fds[0], &got, sizeof got) == sizeof got) {
        res->kernel_bytes = got.bytes;
        res->codegen_s = got.seconds;
        res->codegen_peak_kb = got.peak_kb;
    }
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
}

/* --time-resolution S: the merged trace's per-rank times to within S seconds (0: exact). */
static double merged_time_resolution;

static result run_size(const char *base, uint32_t nranks, uint64_t records, unsigned window, int keep,
                       int repeat, double min_seconds, int codegen, int vpic, int mpi)
{
    result res = {0};
    char dir[4096], out[4200];
    snprintf(dir, sizeof dir, "%s/ranks-%u", base, nranks);
    snprintf(out, sizeof out, "%s/merged", dir);
    mkdir(dir, 0755);
    rec_trace_info info = {.nranks = nranks, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000000};
    rec_error err;
    double t0 = now();
    if (rec_write_global_metadata(dir, &info, NULL, NULL, &err) != 0) {
        fprintf(stderr, "bench-merge: %s\n", err.msg);
        return res;
    }
    for (uint32_t r = 0; r < nranks; r++)
        if ((vpic ? write_vpic_rank(dir, r, nranks, records, vpic == 2) : write_rank(dir, r, nranks, records)) != 0)
            return res;
    res.write_s = now() - t0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    rec_merge_options o;
    rec_merge_options_init(&o);
    o.window = window;
    o.time_resolution = merged_time_resolution;
    rec_merge_stats st;
    double merging = 0;
    for (int r = 0; r < repeat || (merging < min_seconds && r < 200); r++) { /* the least disturbed run */
        struct rusage before, after;
        getrusage(RUSAGE_SELF, &before);
        t0 = now();
        if (rec_merge_traces(dir, out, &o, &st, &err) != 0) {
            fprintf(stderr, "bench-merge: %s\n", err.msg);
            return res;
        }
        double took = now() - t0;
        getrusage(RUSAGE_SELF, &after);
        merging += took;
        res.merges = r + 1;
        if (r == 0) {
            res.cold_s = took;
            res.cold_sys_s = seconds_of(after.ru_stime) - seconds_of(before.ru_stime);
        }
        if (r == 0 || took < res.merge_s) {
            res.merge_s = took;
            res.user_s = seconds_of(after.ru_utime) - seconds_of(before.ru_utime);
            res.sys_s = seconds_of(after.ru_stime) - seconds_of(before.ru_stime);
        }
    }
    char merged_file[4300];
    struct stat sb;
    snprintf(merged_file, sizeof merged_file, "%s/merged.rec", out);
    res.out_bytes = stat(merged_file, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    res.records_in = st.records_in;
    res.records_out = st.records_out;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    res.peak_kb = ru.ru_maxrss;
    res.ok = 1;
    if (mpi > 1)
        merge_mpi(dir, out, mpi, res.merges, &res);
    if (codegen)
        generate_kernel(out, &res);
    if (keep) {
        fprintf(stderr, "bench-merge: kept %s (merged: %s)\n", dir, out);
        return res;
    }
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench-merge: could not remove %s\n", dir);
    return res;
}

int main(int argc, char **argv)
{
    uint64_t records = 10000;
    unsigned window = 200;
    int keep = 0, repeat = 3, codegen = 0, vpic = 0, mpi = 0;
    double min_seconds = 2;
    char ranks_list[256] = "64,256,1024,4096";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--records") && i + 1 < argc)
            records = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
            snprintf(ranks_list, sizeof ranks_list, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--window") && i + 1 < argc)
            window = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--time-resolution") && i + 1 < argc)
            merged_time_resolution = atof(argv[++i]);
        else if (!strcmp(argv[i], "--keep"))
            keep = 1;
        else if (!strcmp(argv[i], "--codegen"))
            codegen = 1;
        else if (!strcmp(argv[i], "--mpi") && i + 1 < argc && atoi(argv[i + 1]) > 1)
            mpi = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pattern") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "vpic") || !strcmp(argv[i + 1], "pwrite") || !strcmp(argv[i + 1], "cells")))
            vpic = !strcmp(argv[++i], "vpic") ? 1 : !strcmp(argv[i], "cells") ? 2 : 0;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "--min-seconds") && i + 1 < argc)
            min_seconds = atof(argv[++i]);
        else {
            fprintf(
                stderr,
                "usage: bench-merge [--records N] [--ranks 64,256,...] [--window M] [--time-resolution S] [--repeat R] "
                "[--min-seconds S] [--keep] [--codegen] [--pattern pwrite|vpic|cells] [--mpi P]\n");
            return 2;
        }
    }
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char base[4096];
    snprintf(base, sizeof base, "%s/bench-merge.XXXXXX", tmp);
    if (!mkdtemp(base)) {
        perror("mkdtemp");
        return 1;
    }
    printf("bench-merge: %llu records per rank, window %u, fastest of at least %d merges and %.1f s of merging, "
           "%ld cores\n",
           (unsigned long long)records, window, repeat, min_seconds, sysconf(_SC_NPROCESSORS_ONLN));
    if (merged_time_resolution > 0)
        printf("bench-merge: per-rank times to within %g s (recorder-merge --time-resolution); the traces' ticks are "
               "1e-07 s\n",
               merged_time_resolution);
    printf("%8s %12s %7s %10s %10s %12s %10s %10s %12s %8s %8s %8s %8s %10s %9s\n", "ranks", "records", "merges",
           "write s", "merge s", "records/s", "ns/record", "growth", "peak MB", "user ns", "sys ns", "cold ns",
           "cold sys", "cold grow", "out B/rec");
    double first_ns = 0, first_cold_ns = 0;
    uint64_t first_kernel = 0;
    uint64_t first_bytes = 0;
    for (char *tok = strtok(ranks_list, ","); tok; tok = strtok(NULL, ",")) {
        uint32_t nranks = (uint32_t)atoi(tok);
        int fds[2];
        if (pipe(fds) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            result res = run_size(base, nranks, records, window, keep, repeat, min_seconds, codegen, vpic, mpi);
            if (write(fds[1], &res, sizeof res) != sizeof res)
                _exit(1);
            _exit(0);
        }
        close(fds[1]);
        result res = {0};
        if (read(fds[0], &res, sizeof res) != sizeof res || !res.ok) {
            fprintf(stderr, "bench-merge: the %u-rank run failed\n", nranks);
            return 1;
        }
        close(fds[0]);
        waitpid(pid, NULL, 0);
        double ns = 1e9 * res.merge_s / (double)res.records_in;
        double per_record = 1e9 / (double)res.records_in, cold_ns = res.cold_s * per_record;
        if (first_ns == 0)
            first_ns = ns, first_cold_ns = cold_ns;
        if (!first_bytes)
            first_bytes = res.out_bytes;
        printf("%8u %12llu %7d %10.2f %10.2f %12.0f %10.1f %9.2fx %12.1f %8.1f %8.1f %8.1f %8.1f %9.2fx %9.2f   "
               "(%llu merged records, %.3f per rank record; %llu bytes, %.2fx the first)\n",
               nranks, (unsigned long long)res.records_in, res.merges, res.write_s, res.merge_s,
               (double)res.records_in / res.merge_s, ns, ns / first_ns, res.peak_kb / 1024.0,
               res.user_s * per_record, res.sys_s * per_record, cold_ns, res.cold_sys_s * per_record,
               cold_ns / first_cold_ns, (double)res.out_bytes * 1e-9 * per_record,
               (unsigned long long)res.records_out, (double)res.records_out / (double)records, (unsigned long long)res.out_bytes,
               first_bytes ? (double)res.out_bytes / (double)first_bytes : 1.0);
        if (mpi > 1 && res.mpi_ok)
            printf("%8u mpi %d processes: serial %.2f s, parallel %.2f s, speedup %.2f, peak %.1f MB a process "
                   "(%.2fx the serial merge's %.1f MB), outputs %s\n",
                   nranks, mpi, res.serial_cmd_s, res.mpi_s, res.serial_cmd_s / res.mpi_s, res.mpi_peak_mb,
                   res.mpi_peak_mb / (res.peak_kb / 1024.0), res.peak_kb / 1024.0,
                   res.mpi_equal ? "equal" : "DIFFER");
        else if (mpi > 1)
            printf("%8u mpi %d processes: the parallel merge failed\n", nranks, mpi);
        if (codegen) {
            if (!first_kernel)
                first_kernel = res.kernel_bytes;
            printf("%8u kernel %llu bytes (%.2fx the first size's), generated in %.2f s, peak %.1f MB\n", nranks,
                   (unsigned long long)res.kernel_bytes, (double)res.kernel_bytes / (double)first_kernel,
                   res.codegen_s, res.codegen_peak_kb / 1024.0);
        }
        fflush(stdout);
    }
    if (!keep)
        rmdir(base);
    printf("goals: 4096 ranks x 10k records merged in <= 60 s; per-record time grows <= 1.3x from 64 to 4096 "
           "ranks\n");
    if (mpi > 1)
        printf("goals: at 2 processes on 2 cores, speedup >= 1.70 and peak memory a process <= 0.6x the serial "
               "merge's, outputs equal\n");
    if (codegen)
        printf("goals: the kernel of the largest size <= 1.1x the first size's, generated in <= 60 s\n");
    return 0;
}
