/* ra_report_svg.c: axes, ticks, colours and legends for recorder-report's
 * SVG charts. */
#include "ra_report.h"

#include "ra_tools.h"

#include <math.h>
#include <string.h>

const char *svg_fmt_plain(double v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%g", fabs(v) < 1e-12 ? 0.0 : v);
    return buf;
}

const char *svg_fmt_bytes(double v, char *buf, size_t cap)
{
    return ra_human_bytes(v, buf, cap);
}

const char *svg_fmt_seconds(double v, char *buf, size_t cap)
{
    double a = fabs(v);
    if (a < 1e-12)
        snprintf(buf, cap, "0");
    else if (a < 1e-3)
        snprintf(buf, cap, "%g µs", v * 1e6);
    else if (a < 1)
        snprintf(buf, cap, "%g ms", v * 1e3);
    else
        snprintf(buf, cap, "%g s", v);
    return buf;
}

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving about n ticks. */
static double nice_step(double range, int n)
{
    if (!(range > 0))
        return 1;
    double raw = range / n, p = pow(10, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

static void text(FILE *out, double x, double y, const char *anchor, const char *cls, const char *s,
                 double rotate)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\"", x, y, anchor, cls);
    if (rotate != 0)
        fprintf(out, " transform=\"rotate(%g %.1f %.1f)\"", rotate, x, y);
    fputs(">", out);
    ra_html_text(out, s);
    fputs("</text>", out);
}

void svg_begin(svg_axes *a, FILE *out, const char *id, const char *cls, int width, int height, double x0,
               double x1, double y0, double y1, const char *xlabel, const char *ylabel, svg_fmt fx,
               svg_fmt fy)
{
    if (!(x1 > x0))
        x1 = x0 + 1;
    if (!(y1 > y0))
        y1 = y0 + 1;
    *a = (svg_axes){out, x0, x1, y0, y1, 78, 12, width - 78 - 16, height - 12 - 46};
    fprintf(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart %s\" width=\"%d\" height=\"%d\" "
        "viewBox=\"0 0 %d %d\">\n",
        id, cls, width, height, width, height);
    fprintf(out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n", a->px,
            a->py, a->pw, a->ph);
    char buf[64];
    double step = nice_step(x1 - x0, 6);
    for (double v = ceil(x0 / step) * step; v <= x1 + step * 1e-9; v += step) {
        double x = svg_x(a, v);
        if (!*fx(v, buf, sizeof buf))
            continue; /* a formatter with no label for v (a half rank): no tick either */
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", x, a->py, x,
                a->py + a->ph);
        text(out, x, a->py + a->ph + 14, "middle", "tick", buf, 0);
    }
    step = nice_step(y1 - y0, 5);
    for (double v = ceil(y0 / step) * step; v <= y1 + step * 1e-9; v += step) {
        double y = svg_y(a, v);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", a->px, y,
                a->px + a->pw, y);
        text(out, a->px - 4, y + 4, "end", "tick", fy(v, buf, sizeof buf), 0);
    }
    fputc('\n', out);
    text(out, a->px + a->pw / 2, a->py + a->ph + 34, "middle", "label", xlabel, 0);
    text(out, 14, a->py + a->ph / 2, "middle", "label", ylabel, -90);
    fputc('\n', out);
}

double svg_x(const svg_axes *a, double x)
{
    return a->px + (x - a->x0) / (a->x1 - a->x0) * a->pw;
}
double svg_y(const svg_axes *a, double y)
{
    return a->py + a->ph - (y - a->y0) / (a->y1 - a->y0) * a->ph;
}

void svg_end(svg_axes *a)
{
    fputs("</svg>\n", a->out);
}

const char *svg_rank_color(uint32_t rank, char *buf, size_t cap)
{
    static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                          "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    if (rank < sizeof palette / sizeof *palette)
        snprintf(buf, cap, "%s", palette[rank]);
    else /* golden-angle hues keep neighbouring ranks apart */
        snprintf(buf, cap, "hsl(%.0f,65%%,45%%)", fmod(rank * 137.508, 360.0));
    return buf;
}

const char *svg_layer_color(unsigned layer)
{
    static const char *const colors[] = {"#1b9e77", "#7570b3", "#d95f02", "#e7298a", "#66a61e", "#e6ab02"};
    return layer < sizeof colors / sizeof colors[0] ? colors[layer] : "#666";
}

void svg_legend(FILE *out, const char *const *labels, const char *const *colors, size_t n)
{
    fputs("<div class=\"legend\">", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "<span><i style=\"background:%s\"></i>", colors[i]);
        ra_html_text(out, labels[i]);
        fputs("</span>", out);
    }
    fputs("</div>\n", out);
}
