/* recorder-report: one self-contained HTML file about a trace: records per
 * rank, top functions, time per layer per rank, the access pattern (offset
 * against time, per rank, for the busiest files), bandwidth over time, the
 * overlapping accesses and the layer view. Everything is computed in one
 * walk of the trace by the same collectors as recorder-summary,
 * recorder-overlap and recorder-layers, plus two samplers here; the charts
 * are inline SVG, and the file loads nothing from anywhere.
 *   recorder-report TRACE_DIR -o report.html */
#include "ra_report.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <string.h>

static const char *tool = "recorder-report";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR -o report.html\n"
            "  -o FILE        the HTML file to write (default: stdout)\n"
            "  --rank R[-R2]  only these ranks\n"
            "  --progress     report progress on stderr (default: only on a terminal)\n"
            "The report is one HTML file with inline SVG charts and no external resources.\n"
            "Access-pattern plots sample up to %d accesses of each of the first %d files with\n"
            "data; bandwidth over time bins the bytes of the lowest-layer data calls by start.\n",
            tool, REP_POINTS, REP_FILES);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Reservoir sampling (Algorithm R): every access of a file has the same
 * chance to be drawn, whatever the trace's size. */
static void sample_access(report *r, const ra_event *ev)
{
    int fresh;
    uint64_t *slot = ra_map_insert(&r->file_slot, (uint64_t)ev->file, &fresh);
    if (fresh) {
        *slot = r->nfiles < REP_FILES ? r->nfiles++ : (uint64_t)-1 >> 1;
        if (*slot < REP_FILES) {
            rep_file *f = &r->files[*slot];
            memset(f, 0, sizeof *f);
            f->file = ev->file;
            f->pts = ra_xmalloc(REP_POINTS * sizeof *f->pts);
        }
    }
    if (*slot >= REP_FILES)
        return;
    rep_file *f = &r->files[*slot];
    f->bytes += ev->bytes;
    if (ev->offset + ev->bytes > f->max_end)
        f->max_end = ev->offset + ev->bytes;
    if (!f->seen || ev->gstart < f->tmin)
        f->tmin = ev->gstart;
    if (!f->seen || ev->gstart > f->tmax)
        f->tmax = ev->gstart;
    rep_point p = {ev->gstart, ev->offset, ev->rank, ev->op == RA_OP_WRITE};
    uint64_t k = f->seen++;
    if (f->n < REP_POINTS)
        f->pts[f->n++] = p;
    else if ((k = rng_next(&r->rng) % (k + 1)) < REP_POINTS)
        f->pts[k] = p;
}

static void bin_bytes(report *r, const ra_event *ev)
{
    double t = ev->gstart > 0 ? ev->gstart : 0;
    size_t i = (size_t)(t / r->bin_width);
    while (i >= REP_BINS) { /* merge pairs of bins: the width doubles */
        for (int w = 0; w < 2; w++) {
            for (size_t k = 0; k < REP_BINS / 2; k++)
                r->bins[w][k] = r->bins[w][2 * k] + r->bins[w][2 * k + 1];
            memset(&r->bins[w][REP_BINS / 2], 0, REP_BINS / 2 * sizeof r->bins[w][0]);
        }
        r->bin_width *= 2;
        i = (size_t)(t / r->bin_width);
    }
    r->bins[ev->op == RA_OP_WRITE][i] += (double)ev->bytes;
}

static int on_begin(void *ctx, ra_trace *t, uint32_t rank)
{
    (void)t;
    report *r = ctx;
    ra_summary_begin_rank(&r->sum, rank);
    ra_layers_begin_rank(r->layers, rank);
    return ra_overlap_begin_rank(r->ov, rank);
}

static int on_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    report *r = ctx;
    ra_summary_event(&r->sum, ev);
    ra_layers_event(r->layers, ev);
    ra_overlap_event(r->ov, ev);
    if (ev->gend > r->tmax)
        r->tmax = ev->gend;
    if (ev->leaf_data && ev->bytes > 0 && !ev->console && (ev->op == RA_OP_READ || ev->op == RA_OP_WRITE)) {
        bin_bytes(r, ev);
        if (ev->offset >= 0 && ev->file >= 0)
            sample_access(r, ev);
    }
    return 0;
}

static int on_end(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    (void)t;
    report *r = ctx;
    ra_layers_end_rank(r->layers, rank);
    ra_overlap_end_rank(r->ov, rank);
    return ra_summary_end_rank(&r->sum, w, rank);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"output", required_argument, 0, 'o'},
                                            {"rank", required_argument, 0, 'r'},
                                            {"progress", no_argument, 0, 'p'},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    const char *output = NULL;
    int progress = 0, ranged = 0, opt;
    uint32_t first = 0, last = 0;
    while ((opt = getopt_long(argc, argv, "o:r:ph", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            output = optarg;
            break;
        case 'r':
            if (ra_cli_ranks(tool, optarg, &first, &last) != 0)
                return RA_EXIT_USAGE;
            ranged = 1;
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
    report *r = ra_xcalloc(1, sizeof *r);
    r->t = t;
    r->dir = argv[optind];
    r->rng = 0x5eedu;
    r->bin_width = 1e-3;
    ra_summary_init(&r->sum, t, 0);
    r->trees_mem = open_memstream(&r->trees, &r->trees_len);
    r->layers = ra_layers_new(t, REP_TREES, r->trees_mem, 1);
    ra_overlap_opts oo = {REC_LAYER_POSIX, 0, 0, 0, (size_t)256 << 20};
    r->ov = ra_overlap_new(t, &oo);
    uint32_t *ranks = ra_xmalloc(((size_t)(last - first) + 1) * sizeof *ranks);
    for (uint32_t k = first; k <= last; k++)
        ranks[k - first] = k;
    ra_progress p;
    ra_progress_init(&p, tool, progress);
    ra_visitor v = {r, on_begin, on_event, on_end};
    rec_error err;
    int failed = 0;
    if (ra_walk(t, ranks, (size_t)(last - first) + 1, 0, &v, &p, &err) != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        failed = 1;
    }
    ra_progress_done(&p);
    fclose(r->trees_mem);
    if (!failed && ra_overlap_finish(r->ov, NULL, NULL) != 0) {
        fprintf(stderr, "%s: sorting the accesses for the overlap table failed\n", tool);
        failed = 1;
    }
    if (!failed) {
        FILE *out = output ? fopen(output, "w") : stdout;
        if (!out) {
            fprintf(stderr, "%s: %s: cannot create: %s\n", tool, output, strerror(errno));
            failed = 1;
        } else {
            ra_summary_sort(&r->sum);
            report_html(r, out);
            if ((output ? fclose(out) : fflush(out)) != 0) {
                fprintf(stderr, "%s: %s: write failed: %s\n", tool, output ? output : "stdout",
                        strerror(errno));
                failed = 1;
            }
        }
    }
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].pts);
    ra_map_free(&r->file_slot);
    free(r->trees);
    ra_summary_free(&r->sum);
    ra_layers_free(r->layers);
    ra_overlap_free(r->ov);
    free(r);
    free(ranks);
    ra_trace_close(t);
    return failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
