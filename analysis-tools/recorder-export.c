/* recorder-export: a trace as Chrome trace-event JSON, which Perfetto
 * (ui.perfetto.dev) and chrome://tracing open. One track per rank (pid 0,
 * tid = rank; threads other than the main one get tracks of their own under
 * pid 1), one complete ("X") event per call with ts/dur in microseconds on
 * the common time line, slices nested by call depth, and the recorded
 * arguments rendered as text in args (plus "depth", and what the I/O model
 * resolved: "io.file", "io.bytes", "io.offset").
 *   recorder-export --chrome TRACE_DIR -o trace.json
 *
 * Streaming: a rank's records are written as they are read, except that the
 * records of one top-level call (children come before their parent in the
 * stream) are held until it ends and written parent first, so viewers that
 * nest equal timestamps by file order nest them right. */
#include "ra_tools.h"

#include <getopt.h>
#include <string.h>

static const char *tool = "recorder-export";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s --chrome [options] TRACE_DIR [-o FILE]\n"
            "  --chrome       Chrome trace-event JSON (the one format so far)\n"
            "  -o FILE        write there instead of stdout\n"
            "  --rank R[-R2]  only these ranks\n"
            "  --no-args      leave the call arguments out (smaller files)\n"
            "  --progress     report progress on stderr (default: only on a terminal)\n",
            tool);
}

typedef struct pending_event {
    double ts;
    unsigned depth;
    char *json;
} pending_event;

typedef struct exporter {
    ra_trace *t;
    FILE *out;
    int args, first;
    uint32_t nranks;
    /* the current top-level call's records, per thread (main thread first) */
    pending_event *pend;
    size_t npend, cap;
    char *buf;
    size_t buflen;
    FILE *mem;
} exporter;

static const char *cursor_path(void *ctx, int64_t id)
{
    return ra_rank_path(ctx, id);
}

static void track(uint32_t rank, uint32_t thread, int *pid, uint64_t *tid)
{
    *pid = thread ? 1 : 0;
    *tid = thread ? (uint64_t)rank * 100000u + thread : rank;
}

/* Renders one call's event into the memory stream. */
static void render(exporter *x, ra_rank *w, const ra_event *ev)
{
    int pid;
    uint64_t tid;
    track(ev->rank, ev->thread, &pid, &tid);
    FILE *m = x->mem;
    fputs("{\"name\":", m);
    ra_json_string(m, ev->func->name, strlen(ev->func->name));
    fprintf(m, ",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%d,\"tid\":%llu,\"args\":{",
            rec_layer_name(ev->layer), ev->gstart * 1e6, (ev->gend - ev->gstart) * 1e6, pid,
            (unsigned long long)tid);
    fprintf(m, "\"depth\":%u", ev->depth);
    char val[4096];
    if (x->args) {
        const rec_func_desc *f = ev->func;
        for (unsigned a = 0; a < f->nargs; a++) {
            if (rec_kind_class(f->args[a].kind) == REC_CLASS_NONE)
                continue;
            size_t n = rec_print_value(val, sizeof val, f->args[a].kind, &ev->rec->args[a], cursor_path, w);
            fputc(',', m);
            ra_json_string(m, f->args[a].name, strlen(f->args[a].name));
            fputc(':', m);
            ra_json_string(m, val, n);
        }
        if (f->ret_kind != REC_KIND_NONE) {
            size_t n = rec_print_value(val, sizeof val, f->ret_kind, &ev->rec->ret, cursor_path, w);
            fputs(",\"ret\":", m);
            ra_json_string(m, val, n);
        }
        if (ev->rec->err)
            fprintf(m, ",\"errno\":%lld", (long long)ev->rec->err);
    }
    const char *path = ra_file_path(x->t, ev->file);
    if (path) { /* the file the model resolved, handles and all */
        fputs(",\"io.file\":", m);
        ra_json_string(m, path, strlen(path));
    }
    if (ev->bytes > 0)
        fprintf(m, ",\"io.bytes\":%lld", (long long)ev->bytes);
    if (ev->offset >= 0)
        fprintf(m, ",\"io.offset\":%lld", (long long)ev->offset);
    fputs("}}", m);
}

static int pending_order(const void *a, const void *b)
{
    const pending_event *x = a, *y = b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (int)x->depth - (int)y->depth; /* a parent before the children starting with it */
}

static void flush_pending(exporter *x)
{
    qsort(x->pend, x->npend, sizeof *x->pend, pending_order);
    for (size_t i = 0; i < x->npend; i++) {
        fputs(x->first ? "\n" : ",\n", x->out);
        x->first = 0;
        fputs(x->pend[i].json, x->out);
        free(x->pend[i].json);
    }
    x->npend = 0;
}

static void add_event(exporter *x, ra_rank *w, const ra_event *ev)
{
    x->mem = open_memstream(&x->buf, &x->buflen);
    if (!x->mem) {
        fprintf(stderr, "%s: out of memory\n", tool);
        exit(RA_EXIT_ERROR);
    }
    render(x, w, ev);
    fclose(x->mem);
    if (x->npend == x->cap)
        x->pend = ra_xrealloc(x->pend, (x->cap = x->cap ? 2 * x->cap : 256) * sizeof *x->pend);
    x->pend[x->npend++] = (pending_event){ev->gstart, ev->depth, x->buf};
    x->buf = NULL;
}

static void metadata(exporter *x, uint32_t rank)
{
    fprintf(
        x->out,
        "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"args\":{\"name\":\"rank %u\"}},\n"
        "{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":0,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
        x->first ? "\n" : ",\n", rank, rank, rank, rank);
    x->first = 0;
}

static int export_rank(exporter *x, ra_trace *t, uint32_t rank, ra_progress *p)
{
    rec_error err;
    ra_rank *w = ra_rank_open(t, rank, 0, &err);
    if (!w) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return -1;
    }
    metadata(x, rank);
    ra_event ev;
    int rc;
    while ((rc = ra_rank_next(w, &ev, &err)) == 1) {
        ra_progress_tick(p, rank, x->nranks);
        add_event(x, w, &ev);
        if (ev.depth == 0 && ev.thread == 0)
            flush_pending(x);
    }
    flush_pending(x); /* other threads' calls, and a rank that stopped inside a call */
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    ra_rank_close(w);
    return rc < 0 ? -1 : 0;
}

typedef struct export_tool {
    const char *output; /* -o FILE; NULL: stdout */
    exporter x;
} export_tool;

static int start(void *ctx, const ra_cli_args *args, ra_trace *t, ra_visitor *v)
{
    export_tool *e = ctx;
    (void)v; /* export_ranks walks */
    e->output = args->given['o'];
    FILE *out = ra_cli_create(tool, e->output);
    if (!out)
        return RA_EXIT_ERROR;
    int call_args = !args->given['n'];
    e->x = (exporter){t, out, call_args, 1, ra_trace_nranks(t), NULL, 0, 0, NULL, 0, NULL};
    fputs("{\"traceEvents\":[", out);
    fprintf(out, "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":");
    ra_json_string(out, args->dir, strlen(args->dir));
    fputs("}}", out);
    e->x.first = 0;
    return RA_CLI_CONTINUE;
}

static int export_ranks(void *ctx, const ra_cli_args *args, ra_trace *t, ra_progress *p)
{
    export_tool *e = ctx;
    int failed = 0;
    for (uint32_t r = args->first; r <= args->last && !failed; r++)
        failed = export_rank(&e->x, t, r, p) != 0;
    return failed ? -1 : 0;
}

/* The trailer goes out even after a failed rank: the file stays JSON. */
static int finish(void *ctx, int failed)
{
    export_tool *e = ctx;
    fprintf(
        e->x.out,
        "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"generator\":\"recorder-export\",\"ranks\":%u}}\n",
        e->x.nranks);
    if (ra_cli_close(tool, e->x.out, e->output) != 0)
        failed = 1;
    free(e->x.pend);
    return failed;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"chrome", no_argument, 0, 'c'},
                                            {"output", required_argument, 0, 'o'},
                                            {"no-args", no_argument, 0, 'n'},
                                            {0, 0, 0, 0}};
    export_tool e = {NULL, {0}};
    const ra_tool export = {
        {tool, usage, RA_CLI_RANKS | RA_CLI_PROGRESS, options, NULL, &e}, start, export_ranks, finish};
    ra_cli_args args;
    int code = ra_cli_parse(&export.cli, argc, argv, &args);
    if (code != RA_CLI_CONTINUE)
        return code;
    if (!args.given['c']) {
        fprintf(stderr, "%s: say which format: --chrome\n", tool);
        usage(stderr);
        return RA_EXIT_USAGE;
    }
    return ra_tool_run(&export, &args);
}
