/* ra_report_html.c: the sections of recorder-report's HTML file. */
#include "ra_report.h"

#include <math.h>
#include <string.h>

#define CHART_W 1240

static const char *style =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:20px auto;"
    "max-width:1280px;padding:0 16px;color:#222}\n"
    "h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;border-bottom:1px solid #ddd;padding-bottom:4px;"
    "margin-top:30px}h3{font-size:14px;margin:14px 0 2px;font-weight:600;word-break:break-all}\n"
    ".meta{color:#555}nav a{margin-right:14px;color:#2962a8}.note{color:#666;font-size:12px}\n"
    "svg.chart{display:block;margin:6px 0;background:#fff}svg .frame{fill:none;stroke:#999}"
    "svg .grid{stroke:#eee}svg text{font-size:11px;fill:#444}svg text.label{font-size:12px;fill:#222}\n"
    "svg .bar{fill:#4a7fc1}svg .series{fill:none;stroke-width:1.8}svg circle.read{fill-opacity:.15;"
    "stroke-width:1}svg circle.write{fill-opacity:.85;stroke:none}\n"
    "table{border-collapse:collapse;font-size:13px;margin:6px 0}td,th{padding:3px 9px;border-bottom:1px "
    "solid #eee;"
    "text-align:right}td.l,th.l{text-align:left}th{background:#f4f4f4}\n"
    "pre{background:#f7f7f7;padding:8px 10px;overflow:auto;font-size:12px;line-height:1.35}\n"
    ".legend{margin:2px 0 10px}.legend span{margin-right:14px;font-size:12px;white-space:nowrap}"
    ".legend "
    "i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle;border-radius:2px}"
    "\n";

static const char *fmt_rank(double v, char *buf, size_t cap)
{
    if (fabs(v - round(v)) > 1e-9 || v < 0)
        buf[0] = 0;
    else
        snprintf(buf, cap, "%.0f", v);
    return buf;
}

static const rec_func_desc *fn(const report *r, unsigned id)
{
    return rec_table_lookup(rec_trace_table(ra_trace_rec(r->t)), id);
}

static void header(report *r, FILE *out)
{
    uint32_t nranks = ra_trace_nranks(r->t);
    uint64_t records = 0;
    for (uint32_t k = 0; k < nranks; k++)
        records += r->sum.rank_records[k];
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>recorder-report: ", out);
    ra_html_text(out, r->dir);
    fprintf(out, "</title>\n<style>\n%s</style></head><body>\n<h1>I/O report</h1>\n<p class=\"meta\">trace ",
            style);
    ra_html_text(out, r->dir);
    fprintf(out, " &middot; %u rank%s &middot; %llu records &middot; %.6f s from first call to last</p>\n",
            nranks, nranks == 1 ? "" : "s", (unsigned long long)records,
            r->sum.last_end >= r->sum.first_start ? r->sum.last_end - r->sum.first_start : 0.0);
    fputs("<nav><a href=\"#records\">records per rank</a><a href=\"#functions\">top functions</a>"
          "<a href=\"#layer-time\">time per layer</a><a href=\"#access\">access pattern</a>"
          "<a href=\"#bandwidth\">bandwidth</a><a href=\"#overlap\">overlap</a><a href=\"#layers\">layer "
          "view</a>"
          "<a href=\"#findings\">findings</a></nav>\n",
          out);
}

static void records_per_rank(report *r, FILE *out)
{
    uint32_t n = ra_trace_nranks(r->t);
    double max = 0;
    for (uint32_t k = 0; k < n; k++)
        max = fmax(max, (double)r->sum.rank_records[k]);
    fputs("<section id=\"records\"><h2>Records per rank</h2>\n", out);
    svg_axes a;
    svg_begin(&a, out, "records-chart", "bars", CHART_W, 250, -0.5, n - 0.5, 0, max * 1.08 + 1, "rank",
              "records", fmt_rank, svg_fmt_plain);
    for (uint32_t k = 0; k < n; k++) {
        double x0 = svg_x(&a, k - 0.4), x1 = svg_x(&a, k + 0.4),
               y = svg_y(&a, (double)r->sum.rank_records[k]);
        fprintf(
            out,
            "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>rank %u: %llu "
            "records</title></rect>\n",
            x0, y, fmax(x1 - x0, 0.5), svg_y(&a, 0) - y, k, (unsigned long long)r->sum.rank_records[k]);
    }
    svg_end(&a);
    fputs("</section>\n", out);
}

typedef struct ftot {
    unsigned func;
    uint64_t calls, ticks;
    int64_t bytes;
} ftot;

static int by_time(const void *a, const void *b)
{
    const ftot *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static void top_functions(report *r, FILE *out)
{
    double res = ra_trace_resolution(r->t);
    ftot *t = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *t);
    for (size_t i = 0; i < r->sum.nrows; i++) {
        ftot *f = &t[r->sum.rows[i].func];
        f->func = r->sum.rows[i].func;
        f->calls += r->sum.rows[i].calls;
        f->ticks += r->sum.rows[i].ticks;
        f->bytes += r->sum.rows[i].bytes;
    }
    size_t n = 0;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        if (t[id].calls)
            t[n++] = t[id];
    qsort(t, n, sizeof *t, by_time);
    size_t shown = n < 15 ? n : 15;
    double max = shown ? (double)t[0].ticks * res : 1;
    fputs("<section id=\"functions\"><h2>Top functions</h2>\n<p class=\"note\">Time summed over every call "
          "at every "
          "depth and every rank (a call's time includes the calls it made).</p>\n",
          out);
    int h = (int)shown * 22 + 20;
    fprintf(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"functions-chart\" class=\"chart hbars\" width=\"%d\" "
        "height=\"%d\" viewBox=\"0 0 %d %d\">\n",
        CHART_W, h, CHART_W, h);
    char buf[64];
    for (size_t i = 0; i < shown; i++) {
        const rec_func_desc *f = fn(r, t[i].func);
        double s = (double)t[i].ticks * res, w = max > 0 ? s / max * (CHART_W - 420) : 0,
               y = 10 + 22.0 * (double)i;
        fprintf(out, "<text x=\"270\" y=\"%.1f\" text-anchor=\"end\" class=\"label\">%s %s</text>", y + 13,
                rec_layer_name(f->layer), f->name);
        fprintf(
            out,
            "<rect class=\"fbar\" x=\"280\" y=\"%.1f\" width=\"%.2f\" height=\"16\" fill=\"%s\"><title>%s: "
            "%llu calls</title></rect>",
            y, fmax(w, 0.5), svg_layer_color(f->layer), f->name, (unsigned long long)t[i].calls);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">%s</text>\n", 286 + w, y + 13,
                svg_fmt_seconds(s, buf, sizeof buf));
    }
    fputs("</svg>\n<table><tr><th class=\"l\">layer</th><th "
          "class=\"l\">function</th><th>calls</th><th>bytes</th>"
          "<th>seconds</th></tr>\n",
          out);
    for (size_t i = 0; i < n && i < 25; i++) {
        const rec_func_desc *f = fn(r, t[i].func);
        fprintf(out,
                "<tr><td class=\"l\">%s</td><td "
                "class=\"l\">%s</td><td>%llu</td><td>%lld</td><td>%.6f</td></tr>\n",
                rec_layer_name(f->layer), f->name, (unsigned long long)t[i].calls, (long long)t[i].bytes,
                (double)t[i].ticks * res);
    }
    fputs("</table></section>\n", out);
    free(t);
}

static void layer_time(report *r, FILE *out)
{
    uint32_t n = ra_trace_nranks(r->t);
    double res = ra_trace_resolution(r->t), max = 0;
    double *sec = ra_xcalloc((size_t)n * REC_LAYER_COUNT, sizeof *sec);
    int used[REC_LAYER_COUNT] = {0};
    for (size_t i = 0; i < r->sum.nrows; i++) {
        unsigned layer = fn(r, r->sum.rows[i].func)->layer;
        sec[(size_t)r->sum.rows[i].rank * REC_LAYER_COUNT + layer] += (double)r->sum.rows[i].ticks * res;
        used[layer] = 1;
    }
    for (size_t i = 0; i < (size_t)n * REC_LAYER_COUNT; i++)
        max = fmax(max, sec[i]);
    fputs("<section id=\"layer-time\"><h2>Time per layer per rank</h2>\n<p class=\"note\">Seconds in the "
          "calls of each "
          "layer (all depths: an HDF5 call's time includes the MPI-IO and POSIX calls it made).</p>\n",
          out);
    svg_axes a;
    svg_begin(&a, out, "layer-time-chart", "lines", CHART_W, 260, n > 1 ? 0 : -0.5, n > 1 ? n - 1 : 0.5, 0,
              max * 1.08 + 1e-9, "rank", "seconds", fmt_rank, svg_fmt_seconds);
    const char *labels[REC_LAYER_COUNT], *colors[REC_LAYER_COUNT];
    size_t nl = 0;
    for (unsigned layer = 0; layer < REC_LAYER_COUNT; layer++) {
        if (!used[layer])
            continue;
        labels[nl] = rec_layer_name(layer);
        colors[nl++] = svg_layer_color(layer);
        fprintf(out, "<path class=\"series\" stroke=\"%s\" d=\"", svg_layer_color(layer));
        for (uint32_t k = 0; k < n; k++)
            fprintf(out, "%s%.2f %.2f", k ? " L" : "M", svg_x(&a, k),
                    svg_y(&a, sec[(size_t)k * REC_LAYER_COUNT + layer]));
        fputs("\"/>\n", out);
        for (uint32_t k = 0; k < n && n <= 512; k++)
            fprintf(out,
                    "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" fill=\"%s\"><title>rank %u %s: %.6f "
                    "s</title></circle>",
                    svg_x(&a, k), svg_y(&a, sec[(size_t)k * REC_LAYER_COUNT + layer]), svg_layer_color(layer),
                    k, rec_layer_name(layer), sec[(size_t)k * REC_LAYER_COUNT + layer]);
        fputc('\n', out);
    }
    svg_end(&a);
    svg_legend(out, labels, colors, nl);
    fputs("</section>\n", out);
    free(sec);
}

static int by_bytes(const void *a, const void *b)
{
    const rep_file *x = *(const rep_file *const *)a, *y = *(const rep_file *const *)b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    return x->file - y->file;
}

static void access_pattern(report *r, FILE *out)
{
    uint32_t nranks = ra_trace_nranks(r->t);
    fputs("<section id=\"access\"><h2>Access pattern</h2>\n<p class=\"note\">Offset against time of the data "
          "calls "
          "that reached the lowest traced layer, per rank (colour); filled: write, hollow: read. The busiest "
          "files by "
          "bytes; up to 2000 sampled accesses each.</p>\n",
          out);
    rep_file **order = ra_xmalloc((r->nfiles + 1) * sizeof *order);
    for (size_t i = 0; i < r->nfiles; i++)
        order[i] = &r->files[i];
    qsort(order, r->nfiles, sizeof *order, by_bytes);
    char c[48];
    for (size_t i = 0; i < r->nfiles && i < 6; i++) {
        const rep_file *f = order[i];
        char id[32], sz[32];
        fputs("<h3>", out);
        ra_html_text(out, ra_file_path(r->t, f->file));
        fprintf(out, " <span class=\"note\">(%s in %llu accesses%s)</span></h3>\n",
                ra_human_bytes((double)f->bytes, sz, sizeof sz), (unsigned long long)f->seen,
                f->seen > f->n ? ", sampled" : "");
        snprintf(id, sizeof id, "access-chart-%zu", i);
        svg_axes a;
        double pad = (f->tmax - f->tmin) * 0.03 + 1e-6;
        svg_begin(&a, out, id, "scatter", CHART_W, 280, f->tmin - pad, f->tmax + pad, 0,
                  (double)f->max_end * 1.05 + 1, "time since the trace started", "file offset",
                  svg_fmt_seconds, svg_fmt_bytes);
        for (size_t k = 0; k < f->n; k++) {
            const rep_point *p = &f->pts[k];
            svg_rank_color(p->rank, c, sizeof c);
            fprintf(out, "<circle class=\"%s\" cx=\"%.2f\" cy=\"%.2f\" r=\"2.6\" fill=\"%s\" stroke=\"%s\"/>",
                    p->write ? "write" : "read", svg_x(&a, p->t), svg_y(&a, (double)p->off), c, c);
            if (k % 8 == 7)
                fputc('\n', out);
        }
        svg_end(&a);
    }
    if (!r->nfiles)
        fputs("<p>No data calls with known offsets.</p>\n", out);
    if (nranks <= 16 && r->nfiles) {
        const char *labels[16], *colors[16];
        char names[16][16], cols[16][48];
        for (uint32_t k = 0; k < nranks; k++) {
            snprintf(names[k], sizeof names[k], "rank %u", k);
            labels[k] = names[k];
            colors[k] = svg_rank_color(k, cols[k], sizeof cols[k]);
        }
        svg_legend(out, labels, colors, nranks);
    }
    fputs("</section>\n", out);
    free(order);
}

static void bandwidth(report *r, FILE *out)
{
    size_t n = (size_t)ceil(r->tmax / r->bin_width);
    if (n > REP_BINS)
        n = REP_BINS;
    if (n < 1)
        n = 1;
    double max = 0, scale = 1.0 / r->bin_width / 1048576.0;
    for (int w = 0; w < 2; w++)
        for (size_t i = 0; i < n; i++)
            max = fmax(max, r->bins[w][i] * scale);
    fprintf(
        out,
        "<section id=\"bandwidth\"><h2>Bandwidth over time</h2>\n<p class=\"note\">Bytes of the lowest-layer "
        "data calls of all ranks, by start time, in bins of %.3g s.</p>\n",
        r->bin_width);
    svg_axes a;
    svg_begin(&a, out, "bandwidth-chart", "lines", CHART_W, 260, 0, (double)n * r->bin_width, 0,
              max * 1.08 + 1e-9, "time since the trace started", "MiB/s", svg_fmt_seconds, svg_fmt_plain);
    static const char *const labels[2] = {"read", "write"}, *const colors[2] = {"#2962a8", "#e8710a"};
    for (int w = 0; w < 2; w++) {
        fprintf(out, "<path class=\"series %s\" stroke=\"%s\" d=\"", labels[w], colors[w]);
        for (size_t i = 0; i < n; i++) {
            double y = svg_y(&a, r->bins[w][i] * scale);
            fprintf(out, "%s%.2f %.2f L%.2f %.2f", i ? " L" : "M", svg_x(&a, (double)i * r->bin_width), y,
                    svg_x(&a, (double)(i + 1) * r->bin_width), y);
        }
        fputs("\"/>\n", out);
    }
    svg_end(&a);
    svg_legend(out, labels, colors, 2);
    fputs("</section>\n", out);
}

static void overlap(report *r, FILE *out)
{
    const ra_overlap_hit *hits;
    size_t n;
    ra_overlap_finish(r->ov, &hits, &n);
    fputs("<section id=\"overlap\"><h2>Overlapping accesses</h2>\n<p class=\"note\">Overlapping accesses on the "
          "POSIX layer, "
          "as recorder-overlap reports it by default: data accesses of the application, pairs not separated "
          "by a "
          "close-to-open ordering.</p>\n",
          out);
    if (!n) {
        fputs("<p id=\"overlap-none\">No overlapping accesses.</p>\n", out);
    } else {
        fputs("<table id=\"overlap-table\"><tr><th class=\"l\">pattern</th><th>first rank</th><th>second "
              "rank</th>"
              "<th class=\"l\">file</th><th>bytes (first example)</th></tr>\n",
              out);
        for (size_t i = 0; i < n; i++) {
            fprintf(out, "<tr><td class=\"l\">%s</td><td>%u</td><td>%u</td><td class=\"l\">",
                    ra_pattern_names[hits[i].pattern], hits[i].r1, hits[i].r2);
            ra_html_text(out, ra_file_path(r->t, hits[i].file));
            fprintf(out, "</td><td>[%lld, %lld)</td></tr>\n", (long long)hits[i].lo, (long long)hits[i].hi);
        }
        fputs("</table>\n", out);
    }
    char *notes = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&notes, &len);
    if (m) {
        ra_overlap_notes(r->ov, "checked", m);
        fclose(m);
        fputs("<pre class=\"note\">", out);
        ra_html_text(out, notes);
        fputs("</pre>\n", out);
        free(notes);
    }
    fputs("</section>\n", out);
}

static void layers(report *r, FILE *out)
{
    fputs("<section id=\"layers\"><h2>Layer view</h2>\n<p class=\"note\">Each top-level call with the calls it made "
          "in the layers below, as recorder-layers prints it.</p>\n<pre id=\"layer-aggregates\">",
          out);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (m) {
        ra_layers_print(r->layers, m, 0);
        fclose(m);
        ra_html_text(out, text);
        free(text);
    }
    fprintf(out,
            "</pre>\n<h3>The first %zu top-level calls with I/O below them</h3>\n<pre id=\"layer-trees\">",
            ra_layers_trees_shown(r->layers));
    if (r->trees)
        fwrite(r->trees, 1, r->trees_len, out); /* escaped as it was written */
    fputs("</pre>\n</section>\n", out);
}

void report_html(report *r, FILE *out)
{
    header(r, out);
    records_per_rank(r, out);
    top_functions(r, out);
    layer_time(r, out);
    access_pattern(r, out);
    bandwidth(r, out);
    overlap(r, out);
    layers(r, out);
    report_findings(r, out);
    fputs("<p class=\"note\">Written by recorder-report.</p>\n</body></html>\n", out);
}
