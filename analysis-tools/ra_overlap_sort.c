/* ra_overlap_sort.c: the intervals of the overlap analysis, sorted by file
 * and start offset. They are kept in memory up to a budget; beyond it, full
 * buffers are sorted and spilled to unlinked temporary files, and draining
 * merges the sorted runs through a heap: memory stays at the budget however
 * many accesses a trace holds. */
#include "ra_tools.h"

#include <errno.h>
#include <string.h>

#define READ_CHUNK 4096 /* intervals read at a time from a spilled run */

typedef struct run {
    FILE *f;
    ra_interval *buf;
    size_t n, pos;
    int eof;
} run;

struct ra_ivstore {
    ra_interval *buf;
    size_t n, cap, max;
    run *runs;
    size_t nruns;
    size_t total;
    int io_error;
};

ra_ivstore *ra_ivstore_new(size_t memory_bytes)
{
    ra_ivstore *st = ra_xcalloc(1, sizeof *st);
    st->max = memory_bytes / sizeof(ra_interval);
    if (st->max < 16)
        st->max = 16;
    return st;
}

static int interval_order(const void *a, const void *b)
{
    const ra_interval *x = a, *y = b;
    if (x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->os != y->os)
        return x->os < y->os ? -1 : 1;
    if (x->oe != y->oe)
        return x->oe < y->oe ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static void spill(ra_ivstore *st)
{
    qsort(st->buf, st->n, sizeof *st->buf, interval_order);
    FILE *f = tmpfile(); /* unlinked: nothing is left behind, even on a crash */
    if (!f || fwrite(st->buf, sizeof *st->buf, st->n, f) != st->n || fflush(f) != 0) {
        fprintf(stderr, "recorder-overlap: cannot spill intervals to a temporary file: %s\n",
                strerror(errno));
        st->io_error = 1;
        if (f)
            fclose(f);
        return;
    }
    rewind(f);
    st->runs = ra_xrealloc(st->runs, (st->nruns + 1) * sizeof *st->runs);
    st->runs[st->nruns++] = (run){f, NULL, 0, 0, 0};
    st->n = 0;
}

void ra_ivstore_add(ra_ivstore *st, const ra_interval *iv)
{
    if (st->n == st->max)
        spill(st);
    if (st->n == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 1024;
        if (st->cap > st->max)
            st->cap = st->max;
        st->buf = ra_xrealloc(st->buf, st->cap * sizeof *st->buf);
    }
    st->buf[st->n++] = *iv;
    st->total++;
}

size_t ra_ivstore_count(const ra_ivstore *st)
{
    return st->total;
}
size_t ra_ivstore_spills(const ra_ivstore *st)
{
    return st->nruns;
}

static const ra_interval *run_head(run *r)
{
    if (r->pos == r->n && !r->eof) {
        r->n = fread(r->buf, sizeof *r->buf, READ_CHUNK, r->f);
        r->pos = 0;
        r->eof = r->n < READ_CHUNK;
    }
    return r->pos < r->n ? &r->buf[r->pos] : NULL;
}

/* Min-heap of run indices by their head interval. */
static void sift_down(run *runs, size_t *heap, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < n && interval_order(run_head(&runs[heap[l]]), run_head(&runs[heap[m]])) < 0)
            m = l;
        if (l + 1 < n && interval_order(run_head(&runs[heap[l + 1]]), run_head(&runs[heap[m]])) < 0)
            m = l + 1;
        if (m == i)
            return;
        size_t tmp = heap[i];
        heap[i] = heap[m];
        heap[m] = tmp;
        i = m;
    }
}

int ra_ivstore_drain(ra_ivstore *st, void (*fn)(void *ctx, const ra_interval *iv), void *ctx)
{
    if (st->io_error)
        return -1;
    if (!st->nruns) {
        if (st->n) /* qsort(NULL, 0, ...) is undefined (UBSan) */
            qsort(st->buf, st->n, sizeof *st->buf, interval_order);
        for (size_t i = 0; i < st->n; i++)
            fn(ctx, &st->buf[i]);
        return 0;
    }
    if (st->n)
        spill(st);
    free(st->buf); /* the merge needs only the runs' read buffers */
    st->buf = NULL;
    st->n = st->cap = 0;
    size_t *heap = ra_xmalloc(st->nruns * sizeof *heap), nheap = 0;
    for (size_t i = 0; i < st->nruns; i++) {
        st->runs[i].buf = ra_xmalloc(READ_CHUNK * sizeof(ra_interval));
        if (run_head(&st->runs[i]))
            heap[nheap++] = i;
    }
    for (size_t i = nheap; i-- > 0;)
        sift_down(st->runs, heap, nheap, i);
    while (nheap) {
        run *r = &st->runs[heap[0]];
        fn(ctx, run_head(r));
        r->pos++;
        if (!run_head(r)) {
            if (ferror(r->f))
                st->io_error = 1;
            heap[0] = heap[--nheap];
        }
        sift_down(st->runs, heap, nheap, 0);
    }
    free(heap);
    return st->io_error ? -1 : 0;
}

void ra_ivstore_free(ra_ivstore *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->nruns; i++) {
        fclose(st->runs[i].f);
        free(st->runs[i].buf);
    }
    free(st->runs);
    free(st->buf);
    free(st);
}
