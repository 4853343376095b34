/* recorder-report: one self-contained HTML file about a trace: records per
 * rank, top functions, time per layer per rank, the access pattern (offset
 * against time, per rank, for the busiest files), bandwidth over time, the
 * overlapping accesses and the layer view. Everything is computed in one
 * walk of the trace by the same collectors as recorder-summary,
 * recorder-overlap and recorder-layers, plus two samplers here, and
 * recorder-advise's findings (with --prove FILE, a report of
 * recorder-advise --prove, their measured times before and after); the
 * charts are inline SVG, and the file loads nothing from anywhere.
 *   recorder-report TRACE_DIR -o report.html [--prove FILE] */
#include "ra_report.h"

#include <getopt.h>
#include <math.h>
#include <string.h>

static const char *tool = "recorder-report";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [options] TRACE_DIR -o report.html\n"
            "  -o FILE        the HTML file to write (default: stdout)\n"
            "  --prove FILE   the findings' measured times: a report of recorder-advise --prove\n"
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

/* Each rank and event goes to the collectors in turn, then to the samplers. */
static int on_begin(void *ctx, ra_trace *t, uint32_t rank)
{
    report *r = ctx;
    int rc = 0;
    for (size_t i = 0; i < REP_COLLECTORS && !rc; i++)
        rc = r->collectors[i].begin_rank(r->collectors[i].ctx, t, rank);
    return rc;
}

static int on_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    report *r = ctx;
    for (size_t i = 0; i < REP_COLLECTORS; i++)
        r->collectors[i].event(r->collectors[i].ctx, t, ev);
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
    report *r = ctx;
    int rc = 0;
    for (size_t i = 0; i < REP_COLLECTORS && !rc; i++)
        rc = r->collectors[i].end_rank(r->collectors[i].ctx, t, w, rank);
    return rc;
}

typedef struct report_tool {
    const char *output; /* -o FILE; NULL: stdout */
    const char *proved; /* --prove FILE */
    report *r;
} report_tool;

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    report_tool *x = ctx;
    x->output = args->given['o'];
    x->proved = args->given['P'];
    if (x->proved && args->ranged) {
        fprintf(stderr, "%s: --prove: the findings of the whole trace: no --rank\n", tool);
        return RA_EXIT_USAGE;
    }
    report *r = x->r = ra_xcalloc(1, sizeof *r);
    r->t = t;
    r->dir = args->dir;
    r->rng = 0x5eedu;
    r->bin_width = 1e-3;
    ra_summary_init(&r->sum, t, 0);
    r->trees_mem = open_memstream(&r->trees, &r->trees_len);
    r->layers = ra_layers_new(t, REP_TREES, r->trees_mem, 1);
    ra_overlap_opts oo = {REC_LAYER_POSIX, 0, 0, 0, (size_t)256 << 20};
    r->ov = ra_overlap_new(t, &oo);
    r->collectors[0] = ra_summary_visitor(&r->sum);
    r->collectors[1] = ra_layers_visitor(r->layers);
    r->collectors[2] = ra_overlap_visitor(r->ov);
    r->advise = advise_new(t);
    r->collectors[3] = advise_visitor(r->advise);
    *v = (ra_visitor){r, on_begin, on_event, on_end};
    return RA_CLI_CONTINUE;
}

static int finish(void *ctx, int failed)
{
    report_tool *x = ctx;
    report *r = x->r;
    fclose(r->trees_mem);
    if (!failed && ra_overlap_finish(r->ov, NULL, NULL) != 0) {
        fprintf(stderr, "%s: sorting the accesses for the overlap table failed\n", tool);
        failed = 1;
    }
    char err[1024];
    if (!failed && advise_finish(r->advise, err, sizeof err) != 0) {
        fprintf(stderr, "%s: %s: a suggestion the tuning parser rejects (a bug): %s\n", tool, r->dir, err);
        failed = 1;
    }
    if (!failed && x->proved &&
        (proved_read(x->proved, &r->proved, err, sizeof err) != 0 ||
         report_findings_check(r, x->proved, err, sizeof err) != 0)) {
        fprintf(stderr, "%s: --prove: %s\n", tool, err);
        failed = 1;
    }
    if (!failed) {
        FILE *out = ra_cli_create(tool, x->output);
        if (!out) {
            failed = 1;
        } else {
            ra_summary_sort(&r->sum);
            report_html(r, out);
            failed = ra_cli_close(tool, out, x->output) != 0;
        }
    }
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i].pts);
    ra_map_free(&r->file_slot);
    free(r->trees);
    ra_summary_free(&r->sum);
    ra_layers_free(r->layers);
    ra_overlap_free(r->ov);
    advise_free(r->advise);
    proved_free(&r->proved);
    free(r);
    return failed;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        {"output", required_argument, 0, 'o'}, {"prove", required_argument, 0, 'P'}, {0, 0, 0, 0}};
    report_tool x = {NULL, NULL, NULL};
    const ra_tool report = {
        {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, NULL, &x}, start, NULL, finish};
    return ra_tool_main(&report, argc, argv);
}
