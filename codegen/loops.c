/* loops.c: folding repeated runs of calls into nested loops.
 *
 * The calls form a sequence of nodes (a statement, or a loop already found).
 * For each period L = 1, 2, ..., runs of r >= 2 back-to-back repeats of the
 * same L shapes (function, rank set and argument structure) are candidates;
 * a candidate becomes a loop when every value in its body can be written in
 * terms of the rank and the counters (fit.c) and when the loop is smaller
 * than the calls it replaces. Handles must stay inside the iteration that
 * created them or come from before the loop. Periods are tried in rising
 * order and the scan repeats until nothing folds, so inner loops form first
 * and become the bodies of outer ones: loops nest as the trace nests. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_PERIOD = 256, LOOP_COST = 48 };

typedef struct folder {
    cg_model *m;
    cg_node **seq;
    uint32_t n;
    /* the candidate being checked */
    uint32_t r;        /* iterations */
    uint32_t *lo, *hi; /* each iteration's instances */
    uint32_t *owner;   /* instance - lo[0] -> the body statement that holds it */
    int64_t *scratch;  /* handle codes */
    size_t scratch_cap;
} folder;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xc2b2ae3d27d4eb4fULL;
}

static int field_class(unsigned kind, int *el_cls)
{
    *el_cls = CG_FIT_NUM;
    if (cg_is_categorical_kind(kind))
        return CG_FIT_CAT;
    switch (rec_kind_class(kind)) {
    case REC_CLASS_PATH:
    case REC_CLASS_STR:
        return CG_FIT_STR;
    case REC_CLASS_ARRAY:
        if (rec_kind_is_handle_array(kind))
            *el_cls = CG_FIT_CAT;
        return CG_FIT_ARR;
    default:
        return CG_FIT_NUM;
    }
}

/* A handle value as seen from iteration t: the same code in every
 * iteration means the same variable. -1: made in an earlier iteration. */
static int64_t handle_code(const folder *F, int64_t v, uint32_t t)
{
    if (v < CG_HOBJ_BASE || !F->r)
        return v;
    const cg_hobj *h = &F->m->hobjs[v - CG_HOBJ_BASE];
    if (h->creator >= F->lo[t])
        return ((int64_t)1 << 50) + ((int64_t)F->owner[h->creator - F->lo[0]] << 8) + h->field;
    return h->creator < F->lo[0] ? v : -1;
}

/* Fits every field of statement n under loops d; its cost, or -1. */
static long stmt_cost(folder *F, const cg_node *n, const cg_dims *d)
{
    const cg_model *m = F->m;
    const cg_inst *first = &m->insts[n->insts[0]];
    const rec_func_desc *f = first->f;
    uint32_t nr = first->nr, per_iter = F->r ? n->ninsts / F->r : n->ninsts;
    long cost = 16 + (long)strlen(f->name) + 5 * (long)d->n; /* nesting indents every line */
    const int64_t **rows = cg_alloc(n->ninsts * sizeof *rows);
    size_t need = (size_t)n->ninsts * nr;
    if (need > F->scratch_cap) {
        F->scratch_cap = need;
        F->scratch = cg_realloc(F->scratch, need * sizeof *F->scratch);
    }
    cg_fitctx x = {.m = F->m, .rs = &m->ranksets[first->rs], .dims = *d, .ninsts = n->ninsts, .vals = rows};
    for (unsigned field = 0; field < first->nf && cost >= 0; field++) {
        cg_role role = cg_field_role(f, field);
        unsigned kind = cg_field_kind(f, field);
        if (role == CG_ROLE_CREATE && F->r) {
            /* what an iteration creates must not be used after it */
            for (uint32_t u = 0; u < n->ninsts && cost >= 0; u++) {
                const int64_t *v = cg_inst_values(&m->insts[n->insts[u]], field);
                for (uint32_t k = 0; k < nr; k++)
                    if (v[k] >= CG_HOBJ_BASE && m->hobjs[v[k] - CG_HOBJ_BASE].last_use >= F->hi[u / per_iter])
                        cost = -1;
            }
            continue;
        }
        if (role != CG_ROLE_VALUE)
            continue;
        int el_cls, cls = field_class(kind, &el_cls), tables = 1;
        int handles = cg_is_handle_kind(kind) || el_cls == CG_FIT_CAT;
        for (uint32_t u = 0; u < n->ninsts && cost >= 0; u++) {
            const int64_t *v = cg_inst_values(&m->insts[n->insts[u]], field);
            if (!handles) {
                rows[u] = v;
                continue;
            }
            int64_t *codes = F->scratch + (size_t)u * nr;
            for (uint32_t k = 0; k < nr && cost >= 0; k++) {
                if (cls == CG_FIT_CAT) {
                    codes[k] = handle_code(F, v[k], u / per_iter);
                    tables &= rec_handle_is_predefined(codes[k]);
                    if (codes[k] == -1 && v[k] >= CG_HOBJ_BASE)
                        cost = -1;
                    continue;
                }
                uint32_t len;
                const int64_t *a = cg_arr(m, v[k], &len);
                int64_t *c = cg_alloc((len + 1) * sizeof *c);
                for (uint32_t e = 0; e < len; e++) {
                    c[e] = handle_code(F, a[e], u / per_iter);
                    if (c[e] == -1 && a[e] >= CG_HOBJ_BASE)
                        cost = -1;
                    tables &= rec_handle_is_predefined(c[e]);
                }
                codes[k] = cg_arr_id(F->m, c, len);
                free(c);
            }
            rows[u] = codes;
        }
        cg_fieldfit fit;
        if (cost >= 0 && cg_fit_values(&x, cls, el_cls, tables, &fit) == 0) {
            cost += (long)cg_fieldfit_cost(F->m, &fit) + 2;
            cg_fieldfit_free(&fit);
        } else {
            cost = -1;
        }
    }
    free(rows);
    return cost;
}

static long node_cost(folder *F, cg_node *n, cg_dims *d)
{
    if (!n->is_loop)
        return stmt_cost(F, n, d);
    if (d->n == CG_MAX_DEPTH)
        return -1;
    d->count[d->n++] = n->count;
    long cost = LOOP_COST;
    for (uint32_t b = 0; b < n->nbody && cost >= 0; b++) {
        long c = node_cost(F, n->body[b], d);
        cost = c < 0 ? -1 : cost + c;
    }
    d->n--;
    return cost;
}

static void node_free(cg_node *n)
{
    if (!n)
        return;
    for (uint32_t b = 0; b < n->nbody; b++)
        node_free(n->body[b]);
    free(n->body);
    free(n->insts);
    free(n);
}

/* The nodes its[0..r) (same shape) as one node of a loop body. */
static cg_node *merge(cg_node *const *its, uint32_t r)
{
    cg_node *n = cg_calloc(1, sizeof *n);
    n->is_loop = its[0]->is_loop;
    n->shape = its[0]->shape;
    n->lo = its[0]->lo;
    n->hi = its[r - 1]->hi;
    if (!n->is_loop) {
        for (uint32_t t = 0; t < r; t++)
            n->ninsts += its[t]->ninsts;
        n->insts = cg_alloc(n->ninsts * sizeof *n->insts);
        uint32_t at = 0;
        for (uint32_t t = 0; t < r; t++) {
            memcpy(n->insts + at, its[t]->insts, its[t]->ninsts * sizeof *n->insts);
            at += its[t]->ninsts;
        }
        return n;
    }
    n->count = its[0]->count;
    n->nbody = its[0]->nbody;
    n->body = cg_alloc(n->nbody * sizeof *n->body);
    cg_node **kids = cg_alloc(r * sizeof *kids);
    for (uint32_t b = 0; b < n->nbody; b++) {
        for (uint32_t t = 0; t < r; t++)
            kids[t] = its[t]->body[b];
        n->body[b] = merge(kids, r);
    }
    free(kids);
    return n;
}

/* Numbers the statements of a candidate body: handles are known by the
 * statement (and field) that made them, in whichever iteration. */
static void own(folder *F, const cg_node *n, uint32_t *next)
{
    if (n->is_loop) {
        for (uint32_t b = 0; b < n->nbody; b++)
            own(F, n->body[b], next);
        return;
    }
    uint32_t id = (*next)++;
    for (uint32_t u = 0; u < n->ninsts; u++)
        F->owner[n->insts[u] - F->lo[0]] = id;
}

/* The loop over seq[i .. i + r*L) with its cost, or NULL. */
static cg_node *candidate(folder *F, uint32_t i, uint32_t L, uint32_t r)
{
    F->r = r;
    F->lo = cg_alloc(r * sizeof *F->lo);
    F->hi = cg_alloc(r * sizeof *F->hi);
    for (uint32_t t = 0; t < r; t++) {
        F->lo[t] = F->seq[i + t * L]->lo;
        F->hi[t] = F->seq[i + t * L + L - 1]->hi;
    }
    cg_node *loop = cg_calloc(1, sizeof *loop);
    loop->is_loop = 1;
    loop->count = r;
    loop->nbody = L;
    loop->lo = F->lo[0];
    loop->hi = F->hi[r - 1];
    loop->body = cg_alloc(L * sizeof *loop->body);
    cg_node **its = cg_alloc(r * sizeof *its);
    for (uint32_t j = 0; j < L; j++) {
        for (uint32_t t = 0; t < r; t++)
            its[t] = F->seq[i + t * L + j];
        loop->body[j] = merge(its, r);
    }
    free(its);
    F->owner = cg_calloc(F->hi[r - 1] - F->lo[0] + 1, sizeof *F->owner);
    uint32_t next = 0;
    for (uint32_t j = 0; j < L; j++)
        own(F, loop->body[j], &next);
    cg_dims d = {.n = 1, .count = {r}};
    long cost = LOOP_COST;
    for (uint32_t j = 0; j < L && cost >= 0; j++) {
        long c = node_cost(F, loop->body[j], &d);
        cost = c < 0 ? -1 : cost + c;
    }
    free(F->lo);
    free(F->hi);
    free(F->owner);
    F->r = 0;
    if (cost < 0) {
        node_free(loop);
        return NULL;
    }
    uint64_t shape = mix(7, r);
    for (uint32_t j = 0; j < L; j++)
        shape = mix(shape, loop->body[j]->shape);
    loop->shape = shape;
    loop->cost = (size_t)cost;
    return loop;
}

static int same_run(const folder *F, uint32_t a, uint32_t b, uint32_t L)
{
    for (uint32_t j = 0; j < L; j++)
        if (F->seq[a + j]->shape != F->seq[b + j]->shape)
            return 0;
    return 1;
}

/* The repeats at i as an outer loop over groups of k (a step that writes k
 * variables): the inner loops first, then the loop over them. */
static cg_node *nested(folder *F, uint32_t i, uint32_t L, uint32_t r, uint32_t k)
{
    uint32_t outer = r / k, ok = 1;
    cg_node **inner = cg_calloc(outer, sizeof *inner);
    for (uint32_t t = 0; t < outer && ok; t++)
        ok = (inner[t] = candidate(F, i + t * k * L, L, k)) != NULL;
    cg_node *loop = NULL;
    if (ok) {
        cg_node **saved = F->seq;
        uint32_t saved_n = F->n;
        cg_node **view = cg_alloc((saved_n + 1) * sizeof *view);
        memcpy(view, saved, i * sizeof *view);
        memcpy(view + i, inner, outer * sizeof *view);
        memcpy(view + i + outer, saved + i + r * L, (saved_n - i - r * L) * sizeof *view);
        F->seq = view;
        F->n = saved_n - r * L + outer;
        loop = candidate(F, i, 1, outer);
        F->seq = saved;
        F->n = saved_n;
        free(view);
    }
    for (uint32_t t = 0; t < outer; t++)
        node_free(inner[t]);
    free(inner);
    return loop;
}

/* The largest r in [2, rmax] that makes a valid loop of the L nodes at i. */
static cg_node *flat(folder *F, uint32_t i, uint32_t L, uint32_t rmax, uint32_t *r)
{
    cg_node *loop = candidate(F, i, L, rmax);
    *r = rmax;
    if (loop || rmax == 2)
        return loop;
    if (!(loop = candidate(F, i, L, 2)))
        return NULL;
    uint32_t good = 2, bad = rmax;
    while (bad - good > 1) {
        uint32_t mid = good + (bad - good) / 2;
        cg_node *c = candidate(F, i, L, mid);
        if (c) {
            node_free(loop);
            loop = c;
            good = mid;
        } else {
            bad = mid;
        }
    }
    *r = good;
    return loop;
}

/* Folds at i if some r in [2, rmax] gives a valid loop (or loop of loops)
 * smaller than the calls it replaces. */
static int try_fold(folder *F, uint32_t i, uint32_t L, uint32_t rmax)
{
    uint32_t r;
    cg_node *loop = flat(F, i, L, rmax, &r);
    if (!loop)
        r = rmax;
    for (uint32_t k = 2; k <= 16 && 2 * k <= r; k++) {
        if (r % k)
            continue;
        cg_node *nest = nested(F, i, L, r, k);
        if (nest && (!loop || nest->cost < loop->cost)) {
            node_free(loop);
            loop = nest;
        } else {
            node_free(nest);
        }
    }
    if (!loop)
        return 0;
    size_t before = 0;
    for (uint32_t k = 0; k < r * L; k++)
        before += F->seq[i + k]->cost;
    /* elastic kernels fold whatever repeats: a run of 2 at one rank count is a loop of N at another */
    if (loop->cost >= before && !F->m->hints) {
        node_free(loop);
        return 0;
    }
    for (uint32_t k = 0; k < r * L; k++)
        node_free(F->seq[i + k]);
    F->seq[i] = loop;
    memmove(F->seq + i + 1, F->seq + i + r * L, (F->n - i - r * L) * sizeof *F->seq);
    F->n -= r * L - 1;
    return 1;
}

void cg_fold(cg_model *m, const cg_options *o, cg_tree *t)
{
    folder F = {.m = m};
    F.seq = cg_alloc((m->ninsts + 1) * sizeof *F.seq);
    cg_dims none = {0};
    for (uint32_t i = 0; i < m->ninsts; i++) {
        cg_node *n = cg_calloc(1, sizeof *n);
        n->insts = cg_alloc(sizeof *n->insts);
        n->insts[0] = i;
        n->ninsts = 1;
        n->lo = i;
        n->hi = i + 1;
        n->shape = cg_inst_shape(m, &m->insts[i], 1);
        long c = stmt_cost(&F, n, &none);
        n->cost = c < 0 ? 64 : (size_t)c;
        F.seq[F.n++] = n;
    }
    for (int changed = o->loops; changed;) {
        changed = 0;
        for (uint32_t L = 1; L <= MAX_PERIOD && 2 * L <= F.n; L++) {
            for (uint32_t i = 0; i + 2 * L <= F.n; i++) {
                if (!same_run(&F, i, i + L, L))
                    continue;
                uint32_t r = 2;
                while (i + (r + 1) * L <= F.n && same_run(&F, i, i + r * L, L))
                    r++;
                if (try_fold(&F, i, L, r))
                    changed = 1;
            }
            if (changed)
                break; /* shorter periods first again: the new loops may repeat */
        }
    }
    t->top = F.seq;
    t->ntop = F.n;
    t->nloops = 0;
    free(F.scratch);
}

static void count_loops(const cg_node *n, uint32_t *k)
{
    if (!n->is_loop)
        return;
    (*k)++;
    for (uint32_t b = 0; b < n->nbody; b++)
        count_loops(n->body[b], k);
}

uint32_t cg_tree_loops(const cg_tree *t)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < t->ntop; i++)
        count_loops(t->top[i], &k);
    return k;
}

void cg_tree_free(cg_tree *t)
{
    for (uint32_t i = 0; i < t->ntop; i++)
        node_free(t->top[i]);
    free(t->top);
    t->top = NULL;
    t->ntop = 0;
}
