/* ra_report.h: SVG drawing for recorder-report (private to recorder-report). The
 * charts are plain SVG written by C: the report needs no script and no
 * network, and every mark is an element a test can count. */
#ifndef RA_REPORT_H
#define RA_REPORT_H

#include <stdint.h>
#include <stdio.h>

typedef const char *(*svg_fmt)(double v, char *buf, size_t cap);
const char *svg_fmt_plain(double v, char *buf, size_t cap);
const char *svg_fmt_bytes(double v, char *buf, size_t cap);
const char *svg_fmt_seconds(double v, char *buf, size_t cap);

typedef struct svg_axes {
    FILE *out;
    double x0, x1, y0, y1; /* data ranges */
    double px, py, pw, ph; /* the plot area, in pixels */
} svg_axes;

/* Opens <svg id=ID class="chart CLS"> with axes, ticks and labels. */
void svg_begin(svg_axes *a, FILE *out, const char *id, const char *cls, int width, int height, double x0,
               double x1, double y0, double y1, const char *xlabel, const char *ylabel, svg_fmt fx,
               svg_fmt fy);
double svg_x(const svg_axes *a, double x);
double svg_y(const svg_axes *a, double y);
void svg_end(svg_axes *a);
/* Distinct colours for ranks (golden-angle hues) and for layers. */
const char *svg_rank_color(uint32_t rank, char *buf, size_t cap);
const char *svg_layer_color(unsigned layer);
/* A row of legend entries under a chart. */
void svg_legend(FILE *out, const char *const *labels, const char *const *colors, size_t n);

#endif

/* ---- what recorder-report collects in its one walk ---- */
#include "advise.h"
#include "prove.h"
#include "ra_tools.h"

#define REP_FILES 64     /* files whose accesses are sampled (the first ones with data) */
#define REP_POINTS 2000  /* sampled accesses per file (reservoir sampling) */
#define REP_BINS 256     /* bandwidth-over-time bins (their width doubles as needed) */
#define REP_TREES 5      /* call trees shown in the layer view */
#define REP_COLLECTORS 4 /* summary, layers, overlap, advise */

typedef struct rep_point {
    double t;
    int64_t off;
    uint32_t rank, write;
} rep_point;

typedef struct rep_file {
    int file;
    int64_t bytes;
    uint64_t seen;
    int64_t max_end;
    double tmin, tmax;
    rep_point *pts;
    size_t n;
} rep_file;

typedef struct report {
    ra_trace *t;
    const char *dir;
    ra_summary sum;
    ra_layers *layers;
    ra_overlap *ov;
    advise *advise;                        /* recorder-advise's findings */
    proved proved;                         /* --prove FILE: their measured times; f NULL: none */
    ra_visitor collectors[REP_COLLECTORS]; /* the four above, as one walk visits them */
    char *trees;
    size_t trees_len;
    FILE *trees_mem;
    rep_file files[REP_FILES];
    size_t nfiles;
    ra_map file_slot;
    uint64_t rng;
    double bin_width, tmax;
    double bins[2][REP_BINS]; /* bytes read, written, per bin */
} report;

void report_html(report *r, FILE *out);
/* The findings section (ra_report_findings.c); the check that --prove
 * FILE's findings are the trace's: 0, or -1 with err saying why. */
void report_findings(const report *r, FILE *out);
int report_findings_check(const report *r, const char *path, char *err, size_t cap);
