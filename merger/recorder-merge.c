/* recorder-merge: merges a trace's per-rank streams into one merged trace.
 *   [mpirun -np P] recorder-merge TRACE_DIR [-o MERGED_DIR] [--window M] [--farthest-match] [--time-resolution S] [--quiet]
 * Under mpirun with P > 1 the processes share the work (parallel.c).
 * --paper, the option's first name, is still accepted. */
#include "parallel.h"

#include <mpi.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *tool = "recorder-merge";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s TRACE_DIR [-o MERGED_DIR] [--window M] [--farthest-match] [--time-resolution S] [--quiet]\n"
            "  -o DIR            where the merged trace goes (default: TRACE_DIR/merged)\n"
            "  --window M        records per rank considered for matching (default 200)\n"
            "  --farthest-match  merge only when every rank's next call matches; otherwise the\n"
            "                    call whose nearest match is farthest away goes out alone\n"
            "  --time-resolution S  per-rank times to within S seconds: a rank's time within S of its\n"
            "                    merged record's own is stored as that (default: exact)\n"            "  --quiet           no progress (shown on stderr once a merge takes over a second)\n"
            "                    and no summary line\n",
            tool);
}

/* One stream per rank is open at a time: make room for thousands. */
static void raise_file_limit(uint32_t need)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
        rl.rlim_cur = need + 64 < rl.rlim_max ? need + 64 : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

/* The bytes of the merged stream (merged.rec: the metadata beside it does not grow with the run). */
static uint64_t stream_bytes(const char *dir)
{
    char path[4200];
    struct stat sb;
    snprintf(path, sizeof path, "%s/merged.rec", dir);
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

void merge_print_summary(const char *name, const rec_merge_stats *st, const char *out)
{
    uint64_t bytes = stream_bytes(out);
    printf("%s: %u ranks, %llu records -> %llu merged records (%llu for every rank, %llu for groups, %llu "
           "single; %.2fx the longest rank) in %.2f s, %llu bytes (%.2f a merged record, %.3f an input record): "
           "%s\n",
           name, st->nranks, (unsigned long long)st->records_in, (unsigned long long)st->records_out,
           (unsigned long long)st->merged_all, (unsigned long long)st->merged_group, (unsigned long long)st->single,
           st->max_rank_records ? (double)st->records_out / (double)st->max_rank_records : 0.0, st->seconds,
           (unsigned long long)bytes, st->records_out ? (double)bytes / (double)st->records_out : 0.0,
           st->records_in ? (double)bytes / (double)st->records_in : 0.0, out);
    if (st->unfinished)
        printf("%s: %u rank%s never closed %s trace (a crash or kill); the first such trace ends at merged record "
               "%llu, where kernels stop\n",
               name, st->unfinished, st->unfinished > 1 ? "s" : "", st->unfinished > 1 ? "their" : "its",
               (unsigned long long)st->unfinished_after);
}

static int merge_serial(const char *in, const char *out, const rec_merge_options *o, int quiet)
{
    rec_merge_stats st;
    rec_error err;
    if (rec_merge_traces(in, out, o, &st, &err) != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    if (!quiet)
        merge_print_summary(tool, &st, out);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"output", required_argument, 0, 'o'},
                                            {"window", required_argument, 0, 'w'},
                                            {"farthest-match", no_argument, 0, 'p'},
                                            {"time-resolution", required_argument, 0, 't'},
                                            {"paper", no_argument, 0, 'p'},
                                            {"quiet", no_argument, 0, 'q'},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    rec_merge_options o;
    rec_merge_options_init(&o);
    o.tool = tool;
    o.progress = 1;
    const char *out = NULL;
    int quiet = 0, opt;
    while ((opt = getopt_long(argc, argv, "o:w:t:pqh", options, NULL)) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case 'w': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (*end || v < 1 || v > 1000000) {
                fprintf(stderr, "%s: --window: not a window size from 1 to 1000000: %s\n", tool, optarg);
                return 2;
            }
            o.window = (unsigned)v;
            break;
        }
        case 't': {
            char *end;
            double v = strtod(optarg, &end);
            if (end == optarg || *end || !(v > 0 && v <= 1000)) {
                fprintf(stderr, "%s: --time-resolution: not a number of seconds above 0, at most 1000: %s\n", tool,
                        optarg);
                return 2;
            }
            o.time_resolution = v;
            break;
        }
        case 'p': o.paper_rule = 1; break;
        case 'q': quiet = 1, o.progress = 0; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return 2;
    }
    const char *in = argv[optind];
    char default_out[4096];
    if (!out) {
        snprintf(default_out, sizeof default_out, "%s/merged", in);
        out = default_out;
    }
    rec_error err;
    rec_trace *probe = rec_trace_open(in, &err);
    if (probe) { /* else the merge says why, once */
        raise_file_limit(rec_trace_get_info(probe)->nranks);
        rec_trace_close(probe);
    }
    int status;
    if (merge_launched_by_mpi()) {
        MPI_Init(&argc, &argv);
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        status = size > 1 ? merge_parallel(in, out, &o, quiet) : merge_serial(in, out, &o, quiet);
        MPI_Finalize();
    } else {
        status = merge_serial(in, out, &o, quiet);
    }
    return status;
}
