/* recorder-overlap: which ranks access the same bytes of a file, and how
 * (paper 001 Alg. 2): one line per (first rank, second rank, file, pattern)
 *   RAW rank 0 -> rank 1 file "/data/out" bytes [4096, 8192)
 * meaning rank 1 read bytes rank 0 had written before (the range is the
 * overlap of a first example), or "no overlapping accesses". What counts as
 * an access is explained in ra_overlap.c and by --help. Serial: one process
 * reads every rank (the sort spills to temporary files beyond --memory). */
#include "ra_tools.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

static const char *tool = "recorder-overlap";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR\n"
            "Prints one line per pair of ranks (possibly equal), file and pattern:\n"
            "  PATTERN rank R1 -> rank R2 file \"PATH\" bytes [LO, HI)\n"
            "PATTERN is RAR, WAW, RAW or WAR (RAW: R2 read bytes R1 had written before);\n"
            "[LO, HI) are the overlapping bytes of a first example. With none, the one line\n"
            "\"no overlapping accesses\".\n"
            "By default an access is a data call on the POSIX layer with a known byte range,\n"
            "made for a data call of the application, and a pair with a write counts unless\n"
            "the first access's open session was closed before the second one's was opened.\n"
            "  --layer L       POSIX (default) or MPI-IO\n"
            "  --metadata      also accesses made for top-level calls that move no data\n"
            "                  (HDF5 metadata flushes, ROMIO read-modify-write under them)\n"
            "  --all-sessions  also pairs a close-to-open ordering separates\n"
            "  --inexact       also MPI-IO accesses through non-contiguous views (as ranges)\n"
            "  --all           all three: every pair of Alg. 2\n"
            "  --rank R[-R2]   only these ranks\n"
            "  --memory SIZE   memory for intervals before sorting on disk: MB, or 64K, 2G\n"
            "                  (default 256M)\n"
            "  --verbose       print how many accesses were checked (stderr)\n"
            "  --progress      report progress on stderr (default: only on a terminal)\n",
            tool);
}

static int on_begin(void *ctx, ra_trace *t, uint32_t rank)
{
    (void)t;
    return ra_overlap_begin_rank(ctx, rank);
}

static int on_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    ra_overlap_event(ctx, ev);
    return 0;
}

static int on_end(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    (void)t;
    (void)w;
    return ra_overlap_end_rank(ctx, rank);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"layer", required_argument, 0, 'l'},
                                            {"metadata", no_argument, 0, 'M'},
                                            {"all-sessions", no_argument, 0, 'S'},
                                            {"inexact", no_argument, 0, 'I'},
                                            {"all", no_argument, 0, 'a'},
                                            {"rank", required_argument, 0, 'r'},
                                            {"memory", required_argument, 0, 'm'},
                                            {"verbose", no_argument, 0, 'v'},
                                            {"progress", no_argument, 0, 'p'},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    ra_overlap_opts o = {REC_LAYER_POSIX, 0, 0, 0, (size_t)256 << 20};
    int verbose = 0, progress = 0, ranged = 0, opt;
    uint32_t first = 0, last = 0;
    while ((opt = getopt_long(argc, argv, "l:MSIar:m:vph", options, NULL)) != -1) {
        switch (opt) {
        case 'l': {
            int layer = rec_layer_from_name(optarg);
            if (layer != REC_LAYER_POSIX && layer != REC_LAYER_MPIIO) {
                fprintf(stderr, "%s: --layer: POSIX or MPI-IO (HDF5 calls have no byte offsets): %s\n", tool,
                        optarg);
                return RA_EXIT_USAGE;
            }
            o.layer = (unsigned)layer;
            break;
        }
        case 'M':
            o.metadata = 1;
            break;
        case 'S':
            o.all_sessions = 1;
            break;
        case 'I':
            o.inexact = 1;
            break;
        case 'a':
            o.metadata = o.all_sessions = o.inexact = 1;
            break;
        case 'r':
            if (ra_cli_ranks(tool, optarg, &first, &last) != 0)
                return RA_EXIT_USAGE;
            ranged = 1;
            break;
        case 'm': {
            char *end;
            long size = strtol(optarg, &end, 10);
            int shift = !*end                                         ? 20
                        : (end[0] == 'K' || end[0] == 'k') && !end[1] ? 10
                        : end[0] == 'M' && !end[1]                    ? 20
                        : end[0] == 'G' && !end[1]                    ? 30
                                                                      : -1;
            if (shift < 0 || size < 1 || end == optarg) {
                fprintf(stderr, "%s: --memory: not a size (MB, or with a K, M or G suffix): %s\n", tool,
                        optarg);
                return RA_EXIT_USAGE;
            }
            o.memory = (size_t)size << shift;
            break;
        }
        case 'v':
            verbose = 1;
            break;
        case 'p':
            progress = 1;
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
    uint32_t *ranks = ra_xmalloc(((size_t)(last - first) + 1) * sizeof *ranks);
    for (uint32_t r = first; r <= last; r++)
        ranks[r - first] = r;
    ra_overlap *ov = ra_overlap_new(t, &o);
    ra_progress p;
    ra_progress_init(&p, tool, progress);
    ra_visitor v = {ov, on_begin, on_event, on_end};
    rec_error err;
    int failed = 0;
    if (ra_walk(t, ranks, (size_t)(last - first) + 1, 0, &v, &p, &err) != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        failed = 1;
    }
    ra_progress_done(&p);
    if (!failed && ra_overlap_finish(ov, NULL, NULL) != 0) {
        fprintf(stderr, "%s: sorting the accesses failed\n", tool);
        failed = 1;
    }
    if (!failed) {
        ra_overlap_print(ov, stdout);
        if (verbose)
            ra_overlap_notes(ov, tool, stderr);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "%s: writing to stdout failed: %s\n", tool, strerror(errno));
            failed = 1;
        }
    }
    ra_overlap_free(ov);
    free(ranks);
    ra_trace_close(t);
    return failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
