/* load.c: a trace -> the calls the kernel makes (cg_model).
 *
 * A per-rank trace is merged first (rec_merge_traces, into a scratch
 * directory that is removed again). Of the merged stream only depth-0
 * records on the main thread count: the calls the application made itself
 * (with --layer, the calls of that layer and below that no such call made:
 * layer.c).
 * MPI_Init and MPI_Finalize come from the kernel's skeleton; console output
 * and MPI queries (MPI_Comm_rank, MPI_Get_count, MPI_Dims_create, ...) move
 * no file data and create nothing, so they are left out, and so are calls
 * on /dev, /proc and /sys, which a kernel must never touch. Every other MPI
 * call stays: the ones that create or free communicators, datatypes, info
 * objects and requests (recorder-diff compares them, and handle ids count in
 * creation order), the ones that complete requests, and communication,
 * whose synchronization orders the I/O of different ranks. */
#define _GNU_SOURCE
#include "cg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

#include "recorder_facts.h"
#include "recorder_h5skel.h"
#include "recorder_merge.h"

/* ---- interning ---- */

struct cg_pool_entry {
    UT_hash_handle hh;
    int64_t id;
    size_t keylen;
    char key[]; /* 's' or 'a', then the bytes */
};

static int64_t pool_find(cg_model *m, char tag, const void *bytes, size_t n, int *found)
{
    size_t keylen = n + 1;
    char small[256];
    char *key = keylen <= sizeof small ? small : cg_alloc(keylen);
    key[0] = tag;
    memcpy(key + 1, bytes, n);
    cg_pool_entry *e = NULL;
    HASH_FIND(hh, m->pool, key, keylen, e);
    if (key != small)
        free(key);
    *found = e != NULL;
    return e ? e->id : -1;
}

static void pool_add(cg_model *m, char tag, const void *bytes, size_t n, int64_t id)
{
    cg_pool_entry *e = cg_alloc(sizeof *e + n + 1);
    e->id = id;
    e->keylen = n + 1;
    e->key[0] = tag;
    memcpy(e->key + 1, bytes, n);
    HASH_ADD_KEYPTR(hh, m->pool, e->key, e->keylen, e);
}

int cg_str_id(cg_model *m, const char *s, size_t n)
{
    if (!s)
        return -1;
    int found;
    int64_t id = pool_find(m, 's', s, n, &found);
    if (found)
        return (int)id;
    if (m->nstrs == m->capstrs) {
        m->capstrs = m->capstrs ? 2 * m->capstrs : 64;
        m->strs = cg_realloc(m->strs, m->capstrs * sizeof *m->strs);
        m->strlens = cg_realloc(m->strlens, m->capstrs * sizeof *m->strlens);
    }
    char *copy = cg_alloc(n + 1);
    memcpy(copy, s, n);
    copy[n] = 0;
    m->strs[m->nstrs] = copy;
    m->strlens[m->nstrs] = (uint32_t)n;
    pool_add(m, 's', s, n, (int64_t)m->nstrs);
    return (int)m->nstrs++;
}

const char *cg_str(const cg_model *m, int64_t id)
{
    return id >= 0 && (size_t)id < m->nstrs ? m->strs[id] : NULL;
}

uint32_t cg_str_len(const cg_model *m, int64_t id)
{
    return id >= 0 && (size_t)id < m->nstrs ? m->strlens[id] : 0;
}

int cg_arr_id(cg_model *m, const int64_t *v, size_t n)
{
    int found;
    int64_t id = pool_find(m, 'a', v, n * sizeof *v, &found);
    if (found)
        return (int)id;
    if (m->narrs == m->caparrs) {
        m->caparrs = m->caparrs ? 2 * m->caparrs : 64;
        m->arrs = cg_realloc(m->arrs, m->caparrs * sizeof *m->arrs);
        m->arrlens = cg_realloc(m->arrlens, m->caparrs * sizeof *m->arrlens);
    }
    m->arrs[m->narrs] = cg_alloc(n * sizeof *v + 1);
    memcpy(m->arrs[m->narrs], v, n * sizeof *v);
    m->arrlens[m->narrs] = (uint32_t)n;
    pool_add(m, 'a', v, n * sizeof *v, (int64_t)m->narrs);
    return (int)m->narrs++;
}

const int64_t *cg_arr(const cg_model *m, int64_t id, uint32_t *n)
{
    if (id < 0 || (size_t)id >= m->narrs) {
        *n = 0;
        return NULL;
    }
    *n = m->arrlens[id];
    return m->arrs[id];
}

uint32_t cg_rankset_id(cg_model *m, const uint32_t *ranks, uint32_t n)
{
    for (size_t i = 0; i < m->nranksets; i++)
        if (m->ranksets[i].n == n && !memcmp(m->ranksets[i].ranks, ranks, n * sizeof *ranks))
            return (uint32_t)i;
    m->ranksets = cg_realloc(m->ranksets, (m->nranksets + 1) * sizeof *m->ranksets);
    cg_rankset *rs = &m->ranksets[m->nranksets];
    rs->n = n;
    rs->ranks = cg_alloc(n * sizeof *ranks + 1);
    memcpy(rs->ranks, ranks, n * sizeof *ranks);
    return (uint32_t)m->nranksets++;
}

int64_t *cg_inst_values(const cg_inst *in, unsigned field)
{
    return in->v + (size_t)field * in->nr;
}

/* ---- what each field means to the kernel ---- */

int cg_is_handle_kind(unsigned k)
{
    if (rec_kind_class(k) != REC_CLASS_INT)
        return 0; /* arrays of handles are arrays */
    return rec_kind_handle_space(k) != REC_SPACE_NONE || k == REC_KIND_H5_PLIST_CLASS;
}

int cg_is_categorical_kind(unsigned k)
{
    return cg_is_handle_kind(k) || k == REC_KIND_MPI_STATUS || k == REC_KIND_MPI_STATUS_ARRAY ||
           k == REC_KIND_DOUBLE || k == REC_KIND_H5_ENCODED || k == REC_KIND_CALLBACK ||
           k == REC_KIND_H5_VALUE || k == REC_KIND_NC_STRING_LENGTHS || k == REC_KIND_NC_VLEN_LENGTHS ||
           k == REC_KIND_H5_STRING_LENGTHS || k == REC_KIND_H5_VLEN_LENGTHS;
}

unsigned cg_nfields(const rec_func_desc *f)
{
    return f->nargs + (f->ret_kind != REC_KIND_NONE ? 2u : 0u);
}

unsigned cg_field_kind(const rec_func_desc *f, unsigned field)
{
    if (field < f->nargs)
        return f->args[field].kind;
    return field == f->nargs ? f->ret_kind : REC_KIND_ERRNO;
}

static int has_format_arg(const rec_func_desc *f)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].kind == REC_KIND_FORMAT || f->args[a].kind == REC_KIND_SCAN_FORMAT)
            return 1;
    return 0;
}

cg_role cg_field_role(const rec_func_desc *f, unsigned field)
{
    if (field >= f->nargs) /* ret: a created handle, or fprintf's byte count */
        return field == f->nargs && (f->flags & REC_FN_CREATES) && cg_is_handle_kind(f->ret_kind)
                   ? CG_ROLE_CREATE
               : field == f->nargs && has_format_arg(f) ? CG_ROLE_VALUE
                                                        : CG_ROLE_NONE;
    const rec_arg_desc *a = &f->args[field];
    unsigned k = a->kind;
    int out_only = (a->flags & REC_ARG_OUT) && !(a->flags & REC_ARG_IN);
    if ((a->flags & REC_ARG_DERIVED) && k == REC_KIND_SIZE && has_format_arg(f))
        return CG_ROLE_VALUE; /* the bytes a scan read or a wide print wrote: its format's */
    if (a->flags & REC_ARG_DERIVED || rec_kind_class(k) == REC_CLASS_NONE || k == REC_KIND_STRING_OUT ||
        k == REC_KIND_STATBUF)
        return CG_ROLE_NONE;
    if (k == REC_KIND_THREAD_ID)
        return CG_ROLE_VALUE; /* a thread id, the kernel's threads[] index, created or joined */
    if (a->flags & REC_ARG_CREATE)
        return CG_ROLE_CREATE;
    if (k == REC_KIND_BUFFER_ARRAY) /* a read's buffers too: their layout (buffer_rows) */
        return CG_ROLE_VALUE;
    if (k == REC_KIND_MPI_STATUS || k == REC_KIND_MPI_STATUS_ARRAY)
        return CG_ROLE_VALUE; /* 1: the caller passed MPI_STATUS(ES)_IGNORE */
    if (out_only)
        return rec_kind_class(k) == REC_CLASS_ARRAY ? CG_ROLE_OUTLEN : CG_ROLE_NONE;
    return CG_ROLE_VALUE;
}

/* ---- which calls the kernel makes ---- */

/* MPI calls that create, change or free objects, complete requests, or
 * communicate; the rest are queries. */
static int mpi_kept(const rec_func_desc *f)
{
    if (f->roles & REC_ROLE_ABORTS)
        return 0;
    if (f->flags & (REC_FN_COLLECTIVE | REC_FN_CREATES | REC_FN_DESTROYS))
        return 1;
    int peer = 0, buffer = 0;
    for (unsigned a = 0; a < f->nargs; a++) {
        unsigned k = f->args[a].kind;
        if (k == REC_KIND_MPI_REQUEST || k == REC_KIND_MPI_REQUEST_ARRAY || k == REC_KIND_NC_REQUEST ||
            k == REC_KIND_NC_REQUEST_ARRAY ||
            (f->args[a].flags & REC_ARG_CREATE))
            return 1;
        peer |= k == REC_KIND_MPI_RANK;
        buffer |= k == REC_KIND_BUFFER;
    }
    if (peer && buffer)
        return 1; /* point to point */
    return rf_changes_mpi_object(f);
}

static void note_dropped(cg_model *m, const char *name)
{
    size_t n = strlen(m->dropped_names), k = strlen(name);
    for (const char *p = m->dropped_names; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == k && !strncmp(p, name, k))
            return;
        p = end ? end + 2 : p + len;
    }
    if (n + k + 3 < sizeof m->dropped_names)
        snprintf(m->dropped_names + n, sizeof m->dropped_names - n, "%s%s", n ? ", " : "", name);
}

/* 1 if the kernel reproduces the call; else counts why not. special: the
 * call is on /dev, /proc or /sys, which the kernel must never touch. */
static int kept(cg_model *m, const rec_func_desc *f, const rec_record *r, int special)
{
    if (f->flags & REC_FN_OPAQUE) {
        int level = (f->roles & REC_ROLE_STARTS_MPI) && r->depth == 0 && r->thread == 0
                        ? rec_arg_with_kind(f, REC_KIND_MPI_THREAD_LEVEL, REC_ARG_IN)
                        : -1;
        if (level >= 0) /* the kernel's threads need the level the program asked for */
            m->init_thread = 1, m->thread_level = r->args[level].i;
        m->dropped_skeleton++;
        return 0;
    }
    if (rf_on_console(f, r)) {
        m->dropped_console++;
        return 0;
    }
    if (special) {
        m->dropped_special++;
        return 0;
    }
    if (f->layer == REC_LAYER_MPI && !mpi_kept(f)) {
        m->dropped_queries++;
        note_dropped(m, f->name);
        return 0;
    }
    return 1;
}

/* ---- reading ---- */

/* Field `field` of rank position k's record r, as the kernel stores it. */
static int64_t field_value(cg_model *m, unsigned field, const rec_func_desc *f, const rec_record *r,
                           const rec_cursor *c)
{
    unsigned kind = cg_field_kind(f, field);
    rec_class cls = rec_kind_class(kind);
    cg_role role = cg_field_role(f, field);
    const rec_value *x = field < f->nargs ? &r->args[field] : field == f->nargs ? &r->ret : NULL;
    int64_t raw = x ? x->i : r->err;
    if (kind == REC_KIND_MPI_STATUS && role == CG_ROLE_VALUE)
        return raw == -1;
    if (kind == REC_KIND_MPI_STATUS_ARRAY || role == CG_ROLE_OUTLEN) {
        int64_t small[256];
        size_t n = rec_value_array(x, small, 256);
        int all_ignored = n > 0;
        for (size_t e = 0; e < n && e < 256; e++)
            all_ignored &= small[e] == -1;
        return role == CG_ROLE_OUTLEN ? (int64_t)n : (int64_t)all_ignored;
    }
    if (cls == REC_CLASS_PATH) {
        const char *p = raw >= 0 ? rec_cursor_path(c, raw) : NULL;
        char norm[4096];
        unsigned fs = rf_path_flags(f);
        if (p && rf_path_normalize(p, norm, sizeof norm, fs) == 0 && !strncmp(norm, "..", 2) &&
            (norm[2] == '/' || !norm[2]) && !rf_path_names_no_file(f, field))
            /* a path that climbs is read from "/" (OUTDIR), ".." stopping there: the kernel shows where */
            rf_path_normalize(p, norm, sizeof norm, RF_PATH_ROOTED | fs);
        return p ? cg_str_id(m, norm, strlen(norm)) : -1;
    }
    if (cls == REC_CLASS_STR)
        return cg_str_id(m, x->ptr, x->len);
    if (cls == REC_CLASS_ARRAY) {
        int64_t small[256];
        int64_t *all = x->len <= 256 ? small : cg_alloc(x->len * sizeof *all);
        size_t n = rec_value_array(x, all, x->len);
        int64_t id = cg_arr_id(m, all, n);
        if (all != small)
            free(all);
        return id;
    }
    return raw;
}

typedef struct rank_pos {
    uint32_t rank, pos;
} rank_pos;

typedef struct loader {
    cg_model *m;
    rec_cursor *c;
    const rec_table *table;
    double resolution;
    rf_inputs *inputs;
    rf_special *special;         /* handles of calls on /dev, /proc and /sys */
    uint64_t max_values, values; /* per-rank values the model may hold, and holds */
    uint64_t nth;                /* merged records read */
    rank_pos *set;               /* the record's ranks ascending, each with its position in set order */
    uint32_t cap;                /* slots in set: the largest rank set so far */
} loader;

static int by_rank_then_position(const void *a, const void *b)
{
    const rank_pos *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The set's ranks ascending, with their positions in set order; a rank
 * listed twice keeps its first place, as for rec_merge_info_find. */
static uint32_t sorted_ranks(loader *L, const rec_merge_info *mi)
{
    /* the array grows with the rank sets met, never to the trace's rank
     * count up front (a 1 KB merged trace may claim 2^24 ranks) */
    if (mi->nranks > L->cap) {
        L->set = cg_realloc(L->set, mi->nranks * sizeof *L->set);
        L->cap = mi->nranks;
    }
    uint32_t n = 0;
    int ascending = 1;
    for (uint32_t g = 0; g < mi->nranges; g++)
        for (uint32_t k = 0; k < mi->ranges[g].count && n < L->cap; k++, n++) {
            uint32_t rank = mi->ranges[g].first + k * (mi->ranges[g].stride ? mi->ranges[g].stride : 1);
            ascending &= n == 0 || rank > L->set[n - 1].rank;
            L->set[n] = (rank_pos){rank, n};
        }
    if (ascending)
        return n;
    /* overlapping or unordered ranges (the format accepts them) are sorted,
     * not inserted one by one, which is quadratic in the members; a rank
     * listed more than once must not reach the rank conditions twice */
    qsort(L->set, n, sizeof *L->set, by_rank_then_position);
    uint32_t kept = 0;
    for (uint32_t k = 0; k < n; k++)
        if (kept == 0 || L->set[k].rank != L->set[kept - 1].rank)
            L->set[kept++] = L->set[k];
    return kept;
}

/* Rank position k's own record: the merged one with the set's variations. */
static void member_record(const loader *L, const rec_record *r, const rec_merge_info *mi, const rec_func_desc *tf,
                          uint32_t k, rec_record *x)
{
    *x = *r;
    for (uint32_t v = 0; v < mi->nvars; v++) {
        const rec_variation *var = &mi->vars[v];
        /* unsigned, wrapping arithmetic, as the writer and the reader
         * (format/merged.c): signed overflow is undefined */
        rec_value val = var->relation == REC_REL_AFFINE
                            ? (rec_value){.i = (int64_t)((uint64_t)var->a * L->set[k].rank + (uint64_t)var->b)}
                            : var->values[L->set[k].pos];
        if (var->field == REC_FIELD_TSTART)
            x->tstart = (uint64_t)val.i;
        else if (var->field == REC_FIELD_TEND)
            x->tend = (uint64_t)val.i;
        else if (var->field < tf->nargs)
            x->args[var->field] = val;
        else if (var->field == tf->nargs)
            x->ret = val;
        else
            x->err = val.i;
    }
}

/* The inputs the member's call shows (files it read, directories it used)
 * and, in span, where its bytes went (file UINT32_MAX: unknown); 1 if the
 * call is on a special file (rf_special_call). */
static int note_inputs(loader *L, const rec_func_desc *tf, const rec_record *x, uint32_t rank, rf_span *span)
{
    span->file = UINT32_MAX;
    if (x->thread != 0)
        return 0;
    const char *paths[REC_MAX_ARGS] = {0};
    for (unsigned a = 0; a < tf->nargs && a < REC_MAX_ARGS; a++)
        paths[a] = tf->args[a].kind == REC_KIND_PATH ? rec_cursor_path(L->c, x->args[a].i) : NULL;
    rf_inputs_add(L->inputs, tf, x, rank, (double)x->tstart * L->resolution, paths);
    if (!rf_inputs_last_span(L->inputs, span))
        span->file = UINT32_MAX;
    return rf_special_call(L->special, tf, x, rank, paths);
}

/* One merged record: its members' inputs noted and, when the kernel makes
 * the call, an instance with every member's field values. A member's record
 * is rebuilt in one scratch record at a time: a record over 4 M ranks holds
 * 8 bytes a field and rank, not a whole record per rank (2.8 GB). 0, or -1
 * with err set. */
static int take_record(void *ctx, const rec_func_desc *tf, const rec_record *r, const rec_merge_info *mi,
                       uint64_t nth, const unsigned char *pick, rec_error *err)
{
    loader *L = ctx;
    cg_model *m = L->m;
    if (!tf || (!pick && r->depth != 0))
        return 0;
    uint32_t nr = sorted_ranks(L, mi);
    if (pick) { /* --layer: the members whose call the kernel makes */
        uint32_t n = 0;
        for (uint32_t k = 0; k < nr; k++)
            if (pick[L->set[k].pos])
                L->set[n++] = L->set[k];
        if (!n)
            return 0;
        nr = n;
    }
    m->top_level++;
    rec_record x;
    /* after the last record of a rank whose stream lacks its end marker (a
     * job killed at its time limit) the kernel stops on every rank: a rank
     * going on alone would wait in collectives the others never reached */
    if (m->unfinished_ranks && nth > m->unfinished_after) {
        m->dropped_after_end++;
        return 0;
    }
    member_record(L, r, mi, tf, 0, &x);
    /* the first member decides, as for console I/O; every member's handles are followed */
    rf_span span;
    int special = nr > 0 && note_inputs(L, tf, &x, L->set[0].rank, &span);
    int keep = nr > 0 && kept(m, tf, &x, special);
    const rec_func_desc *f = keep ? rec_function_by_name(tf->name) : NULL;
    /* The record was decoded with the trace's table and the kernel reads it
     * with the compiled-in one: a call is kept only where both give every
     * argument the same kind (a string is no array's elements). */
    if (keep && !rec_func_same_kinds(f, tf)) {
        m->dropped_unknown++;
        note_dropped(m, tf->name);
        keep = 0;
    }
    /* The model holds a value per field and member of a kept call, and every
     * member of any call is rebuilt and its inputs noted, so a few KB of
     * merged records over millions of ranks could ask for more memory and
     * time than the machine has: the values are counted against a limit and
     * the load stops with a reason past it. A member costs one value at least. */
    unsigned nf = keep ? cg_nfields(f) : 0;
    L->values += (uint64_t)(nf ? nf : 1) * nr;
    if (L->values > L->max_values) {
        snprintf(err->msg, sizeof err->msg,
                 "%s: merged record %llu (%s over %u ranks) takes the kernel's per-rank values past %llu, the "
                 "code generator's limit (--max-values raises it)",
                 m->trace_dir, (unsigned long long)nth, tf->name, nr, (unsigned long long)L->max_values);
        return -1;
    }
    cg_inst *in = NULL;
    if (keep) {
        m->kept++;
        m->inferred_kept += r->inferred;
        if (m->ninsts == m->capinsts) {
            m->capinsts = m->capinsts ? 2 * m->capinsts : 256;
            m->insts = cg_realloc(m->insts, m->capinsts * sizeof *m->insts);
        }
        in = &m->insts[m->ninsts++];
        in->f = f;
        in->nr = nr;
        in->thread = r->thread;
        uint32_t *ranks = cg_alloc(nr * sizeof *ranks);
        for (uint32_t k = 0; k < nr; k++)
            ranks[k] = L->set[k].rank;
        in->rs = cg_rankset_id(m, ranks, nr);
        free(ranks);
        in->nf = (uint16_t)nf;
        in->v = cg_calloc((size_t)nf * nr, sizeof *in->v);
        /* a write's place in its file tells which of its bytes end lines */
        in->spans = (f->flags & REC_FN_WRITE) && f->layer == REC_LAYER_POSIX
                        ? cg_alloc(nr * sizeof *in->spans)
                        : NULL;
    }
    for (uint32_t k = 0; k < nr; k++) {
        if (k > 0) {
            member_record(L, r, mi, tf, k, &x);
            note_inputs(L, tf, &x, L->set[k].rank, &span);
        }
        if (in && in->spans)
            in->spans[k] = span;
        if (in)
            for (unsigned field = 0; field < in->nf; field++)
                cg_inst_values(in, field)[k] = field_value(m, field, f, &x, L->c);
    }
    return 0;
}

/* Per-rank values the model may hold by default: a quarter of the memory. */
static uint64_t default_max_values(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t bytes = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : (uint64_t)4 << 30;
    return bytes / 4 / sizeof(int64_t);
}

static int read_merged(cg_model *m, rec_trace *t, const cg_options *o, rec_error *err)
{
    loader L = {.m = m, .table = rec_trace_table(t)};
    L.resolution = rec_trace_get_info(t)->time_resolution;
    L.max_values = o && o->max_values ? o->max_values : default_max_values();
    L.c = rec_cursor_open_merged(t, err);
    if (!L.c)
        return -1;
    L.inputs = rf_inputs_new(RF_INPUTS_ANCESTORS);
    L.special = rf_special_new();
    /* --layer holds each call tree until it is complete; the default reads straight through */
    cg_layered *layered = o && o->layer != REC_CODEGEN_TOP ? cg_layered_new(o->layer) : NULL;
    rec_record r;
    rec_merge_info mi;
    int rc;
    while ((rc = rec_cursor_next_merged(L.c, &r, &mi, err)) == 1) {
        m->merged_records++;
        L.nth++;
        const rec_func_desc *tf = rec_table_lookup(L.table, r.func);
        if ((layered ? cg_layered_push(layered, tf, &r, &mi, L.nth, take_record, &L, err)
                     : take_record(&L, tf, &r, &mi, L.nth, NULL, err)) != 0) {
            rc = -1;
            break;
        }
    }
    if (layered && rc == 0 && cg_layered_finish(layered, take_record, &L, err) != 0)
        rc = -1;
    cg_layered_free(layered);
    m->lines = rf_inputs_lines(L.inputs);
    for (size_t i = 0; i < m->ninsts; i++) { /* only writes to files with lines keep their places */
        cg_inst *w = &m->insts[i];
        int lined = 0;
        for (uint32_t k = 0; w->spans && k < w->nr && !lined; k++)
            lined = w->spans[k].file != UINT32_MAX && rf_lines_delim(m->lines, w->spans[k].file) >= 0;
        if (!lined) {
            free(w->spans);
            w->spans = NULL;
        }
    }
    rf_input *in;
    size_t n = rf_inputs_finish(L.inputs, &in);
    /* a kernel below HDF5 reads an HDF5 input's bytes, not its structure: a file of its size, made without HDF5 */
    int below_hdf5 = o && o->layer != REC_CODEGEN_TOP && o->layer < REC_LAYER_HDF5;
    m->inputs = cg_alloc((n ? n : 1) * sizeof *m->inputs);
    for (size_t i = 0; i < n; i++) {
        m->inputs[i] = (cg_input){cg_strdup(in[i].key), in[i].is_dir ? -1 : in[i].size, in[i].hdf5 && !below_hdf5, NULL,
                                  in[i].link ? cg_strdup(in[i].link) : NULL, in[i].file, in[i].head, in[i].head_len};
        in[i].head = NULL; /* the model's now */
        if (m->inputs[i].head && m->inputs[i].size < (int64_t)m->inputs[i].head_len)
            m->inputs[i].size = m->inputs[i].head_len;
    }
    m->ninputs = n;
    rf_inputs_free(in, n);
    rf_special_free(L.special);
    rec_cursor_close(L.c);
    free(L.set);
    return rc < 0 ? -1 : 0;
}

/* The calls of threads the kernel starts: the main thread's, and those of
 * each thread a kept call started (STARTS_THREAD: its THREAD argument, on
 * any rank), which may come before that call in the stream (a record is
 * written when its call returns). The calls of other threads (an MPI
 * library's own, started inside MPI_Init) are left out. The instances end up
 * grouped by thread, the main thread's first, each in its order: every
 * thread's calls are a sequence of their own (loops never mix them). */
typedef struct thread_pos {
    uint32_t thread;
    size_t pos;
} thread_pos;

static int by_thread(const void *a, const void *b)
{
    const thread_pos *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->pos < y->pos ? -1 : x->pos > y->pos; /* each thread's calls in their order */
}

static void keep_started_threads(cg_model *m)
{
    enum { MAX_STARTED = 4096 };
    unsigned char *started = cg_calloc(MAX_STARTED, 1);
    started[0] = 1;
    for (int changed = 1; changed;) { /* a started thread may start threads of its own */
        changed = 0;
        for (size_t i = 0; i < m->ninsts; i++) {
            const cg_inst *in = &m->insts[i];
            int t = rec_func_sole(in->f) == REC_SOLE_STARTS_THREAD ? rec_arg_with_kind(in->f, REC_KIND_THREAD_ID, 0) : -1;
            if (t < 0 || in->thread >= MAX_STARTED || !started[in->thread])
                continue;
            for (uint32_t k = 0; k < in->nr; k++) {
                int64_t id = cg_inst_values(in, (unsigned)t)[k];
                if (id > 0 && id < MAX_STARTED && !started[id])
                    started[id] = 1, changed = 1;
            }
        }
    }
    size_t n = 0;
    int others = 0;
    for (size_t i = 0; i < m->ninsts; i++) {
        cg_inst *in = &m->insts[i];
        if (in->thread < MAX_STARTED && started[in->thread]) {
            others |= in->thread != 0;
            m->insts[n++] = *in;
            continue;
        }
        m->dropped_threads++;
        m->kept--;
        free(in->v);
        free(in->spans);
    }
    m->ninsts = n;
    for (uint32_t t = 1; t < MAX_STARTED; t++)
        m->nthreads += started[t];
    free(started);
    if (!others)
        return;
    thread_pos *order = cg_alloc(m->ninsts * sizeof *order);
    for (size_t i = 0; i < m->ninsts; i++)
        order[i] = (thread_pos){m->insts[i].thread, i};
    qsort(order, m->ninsts, sizeof *order, by_thread);
    cg_inst *sorted = cg_alloc(m->capinsts * sizeof *sorted);
    for (size_t i = 0; i < m->ninsts; i++)
        sorted[i] = m->insts[order[i].pos];
    free(m->insts);
    m->insts = sorted;
    free(order);
}

/* Each HDF5 input's skeleton, from the trace directory the user named (a
 * per-rank trace's, or a merged one's: recorder-merge copies them). A file
 * the kernel opens above HDF5 (a netCDF-4 file, by nc_open_par) is an HDF5
 * input where the tracer kept a skeleton of it, unless the kernel is below HDF5. */
static int attach_skeletons(cg_model *m, const char *trace_dir, rec_error *err)
{
    h5skel **all;
    size_t n;
    if (h5skel_load_dir(trace_dir, &all, &n, err->msg, sizeof err->msg) != 0)
        return -1;
    int below_hdf5 = m->layer != REC_CODEGEN_TOP && m->layer < REC_LAYER_HDF5;
    for (size_t i = 0; i < m->ninputs; i++) {
        cg_input *in = &m->inputs[i];
        int file_above_hdf5 = !below_hdf5 && in->size >= 0 && !in->link;
        for (size_t j = 0; j < n && (in->hdf5 || file_above_hdf5) && !in->skel; j++)
            if (all[j] && h5skel_find(&all[j], 1, in->path)) {
                in->skel = all[j];
                in->hdf5 = 1;
                all[j] = NULL;
            }
    }
    h5skel_free_all(all, n);
    return 0;
}

int cg_load(const char *trace_dir, const cg_options *o, cg_model *m, rec_error *err)
{
    memset(m, 0, sizeof *m);
    m->trace_dir = cg_strdup(trace_dir);
    rec_trace *t = rec_trace_open(trace_dir, err);
    if (!t)
        return -1;
    char scratch[4096] = "";
    const rec_trace_info *info = rec_trace_get_info(t);
    for (size_t i = 0; i < info->noptions; i++) { /* recorder-import names the log it read, and how it read it */
        if (strcmp(info->options[i].key, "DARSHAN_LOG") == 0)
            snprintf(m->imported_from, sizeof m->imported_from, "the Darshan log %s", info->options[i].value);
        if (strcmp(info->options[i].key, "RECORDER_IMPORT_METHOD") == 0)
            snprintf(m->import_method, sizeof m->import_method, "%s", info->options[i].value);
    }
    if (!rec_trace_is_merged(t)) {
        rec_trace_close(t);
        rec_merge_options mo;
        rec_merge_options_init(&mo);
        mo.tool = CG_TOOL;
        if (o && o->window)
            mo.window = o->window;
        rec_merge_stats stats = {0};
        int rc = rec_merge_to_scratch(trace_dir, &mo, scratch, sizeof scratch, &stats, err);
        m->per_rank_records = stats.records_in;
        m->unfinished_ranks = stats.unfinished;
        m->unfinished_after = stats.unfinished_after;
        t = rc == 0 ? rec_trace_open(scratch, err) : NULL;
        if (!t) {
            if (*scratch)
                rec_merge_remove_dir(scratch);
            return -1;
        }
    }
    m->nranks = rec_trace_get_info(t)->nranks;
    m->layer = o ? o->layer : REC_CODEGEN_TOP;
    int rc = m->nranks ? read_merged(m, t, o, err) : -1;
    if (rc == 0)
        keep_started_threads(m);
    if (rc == 0)
        rc = attach_skeletons(m, trace_dir, err);
    rec_error store_err;
    if (rc == 0 && rec_h5store_read(trace_dir, &m->h5store, &store_err) != 0) /* a damaged extra: said, not fatal */
        fprintf(stderr, "%s: %s: writes through HDF5 filters get the pattern\n", CG_TOOL, store_err.msg);
    if (!m->nranks)
        snprintf(err->msg, sizeof err->msg, "%s: the trace has no ranks", trace_dir);
    rec_trace_close(t);
    if (*scratch)
        rec_merge_remove_dir(scratch);
    return rc;
}

void cg_model_free(cg_model *m)
{
    for (size_t i = 0; i < m->ninsts; i++) {
        free(m->insts[i].v);
        free(m->insts[i].spans);
    }
    free(m->insts);
    for (size_t i = 0; i < m->nranksets; i++)
        free(m->ranksets[i].ranks);
    free(m->ranksets);
    free(m->hobjs);
    for (size_t i = 0; i < m->nstrs; i++)
        free(m->strs[i]);
    free(m->strs);
    free(m->strlens);
    for (size_t i = 0; i < m->narrs; i++)
        free(m->arrs[i]);
    free(m->arrs);
    free(m->arrlens);
    cg_pool_entry *e, *tmp;
    HASH_ITER(hh, m->pool, e, tmp)
    {
        HASH_DEL(m->pool, e);
        free(e);
    }
    for (size_t i = 0; i < m->ninputs; i++) {
        free(m->inputs[i].path);
        h5skel_free(m->inputs[i].skel);
        free(m->inputs[i].link);
        free(m->inputs[i].head);
    }
    free(m->inputs);
    rf_lines_free(m->lines);
    rec_h5store_free(&m->h5store);
    free(m->trace_dir);
    memset(m, 0, sizeof *m);
}
