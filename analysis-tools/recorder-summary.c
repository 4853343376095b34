/* recorder-summary: what a trace did, per layer, function and file: calls,
 * bytes and time; read and write bandwidth per layer (paper 001 Alg. 1); the
 * compression ratios of records and arguments (Tables II and III).
 *   recorder-summary [--csv] [--top] [--rank R[-R2]] [--files N] [--progress] [--mpi] TRACE_DIR
 * Under mpirun (or with --mpi) the ranks of the trace are shared out among
 * the MPI processes and process 0 prints. */
#include "ra_tools.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

static const char *tool = "recorder-summary";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR\n"
            "  --csv          one row per (rank, layer, function, path):\n"
            "                 rank,layer,function,path,calls,bytes,seconds\n"
            "  --top          count only the calls the application made (depth 0);\n"
            "                 default: every recorded call, at every depth\n"
            "  --rank R[-R2]  only these ranks of the trace\n"
            "  --files N      text output: show the N busiest files per layer (default: all)\n"
            "  --progress     report progress on stderr (default: only on a terminal)\n"
            "  --mpi          share the ranks out over MPI processes (automatic under mpirun)\n"
            "  --help         this text\n"
            "Text output: functions per layer (calls, bytes, seconds), files per layer (opens,\n"
            "reads, writes, bytes, seconds), read/write bandwidth per layer, compression.\n",
            tool);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"csv", no_argument, 0, 'c'},        {"top", no_argument, 0, 't'},
        {"rank", required_argument, 0, 'r'}, {"files", required_argument, 0, 'f'},
        {"progress", no_argument, 0, 'p'},   {"mpi", no_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    int csv = 0, top = 0, progress = 0, force_mpi = 0, ranged = 0, opt;
    long files = 0;
    uint32_t first = 0, last = 0;
    while ((opt = getopt_long(argc, argv, "ctr:f:pmh", options, NULL)) != -1) {
        switch (opt) {
        case 'c':
            csv = 1;
            break;
        case 't':
            top = 1;
            break;
        case 'r':
            if (ra_cli_ranks(tool, optarg, &first, &last) != 0)
                return RA_EXIT_USAGE;
            ranged = 1;
            break;
        case 'f': {
            char *end;
            files = strtol(optarg, &end, 10);
            if (*end || files < 0) {
                fprintf(stderr, "%s: --files: not a count: %s\n", tool, optarg);
                return RA_EXIT_USAGE;
            }
            break;
        }
        case 'p':
            progress = 1;
            break;
        case 'm':
            force_mpi = 1;
            break;
        case 'h':
            usage(stdout);
            return RA_EXIT_OK;
        default:
            usage(stderr);
            return RA_EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return RA_EXIT_USAGE;
    }
    const char *dir = argv[optind];
    int mpi = ra_mpi_wanted(force_mpi), me = 0, nprocs = 1;
    if (mpi && ra_mpi_init(&argc, &argv, &me, &nprocs) != 0) {
        fprintf(stderr, "%s: MPI_Init failed\n", tool);
        return RA_EXIT_ERROR;
    }
    rec_error open_err;
    ra_trace *t = ra_trace_open(dir, &open_err);
    if (!t && me == 0) /* every process fails alike: one message */
        fprintf(stderr, "%s: %s\n", tool, open_err.msg);
    int failed = t == NULL, usage_error = 0;
    uint32_t nranks = t ? ra_trace_nranks(t) : 0;
    if (t && !ranged)
        last = nranks ? nranks - 1 : 0;
    if (t && (last >= nranks || !nranks)) {
        if (me == 0)
            fprintf(stderr, "%s: --rank %u-%u: the trace has %u ranks\n", tool, first, last, nranks);
        failed = usage_error = 1;
    }
    ra_summary s;
    int have_summary = 0;
    uint32_t *mine = NULL;
    size_t nmine = 0;
    if (!failed) {
        ra_summary_init(&s, t, top);
        have_summary = 1;
        s.file_limit = files;
        s.counts_rank = first;
        mine = ra_xmalloc(((size_t)(last - first) + 1) * sizeof *mine);
        for (uint64_t r = first; r <= last; r++)
            if ((r - first) % (uint64_t)nprocs == (uint64_t)me)
                mine[nmine++] = (uint32_t)r;
        ra_progress p;
        ra_progress_init(&p, tool, progress);
        if (me != 0) /* process 0 speaks for all */
            p.enabled = 0, p.next_check = UINT64_MAX;
        rec_error err;
        if (ra_summary_walk(&s, mine, nmine, &p, &err) != 0) {
            fprintf(stderr, "%s: %s\n", tool, err.msg);
            failed = 1;
        }
        ra_progress_done(&p);
    }
    if (mpi) {
        failed = ra_mpi_reduce_summary(&s, mine, nmine, failed); /* collective even on failure */
        ra_mpi_finalize();
    }
    if (!failed && me == 0) {
        ra_summary_sort(&s);
        if (csv)
            ra_summary_print_csv(&s, stdout);
        else
            ra_summary_print_text(&s, stdout);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "%s: writing to stdout failed: %s\n", tool, strerror(errno));
            failed = 1;
        }
    }
    if (have_summary)
        ra_summary_free(&s);
    ra_trace_close(t);
    free(mine);
    return usage_error ? RA_EXIT_USAGE : failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
