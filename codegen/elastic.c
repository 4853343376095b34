/* elastic.c: recorder-codegen --elastic, one kernel for any rank count from
 * traces of one application at three or more rank counts (the extrapolation
 * models of "ScalaIOExtrap: Elastic I/O Tracing and Extrapolation" applied to
 * the kernels of "Automatic Generation of I/O Kernels for HPC Applications").
 *
 * Each trace gives a kernel through the ordinary pipeline, whose fits
 * already express values through the rank, the loop counters and the grid
 * coordinates. What is left to depend on the number of ranks n are the
 * integer literals of those expressions: coefficients, block strides, loop
 * trip counts, divisors, buffer sizes, rank numbers. The emitter records,
 * as it writes each kernel, where every such literal is and what it is
 * (cg_doc): the kernels must be the same but for those literals (and the
 * notes: comments, paths below ROOT, alignment); every literal that
 * differs is fitted, across the traces, by the first exact model of:
 * a + b*n, n / k, a + k/n (exact divisions), a + b*D_j(n) (D the
 * MPI_Dims_create grid of 2 or 3 dimensions). A literal no model fits, or
 * any other difference, is named and refused: no approximations. The
 * kernel is then written once, from the largest run's. */
#include "cg.h"
#include "emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the kernels as the emitter wrote them ---- */

/* A stretch of a kernel's text: code (slot NULL), or what a span records. */
typedef struct part {
    size_t at, len;
    const cg_slot *slot;
    int in_arg; /* code inside a call's argument */
} part;

typedef struct kern {
    const cg_doc *d;
    const char *s; /* the text */
    part *p;       /* code, literals, notes, the header and the check, in text order */
    size_t np;
    part *args; /* the calls' arguments, in text order */
    size_t nargs;
    part *strs; /* the string literals */
    size_t nstrs;
    size_t *lit; /* the literals' parts, in order */
    long *stmt;  /* per literal: the statement whose call it is an argument of, or -1 */
    size_t nlit;
    unsigned header_lines; /* the header's newlines: where the body's lines start */
} kern;

/* In text order, a span before those it holds. */
static int span_order(const void *a, const void *b)
{
    const sb_span *x = a, *y = b;
    if (x->at != y->at)
        return x->at < y->at ? -1 : 1;
    return x->len > y->len ? -1 : x->len < y->len;
}

/* Code from at to end, cut where arguments start and end (args from *ai on, in order). */
static void add_code(kern *k, size_t at, size_t end, size_t *ai)
{
    while (at < end) {
        while (*ai < k->nargs && k->args[*ai].at + k->args[*ai].len <= at)
            ++*ai;
        const part *a = *ai < k->nargs ? &k->args[*ai] : NULL;
        int inside = a && a->at <= at;
        size_t stop = inside ? a->at + a->len : a && a->at < end ? a->at : end;
        stop = stop < end ? stop : end;
        k->p[k->np++] = (part){at, stop - at, NULL, inside};
        at = stop;
    }
}

/* A run's kernel as parts in text order, from the spans its emitter recorded. */
static void kern_init(kern *k, const cg_doc *d)
{
    memset(k, 0, sizeof *k);
    k->d = d;
    k->s = d->text.s ? d->text.s : "";
    size_t n = d->text.nspans;
    sb_span *spans = cg_alloc((n + 1) * sizeof *spans);
    memcpy(spans, d->text.spans, n * sizeof *spans);
    qsort(spans, n, sizeof *spans, span_order);
    k->args = cg_alloc((n + 1) * sizeof *k->args);
    k->strs = cg_alloc((n + 1) * sizeof *k->strs);
    /* the spans, and the code between them cut where arguments start and end */
    k->p = cg_alloc((2 * n + 1) * sizeof *k->p);
    k->lit = cg_alloc((n + 1) * sizeof *k->lit);
    k->stmt = cg_alloc((n + 1) * sizeof *k->stmt);
    for (size_t i = 0; i < n; i++) {
        const cg_slot *slot = &d->slots[spans[i].tag];
        if (slot->kind == CG_SPAN_ARG)
            k->args[k->nargs++] = (part){spans[i].at, spans[i].len, slot, 0};
        if (slot->kind == CG_SPAN_STRING)
            k->strs[k->nstrs++] = (part){spans[i].at, spans[i].len, slot, 0};
    }
    size_t pos = 0, ai = 0;
    for (size_t i = 0; i < n; i++) {
        const cg_slot *slot = &d->slots[spans[i].tag];
        if (slot->kind == CG_SPAN_ARG || slot->kind == CG_SPAN_STRING || spans[i].at < pos)
            continue; /* they name text of the parts; the others do not overlap */
        add_code(k, pos, spans[i].at, &ai);
        while (ai < k->nargs && k->args[ai].at + k->args[ai].len <= spans[i].at)
            ai++;
        if (slot->kind == CG_SPAN_LITERAL) {
            int in_call = ai < k->nargs && k->args[ai].at <= spans[i].at;
            k->stmt[k->nlit] = in_call ? (long)k->args[ai].slot->stmt : -1;
            k->lit[k->nlit++] = k->np;
        }
        for (size_t j = 0; slot->kind == CG_SPAN_HEADER && j < spans[i].len; j++)
            k->header_lines += k->s[spans[i].at + j] == '\n';
        k->p[k->np++] = (part){spans[i].at, spans[i].len, slot, 0};
        pos = spans[i].at + spans[i].len;
    }
    add_code(k, pos, d->text.len, &ai);
    free(spans);
}

static void kern_free(kern *k)
{
    free(k->p);
    free(k->args);
    free(k->strs);
    free(k->lit);
    free(k->stmt);
}

/* A literal's own text, without the operator its span holds. */
static void literal_text(const part *p, size_t *at, size_t *len)
{
    *at = p->at + (p->slot->role == CG_LIT_ADDEND ? CG_LIT_GLUE : 0);
    *len = p->len - (p->slot->role == CG_LIT_PLAIN ? 0 : CG_LIT_GLUE);
}

/* The one of v[0..n) the text at off is in, or NULL. */
static const part *part_at(const part *v, size_t n, size_t off)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].at <= off && off < v[i].at + v[i].len)
            return &v[i];
    return NULL;
}

/* The argument of a call the text at off is in, or NULL. */
static const part *argument_at(const kern *k, size_t off)
{
    return part_at(k->args, k->nargs, off);
}

/* ---- comparing kernels: a walk over what must agree ---- */

/* Where a walk is: part i, byte off of it when it is code. Notes and the
 * header are stepped over: the rank count may change them. */
typedef struct cursor {
    const kern *k;
    size_t i, off;
} cursor;

static void settle(cursor *c)
{
    while (c->i < c->k->np) {
        const part *p = &c->k->p[c->i];
        int ignored = p->slot && (p->slot->kind == CG_SPAN_NOTE || p->slot->kind == CG_SPAN_HEADER);
        if (!ignored && (p->slot || c->off < p->len))
            return;
        c->i++;
        c->off = 0;
    }
}

static cursor start(const kern *k)
{
    cursor c = {k, 0, 0};
    settle(&c);
    return c;
}

static const part *unit(const cursor *c)
{
    return c->i < c->k->np ? &c->k->p[c->i] : NULL;
}

/* The text offset a walk has reached. */
static size_t where(const cursor *c)
{
    const part *p = unit(c);
    return p ? p->at + c->off : c->k->d->text.len;
}

static void step(cursor *c)
{
    if (unit(c) && !unit(c)->slot)
        c->off++;
    else
        c->i++, c->off = 0;
    settle(c);
}

/* The walks are at what agrees: one code byte, literals of one role and
 * operator (whatever their values), the check, or both at the end. */
static int same_unit(const cursor *a, const cursor *b)
{
    const part *x = unit(a), *y = unit(b);
    if (!x || !y)
        return !x && !y;
    if (!x->slot || !y->slot)
        return !x->slot && !y->slot && a->k->s[x->at + a->off] == b->k->s[y->at + b->off];
    if (x->slot->kind != y->slot->kind || x->slot->role != y->slot->role)
        return 0;
    return x->slot->role != CG_LIT_ADDEND || a->k->s[x->at + 1] == b->k->s[y->at + 1]; /* " + " or " - " */
}

static int in_argument(const cursor *c)
{
    return unit(c) && !unit(c)->slot && unit(c)->in_arg;
}

/* The same code outside the calls' arguments, and the same literals and
 * check in the same order: the kernels differ, if at all, in arguments. */
static int same_skeleton(const kern *a, const kern *b)
{
    cursor x = start(a), y = start(b);
    for (;;) {
        if (in_argument(&x) && in_argument(&y)) {
            while (in_argument(&x))
                step(&x);
            while (in_argument(&y))
                step(&y);
            continue;
        }
        if (!same_unit(&x, &y))
            return 0;
        if (!unit(&x))
            return 1;
        step(&x);
        step(&y);
    }
}

/* ---- the kernel ---- */

/* A division a model needs exact at the run's rank count: var / k (of_var)
 * or k / var. */
typedef struct division {
    int64_t k;
    int nd, j, of_var;
} division;

typedef struct elastic {
    unsigned k;             /* traces */
    const int64_t *n;       /* their rank counts, ascending */
    const char *const *dir; /* their directories */
    kern *kern;             /* their kernels; the largest run's, the reference, last */
    cg_nmodel *models;      /* per literal of the reference: its model */
    char *modelled;         /* per literal: a model, not the literal, goes in the kernel */
    uint32_t by_n, by_grid; /* literals modelled in N, in a grid dimension */
    division divisions[32]; /* divisions the models need exact */
    unsigned ndivisions;
    uint32_t single;  /* values only one rank count tells */
    uint32_t related; /* values that took the model of an equal value of their call */
    uint32_t bounds;  /* buffer sizes given a bound rather than a model */
    int grid_nd;      /* the dimensions of the kernel's grid (0: none) */
    int dims_used[4]; /* grids the models name, by dimensions */
} elastic;

/* What a model the kernel writes asks: its grid, and the division it needs exact. */
static void model_note(elastic *x, const cg_nmodel *m)
{
    if (m->nd) {
        x->dims_used[m->nd] = 1;
        x->by_grid++;
    } else {
        x->by_n++;
    }
    if (m->form != CG_NM_XDIV && m->form != CG_NM_QUOT)
        return;
    division d = {m->b, m->nd, m->j, m->form == CG_NM_XDIV};
    for (unsigned i = 0; i < x->ndivisions; i++) {
        const division *o = &x->divisions[i];
        if (o->k == d.k && o->nd == d.nd && o->j == d.j && o->of_var == d.of_var)
            return;
    }
    if (x->ndivisions < sizeof x->divisions / sizeof x->divisions[0])
        x->divisions[x->ndivisions++] = d;
}

static void header(const elastic *x, sb *out)
{
    sb_puts(out, "/* Elastic I/O kernel generated by recorder-codegen --elastic from the traces");
    size_t line = 70;
    for (unsigned i = 0; i < x->k; i++) {
        char item[300];
        int n = snprintf(item, sizeof item, " %.200s (%" PRId64 " ranks)%s", x->dir[i], x->n[i],
                         i + 1 < x->k ? "," : ".");
        if (line + (size_t)n > 105) {
            sb_puts(out, "\n *");
            line = 2;
        }
        sb_puts(out, item);
        line += (size_t)n;
    }
    sb_printf(
        out,
        "\n * It runs at any number of ranks N: %u value(s) of the traced kernels depend on N, %u of them\n"
        " * through N's MPI_Dims_create grid (a + b*x, a + k/x or x/k, x = N or a grid dimension).\n",
        x->by_n + x->by_grid, x->by_grid);
    if (x->single)
        sb_printf(out,
                  " * %u value(s) only one rank count tells (a grid dimension of extent 1 elsewhere) are "
                  "constant.\n",
                  x->single);
    if (x->related)
        sb_printf(out,
                  " * %u value(s) some rank counts cannot tell follow an equal value of the same call.\n",
                  x->related);
    if (x->bounds)
        sb_printf(out,
                  " * %u buffer size(s) no exact model fits have room for c*N + the largest traced size.\n",
                  x->bounds);
    if (x->ndivisions)
        sb_puts(out, " * It refuses an N at which a division of the models would not be exact.\n");
    sb_puts(out, " * Build: h5pcc -shlib kernel.c -o kernel; run: mpirun -np N ./kernel "
                 "[OUTDIR=./kernel-output]\n */");
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
            sb_printf(out, "int grid%d[%d] = {0};\n    MPI_Dims_create(nranks, %d, grid%d);\n    ", nd, nd,
                      nd, nd);
    if (!x->ndivisions) {
        sb_puts(out, "/* any number of ranks */");
        return;
    }
    /* "K1LL % v || K2LL % v" is "gcd(K1, K2)LL % v": one test per variable */
    sb cond = {0};
    int done[32] = {0};
    for (unsigned i = 0; i < x->ndivisions; i++) {
        const division *d = &x->divisions[i];
        char var[32];
        cg_nmodel_var(d->nd, d->j, var, sizeof var);
        if (done[i])
            continue;
        if (d->of_var) {
            sb_printf(&cond, "%s%s %% %" PRId64, cond.len ? " || " : "", var, d->k);
            continue;
        }
        int64_t g = d->k;
        for (unsigned j = i + 1; j < x->ndivisions; j++) {
            const division *e = &x->divisions[j];
            if (!done[j] && !e->of_var && e->nd == d->nd && e->j == d->j) {
                g = gcd(g, e->k);
                done[j] = 1;
            }
        }
        sb_printf(&cond, "%s%" PRId64 "LL %% %s", cond.len ? " || " : "", g, var);
    }
    sb_printf(out,
              "/* the traced runs divided their data evenly */\n"
              "    if (%s) {\n"
              "        if (rank == 0)\n"
              "            fprintf(stderr, \"%s: cannot run at %%d ranks: they do not divide the data "
              "evenly\\n\", nranks);\n"
              "        MPI_Finalize();\n        return 1;\n    }",
              sb_str(&cond), program);
    sb_free(&cond);
}

/* Line number and text of kernel text s around offset off. */
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

/* The start of line `line` of s (its last line when s is shorter). */
static size_t line_start(const char *s, unsigned line)
{
    size_t off = 0;
    for (unsigned l = 1; l < line; l++) {
        const char *nl = strchr(s + off, '\n');
        if (!nl || !nl[1])
            break;
        off = (size_t)(nl + 1 - s);
    }
    return off;
}

/* "2 ranks, line 117: `close(fd);`": the code line at off: the one after
 * when it holds a comment alone, the one before when a brace alone. */
static int place(const char *s, size_t off, int64_t n, const char *sep, char *msg, size_t cap)
{
    char line[256];
    unsigned no;
    line_at(s, off, line, sizeof line, &no);
    size_t len = strlen(line);
    while (len >= 4 && !strncmp(line, "/*", 2) && !strcmp(line + len - 2, "*/") && strchr(s + off, '\n')) {
        off = (size_t)(strchr(s + off, '\n') - s) + 1;
        line_at(s, off, line, sizeof line, &no);
        len = strlen(line);
    }
    while (strlen(line) < 3 && off > 0) {
        while (off > 0 && s[off - 1] != '\n')
            off--;
        off = off > 0 ? off - 1 : 0;
        line_at(s, off, line, sizeof line, &no);
    }
    return snprintf(msg, cap, "%s %" PRId64 " ranks, line %u: `%.120s`", sep, n, no, line);
}

/* Kernel i goes its own way: each kernel's line where it does, or, for a
 * kernel that left the reference earlier, its line as far into its body. */
static int refuse_structure(const elastic *x, unsigned i, rec_error *err)
{
    const unsigned ref = x->k - 1;
    const kern *r = &x->kern[ref];
    cursor a = start(&x->kern[i]), b = start(r);
    while ((unit(&a) || unit(&b)) && same_unit(&a, &b))
        step(&a), step(&b);
    size_t stop = where(&b);
    char line[256];
    unsigned ref_line;
    line_at(r->s, stop, line, sizeof line, &ref_line);
    int n = snprintf(
        err->msg, sizeof err->msg,
        "--elastic: the kernels differ in structure (a call, loop or table that the rank count changes):");
    for (unsigned j = 0; j < x->k && n > 0 && (size_t)n < sizeof err->msg; j++) {
        const kern *kj = &x->kern[j];
        cursor c = start(kj), q = start(r);
        while (j != i && where(&q) < stop && same_unit(&c, &q))
            step(&c), step(&q);
        size_t off = j == i ? where(&a) : where(&c);
        if (j != i && where(&q) < stop) /* it left the reference before: its line as far into its body */
            off = line_start(kj->s, kj->header_lines + ref_line - r->header_lines);
        n += place(kj->s, off, x->n[j], j ? ";" : "", err->msg + n, sizeof err->msg - n);
    }
    return -1;
}

/* What a refusal shows of kernel k at off: the string literal, else the
 * call argument, else the line (40 bytes at most). */
static void shown(const kern *k, size_t off, char *out, size_t cap)
{
    const part *a = part_at(k->strs, k->nstrs, off);
    a = a ? a : argument_at(k, off);
    char line[256];
    unsigned no;
    if (a) {
        snprintf(out, cap, "%.*s", (int)(a->len < 40 ? a->len : 40), k->s + a->at);
    } else {
        line_at(k->s, off, line, sizeof line, &no);
        snprintf(out, cap, "%.40s", line);
    }
}

/* " (argument 2, size, of MPI_File_set_size)": the call argument at off of the reference. */
static void argument_name(const kern *k, size_t off, char *out, size_t cap)
{
    const part *a = argument_at(k, off);
    *out = 0;
    if (a && a->slot->f && a->slot->arg < a->slot->f->nargs)
        snprintf(out, cap, " (argument %u, %s, of %s)", a->slot->arg + 1, a->slot->f->args[a->slot->arg].name,
                 a->slot->f->name);
}

/* why, at the text (what) each kernel has at its walk's place c[i]. */
static int refuse_at(const elastic *x, const cursor *c, const char *why, int literal, rec_error *err)
{
    const kern *r = &x->kern[x->k - 1];
    char what[16][64], arg[160], line[256];
    for (unsigned i = 0; i < x->k; i++) {
        const part *p = unit(&c[i]);
        size_t at, len;
        if (literal) {
            literal_text(p, &at, &len);
            snprintf(what[i], sizeof what[i], "%.*s", (int)(len < 40 ? len : 40), x->kern[i].s + at);
        } else {
            shown(&x->kern[i], where(&c[i]), what[i], sizeof what[i]);
        }
    }
    size_t at = where(&c[x->k - 1]), len;
    if (literal)
        literal_text(unit(&c[x->k - 1]), &at, &len);
    unsigned no;
    line_at(r->s, at, line, sizeof line, &no);
    argument_name(r, at, arg, sizeof arg);
    int n = snprintf(err->msg, sizeof err->msg,
                     "--elastic: %s at `%s`%s in `%s` (line %u of the %" PRId64 "-rank kernel);", why,
                     what[x->k - 1], arg, line, no, x->n[x->k - 1]);
    for (unsigned i = 0; i < x->k && n > 0 && (size_t)n < sizeof err->msg; i++)
        n += snprintf(err->msg + n, sizeof err->msg - n, " %" PRId64 " ranks: %s%s", x->n[i], what[i],
                      i + 1 < x->k ? "," : "");
    return -1;
}

/* A value some rank counts cannot tell (a grid coordinate's coefficient
 * where that dimension has extent 1) takes the model of another value of
 * the same call that equals it wherever it is told: the coefficient of a
 * hyperslab's start is its count. 0 and the model, or -1. */
static int adopt_related(const elastic *x, size_t q, const int64_t *n, const int64_t *v, unsigned known,
                         cg_nmodel *out)
{
    const kern *r = &x->kern[x->k - 1];
    for (size_t b = 0; r->stmt[q] >= 0 && b < r->nlit; b++) {
        if (b == q || r->stmt[b] != r->stmt[q])
            continue;
        int64_t w[16];
        int all = 1;
        for (unsigned i = 0; i < x->k && all; i++) {
            const cg_slot *s = x->kern[i].p[x->kern[i].lit[b]].slot;
            all = !s->unknown;
            w[i] = s->value;
        }
        cg_nmodel m;
        if (!all || cg_nmodel_fit(x->n, w, x->k, x->grid_nd, &m) != 0 || m.form == CG_NM_CONST)
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

/* Literal q, at c[i] in each kernel: its model where the kernels differ on it. */
static int fit_literal(elastic *x, size_t q, const cursor *c, rec_error *err)
{
    const cg_slot *ref = unit(&c[x->k - 1])->slot;
    int64_t v[16], n[16];
    unsigned known = 0;
    int differs = 0;
    for (unsigned i = 0; i < x->k; i++) {
        const cg_slot *s = unit(&c[i])->slot;
        differs |= s->unknown || s->value != ref->value;
        if (!s->unknown) {
            n[known] = x->n[i];
            v[known++] = s->value;
        }
    }
    if (!differs)
        return 0;
    cg_nmodel m;
    if (ref->scope == CG_SCOPE_SIZE && known == x->k && cg_nmodel_fit(n, v, known, x->grid_nd, &m) != 0) {
        /* a buffer's capacity: room enough, c*N + max, where no exact model fits */
        int64_t cmax = 0, max = 0;
        for (unsigned i = 0; i < known; i++) {
            cmax = (v[i] + n[i] - 1) / n[i] > cmax ? (v[i] + n[i] - 1) / n[i] : cmax;
            max = v[i] > max ? v[i] : max;
        }
        m = (cg_nmodel){CG_NM_PROD, 0, 0, max, cmax};
        x->bounds++;
    } else if (known < x->k && adopt_related(x, q, n, v, known, &m) == 0) {
        x->related++;
    } else if (known < 2) {
        /* one rank count tells it (a grid dimension of extent 1 elsewhere): the simplest model */
        m = (cg_nmodel){CG_NM_CONST, 0, 0, v[0], 0};
        x->single++;
    } else if (cg_nmodel_fit(n, v, known, x->grid_nd, &m) != 0) {
        return refuse_at(x, c, "no exact model in the rank count for the value", 1, err);
    }
    if (ref->scope == CG_SCOPE_STATIC)
        return refuse_at(x, c, "a value outside main (a constant table) depends on the rank count", 1, err);
    if (m.form == CG_NM_CONST)
        return 0; /* the same wherever it is told: the literal stays */
    x->models[q] = m;
    x->modelled[q] = 1;
    model_note(x, &m);
    return 0;
}

/* The kernels, walked together: code must agree, literals are fitted. */
static int fit(elastic *x, rec_error *err)
{
    cursor c[16];
    for (unsigned i = 0; i < x->k; i++)
        c[i] = start(&x->kern[i]);
    for (size_t q = 0;;) {
        for (unsigned i = 0; i + 1 < x->k; i++)
            if (!same_unit(&c[i], &c[x->k - 1]))
                return refuse_at(x, c, "the kernels differ", 0, err);
        const part *p = unit(&c[x->k - 1]);
        if (!p)
            return 0;
        if (p->slot && p->slot->kind == CG_SPAN_LITERAL && fit_literal(x, q++, c, err) != 0)
            return -1;
        for (unsigned i = 0; i < x->k; i++)
            step(&c[i]);
    }
}

/* A literal that stays a coefficient 1 or an addend 0 in main goes with its
 * operator: "1 * x" is "x", "x + 0" is "x". */
static int vanishes(const cg_slot *s)
{
    return s->scope == CG_SCOPE_MAIN &&
           ((s->role == CG_LIT_COEF && s->value == 1) || (s->role == CG_LIT_ADDEND && s->value == 0));
}

/* The reference kernel, each literal as itself or its model, with the
 * elastic header and check. */
static void render(elastic *x, const char *program, sb *out)
{
    const kern *r = &x->kern[x->k - 1];
    for (size_t i = 0, q = 0; i < r->np; i++) {
        const part *p = &r->p[i];
        const cg_slot *s = p->slot;
        if (s && s->kind == CG_SPAN_HEADER) {
            header(x, out);
        } else if (s && s->kind == CG_SPAN_CHECK) {
            check_text(x, program, out);
        } else if (s && s->kind == CG_SPAN_LITERAL && x->modelled[q]) {
            size_t at, len;
            literal_text(p, &at, &len);
            sb_putn(out, r->s + p->at, at - p->at);
            cg_nmodel_text(&x->models[q], s->tight, out);
            sb_putn(out, r->s + at + len, p->at + p->len - at - len);
        } else if (!s || s->kind != CG_SPAN_LITERAL || !vanishes(s)) {
            sb_putn(out, r->s + p->at, p->len);
        }
        q += s && s->kind == CG_SPAN_LITERAL;
    }
}

int cg_elastic_unify(const cg_doc *docs, const int64_t *nranks, const char *const *dirs, unsigned k,
                     const char *program, char **kernel, rec_error *err)
{
    elastic x;
    memset(&x, 0, sizeof x);
    x.k = k;
    x.n = nranks;
    x.dir = dirs;
    x.kern = cg_calloc(k, sizeof *x.kern);
    for (unsigned i = 0; i < k; i++)
        kern_init(&x.kern[i], &docs[i]);
    x.grid_nd = docs[k - 1].grid_nd;
    int rc = 0;
    for (unsigned i = 0; i + 1 < k && rc == 0; i++)
        if (!same_skeleton(&x.kern[i], &x.kern[k - 1]))
            rc = refuse_structure(&x, i, err);
    if (rc == 0) {
        x.models = cg_calloc(x.kern[k - 1].nlit + 1, sizeof *x.models);
        x.modelled = cg_calloc(x.kern[k - 1].nlit + 1, 1);
        rc = fit(&x, err);
    }
    if (rc == 0) {
        sb out = {0};
        render(&x, program, &out);
        *kernel = cg_wrap_lines(sb_str(&out), CG_COLUMNS);
        sb_free(&out);
    }
    for (unsigned i = 0; i < k; i++)
        kern_free(&x.kern[i]);
    free(x.kern);
    free(x.models);
    free(x.modelled);
    return rc;
}

int rec_codegen_elastic(const char *const *trace_dirs, unsigned ntraces, const rec_codegen_options *o,
                        char **kernel, rec_error *err)
{
    if (ntraces < 3 || ntraces > 16) {
        snprintf(err->msg, sizeof err->msg,
                 "--elastic needs 3 to 16 traces (at different rank counts), got %u", ntraces);
        return -1;
    }
    int64_t n[16];
    const char *dir[16];
    unsigned k = 0;
    for (unsigned i = 0; i < ntraces; i++) {
        rec_trace *t = rec_trace_open(trace_dirs[i], err);
        if (!t)
            return -1;
        int64_t nr = rec_trace_get_info(t)->nranks;
        rec_trace_close(t);
        /* sorted by rank count, as traces are given in any order */
        unsigned at = k;
        while (at > 0 && n[at - 1] > nr) {
            n[at] = n[at - 1];
            dir[at] = dir[at - 1];
            at--;
        }
        if (at > 0 && n[at - 1] == nr) {
            snprintf(err->msg, sizeof err->msg, "--elastic: %s and %s were both traced at %" PRId64 " ranks",
                     dir[at - 1], trace_dirs[i], nr);
            return -1;
        }
        n[at] = nr;
        dir[at] = trace_dirs[i];
        k++;
    }
    rec_codegen_options opts;
    rec_codegen_options_init(&opts);
    if (o)
        opts = *o;
    opts.elastic = 1;
    /* the largest run first: its fits guide the others, which use its ROOT */
    rec_codegen_hints hints = {.recording = 1};
    opts.hints = &hints;
    cg_doc docs[16];
    memset(docs, 0, sizeof docs);
    int rc = 0;
    for (unsigned i = k; i-- > 0 && rc == 0;) {
        rc = cg_codegen(dir[i], &opts, NULL, &docs[i], err);
        if (rc == 0 && i == k - 1) {
            opts.root = docs[i].root;
            hints.recording = 0;
        }
        const char *dump =
            getenv("RECORDER_CODEGEN_ELASTIC_DUMP"); /* a directory: each run's kernel, to compare */
        if (rc == 0 && dump) {
            char path[4096];
            snprintf(path, sizeof path, "%s/kernel.%" PRId64 ".c", dump, n[i]);
            FILE *f = fopen(path, "w");
            if (f) {
                fputs(sb_str(&docs[i].text), f);
                fclose(f);
            }
        }
    }
    if (rc == 0)
        rc = cg_elastic_unify(docs, n, dir, k, opts.program ? opts.program : "kernel", kernel, err);
    free(hints.v);
    for (unsigned i = 0; i < k; i++)
        cg_doc_free(&docs[i]);
    return rc;
}
