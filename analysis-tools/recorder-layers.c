/* recorder-layers: the cross-layer view of a trace (IOPin, paper 004). Each
 * top-level I/O call with the tree of lower-layer calls it made, and per
 * layer its latency (longest sub-call), bytes and throughput (summed); then
 * per top-level function and per layer, the share of time each layer takes.
 *   recorder-layers [--limit N] [--function NAME]... [--rank R[-R2]] TRACE_DIR */
#include "ra_tools.h"

#include <errno.h>
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
            "the layer, eq. 1; bytes and throughput: summed over its calls, eq. 2).\n",
            tool);
}

static int on_begin(void *ctx, ra_trace *t, uint32_t rank)
{
    (void)t;
    return ra_layers_begin_rank(ctx, rank);
}

static int on_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    ra_layers_event(ctx, ev);
    return 0;
}

static int on_end(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    (void)t;
    (void)w;
    return ra_layers_end_rank(ctx, rank);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"limit", required_argument, 0, 'n'},
                                            {"function", required_argument, 0, 'f'},
                                            {"rank", required_argument, 0, 'r'},
                                            {"progress", no_argument, 0, 'p'},
                                            {"mpi", no_argument, 0, 'm'},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    long limit = 20;
    int progress = 0, ranged = 0, show_mpi = 0, opt;
    uint32_t first = 0, last = 0;
    /* static: still reachable, not a leak, at the early returns below (LSan) */
    static char **names;
    names = ra_xcalloc((size_t)argc, sizeof *names);
    size_t nnames = 0;
    while ((opt = getopt_long(argc, argv, "n:f:r:pmh", options, NULL)) != -1) {
        switch (opt) {
        case 'n': {
            char *end;
            limit = strtol(optarg, &end, 10);
            if (*end || limit < 0) {
                fprintf(stderr, "%s: --limit: not a count: %s\n", tool, optarg);
                return RA_EXIT_USAGE;
            }
            break;
        }
        case 'f':
            names[nnames++] = optarg;
            break;
        case 'r':
            if (ra_cli_ranks(tool, optarg, &first, &last) != 0)
                return RA_EXIT_USAGE;
            ranged = 1;
            break;
        case 'p':
            progress = 1;
            break;
        case 'm':
            show_mpi = 1;
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
    ra_trace *t = ra_cli_open(tool, argv[optind]);
    if (!t)
        return RA_EXIT_ERROR;
    uint32_t nranks = ra_trace_nranks(t);
    if (!ranged)
        last = nranks - 1;
    if (last >= nranks) {
        fprintf(stderr, "%s: --rank %u-%u: the trace has %u ranks\n", tool, first, last, nranks);
        ra_trace_close(t);
        return RA_EXIT_USAGE;
    }
    ra_layers *l = ra_layers_new(t, (size_t)limit, stdout, 0);
    ra_layers_show_mpi(l, show_mpi);
    const rec_table *table = rec_trace_table(ra_trace_rec(t));
    for (size_t i = 0; i < nnames; i++) {
        const rec_func_desc *found = NULL;
        for (size_t k = 0; k < rec_table_count(table) && !found; k++)
            if (!strcmp(rec_table_at(table, k)->name, names[i]))
                found = rec_table_at(table, k);
        if (!found) {
            fprintf(stderr, "%s: --function: %s is not in the trace's function table\n", tool, names[i]);
            ra_layers_free(l);
            ra_trace_close(t);
            return RA_EXIT_USAGE;
        }
        ra_layers_only(l, found->id);
    }
    uint32_t *ranks = ra_xmalloc(((size_t)(last - first) + 1) * sizeof *ranks);
    for (uint32_t r = first; r <= last; r++)
        ranks[r - first] = r;
    ra_progress p;
    ra_progress_init(&p, tool, progress);
    ra_visitor v = {l, on_begin, on_event, on_end};
    rec_error err;
    int failed = 0;
    if (ra_walk(t, ranks, (size_t)(last - first) + 1, 0, &v, &p, &err) != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        failed = 1;
    }
    ra_progress_done(&p);
    if (!failed) {
        if (limit)
            printf("(trees of %zu of %llu top-level calls with sub-calls shown; --limit N shows more)\n\n",
                   ra_layers_trees_shown(l), (unsigned long long)ra_layers_trees_total(l));
        ra_layers_print(l, stdout, 0);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "%s: writing to stdout failed: %s\n", tool, strerror(errno));
            failed = 1;
        }
    }
    ra_layers_free(l);
    free(ranks);
    free(names);
    ra_trace_close(t);
    return failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
