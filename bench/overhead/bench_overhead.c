/* bench-overhead: what tracing costs a tight I/O loop.
 *
 * A loop of N x 64-byte pwrite (default 200000), at distinct offsets (block
 * k at k*64) and at one offset (always 0), run untraced, under the
 * pass-through floor (libpassthrough.so: an interposed pwrite that reads the
 * clock twice and does nothing else), under the record-keeping floor
 * (librecordfloor.so: the same, keeping a raw 48-byte record of each call)
 * and traced with librecorder.so, in one go. For each case the program re-executes itself in loop mode R times
 * (default 5) each way, the four in turn, and takes the medians. The loop times itself with
 * CLOCK_MONOTONIC around the loop only, so process start, tracer start-up
 * and the trace's closing are not counted. Prints, per case:
  *   untraced and traced ns/call, the ns/call tracing adds, each floor's,
 *   and their ratios,
 *   trace bytes/call (N.rec + N.meta + recorder.meta) and N.rec bytes/call,
 *   traced records/s (calls recorded per second of the traced loop),
 * next to the goals: <= 100 ns/call added (of CPU time: on a shared machine
 * the wall clock also counts the time other programs held the core; both
 * are printed), at most twice the floor, <= 3 B/call at distinct offsets,
 * <= 0.4 B/call at the same offset.
 *
 *   bench-overhead [--calls N] [--repeat R] [--tracer PATH] [--floor PATH] [--tmpdir DIR]
 *   bench-overhead --loop distinct|same N FILE      (one measured loop)
 *
 * The tracer defaults to ../tracer/librecorder.so next to this program's
 * directory (the build tree's layout), the floor to libpassthrough.so
 * beside this program. RECORDER_* variables in the
 * environment (RECORDER_TSC=0, RECORDER_WINDOW=...) apply to the traced runs. Files go to a fresh directory
 * under
 * --tmpdir, $TMPDIR or /tmp, removed at the end. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define BLOCK 64
#define MAX_REPEAT 101

static const char *tool = "bench-overhead";

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The process's CPU time (user and system, every thread): what the loop and
 * the tracer cost, whatever else the machine runs meanwhile. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- loop mode: the measured program ---- */

static int loop_main(const char *mode, long n, const char *path)
{
    int distinct = strcmp(mode, "distinct") == 0;
    if (!distinct && strcmp(mode, "same") != 0) {
        fprintf(stderr, "%s: --loop: distinct or same, not %s\n", tool, mode);
        return 2;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return 1;
    }
    char block[BLOCK];
    memset(block, 'x', sizeof block);
    long errors = 0;
    uint64_t t0 = now_ns(), c0 = cpu_ns();
    for (long k = 0; k < n; k++)
        if (pwrite(fd, block, BLOCK, distinct ? (off_t)k * BLOCK : 0) != BLOCK)
            errors++;
    uint64_t t1 = now_ns(), c1 = cpu_ns();
    if (close(fd) != 0)
        errors++;
    if (errors) {
        fprintf(stderr, "%s: %ld pwrite calls failed\n", tool, errors);
        return 1;
    }
    printf("loop_ns %llu cpu_ns %llu\n", (unsigned long long)(t1 - t0), (unsigned long long)(c1 - c0));
    return 0;
}

/* ---- the driver ---- */

typedef struct sample {
    double ns_per_call;
    double total_bytes, rec_bytes; /* trace sizes (traced runs) */
} sample;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long long file_size(const char *dir, const char *name)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Removes a directory holding only files. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char path[PATH_MAX + 300];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* The environment for a child: ours without LD_PRELOAD and
 * RECORDER_TRACES_DIR, plus both when traced. Other RECORDER_* settings
 * (RECORDER_TSC, RECORDER_WINDOW ...) pass through to the traced runs. */
static char **child_env(const char *tracer, const char *trace_dir, char *buf1, char *buf2, size_t cap)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = calloc(n + 3, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "LD_PRELOAD=", 11) != 0 &&
            strncmp(environ[i], "RECORDER_TRACES_DIR=", 20) != 0)
            env[k++] = environ[i];
    if (tracer) {
        snprintf(buf1, cap, "LD_PRELOAD=%s", tracer);
        env[k++] = buf1;
    }
    if (trace_dir) {
        snprintf(buf2, cap, "RECORDER_TRACES_DIR=%s", trace_dir);
        env[k++] = buf2;
    }
    env[k] = NULL;
    return env;
}

/* Runs one loop in a child; its loop time in ns (*cpu: CPU time), or -1. */
static double run_loop(double *cpu, const char *what, const char *self, const char *mode, long n, const char *file,
                       const char *tracer, const char *trace_dir)
{
    char e1[PATH_MAX + 32], e2[PATH_MAX + 32], count[32];
    snprintf(count, sizeof count, "%ld", n);
    char **env = child_env(tracer, trace_dir, e1, e2, sizeof e1);
    int fds[2];
    if (!env || pipe(fds) != 0) {
        free(env);
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        char *argv[] = {(char *)self, "--loop", (char *)mode, count, (char *)file, NULL};
        execve(self, argv, env);
        _exit(127);
    }
    free(env);
    close(fds[1]);
    char out[256] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof out - 1 && (r = read(fds[0], out + got, sizeof out - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "%s: the %s %s loop failed (status %#x)\n", tool, what, mode, status);
        return -1;
    }
    unsigned long long ns, cpu_used;
    if (sscanf(out, "loop_ns %llu cpu_ns %llu", &ns, &cpu_used) != 2)
        return -1;
    *cpu = (double)cpu_used;
    return (double)ns;
}

typedef struct result {
    const char *mode;
    double untraced, traced, total_bytes, rec_bytes; /* medians; times in ns/call, wall clock */
    double untraced_cpu, traced_cpu;                 /* medians, CPU time */
    double added, added_cpu;                         /* medians of each run's traced - untraced */
    double floor_cpu, floor_added_cpu;               /* the pass-through's, and its - untraced */
    double keep_added_cpu, keep_bytes;               /* the record-keeping floor's - untraced, its B/call */
} result;

static int measure(const char *self, const char *tracer, const char *floor_lib, const char *keep_lib, const char *tmp,
                   const char *mode, long n, int repeat, result *res)
{
    double untraced[MAX_REPEAT], traced[MAX_REPEAT], total[MAX_REPEAT], rec[MAX_REPEAT];
    double untraced_cpu[MAX_REPEAT], traced_cpu[MAX_REPEAT], added[MAX_REPEAT], added_cpu[MAX_REPEAT];
    double floor_cpu[MAX_REPEAT], floor_added_cpu[MAX_REPEAT];
    double keep_added_cpu[MAX_REPEAT], keep_bytes[MAX_REPEAT];
    char keep_dir[PATH_MAX];
    char file[PATH_MAX], trace_dir[PATH_MAX];
    snprintf(file, sizeof file, "%s/data", tmp);
    for (int r = 0; r < repeat; r++) {
        snprintf(trace_dir, sizeof trace_dir, "%s/trace-%s-%d", tmp, mode, r);
        double uc = 0, fc = 0, tc = 0;
        double u = run_loop(&uc, "untraced", self, mode, n, file, NULL, NULL);
        unlink(file);
        double f = run_loop(&fc, "pass-through", self, mode, n, file, floor_lib, NULL);
        unlink(file);
        snprintf(keep_dir, sizeof keep_dir, "%s/raw-%s-%d", tmp, mode, r);
        double kc = 0, k = run_loop(&kc, "record-keeping", self, mode, n, file, keep_lib, keep_dir);
        unlink(file);
        long long kept = file_size(keep_dir, "raw.records");
        remove_dir(keep_dir);
        double t = run_loop(&tc, "traced", self, mode, n, file, tracer, trace_dir);
        unlink(file);
        long long rec_size = file_size(trace_dir, "0.rec"), meta = file_size(trace_dir, "0.meta"),
                  global = file_size(trace_dir, "recorder.meta");
        remove_dir(trace_dir);
        if (u < 0 || f < 0 || k < 0 || t < 0)
            return -1;
        if (rec_size < 0 || meta < 0 || global < 0) {
            fprintf(stderr, "%s: the traced %s run left no complete trace in %s\n", tool, mode, trace_dir);
            return -1;
        }
        untraced[r] = u / (double)n;
        traced[r] = t / (double)n;
        untraced_cpu[r] = uc / (double)n;
        traced_cpu[r] = tc / (double)n;
        added[r] = traced[r] - untraced[r];
        added_cpu[r] = traced_cpu[r] - untraced_cpu[r];
        floor_cpu[r] = fc / (double)n;
        floor_added_cpu[r] = floor_cpu[r] - untraced_cpu[r];
        keep_added_cpu[r] = kc / (double)n - untraced_cpu[r];
        keep_bytes[r] = (double)kept / (double)n;
        total[r] = (double)(rec_size + meta + global);
        rec[r] = (double)rec_size;
        fprintf(stderr,
                "  %-8s run %d: untraced %7.1f ns/call (cpu %7.1f), pass-through cpu %7.1f, record-keeping cpu %7.1f, traced %7.1f ns/call "
                "(cpu %7.1f), trace %lld B (0.rec %lld B)\n",
                mode, r + 1, untraced[r], untraced_cpu[r], floor_cpu[r], kc / (double)n, traced[r], traced_cpu[r],
                rec_size + meta + global, rec_size);
    }
    res->mode = mode;
    res->untraced = median(untraced, repeat);
    res->traced = median(traced, repeat);
    res->untraced_cpu = median(untraced_cpu, repeat);
    res->traced_cpu = median(traced_cpu, repeat);
    res->added = median(added, repeat);
    res->added_cpu = median(added_cpu, repeat);
    res->floor_cpu = median(floor_cpu, repeat);
    res->floor_added_cpu = median(floor_added_cpu, repeat);
    res->keep_added_cpu = median(keep_added_cpu, repeat);
    res->keep_bytes = median(keep_bytes, repeat);
    res->total_bytes = median(total, repeat);
    res->rec_bytes = median(rec, repeat);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [--calls N] [--repeat R] [--tracer PATH] [--floor PATH] [--record-floor PATH] [--tmpdir DIR]\n"
            "       %s --loop distinct|same N FILE\n"
            "  --calls N     pwrite calls per loop (default 200000)\n"
            "  --repeat R    runs per case and mode; medians are reported (default 5)\n"
            "  --tracer PATH librecorder.so (default: ../tracer/librecorder.so from this program)\n"
            "  --floor PATH  the pass-through wrapper (default: libpassthrough.so beside this program)\n"
            "  --record-floor PATH  the record-keeping wrapper (default: librecordfloor.so beside this program)\n"
            "  --tmpdir DIR  where the data file and traces go (default $TMPDIR or /tmp)\n",
            tool, tool);
}

/* A library given by option, else at rel from this program's directory, resolved into out (PATH_MAX). */
static int library(const char *self, const char *given, const char *rel, const char *option, char *out)
{
    char path[PATH_MAX], dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", self);
    if (given)
        snprintf(path, sizeof path, "%s", given);
    else
        snprintf(path, sizeof path, "%s/%s", dirname(dir), rel);
    if (!realpath(path, out)) {
        fprintf(stderr, "%s: %s: %s (use %s PATH)\n", tool, path, strerror(errno), option);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "--loop") == 0)
        return loop_main(argv[2], atol(argv[3]), argv[4]);
    long n = 200000;
    int repeat = 5;
    const char *tracer_arg = NULL, *tmp_arg = NULL, *floor_arg = NULL, *keep_arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (!v) {
            usage(stderr);
            return 2;
        }
        if (strcmp(a, "--calls") == 0)
            n = atol(v);
        else if (strcmp(a, "--repeat") == 0)
            repeat = atoi(v);
        else if (strcmp(a, "--tracer") == 0)
            tracer_arg = v;
        else if (strcmp(a, "--tmpdir") == 0)
            tmp_arg = v;
        else if (strcmp(a, "--floor") == 0)
            floor_arg = v;
        else if (strcmp(a, "--record-floor") == 0)
            keep_arg = v;
        else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (n < 1 || repeat < 1 || repeat > MAX_REPEAT) {
        fprintf(stderr, "%s: --calls must be >= 1 and --repeat in 1..%d\n", tool, MAX_REPEAT);
        return 2;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        fprintf(stderr, "%s: cannot find this program: %s\n", tool, strerror(errno));
        return 1;
    }
    self[len] = 0;
    char resolved[PATH_MAX], floor_lib[PATH_MAX], keep_lib[PATH_MAX];
    if (library(self, tracer_arg, "../tracer/librecorder.so", "--tracer", resolved) != 0 ||
        library(self, floor_arg, "libpassthrough.so", "--floor", floor_lib) != 0 ||
        library(self, keep_arg, "librecordfloor.so", "--record-floor", keep_lib) != 0)
        return 1;
    const char *base = tmp_arg ? tmp_arg : getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/bench-overhead-XXXXXX", base);
    if (!mkdtemp(tmp)) {
        fprintf(stderr, "%s: %s: %s\n", tool, tmp, strerror(errno));
        return 1;
    }

    printf("bench-overhead: %ld x %d-byte pwrite per loop, median of %d runs per case\n", n, BLOCK, repeat);
    printf("tracer: %s\npass-through floor: %s\nrecord-keeping floor: %s\nfiles: %s (removed at the end)\n", resolved,
           floor_lib, keep_lib, tmp);
    fflush(stdout);
    static const char *const modes[] = {"distinct", "same"};
    result res[2];
    int failed = 0;
    for (int m = 0; m < 2 && !failed; m++)
        failed = measure(self, resolved, floor_lib, keep_lib, tmp, modes[m], n, repeat, &res[m]) != 0;
    remove_dir(tmp);
    if (failed)
        return 1;

    printf("\n%-9s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", "case", "untraced", "traced", "added",
           "untraced", "traced", "added", "trace", "N.rec", "traced");
    printf("%-9s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n", "", "wall", "wall", "wall", "cpu", "cpu",
           "cpu", "B/call", "B/call", "records/s");
    for (int m = 0; m < 2; m++) {
        result *r = &res[m];
        printf("%-9s %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.3f %10.3f %10.3g\n", r->mode, r->untraced,
               r->traced, r->added, r->untraced_cpu, r->traced_cpu, r->added_cpu, r->total_bytes / (double)n,
               r->rec_bytes / (double)n, 1e9 / r->traced);
    }
    printf("(times in ns/call, medians over the runs; \"added\" is the median of each run's traced minus\n"
           " untraced loop, which ran back to back; cpu is the process's CPU time, which waiting for the\n"
           " other programs of a shared machine does not inflate)\n");
    printf("\n%-9s %10s %10s %10s %10s %10s %10s\n", "case", "floor", "tracer", "ratio", "record", "ratio", "record");
    printf("%-9s %10s %10s %10s %10s %10s %10s\n", "", "added cpu", "added cpu", "", "added cpu", "", "B/call");
    for (int m = 0; m < 2; m++) {
        const result *r = &res[m];
        printf("%-9s %10.1f %10.1f %10.2f %10.1f %10.2f %10.1f\n", r->mode, r->floor_added_cpu, r->added_cpu,
               r->floor_added_cpu > 0 ? r->added_cpu / r->floor_added_cpu : 0.0, r->keep_added_cpu,
               r->keep_added_cpu > 0 ? r->added_cpu / r->keep_added_cpu : 0.0, r->keep_bytes);
    }
    printf("(floor: an interposed pwrite that reads the clock twice and calls the real one, nothing else;\n"
           " record: one that also keeps each call as a raw 48-byte record, written out 1 MiB at a time)\n");
    printf("\ngoals (trace B/call counts N.rec + N.meta + recorder.meta):\n");
    for (int m = 0; m < 2; m++) {
        result *r = &res[m];
        double added = r->added_cpu, bytes = r->total_bytes / (double)n;
        double bytes_goal = m == 0 ? 3.0 : 0.4, ns_goal = m == 0 ? 100 : 80;
        double twice = 2 * (r->floor_added_cpu > 0 ? r->floor_added_cpu : 0);
        printf("  %-8s added %6.1f ns/call of CPU (wall %.1f) (goal <= %.0f): %-6s  <= 2x the floor (%.1f): %-6s"
               "  trace %.3f B/call (goal <= %.1f): %s\n",
               r->mode, added, r->added, ns_goal, added <= ns_goal ? "met" : "MISSED", twice,
               added <= twice ? "met" : "MISSED", bytes, bytes_goal, bytes <= bytes_goal ? "met" : "MISSED");
        double twice_kept = 2 * (r->keep_added_cpu > 0 ? r->keep_added_cpu : 0);
        printf("  %-8s (beside: <= 2x the record-keeping floor (%.1f): %s)\n", "", twice_kept,
               added <= twice_kept ? "met" : "MISSED");
    }
    return 0;
}
