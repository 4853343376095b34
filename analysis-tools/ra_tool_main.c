/* ra_tool_main.c: the main() the analysis tools share once their command
 * line is parsed: open the trace, settle the ranks, walk them with the
 * tool's visitor and progress on stderr, and turn what failed into the exit
 * code (ra_tools.h). */
#include "ra_tools.h"

ra_trace *ra_cli_open(const char *tool, ra_cli_args *args, int say_why, int *code)
{
    rec_error err;
    ra_trace *t = ra_trace_open(args->dir, &err);
    if (!t) {
        if (say_why)
            fprintf(stderr, "%s: %s\n", tool, err.msg);
        *code = RA_EXIT_ERROR;
        return NULL;
    }
    uint32_t nranks = ra_trace_nranks(t); /* >= 1: the reader refuses a trace of no ranks */
    if (!args->ranged)
        args->last = nranks - 1;
    if (args->last >= nranks) {
        if (say_why)
            fprintf(stderr, "%s: --rank %u-%u: the trace has %u ranks\n", tool, args->first, args->last,
                    nranks);
        ra_trace_close(t);
        *code = RA_EXIT_USAGE;
        return NULL;
    }
    return t;
}

/* ra_walk over args->first..args->last. */
static int walk_ranks(const char *tool, const ra_cli_args *args, ra_trace *t, const ra_visitor *v,
                      ra_progress *p)
{
    size_t n = (size_t)(args->last - args->first) + 1;
    uint32_t *ranks = ra_xmalloc(n * sizeof *ranks);
    for (size_t i = 0; i < n; i++)
        ranks[i] = args->first + (uint32_t)i;
    rec_error err;
    int rc = ra_walk(t, ranks, n, 0, v, p, &err);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    free(ranks);
    return rc;
}

int ra_tool_run(const ra_tool *tool, ra_cli_args *args)
{
    const ra_cli *cli = &tool->cli;
    int code;
    ra_trace *t = ra_cli_open(cli->tool, args, 1, &code);
    if (!t)
        return code;
    ra_visitor v = {0};
    code = tool->start(cli->ctx, args, t, &v);
    if (code != RA_CLI_CONTINUE) {
        ra_trace_close(t);
        return code;
    }
    ra_progress p;
    ra_progress_init(&p, cli->tool, args->progress);
    int walked = tool->walk ? tool->walk(cli->ctx, args, t, &p) : walk_ranks(cli->tool, args, t, &v, &p);
    ra_progress_done(&p);
    int failed = tool->finish(cli->ctx, walked != 0) != 0;
    ra_trace_close(t);
    return failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}

int ra_tool_main(const ra_tool *tool, int argc, char **argv)
{
    ra_cli_args args;
    int code = ra_cli_parse(&tool->cli, argc, argv, &args);
    if (code != RA_CLI_CONTINUE)
        return code;
    code = ra_tool_run(tool, &args);
    ra_cli_args_free(&args);
    return code;
}
