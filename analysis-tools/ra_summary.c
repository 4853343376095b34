/* ra_summary.c: the summary collector. Per rank, one row per (function,
 * file) with calls, bytes and time; everything else recorder-summary prints
 * (per layer, per file, bandwidth) is derived from the rows at the end. The
 * per-event work is one hash lookup, usually skipped by a one-entry cache:
 * this is the loop bench/summary measures. */
#include "ra_tools.h"

#include <math.h>
#include <string.h>

void ra_summary_init(ra_summary *s, ra_trace *t, int top_only)
{
    memset(s, 0, sizeof *s);
    s->t = t;
    s->top_only = top_only;
    s->hot_file = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *s->hot_file);
    s->hot_row = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *s->hot_row);
    uint32_t n = ra_trace_nranks(t);
    s->rank_records = ra_xcalloc(n, sizeof *s->rank_records);
    s->rank_span = ra_xcalloc(n, sizeof *s->rank_span);
    s->func_counts = ra_xcalloc(REC_FUNCTION_ID_LIMIT, sizeof *s->func_counts);
    s->first_start = INFINITY;
    s->last_end = -INFINITY;
}

void ra_summary_free(ra_summary *s)
{
    ra_map_free(&s->cur);
    free(s->hot_file);
    free(s->hot_row);
    free(s->rows);
    free(s->rank_records);
    free(s->rank_span);
    free(s->func_counts);
}

static int summary_begin_rank(void *ctx, ra_trace *t, uint32_t rank)
{
    ra_summary *s = ctx;
    (void)t;
    ra_map_free(&s->cur);
    memset(s->hot_file, 0, REC_FUNCTION_ID_LIMIT * sizeof *s->hot_file);
    s->cur_first = INFINITY;
    s->cur_last = -INFINITY;
    rec_error err;
    const rec_rank_meta *m = rec_trace_rank_meta(ra_trace_rec(s->t), rank, &err);
    /* A merged trace's N.meta describes the merged stream, not this rank. */
    s->cur_timed = m && m->records > 0 && !rec_trace_is_merged(ra_trace_rec(s->t));
    if (s->cur_timed) {
        double res = ra_trace_resolution(s->t), off = ra_rank_time_offset(s->t, rank);
        s->cur_first = off + (double)m->first_tstart * res;
        s->cur_last = off + (double)m->last_tend * res;
    }
    return 0;
}

static ra_sum_row *new_row(ra_summary *s, uint32_t rank, unsigned func, int file)
{
    if (s->nrows == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->rows = ra_xrealloc(s->rows, s->cap * sizeof *s->rows);
    }
    ra_sum_row *r = &s->rows[s->nrows++];
    memset(r, 0, sizeof *r);
    r->rank = rank;
    r->func = (uint16_t)func;
    r->file = file;
    return r;
}

static inline void summary_event(ra_summary *s, const ra_event *ev)
{
    if (!s->cur_timed) {
        if (ev->gstart < s->cur_first)
            s->cur_first = ev->gstart;
        if (ev->gend > s->cur_last)
            s->cur_last = ev->gend;
    }
    if (s->top_only && ev->depth)
        return;
    unsigned func = ev->rec->func;
    ra_sum_row *r;
    if (s->hot_file[func] == ev->file + 2) {
        r = &s->rows[s->hot_row[func]];
    } else {
        int fresh;
        uint64_t *slot =
            ra_map_insert(&s->cur, (uint64_t)func | (uint64_t)(uint32_t)(ev->file + 1) << 16, &fresh);
        if (fresh) {
            new_row(s, ev->rank, func, ev->file);
            *slot = s->nrows - 1;
        }
        s->hot_file[func] = ev->file + 2;
        s->hot_row[func] = (uint32_t)*slot;
        r = &s->rows[*slot];
    }
    r->calls++;
    r->opens += ev->op == RA_OP_OPEN;
    r->ticks += ev->ticks;
    r->bytes += ev->bytes;
}

static int summary_visit_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    summary_event(ctx, ev);
    return 0;
}

static int summary_end_rank(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank);

/* recorder-summary's whole walk, in one loop the compiler can inline: this
 * is the part bench/summary measures. */
int ra_summary_walk(ra_summary *s, const uint32_t *ranks, size_t n, ra_progress *p, rec_error *err)
{
    uint32_t nranks = ra_trace_nranks(s->t);
    for (size_t i = 0; i < n; i++) {
        summary_begin_rank(s, s->t, ranks[i]);
        ra_rank *w = ra_rank_open(s->t, ranks[i], RA_WALK_NO_OFFSETS | RA_WALK_NO_TREE, err);
        if (!w)
            return -1;
        ra_event ev;
        int rc;
        while ((rc = ra_rank_next(w, &ev, err)) == 1) {
            ra_progress_tick(p, ranks[i], nranks);
            summary_event(s, &ev);
        }
        if (rc == 0)
            summary_end_rank(s, s->t, w, ranks[i]);
        ra_rank_close(w);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static void add_counts(rec_counts *to, const rec_counts *c)
{
    to->records += c->records;
    to->compressed_records += c->compressed_records;
    to->fields += c->fields;
    to->elided_fields += c->elided_fields;
}

static int summary_end_rank(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    ra_summary *s = ctx;
    (void)t;
    if (s->cur_last >= s->cur_first) {
        s->rank_span[rank] = s->cur_last - s->cur_first;
        if (s->cur_first < s->first_start)
            s->first_start = s->cur_first;
        if (s->cur_last > s->last_end)
            s->last_end = s->cur_last;
    }
    s->rank_records[rank] = ra_rank_records(w);
    if (!ra_rank_complete(w))
        s->incomplete++;
    rec_error err;
    const rec_rank_meta *m = rec_trace_rank_meta(ra_trace_rec(s->t), rank, &err);
    if (m && rec_trace_is_merged(ra_trace_rec(s->t)) && rank != s->counts_rank)
        return 0; /* the merged stream's counters, counted once (with counts_rank) */
    if (m) {
        s->have_func_counts = 1;
        for (size_t i = 0; i < m->nfuncs; i++) {
            add_counts(&s->totals, &m->funcs[i].counts);
            if (m->funcs[i].func < REC_FUNCTION_ID_LIMIT)
                add_counts(&s->func_counts[m->funcs[i].func], &m->funcs[i].counts);
        }
    } else { /* no N.meta (crashed rank, merged trace): what the cursor decoded */
        rec_counts c;
        ra_rank_counts(w, &c);
        add_counts(&s->totals, &c);
    }
    return 0;
}

ra_visitor ra_summary_visitor(ra_summary *s)
{
    return (ra_visitor){s, summary_begin_rank, summary_visit_event, summary_end_rank};
}

/* ---- packing for the MPI reduction ---- */

typedef struct packer {
    char *buf;
    size_t len, cap;
} packer;

static void put(packer *p, const void *data, size_t n)
{
    if (p->len + n > p->cap) {
        while (p->len + n > p->cap)
            p->cap = p->cap ? p->cap * 2 : 4096;
        p->buf = ra_xrealloc(p->buf, p->cap);
    }
    memcpy(p->buf + p->len, data, n);
    p->len += n;
}

#define PUT(p, v) put(p, &(v), sizeof(v))

size_t ra_summary_pack(const ra_summary *s, const uint32_t *ranks, size_t nranks, char **out)
{
    packer p = {0};
    uint64_t n = s->nrows;
    PUT(&p, n);
    for (size_t i = 0; i < s->nrows; i++) {
        const ra_sum_row *r = &s->rows[i];
        PUT(&p, r->rank);
        PUT(&p, r->func);
        PUT(&p, r->calls);
        PUT(&p, r->opens);
        PUT(&p, r->ticks);
        PUT(&p, r->bytes);
        const char *path = ra_file_path(s->t, r->file);
        uint32_t len = path ? (uint32_t)strlen(path) : UINT32_MAX;
        PUT(&p, len);
        if (path)
            put(&p, path, len);
    }
    n = nranks;
    PUT(&p, n);
    for (size_t i = 0; i < nranks; i++) {
        PUT(&p, ranks[i]);
        PUT(&p, s->rank_records[ranks[i]]);
        PUT(&p, s->rank_span[ranks[i]]);
    }
    PUT(&p, s->first_start);
    PUT(&p, s->last_end);
    PUT(&p, s->totals);
    PUT(&p, s->incomplete);
    PUT(&p, s->have_func_counts);
    put(&p, s->func_counts, REC_FUNCTION_ID_LIMIT * sizeof *s->func_counts);
    *out = p.buf;
    return p.len;
}

typedef struct reader {
    const char *p, *end;
    int bad;
} reader;

static void get(reader *r, void *data, size_t n)
{
    if ((size_t)(r->end - r->p) < n) {
        r->bad = 1;
        memset(data, 0, n);
        return;
    }
    memcpy(data, r->p, n);
    r->p += n;
}

#define GET(r, v) get(r, &(v), sizeof(v))

int ra_summary_unpack(ra_summary *s, const char *buf, size_t len)
{
    reader rd = {buf, buf + len, 0};
    uint64_t n;
    GET(&rd, n);
    for (uint64_t i = 0; i < n && !rd.bad; i++) {
        ra_sum_row r;
        uint32_t plen;
        GET(&rd, r.rank);
        GET(&rd, r.func);
        GET(&rd, r.calls);
        GET(&rd, r.opens);
        GET(&rd, r.ticks);
        GET(&rd, r.bytes);
        GET(&rd, plen);
        r.file = -1;
        if (plen != UINT32_MAX) {
            if ((size_t)(rd.end - rd.p) < plen)
                return -1;
            char *path = ra_xmalloc(plen + 1);
            memcpy(path, rd.p, plen);
            path[plen] = 0;
            rd.p += plen;
            r.file = ra_file_intern(s->t, path);
            free(path);
        }
        if (r.rank >= ra_trace_nranks(s->t))
            return -1;
        ra_sum_row *to = new_row(s, r.rank, r.func, r.file);
        *to = r;
    }
    GET(&rd, n);
    for (uint64_t i = 0; i < n && !rd.bad; i++) {
        uint32_t rank;
        GET(&rd, rank);
        if (rank >= ra_trace_nranks(s->t))
            return -1;
        GET(&rd, s->rank_records[rank]);
        GET(&rd, s->rank_span[rank]);
    }
    double first, last;
    rec_counts totals;
    uint32_t incomplete;
    int have;
    GET(&rd, first);
    GET(&rd, last);
    GET(&rd, totals);
    GET(&rd, incomplete);
    GET(&rd, have);
    if (first < s->first_start)
        s->first_start = first;
    if (last > s->last_end)
        s->last_end = last;
    add_counts(&s->totals, &totals);
    s->incomplete += incomplete;
    s->have_func_counts |= have;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT && !rd.bad; id++) {
        rec_counts c;
        GET(&rd, c);
        add_counts(&s->func_counts[id], &c);
    }
    return rd.bad || rd.p != rd.end ? -1 : 0;
}
