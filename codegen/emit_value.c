/* emit_value.c: values as C expressions -- constants by their symbolic
 * names, relations with the rank and the loop counters, rank conditions,
 * string patterns, and the tables the kernel declares. */
#include "emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cg_counter_name(unsigned depth)
{
    static const char *const names[CG_MAX_DEPTH] = {"i", "j", "k", "l", "m", "n", "p", "q"};
    return names[depth < CG_MAX_DEPTH ? depth : CG_MAX_DEPTH - 1];
}

const char *cg_unique_name(cg_emitter *e, const char *base)
{
    static const char *const reserved[] = {
        "rank",     "nranks", "outdir", "wbuf",       "rbuf", "st",   "st64",  "stx",         "status",
        "statuses", "coords", "main",   "argc",       "argv", "P",    "S",     "i",           "j",
        "k",        "l",      "m",      "n",          "p",    "q",    "setup", "grid_coords", "inputs",
        "b",        "traced", "bufs",   "int",        "char", "long", "const", "lbuf",        "tbuf",
        "lines",    "texts",  "links",  "write_text", NULL};
    char name[128];
    for (unsigned suffix = 1;; suffix++) {
        if (suffix == 1)
            snprintf(name, sizeof name, "%s", base);
        else
            snprintf(name, sizeof name, "%s_%u", base, suffix);
        int taken = 0;
        for (const char *const *r = reserved; *r && !taken; r++)
            taken = !strcmp(*r, name);
        for (size_t i = 0; i < e->nnames && !taken; i++)
            taken = !strcmp(e->names[i], name);
        if (!taken)
            break;
    }
    e->names = cg_realloc(e->names, (e->nnames + 1) * sizeof *e->names);
    e->names[e->nnames] = cg_strdup(name);
    return e->names[e->nnames++];
}

const char *cg_table_add(cg_emitter *e, const char *base, const char *ctype, sb *body, uint32_t n, int local,
                         const char *label, unsigned per_line)
{
    for (size_t i = 0; i < e->ntables; i++)
        if (!strcmp(e->tables[i].ctype, ctype) && !strcmp(sb_str(&e->tables[i].body), sb_str(body)))
            return e->tables[i].name;
    e->tables = cg_realloc(e->tables, (e->ntables + 1) * sizeof *e->tables);
    cg_table *t = &e->tables[e->ntables++];
    t->name = cg_strdup(cg_unique_name(e, base));
    t->ctype = cg_strdup(ctype);
    t->body = (sb){0};
    sb_append(&t->body, body);
    t->n = n;
    t->local = local;
    t->label = label;
    t->per_line = per_line;
    t->values = NULL;
    t->dropped = 0;
    return t->name;
}

/* ---- rank conditions ---- */

void cg_rank_condition(const cg_rankset *rs, uint32_t nranks, sb *out)
{
    cg_index_condition(NULL, rs->ranks, rs->n, nranks, "rank", out);
}

void cg_rank_condition_elastic(cg_emitter *e, const cg_rankset *rs, int largest, sb *out)
{
    const uint32_t *r = rs->ranks, n = rs->n;
    uint32_t step = n > 1 ? r[1] - r[0] : 1;
    for (uint32_t k = 2; k < n; k++)
        if (r[k] - r[k - 1] != step) {
            cg_index_condition(e, r, n, UINT32_MAX, "rank", out);
            return;
        }
    sb_puts(out, "in_ranks(rank, ");
    cg_put_literal(e, r[0], "", 0, out);
    sb_puts(out, ", ");
    if (n == 1 && !largest)
        cg_put_unknown(e, 0, out);
    else
        cg_put_literal(e, step, "", 0, out);
    sb_puts(out, ", ");
    cg_put_literal(e, r[n - 1], "", 0, out);
    sb_putc(out, ')');
}

/* "var OP v", v a literal. */
static void compare(cg_emitter *e, const char *var, const char *op, uint32_t v, sb *out)
{
    sb_printf(out, "%s %s ", var, op);
    cg_put_literal(e, v, "", 0, out);
}

/* One progression as a condition; compound ones in parentheses when `alone`
 * is 0 (a part of a || chain). */
static void progression_condition(cg_emitter *e, cg_progression p, uint32_t total, const char *var, int alone,
                                  sb *out)
{
    uint32_t first = p.first, last = p.first + (p.count - 1) * p.step;
    if (p.count == 1) {
        compare(e, var, "==", first, out);
        return;
    }
    int parts = p.step == 1 ? 1 + (first != 0 && last != total - 1)
                            : 1 + (first >= p.step) + (last + p.step < total);
    int wrap = !alone && parts > 1;
    if (wrap)
        sb_putc(out, '(');
    if (p.step == 1) {
        if (first == 0) {
            compare(e, var, "<", last + 1, out);
        } else if (last == total - 1) {
            compare(e, var, ">=", first, out);
        } else {
            compare(e, var, ">=", first, out);
            sb_puts(out, " && ");
            compare(e, var, "<=", last, out);
        }
    } else {
        if (first >= p.step) {
            compare(e, var, ">=", first, out);
            sb_puts(out, " && ");
        }
        sb_printf(out, "%s %% ", var);
        cg_put_literal(e, p.step, "", 1, out);
        sb_puts(out, " == ");
        cg_put_literal(e, first % p.step, "", 0, out);
        if (last + p.step < total) {
            sb_puts(out, " && ");
            compare(e, var, "<=", last, out);
        }
    }
    if (wrap)
        sb_putc(out, ')');
}

static void union_condition(cg_emitter *e, const cg_progression *p, uint32_t np, uint32_t total, const char *var,
                            sb *out)
{
    for (uint32_t k = 0; k < np; k++) {
        sb_puts(out, k ? " || " : "");
        progression_condition(e, p[k], total, var, np == 1, out);
    }
}

/* The indexes as the fewest progressions: the set's own, or those of the
 * indexes it leaves out of 0 .. total-1 (all ranks but every 16th is
 * rank % 16 != 0, not 3,840 comparisons). Its size follows the structure of
 * the set, not the number of indexes, wherever the set has one. */
void cg_index_condition(cg_emitter *e, const uint32_t *r, uint32_t n, uint32_t total, const char *var,
                        sb *out)
{
    cg_progression *in = cg_alloc(n * sizeof *in);
    uint32_t nin = cg_progressions(r, n, in);
    if (nin == 1 || total == UINT32_MAX || total <= n || total - n > (1u << 24)) {
        union_condition(e, in, nin, total, var, out);
        free(in);
        return;
    }
    uint32_t nout = total - n, *left = cg_alloc(nout * sizeof *left), q = 0;
    for (uint32_t v = 0, k = 0; v < total; v++) {
        if (k < n && r[k] == v)
            k++;
        else
            left[q++] = v;
    }
    cg_progression *out_p = cg_alloc(nout * sizeof *out_p);
    uint32_t nleft = cg_progressions(left, nout, out_p);
    if (nleft >= nin) {
        union_condition(e, in, nin, total, var, out);
    } else if (nleft == 1 && out_p[0].count == 1) {
        compare(e, var, "!=", out_p[0].first, out);
    } else if (nleft == 1 && out_p[0].step > 1 && out_p[0].first < out_p[0].step &&
               out_p[0].first + out_p[0].count * out_p[0].step >= total) {
        sb_printf(out, "%s %% ", var); /* every step-th index but those */
        cg_put_literal(e, out_p[0].step, "", 1, out);
        sb_puts(out, " != ");
        cg_put_literal(e, out_p[0].first, "", 0, out);
    } else {
        sb_puts(out, "!(");
        union_condition(e, out_p, nleft, total, var, out);
        sb_putc(out, ')');
    }
    free(out_p);
    free(left);
    free(in);
}

/* ---- constants ---- */

static int symbolic_kind(unsigned kind)
{
    switch (kind) {
    case REC_KIND_WHENCE:
    case REC_KIND_OFLAGS:
    case REC_KIND_MODE:
    case REC_KIND_ACCESS_MODE:
    case REC_KIND_AT_FLAGS:
    case REC_KIND_FCNTL_CMD:
    case REC_KIND_MMAP_PROT:
    case REC_KIND_MMAP_FLAGS:
    case REC_KIND_MPI_RANK:
    case REC_KIND_MPI_TAG:
    case REC_KIND_MPI_WHENCE:
    case REC_KIND_MPI_AMODE:
    case REC_KIND_MPI_THREAD_LEVEL:
    case REC_KIND_MPI_ORDER:
    case REC_KIND_MPI_COMM_SPLIT_TYPE:
    case REC_KIND_H5_FACC:
    case REC_KIND_H5_SELOP:
    case REC_KIND_H5_XFER_MODE:
    case REC_KIND_H5_LAYOUT:
    case REC_KIND_H5_ALLOC_TIME:
    case REC_KIND_H5_FILL_TIME:
    case REC_KIND_H5_SCOPE:
    case REC_KIND_H5_TCLASS:
    case REC_KIND_H5_SCLASS:
    case REC_KIND_H5_INDEX:
    case REC_KIND_H5_ITER_ORDER:
    case REC_KIND_NC_TYPE:
    case REC_KIND_NC_MODE:
    case REC_KIND_NC_FORMAT:
    case REC_KIND_NC_FILL_MODE:
    case REC_KIND_NC_PAR_ACCESS:
    case REC_KIND_NC_STORAGE:
    case REC_KIND_NC_ENDIAN:
        return 1;
    default:
        return 0;
    }
}

static void put_int(cg_emitter *e, int64_t v, sb *out)
{
    cg_put_literal(e, v, v > INT32_MAX || v < INT32_MIN ? "LL" : "", 0, out);
}

void cg_const_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    if ((kind == REC_KIND_HSIZE || kind == REC_KIND_HSIZE_ARRAY) && v == -1) {
        sb_puts(out, "H5S_UNLIMITED");
        return;
    }
    if (kind == REC_KIND_BOOL || kind == REC_KIND_H5_BOOL) {
        put_int(e, v, out);
        return;
    }
    const char *constant = rec_mpi_constant_name(kind, v); /* MPI_DISTRIBUTE_BLOCK in an array too */
    if (constant) {
        sb_puts(out, constant);
        return;
    }
    if (symbolic_kind(kind)) {
        char text[512], number[32];
        rec_value x = {.i = v};
        rec_print_value(text, sizeof text, kind, &x, NULL, NULL);
        snprintf(number, sizeof number, "%" PRId64, v);
        if (!strcmp(text, number)) { /* a value without a name (a rank, a tag) is a number */
            cg_put_literal(e, v, "", 0, out);
            return;
        }
        for (const char *p = text; *p; p++)
            if (*p == '|')
                sb_puts(out, " | ");
            else
                sb_putc(out, *p);
        return;
    }
    put_int(e, v, out);
}

void cg_string_literal(cg_emitter *e, const char *s, uint32_t n, sb *out)
{
    size_t at = out->len;
    sb_putc(out, '"');
    for (uint32_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            sb_printf(out, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            sb_printf(out, "\\%03o", c);
        else
            sb_putc(out, (char)c);
    }
    sb_putc(out, '"');
    cg_span(e, out, at, CG_SPAN_STRING);
}

/* ---- numbers ---- */

static void put_coef(int64_t coef, int ll, sb *out)
{
    sb_printf(out, "%" PRId64 "%s", coef, ll ? "LL" : "");
}

/* "(x / q)", "(x % q)": q a literal, or unknown. */
static void divided(cg_emitter *e, const char *x, char op, const cg_term *t, sb *out)
{
    sb_printf(out, "(%s %c ", x, op);
    if (t->unknown & CG_UNKNOWN_DIV)
        cg_put_unknown(e, 1, out);
    else
        cg_put_literal(e, t->div, "", 1, out);
    sb_putc(out, ')');
}

/* One term (without its sign) of a numeric expression. */
static void term_text(cg_emitter *e, const cg_num *n, const cg_term *t, sb *out)
{
    switch (t->kind) {
    case CG_T_RANK:
        sb_puts(out, "rank");
        break;
    case CG_T_RANKDIV:
        divided(e, "rank", '/', t, out);
        break;
    case CG_T_RANKMOD:
        divided(e, "rank", '%', t, out);
        break;
    case CG_T_RANKMIN:
        sb_puts(out, "(rank < ");
        cg_put_literal(e, t->div, "", 1, out);
        sb_puts(out, " ? rank : ");
        cg_put_literal(e, t->div, "", 1, out);
        sb_putc(out, ')');
        break;
    case CG_T_COORD:
        if (!e->grid_ndims)
            e->grid_ndims = n->grid_ndims;
        if (e->grid_ndims == n->grid_ndims)
            sb_printf(out, "coords[%u]", t->arg);
        else {
            e->other_grid = n->grid_ndims;
            sb_printf(out, "coords%ud[%u]", n->grid_ndims, t->arg);
        }
        break;
    case CG_T_CTR:
        sb_puts(out, cg_counter_name(t->arg));
        break;
    default:
        divided(e, cg_counter_name(t->arg), '%', t, out);
        break;
    }
}

static int fits_int(const int64_t *v, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++)
        if (v[k] > INT32_MAX || v[k] < INT32_MIN)
            return 0;
    return 1;
}

/* A choice between values by rank: (rank == 0 ? a : b). The table is taken
 * as runs of equal values, so that its cost follows its runs, not its length:
 * a table over every rank of a large run is mostly one value (the ranks a
 * call leaves out hold its first member's value). */
typedef struct tern_run {
    int64_t v;
    uint32_t at, len; /* tab[at .. at + len - 1] == v */
} tern_run;

static int tern_order(const void *a, const void *b)
{
    const tern_run *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;
}

typedef struct tern_group {
    uint32_t first, last, n, start, nruns; /* start: the group's first run in the sorted array */
} tern_group;

static int tern_group_order(const void *a, const void *b)
{
    const tern_group *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The values are sorted, not compared pairwise, and by runs, not ranks, so
 * that the cost follows the table's distinct runs, never the trace's rank
 * count (a few calls may claim millions of ranks); the text is the same. */
static void ternary_text(cg_emitter *e, const int64_t *tab, uint32_t ntab, unsigned kind, cg_value_text text,
                         const char *var, sb *out)
{
    uint32_t nruns = 0;
    for (uint32_t r = 0; r < ntab; r++)
        nruns += r == 0 || tab[r] != tab[r - 1];
    tern_run *run = cg_alloc(nruns * sizeof *run);
    tern_group *g = cg_alloc(nruns * sizeof *g);
    nruns = 0;
    for (uint32_t r = 0; r < ntab; r++) {
        if (r == 0 || tab[r] != tab[r - 1])
            run[nruns++] = (tern_run){tab[r], r, 0};
        run[nruns - 1].len++;
    }
    qsort(run, nruns, sizeof *run, tern_order);
    uint32_t ng = 0;
    for (uint32_t k = 0; k < nruns; k++) {
        if (k == 0 || run[k].v != run[k - 1].v)
            g[ng++] = (tern_group){run[k].at, run[k].at, 0, k, 0};
        g[ng - 1].last = run[k].at + run[k].len - 1;
        g[ng - 1].n += run[k].len;
        g[ng - 1].nruns++;
    }
    /* the most frequent value goes last, without a condition; ties: the
     * value found at the highest index */
    uint32_t best = 0;
    for (uint32_t k = 1; k < ng; k++)
        if (g[k].n > g[best].n || (g[k].n == g[best].n && g[k].last > g[best].last))
            best = k;
    int64_t best_v = run[g[best].start].v;
    qsort(g, ng, sizeof *g, tern_group_order); /* the other values by first appearance */
    sb_putc(out, '(');
    for (uint32_t k = 0; k < ng; k++) {
        int64_t v = run[g[k].start].v;
        if (v == best_v)
            continue;
        uint32_t *ranks = cg_alloc(g[k].n * sizeof *ranks), q = 0;
        for (uint32_t u = 0; u < g[k].nruns; u++) /* its runs in rank order */
            for (uint32_t i = 0; i < run[g[k].start + u].len; i++)
                ranks[q++] = run[g[k].start + u].at + i;
        cg_index_condition(e, ranks, g[k].n, ntab, var, out);
        free(ranks);
        sb_puts(out, " ? ");
        if (text)
            text(e, v, kind, out);
        else
            cg_const_text(e, v, kind, out);
        sb_puts(out, " : ");
    }
    if (text)
        text(e, best_v, kind, out);
    else
        cg_const_text(e, best_v, kind, out);
    sb_putc(out, ')');
    free(run);
    free(g);
    e->n_ternary++;
}

/* Values a line in a table of n numbers: one, labelled, in a short table;
 * eight in a long one (a table by rank at 65,536 ranks), each line
 * labelled with its first index. */
static unsigned numbers_per_line(uint32_t n)
{
    return n > 16 ? 8 : 1;
}

static const char *table_for(cg_emitter *e, const int64_t *tab, uint32_t n, int by_rank, const char *field,
                             unsigned kind)
{
    sb body = {0}, base = {0};
    sb_putc(&body, '{');
    for (uint32_t k = 0; k < n; k++) {
        if (k)
            sb_puts(&body, ", ");
        cg_const_text(e, tab[k], kind == REC_KIND_HSIZE_ARRAY ? kind : REC_KIND_INT, &body);
    }
    sb_putc(&body, '}');
    sb_printf(&base, "%s_by_%s", field, by_rank ? "rank" : "iter");
    const char *ctype = fits_int(tab, n) ? "int" : "long long";
    const char *name = cg_table_add(e, sb_str(&base), ctype, &body, n, 0, by_rank ? "rank" : "iteration",
                                    numbers_per_line(n));
    if (by_rank)
        cg_table_keep_values(e, name, ctype, tab, n);
    sb_free(&body);
    sb_free(&base);
    return name;
}

/* Affine in the rank and the number of ranks: a size that is N times a
 * per-rank block (the global extent of a 1-D decomposition, the stride of
 * a segment over all ranks) is written q * nranks, q a block size the
 * ranks' offsets step by. */
static int nranks_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    int64_t n = e->m->nranks;
    if (e->o->elastic || n < 2 || v < 2 * n || v > INT32_MAX || v % n || symbolic_kind(kind) ||
        rec_kind_class(kind) == REC_CLASS_STR)
        return 0;
    for (size_t i = 0; i < e->nblocks; i++)
        if (e->blocks[i] == v / n && e->blocks[i] > 1) {
            sb_printf(out, "%" PRId64 " * nranks", e->blocks[i]);
            e->n_nranks++;
            return 1;
        }
    return 0;
}

void cg_render_num(cg_emitter *e, const cg_num *n, unsigned kind, const char *field, sb *out, int *is_ll)
{
    int64_t bound = cg_num_max(n, e->m, &e->dims);
    int ll = bound > INT32_MAX;
    if (is_ll)
        *is_ll = ll || (n->tab && !fits_int(n->tab, n->ntab));
    if (!n->nterms && !n->table && !n->ternary) {
        if (!nranks_text(e, n->c, kind, out))
            cg_const_text(e, n->c, kind, out);
        return;
    }
    size_t start = out->len;
    int parts = 0;
    if (n->ternary) {
        ternary_text(e, n->tab, n->ntab, kind == REC_KIND_HSIZE_ARRAY ? kind : REC_KIND_INT, NULL, "rank",
                     out);
        parts++;
    } else if (n->table) {
        const char *name = table_for(e, n->tab, n->ntab, n->table == CG_TAB_RANK, field, kind);
        sb_printf(out, "%s[%s]", name, n->table == CG_TAB_RANK ? "rank" : cg_counter_name(n->table_ctr));
        if (n->table == CG_TAB_RANK)
            e->n_rank_table++;
        else
            e->n_ctr_table++;
        parts++;
    }
    /* "3 - (i % 2)" rather than "-(i % 2) + 3" */
    int lead_c = !e->o->elastic && !parts && n->nterms && n->terms[0].coef < 0 && n->c > 0;
    if (lead_c) {
        put_coef(n->c, ll, out);
        parts++;
    }
    for (unsigned i = 0; i < n->nterms; i++) {
        const cg_term *t = &n->terms[i];
        int64_t coef = t->coef;
        if (parts)
            sb_puts(out, coef < 0 ? " - " : " + ");
        else if (coef < 0)
            sb_putc(out, '-');
        int64_t mag = coef < 0 ? -coef : coef;
        size_t coef_at = out->len;
        if (t->kind == CG_T_CTR && nranks_text(e, mag, REC_KIND_SIZE, out)) {
            sb_puts(out, " * ");                      /* a stride over every rank's block */
        } else if (mag != 1 || ll || e->o->elastic) { /* elastic: a literal to model, even 1 */
            if (t->unknown & CG_UNKNOWN_COEF)
                sb_puts(out, "ELASTIC_ANY"); /* elastic: what this rank count cannot tell */
            else
                put_coef(mag, ll, out);
            sb_puts(out, " * ");
            cg_literal_span(e, out, coef_at, CG_LIT_COEF, (uint64_t)mag, coef < 0,
                            (t->unknown & CG_UNKNOWN_COEF) != 0);
        }
        size_t at = out->len;
        term_text(e, n, t, out);
        if (!e->o->elastic && n->nterms == 1 && !parts && coef == 1 && !ll && !n->c && out->s[at] == '(') {
            /* alone, "rank / 2" needs no parentheses */
            memmove(out->s + at, out->s + at + 1, out->len - at - 2);
            out->len -= 2;
            out->s[out->len] = 0;
        }
        parts++;
        switch (t->kind) {
        case CG_T_RANK:
            e->n_affine++;
            break;
        case CG_T_RANKDIV:
        case CG_T_RANKMOD:
        case CG_T_RANKMIN:
            e->n_div++;
            break;
        case CG_T_COORD:
            e->n_grid++;
            break;
        default:
            e->n_ctr_affine++;
            break;
        }
    }
    if ((n->c || (e->o->elastic && n->nterms)) && !lead_c) { /* elastic: even 0 */
        size_t at = out->len;
        sb_puts(out, n->c < 0 ? " - " : " + ");
        if (n->c_unknown)
            sb_puts(out, "ELASTIC_ANY");
        else if (!nranks_text(e, n->c < 0 ? -n->c : n->c, kind, out))
            put_coef(n->c < 0 ? -n->c : n->c, ll, out);
        cg_literal_span(e, out, at, CG_LIT_ADDEND, n->c < 0 ? -(uint64_t)n->c : (uint64_t)n->c, n->c < 0,
                        n->c_unknown);
    }
    int grid = 0;
    for (unsigned i = 0; i < n->nterms; i++)
        grid |= n->terms[i].kind == CG_T_COORD;
    char *ex = grid ? e->example_grid : e->example_affine;
    if (!ex[0] && (grid || (n->nterms && n->terms[0].kind == CG_T_RANK)))
        snprintf(ex, 160, "%s = %.*s", field, (int)(out->len - start), out->s + start);
}

/* ---- categorical values ---- */

static uint32_t distinct_values(const int64_t *v, uint32_t n)
{
    uint32_t d = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t j = 0;
        while (j < k && v[j] != v[k])
            j++;
        d += j == k;
    }
    return d;
}

void cg_render_cat(cg_emitter *e, const cg_cat *c, unsigned kind, const char *field, const char *ctype,
                   cg_value_text text, sb *out)
{
    if (c->mode == CG_CAT_CONST) {
        text(e, c->value, kind, out);
        return;
    }
    if (c->mode == CG_CAT_TERNARY) {
        ternary_text(e, c->tab, c->ntab, kind, text, "rank", out);
        return;
    }
    if (c->table == CG_TAB_CTR && distinct_values(c->tab, c->ntab) == 2) {
        /* a choice by the counter when it is shorter than a table (j < 6 ? a : b) */
        sb choice = {0}, table = {0};
        uint32_t ternaries = e->n_ternary;
        ternary_text(e, c->tab, c->ntab, kind, text, cg_counter_name(c->table_ctr), &choice);
        e->n_ternary = ternaries;
        for (uint32_t k = 0; k < c->ntab; k++)
            text(e, c->tab[k], kind, &table);
        size_t table_len = table.len + 2 * c->ntab + 48;
        sb_free(&table);
        if (choice.len < table_len) {
            sb_append(out, &choice);
            e->n_ctr_choice++;
            sb_free(&choice);
            return;
        }
        sb_free(&choice);
    }
    sb body = {0}, base = {0};
    sb_putc(&body, '{');
    for (uint32_t k = 0; k < c->ntab; k++) {
        if (k)
            sb_puts(&body, ", ");
        text(e, c->tab[k], kind, &body);
    }
    sb_putc(&body, '}');
    int by_rank = c->table == CG_TAB_RANK;
    sb_printf(&base, "%s_by_%s", field, by_rank ? "rank" : "iter");
    /* encoded HDF5 objects and netCDF values are byte tables of their own (typed compound literals):
     * this one names them */
    int strings = (rec_kind_class(kind) == REC_CLASS_STR || rec_kind_class(kind) == REC_CLASS_PATH) &&
                  kind != REC_KIND_H5_ENCODED && kind != REC_KIND_H5_VALUE && kind != REC_KIND_NC_VALUES;
    const char *name = cg_table_add(e, sb_str(&base), strings ? "const char *const" : ctype, &body, c->ntab,
                                    !strings, by_rank ? "rank" : "iteration",
                                    strings || kind == REC_KIND_NC_VALUES ? 1 : numbers_per_line(c->ntab));
    sb_printf(out, "%s[%s]", name, by_rank ? "rank" : cg_counter_name(c->table_ctr));
    if (by_rank && !strings)
        cg_table_keep_values(e, name, ctype, c->tab, c->ntab);
    if (by_rank)
        e->n_rank_table++;
    else
        e->n_ctr_table++;
    sb_free(&body);
    sb_free(&base);
}

/* ---- string patterns ---- */

static void format_text(cg_emitter *e, int64_t v, unsigned kind, sb *out)
{
    const char *s = cg_str(e->m, v);
    if (kind == REC_KIND_PATH)
        cg_path_text(e, s, cg_str_len(e->m, v), 0, out); /* ROOT "...": '%' is escaped already */
    else
        cg_string_literal(e, s, cg_str_len(e->m, v), out);
}

void cg_render_pattern(cg_emitter *e, const cg_fieldfit *f, const char *field, int path, sb *out)
{
    sb args = {0}, name = {0};
    sb_printf(&name, "%s%s", field, f->is_prefix ? "_len" : "");
    for (uint32_t j = 0; j < f->nruns; j++) {
        sb expr = {0};
        int ll = 0;
        cg_render_num(e, &f->runs[j], REC_KIND_INT, sb_str(&name), &expr, &ll);
        /* the argument's type must be what the conversion says */
        const char *cast = f->llrun[j] && !ll ? "(long long)(" : !f->llrun[j] && ll ? "(int)(" : "";
        sb_printf(&args, ", %s", cast);
        sb_append(&args, &expr);
        sb_puts(&args, *cast ? ")" : "");
        sb_free(&expr);
    }
    if (f->is_prefix) {
        sb_puts(&args, ", ");
        const char *s = cg_str(e->m, f->prefix_of);
        if (path)
            cg_path_text(e, s, cg_str_len(e->m, f->prefix_of), 0, &args);
        else
            cg_string_literal(e, s, cg_str_len(e->m, f->prefix_of), &args);
    }
    sb fmt = {0};
    sb_free(&name);
    sb_printf(&name, "%s_format", field);
    cg_render_cat(e, &f->fmt, path ? REC_KIND_PATH : REC_KIND_STRING, sb_str(&name), "const char *",
                  format_text, &fmt);
    sb_append(out, &fmt);
    sb_append(out, &args);
    if (!e->example_pattern[0] && !f->is_prefix)
        snprintf(e->example_pattern, sizeof e->example_pattern, "%s%s", sb_str(&fmt), sb_str(&args));
    e->n_patterns += !f->is_prefix;
    sb_free(&name);
    sb_free(&fmt);
    sb_free(&args);
}

/* ---- blocks: the steps of values affine in the rank ---- */

static void add_block(cg_emitter *e, int64_t a)
{
    a = a < 0 ? -a : a;
    if (a < 2)
        return;
    for (size_t i = 0; i < e->nblocks; i++)
        if (e->blocks[i] == a)
            return;
    e->blocks = cg_realloc(e->blocks, (e->nblocks + 1) * sizeof *e->blocks);
    e->blocks[e->nblocks++] = a;
}

/* v[0..n) (the values of ranks r[0..n)) step by a per rank: a, else 0. */
static int64_t rank_step(const int64_t *v, const uint32_t *r, uint32_t n)
{
    if (n < 2 || (v[1] - v[0]) % (int64_t)(r[1] - r[0]))
        return 0;
    int64_t a = (v[1] - v[0]) / (int64_t)(r[1] - r[0]);
    for (uint32_t k = 2; k < n; k++)
        if (v[k] - v[0] != a * (int64_t)(r[k] - r[0]))
            return 0;
    return a;
}

void cg_collect_blocks(cg_emitter *e)
{
    cg_model *m = e->m;
    int64_t *col = cg_alloc((m->nranks + 1) * sizeof *col);
    for (size_t i = 0; i < m->ninsts; i++) {
        const cg_inst *in = &m->insts[i];
        const uint32_t *ranks = m->ranksets[in->rs].ranks;
        for (unsigned f = 0; f < in->f->nargs; f++) {
            unsigned kind = in->f->args[f].kind;
            if (cg_field_role(in->f, f) != CG_ROLE_VALUE || cg_is_handle_kind(kind) || symbolic_kind(kind))
                continue;
            const int64_t *v = cg_inst_values(in, f);
            if (rec_kind_class(kind) == REC_CLASS_INT) {
                add_block(e, rank_step(v, ranks, in->nr));
                continue;
            }
            if (rec_kind_class(kind) != REC_CLASS_ARRAY || rec_kind_is_handle_array(kind))
                continue;
            uint32_t n0, n;
            cg_arr(m, v[0], &n0);
            for (uint32_t el = 0; el < n0; el++) {
                int ok = 1;
                for (uint32_t k = 0; k < in->nr && ok; k++) {
                    const int64_t *a = cg_arr(m, v[k], &n);
                    ok = n == n0;
                    col[k] = ok ? a[el] : 0;
                }
                if (ok)
                    add_block(e, rank_step(col, ranks, in->nr));
            }
        }
    }
    free(col);
}
