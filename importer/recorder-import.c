/* recorder-import: logs other tools keep, as recorder-kit traces.
 *
 *   recorder-import darshan LOG... -o TRACE_DIR
 *
 * reads each Darshan log with our own reader (importer/darshan_log.c) and
 * writes the trace of its DXT records, or of its counters alone where DXT
 * kept nothing (importer/import_plan.c and stat_plan.c say what they
 * infer); one LOG's trace is TRACE_DIR, several logs' are TRACE_DIR/NAME,
 * NAME being each log's file name without ".darshan". */
#define _GNU_SOURCE
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_import.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: recorder-import darshan LOG... -o TRACE_DIR [--quiet]\n"
            "  darshan        the logs are Darshan logs (format 3.00 to 3.41, Darshan 3.0 to 3.5), with DXT\n"
            "                 or without (a file DXT kept nothing of: its calls from its counters alone)\n"
            "  -o TRACE_DIR   where the trace goes; with several logs, TRACE_DIR/NAME for each\n"
            "                 (NAME: the log's file name without .darshan)\n"
            "  --quiet        no summary line\n"
            "  --help         print this help\n");
}

/* TRACE_DIR/NAME for one of several logs. */
static void trace_dir_of(const char *out, const char *log, char *dir, size_t cap)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", log);
    char *name = basename(copy);
    size_t len = strlen(name);
    if (len > 8 && strcmp(name + len - 8, ".darshan") == 0)
        name[len - 8] = 0;
    snprintf(dir, cap, "%s/%s", out, name);
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'}, {0}};
    const char *out = NULL;
    int quiet = 0, c;
    while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            out = optarg;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (optind >= argc || strcmp(argv[optind], "darshan") != 0) {
        if (optind < argc)
            fprintf(stderr, "recorder-import: %s: not a kind of log this tool reads (darshan)\n",
                    argv[optind]);
        usage(stderr);
        return 2;
    }
    int first = optind + 1, nlogs = argc - first;
    if (nlogs < 1 || !out) {
        fprintf(stderr, "recorder-import: %s\n", nlogs < 1 ? "no LOG given" : "no -o TRACE_DIR given");
        usage(stderr);
        return 2;
    }
    int status = 0;
    for (int i = first; i < argc; i++) {
        char dir[8192];
        if (nlogs == 1)
            snprintf(dir, sizeof dir, "%s", out);
        else
            trace_dir_of(out, argv[i], dir, sizeof dir);
        rec_error err;
        ri_darshan_log *log = ri_darshan_open(argv[i], &err);
        ri_import_summary sum;
        if (!log || ri_import_darshan(log, dir, NULL, &sum, &err) != 0) {
            fprintf(stderr, "recorder-import: %s\n", err.msg);
            ri_darshan_free(log);
            status = 1;
            continue;
        }
        if (!quiet) {
            char stat[96] = "";
            if (sum.stat_files)
                snprintf(stat, sizeof stat, ", %llu file%s from counters alone",
                         (unsigned long long)sum.stat_files, sum.stat_files == 1 ? "" : "s");
            char upper[160] = "", pnc[64] = "";
            if (sum.pnetcdf_calls)
                snprintf(pnc, sizeof pnc, "%s%llu PnetCDF calls", sum.upper_calls ? " and " : "",
                         (unsigned long long)sum.pnetcdf_calls);
            if (sum.upper_calls || sum.pnetcdf_calls) {
                char hdf5[48] = "";
                if (sum.upper_calls)
                    snprintf(hdf5, sizeof hdf5, "%llu HDF5 calls", (unsigned long long)sum.upper_calls);
                snprintf(upper, sizeof upper, ", %s%s with %llu calls beneath", hdf5, pnc,
                         (unsigned long long)sum.upper_nested);
            }
            printf(
                "recorder-import: %s: %u rank%s, %llu file%s, %llu DXT segments (%llu POSIX, %llu MPI-IO)%s "
                "-> %llu "
                "records (%llu inferred%s) in %s\n",
                argv[i], sum.nranks, sum.nranks == 1 ? "" : "s", (unsigned long long)sum.files,
                sum.files == 1 ? "" : "s", (unsigned long long)(sum.posix_segments + sum.mpiio_segments),
                (unsigned long long)sum.posix_segments, (unsigned long long)sum.mpiio_segments, stat,
                (unsigned long long)sum.records, (unsigned long long)sum.inferred, upper, dir);
        }
        ri_darshan_free(log);
    }
    return status;
}
