/* fit.c: how a field's values depend on the rank and the loop counters.
 *
 * A statement inside loops stands for one call per combination of the
 * counters, each on a set of ranks. Its numeric values must split into a
 * counter part and a rank part, value(t, rank) = A(t) + G(rank):
 *  - A is affine in the counters (c + s1*i + s2*j), or affine but for one
 *    counter taken modulo m, or a table over one counter;
 *  - G is, in this order: nothing, affine in the rank, affine in rank / q
 *    or rank % q (groups of ranks), affine in the grid coordinates of the
 *    rank over an MPI_Dims_create grid (block decompositions), affine in the
 *    rank but for an offset that differs on a structured set of ranks, else
 *    a table indexed by the rank or a choice between a few values
 *    (rank == r ? ...).
 * Categorical values (strings, constants, handles) are equal everywhere,
 * chosen by the rank, or taken from a table over one counter. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>

/* Counter d's value in the flattened instance index t. */
static uint32_t ctr(const cg_dims *d, uint32_t t, unsigned dim)
{
    uint32_t stride = 1;
    for (unsigned e = d->n; e-- > dim + 1;)
        stride *= d->count[e];
    return (t / stride) % d->count[dim];
}

static uint32_t stride_of(const cg_dims *d, unsigned dim)
{
    uint32_t stride = 1;
    for (unsigned e = d->n; e-- > dim + 1;)
        stride *= d->count[e];
    return stride;
}

/* ---- MPI_Dims_create ---- */

static void best_split(int n, int ndims, int maxf, int *cur, int depth, int *best, int *found)
{
    if (depth == ndims - 1) {
        if (n > maxf)
            return;
        cur[depth] = n;
        int better = !*found;
        for (int d = 0; d < ndims && !better; d++) {
            if (cur[d] != best[d]) {
                better = cur[d] < best[d];
                break;
            }
        }
        if (better) {
            memcpy(best, cur, (size_t)ndims * sizeof *cur);
            *found = 1;
        }
        return;
    }
    for (int f = maxf < n ? maxf : n; f >= 1; f--) {
        if (n % f)
            continue;
        cur[depth] = f;
        best_split(n / f, ndims, f, cur, depth + 1, best, found);
    }
}

/* The most balanced non-increasing factorization (the lexicographically
 * smallest), which is what MPI_Dims_create returns. */
void cg_dims_create(int n, int ndims, int *dims)
{
    int cur[8], found = 0;
    for (int d = 0; d < ndims; d++)
        dims[d] = 1;
    if (n < 1 || ndims < 1 || ndims > 8)
        return;
    best_split(n, ndims, n, cur, 0, dims, &found);
}

/* ---- the counter part ---- */

typedef struct apart {
    int64_t c, s[CG_MAX_DEPTH];
    int mod_dim, table_dim; /* -1: none */
    int64_t mod, mod_coef;
    int64_t *tab; /* table_dim's values, relative to c */
} apart;

static int fit_counters(const cg_dims *d, uint32_t n, const int64_t *A, apart *p)
{
    memset(p, 0, sizeof *p);
    p->mod_dim = p->table_dim = -1;
    p->c = A[0];
    for (unsigned e = 0; e < d->n; e++)
        p->s[e] = d->count[e] > 1 ? A[stride_of(d, e)] - p->c : 0;
    int ok = 1;
    for (uint32_t t = 0; t < n && ok; t++) {
        int64_t want = p->c;
        for (unsigned e = 0; e < d->n; e++)
            want += p->s[e] * ctr(d, t, e);
        ok = want == A[t];
    }
    if (ok)
        return 0;
    /* One counter modulo m (cyclic placement: dir.<i % 4>), the rest affine. */
    for (unsigned e = 0; e < d->n; e++) {
        for (int64_t mod = 2; mod + 1 < d->count[e]; mod++) {
            ok = 1;
            for (uint32_t t = 0; t < n && ok; t++) {
                int64_t want = p->c + p->s[e] * (ctr(d, t, e) % mod);
                for (unsigned g = 0; g < d->n; g++)
                    if (g != e)
                        want += p->s[g] * ctr(d, t, g);
                ok = want == A[t];
            }
            if (ok) {
                p->mod_dim = (int)e;
                p->mod = mod;
                p->mod_coef = p->s[e];
                p->s[e] = 0;
                return 0;
            }
        }
    }
    /* A table over one counter, the rest affine. */
    for (unsigned e = 0; e < d->n; e++) {
        uint32_t st = stride_of(d, e);
        ok = 1;
        for (uint32_t t = 0; t < n && ok; t++) {
            int64_t want = A[ctr(d, t, e) * st];
            for (unsigned g = 0; g < d->n; g++)
                if (g != e)
                    want += p->s[g] * ctr(d, t, g);
            ok = want == A[t];
        }
        if (ok) {
            p->table_dim = (int)e;
            p->s[e] = 0;
            p->tab = cg_alloc(d->count[e] * sizeof *p->tab);
            for (uint32_t u = 0; u < d->count[e]; u++)
                p->tab[u] = A[u * st] - p->c;
            return 0;
        }
    }
    return -1;
}

/* ---- the rank part ---- */

static void add_term(cg_num *o, uint8_t kind, uint8_t arg, int64_t div, int64_t coef)
{
    if (coef && o->nterms < sizeof o->terms / sizeof o->terms[0])
        o->terms[o->nterms++] = (cg_term){kind, arg, 0, div, coef};
}

/* G over a rank function g(rank): coefficient a with G[k] = a * (g(r_k) - g(r_0)). */
static int fit_scaled(const cg_rankset *rs, const int64_t *G, int64_t (*g)(int64_t, int64_t), int64_t q,
                      int64_t *a)
{
    int64_t g0 = g(rs->ranks[0], q);
    uint32_t k = 1;
    while (k < rs->n && g(rs->ranks[k], q) == g0)
        k++;
    if (k == rs->n)
        return -1;
    int64_t diff = g(rs->ranks[k], q) - g0;
    if (G[k] % diff)
        return -1;
    *a = G[k] / diff;
    for (k = 0; k < rs->n; k++)
        if (G[k] != *a * (g(rs->ranks[k], q) - g0))
            return -1;
    return 0;
}

static int64_t g_rank(int64_t r, int64_t q)
{
    (void)q;
    return r;
}

static int64_t g_div(int64_t r, int64_t q)
{
    return r / q;
}

static int64_t g_mod(int64_t r, int64_t q)
{
    return r % q;
}

static void coords_of(int64_t rank, int nd, const int *dims, int64_t *c)
{
    for (int d = nd - 1; d >= 0; d--) {
        c[d] = rank % dims[d];
        rank /= dims[d];
    }
}

static int fit_grid(const cg_model *m, const cg_rankset *rs, const int64_t *G, int only_nd, cg_num *o)
{
    if (rs->n != m->nranks || m->nranks < 2)
        return -1;
    for (int nd = only_nd ? only_nd : 2; nd <= (only_nd ? only_nd : 3); nd++) {
        int dims[3];
        cg_dims_create((int)m->nranks, nd, dims);
        int nontrivial = 0;
        int64_t coef[3] = {0, 0, 0}, stride = 1;
        for (int d = nd - 1; d >= 0; d--) {
            if (dims[d] > 1) {
                coef[d] = G[stride];
                nontrivial++;
            }
            stride *= dims[d];
        }
        if (nontrivial < (only_nd ? 1 : 2))
            continue;
        int ok = 1;
        for (uint32_t r = 0; r < m->nranks && ok; r++) {
            int64_t c[3];
            coords_of(r, nd, dims, c);
            ok = G[r] == coef[0] * c[0] + coef[1] * c[1] + (nd == 3 ? coef[2] * c[2] : 0);
        }
        if (!ok)
            continue;
        o->grid_ndims = (uint8_t)nd;
        memcpy(o->grid_dims, dims, sizeof dims);
        for (int d = 0; d < nd; d++)
            add_term(o, CG_T_COORD, (uint8_t)d, 0, coef[d]);
        return 0;
    }
    return -1;
}

static int digits(int64_t v)
{
    int n = v < 0 ? 2 : 1;
    for (uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v; u >= 10; u /= 10)
        n++;
    return n;
}

/* Rough source bytes of a choice between values by rank, and of a table. */
static size_t choice_cost(const cg_rankset *rs, const int64_t *v)
{
    size_t cost = 0;
    uint32_t distinct = 0;
    for (uint32_t k = 0; k < rs->n; k++) {
        uint32_t j = 0;
        while (j < k && v[j] != v[k])
            j++;
        if (j == k) {
            distinct++;
            cost += (size_t)digits(v[k]) + 16;
        }
    }
    return distinct > 2 ? (size_t)-1 / 2 : cost; /* chained choices are tables */
}

static size_t table_cost(const cg_model *m, const int64_t *v, uint32_t n)
{
    size_t cost = 48;
    for (uint32_t k = 0; k < n; k++)
        cost += (size_t)digits(v[k]) + 2;
    return cost + (m->nranks > n ? 3 * (m->nranks - n) : 0);
}

/* ---- rank sets as progressions ---- */

/* Two indexes make a progression only when they are all there is: 0, 5,
 * 6, 7 is {0} and {5, 6, 7}, not {0, 5} and {6, 7}, and 1, 4, 9 three
 * single indexes. */
uint32_t cg_progressions(const uint32_t *r, uint32_t n, cg_progression *out)
{
    uint32_t np = 0;
    for (uint32_t i = 0; i < n;) {
        if (i + 1 == n) {
            out[np++] = (cg_progression){r[i], 1, 1};
            break;
        }
        uint32_t step = r[i + 1] - r[i], k = i + 1;
        while (k + 1 < n && r[k + 1] - r[k] == step)
            k++;
        if (k == i + 1 && n > 2) {
            out[np++] = (cg_progression){r[i], 1, 1};
            i++;
            continue;
        }
        out[np++] = (cg_progression){r[i], step, k - i + 1};
        i = k + 1;
    }
    return np;
}

uint32_t cg_condition_pieces(const uint32_t *r, uint32_t n, uint32_t total)
{
    cg_progression *p = cg_alloc((n > total - n ? n : total - n) * sizeof *p + sizeof *p);
    uint32_t own = cg_progressions(r, n, p), rest = own;
    if (own > 1 && total > n && total - n <= (1u << 24)) {
        uint32_t *left = cg_alloc((total - n) * sizeof *left), q = 0;
        for (uint32_t v = 0, k = 0; v < total; v++) {
            if (k < n && r[k] == v)
                k++;
            else
                left[q++] = v;
        }
        rest = cg_progressions(left, q, p);
        free(left);
    }
    free(p);
    return own < rest ? own : rest;
}

/* The start of each rank's block when the first m ranks hold one item more
 * than the rest (N items over P ranks: N / P each, and the N % P first one
 * more): over consecutive ranks the steps are one value up to rank m, then
 * another. Written v2 * rank + (v1 - v2) * min(rank, m) + c, not a table. */
static int fit_block_starts(const cg_rankset *rs, const int64_t *G, cg_num *o)
{
    uint32_t n = rs->n;
    if (n < 3 || rs->ranks[n - 1] - rs->ranks[0] != n - 1)
        return -1; /* consecutive ranks only */
    int64_t v1 = G[1] - G[0], v2 = 0;
    uint32_t k1 = 1;
    while (k1 + 1 < n && G[k1 + 1] - G[k1] == v1)
        k1++;
    if (k1 + 1 == n)
        return -1; /* one step throughout: affine */
    v2 = G[k1 + 1] - G[k1];
    /* that shape only: s bytes an item, q s to the step of the later ranks,
     * (q + 1) s before; four values with two slopes fit anything else */
    if (v2 <= 0 || v1 <= v2 || v2 % (v1 - v2) != 0)
        return -1;
    for (uint32_t k = k1 + 1; k + 1 < n; k++)
        if (G[k + 1] - G[k] != v2)
            return -1;
    int64_t r0 = rs->ranks[0], m = r0 + (int64_t)k1;
    add_term(o, CG_T_RANK, 0, 0, v2);
    add_term(o, CG_T_RANKMIN, 0, m, v1 - v2);
    o->c += G[0] - v2 * r0 - (v1 - v2) * r0;
    return 0;
}

/* Affine in the rank but for an offset that takes another value on some
 * ranks (the every 16th rank whose offsets lag by one call): the rank's term
 * plus a choice between the two offsets, when the ranks of the rarer one
 * form a short condition, instead of a table as long as the ranks. */
static int fit_affine_offsets(const cg_fitctx *x, const int64_t *G, int64_t base, cg_num *o)
{
    const cg_rankset *rs = x->rs;
    uint32_t n = rs->n;
    if (n < 8)
        return -1; /* a few ranks: their table reads better */
    int64_t *v = cg_alloc(n * sizeof *v);
    uint32_t ns = 0;
    for (uint32_t k = 0; k + 1 < n; k++) { /* the slopes between neighbours */
        int64_t dr = (int64_t)rs->ranks[k + 1] - rs->ranks[k], dv = G[k + 1] - G[k];
        if (dv % dr == 0)
            v[ns++] = dv / dr;
    }
    int64_t a = 0;
    uint32_t votes = 0;
    for (uint32_t k = 0; k < ns && votes <= ns / 2; k++) { /* the slope most of them share */
        uint32_t c = 0;
        for (uint32_t j = 0; j < ns; j++)
            c += v[j] == v[k];
        if (c > votes)
            votes = c, a = v[k];
    }
    int64_t off[2] = {0, 0};
    uint32_t noff = 0, rare = 0;
    int ok = a != 0 && votes > ns / 2;
    for (uint32_t k = 0; k < n && ok; k++) {
        v[k] = base + G[k] - a * (int64_t)rs->ranks[k];
        if (noff == 0 || (v[k] != off[0] && noff == 1))
            off[noff++] = v[k];
        else if (v[k] != off[0] && v[k] != off[1])
            ok = 0;
    }
    if (ok && noff == 2) {
        uint32_t *ranks = cg_alloc(n * sizeof *ranks);
        for (uint32_t k = 0; k < n; k++)
            if (v[k] == off[1])
                ranks[rare++] = rs->ranks[k];
        if (2 * rare > n) { /* the condition names the rarer offset's ranks */
            rare = 0;
            for (uint32_t k = 0; k < n; k++)
                if (v[k] == off[0])
                    ranks[rare++] = rs->ranks[k];
        }
        ok = 24 * (size_t)cg_condition_pieces(ranks, rare, x->m->nranks) < table_cost(x->m, v, n) / 4;
        free(ranks);
    }
    if (!ok || noff != 2) {
        free(v);
        return -1;
    }
    o->c = 0;
    add_term(o, CG_T_RANK, 0, 0, a);
    o->ternary = 1;
    o->ntab = x->m->nranks;
    o->tab = cg_calloc(x->m->nranks, sizeof *o->tab);
    for (uint32_t r = 0; r < x->m->nranks; r++)
        o->tab[r] = v[0]; /* ranks outside the set: any value */
    for (uint32_t k = 0; k < n; k++)
        o->tab[rs->ranks[k]] = v[k];
    free(v);
    return 0;
}

/* ---- elastic hints: the largest run's forms, followed by the others ---- */

const cg_hint *cg_hint_find(const cg_model *m, uint32_t sub)
{
    if (!m->hints || !m->hint_on || m->hints->recording)
        return NULL;
    for (size_t i = 0; i < m->hints->n; i++) {
        const cg_hint *h = &m->hints->v[i];
        if (h->stmt == m->hint_stmt && h->field == m->hint_field && h->sub == sub)
            return h;
    }
    return NULL;
}

static void record_hint(cg_model *m, const cg_num *o)
{
    if (!m->hints || !m->hint_on || !m->hints->recording)
        return;
    cg_hint h = {m->hint_stmt, m->hint_field, m->hint_sub, 255, 0, 0, 0};
    for (unsigned i = 0; i < o->nterms && !o->table && !o->ternary; i++)
        if (o->terms[i].kind == CG_T_COORD)
            h.coords |= (uint8_t)(1u << o->terms[i].arg);
    for (unsigned i = 0; i < o->nterms && !o->table && !o->ternary; i++) {
        const cg_term *t = &o->terms[i];
        if (t->kind == CG_T_RANK || t->kind == CG_T_RANKDIV || t->kind == CG_T_RANKMOD || t->kind == CG_T_COORD) {
            h.kind = t->kind;
            h.div = t->div;
            h.nd = o->grid_ndims;
            break;
        }
    }
    cg_hint_put(m, &h);
}

void cg_hint_put(cg_model *m, const cg_hint *hint)
{
    rec_codegen_hints *hs = m->hints;
    if (!hs || !m->hint_on || !hs->recording)
        return;
    cg_hint h = *hint;
    size_t i = 0;
    while (i < hs->n && !(hs->v[i].stmt == h.stmt && hs->v[i].field == h.field && hs->v[i].sub == h.sub))
        i++;
    if (i == hs->n) {
        if (hs->n == hs->cap) {
            hs->cap = hs->cap ? 2 * hs->cap : 64;
            cg_hint *v = realloc(hs->v, hs->cap * sizeof *v);
            if (!v)
                abort();
            hs->v = v;
        }
        hs->n++;
    }
    hs->v[i] = h;
}

static void add_unknown(cg_num *o, uint8_t kind, uint8_t arg, int64_t div, int64_t coef, uint8_t unknown)
{
    if (o->nterms < sizeof o->terms / sizeof o->terms[0])
        o->terms[o->nterms++] =
            (cg_term){kind, arg, unknown, unknown & CG_UNKNOWN_DIV ? 1 : div, unknown & CG_UNKNOWN_COEF ? 1 : coef};
}

/* The grid of nd dimensions whatever its shape at this rank count: the
 * coefficients of dimensions of extent 1 cannot be told. */
static int fit_grid_forced(const cg_model *m, const cg_rankset *rs, const int64_t *G, int nd, unsigned with, cg_num *o)
{
    if (rs->n != m->nranks || rs->ranks[0] != 0 || nd < 2 || nd > 3)
        return -1;
    int dims[3] = {1, 1, 1};
    cg_dims_create((int)m->nranks, nd, dims);
    int64_t coef[3] = {0, 0, 0}, stride = 1;
    for (int d = nd - 1; d >= 0; d--) {
        if (dims[d] > 1)
            coef[d] = G[stride];
        stride *= dims[d];
    }
    for (uint32_t r = 0; r < m->nranks; r++) {
        int64_t c[3] = {0, 0, 0};
        coords_of(r, nd, dims, c);
        if (G[r] != coef[0] * c[0] + coef[1] * c[1] + coef[2] * c[2])
            return -1;
    }
    o->grid_ndims = (uint8_t)nd;
    memcpy(o->grid_dims, dims, sizeof dims);
    for (int d = 0; d < nd; d++)
        if (!(with & (1u << d)) && coef[d])
            return -1;
    for (int d = 0; d < nd; d++)
        if (with & (1u << d))
            add_unknown(o, CG_T_COORD, (uint8_t)d, 0, coef[d], dims[d] > 1 ? 0 : CG_UNKNOWN_COEF);
    return 0;
}

/* The rank part in the form the largest run found (h): 0, or -1 when the
 * values do not have it. Every term of the form is kept, its coefficient 0
 * or unknown if need be, so that the kernels agree token for token. */
static int fit_hinted(const cg_fitctx *x, const int64_t *G, const cg_hint *h, cg_num *o)
{
    const cg_rankset *rs = x->rs;
    int64_t a, r0 = rs->ranks[0], n = x->m->nranks;
    int any = 0;
    for (uint32_t k = 0; k < rs->n; k++)
        any |= G[k] != 0;
    switch (h->kind) {
    case CG_T_RANK:
        if (rs->n == 1) {
            add_unknown(o, CG_T_RANK, 0, 0, 1, CG_UNKNOWN_COEF);
            o->c_unknown = r0 != 0;
            return 0;
        }
        if (fit_scaled(rs, G, g_rank, 1, &a) != 0)
            return -1;
        add_unknown(o, CG_T_RANK, 0, 0, a, 0);
        o->c -= a * r0;
        return 0;
    case CG_T_RANKDIV:
    case CG_T_RANKMOD:
        if (!any) { /* one group, or one rank: nothing to tell */
            add_unknown(o, h->kind, 0, 0, 1, CG_UNKNOWN_COEF | CG_UNKNOWN_DIV);
            o->c_unknown = r0 != 0;
            return 0;
        }
        for (int64_t q = 2; q < n; q++) {
            if (fit_scaled(rs, G, h->kind == CG_T_RANKDIV ? g_div : g_mod, q, &a) == 0) {
                add_unknown(o, h->kind, 0, q, a, 0);
                o->terms[o->nterms - 1].coef = a;
                o->c -= a * (h->kind == CG_T_RANKDIV ? r0 / q : r0 % q);
                return 0;
            }
        }
        if (h->kind == CG_T_RANKMOD && fit_scaled(rs, G, g_rank, 1, &a) == 0) {
            add_unknown(o, CG_T_RANKMOD, 0, 0, a, CG_UNKNOWN_DIV); /* rank % q, q beyond every rank */
            o->terms[o->nterms - 1].coef = a;
            o->c -= a * r0;
            return 0;
        }
        return -1;
    case CG_T_COORD:
        return fit_grid_forced(x->m, rs, G, h->nd, h->coords, o);
    default:
        return -1;
    }
}

/* Whether member k is the first of the set outside the first member's block
 * of q ranks. */
static int new_block_at(const cg_rankset *rs, uint32_t k, int64_t q)
{
    int64_t r0 = rs->ranks[0] / q;
    return (int64_t)rs->ranks[k - 1] / q == r0 && (int64_t)rs->ranks[k] / q != r0;
}

static void fit_ranks(const cg_fitctx *x, const int64_t *G, int64_t base, cg_num *o)
{
    const cg_rankset *rs = x->rs;
    int any = 0;
    for (uint32_t k = 0; k < rs->n; k++)
        any |= G[k] != 0;
    int64_t a, r0 = rs->ranks[0];
    o->c = base;
    const cg_hint *h = cg_hint_find(x->m, x->m->hint_sub);
    if (h && h->kind != 255) {
        cg_num saved = *o;
        if (fit_hinted(x, G, h, o) == 0)
            return;
        *o = saved;
    }
    if (!any)
        return;
    if (fit_scaled(rs, G, g_rank, 1, &a) == 0) {
        add_term(o, CG_T_RANK, 0, 0, a);
        o->c -= a * r0;
        return;
    }
    /* an element of a block decomposition: the grid, when the caller says so */
    if (x->grid_nd && r0 == 0 && fit_grid(x->m, rs, G, x->grid_nd, o) == 0)
        return;
    /* Past the set's largest rank, rank / q is 0 and rank % q is the rank
     * for every member, which fit nothing the rank did not: the divisors
     * tried end there, not at the trace's rank count, which a trace over a
     * few ranks may claim in millions */
    int64_t q_end = 0;
    for (uint32_t k = 0; k < rs->n; k++)
        if ((int64_t)rs->ranks[k] + 1 > q_end)
            q_end = (int64_t)rs->ranks[k] + 1;
    if (q_end > (int64_t)x->m->nranks)
        q_end = x->m->nranks;
    /* A divisor that fits must start a new block of ranks exactly where the
     * values first change (rank / q), or first leave their initial slope
     * (rank % q): testing that first keeps the search linear in the ranks,
     * not quadratic. */
    uint32_t k_div = 1, k_mod = 1;
    while (k_div < rs->n && G[k_div] == G[0])
        k_div++;
    int64_t d1 = rs->n > 1 ? (int64_t)rs->ranks[1] - r0 : 1;
    if (rs->n > 1 && G[1] % d1 == 0) {
        int64_t a1 = G[1] / d1;
        while (k_mod < rs->n && G[k_mod] == a1 * ((int64_t)rs->ranks[k_mod] - r0))
            k_mod++;
    }
    for (int64_t q = 2; q < q_end; q++) {
        if (k_div < rs->n && !new_block_at(rs, k_div, q))
            continue;
        if (fit_scaled(rs, G, g_div, q, &a) == 0) {
            add_term(o, CG_T_RANKDIV, 0, q, a);
            o->c -= a * (r0 / q);
            return;
        }
    }
    for (int64_t q = 2; q < q_end; q++) {
        if (k_mod < rs->n && !new_block_at(rs, k_mod, q))
            continue;
        if (fit_scaled(rs, G, g_mod, q, &a) == 0) {
            add_term(o, CG_T_RANKMOD, 0, q, a);
            o->c -= a * (r0 % q);
            return;
        }
    }
    if (r0 == 0 && fit_grid(x->m, rs, G, 0, o) == 0)
        return;
    if (!x->m->hints && fit_block_starts(rs, G, o) == 0) /* elastic kernels: no such term */
        return;
    if (!x->m->hints && fit_affine_offsets(x, G, base, o) == 0) /* elastic kernels model no choices */
        return;
    /* No relation: the values themselves, by rank. */
    int64_t *abs = cg_alloc(rs->n * sizeof *abs);
    for (uint32_t k = 0; k < rs->n; k++)
        abs[k] = base + G[k];
    o->ternary = choice_cost(rs, abs) <= table_cost(x->m, abs, rs->n);
    o->table = o->ternary ? CG_TAB_NONE : CG_TAB_RANK;
    o->ntab = x->m->nranks;
    o->tab = cg_calloc(x->m->nranks, sizeof *o->tab);
    for (uint32_t r = 0; r < x->m->nranks; r++)
        o->tab[r] = abs[0]; /* ranks outside the set: any value */
    for (uint32_t k = 0; k < rs->n; k++)
        o->tab[rs->ranks[k]] = abs[k];
    o->c = 0;
    free(abs);
}

int cg_fit_num(const cg_fitctx *x, cg_num *o)
{
    memset(o, 0, sizeof *o);
    uint32_t nr = x->rs->n;
    int64_t *G = cg_alloc(nr * sizeof *G), *A = cg_alloc(x->ninsts * sizeof *A);
    int rc = 0;
    for (uint32_t k = 0; k < nr; k++)
        G[k] = (int64_t)((uint64_t)x->vals[0][k] - (uint64_t)x->vals[0][0]);
    for (uint32_t t = 0; t < x->ninsts && rc == 0; t++) {
        A[t] = x->vals[t][0];
        for (uint32_t k = 0; k < nr && rc == 0; k++)
            if ((int64_t)((uint64_t)x->vals[t][k] - (uint64_t)x->vals[t][0]) != G[k])
                rc = -1; /* the rank part changes from iteration to iteration */
    }
    apart p;
    if (rc == 0)
        rc = fit_counters(&x->dims, x->ninsts, A, &p);
    if (rc == 0 && p.table_dim >= 0 && x->m->hints) {
        free(p.tab); /* elastic: a table of numbers by iteration would be one per rank count */
        rc = -1;
    }
    if (rc == 0) {
        fit_ranks(x, G, p.c, o);
        if (p.table_dim >= 0 && (o->table || o->ternary)) {
            rc = -1; /* two tables: not expressible */
        } else if (p.table_dim >= 0) {
            o->table = CG_TAB_CTR;
            o->table_ctr = (uint8_t)p.table_dim;
            o->ntab = x->dims.count[p.table_dim];
            o->tab = p.tab;
            for (uint32_t u = 0; u < o->ntab; u++)
                o->tab[u] += o->c;
            o->c = 0;
            p.tab = NULL;
        }
        for (unsigned e = 0; e < x->dims.n && rc == 0; e++)
            add_term(o, CG_T_CTR, (uint8_t)e, 0, p.s[e]);
        if (p.mod_dim >= 0)
            add_term(o, CG_T_CTRMOD, (uint8_t)p.mod_dim, p.mod, p.mod_coef);
        free(p.tab);
    }
    if (rc == 0)
        record_hint(x->m, o);
    if (rc)
        cg_num_free(o);
    free(G);
    free(A);
    return rc;
}

void cg_num_free(cg_num *n)
{
    free(n->tab);
    n->tab = NULL;
}

int64_t cg_num_max(const cg_num *n, const cg_model *m, const cg_dims *d)
{
    uint64_t bound = n->c < 0 ? -(uint64_t)n->c : (uint64_t)n->c;
    for (unsigned i = 0; i < n->nterms; i++) {
        const cg_term *t = &n->terms[i];
        uint64_t range = t->kind == CG_T_RANK      ? m->nranks
                         : t->kind == CG_T_RANKMIN ? (uint64_t)t->div
                         : t->kind == CG_T_RANKDIV ? m->nranks / (uint64_t)t->div
                         : t->kind == CG_T_CTR     ? d->count[t->arg]
                         : t->kind == CG_T_COORD   ? (uint64_t)n->grid_dims[t->arg]
                                                   : (uint64_t)t->div;
        uint64_t coef = t->coef < 0 ? -(uint64_t)t->coef : (uint64_t)t->coef;
        bound += coef * range;
    }
    for (uint32_t i = 0; i < n->ntab && n->tab; i++) {
        uint64_t v = n->tab[i] < 0 ? -(uint64_t)n->tab[i] : (uint64_t)n->tab[i];
        if (v > bound / 2)
            bound += v;
    }
    return bound > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)bound;
}

/* ---- categorical values ---- */

int cg_fit_cat(const cg_fitctx *x, int allow_tables, cg_cat *o)
{
    memset(o, 0, sizeof *o);
    uint32_t nr = x->rs->n;
    int same = 1, rank_only = 1;
    for (uint32_t t = 0; t < x->ninsts; t++)
        for (uint32_t k = 0; k < nr; k++) {
            same &= x->vals[t][k] == x->vals[0][0];
            rank_only &= x->vals[t][k] == x->vals[0][k];
        }
    if (same) {
        o->mode = CG_CAT_CONST;
        o->value = x->vals[0][0];
        return 0;
    }
    if (rank_only) {
        uint32_t distinct = 0;
        for (uint32_t k = 0; k < nr; k++) {
            uint32_t j = 0;
            while (j < k && x->vals[0][j] != x->vals[0][k])
                j++;
            distinct += j == k;
        }
        o->ntab = x->m->nranks;
        o->tab = cg_alloc(o->ntab * sizeof *o->tab);
        o->none = x->vals[0][0];
        for (uint32_t r = 0; r < o->ntab; r++)
            o->tab[r] = o->none;
        for (uint32_t k = 0; k < nr; k++)
            o->tab[x->rs->ranks[k]] = x->vals[0][k];
        if (distinct <= 2 || !allow_tables) {
            o->mode = CG_CAT_TERNARY;
        } else {
            o->mode = CG_CAT_NONE;
            o->table = CG_TAB_RANK;
        }
        return 0;
    }
    if (!allow_tables)
        return -1;
    /* Chosen by one counter, the same on every rank. */
    for (unsigned e = 0; e < x->dims.n; e++) {
        uint32_t st = stride_of(&x->dims, e);
        int ok = 1;
        for (uint32_t t = 0; t < x->ninsts && ok; t++)
            for (uint32_t k = 0; k < nr && ok; k++)
                ok = x->vals[t][k] == x->vals[ctr(&x->dims, t, e) * st][0];
        if (ok) {
            o->mode = CG_CAT_NONE;
            o->table = CG_TAB_CTR;
            o->table_ctr = (uint8_t)e;
            o->ntab = x->dims.count[e];
            o->tab = cg_alloc(o->ntab * sizeof *o->tab);
            for (uint32_t u = 0; u < o->ntab; u++)
                o->tab[u] = x->vals[u * st][0];
            return 0;
        }
    }
    return -1;
}

void cg_cat_free(cg_cat *c)
{
    free(c->tab);
    c->tab = NULL;
}
