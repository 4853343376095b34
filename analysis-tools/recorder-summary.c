/* recorder-summary: what a trace did, per layer, function and file: calls,
 * bytes and time; read and write bandwidth per layer (Alg. 1 of
 * "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis"); the compression
 * ratios of records and arguments (its Tables II and III).
 *   recorder-summary [--csv] [--top] [--rank R[-R2]] [--files N] [--progress] [--mpi] TRACE_DIR
 * Under mpirun (or with --mpi) the ranks of the trace are shared out among
 * the MPI processes and process 0 prints. */
#include "ra_tools.h"

#include <getopt.h>

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

/* --files N is checked as it comes; the other options are flags. */
static int check_option(void *ctx, int letter, const char *arg)
{
    long *files = ctx;
    return letter == 'f' ? ra_cli_count(tool, "--files", "count", arg, files) : RA_CLI_CONTINUE;
}

/* Not ra_tool_main: under MPI the processes share the ranks out, walk them
 * with the summary's own walk, and gather the rows on process 0. */
int main(int argc, char **argv)
{
    static const struct option options[] = {{"csv", no_argument, 0, 'c'},
                                            {"top", no_argument, 0, 't'},
                                            {"files", required_argument, 0, 'f'},
                                            {"mpi", no_argument, 0, 'm'},
                                            {0, 0, 0, 0}};
    long files = 0;
    const ra_cli cli = {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, check_option, &files};
    ra_cli_args args;
    int code = ra_cli_parse(&cli, argc, argv, &args);
    if (code != RA_CLI_CONTINUE)
        return code;
    int mpi = ra_mpi_wanted(args.given['m'] != NULL), me = 0, nprocs = 1;
    if (mpi && ra_mpi_init(&argc, &argv, &me, &nprocs) != 0) {
        fprintf(stderr, "%s: MPI_Init failed\n", tool);
        return RA_EXIT_ERROR;
    }
    ra_trace *t = ra_cli_open(tool, &args, me == 0, &code); /* every process fails alike: one message */
    int failed = t == NULL, usage_error = !t && code == RA_EXIT_USAGE;
    uint32_t first = args.first, last = args.last;
    ra_summary s;
    int have_summary = 0;
    uint32_t *mine = NULL;
    size_t nmine = 0;
    if (!failed) {
        ra_summary_init(&s, t, args.given['t'] != NULL);
        have_summary = 1;
        s.file_limit = files;
        s.counts_rank = first;
        mine = ra_xmalloc(((size_t)(last - first) + 1) * sizeof *mine);
        for (uint64_t r = first; r <= last; r++)
            if ((r - first) % (uint64_t)nprocs == (uint64_t)me)
                mine[nmine++] = (uint32_t)r;
        ra_progress p;
        ra_progress_init(&p, tool, args.progress);
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
        if (args.given['c'])
            ra_summary_print_csv(&s, stdout);
        else
            ra_summary_print_text(&s, stdout);
        rec_error verr;
        if (!args.given['c'] && nprocs == 1 && first == 0 && last + 1 == ra_trace_nranks(t) &&
            ra_summary_print_vars(&s, stdout, &verr) != 0) {
            fprintf(stderr, "%s: %s\n", tool, verr.msg);
            failed = 1;
        }
        failed = ra_cli_flush_stdout(tool) != 0;
    }
    if (have_summary)
        ra_summary_free(&s);
    ra_trace_close(t);
    free(mine);
    return usage_error ? RA_EXIT_USAGE : failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
