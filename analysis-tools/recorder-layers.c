/* recorder-layers: the cross-layer view of a trace (as in "IOPin: Runtime
 * Profiling of Parallel I/O in HPC Systems"). Each top-level I/O call with
 * the tree of lower-layer calls it made, and per layer its latency (longest
 * sub-call), bytes and throughput (summed); then per top-level function and
 * per layer, the share of time each layer takes.
 *   recorder-layers [--limit N] [--function NAME]... [--rank R[-R2]] TRACE_DIR */
#include "ra_tools.h"

#include <getopt.h>
#include <string.h>

static const char *tool = "recorder-layers";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR\n"
            "  --limit N        show the trees of the first N top-level calls with sub-calls\n"
            "                   (default 20; 0: none); all calls are aggregated\n"
            "  --function NAME  show only trees of top-level calls of NAME (repeatable)\n"
            "  --rank R[-R2]    only these ranks\n"
            "  --mpi            show MPI-layer calls (communication, datatypes) in the trees\n"
            "  --progress       report progress on stderr (default: only on a terminal)\n"
            "Tree lines: LAYER function duration [bytes B] [@offset] [HDF5 object]; @~offset is\n"
            "approximate (through a non-contiguous MPI-IO view). Each tree ends with\n"
            "\"=> LAYER latency, bytes, throughput\" per layer (latency: longest sub-call of\n"
            "the layer; bytes and throughput: summed over its calls).\n",
            tool);
}

typedef struct layers_tool {
    long limit;
    ra_layers *l;
} layers_tool;

/* --limit N is checked as it comes; --mpi is a flag. */
static int check_option(void *ctx, int letter, const char *arg)
{
    layers_tool *x = ctx;
    return letter == 'n' ? ra_cli_count(tool, "--limit", "count", arg, &x->limit) : RA_CLI_CONTINUE;
}

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    layers_tool *x = ctx;
    x->l = ra_layers_new(t, (size_t)x->limit, stdout, 0);
    ra_layers_show_mpi(x->l, args->given['m'] != NULL);
    unsigned *only = ra_cli_function_ids(tool, args, rec_trace_table(ra_trace_rec(t)));
    if (!only) {
        ra_layers_free(x->l);
        return RA_EXIT_USAGE;
    }
    for (size_t i = 0; i < args->nfunctions; i++)
        ra_layers_only(x->l, only[i]);
    free(only);
    *v = ra_layers_visitor(x->l);
    return RA_CLI_CONTINUE;
}

static int finish(void *ctx, int failed)
{
    layers_tool *x = ctx;
    if (!failed) {
        if (x->limit)
            printf("(trees of %zu of %llu top-level calls with sub-calls shown; --limit N shows more)\n\n",
                   ra_layers_trees_shown(x->l), (unsigned long long)ra_layers_trees_total(x->l));
        ra_layers_print(x->l, stdout, 0);
        failed = ra_cli_flush_stdout(tool) != 0;
    }
    ra_layers_free(x->l);
    return failed;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"limit", required_argument, 0, 'n'}, {"mpi", no_argument, 0, 'm'}, {0, 0, 0, 0}};
    layers_tool x = {20, NULL};
    const ra_tool layers = {
        {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS | RA_CLI_FUNCTIONS, options, check_option, &x},
        start,
        NULL,
        finish};
    return ra_tool_main(&layers, argc, argv);
}
