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

enum { M_CONST, M_LINEAR, M_NDIV, M_KDIV, M_DIMS };

typedef struct model {
    int kind;
    int64_t a, b; /* LINEAR: a + b*n; NDIV: n / b; KDIV: a + b/n; DIMS: a + b*D[j] of nd */
    int nd, j;
} model;

static int64_t dim_of(int64_t n, int nd, int j)
{
    int dims[3];
    cg_dims_create((int)n, nd, dims);
    return dims[j];
}

static int64_t model_eval(const model *m, int64_t n)
{
    switch (m->kind) {
    case M_CONST:
        return m->a;
    case M_LINEAR:
        return m->a + m->b * n;
    case M_NDIV:
        return n / m->b;
    case M_KDIV:
        return m->a + m->b / n;
    default:
        return m->a + m->b * dim_of(n, m->nd, m->j);
    }
}

static int model_holds(const model *m, const int64_t *n, const int64_t *v, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        if (m->kind == M_NDIV && n[i] % m->b)
            return 0;
        if (m->kind == M_KDIV && m->b % n[i])
            return 0;
        if (model_eval(m, n[i]) != v[i])
            return 0;
    }
    return 1;
}

/* The first model, in order of simplicity, that gives every traced value
 * exactly (k >= 3 points, n ascending and distinct). */
static int fit_model(const int64_t *n, const int64_t *v, unsigned k, model *out)
{
    model m = {M_CONST, v[0], 0, 0, 0};
    if (model_holds(&m, n, v, k))
        goto found;
    int64_t dv = v[1] - v[0], dn = n[1] - n[0];
    if (dv % dn == 0) {
        m = (model){M_LINEAR, 0, dv / dn, 0, 0};
        m.a = v[0] - m.b * n[0];
        if (model_holds(&m, n, v, k))
            goto found;
    }
    if (v[0] > 0 && n[0] % v[0] == 0) {
        m = (model){M_NDIV, 0, n[0] / v[0], 0, 0};
        if (m.b > 1 && model_holds(&m, n, v, k))
            goto found;
    }
    /* a + b/n: v0 - v1 = b (n1 - n0) / (n0 n1) */
    __int128 num = (__int128)dv * -1 * n[0] * n[1];
    if (num % dn == 0) {
        __int128 b = num / dn;
        if (b > -INT64_MAX && b < INT64_MAX && b != 0) {
            m = (model){M_KDIV, 0, (int64_t)b, 0, 0};
            m.a = v[0] - m.b / n[0];
            if (model_holds(&m, n, v, k))
                goto found;
        }
    }
    for (int nd = 2; nd <= 3; nd++) {
        for (int j = 0; j < nd; j++) {
            unsigned p = 1;
            int64_t d0 = dim_of(n[0], nd, j);
            while (p < k && dim_of(n[p], nd, j) == d0)
                p++;
            if (p == k)
                continue;
            int64_t dd = dim_of(n[p], nd, j) - d0;
            if ((v[p] - v[0]) % dd)
                continue;
            m = (model){M_DIMS, 0, (v[p] - v[0]) / dd, nd, j};
            m.a = v[0] - m.b * d0;
            if (model_holds(&m, n, v, k))
                goto found;
        }
    }
    return -1;
found:
    *out = m;
    return 0;
}

/* ---- the kernel ---- */

typedef struct elastic {
    unsigned k;          /* traces */
    int64_t n[16];       /* their rank counts, ascending */
    const char *dir[16]; /* their directories */
    char *text[16];      /* their kernels */
    toks t[16];          /* and tokens without comments */
    uint32_t counts[5];  /* literals by model */
    int64_t divides[64]; /* K of the k/n models: the rank count must divide them */
    unsigned ndivides;
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

static int refuse(const elastic *x, size_t at, const char *why, rec_error *err)
{
    const tok *r = &x->t[x->k - 1].v[at];
    char line[256];
    unsigned no;
    line_at(x->text[x->k - 1], r->off, line, sizeof line, &no);
    int n = snprintf(err->msg, sizeof err->msg, "--elastic: %s at `%.*s` in `%s` (line %u of the %" PRId64 "-rank kernel);",
                     why, (int)(r->len < 40 ? r->len : 40), x->text[x->k - 1] + r->off, line, no, x->n[x->k - 1]);
    for (unsigned i = 0; i < x->k && n > 0 && (size_t)n < sizeof err->msg; i++) {
        const tok *o = &x->t[i].v[at];
        n += snprintf(err->msg + n, sizeof err->msg - n, " %" PRId64 " ranks: %.*s%s", x->n[i],
                      (int)(o->len < 40 ? o->len : 40), x->text[i] + o->off, i + 1 < x->k ? "," : "");
    }
    return -1;
}

static void model_text(elastic *x, const model *m, const char *prev, sb *out)
{
    int wrap = prev && (*prev == '/' || *prev == '%' || *prev == ')' || *prev == '*' || *prev == '-' || *prev == '~');
    sb t = {0};
    switch (m->kind) {
    case M_LINEAR:
        if (m->b == 1)
            sb_puts(&t, "nranks");
        else if (m->b == -1)
            sb_puts(&t, "-nranks");
        else
            sb_printf(&t, "%" PRId64 " * nranks", m->b);
        break;
    case M_NDIV:
        sb_printf(&t, "nranks / %" PRId64, m->b);
        break;
    case M_KDIV:
        sb_printf(&t, "%" PRId64 " / nranks", m->b);
        if (x->ndivides < sizeof x->divides / sizeof x->divides[0]) {
            unsigned i = 0;
            while (i < x->ndivides && x->divides[i] != m->b)
                i++;
            if (i == x->ndivides)
                x->divides[x->ndivides++] = m->b;
        }
        break;
    default:
        if (m->b == 1)
            sb_printf(&t, "grid%d[%d]", m->nd, m->j);
        else
            sb_printf(&t, "%" PRId64 " * grid%d[%d]", m->b, m->nd, m->j);
        x->dims_used[m->nd] = 1;
        break;
    }
    if (m->a)
        sb_printf(&t, " %c %" PRId64, m->a < 0 ? '-' : '+', m->a < 0 ? -m->a : m->a);
    wrap |= m->a != 0 || m->kind == M_KDIV || m->kind == M_NDIV;
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
    sb_puts(out, "/* Elastic I/O kernel generated by recorder-codegen --elastic from");
    for (unsigned i = 0; i < x->k; i++)
        sb_printf(out, "%s %s (%" PRId64 " ranks)", i ? "," : "", x->dir[i], x->n[i]);
    sb_printf(out,
              ".\n * It runs at any number of ranks N: %u literals of the traced kernels depend on N,\n"
              " * %u linearly (a + b*N), %u as N/k, %u as a + k/N, %u through the MPI_Dims_create grid.\n",
              x->counts[M_LINEAR] + x->counts[M_NDIV] + x->counts[M_KDIV] + x->counts[M_DIMS],
              x->counts[M_LINEAR], x->counts[M_NDIV], x->counts[M_KDIV], x->counts[M_DIMS]);
    if (x->ndivides) {
        sb_puts(out, " * N must divide");
        for (unsigned i = 0; i < x->ndivides; i++)
            sb_printf(out, "%s %" PRId64, i ? "," : "", x->divides[i]);
        sb_puts(out, " (the traced runs shared them evenly among the ranks).\n");
    }
    sb_puts(out, " * Build: h5pcc -shlib kernel.c -o kernel; run: mpirun -np N ./kernel [OUTDIR=./kernel-output]\n */");
}

static void check_text(const elastic *x, const char *program, sb *out)
{
    for (int nd = 2; nd <= 3; nd++)
        if (x->dims_used[nd])
            sb_printf(out, "int grid%d[%d] = {0};\n    MPI_Dims_create(nranks, %d, grid%d);\n    ", nd, nd, nd, nd);
    if (!x->ndivides) {
        sb_puts(out, "/* any number of ranks */");
        return;
    }
    sb_puts(out, "if (");
    for (unsigned i = 0; i < x->ndivides; i++)
        sb_printf(out, "%s%" PRId64 "LL %% nranks", i ? " || " : "", x->divides[i]);
    sb_printf(out, ") {\n        if (rank == 0)\n            fprintf(stderr, \"%s: cannot run at %%d ranks: the traced runs shared",
              program);
    for (unsigned i = 0; i < x->ndivides; i++)
        sb_printf(out, "%s %" PRId64, i ? "," : "", x->divides[i]);
    sb_puts(out, " evenly among the ranks\\n\", nranks);\n        MPI_Finalize();\n        return 1;\n    }");
}

static int unify(elastic *x, const char *program, char **kernel, rec_error *err)
{
    const unsigned ref = x->k - 1;
    for (unsigned i = 0; i < ref; i++) {
        if (x->t[i].n != x->t[ref].n) {
            size_t at = 0;
            while (at < x->t[i].n && at < x->t[ref].n && x->t[i].v[at].kind == x->t[ref].v[at].kind &&
                   (x->t[i].v[at].kind == TK_NUM || (x->t[i].v[at].len == x->t[ref].v[at].len &&
                                                     !memcmp(x->text[i] + x->t[i].v[at].off,
                                                             x->text[ref] + x->t[ref].v[at].off, x->t[i].v[at].len))))
                at++;
            if (at >= x->t[ref].n)
                at = x->t[ref].n - 1;
            return refuse(x, at, "the kernels differ in structure (a call, loop or table that the rank count changes)",
                          err);
        }
    }
    toks all = {0};
    tokenize(x->text[ref], &all);
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
            if (o->kind != r->kind)
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
            int64_t v[16];
            for (unsigned i = 0; i < x->k; i++)
                v[i] = x->t[i].v[at].value;
            model m;
            if (fit_model(x->n, v, x->k, &m) != 0) {
                free(all.v);
                sb_free(&out);
                return refuse(x, at, "no exact model in the rank count for the value", err);
            }
            if (!in_main) {
                free(all.v);
                sb_free(&out);
                return refuse(x, at, "a value outside main (a constant table) depends on the rank count", err);
            }
            x->counts[m.kind]++;
            sb_printf(&out, "%.*s", (int)(r->off - copied), x->text[ref] + copied);
            model_text(x, &m, prev, &out);
            copied = r->off + r->len;
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
    for (unsigned i = 0; i < x.k; i++) {
        free(x.text[i]);
        free(x.t[i].v);
    }
    return rc;
}
