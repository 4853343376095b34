/* recorder-advise: the known causes of slow I/O in a trace, each with its
 * evidence, its threshold and a suggested tuning set (advise.h,
 * docs/user/recorder-advise.md); --set-file FILE writes the combined set,
 * which recorder-replay --tune FILE applies; --prove runs the what-if
 * replay of each finding's set against the untuned one and prints the
 * measured times beside the finding (prove.h).
 *   recorder-advise [--set-file FILE] [--rank R[-R2]] [--progress]
 *                   [--prove [--repeat K] [--np N] [--mpirun CMD] [--scratch DIR]]
 *                   [--output FILE] TRACE_DIR */
#include "advise.h"
#include "prove.h"
#include "ra_tools.h"

#include <getopt.h>
#include <string.h>
#include <unistd.h>

static const char *tool = "recorder-advise";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR\n"
            "  --set-file FILE, -o FILE  write the combined suggested tuning set to FILE\n"
            "                   (LAYER.KEY=VALUE lines: recorder-replay --tune FILE)\n"
            "  --rank R[-R2]    only these ranks (not with --prove)\n"
            "  --prove          replay each finding's set (recorder-replay --tune) and the trace\n"
            "                   untuned, alternated, and print both median times beside it\n"
            "  --repeat K       replays of each kind per finding (default 3)\n"
            "  --np N           ranks of the replays (default: the trace's)\n"
            "  --mpirun CMD     the launcher, words split on blanks (default: $MPIEXEC, or\n"
            "                   %s)\n"
            "  --scratch DIR    the replays write under a scratch directory made in DIR and\n"
            "                   removed after (default: $TMPDIR, or /tmp)\n"
            "  --output FILE    write the report to FILE instead of standard output\n"
            "  --progress       report progress on stderr (default: only on a terminal)\n"
            "Findings, in this order, each with its evidence, threshold, advice and set:\n"
            "small accesses, independent I/O to a shared file, HDF5 default alignment,\n"
            "HDF5 collective metadata off, unbalanced bytes per rank, opens and seeks in loops.\n",
            tool, RECORDER_ADVISE_MPIEXEC);
}

typedef struct advise_tool {
    advise *a;
    const char *dir;
    const char *set_file;
    const char *output;
    int prove;
    prove_options po;
} advise_tool;

static int check(void *ctx, int letter, const char *arg)
{
    advise_tool *x = ctx;
    long value = 0;
    if (letter != 'k' && letter != 'n')
        return RA_CLI_CONTINUE;
    int rc = ra_cli_count(tool, letter == 'k' ? "--repeat" : "--np", "whole number", arg, &value);
    if (rc != RA_CLI_CONTINUE)
        return rc;
    if (value < 1 || value > 100000) {
        fprintf(stderr, "%s: %s: between 1 and 100000, not %s\n", tool, letter == 'k' ? "--repeat" : "--np",
                arg);
        return RA_EXIT_USAGE;
    }
    *(letter == 'k' ? &x->po.repeat : &x->po.np) = (unsigned)value;
    return RA_CLI_CONTINUE;
}

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    advise_tool *x = ctx;
    x->dir = args->dir;
    x->set_file = args->given['o'];
    if (x->set_file && !*x->set_file) {
        fprintf(stderr, "%s: --set-file: no file name\n", tool);
        return RA_EXIT_USAGE;
    }
    x->output = args->given['O'];
    x->prove = args->given['P'] != NULL;
    if (!x->prove && (args->given['k'] || args->given['n'] || args->given['m'] || args->given['s'])) {
        fprintf(stderr, "%s: --repeat, --np, --mpirun and --scratch go with --prove\n", tool);
        return RA_EXIT_USAGE;
    }
    if (x->prove && args->ranged) {
        fprintf(stderr, "%s: --prove replays the whole trace: no --rank\n", tool);
        return RA_EXIT_USAGE;
    }
    x->po.trace = args->dir;
    x->po.mpirun = args->given['m'];
    x->po.scratch = args->given['s'];
    x->po.progress = args->progress || isatty(STDERR_FILENO);
    if (!x->po.repeat)
        x->po.repeat = 3;
    x->a = advise_new(t);
    *v = advise_visitor(x->a);
    return RA_CLI_CONTINUE;
}

static int finish(void *ctx, int failed)
{
    advise_tool *x = ctx;
    if (!failed) {
        char err[512];
        if (advise_finish(x->a, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s: a suggestion the tuning parser rejects (a bug): %s\n", tool, x->dir,
                    err);
            failed = 1;
        }
    }
    prove *p = NULL;
    if (!failed && x->prove && !(p = prove_run(x->a, &x->po)))
        failed = 1;
    if (!failed) {
        FILE *out = ra_cli_create(tool, x->output);
        advise_print_hooks hooks = {0};
        if (p)
            hooks = prove_hooks(p);
        if (!out)
            failed = 1;
        else {
            advise_print(x->a, out, x->dir, &hooks);
            failed = ra_cli_close(tool, out, x->output) != 0;
        }
        /* a replay that failed, or a set not seen applied, is said beside its finding */
        if (p && prove_failed(p)) {
            fprintf(stderr,
                    "%s: --prove: %zu finding%s with a failed replay or a set not seen applied (the report "
                    "says which)\n",
                    tool, prove_failed(p), prove_failed(p) == 1 ? "" : "s");
            failed = 1;
        }
    }
    prove_free(p);
    if (!failed && x->set_file) {
        FILE *out = ra_cli_create(tool, x->set_file);
        if (!out)
            failed = 1;
        else {
            advise_write_set(x->a, out, x->dir);
            failed = ra_cli_close(tool, out, x->set_file) != 0;
        }
    }
    advise_free(x->a);
    return failed;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"set-file", required_argument, 0, 'o'}, {"prove", no_argument, 0, 'P'},
        {"repeat", required_argument, 0, 'k'},   {"np", required_argument, 0, 'n'},
        {"mpirun", required_argument, 0, 'm'},   {"scratch", required_argument, 0, 's'},
        {"output", required_argument, 0, 'O'},   {0, 0, 0, 0}};
    advise_tool x = {0};
    const ra_tool t = {
        {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, check, &x}, start, NULL, finish};
    return ra_tool_main(&t, argc, argv);
}
