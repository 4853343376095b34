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
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder_codegen.h"
#include "recorder_spawn.h"

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
    if (rs_tracer(tracer, sizeof tracer) != 0) {
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
    if (rs_run(tool, compile, scratch, log, NULL) != 0) {
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
    int status = rs_run(tool, launch, NULL, log, NULL);
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
    rs_remove_tree(scratch);
    free(kernel);
    return rc;
}
