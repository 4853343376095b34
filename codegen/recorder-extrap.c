/* recorder-extrap TRACE_A TRACE_B TRACE_C ... --ranks N -o TRACE_N: the trace
 * of the application at N ranks, extrapolated from its traces at three or
 * more other rank counts (the check C1 of "ScalaIOExtrap: Elastic I/O Tracing
 * and Extrapolation", comparable with recorder-diff).
 *
 * The extrapolation is the elastic kernel's (rec_codegen_elastic): every
 * value that depends on the rank count is modelled exactly, or refused by
 * name. The trace at N is that model run at N: the kernel is compiled
 * (h5pcc -shlib) and run under the tracer with mpiexec -np N in a scratch
 * directory, so its calls, arguments and outcomes are the real ones. */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recorder_codegen.h"

static const char *tool = "recorder-extrap";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [OPTIONS] TRACE_A TRACE_B TRACE_C ... --ranks N -o TRACE_N\n"
            "Extrapolates traces of one application at three or more rank counts to N ranks: the elastic\n"
            "kernel (recorder-codegen --elastic) is built and run at N ranks under the tracer, in a scratch\n"
            "directory; its trace is written to TRACE_N. Compare it with recorder-diff.\n"
            "  --ranks N          the rank count to extrapolate to\n"
            "  -o DIR             the trace directory to write (must not exist)\n"
            "  --kernel FILE      also keep the elastic kernel's source in FILE\n"
            "  --name NAME        the kernel's name in its messages (default recorder-extrap)\n"
            "Environment: RECORDER_LIB (the tracer, default found next to this program),\n"
            "RECORDER_EXTRAP_PRELOAD (more libraries to preload, e.g. an oversubscription helper),\n"
            "MPIEXEC (default mpiexec), H5PCC (default h5pcc), TMPDIR.\n",
            tool);
}

static int run(char *const argv[], const char *log, const char *cwd)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (cwd && chdir(cwd) != 0)
            _exit(127);
        if (log && !freopen(log, "w", stdout))
            _exit(127);
        if (log)
            dup2(STDOUT_FILENO, STDERR_FILENO);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s: %s\n", tool, argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

/* The tracer: RECORDER_LIB, or librecorder.so beside this program's build or install tree. */
static int find_tracer(char *out, size_t cap)
{
    const char *env = getenv("RECORDER_LIB");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return access(out, R_OK);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return -1;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    static const char *const rel[] = {"/../tracer/librecorder.so", "/../lib/librecorder.so",
                                      "/../lib/x86_64-linux-gnu/librecorder.so", "/../lib64/librecorder.so"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(out, cap, "%s%s", self, rel[i]);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

static void show_log(const char *log)
{
    FILE *f = fopen(log, "r");
    char line[512];
    for (int i = 0; f && i < 20 && fgets(line, sizeof line, f); i++)
        fprintf(stderr, "  %s", line);
    if (f)
        fclose(f);
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {{"ranks", required_argument, 0, 'r'},
                                             {"kernel", required_argument, 0, 'k'},
                                             {"name", required_argument, 0, 'n'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    o.program = tool;
    const char *output = NULL, *keep = NULL;
    long ranks = 0;
    int c;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'r': {
            char *end;
            ranks = strtol(optarg, &end, 10);
            if (*end || ranks < 1 || ranks > 1000000) {
                fprintf(stderr, "%s: --ranks expects a positive number, got '%s'\n", tool, optarg);
                return 2;
            }
            break;
        }
        case 'k':
            keep = optarg;
            break;
        case 'n':
            o.program = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (argc - optind < 3 || !output || !ranks) {
        fprintf(stderr, "%s: needs three or more trace directories, --ranks N and -o TRACE_N\n", tool);
        usage(stderr);
        return 2;
    }
    struct stat st;
    if (stat(output, &st) == 0) {
        fprintf(stderr, "%s: %s: already exists (the extrapolated trace goes to a new directory)\n", tool, output);
        return 1;
    }
    char tracer[PATH_MAX];
    if (find_tracer(tracer, sizeof tracer) != 0) {
        fprintf(stderr, "%s: %s: the tracer is not readable (set RECORDER_LIB to librecorder.so)\n", tool, tracer);
        return 1;
    }
    rec_error err;
    char *kernel = NULL;
    if (rec_codegen_elastic((const char *const *)argv + optind, (unsigned)(argc - optind), &o, &kernel, &err) != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    const char *tmp = getenv("TMPDIR");
    char scratch[PATH_MAX], src[PATH_MAX + 16], bin[PATH_MAX + 16], outdir[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(scratch, sizeof scratch, "%s/recorder-extrap.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        fprintf(stderr, "%s: %s: cannot make a scratch directory: %s\n", tool, scratch, strerror(errno));
        free(kernel);
        return 1;
    }
    char absolute[PATH_MAX];
    if (scratch[0] != '/' && realpath(scratch, absolute)) /* the compiler runs in it */
        snprintf(scratch, sizeof scratch, "%s", absolute);
    snprintf(src, sizeof src, "%s/kernel.c", scratch);
    snprintf(bin, sizeof bin, "%s/kernel", scratch);
    snprintf(outdir, sizeof outdir, "%s/out", scratch);
    snprintf(log, sizeof log, "%s/log.txt", scratch);
    int rc = 1;
    FILE *f = fopen(src, "w");
    int written = f && fputs(kernel, f) >= 0;
    if (f && fclose(f) != 0)
        written = 0;
    if (keep) {
        FILE *k = fopen(keep, "w");
        if (!k || fputs(kernel, k) < 0 || fclose(k) != 0) {
            fprintf(stderr, "%s: %s: cannot write the kernel: %s\n", tool, keep, strerror(errno));
            goto done;
        }
    }
    if (!written) {
        fprintf(stderr, "%s: %s: cannot write the kernel: %s\n", tool, src, strerror(errno));
        goto done;
    }
    const char *cc = getenv("H5PCC");
    char *compile[] = {(char *)(cc && *cc ? cc : "h5pcc"), "-shlib", "-O1", src, "-o", bin, NULL};
    /* in the scratch directory: h5pcc leaves kernel.o in its working directory */
    if (run(compile, log, scratch) != 0) {
        fprintf(stderr, "%s: %s: the elastic kernel does not compile:\n", tool, src);
        show_log(log);
        goto done;
    }
    const char *extra = getenv("RECORDER_EXTRAP_PRELOAD");
    char preload[2 * PATH_MAX + 2], np[32], traces[PATH_MAX + 32];
    snprintf(preload, sizeof preload, "%s%s%s", extra && *extra ? extra : "", extra && *extra ? ":" : "", tracer);
    snprintf(np, sizeof np, "%ld", ranks);
    snprintf(traces, sizeof traces, "%s", output);
    const char *mpiexec = getenv("MPIEXEC");
    char *launch[] = {(char *)(mpiexec && *mpiexec ? mpiexec : "mpiexec"), "-np", np, "-genv", "LD_PRELOAD", preload,
                      "-genv", "RECORDER_TRACES_DIR", traces, bin, outdir, NULL};
    int status = run(launch, log, NULL);
    if (status != 0) {
        fprintf(stderr, "%s: the elastic kernel failed at %ld ranks (status %d):\n", tool, ranks, status);
        show_log(log);
        goto done;
    }
    if (stat(output, &st) != 0) {
        fprintf(stderr, "%s: %s: the run left no trace\n", tool, output);
        goto done;
    }
    rc = 0;
done:
    nftw(scratch, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(kernel);
    return rc;
}
