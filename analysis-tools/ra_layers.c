/* ra_layers.c: the cross-layer view of "IOPin: Runtime Profiling of Parallel
 * I/O in HPC Systems": each top-level call with the tree of lower-layer calls
 * it made (HDF5 -> MPI-IO -> POSIX), and per layer its latency (the longest
 * sub-call of that layer, eq. 1), bytes (summed) and throughput (the
 * sub-calls' throughputs summed, eq. 2); then the same per top-level
 * function and per layer over the whole trace.
 *
 * Children come in the stream before their parent, so per thread and depth
 * the collector folds finished subtrees upward (memory: one accumulator per
 * depth); the records of a subtree are kept only while trees are still to
 * be printed, and at most TREE_NODES of them. Top-level calls that are MPI
 * communication without I/O below them are not part of the view. */
#include "ra_tools.h"

#include <string.h>

#define NLAYERS REC_LAYER_COUNT
#define MAX_DEPTH 256
#define TREE_NODES 4096

typedef struct lacc {
    double lat[NLAYERS], thpt[NLAYERS];
    int64_t bytes[NLAYERS];
    uint64_t calls[NLAYERS];
} lacc;

typedef struct node {
    uint16_t func;
    uint8_t depth, exact;
    uint64_t ticks;
    int64_t bytes, offset;
    int32_t file;
    char *object;
} node;

typedef struct lthread {
    uint32_t id;
    int maxd;
    lacc acc[MAX_DEPTH + 2];
    node *buf;
    size_t nbuf;
    uint64_t dropped;
} lthread;

struct ra_layers {
    ra_trace *t;
    double res;
    size_t limit, shown;
    uint64_t total_trees, top_calls;
    double top_seconds;
    FILE *trees;
    int html, show_mpi;
    uint64_t hidden; /* MPI calls left out of the tree being printed */
    uint8_t *only;   /* per function id: show its trees; NULL: all */
    lthread *threads;
    size_t nthreads;
    uint32_t rank;
    ra_layer_stat (*stat)[NLAYERS]; /* per top-level function id and layer */
    uint64_t *fcalls;
    double *fseconds;
    ra_layer_stat layer_total[NLAYERS];
};

ra_layers *ra_layers_new(ra_trace *t, size_t tree_limit, FILE *trees_out, int html)
{
    ra_layers *l = ra_xcalloc(1, sizeof *l);
    l->t = t;
    l->res = ra_trace_resolution(t);
    l->limit = trees_out ? tree_limit : 0;
    l->trees = trees_out;
    l->html = html;
    l->stat = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *l->stat);
    l->fcalls = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *l->fcalls);
    l->fseconds = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *l->fseconds);
    return l;
}

void ra_layers_show_mpi(ra_layers *l, int on)
{
    l->show_mpi = on;
}

void ra_layers_only(ra_layers *l, unsigned func)
{
    if (!l->only)
        l->only = ra_xcalloc(REC_FUNCTION_ID_LIMIT, 1);
    if (func < REC_FUNCTION_ID_LIMIT)
        l->only[func] = 1;
}

static void clear_buffer(lthread *s)
{
    for (size_t i = 0; i < s->nbuf; i++)
        free(s->buf[i].object);
    s->nbuf = 0;
    s->dropped = 0;
}

static void free_threads(ra_layers *l)
{
    for (size_t i = 0; i < l->nthreads; i++) {
        clear_buffer(&l->threads[i]);
        free(l->threads[i].buf);
    }
    free(l->threads);
    l->threads = NULL;
    l->nthreads = 0;
}

void ra_layers_free(ra_layers *l)
{
    if (!l)
        return;
    free_threads(l);
    free(l->only);
    free(l->stat);
    free(l->fcalls);
    free(l->fseconds);
    free(l);
}

static int layers_begin_rank(void *ctx, ra_trace *t, uint32_t rank)
{
    ra_layers *l = ctx;
    (void)t;
    free_threads(l);
    l->rank = rank;
    return 0;
}

static int layers_end_rank(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    ra_layers *l = ctx;
    (void)t;
    (void)w;
    (void)rank;
    free_threads(l);
    return 0;
}

size_t ra_layers_trees_shown(const ra_layers *l)
{
    return l->shown;
}
uint64_t ra_layers_trees_total(const ra_layers *l)
{
    return l->total_trees;
}

const ra_layer_stat *ra_layers_stat(const ra_layers *l, unsigned func, unsigned layer, double *call_seconds,
                                    uint64_t *calls)
{
    if (func >= REC_FUNCTION_ID_LIMIT || layer >= NLAYERS || !l->fcalls[func])
        return NULL;
    if (call_seconds)
        *call_seconds = l->fseconds[func];
    if (calls)
        *calls = l->fcalls[func];
    return &l->stat[func][layer];
}

static lthread *thread_state(ra_layers *l, uint32_t id)
{
    for (size_t i = 0; i < l->nthreads; i++)
        if (l->threads[i].id == id)
            return &l->threads[i];
    l->threads = ra_xrealloc(l->threads, (l->nthreads + 1) * sizeof *l->threads);
    lthread *s = &l->threads[l->nthreads++];
    memset(s, 0, sizeof *s);
    s->id = id;
    s->maxd = -1;
    return s;
}

static void fold(lacc *to, const lacc *from)
{
    for (int k = 0; k < NLAYERS; k++) {
        if (from->lat[k] > to->lat[k])
            to->lat[k] = from->lat[k];
        to->thpt[k] += from->thpt[k];
        to->bytes[k] += from->bytes[k];
        to->calls[k] += from->calls[k];
    }
}

/* ---- printing trees ---- */

static void put_text(ra_layers *l, const char *s)
{
    if (l->html)
        ra_html_text(l->trees, s);
    else
        fputs(s, l->trees);
}

static void print_node(ra_layers *l, const node *n, int indent)
{
    const rec_func_desc *f = rec_table_lookup(rec_trace_table(ra_trace_rec(l->t)), n->func);
    char line[512];
    int len = snprintf(line, sizeof line, "%*s%-6s %s %.3f ms", indent * 2, "", rec_layer_name(f->layer),
                       f->name, (double)n->ticks * l->res * 1e3);
    if (n->bytes > 0 && len < (int)sizeof line)
        len += snprintf(line + len, sizeof line - (size_t)len, " %lld B", (long long)n->bytes);
    if (n->offset >= 0 && len < (int)sizeof line) /* ~: through a non-contiguous view, approximate */
        len += snprintf(line + len, sizeof line - (size_t)len, " @%s%lld", n->exact ? "" : "~",
                        (long long)n->offset);
    put_text(l, line);
    if (n->object) {
        put_text(l, " ");
        put_text(l, n->object);
    }
    put_text(l, "\n");
}

/* nodes[lo, hi) is the subtree below a node at depth d: prints its children,
 * each followed by its own subtree. */
static void print_children(ra_layers *l, const node *nodes, size_t lo, size_t hi, unsigned d, int indent)
{
    const rec_table *table = rec_trace_table(ra_trace_rec(l->t));
    size_t start = lo;
    for (size_t i = lo; i < hi; i++) {
        if (nodes[i].depth != d + 1)
            continue;
        if (!l->show_mpi && rec_table_lookup(table, nodes[i].func)->layer == REC_LAYER_MPI) {
            l->hidden += 1 + (i - start); /* communication and datatypes: not the I/O path */
        } else {
            print_node(l, &nodes[i], indent);
            print_children(l, nodes, start, i, d + 1, indent + 1);
        }
        start = i + 1;
    }
}

static void print_tree(ra_layers *l, lthread *s, const ra_event *ev, const lacc *a)
{
    char line[1024];
    const char *path = ra_file_path(l->t, ev->file);
    snprintf(line, sizeof line, "rank %u %s%s%s%s%s at %.6f s: %.3f ms", ev->rank, ev->func->name,
             ev->object ? " " : "", ev->object ? ev->object : "", path ? " in " : "", path ? path : "",
             ev->gstart, (double)ev->ticks * l->res * 1e3);
    put_text(l, line);
    if (ev->bytes > 0) {
        snprintf(line, sizeof line, ", %lld B", (long long)ev->bytes);
        put_text(l, line);
    }
    if (ev->offset >= 0) {
        snprintf(line, sizeof line, " @%s%lld", ev->offset_exact ? "" : "~", (long long)ev->offset);
        put_text(l, line);
    }
    put_text(l, "\n");
    l->hidden = 0;
    print_children(l, s->buf, 0, s->nbuf, 0, 1);
    if (l->hidden) {
        snprintf(line, sizeof line, "  (%llu MPI calls not shown)\n", (unsigned long long)l->hidden);
        put_text(l, line);
    }
    if (s->dropped) {
        snprintf(line, sizeof line, "  ... %llu more calls not shown\n", (unsigned long long)s->dropped);
        put_text(l, line);
    }
    put_text(l, "  =>");
    const char *sep = "";
    for (int k = NLAYERS - 1; k >= 0; k--) {
        unsigned layer = rec_layers_top_down[NLAYERS - 1 - k];
        if (!a->calls[layer])
            continue;
        snprintf(line, sizeof line, "%s %s %.3f ms, %lld B, %.1f MiB/s", sep, rec_layer_name(layer),
                 a->lat[layer] * 1e3, (long long)a->bytes[layer], a->thpt[layer] / 1048576.0);
        put_text(l, line);
        sep = " |";
    }
    put_text(l, "\n\n");
}

static int layers_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    ra_layers *l = ctx;
    (void)t;
    lthread *s = thread_state(l, ev->thread);
    int d = (int)ev->depth;
    lacc self;
    memset(&self, 0, sizeof self);
    for (int k = d + 1; k <= s->maxd; k++) {
        fold(&self, &s->acc[k]);
        memset(&s->acc[k], 0, sizeof s->acc[k]);
    }
    double dur = (double)ev->ticks * l->res;
    unsigned layer = ev->layer < NLAYERS ? ev->layer : 0;
    int has_sub = ev->descendants > 0;
    if (dur > self.lat[layer])
        self.lat[layer] = dur;
    self.calls[layer]++;
    if (ev->bytes > 0) {
        self.bytes[layer] += ev->bytes;
        if (dur > 0)
            self.thpt[layer] += (double)ev->bytes / dur;
    }
    if (d > 0) {
        if (d > s->maxd) {
            for (int k = s->maxd + 1; k <= d; k++)
                memset(&s->acc[k], 0, sizeof s->acc[k]);
            s->maxd = d;
        }
        fold(&s->acc[d], &self);
        if (l->shown < l->limit) {
            if (s->nbuf < TREE_NODES) {
                if (!s->buf)
                    s->buf = ra_xmalloc(TREE_NODES * sizeof *s->buf);
                s->buf[s->nbuf++] = (node){ev->rec->func,
                                           (uint8_t)d,
                                           (uint8_t)ev->offset_exact,
                                           ev->ticks,
                                           ev->bytes,
                                           ev->offset,
                                           ev->file,
                                           ev->object ? ra_xstrdup(ev->object) : NULL};
            } else {
                s->dropped++;
            }
        }
        return 0;
    }
    uint64_t io_calls = 0; /* the calls of every layer but MPI's */
    for (int k = 0; k < NLAYERS; k++)
        io_calls += k == REC_LAYER_MPI ? 0 : self.calls[k];
    int io = layer != REC_LAYER_MPI || io_calls;
    if (io) {
        unsigned f = ev->rec->func;
        l->fcalls[f]++;
        l->fseconds[f] += dur;
        l->top_calls++;
        l->top_seconds += dur;
        for (int k = 0; k < NLAYERS; k++) {
            l->stat[f][k].seconds += self.lat[k];
            l->stat[f][k].bytes += self.bytes[k];
            l->stat[f][k].calls += self.calls[k];
            l->layer_total[k].seconds += self.lat[k];
            l->layer_total[k].bytes += self.bytes[k];
            l->layer_total[k].calls += self.calls[k];
        }
        if (has_sub &&
            (io_calls > 1 ||
             layer == REC_LAYER_MPI)) {
            l->total_trees++;
            if (l->shown < l->limit && (!l->only || l->only[f])) {
                print_tree(l, s, ev, &self);
                l->shown++;
            }
        }
    }
    clear_buffer(s);
    return 0;
}

ra_visitor ra_layers_visitor(ra_layers *l)
{
    return (ra_visitor){l, layers_begin_rank, layers_event, layers_end_rank};
}

/* ---- aggregates ---- */

static const ra_layers *order_ctx;

static int func_order(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    if (order_ctx->fseconds[x] != order_ctx->fseconds[y])
        return order_ctx->fseconds[x] > order_ctx->fseconds[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

static double share(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}
static double mibs(int64_t bytes, double s)
{
    return s > 0 ? (double)bytes / s / 1048576.0 : 0.0;
}

void ra_layers_print(ra_layers *l, FILE *out, int html)
{
    (void)html;
    const unsigned *order = rec_layers_top_down;
    const rec_table *table = rec_trace_table(ra_trace_rec(l->t));
    unsigned *funcs = ra_xmalloc(REC_FUNCTION_ID_LIMIT * sizeof *funcs);
    size_t n = 0;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        if (l->fcalls[id])
            funcs[n++] = id;
    order_ctx = l;
    qsort(funcs, n, sizeof *funcs, func_order);
    fprintf(out,
            "Per top-level function and layer (a layer's time in a call is its longest sub-call;\nshare = that time summed over the calls / the calls' own time; MiB/s = bytes / that "
            "time):\n");
    fprintf(out, "%-28s %9s %12s  %-7s %10s %12s %8s %14s %10s\n", "function", "calls", "seconds", "layer",
            "sub-calls", "seconds", "share", "bytes", "MiB/s");
    for (size_t i = 0; i < n; i++) {
        unsigned f = funcs[i];
        int firstline = 1;
        for (int k = 0; k < NLAYERS; k++) {
            const ra_layer_stat *st = &l->stat[f][order[k]];
            if (!st->calls)
                continue;
            if (firstline)
                fprintf(out, "%-28s %9llu %12.6f  ", rec_table_lookup(table, f)->name,
                        (unsigned long long)l->fcalls[f], l->fseconds[f]);
            else
                fprintf(out, "%-28s %9s %12s  ", "", "", "");
            fprintf(out, "%-7s %10llu %12.6f %7.1f%% %14lld %10.2f\n", rec_layer_name(order[k]),
                    (unsigned long long)st->calls, st->seconds, share(st->seconds, l->fseconds[f]),
                    (long long)st->bytes, mibs(st->bytes, st->seconds));
            firstline = 0;
        }
    }
    fprintf(out, "\nPer layer (all %llu top-level I/O calls, %.6f s):\n", (unsigned long long)l->top_calls,
            l->top_seconds);
    fprintf(out, "%-7s %10s %12s %8s %14s %10s\n", "layer", "calls", "seconds", "share", "bytes", "MiB/s");
    for (int k = 0; k < NLAYERS; k++) {
        const ra_layer_stat *st = &l->layer_total[order[k]];
        if (st->calls)
            fprintf(out, "%-7s %10llu %12.6f %7.1f%% %14lld %10.2f\n", rec_layer_name(order[k]),
                    (unsigned long long)st->calls, st->seconds, share(st->seconds, l->top_seconds),
                    (long long)st->bytes, mibs(st->bytes, st->seconds));
    }
    free(funcs);
}
