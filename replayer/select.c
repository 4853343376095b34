/* select.c: which records a replay issues.
 *
 * Records arrive in exit order, so a call's children (the calls it made,
 * one level deeper) come just before it: the records of one thread since
 * its last depth-0 record form one call tree. A record is issued when its
 * layer is selected and no ancestor of it is issued (that ancestor makes
 * the call again). With the default, every layer is selected, so exactly
 * the top of each tree is issued. With --layers L, L and MPI are selected:
 * an H5Dwrite is not issued, but the POSIX (or MPI-IO) calls under it are,
 * and so is the MPI traffic that orders them across ranks. A record whose
 * layer is not below its parent's (HDF5 under HDF5, anything under POSIX)
 * is the application's own code called back from the library: it counts
 * as a tree of its own. The calls that order threads are issued at the top
 * of a tree whatever the layers (threads.c), never below it. */
#include "select.h"
#include "threads.h"

#include <stdlib.h>
#include <string.h>

typedef struct tree {
    uint32_t thread;
    rp_rec **recs;
    size_t n, cap;
} tree;

struct rp_select {
    int layers;
    tree *trees;
    size_t ntrees;
};

rp_select *rp_select_new(int layers)
{
    rp_select *s = calloc(1, sizeof *s);
    if (s)
        s->layers = layers;
    return s;
}

static int layer_of(const rp_rec *r)
{
    const rec_func_desc *f = rec_function_by_id(r->func);
    return f ? (int)f->layer : -1;
}

/* A layer this build cannot issue (PnetCDF or netCDF, where built without the library)
 * is looked through by default: the calls its calls made are the tree's top. */
static int issuable(int layer)
{
#ifndef RECORDER_HAVE_PNETCDF
    if (layer == REC_LAYER_PNETCDF)
        return 0;
#endif
#ifndef RECORDER_HAVE_NETCDF
    if (layer == REC_LAYER_NETCDF)
        return 0;
#endif
    (void)layer;
    return 1;
}

static int selected(const rp_select *s, int layer)
{
    return (s->layers == RP_LAYERS_TOP && issuable(layer)) || layer < 0 || layer == s->layers || layer == REC_LAYER_MPI;
}

static void process(rp_select *s, tree *t, rp_emit_fn emit, void *ctx)
{
    size_t n = t->n;
    long *parent = malloc(n * sizeof *parent);
    unsigned char *issued = calloc(n ? n : 1, 1), *covered = calloc(n ? n : 1, 1);
    long last_at[256];
    for (int d = 0; d < 256; d++)
        last_at[d] = -1;
    /* From the end: a record's parent is the nearest later record one level up. */
    for (size_t k = n; k-- > 0;) {
        unsigned d = t->recs[k]->depth;
        parent[k] = d > 0 ? last_at[d - 1] : -1;
        last_at[d] = (long)k;
    }
    /* the layer of a record's nearest issued ancestor (-1: none) */
    int *above = malloc((n ? n : 1) * sizeof *above);
    for (size_t k = n; k-- > 0;) {
        long p = parent[k];
        int layer = layer_of(t->recs[k]);
        /* PnetCDF under PnetCDF is the library calling its own API (tracer/rt.h) */
        int pl = p < 0 ? -1 : layer_of(t->recs[p]);
        above[k] = p < 0 ? -1 : issued[p] ? pl : above[p];
        /* HDF5 under HDF5 inside an issued netCDF call: netCDF-4's own iteration operator, which
         * that call runs again; inside a netCDF call looked through, one the replay makes itself */
        int callback_of_library_above = above[k] > layer;
        int root = p < 0 || layer < 0 || pl < 0 ||
                   (layer >= pl && !(layer == pl && layer == REC_LAYER_PNETCDF) && !callback_of_library_above) ||
                   pl == REC_LAYER_POSIX;
        covered[k] = !root && (covered[p] || issued[p]);
        /* what orders threads (pthread_create, _join, barriers) is the program's at the top, a library's below */
        if (rp_func_orders_threads(rec_function_by_id(t->recs[k]->func)))
            issued[k] = t->recs[k]->depth == 0;
        else
            issued[k] = selected(s, layer) && !covered[k];
    }
    for (size_t k = 0; k < n; k++) {
        int action = issued[k] ? RP_ISSUE : covered[k] ? RP_COVERED : RP_OUTSIDE;
        emit(ctx, t->recs[k], action);
        free(t->recs[k]);
    }
    t->n = 0;
    free(above);
    free(parent);
    free(issued);
    free(covered);
}

void rp_select_push(rp_select *s, rp_rec *r, rp_emit_fn emit, void *ctx)
{
    tree *t = NULL;
    for (size_t i = 0; i < s->ntrees; i++)
        if (s->trees[i].thread == r->thread)
            t = &s->trees[i];
    if (!t) {
        tree *grown = realloc(s->trees, (s->ntrees + 1) * sizeof *grown);
        if (!grown)
            abort();
        s->trees = grown;
        t = &s->trees[s->ntrees++];
        memset(t, 0, sizeof *t);
        t->thread = r->thread;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        rp_rec **recs = realloc(t->recs, cap * sizeof *recs);
        if (!recs)
            abort();
        t->recs = recs;
        t->cap = cap;
    }
    t->recs[t->n++] = r;
    if (r->depth == 0)
        process(s, t, emit, ctx);
}

void rp_select_flush(rp_select *s, rp_emit_fn emit, void *ctx)
{
    for (size_t i = 0; i < s->ntrees; i++)
        if (s->trees[i].n)
            process(s, &s->trees[i], emit, ctx);
}

void rp_select_free(rp_select *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->ntrees; i++)
        free(s->trees[i].recs);
    free(s->trees);
    free(s);
}
