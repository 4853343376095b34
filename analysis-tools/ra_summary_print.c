/* ra_summary_print.c: recorder-summary's text and CSV output, derived from
 * the per (rank, function, file) rows. */
#include "ra_tools.h"

#include <math.h>
#include <string.h>

static ra_summary *sort_ctx;

static const rec_func_desc *fn(const ra_summary *s, unsigned id)
{
    return rec_table_lookup(rec_trace_table(ra_trace_rec(s->t)), id);
}

static int row_order(const void *a, const void *b)
{
    const ra_sum_row *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    const rec_func_desc *fx = fn(sort_ctx, x->func), *fy = fn(sort_ctx, y->func);
    int lx = ra_layer_rank(fx->layer), ly = ra_layer_rank(fy->layer);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    int c = strcmp(fx->name, fy->name);
    if (c)
        return c;
    const char *px = ra_file_path(sort_ctx->t, x->file), *py = ra_file_path(sort_ctx->t, y->file);
    return strcmp(px ? px : "", py ? py : "");
}

void ra_summary_sort(ra_summary *s)
{
    sort_ctx = s;
    if (s->nrows) /* an empty trace has no rows, and qsort takes no NULL */
        qsort(s->rows, s->nrows, sizeof *s->rows, row_order);
    ra_map_free(&s->cur); /* row indices moved */
    memset(s->hot_file, 0, REC_FUNCTION_ID_LIMIT * sizeof *s->hot_file);
}

void ra_summary_print_csv(ra_summary *s, FILE *out)
{
    double res = ra_trace_resolution(s->t);
    fputs("rank,layer,function,path,calls,bytes,seconds\n", out);
    for (size_t i = 0; i < s->nrows; i++) {
        const ra_sum_row *r = &s->rows[i];
        const rec_func_desc *f = fn(s, r->func);
        const char *path = ra_file_path(s->t, r->file);
        fprintf(out, "%u,%s,%s,", r->rank, rec_layer_name(f->layer), f->name);
        ra_csv_field(out, path ? path : "");
        fprintf(out, ",%llu,%lld,%.9f\n", (unsigned long long)r->calls, (long long)r->bytes,
                (double)r->ticks * res);
    }
}

/* ---- text ---- */

typedef struct func_total {
    unsigned func;
    uint64_t calls, ticks;
    int64_t bytes;
} func_total;

typedef struct file_total {
    int file;
    unsigned layer;
    uint64_t opens, reads, writes, ticks;
    int64_t read_bytes, write_bytes;
} file_total;

static int func_order(const void *a, const void *b)
{
    const func_total *x = a, *y = b;
    const rec_func_desc *fx = fn(sort_ctx, x->func), *fy = fn(sort_ctx, y->func);
    int lx = ra_layer_rank(fx->layer), ly = ra_layer_rank(fy->layer);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    return strcmp(fx->name, fy->name);
}

static int file_order(const void *a, const void *b)
{
    const file_total *x = a, *y = b;
    int lx = ra_layer_rank(x->layer), ly = ra_layer_rank(y->layer);
    if (lx != ly)
        return lx < ly ? -1 : 1;
    int64_t bx = x->read_bytes + x->write_bytes, by = y->read_bytes + y->write_bytes;
    if (bx != by)
        return bx > by ? -1 : 1;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    return strcmp(ra_file_path(sort_ctx->t, x->file), ra_file_path(sort_ctx->t, y->file));
}

static double pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

static void print_functions(ra_summary *s, FILE *out, double res)
{
    func_total *ft = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *ft);
    for (size_t i = 0; i < s->nrows; i++) {
        func_total *t = &ft[s->rows[i].func];
        t->func = s->rows[i].func;
        t->calls += s->rows[i].calls;
        t->ticks += s->rows[i].ticks;
        t->bytes += s->rows[i].bytes;
    }
    size_t n = 0;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        if (ft[id].calls)
            ft[n++] = ft[id];
    qsort(ft, n, sizeof *ft, func_order);
    fprintf(out, "\nFunctions (%s, all ranks; seconds summed over calls):\n",
            s->top_only ? "calls the application made (depth 0)" : "calls at every depth");
    fprintf(out, "%-7s %-32s %12s %16s %14s\n", "layer", "function", "calls", "bytes", "seconds");
    for (size_t i = 0; i < n; i++) {
        const rec_func_desc *f = fn(s, ft[i].func);
        fprintf(out, "%-7s %-32s %12llu %16lld %14.6f\n", rec_layer_name(f->layer), f->name,
                (unsigned long long)ft[i].calls, (long long)ft[i].bytes, (double)ft[i].ticks * res);
    }
    free(ft);
}

static void print_files(ra_summary *s, FILE *out, double res, size_t limit)
{
    ra_map index = {0};
    file_total *tot = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < s->nrows; i++) {
        const ra_sum_row *r = &s->rows[i];
        if (r->file < 0)
            continue;
        const rec_func_desc *f = fn(s, r->func);
        int fresh;
        _Static_assert(REC_LAYER_COUNT <= 8, "a file and a layer in one key");
        uint64_t *slot = ra_map_insert(&index, (uint64_t)r->file << 3 | f->layer, &fresh);
        if (fresh) {
            if (n == cap)
                tot = ra_xrealloc(tot, (cap = cap ? cap * 2 : 64) * sizeof *tot);
            memset(&tot[n], 0, sizeof *tot);
            tot[n].file = r->file;
            tot[n].layer = f->layer;
            *slot = n++;
        }
        file_total *t = &tot[*slot];
        t->opens += r->opens;
        t->ticks += r->ticks;
        if (f->flags & REC_FN_READ)
            t->reads += r->calls, t->read_bytes += r->bytes;
        else if (f->flags & REC_FN_WRITE)
            t->writes += r->calls, t->write_bytes += r->bytes;
    }
    qsort(tot, n, sizeof *tot, file_order);
    fprintf(out, "\nFiles (per layer, all ranks):\n");
    fprintf(out, "%-7s %8s %10s %10s %14s %14s %12s  %s\n", "layer", "opens", "reads", "writes", "bytes_read",
            "bytes_written", "seconds", "path");
    for (size_t i = 0; i < n && (!limit || i < limit); i++) {
        const file_total *t = &tot[i];
        fprintf(out, "%-7s %8llu %10llu %10llu %14lld %14lld %12.6f  ", rec_layer_name(t->layer),
                (unsigned long long)t->opens, (unsigned long long)t->reads, (unsigned long long)t->writes,
                (long long)t->read_bytes, (long long)t->write_bytes, (double)t->ticks * res);
        ra_print_quoted(out, ra_file_path(s->t, t->file));
        putc('\n', out);
    }
    if (limit && n > limit)
        fprintf(out, "(%zu more; --files 0 shows all)\n", n - limit);
    free(tot);
    ra_map_free(&index);
}

/* Alg. 1 of "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis", per
 * layer: the bytes the data calls moved over the time they took, summed over
 * calls and ranks (so: the average bandwidth a call of that layer saw). */
static void print_bandwidth(ra_summary *s, FILE *out, double res)
{
    int64_t bytes[REC_LAYER_COUNT][2] = {{0}};
    uint64_t ticks[REC_LAYER_COUNT][2] = {{0}}, calls[REC_LAYER_COUNT][2] = {{0}};
    for (size_t i = 0; i < s->nrows; i++) {
        const ra_sum_row *r = &s->rows[i];
        const rec_func_desc *f = fn(s, r->func);
        if (!(f->flags & REC_FN_DATA) || f->layer >= REC_LAYER_COUNT)
            continue;
        int w = (f->flags & REC_FN_WRITE) != 0;
        bytes[f->layer][w] += r->bytes;
        ticks[f->layer][w] += r->ticks;
        calls[f->layer][w] += r->calls;
    }
    fprintf(out, "\nBandwidth per layer (bytes / seconds of the data calls, all ranks):\n");
    fprintf(out, "%-7s %10s %16s %12s %12s %10s %16s %12s %12s\n", "layer", "reads", "read_bytes", "read_s",
            "read_MiB/s", "writes", "write_bytes", "write_s", "write_MiB/s");
    for (unsigned l = 0; l < REC_LAYER_COUNT; l++) {
        unsigned layer = rec_layers_top_down[l];
        if (!calls[layer][0] && !calls[layer][1])
            continue;
        double rs = (double)ticks[layer][0] * res, ws = (double)ticks[layer][1] * res;
        fprintf(out, "%-7s %10llu %16lld %12.6f %12.2f %10llu %16lld %12.6f %12.2f\n", rec_layer_name(layer),
                (unsigned long long)calls[layer][0], (long long)bytes[layer][0], rs,
                rs > 0 ? (double)bytes[layer][0] / rs / 1048576.0 : 0.0, (unsigned long long)calls[layer][1],
                (long long)bytes[layer][1], ws, ws > 0 ? (double)bytes[layer][1] / ws / 1048576.0 : 0.0);
    }
}

typedef struct count_row {
    unsigned func;
    rec_counts c;
} count_row;

static int count_order(const void *a, const void *b)
{
    const count_row *x = a, *y = b;
    if (x->c.records != y->c.records)
        return x->c.records > y->c.records ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

/* Tables II and III of "Recorder 2.0: Efficient Parallel I/O Tracing and
 * Analysis": records stored as references to a recent record, and recorded
 * fields elided because equal to the reference's. */
static void print_compression(ra_summary *s, FILE *out)
{
    const rec_counts *t = &s->totals;
    fprintf(out, "\nCompression%s:\n", rec_trace_is_merged(ra_trace_rec(s->t)) ? " (of the merged stream)" : "");
    fprintf(out, "records: %llu, compressed (stored as a reference): %llu (%.2f%%)\n",
            (unsigned long long)t->records, (unsigned long long)t->compressed_records,
            pct((double)t->compressed_records, (double)t->records));
    fprintf(out, "arguments (recorded fields): %llu, elided (equal to the reference): %llu (%.2f%%)\n",
            (unsigned long long)t->fields, (unsigned long long)t->elided_fields,
            pct((double)t->elided_fields, (double)t->fields));
    if (!s->have_func_counts)
        return;
    count_row *rows = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *rows);
    size_t n = 0;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        if (s->func_counts[id].records && fn(s, id))
            rows[n++] = (count_row){id, s->func_counts[id]};
    qsort(rows, n, sizeof *rows, count_order);
    fprintf(out, "%-32s %12s %12s %8s %12s %12s %8s\n", "function", "records", "compressed", "%", "fields",
            "elided", "%");
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%-32s %12llu %12llu %7.2f%% %12llu %12llu %7.2f%%\n", fn(s, rows[i].func)->name,
                (unsigned long long)rows[i].c.records, (unsigned long long)rows[i].c.compressed_records,
                pct((double)rows[i].c.compressed_records, (double)rows[i].c.records),
                (unsigned long long)rows[i].c.fields, (unsigned long long)rows[i].c.elided_fields,
                pct((double)rows[i].c.elided_fields, (double)rows[i].c.fields));
    free(rows);
}

void ra_summary_print_text(ra_summary *s, FILE *out)
{
    sort_ctx = s;
    double res = ra_trace_resolution(s->t);
    uint32_t nranks = ra_trace_nranks(s->t);
    uint64_t total = 0, lo = UINT64_MAX, hi = 0;
    for (uint32_t r = 0; r < nranks; r++) {
        total += s->rank_records[r];
        lo = s->rank_records[r] < lo ? s->rank_records[r] : lo;
        hi = s->rank_records[r] > hi ? s->rank_records[r] : hi;
    }
    fprintf(out, "trace: %s\n", rec_trace_dir(ra_trace_rec(s->t)));
    fprintf(out, "ranks: %u, records: %llu (per rank: min %llu, max %llu, mean %.1f)\n", nranks,
            (unsigned long long)total, (unsigned long long)(nranks ? lo : 0), (unsigned long long)hi,
            nranks ? (double)total / nranks : 0.0);
    fprintf(out, "time span: %.6f s", s->last_end >= s->first_start ? s->last_end - s->first_start : 0.0);
    if (s->incomplete)
        fprintf(out, " (%u ranks did not close their trace: counted up to their last complete block)",
                s->incomplete);
    fputc('\n', out);
    print_functions(s, out, res);
    print_files(s, out, res, (size_t)s->file_limit);
    print_bandwidth(s, out, res);
    print_compression(s, out);
}
