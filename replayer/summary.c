/* summary.c: the end-of-replay report, summed over the ranks:
 *
 *   recorder-replay: TRACE -> PREFIX (4 ranks, layers top, timing asap)
 *     layer     replayed  skipped  outside  mismatched   bytes read  bytes written
 *     POSIX           12        2        0           0        65536           1204
 *     ...
 *     total           ...
 *     time: replay 0.012 s, traced 0.351 s (ratio 0.03)
 *     inputs pre-created: 1 file (65536 bytes), 4 directories
 *     skipped: 2 calls
 *       write: 2 (console I/O (stdin, stdout, stderr) is not replayed)
 *     issued as MPI_BYTE (no buffer fits their memory datatype): 1 call   (when any)
 *     results that differ from the trace: 3 calls
 *       mkdir: 3
 */
#define _GNU_SOURCE
#include "summary.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PER_LAYER = 6 };

void rp_report_add(rp_report *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (t->p && t->n + (size_t)k < t->cap) {
            t->n += (size_t)k;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 4096;
        while (cap < t->n + (size_t)k + 1)
            cap *= 2;
        char *p = realloc(t->p, cap);
        if (!p)
            return;
        t->p = p;
        t->cap = cap;
    }
}

/* Every rank's skip table as "func\treason\tcount\n" lines, on rank 0. */
static char *gather_skips(rp_ctx *x)
{
    rp_report mine = {0};
    rp_report_add(&mine, "%s", "");
    for (size_t i = 0; i < x->stats.nskips; i++)
        rp_report_add(&mine, "%u\t%s\t%llu\n", x->stats.skips[i].func, x->stats.skips[i].reason,
                      (unsigned long long)x->stats.skips[i].count);
    int len = (int)mine.n, *lens = NULL, *displs = NULL, total = 0;
    if (x->rank == 0) {
        lens = calloc((size_t)x->nranks, sizeof *lens);
        displs = calloc((size_t)x->nranks, sizeof *displs);
    }
    PMPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *all = NULL;
    if (x->rank == 0) {
        for (int r = 0; r < x->nranks; r++) {
            displs[r] = total;
            total += lens[r];
        }
        all = calloc((size_t)total + 1, 1);
    }
    PMPI_Gatherv(mine.p, len, MPI_CHAR, all, lens, displs, MPI_CHAR, 0, MPI_COMM_WORLD);
    free(mine.p);
    free(lens);
    free(displs);
    return all;
}

typedef struct merged_skip {
    unsigned func;
    char reason[512];
    unsigned long long count;
} merged_skip;

static size_t merge_skips(char *all, merged_skip *out, size_t max)
{
    size_t n = 0;
    for (char *line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
        char *tab1 = strchr(line, '\t'), *tab2 = tab1 ? strrchr(line, '\t') : NULL;
        if (!tab1 || tab2 == tab1)
            continue;
        *tab1 = *tab2 = 0;
        unsigned func = (unsigned)strtoul(line, NULL, 10);
        unsigned long long count = strtoull(tab2 + 1, NULL, 10);
        size_t i = 0;
        while (i < n && !(out[i].func == func && !strcmp(out[i].reason, tab1 + 1)))
            i++;
        if (i == n && n < max) {
            out[n].func = func;
            snprintf(out[n].reason, sizeof out[n].reason, "%s", tab1 + 1);
            out[n++].count = 0;
        }
        if (i < n)
            out[i].count += count;
    }
    return n;
}

static const char *func_name(unsigned id)
{
    const rec_func_desc *f = rec_function_by_id(id);
    return f ? f->name : "(a function this build does not know)";
}

static void report_prep(rp_report *t, const rp_prep_report *prep)
{
    size_t files = 0, dirs = 0, links = 0, unsynth = 0, made = 0;
    long long bytes = 0;
    for (size_t i = 0; i < prep->ninputs; i++) {
        dirs += prep->inputs[i].is_dir;
        links += prep->inputs[i].link;
        files += !prep->inputs[i].is_dir && !prep->inputs[i].link;
        bytes += prep->inputs[i].size;
        unsynth += prep->inputs[i].hdf5 == RP_INPUT_HDF5 && !prep->inputs[i].is_dir;
        made += prep->inputs[i].hdf5 == RP_INPUT_HDF5_MADE;
    }
    rp_report_add(t, "  inputs pre-created: %zu file%s (%lld bytes), %zu director%s", files,
                  files == 1 ? "" : "s", bytes, dirs, dirs == 1 ? "y" : "ies");
    if (links)
        rp_report_add(t, ", %zu symbolic link%s", links, links == 1 ? "" : "s");
    rp_report_add(t, "\n");
    if (made)
        rp_report_add(t, "  HDF5 inputs re-created from the structure the trace recorded of them: %zu\n",
                      made);
    if (unsynth) {
        rp_report_add(
            t, "  HDF5 inputs the trace did not create (their HDF5 calls are skipped: an HDF5 file cannot be "
               "synthesized "
               "from a trace):\n");
        for (size_t i = 0; i < prep->ninputs; i++)
            if (prep->inputs[i].hdf5 == RP_INPUT_HDF5 && !prep->inputs[i].is_dir)
                rp_report_add(t, "    %s\n", prep->inputs[i].key);
    }
    for (size_t i = 0; i < prep->nwarnings; i++)
        rp_report_add(t, "  warning: %s\n", prep->warnings[i]);
}

void rp_summary(rp_ctx *x, double replay_time, const rp_prep_report *prep, char **out, uint64_t *mismatched)
{
    rp_stats *s = &x->stats;
    /* per layer, per function, then the counts below */
    enum { AS_BYTES = REC_LAYER_COUNT * PER_LAYER + REC_FUNCTION_ID_LIMIT, REBUILT, ORDERED, N };
    static uint64_t mine[N], sum[N];
    for (int l = 0; l < REC_LAYER_COUNT; l++) {
        uint64_t *v = &mine[l * PER_LAYER];
        v[0] = s->replayed[l];
        v[1] = s->skipped[l];
        v[2] = s->filtered[l];
        v[3] = s->mismatched[l];
        v[4] = s->bytes_read[l];
        v[5] = s->bytes_written[l];
    }
    memcpy(&mine[REC_LAYER_COUNT * PER_LAYER], s->mismatch_by_func, sizeof s->mismatch_by_func);
    mine[AS_BYTES] = s->as_bytes;
    mine[REBUILT] = s->rebuilt;
    mine[ORDERED] = s->ordered;
    PMPI_Reduce(mine, sum, N, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    double times[2] = {replay_time, x->orig_end}, max_times[2];
    PMPI_Reduce(times, max_times, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    uint64_t my_mismatches = 0, all_mismatches = 0;
    for (int l = 0; l < REC_LAYER_COUNT; l++)
        my_mismatches += s->mismatched[l];
    PMPI_Allreduce(&my_mismatches, &all_mismatches, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    *mismatched = all_mismatches;
    char *skips = gather_skips(x);
    *out = NULL;
    if (x->rank != 0)
        return;
    static const char *timing_names[] = {"asap", "faithful"};
    char timing[32];
    if (x->opt.scale == 0 || x->opt.scale == 1)
        snprintf(timing, sizeof timing, "%s", timing_names[x->opt.scale == 1]);
    else
        snprintf(timing, sizeof timing, "gaps x %g", x->opt.scale);
    rp_report t = {0};
    rp_report_add(&t, "recorder-replay: %s -> %s (%d rank%s, layers %s, timing %s)\n", x->opt.trace_dir,
                  x->opt.prefix, x->nranks, x->nranks == 1 ? "" : "s",
                  x->opt.layers == RP_LAYERS_TOP ? "top" : rec_layer_name((unsigned)x->opt.layers), timing);
    rp_report_add(&t, "  %-8s %10s %9s %9s %11s %14s %14s\n", "layer", "replayed", "skipped", "outside",
                  "mismatched", "bytes read", "bytes written");
    uint64_t total[PER_LAYER] = {0};
    for (int l = 0; l < REC_LAYER_COUNT; l++) {
        const uint64_t *v = &sum[l * PER_LAYER];
        for (int k = 0; k < PER_LAYER; k++)
            total[k] += v[k];
        rp_report_add(&t, "  %-8s %10llu %9llu %9llu %11llu %14llu %14llu\n", rec_layer_name((unsigned)l),
                      (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
                      (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5]);
    }
    rp_report_add(&t, "  %-8s %10llu %9llu %9llu %11llu %14llu %14llu\n", "total",
                  (unsigned long long)total[0], (unsigned long long)total[1], (unsigned long long)total[2],
                  (unsigned long long)total[3], (unsigned long long)total[4], (unsigned long long)total[5]);
    rp_report_add(&t, "  time: replay %.3f s, traced %.3f s (ratio %.3f)\n", max_times[0], max_times[1],
                  max_times[1] > 0 ? max_times[0] / max_times[1] : 0.0);
    if (prep)
        report_prep(&t, prep);
    static merged_skip merged[4 * RP_MAX_REASONS];
    size_t nmerged = skips ? merge_skips(skips, merged, sizeof merged / sizeof merged[0]) : 0;
    rp_report_add(&t, "  skipped: %llu call%s\n", (unsigned long long)total[1], total[1] == 1 ? "" : "s");
    for (size_t i = 0; i < nmerged; i++)
        rp_report_add(&t, "    %s: %llu (%s)\n", func_name(merged[i].func), merged[i].count,
                      merged[i].reason);
    if (sum[AS_BYTES])
        rp_report_add(&t, "  issued as MPI_BYTE (no buffer fits their memory datatype): %llu call%s\n",
                      (unsigned long long)sum[AS_BYTES], sum[AS_BYTES] == 1 ? "" : "s");
    if (sum[REBUILT])
        rp_report_add(&t,
                      "  rebuilt: %llu call%s made handles the program had made out of the tracer's sight "
                      "(marked [rebuilt] in the trace)\n",
                      (unsigned long long)sum[REBUILT], sum[REBUILT] == 1 ? "" : "s");
    if (sum[ORDERED])
        rp_report_add(&t,
                      "  ordered: %llu call%s waited for another rank's, as the file system shows they did "
                      "(the trace has no MPI calls to order its ranks)\n",
                      (unsigned long long)sum[ORDERED], sum[ORDERED] == 1 ? "" : "s");
    rp_report_add(&t, "  results that differ from the trace: %llu call%s\n", (unsigned long long)total[3],
                  total[3] == 1 ? "" : "s");
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        if (sum[REC_LAYER_COUNT * PER_LAYER + id])
            rp_report_add(&t, "    %s: %llu\n", func_name(id),
                          (unsigned long long)sum[REC_LAYER_COUNT * PER_LAYER + id]);
    free(skips);
    *out = t.p;
}
