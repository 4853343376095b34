/* elastic.c: recorder-codegen --elastic, one kernel for any rank count from
 * traces of one application at three or more rank counts (paper 002's
 * extrapolation models applied to paper 003's kernels).
 *
 * Each trace gives a kernel through the ordinary pipeline, whose fits
 * already express values through the rank, the loop counters and the grid
 * coordinates. What is left to depend on the number of ranks n are the
 * integer literals of those expressions: coefficients, block strides, loop
 * trip counts, divisors, buffer sizes, rank numbers. The kernels must
 * therefore be the same token for token but for integer literals; every
 * literal that differs is fitted, across the traces, by the first exact
 * model of: a + b*n, n / k, a + k/n (exact divisions), a + b*D_j(n) (D the
 * MPI_Dims_create grid of 2 or 3 dimensions). A literal no model fits, or
 * any other difference, is named and refused: no approximations. */
#include "cg.h"
#include "emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TK_NUM, TK_IDENT, TK_STR, TK_PUNCT, TK_COMMENT, TK_OTHER };

typedef struct tok {
    size_t off, len;
    int kind;
    int64_t value; /* TK_NUM */
} tok;

typedef struct toks {
    tok *v;
    size_t n, cap;
} toks;

static void push(toks *t, size_t off, size_t len, int kind, int64_t value)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 1024;
        tok *v = realloc(t->v, t->cap * sizeof *v);
        if (!v)
            abort();
        t->v = v;
    }
    t->v[t->n++] = (tok){off, len, kind, value};
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Our own generated C: comments, string and character literals, numbers,
 * identifiers, punctuation (one character each, which is enough to compare). */
static void tokenize(const char *s, toks *t)
{
    size_t i = 0, n = strlen(s);
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if (c == '/' && s[i + 1] == '*') {
            const char *end = strstr(s + i + 2, "*/");
            size_t e = end ? (size_t)(end - s) + 2 : n;
            push(t, i, e - i, TK_COMMENT, 0);
            i = e;
        } else if (c == '/' && s[i + 1] == '/') {
            size_t e = i;
            while (e < n && s[e] != '\n')
                e++;
            push(t, i, e - i, TK_COMMENT, 0);
            i = e;
        } else if (c == '"' || c == '\'') {
            size_t e = i + 1;
            while (e < n && s[e] != c)
                e += s[e] == '\\' ? 2 : 1;
            e = e < n ? e + 1 : n;
            push(t, i, e - i, TK_STR, 0);
            i = e;
        } else if (c >= '0' && c <= '9') {
            size_t e = i;
            while (e < n && (ident_char(s[e]) || s[e] == '.'))
                e++;
            size_t d = i;
            while (d < e && s[d] >= '0' && s[d] <= '9')
                d++;
            /* a decimal integer, with an optional L/LL/U suffix */
            int plain = d - i <= 18 && (s[i] != '0' || d - i == 1);
            for (size_t k = d; k < e && plain; k++)
                plain = s[k] == 'L' || s[k] == 'U' || s[k] == 'l' || s[k] == 'u';
            push(t, i, e - i, plain ? TK_NUM : TK_OTHER, plain ? strtoll(s + i, NULL, 10) : 0);
            i = e;
        } else if (ident_char(c)) {
            size_t e = i;
            while (e < n && ident_char(s[e]))
                e++;
            push(t, i, e - i, TK_IDENT, 0);
            i = e;
        } else {
            push(t, i, 1, TK_PUNCT, 0);
            i++;
        }
    }
}

/* ---- models of a literal in the number of ranks ---- */

/* A model: a form over one variable x, the number of ranks N or a
 * dimension D_j of N's MPI_Dims_create grid of nd dimensions. */
enum { M_CONST, M_PROD, M_QUOT, M_XDIV }; /* a; a + b*x; a + b/x; x/b */

typedef struct model {
    int form;
    int nd, j; /* the variable: N when nd == 0, else D_j */
    int64_t a, b;
} model;

static int64_t var_of(int nd, int j, int64_t n)
{
    if (!nd)
        return n;
    int dims[3];
    cg_dims_create((int)n, nd, dims);
    return dims[j];
}

static int model_holds(const model *m, const int64_t *n, const int64_t *v, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        int64_t x = var_of(m->nd, m->j, n[i]), y;
        switch (m->form) {
        case M_CONST:
            y = m->a;
            break;
        case M_PROD:
            y = m->a + m->b * x;
            break;
        case M_QUOT:
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
static int fit_var(const int64_t *n, const int64_t *v, unsigned k, int nd, int j, int params, model *out)
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
    model m = {M_PROD, nd, j, 0, 0};
    if (params == 1) {
        if (x[0] && v[0] % x[0] == 0 && (m.b = v[0] / x[0]) != 0 && model_holds(&m, n, v, k))
            goto found;
        m = (model){M_XDIV, nd, j, 0, 0};
        if (v[0] > 0 && x[0] % v[0] == 0 && (m.b = x[0] / v[0]) > 1 && model_holds(&m, n, v, k))
            goto found;
        m = (model){M_QUOT, nd, j, 0, v[0] * x[0]};
        if (m.b && model_holds(&m, n, v, k))
            goto found;
        return -1;
    }
    int64_t dv = v[q] - v[0], dx = x[q] - x[0];
    if (dv % dx == 0) {
        m = (model){M_PROD, nd, j, 0, dv / dx};
        m.a = v[0] - m.b * x[0];
        if (model_holds(&m, n, v, k))
            goto found;
    }
    /* a + b/x: v0 - vq = b (xq - x0) / (x0 xq) */
    __int128 num = -(__int128)dv * x[0] * x[q];
    if (num % dx == 0 && num / dx > -INT64_MAX && num / dx < INT64_MAX && num / dx != 0) {
        m = (model){M_QUOT, nd, j, 0, (int64_t)(num / dx)};
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
static int fit_model(const int64_t *n, const int64_t *v, unsigned k, int prefer_nd, model *out)
{
    model m = {M_CONST, 0, 0, v[0], 0};
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

/* ---- the kernel ---- */

typedef struct elastic {
    unsigned k;          /* traces */
    int64_t n[16];       /* their rank counts, ascending */
    const char *dir[16]; /* their directories */
    char *text[16];      /* their kernels */
    toks t[16];          /* and tokens without comments */
    uint32_t by_n, by_grid; /* literals modelled in N, in a grid dimension */
    char checks[32][96];    /* divisions the models need exact: "K % nranks" */
    unsigned nchecks;
    uint32_t single; /* values only one rank count tells */
    uint32_t related; /* values that took the model of an equal value of their call */
    uint32_t bounds; /* buffer sizes given a bound rather than a model */
    int grid_nd; /* the dimensions of the kernel's grid (0: none) */
    int dims_used[4]; /* grids the models name, by dimensions */
} elastic;

/* Line number and text of the reference kernel around offset off. */
static void line_at(const char *s, size_t off, char *out, size_t cap, unsigned *line)
{
    size_t b = off, e = off;
    while (b > 0 && s[b - 1] != '\n')
        b--;
    while (s[e] && s[e] != '\n')
        e++;
    while (s[b] == ' ')
        b++;
    *line = 1;
    for (size_t i = 0; i < b; i++)
        *line += s[i] == '\n';
    snprintf(out, cap, "%.*s", (int)(e - b < 200 ? e - b : 200), s + b);
}

/* "argument 2 (offset) of MPI_File_write_at_all": the call argument the
 * reference kernel's token at sits in, named from the function table. */
static void argument_of(const elastic *x, size_t at, char *out, size_t cap)
{
    const toks *t = &x->t[x->k - 1];
    const char *s = x->text[x->k - 1];
    *out = 0;
    int depth = 0;
    unsigned commas = 0;
    for (size_t b = at; b-- > 0;) {
        char c = t->v[b].kind == TK_PUNCT ? s[t->v[b].off] : 0;
        if (c == ')' || c == '}' || c == ']')
            depth++;
        else if ((c == '(' || c == '{' || c == '[') && depth > 0)
            depth--;
        else if (c == ',' && depth == 0)
            commas++;
        else if (c == ';')
            return;
        else if (c == '(' && depth == 0) {
            if (b == 0 || t->v[b - 1].kind != TK_IDENT)
                continue; /* a parenthesised expression: the call is further out */
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(t->v[b - 1].len < 63 ? t->v[b - 1].len : 63), s + t->v[b - 1].off);
            const rec_func_desc *f = rec_function_by_name(name);
            if (f && commas < f->nargs)
                snprintf(out, cap, " (argument %u, %s, of %s)", commas + 1, f->args[commas].name, f->name);
            else if (!f)
                continue; /* a helper such as P() or in_ranks(): the call is further out */
            return;
        }
    }
}

static int refuse(const elastic *x, size_t at, const char *why, rec_error *err)
{
    const tok *r = &x->t[x->k - 1].v[at];
    char line[256];
    unsigned no;
    line_at(x->text[x->k - 1], r->off, line, sizeof line, &no);
    if (strstr(why, "structure")) { /* the line where each kernel goes its own way */
        int n = snprintf(err->msg, sizeof err->msg, "--elastic: %s:", why);
        for (unsigned i = 0; i < x->k && n > 0 && (size_t)n < sizeof err->msg; i++) {
            size_t off = x->t[i].v[at < x->t[i].n ? at : x->t[i].n - 1].off;
            line_at(x->text[i], off, line, sizeof line, &no);
            while (strlen(line) < 3 && off > 0) { /* a brace alone: the line before */
                while (off > 0 && x->text[i][off - 1] != '\n')
                    off--;
                off = off > 0 ? off - 1 : 0;
                line_at(x->text[i], off, line, sizeof line, &no);
            }
            n += snprintf(err->msg + n, sizeof err->msg - n, "%s %" PRId64 " ranks, line %u: `%.120s`", i ? ";" : "",
                          x->n[i], no, line);
        }
        return -1;
    }
    char arg[160];
    argument_of(x, at, arg, sizeof arg);
    int n = snprintf(err->msg, sizeof err->msg, "--elastic: %s at `%.*s`%s in `%s` (line %u of the %" PRId64 "-rank kernel);",
                     why, (int)(r->len < 40 ? r->len : 40), x->text[x->k - 1] + r->off, arg, line, no, x->n[x->k - 1]);
    for (unsigned i = 0; i < x->k && n > 0 && (size_t)n < sizeof err->msg; i++) {
        const tok *o = &x->t[i].v[at];
        n += snprintf(err->msg + n, sizeof err->msg - n, " %" PRId64 " ranks: %.*s%s", x->n[i],
                      (int)(o->len < 40 ? o->len : 40), x->text[i] + o->off, i + 1 < x->k ? "," : "");
    }
    return -1;
}

/* A condition the run must meet for a model's division to be exact. */
static void need_divisible(elastic *x, const char *c)
{
    for (unsigned i = 0; i < x->nchecks; i++)
        if (!strcmp(x->checks[i], c))
            return;
    if (x->nchecks < sizeof x->checks / sizeof x->checks[0])
        snprintf(x->checks[x->nchecks++], sizeof x->checks[0], "%s", c);
}

static void model_text(elastic *x, const model *m, const char *prev, sb *out)
{
    int wrap = prev && (*prev == '/' || *prev == '%' || *prev == ')' || *prev == '*' || *prev == '-' || *prev == '~');
    char var[32], cond[96];
    if (m->nd) {
        snprintf(var, sizeof var, "grid%d[%d]", m->nd, m->j);
        x->dims_used[m->nd] = 1;
        x->by_grid++;
    } else {
        snprintf(var, sizeof var, "nranks");
        x->by_n++;
    }
    sb t = {0};
    switch (m->form) {
    case M_PROD:
        if (m->b == 1)
            sb_puts(&t, var);
        else if (m->b == -1)
            sb_printf(&t, "-%s", var);
        else
            sb_printf(&t, "%" PRId64 " * %s", m->b, var);
        break;
    case M_XDIV:
        sb_printf(&t, "%s / %" PRId64, var, m->b);
        snprintf(cond, sizeof cond, "%s %% %" PRId64, var, m->b);
        need_divisible(x, cond);
        break;
    default:
        sb_printf(&t, "%" PRId64 " / %s", m->b, var);
        snprintf(cond, sizeof cond, "%" PRId64 "LL %% %s", m->b, var);
        need_divisible(x, cond);
        break;
    }
    if (m->a)
        sb_printf(&t, " %c %" PRId64, m->a < 0 ? '-' : '+', m->a < 0 ? -m->a : m->a);
    wrap |= m->a != 0 || m->form == M_QUOT || m->form == M_XDIV;
    if (wrap)
        sb_printf(out, "(%s)", sb_str(&t));
    else
        sb_puts(out, sb_str(&t));
    sb_free(&t);
}

/* The elastic emitter writes every coefficient and constant, as literals
 * to model; those that stayed 1 or 0 go: "1 * x" is "x", "x + 0" is "x".
 * Returns the new copy position. */
static size_t simplify(const elastic *x, size_t at, size_t copied, sb *out)
{
    const toks *t = &x->t[x->k - 1];
    const char *s = x->text[x->k - 1];
    const tok *r = &t->v[at];
    char prev = at >= 1 && t->v[at - 1].kind == TK_PUNCT ? s[t->v[at - 1].off] : 0;
    char next = at + 1 < t->n && t->v[at + 1].kind == TK_PUNCT ? s[t->v[at + 1].off] : 0;
    int prev_operand = at >= 1 && (t->v[at - 1].kind == TK_NUM || t->v[at - 1].kind == TK_IDENT);
    if (r->value == 1 && next == '*' && !prev_operand && prev != '/' && prev != '%' && prev != '*' &&
        prev != ')' && prev != ']') {
        sb_printf(out, "%.*s", (int)(r->off - copied), s + copied);
        size_t e = t->v[at + 1].off + 1;
        while (s[e] == ' ')
            e++;
        return e;
    }
    if (r->value == 0 && (prev == '+' || prev == '-') && at >= 2 && next != '*' && next != '/' &&
        next != '%' && next != '(' && next != '[') {
        const tok *before = &t->v[at - 2];
        char b = s[before->off];
        if (before->kind == TK_NUM || before->kind == TK_IDENT || (before->kind == TK_PUNCT && (b == ')' || b == ']'))) {
            size_t end = before->off + before->len;
            if (end >= copied) {
                sb_printf(out, "%.*s", (int)(end - copied), s + copied);
                return r->off + r->len;
            }
        }
    }
    return copied;
}

static void strip_comments(toks *all, toks *out)
{
    for (size_t i = 0; i < all->n; i++)
        if (all->v[i].kind != TK_COMMENT)
            push(out, all->v[i].off, all->v[i].len, all->v[i].kind, all->v[i].value);
}

static void header(const elastic *x, sb *out)
{
    sb_puts(out, "/* Elastic I/O kernel generated by recorder-codegen --elastic from the traces");
    size_t line = 70;
    for (unsigned i = 0; i < x->k; i++) {
        char item[300];
        int n = snprintf(item, sizeof item, " %.200s (%" PRId64 " ranks)%s", x->dir[i], x->n[i], i + 1 < x->k ? "," : ".");
        if (line + (size_t)n > 105) {
            sb_puts(out, "\n *");
            line = 2;
        }
        sb_puts(out, item);
        line += (size_t)n;
    }
    sb_printf(out,
              "\n * It runs at any number of ranks N: %u value(s) of the traced kernels depend on N, %u of them\n"
              " * through N's MPI_Dims_create grid (a + b*x, a + k/x or x/k, x = N or a grid dimension).\n",
              x->by_n + x->by_grid, x->by_grid);
    if (x->single)
        sb_printf(out, " * %u value(s) only one rank count tells (a grid dimension of extent 1 elsewhere) are constant.\n",
                  x->single);
    if (x->related)
        sb_printf(out, " * %u value(s) some rank counts cannot tell follow an equal value of the same call.\n", x->related);
    if (x->bounds)
        sb_printf(out, " * %u buffer size(s) no exact model fits have room for c*N + the largest traced size.\n", x->bounds);
    if (x->nchecks)
        sb_puts(out, " * It refuses an N at which a division of the models would not be exact.\n");
    sb_puts(out, " * Build: h5pcc -shlib kernel.c -o kernel; run: mpirun -np N ./kernel [OUTDIR=./kernel-output]\n */");
}

static int64_t gcd(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void check_text(const elastic *x, const char *program, sb *out)
{
    for (int nd = 2; nd <= 3; nd++)
        if (x->dims_used[nd])
            sb_printf(out, "int grid%d[%d] = {0};\n    MPI_Dims_create(nranks, %d, grid%d);\n    ", nd, nd, nd, nd);
    if (!x->nchecks) {
        sb_puts(out, "/* any number of ranks */");
        return;
    }
    /* "K1LL % v || K2LL % v" is "gcd(K1, K2)LL % v": one test per variable */
    sb cond = {0};
    int done[32] = {0};
    for (unsigned i = 0; i < x->nchecks; i++) {
        if (done[i])
            continue;
        const char *pct = strchr(x->checks[i], '%');
        if (strstr(x->checks[i], "LL %")) { /* K % var */
            int64_t g = strtoll(x->checks[i], NULL, 10);
            for (unsigned j = i + 1; j < x->nchecks; j++)
                if (!done[j] && strstr(x->checks[j], "LL %") && !strcmp(strchr(x->checks[j], '%'), pct)) {
                    g = gcd(g, strtoll(x->checks[j], NULL, 10));
                    done[j] = 1;
                }
            sb_printf(&cond, "%s%" PRId64 "LL %s", cond.len ? " || " : "", g, pct);
        } else {
            sb_printf(&cond, "%s%s", cond.len ? " || " : "", x->checks[i]);
        }
    }
    sb_printf(out,
              "/* the traced runs divided their data evenly */\n"
              "    if (%s) {\n"
              "        if (rank == 0)\n"
              "            fprintf(stderr, \"%s: cannot run at %%d ranks: they do not divide the data evenly\\n\", nranks);\n"
              "        MPI_Finalize();\n        return 1;\n    }",
              sb_str(&cond), program);
    sb_free(&cond);
}

/* Token at of kernel i and of the reference agree but for a literal. */
static int same_shape(const elastic *x, unsigned i, size_t at)
{
    const tok *o = &x->t[i].v[at], *r = &x->t[x->k - 1].v[at];
    if (r->kind == TK_NUM)
        return o->kind == TK_NUM || (o->kind == TK_IDENT && o->len == 11 && !memcmp(x->text[i] + o->off, "ELASTIC_ANY", 11));
    return o->kind == r->kind && o->len == r->len && !memcmp(x->text[i] + o->off, x->text[x->k - 1] + r->off, r->len);
}

/* A value some rank counts cannot tell (a grid coordinate's coefficient
 * where that dimension has extent 1) takes the model of another value of
 * the same statement that equals it wherever it is told: the coefficient
 * of a hyperslab's start is its count. 0 and the model, or -1. */
static int adopt_related(const elastic *x, size_t at, const int64_t *n, const int64_t *v, unsigned known, model *out)
{
    const toks *t = &x->t[x->k - 1];
    const char *s = x->text[x->k - 1];
    size_t lo = at, hi = at;
    while (lo > 0 && at - lo < 400 && !(t->v[lo - 1].kind == TK_PUNCT && s[t->v[lo - 1].off] == ';'))
        lo--;
    while (hi < t->n && hi - at < 400 && !(t->v[hi].kind == TK_PUNCT && s[t->v[hi].off] == ';'))
        hi++;
    for (size_t b = lo; b < hi; b++) {
        if (b == at || t->v[b].kind != TK_NUM)
            continue;
        int64_t w[16];
        int all = 1;
        for (unsigned i = 0; i < x->k && all; i++) {
            all = x->t[i].v[b].kind == TK_NUM;
            w[i] = x->t[i].v[b].value;
        }
        model m;
        if (!all || fit_model(x->n, w, x->k, x->grid_nd, &m) != 0 || m.form == M_CONST)
            continue;
        int same = 1;
        for (unsigned p = 0; p < known && same; p++)
            for (unsigned i = 0; i < x->k; i++)
                if (x->n[i] == n[p])
                    same = w[i] == v[p];
        if (same) {
            *out = m;
            return 0;
        }
    }
    return -1;
}

static int unify(elastic *x, const char *program, char **kernel, rec_error *err)
{
    const unsigned ref = x->k - 1;
    for (unsigned i = 0; i < ref; i++) {
        if (x->t[i].n != x->t[ref].n) {
            size_t at = 0;
            while (at < x->t[i].n && at < x->t[ref].n && same_shape(x, i, at))
                at++;
            if (at >= x->t[ref].n)
                at = x->t[ref].n - 1;
            return refuse(x, at, "the kernels differ in structure (a call, loop or table that the rank count changes)",
                          err);
        }
    }
    toks all = {0};
    tokenize(x->text[ref], &all);
    const char *g = strstr(x->text[ref], "grid_coords(rank, nranks, ");
    x->grid_nd = g ? atoi(g + strlen("grid_coords(rank, nranks, ")) : 0;
    sb out = {0};
    size_t copied = 0, at = 0;
    int in_main = 0;
    const char *prev = NULL;
    for (size_t a = 0; a < all.n; a++) {
        const tok *r = &all.v[a];
        const char *s = x->text[ref] + r->off;
        if (r->kind == TK_COMMENT) {
            if (r->len == 19 && !memcmp(s, "/*@ELASTIC_CHECK@*/", 19)) {
                /* the check, filled in once the models below are known */
                sb_printf(&out, "%.*s\x01", (int)(r->off - copied), x->text[ref] + copied);
                copied = r->off + r->len;
            }
            continue;
        }
        if (r->kind == TK_IDENT && r->len == 4 && !memcmp(s, "main", 4))
            in_main = 1;
        int differs = 0;
        for (unsigned i = 0; i < ref; i++) {
            const tok *o = &x->t[i].v[at];
            if (r->kind == TK_NUM && o->kind == TK_IDENT && o->len == 11 && !memcmp(x->text[i] + o->off, "ELASTIC_ANY", 11))
                differs = differs ? differs : 1; /* that rank count cannot tell it */
            else if (o->kind != r->kind)
                differs = 2;
            else if (r->kind == TK_NUM ? o->value != r->value
                                       : o->len != r->len || memcmp(x->text[i] + o->off, s, r->len) != 0)
                differs = differs ? differs : 1;
        }
        int root = prev && at >= 1 && x->t[ref].v[at - 1].kind == TK_IDENT && x->t[ref].v[at - 1].len == 4 &&
                   !memcmp(x->text[ref] + x->t[ref].v[at - 1].off, "ROOT", 4);
        if (differs == 2 || (differs && r->kind != TK_NUM && !(r->kind == TK_STR && root))) {
            free(all.v);
            sb_free(&out);
            return refuse(x, at, "the kernels differ", err);
        }
        if (differs && r->kind == TK_NUM) {
            int64_t v[16], n[16];
            unsigned known = 0;
            for (unsigned i = 0; i < x->k; i++) {
                if (x->t[i].v[at].kind == TK_NUM) {
                    n[known] = x->n[i];
                    v[known++] = x->t[i].v[at].value;
                }
            }
            model m;
            const tok *pt = &x->t[ref].v[at - 1];
            int size_macro = pt->kind == TK_IDENT && pt->len == 5 &&
                             (!memcmp(x->text[ref] + pt->off, "WSIZE", 5) || !memcmp(x->text[ref] + pt->off, "RSIZE", 5));
            if (size_macro && known == x->k && fit_model(n, v, known, x->grid_nd, &m) != 0) {
                /* a buffer's capacity: room enough, c*N + max, where no exact model fits */
                int64_t c = 0, max = 0;
                for (unsigned i = 0; i < known; i++) {
                    c = (v[i] + n[i] - 1) / n[i] > c ? (v[i] + n[i] - 1) / n[i] : c;
                    max = v[i] > max ? v[i] : max;
                }
                m = (model){M_PROD, 0, 0, max, c};
                x->bounds++;
            } else if (known < x->k && adopt_related(x, at, n, v, known, &m) == 0) {
                x->related++;
            } else if (known < 2) { /* one rank count tells it (a grid dimension of extent 1 elsewhere): the simplest model */
                m = (model){M_CONST, 0, 0, v[0], 0};
                x->single++;
            } else if (fit_model(n, v, known, x->grid_nd, &m) != 0) {
                free(all.v);
                sb_free(&out);
                return refuse(x, at, "no exact model in the rank count for the value", err);
            }
            if (!in_main && !size_macro) {
                free(all.v);
                sb_free(&out);
                return refuse(x, at, "a value outside main (a constant table) depends on the rank count", err);
            }
            if (m.form == M_CONST) { /* the same wherever it is told */
                copied = simplify(x, at, copied, &out);
            } else {
                sb_printf(&out, "%.*s", (int)(r->off - copied), x->text[ref] + copied);
                model_text(x, &m, prev, &out);
                copied = r->off + r->len;
            }
        } else if (r->kind == TK_NUM && in_main) {
            copied = simplify(x, at, copied, &out);
        }
        prev = s;
        at++;
    }
    sb_puts(&out, x->text[ref] + copied);
    free(all.v);
    /* the check at the top names the k/n models found further down */
    sb full = {0}, check = {0};
    check_text(x, program, &check);
    const char *body = sb_str(&out), *mark = strchr(body, '\x01');
    if (mark) {
        sb_printf(&full, "%.*s%s%s", (int)(mark - body), body, sb_str(&check), mark + 1);
    } else {
        sb_puts(&full, body);
    }
    sb_free(&out);
    sb_free(&check);
    /* the header too */
    sb head = {0};
    header(x, &head);
    const char *h = sb_str(&full), *hend = strstr(h, "*/");
    sb final = {0};
    if (!strncmp(h, "/*", 2) && hend)
        sb_printf(&final, "%s%s", sb_str(&head), hend + 2);
    else
        sb_puts(&final, h);
    sb_free(&head);
    sb_free(&full);
    *kernel = cg_wrap_lines(sb_str(&final), 110);
    sb_free(&final);
    return 0;
}

int rec_codegen_elastic(const char *const *trace_dirs, unsigned ntraces, const rec_codegen_options *o, char **kernel,
                        rec_error *err)
{
    elastic x;
    memset(&x, 0, sizeof x);
    if (ntraces < 3 || ntraces > 16) {
        snprintf(err->msg, sizeof err->msg, "--elastic needs 3 to 16 traces (at different rank counts), got %u",
                 ntraces);
        return -1;
    }
    rec_codegen_options opts;
    rec_codegen_options_init(&opts);
    if (o)
        opts = *o;
    opts.elastic = 1;
    int rc = 0;
    for (unsigned i = 0; i < ntraces && rc == 0; i++) {
        rec_trace *t = rec_trace_open(trace_dirs[i], err);
        if (!t)
            return -1;
        int64_t n = rec_trace_get_info(t)->nranks;
        rec_trace_close(t);
        /* sorted by rank count, as traces are given in any order */
        unsigned at = x.k;
        while (at > 0 && x.n[at - 1] > n) {
            x.n[at] = x.n[at - 1];
            x.dir[at] = x.dir[at - 1];
            at--;
        }
        if (at > 0 && x.n[at - 1] == n) {
            snprintf(err->msg, sizeof err->msg, "--elastic: %s and %s were both traced at %" PRId64 " ranks",
                     x.dir[at - 1], trace_dirs[i], n);
            return -1;
        }
        x.n[at] = n;
        x.dir[at] = trace_dirs[i];
        x.k++;
    }
    /* the largest run first: the others use the same ROOT */
    char root[4096] = "";
    rec_codegen_hints hints = {.recording = 1};
    opts.hints = &hints;
    for (unsigned j = x.k; j-- > 0 && rc == 0;) {
        unsigned i = j;
        rc = rec_codegen(x.dir[i], &opts, &x.text[i], err);
        if (rc == 0 && i == x.k - 1) {
            const char *d = strstr(x.text[i], "\n#define ROOT \"");
            if (d) {
                d += strlen("\n#define ROOT \"");
                size_t len = strcspn(d, "\"");
                snprintf(root, sizeof root, "%.*s", (int)(len < sizeof root ? len : sizeof root - 1), d);
            }
            opts.root = root;
            hints.recording = 0;
        }
        const char *dump = getenv("RECORDER_CODEGEN_ELASTIC_DUMP"); /* a directory: each run's kernel, to compare */
        if (rc == 0 && dump) {
            char path[4096];
            snprintf(path, sizeof path, "%s/kernel.%" PRId64 ".c", dump, x.n[i]);
            FILE *f = fopen(path, "w");
            if (f) {
                fputs(x.text[i], f);
                fclose(f);
            }
        }
        if (rc == 0) {
            toks all = {0};
            tokenize(x.text[i], &all);
            strip_comments(&all, &x.t[i]);
            free(all.v);
        }
    }
    if (rc == 0)
        rc = unify(&x, opts.program ? opts.program : "kernel", kernel, err);
    free(hints.v);
    for (unsigned i = 0; i < x.k; i++) {
        free(x.text[i]);
        free(x.t[i].v);
    }
    return rc;
}
