/* layer.c: recorder-codegen --layer, the calls a kernel makes at one layer.
 *
 * Records arrive in exit order: a call's children (the calls it made, one
 * level deeper) come just before it, so the records of one rank and thread
 * since its last depth-0 record form one call tree, complete when its
 * depth-0 record arrives. A record is selected when its layer is the chosen
 * one or below, or MPI (MPI calls order the I/O across ranks); a member
 * (one rank's part of a merged record) is emitted when its record is
 * selected and none of its ancestors is: that ancestor makes the call.
 * Records above the layer are looked through. Unlike recorder-replay's
 * select.c, a record whose layer is not below its parent's starts no tree
 * of its own: every layer selected, this is exactly the depth-0 records,
 * the default kernel's.
 *
 * A merged record stands for several ranks, whose trees complete at
 * different records, so each record is held (copied: the cursor's values
 * last until its next record) until the trees of all its members are
 * complete, and records are handed on in stream order. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

typedef struct held {
    rec_record r;
    rec_merge_info mi;
    const rec_func_desc *tf; /* the trace's table's, NULL for an unknown function */
    int layer;
    uint64_t nth;            /* its place in the merged stream */
    uint32_t unresolved;     /* members whose tree is not complete yet */
    unsigned char *pick;     /* per member, in set order: emitted */
    void **owned;            /* what the copy allocated */
    size_t nowned;
} held;

typedef struct member {
    uint64_t seq; /* the held record's */
    uint32_t pos; /* the member's position in its set */
} member;

typedef struct tree {
    member *m;
    uint32_t n, cap;
} tree;

typedef struct thread_trees {
    uint32_t thread;
    tree *by_rank;
    uint64_t nranks; /* slots in by_rank */
} thread_trees;

struct cg_layered {
    int layer;
    held **queue; /* from the oldest record not handed on yet */
    size_t head, n, cap;
    uint64_t first_seq; /* queue[0]'s */
    thread_trees *threads;
    size_t nthreads;
    long *parent; /* scratch of process() */
    unsigned char *flags;
    size_t scratch;
};

cg_layered *cg_layered_new(int layer)
{
    cg_layered *s = cg_calloc(1, sizeof *s);
    s->layer = layer;
    return s;
}

/* ---- holding a record ---- */

static const void *own(held *h, const void *bytes, size_t n)
{
    if (!bytes)
        return NULL;
    void *copy = cg_alloc(n ? n : 1);
    memcpy(copy, bytes, n);
    h->owned = cg_realloc(h->owned, (h->nowned + 1) * sizeof *h->owned);
    h->owned[h->nowned++] = copy;
    return copy;
}

static unsigned field_kind(const rec_func_desc *tf, unsigned field)
{
    if (field < tf->nargs)
        return tf->args[field].kind;
    return field == tf->nargs ? tf->ret_kind : REC_KIND_ERRNO;
}

/* A value's bytes copied: strings and arrays point into the cursor's block. */
static void own_value(held *h, rec_value *v, unsigned kind)
{
    rec_class cls = rec_kind_class(kind);
    if (cls == REC_CLASS_STR)
        v->ptr = own(h, v->ptr, v->len);
    else if (cls == REC_CLASS_ARRAY)
        v->ptr = own(h, v->ptr, v->encoded ? (size_t)v->i : (size_t)v->len * sizeof(int64_t));
}

static held *hold(const rec_func_desc *tf, const rec_record *r, const rec_merge_info *mi, uint64_t nth)
{
    held *h = cg_calloc(1, sizeof *h);
    h->r = *r;
    h->mi = *mi;
    h->tf = tf;
    h->layer = tf ? (int)tf->layer : -1;
    h->nth = nth;
    if (tf) {
        for (unsigned a = 0; a < tf->nargs && a < REC_MAX_ARGS; a++)
            own_value(h, &h->r.args[a], tf->args[a].kind);
        if (tf->ret_kind != REC_KIND_NONE)
            own_value(h, &h->r.ret, tf->ret_kind);
    }
    h->mi.ranges = own(h, mi->ranges, (size_t)mi->nranges * sizeof *mi->ranges);
    rec_variation *vars = (rec_variation *)own(h, mi->vars, (size_t)mi->nvars * sizeof *mi->vars);
    h->mi.vars = vars;
    for (uint32_t v = 0; v < mi->nvars; v++) {
        if (vars[v].relation == REC_REL_AFFINE || !vars[v].values)
            continue;
        rec_value *values = (rec_value *)own(h, vars[v].values, (size_t)mi->nranks * sizeof *values);
        vars[v].values = values;
        if (tf && vars[v].field <= tf->nargs + 1u)
            for (uint32_t k = 0; k < mi->nranks; k++)
                own_value(h, &values[k], field_kind(tf, vars[v].field));
    }
    h->pick = cg_calloc(mi->nranks ? mi->nranks : 1, 1);
    return h;
}

static void drop(held *h)
{
    for (size_t i = 0; i < h->nowned; i++)
        free(h->owned[i]);
    free(h->owned);
    free(h->pick);
    free(h);
}

static held *at(cg_layered *s, uint64_t seq)
{
    return s->queue[seq - s->first_seq];
}

/* ---- trees ---- */

static tree *tree_of(cg_layered *s, uint32_t thread, uint32_t rank)
{
    thread_trees *t = NULL;
    for (size_t i = 0; i < s->nthreads && !t; i++)
        if (s->threads[i].thread == thread)
            t = &s->threads[i];
    if (!t) {
        s->threads = cg_realloc(s->threads, (s->nthreads + 1) * sizeof *s->threads);
        t = &s->threads[s->nthreads++];
        *t = (thread_trees){.thread = thread};
    }
    if (rank >= t->nranks) {
        /* grows with the ranks met, never to the trace's claimed rank count */
        uint64_t n = t->nranks ? t->nranks : 64;
        while (n <= rank)
            n *= 2;
        if (n > (uint64_t)UINT32_MAX)
            n = (uint64_t)rank + 1;
        t->by_rank = cg_realloc(t->by_rank, (size_t)n * sizeof *t->by_rank);
        memset(t->by_rank + t->nranks, 0, (size_t)(n - t->nranks) * sizeof *t->by_rank);
        t->nranks = n;
    }
    return &t->by_rank[rank];
}

static int selected(const cg_layered *s, int layer)
{
    return layer < 0 || layer <= s->layer || layer == REC_LAYER_MPI;
}

/* A complete tree: each member's decision, from its ancestors'. */
static void process(cg_layered *s, tree *t)
{
    uint32_t n = t->n;
    if (n > s->scratch) {
        s->parent = cg_realloc(s->parent, (size_t)n * sizeof *s->parent);
        s->flags = cg_realloc(s->flags, n);
        s->scratch = n;
    }
    long last_at[256];
    for (int d = 0; d < 256; d++)
        last_at[d] = -1;
    /* from the end: a record's parent is the nearest later record one level up */
    for (uint32_t k = n; k-- > 0;) {
        unsigned d = at(s, t->m[k].seq)->r.depth;
        s->parent[k] = d > 0 ? last_at[d - 1] : -1;
        last_at[d] = (long)k;
    }
    /* flags: 1 emitted, 2 under an emitted ancestor */
    for (uint32_t k = n; k-- > 0;) {
        held *h = at(s, t->m[k].seq);
        long p = s->parent[k];
        /* A call nested in an emitted one of its own layer or below is an operator's, which the library
         * looked through ran (netCDF-4's H5Literate callbacks open objects): the kernel's operator is
         * a stand-in, so the kernel makes it. PnetCDF under PnetCDF is the library's own API. */
        int pl = p >= 0 ? at(s, t->m[p].seq)->layer : -1;
        int callback = p >= 0 && s->flags[p] == 1 && h->layer >= 0 && pl >= 0 && h->layer >= pl &&
                       !(h->layer == pl && pl == REC_LAYER_PNETCDF);
        int covered = p >= 0 && s->flags[p] != 0 && !callback;
        s->flags[k] = covered ? 2 : selected(s, h->layer) ? 1 : 0;
        h->pick[t->m[k].pos] = s->flags[k] == 1;
        h->unresolved--;
    }
    t->n = 0;
}

static void add_member(cg_layered *s, held *h, uint64_t seq, uint32_t rank, uint32_t pos)
{
    tree *t = tree_of(s, h->r.thread, rank);
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->m = cg_realloc(t->m, (size_t)t->cap * sizeof *t->m);
    }
    t->m[t->n++] = (member){seq, pos};
    h->unresolved++;
    if (h->r.depth == 0)
        process(s, t);
}

/* Hands on the records whose members are all decided, oldest first. */
static int drain(cg_layered *s, cg_take_fn take, void *ctx, rec_error *err)
{
    int rc = 0;
    while (s->head < s->n && s->queue[s->head]->unresolved == 0) {
        held *h = s->queue[s->head];
        if (rc == 0)
            rc = take(ctx, h->tf, &h->r, &h->mi, h->nth, h->pick, err);
        drop(h);
        s->queue[s->head++] = NULL;
    }
    if (s->head == s->n || s->head > s->cap / 2) { /* the handed-on slots are reused */
        memmove(s->queue, s->queue + s->head, (s->n - s->head) * sizeof *s->queue);
        s->first_seq += s->head;
        s->n -= s->head;
        s->head = 0;
    }
    return rc;
}

int cg_layered_push(cg_layered *s, const rec_func_desc *tf, const rec_record *r, const rec_merge_info *mi,
                    uint64_t nth, cg_take_fn take, void *ctx, rec_error *err)
{
    held *h = hold(tf, r, mi, nth);
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 256;
        s->queue = cg_realloc(s->queue, s->cap * sizeof *s->queue);
    }
    uint64_t seq = s->first_seq + s->n;
    s->queue[s->n++] = h;
    uint32_t pos = 0;
    for (uint32_t g = 0; g < mi->nranges; g++)
        for (uint32_t k = 0; k < mi->ranges[g].count && pos < mi->nranks; k++, pos++)
            add_member(s, h, seq,
                       mi->ranges[g].first + k * (mi->ranges[g].stride ? mi->ranges[g].stride : 1), pos);
    return drain(s, take, ctx, err);
}

int cg_layered_finish(cg_layered *s, cg_take_fn take, void *ctx, rec_error *err)
{
    /* trees left open at the end of the stream (a run cut short) are decided as they are */
    for (size_t i = 0; i < s->nthreads; i++)
        for (uint64_t rank = 0; rank < s->threads[i].nranks; rank++)
            if (s->threads[i].by_rank[rank].n)
                process(s, &s->threads[i].by_rank[rank]);
    return drain(s, take, ctx, err);
}

void cg_layered_free(cg_layered *s)
{
    if (!s)
        return;
    for (size_t k = s->head; k < s->n; k++)
        drop(s->queue[k]);
    free(s->queue);
    for (size_t i = 0; i < s->nthreads; i++) {
        for (uint64_t rank = 0; rank < s->threads[i].nranks; rank++)
            free(s->threads[i].by_rank[rank].m);
        free(s->threads[i].by_rank);
    }
    free(s->threads);
    free(s->parent);
    free(s->flags);
    free(s);
}
