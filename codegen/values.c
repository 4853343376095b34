/* values.c: fitting one field of a statement by the class of its values.
 * Strings are split into literal text and digit runs: when every value has
 * the same literal parts, each run that varies is a number of its own and
 * the string becomes a printf pattern ("Timestep_%d", "ckpt.%d.%d"); zero
 * padding is kept when every run has the same width. Arrays are fitted
 * element by element. What fits no pattern is a categorical value. */
#include "cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A digit run of a string: where it is, its value, and whether it can be a
 * number of the pattern (at most 18 digits). */
typedef struct digit_run {
    uint32_t at, len;
    int64_t value;
    int lead0;
} digit_run;

typedef struct split {
    const char *s;
    uint32_t n, nruns;
    digit_run *runs;
} split;

/* Splits s into literal parts and digit runs. Any number of runs of any
 * length: the run's directory (job ids, dates, hashes) holds many, and a
 * run that never varies is literal text, whatever its length. */
static void split_string(const char *s, uint32_t n, split *o)
{
    o->s = s;
    o->n = n;
    o->nruns = 0;
    uint32_t cap = 0;
    for (uint32_t i = 0; i < n;) {
        if (s[i] < '0' || s[i] > '9') {
            i++;
            continue;
        }
        if (o->nruns == cap) {
            cap = cap ? 2 * cap : 8;
            o->runs = cg_realloc(o->runs, cap * sizeof *o->runs);
        }
        digit_run *r = &o->runs[o->nruns++];
        r->at = i;
        r->value = 0;
        r->lead0 = s[i] == '0' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9';
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (i - r->at < 18)
                r->value = r->value * 10 + (s[i] - '0');
        r->len = i - r->at;
    }
}

/* Whether run j of a and b differ (by their text: a long run has no value). */
static int runs_differ(const split *a, const split *b, uint32_t j)
{
    return a->runs[j].len != b->runs[j].len || memcmp(a->s + a->runs[j].at, b->s + b->runs[j].at, a->runs[j].len) != 0;
}

/* Appends s (n bytes) escaped for a printf format inside a C string literal. */
static void put_format_literal(sb *b, const char *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%')
            sb_puts(b, "%%");
        else if (c == '"' || c == '\\')
            sb_printf(b, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(b, "\\%03o", c);
        else
            sb_putc(b, (char)c);
    }
}

static int fit_str_pattern(const cg_fitctx *x, int allow_tables, cg_fieldfit *o)
{
    uint32_t nr = x->rs->n, total = x->ninsts * nr;
    split *sp = cg_calloc(total, sizeof *sp);
    int rc = 0;
    for (uint32_t i = 0; i < total && rc == 0; i++) {
        int64_t id = x->vals[i / nr][i % nr];
        const char *s = cg_str(x->m, id);
        if (s)
            split_string(s, cg_str_len(x->m, id), &sp[i]);
        rc = s && sp[i].nruns == sp[0].nruns ? 0 : -1;
    }
    /* The runs that vary become numbers; the others stay literal. */
    uint32_t nruns = rc == 0 ? sp[0].nruns : 0;
    int *varies = cg_calloc(nruns + 1, sizeof *varies), *width = cg_calloc(nruns + 1, sizeof *width),
        *ll = cg_calloc(nruns + 1, sizeof *ll);
    uint32_t nvar = 0;
    for (uint32_t j = 0; j < nruns && rc == 0; j++) {
        int lead0 = 0, one_width = 1;
        for (uint32_t i = 0; i < total; i++) {
            varies[j] |= runs_differ(&sp[i], &sp[0], j);
            lead0 |= sp[i].runs[j].lead0;
            one_width &= sp[i].runs[j].len == sp[0].runs[j].len;
            ll[j] |= sp[i].runs[j].value > INT32_MAX;
        }
        if (varies[j] && ((lead0 && !one_width) || sp[0].runs[j].len > 18))
            rc = -1; /* a long number that varies is no pattern */
        width[j] = lead0 ? (int)sp[0].runs[j].len : 0;
        /* elastic: the runs the largest run found varying vary here too, even if equal */
        const cg_hint *h = rc == 0 ? cg_hint_find(x->m, CG_HINT_STR_RUNS) : NULL;
        if (h && j < 64 && ((uint64_t)h->div >> j & 1) && !varies[j] && !lead0)
            varies[j] = 1;
        nvar += (uint32_t)varies[j];
    }
    if (rc == 0 && x->m->hints && x->m->hints->recording) {
        uint64_t mask = 0;
        for (uint32_t j = 0; j < nruns && j < 64; j++)
            mask |= (uint64_t)(varies[j] != 0) << j;
        cg_hint_put(x->m, &(cg_hint){x->m->hint_stmt, x->m->hint_field, CG_HINT_STR_RUNS, 254, 0, 0, (int64_t)mask});
    }
    if (rc == 0 && nvar == 0)
        rc = -1; /* all equal: a constant */
    /* Each value's printf format: its literal text with the varying runs as conversions.
     * The formats must be equal everywhere, or chosen by the rank or by one counter. */
    int64_t *cells = cg_alloc((total + 1) * sizeof *cells);
    const int64_t **rows = cg_alloc((x->ninsts + 1) * sizeof *rows);
    for (uint32_t t = 0; t < x->ninsts; t++)
        rows[t] = cells + (size_t)t * nr;
    cg_fitctx sub = *x;
    sub.vals = rows;
    for (uint32_t i = 0; i < total && rc == 0; i++) {
        sb fmt = {0};
        uint32_t from = 0;
        for (uint32_t j = 0; j <= nruns; j++) {
            const digit_run *r = j < nruns ? &sp[i].runs[j] : NULL;
            uint32_t to = r ? r->at : sp[i].n;
            put_format_literal(&fmt, sp[i].s + from, to - from);
            if (!r)
                break;
            from = r->at + r->len;
            if (!varies[j])
                put_format_literal(&fmt, sp[i].s + r->at, r->len);
            else if (width[j])
                sb_printf(&fmt, "%%0%d%s", width[j], ll[j] ? "lld" : "d");
            else
                sb_puts(&fmt, ll[j] ? "%lld" : "%d");
        }
        cells[i] = cg_str_id(x->m, fmt.s, fmt.len);
        sb_free(&fmt);
    }
    if (rc == 0) {
        o->cls = CG_FIT_STR;
        rc = cg_fit_cat(&sub, allow_tables, &o->fmt);
        /* A format chosen by one counter reads well only inside nested loops
         * (a step writing several variables); elsewhere the names are clearer. */
        if (rc == 0 && o->fmt.mode != CG_CAT_CONST && (o->fmt.table != CG_TAB_CTR || x->dims.n < 2))
            rc = -1;
    }
    if (rc == 0) {
        o->nruns = nvar;
        o->runs = cg_calloc(nvar, sizeof *o->runs);
        o->width = cg_calloc(nvar, sizeof *o->width);
        o->llrun = cg_calloc(nvar, sizeof *o->llrun);
        for (uint32_t j = 0, v = 0; j < nruns && rc == 0; j++) {
            if (!varies[j])
                continue;
            for (uint32_t i = 0; i < total; i++)
                cells[i] = sp[i].runs[j].value;
            o->width[v] = width[j];
            o->llrun[v] = ll[j];
            x->m->hint_sub = 1000 + v; /* elastic hints: which number of the field */
            rc = cg_fit_num(&sub, &o->runs[v]);
            /* numbers from a table are no pattern: the strings themselves are clearer */
            if (rc == 0 && (o->runs[v].table || o->runs[v].ternary))
                rc = -1;
            v++;
        }
    }
    free(cells);
    free(rows);
    for (uint32_t i = 0; i < total; i++)
        free(sp[i].runs);
    free(sp);
    free(varies);
    free(width);
    free(ll);
    return rc;
}

/* Strings that are all prefixes of the longest one (mkdir -p makes every
 * directory on the way): the longest string and how much of it. */
static int fit_str_prefixes(const cg_fitctx *x, int allow_tables, cg_fieldfit *o)
{
    uint32_t nr = x->rs->n, total = x->ninsts * nr;
    if (x->ninsts < 2)
        return -1;
    int64_t longest = x->vals[0][0];
    for (uint32_t i = 0; i < total; i++)
        if (cg_str_len(x->m, x->vals[i / nr][i % nr]) > cg_str_len(x->m, longest))
            longest = x->vals[i / nr][i % nr];
    const char *l = cg_str(x->m, longest);
    int64_t *lens = cg_alloc(total * sizeof *lens);
    const int64_t **rows = cg_alloc(x->ninsts * sizeof *rows);
    int rc = l ? 0 : -1, differ = 0;
    for (uint32_t i = 0; i < total && rc == 0; i++) {
        differ |= x->vals[i / nr][i % nr] != longest;
        int64_t v = x->vals[i / nr][i % nr];
        const char *s = cg_str(x->m, v);
        lens[i] = cg_str_len(x->m, v);
        rc = s && !memcmp(s, l, (size_t)lens[i]) ? 0 : -1;
    }
    for (uint32_t t = 0; t < x->ninsts; t++)
        rows[t] = lens + (size_t)t * nr;
    if (rc == 0 && !differ)
        rc = -1; /* one string: a constant */
    if (rc == 0) {
        o->cls = CG_FIT_STR;
        o->is_prefix = 1;
        o->prefix_of = longest;
        o->nruns = 1;
        o->fmt.mode = CG_CAT_CONST;
        o->fmt.value = cg_str_id(x->m, "%.*s", 4);
        o->runs = cg_calloc(1, sizeof *o->runs);
        o->width = cg_calloc(1, sizeof *o->width);
        o->llrun = cg_calloc(1, sizeof *o->llrun);
        cg_fitctx sub = *x;
        sub.vals = rows;
        x->m->hint_sub = 2000;
        rc = cg_fit_num(&sub, &o->runs[0]);
        if (rc == 0 && !allow_tables && o->runs[0].table)
            rc = -1;
    }
    free(lens);
    free(rows);
    return rc;
}

int cg_fit_values(const cg_fitctx *x, int cls, int el_cls, int allow_tables, cg_fieldfit *o)
{
    memset(o, 0, sizeof *o);
    if (cls == CG_FIT_NUM) {
        o->cls = CG_FIT_NUM;
        if (cg_fit_num(x, &o->num) == 0 && (allow_tables || !o->num.table))
            return 0;
        cg_fieldfit_free(o);
        return -1;
    }
    if (cls == CG_FIT_STR) {
        if (fit_str_pattern(x, allow_tables, o) == 0)
            return 0;
        cg_fieldfit_free(o);
        memset(o, 0, sizeof *o);
        if (fit_str_prefixes(x, allow_tables, o) == 0)
            return 0;
        cg_fieldfit_free(o);
        memset(o, 0, sizeof *o);
    }
    if (cls == CG_FIT_ARR) {
        uint32_t nr = x->rs->n, n0;
        cg_arr(x->m, x->vals[0][0], &n0);
        int same_len = 1;
        for (uint32_t t = 0; t < x->ninsts && same_len; t++)
            for (uint32_t k = 0; k < nr && same_len; k++) {
                uint32_t n;
                cg_arr(x->m, x->vals[t][k], &n);
                same_len = n == n0 && x->vals[t][k] >= 0;
            }
        if (same_len) {
            o->cls = CG_FIT_ARR;
            o->nel = n0;
            o->el = cg_calloc(n0 ? n0 : 1, sizeof *o->el);
            int64_t *cells = cg_alloc((size_t)x->ninsts * nr * sizeof *cells + 1);
            const int64_t **rows = cg_alloc(x->ninsts * sizeof *rows + 1);
            int rc = 0;
            /* Two or more elements that vary with the rank: a block decomposition
             * (hyperslab or subarray corners), whose elements are grid coordinates. */
            uint32_t varying = 0;
            for (uint32_t e = 0; e < n0; e++)
                for (uint32_t k = 1; k < nr; k++) {
                    uint32_t n;
                    if (cg_arr(x->m, x->vals[0][k], &n)[e] != cg_arr(x->m, x->vals[0][0], &n)[e]) {
                        varying++;
                        break;
                    }
                }
            int grid_nd = varying >= 2 && nr == x->m->nranks ? (varying == 2 ? 2 : 3) : 0;
            for (uint32_t e = 0; e < n0 && rc == 0; e++) {
                for (uint32_t t = 0; t < x->ninsts; t++) {
                    for (uint32_t k = 0; k < nr; k++) {
                        uint32_t n;
                        cells[(size_t)t * nr + k] = cg_arr(x->m, x->vals[t][k], &n)[e];
                    }
                    rows[t] = cells + (size_t)t * nr;
                }
                cg_fitctx sub = *x;
                sub.vals = rows;
                sub.grid_nd = grid_nd;
                x->m->hint_sub = e + 1;
                rc = cg_fit_values(&sub, el_cls, CG_FIT_NUM, allow_tables, &o->el[e]);
                if (rc)
                    o->nel = e;
            }
            free(cells);
            free(rows);
            if (rc == 0)
                return 0;
            cg_fieldfit_free(o);
            memset(o, 0, sizeof *o);
        }
    }
    o->cls = CG_FIT_CAT;
    o->strings = cls == CG_FIT_STR;
    /* arrays of differing lengths: a choice by rank, never a table */
    if (cg_fit_cat(x, cls == CG_FIT_ARR ? 0 : allow_tables, &o->cat) == 0)
        return 0;
    cg_fieldfit_free(o);
    return -1;
}

void cg_fieldfit_free(cg_fieldfit *f)
{
    cg_num_free(&f->num);
    cg_cat_free(&f->cat);
    for (uint32_t j = 0; f->runs && j < f->nruns; j++)
        cg_num_free(&f->runs[j]);
    cg_cat_free(&f->fmt);
    free(f->llrun);
    free(f->runs);
    free(f->width);
    for (uint32_t e = 0; f->el && e < f->nel; e++)
        cg_fieldfit_free(&f->el[e]);
    free(f->el);
    memset(f, 0, sizeof *f);
}

static size_t num_cost(const cg_num *n)
{
    size_t cost = n->c ? 6 : 1;
    cost += 12 * n->nterms;
    if (n->table || n->ternary)
        cost += 12 + 8 * n->ntab;
    return cost;
}

static size_t value_cost(const cg_model *m, const cg_fieldfit *f, int64_t v)
{
    return f->strings ? cg_str_len(m, v) + 4 : 18;
}

/* A constant, a choice by rank (a few values), or a table of them. */
static size_t cat_cost(const cg_model *m, const cg_fieldfit *f)
{
    const cg_cat *c = &f->cat;
    if (c->mode == CG_CAT_CONST)
        return value_cost(m, f, c->value);
    size_t cost = c->mode == CG_CAT_TERNARY ? 8 : 56;
    for (uint32_t k = 0; k < c->ntab; k++) {
        uint32_t j = 0;
        while (c->mode == CG_CAT_TERNARY && j < k && c->tab[j] != c->tab[k])
            j++;
        if (c->mode != CG_CAT_TERNARY || j == k)
            cost += value_cost(m, f, c->tab[k]) + (c->mode == CG_CAT_TERNARY ? 16 : 2);
    }
    return cost;
}

size_t cg_fieldfit_cost(const cg_model *m, const cg_fieldfit *f)
{
    switch (f->cls) {
    case CG_FIT_NUM:
        return num_cost(&f->num);
    case CG_FIT_STR: {
        cg_fieldfit fmt = {.cls = CG_FIT_CAT, .strings = 1, .cat = f->fmt};
        size_t cost = 8 + (f->is_prefix ? cg_str_len(m, f->prefix_of) : 0) + cat_cost(m, &fmt);
        for (uint32_t j = 0; j < f->nruns; j++)
            cost += num_cost(&f->runs[j]);
        return cost;
    }
    case CG_FIT_ARR: {
        size_t cost = 16;
        for (uint32_t e = 0; e < f->nel; e++)
            cost += cg_fieldfit_cost(m, &f->el[e]) + 2;
        return cost;
    }
    default:
        return cat_cost(m, f);
    }
}
