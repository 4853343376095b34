/* trace_expect: prints what a kernel's --expect prints, but from a trace:
 * per rank, per function, the calls the application itself made (depth 0,
 * main thread, not MPI communication, not on stdin/stdout/stderr) and the
 * bytes they moved. A kernel traced with --expect must print the same lines.
 *   trace_expect TRACE_DIR */
#include "expect_tally.h"
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct line {
    uint32_t rank;
    const char *name;
    uint64_t calls;
    int64_t bytes;
} line;

static int by_rank_then_name(const void *a, const void *b)
{
    const line *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Call trees: records come in exit order, so the children of a record at
 * depth d are the depth d+1 records since the last record at depth <= d.
 * Each child must lie inside its parent in time and come from a layer below
 * it; chains counts HDF5 calls whose MPI-IO children made POSIX calls. */
typedef struct pending {
    uint64_t tstart, tend;
    int layer, posix_below;
} pending;

static int check_nesting(const rec_func_desc *f, const rec_record *r, pending levels[][256], size_t *count,
                         uint64_t *chains)
{
    unsigned d = r->depth;
    if (d >= 15)
        return 0;
    pending self = {r->tstart, r->tend, f->layer, 0};
    int mpiio_with_posix = 0;
    for (size_t k = 0; k < count[d + 1]; k++) {
        pending *c = &levels[d + 1][k];
        if (c->tstart < r->tstart || c->tend > r->tend || c->layer == REC_LAYER_HDF5 ||
            (f->layer == REC_LAYER_POSIX))
            return -1;
        self.posix_below |= c->layer == REC_LAYER_POSIX;
        mpiio_with_posix |= c->layer == REC_LAYER_MPIIO && c->posix_below;
    }
    for (unsigned k = d + 1; k < 16; k++)
        count[k] = 0;
    if (f->layer == REC_LAYER_HDF5 && mpiio_with_posix)
        (*chains)++;
    if (count[d] < 256)
        levels[d][count[d]++] = self;
    if (d == 0)
        count[0] = 0;
    return 0;
}

int main(int argc, char **argv)
{
    int nesting = argc == 3 && !strcmp(argv[1], "--nesting");
    if (argc != 2 + nesting) {
        fprintf(stderr, "usage: trace_expect [--nesting] TRACE_DIR\n");
        return 2;
    }
    rec_error err;
    rec_trace *t = rec_trace_open(argv[1 + nesting], &err);
    static pending levels[16][256];
    size_t count[16] = {0};
    uint64_t chains = 0, bad_nesting = 0;
    if (!t) {
        fprintf(stderr, "trace_expect: %s\n", err.msg);
        return 1;
    }
    const rec_table *table = rec_trace_table(t);
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    size_t cap = 64, n = 0;
    line *lines = malloc(cap * sizeof *lines);
    for (uint32_t rank = 0; rank < nranks; rank++) {
        rec_cursor *c = rec_cursor_open(t, rank, &err);
        if (!c) {
            fprintf(stderr, "trace_expect: %s\n", err.msg);
            return 1;
        }
        expect_tally *tally = calloc(1, sizeof *tally);
        rec_record r;
        int rc;
        while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
            const rec_func_desc *f = rec_table_lookup(table, r.func);
            if (nesting && !r.thread && check_nesting(f, &r, levels, count, &chains) != 0 && !bad_nesting++)
                fprintf(stderr, "trace_expect: rank %u: %s at depth %u does not nest in its parent\n", rank, f->name,
                        r.depth);
            if (r.depth || r.thread || f->layer == REC_LAYER_MPI || rf_on_console(f, &r))
                continue;
            expect_tally_add(tally, f, &r);
        }
        if (rc < 0) {
            fprintf(stderr, "trace_expect: %s\n", err.msg);
            return 1;
        }
        for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++) {
            if (!tally->calls[id])
                continue;
            if (n == cap)
                lines = realloc(lines, (cap *= 2) * sizeof *lines);
            lines[n++] = (line){rank, rec_table_lookup(table, id)->name, tally->calls[id], tally->bytes[id]};
        }
        free(tally);
        rec_cursor_close(c);
    }
    if (nesting) {
        printf("nesting: %llu HDF5 -> MPI-IO -> POSIX chains, %llu records out of place\n",
               (unsigned long long)chains, (unsigned long long)bad_nesting);
        return bad_nesting ? 1 : 0;
    }
    qsort(lines, n, sizeof *lines, by_rank_then_name);
    for (size_t i = 0; i < n; i++)
        printf("expect rank=%u function=%s calls=%llu bytes=%lld\n", lines[i].rank, lines[i].name,
               (unsigned long long)lines[i].calls, (long long)lines[i].bytes);
    free(lines);
    rec_trace_close(t);
    return 0;
}
