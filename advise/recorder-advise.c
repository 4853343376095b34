/* recorder-advise: the known causes of slow I/O in a trace, each with its
 * evidence, its threshold and a suggested tuning set (advise.h,
 * docs/user/recorder-advise.md); --set-file FILE writes the combined set,
 * which recorder-replay --tune FILE applies.
 *   recorder-advise [--set-file FILE] [--rank R[-R2]] [--progress] TRACE_DIR */
#include "advise.h"
#include "ra_tools.h"

#include <getopt.h>
#include <string.h>

static const char *tool = "recorder-advise";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR\n"
            "  --set-file FILE, -o FILE  write the combined suggested tuning set to FILE\n"
            "                   (LAYER.KEY=VALUE lines: recorder-replay --tune FILE)\n"
            "  --rank R[-R2]    only these ranks\n"
            "  --progress       report progress on stderr (default: only on a terminal)\n"
            "Findings, in this order, each with its evidence, threshold, advice and set:\n"
            "small accesses, independent I/O to a shared file, HDF5 default alignment,\n"
            "HDF5 collective metadata off, unbalanced bytes per rank, opens and seeks in loops.\n",
            tool);
}

typedef struct advise_tool {
    advise *a;
    const char *dir;
    const char *set_file;
} advise_tool;

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    advise_tool *x = ctx;
    x->dir = args->dir;
    x->set_file = args->given['o'];
    if (x->set_file && !*x->set_file) {
        fprintf(stderr, "%s: --set-file: no file name\n", tool);
        return RA_EXIT_USAGE;
    }
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
    if (!failed) {
        advise_print(x->a, stdout, x->dir);
        failed = ra_cli_flush_stdout(tool) != 0;
    }
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
    static const struct option options[] = {{"set-file", required_argument, 0, 'o'}, {0, 0, 0, 0}};
    advise_tool x = {0};
    const ra_tool t = {{tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, NULL, &x}, start, NULL, finish};
    return ra_tool_main(&t, argc, argv);
}
