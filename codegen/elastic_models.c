/* elastic_models.c: the models of an integer literal in the number of
 * ranks N that recorder-codegen --elastic fits across the traced rank
 * counts (see cg.h): exact ones only, the simplest first, each checked by
 * a point it was not fitted to. */
#include "cg.h"

#include <inttypes.h>
#include <stdio.h>

static int64_t var_of(int nd, int j, int64_t n)
{
    if (!nd)
        return n;
    int dims[3];
    cg_dims_create((int)n, nd, dims);
    return dims[j];
}

static int model_holds(const cg_nmodel *m, const int64_t *n, const int64_t *v, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        int64_t x = var_of(m->nd, m->j, n[i]), y;
        switch (m->form) {
        case CG_NM_CONST:
            y = m->a;
            break;
        case CG_NM_PROD:
            y = m->a + m->b * x;
            break;
        case CG_NM_QUOT:
            if (!x || m->b % x)
                return 0;
            y = m->a + m->b / x;
            break;
        default:
            if (!m->b || x % m->b)
                return 0;
            y = x / m->b;
            break;
        }
        if (y != v[i])
            return 0;
    }
    return 1;
}

/* The forms of `params` parameters over variable (nd, j) that fit exactly;
 * a model is only trusted where the variable takes more distinct values
 * than the model has parameters. */
static int fit_var(const int64_t *n, const int64_t *v, unsigned k, int nd, int j, int params, cg_nmodel *out)
{
    int64_t x[16];
    unsigned distinct = 0;
    for (unsigned i = 0; i < k; i++) {
        x[i] = var_of(nd, j, n[i]);
        unsigned p = 0;
        while (p < i && x[p] != x[i])
            p++;
        distinct += p == i;
    }
    if (distinct <= (unsigned)params)
        return -1;
    unsigned q = 1; /* a second point with another x */
    while (x[q] == x[0])
        q++;
    cg_nmodel m = {CG_NM_PROD, nd, j, 0, 0};
    if (params == 1) {
        if (x[0] && v[0] % x[0] == 0 && (m.b = v[0] / x[0]) != 0 && model_holds(&m, n, v, k))
            goto found;
        m = (cg_nmodel){CG_NM_XDIV, nd, j, 0, 0};
        if (v[0] > 0 && x[0] % v[0] == 0 && (m.b = x[0] / v[0]) > 1 && model_holds(&m, n, v, k))
            goto found;
        m = (cg_nmodel){CG_NM_QUOT, nd, j, 0, v[0] * x[0]};
        if (m.b && model_holds(&m, n, v, k))
            goto found;
        return -1;
    }
    int64_t dv = v[q] - v[0], dx = x[q] - x[0];
    if (dv % dx == 0) {
        m = (cg_nmodel){CG_NM_PROD, nd, j, 0, dv / dx};
        m.a = v[0] - m.b * x[0];
        if (model_holds(&m, n, v, k))
            goto found;
    }
    /* a + b/x: v0 - vq = b (xq - x0) / (x0 xq) */
    __int128 num = -(__int128)dv * x[0] * x[q];
    if (num % dx == 0 && num / dx > -INT64_MAX && num / dx < INT64_MAX && num / dx != 0) {
        m = (cg_nmodel){CG_NM_QUOT, nd, j, 0, (int64_t)(num / dx)};
        if (m.b % x[0] == 0) {
            m.a = v[0] - m.b / x[0];
            if (model_holds(&m, n, v, k))
                goto found;
        }
    }
    return -1;
found:
    *out = m;
    return 0;
}

/* The simplest model that gives every traced value exactly (k >= 2 points,
 * n ascending and distinct): a constant; one parameter over N, then over
 * the kernel's own grid, then the other grid; two parameters likewise. */
int cg_nmodel_fit(const int64_t *n, const int64_t *v, unsigned k, int prefer_nd, cg_nmodel *out)
{
    cg_nmodel m = {CG_NM_CONST, 0, 0, v[0], 0};
    if (model_holds(&m, n, v, k)) {
        *out = m;
        return 0;
    }
    int first = prefer_nd == 3 ? 3 : 2, second = first == 3 ? 2 : 3;
    for (int params = 1; params <= 2; params++) {
        if (fit_var(n, v, k, 0, 0, params, out) == 0)
            return 0;
        for (int j = 0; j < first; j++)
            if (fit_var(n, v, k, first, j, params, out) == 0)
                return 0;
        for (int j = 0; j < second; j++)
            if (fit_var(n, v, k, second, j, params, out) == 0)
                return 0;
    }
    return -1;
}

/* The variable of a model: "nranks" or "grid2[1]". */
void cg_nmodel_var(int nd, int j, char *out, size_t cap)
{
    if (nd)
        snprintf(out, cap, "grid%d[%d]", nd, j);
    else
        snprintf(out, cap, "nranks");
}

/* A model as C; in parentheses where it is an operand (tight) or a sum or quotient. */
void cg_nmodel_text(const cg_nmodel *m, int tight, sb *out)
{
    char var[32];
    cg_nmodel_var(m->nd, m->j, var, sizeof var);
    sb t = {0};
    switch (m->form) {
    case CG_NM_PROD:
        if (m->b == 1)
            sb_puts(&t, var);
        else if (m->b == -1)
            sb_printf(&t, "-%s", var);
        else
            sb_printf(&t, "%" PRId64 " * %s", m->b, var);
        break;
    case CG_NM_XDIV:
        sb_printf(&t, "%s / %" PRId64, var, m->b);
        break;
    default:
        sb_printf(&t, "%" PRId64 " / %s", m->b, var);
        break;
    }
    if (m->a)
        sb_printf(&t, " %c %" PRId64, m->a < 0 ? '-' : '+', m->a < 0 ? -m->a : m->a);
    if (tight || m->a != 0 || m->form == CG_NM_QUOT || m->form == CG_NM_XDIV)
        sb_printf(out, "(%s)", sb_str(&t));
    else
        sb_puts(out, sb_str(&t));
    sb_free(&t);
}
