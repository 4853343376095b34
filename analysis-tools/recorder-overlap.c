/* recorder-overlap: which ranks access the same bytes of a file, and how
 * (Alg. 2 of "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis"):
 * one line per (first rank, second rank, file, pattern),
 *   RAW rank 0 -> rank 1 file "/data/out" bytes [4096, 8192)
 * meaning rank 1 read bytes rank 0 had written before (the range is the
 * overlap of a first example), or "no overlapping accesses". What counts as
 * an access is explained in ra_overlap.c and by --help. Serial: one process
 * reads every rank (the sort spills to temporary files beyond --memory). */
#include "ra_tools.h"

#include <getopt.h>

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
            "  --all           all three: every overlapping pair of accesses\n"
            "  --rank R[-R2]   only these ranks\n"
            "  --memory SIZE   memory for intervals before sorting on disk: MB, or 64K, 2G\n"
            "                  (default 256M)\n"
            "  --verbose       print how many accesses were checked (stderr)\n"
            "  --progress      report progress on stderr (default: only on a terminal)\n",
            tool);
}

typedef struct overlap_tool {
    ra_overlap_opts o;
    int verbose;
    ra_overlap *ov;
} overlap_tool;

/* --layer and --memory are checked as they come; the other options are flags. */
static int check_option(void *ctx, int letter, const char *arg)
{
    overlap_tool *x = ctx;
    if (letter == 'l') {
        int layer = rec_layer_from_name(arg);
        if (layer != REC_LAYER_POSIX && layer != REC_LAYER_MPIIO) {
            fprintf(stderr, "%s: --layer: POSIX or MPI-IO (HDF5 calls have no byte offsets): %s\n", tool,
                    arg);
            return RA_EXIT_USAGE;
        }
        x->o.layer = (unsigned)layer;
    } else if (letter == 'm') {
        char *end;
        long size = strtol(arg, &end, 10);
        int shift = !*end                                         ? 20
                    : (end[0] == 'K' || end[0] == 'k') && !end[1] ? 10
                    : end[0] == 'M' && !end[1]                    ? 20
                    : end[0] == 'G' && !end[1]                    ? 30
                                                                  : -1;
        if (shift < 0 || size < 1 || end == arg) {
            fprintf(stderr, "%s: --memory: not a size (MB, or with a K, M or G suffix): %s\n", tool, arg);
            return RA_EXIT_USAGE;
        }
        x->o.memory = (size_t)size << shift;
    }
    return RA_CLI_CONTINUE;
}

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    overlap_tool *x = ctx;
    int all = args->given['a'] != NULL; /* --all: the three below */
    x->o.metadata = all || args->given['M'] != NULL;
    x->o.all_sessions = all || args->given['S'] != NULL;
    x->o.inexact = all || args->given['I'] != NULL;
    x->verbose = args->given['v'] != NULL;
    x->ov = ra_overlap_new(t, &x->o);
    *v = ra_overlap_visitor(x->ov);
    return RA_CLI_CONTINUE;
}

static int finish(void *ctx, int failed)
{
    overlap_tool *x = ctx;
    if (!failed && ra_overlap_finish(x->ov, NULL, NULL) != 0) {
        fprintf(stderr, "%s: sorting the accesses failed\n", tool);
        failed = 1;
    }
    if (!failed) {
        ra_overlap_print(x->ov, stdout);
        if (x->verbose)
            ra_overlap_notes(x->ov, tool, stderr);
        failed = ra_cli_flush_stdout(tool) != 0;
    }
    ra_overlap_free(x->ov);
    return failed;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"layer", required_argument, 0, 'l'},  {"metadata", no_argument, 0, 'M'},
        {"all-sessions", no_argument, 0, 'S'}, {"inexact", no_argument, 0, 'I'},
        {"all", no_argument, 0, 'a'},          {"memory", required_argument, 0, 'm'},
        {"verbose", no_argument, 0, 'v'},      {0, 0, 0, 0}};
    overlap_tool x = {{REC_LAYER_POSIX, 0, 0, 0, (size_t)256 << 20}, 0, NULL};
    const ra_tool overlap = {
        {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, check_option, &x}, start, NULL, finish};
    return ra_tool_main(&overlap, argc, argv);
}
