/* ra_summary_vars.c: recorder-summary's netCDF variables. Per file and
 * variable (its name from the call that defined it or looked it up): the
 * calls that named it, collective or independent, the nonblocking requests
 * posted for it, the bytes written and read; then how the nonblocking
 * requests went to the file: how many calls completed them and the MPI-IO
 * writes and reads inside those calls, which carried their data. A call of
 * several variables (PnetCDF's mput and mget: an NC_VARID_ARRAY) is a call
 * of each variable it names, and each row's bytes (ROW_BYTES) its
 * variable's. A second walk, made only for a trace with netCDF calls. */
#include "ra_tools.h"

#include <stdlib.h>
#include <string.h>

typedef struct nc_var {
    int file;
    int64_t varid;
    char name[64];
    uint64_t calls, collective, independent, posted;
    int64_t written, read;
} nc_var;

typedef struct nc_vars {
    nc_var *v;
    size_t n, cap;
    uint64_t waits, completed;           /* calls that completed requests; the requests they named */
    uint64_t carried_calls;              /* MPI-IO data calls inside them ... */
    int64_t carried_bytes, posted_bytes; /* ... their bytes; the requests' bytes */
    int64_t *row;                        /* a multi-variable call's varids and row bytes */
    size_t row_cap;
    uint64_t unattributed_calls;         /* multi-variable calls of a trace without row bytes ... */
    int64_t unattributed_bytes;          /* ... over several variables: their bytes */
} nc_vars;

static nc_var *var_of(nc_vars *s, int file, int64_t varid)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].file == file && s->v[i].varid == varid)
            return &s->v[i];
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->v = ra_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    nc_var *v = &s->v[s->n++];
    memset(v, 0, sizeof *v);
    v->file = file;
    v->varid = varid;
    snprintf(v->name, sizeof v->name, varid == -1 ? "(global)" : "varid %lld", (long long)varid);
    return v;
}

/* One data call of v's, moving bytes. */
static void count_call(nc_vars *s, nc_var *v, const rec_func_desc *f, int64_t bytes)
{
    v->calls++;
    if (f->flags & REC_FN_NONBLOCKING) {
        v->posted++;
        s->posted_bytes += bytes;
    } else if (f->flags & REC_FN_COLLECTIVE) {
        v->collective++;
    } else {
        v->independent++;
    }
}

static void count_bytes(nc_var *v, const rec_func_desc *f, int64_t bytes)
{
    *((f->flags & REC_FN_WRITE) ? &v->written : &v->read) += bytes;
}

/* A call of several variables (ids, its NC_VARID_ARRAY argument): a call of
 * each one it names, however many of its rows do, and each row's bytes
 * (its ROW_BYTES field) the row's variable's; without them (a trace made
 * before them), the bytes of a call that names one variable alone. */
static void multi_call(nc_vars *s, const ra_event *ev, int ids)
{
    const rec_func_desc *f = ev->func;
    const rec_value *vids = &ev->rec->args[ids];
    int rows = rec_arg_with_kind(f, REC_KIND_ROW_BYTES, REC_ARG_DERIVED);
    size_t n = vids->len;
    int have_rows = rows >= 0 && ev->rec->args[rows].len == n;
    if (2 * n > s->row_cap) {
        s->row_cap = 2 * n;
        s->row = ra_xrealloc(s->row, s->row_cap * sizeof *s->row);
    }
    int64_t *id = s->row, *bytes = s->row + n;
    n = rec_value_array(vids, id, n);
    if (have_rows)
        rec_value_array(&ev->rec->args[rows], bytes, n);
    int one = 1; /* every row names the first row's variable */
    for (size_t i = 0; i < n; i++) {
        nc_var *v = var_of(s, ev->file, id[i]);
        size_t first = 0;
        while (id[first] != id[i])
            first++;
        one &= id[i] == id[0];
        if (first == i) /* the call's first row of the variable */
            count_call(s, v, f, 0);
        if (have_rows)
            count_bytes(v, f, bytes[i]);
    }
    if (!have_rows && n && one) {
        count_bytes(var_of(s, ev->file, id[0]), f, ev->bytes);
    } else if (!have_rows && n) {
        s->unattributed_calls++;
        s->unattributed_bytes += ev->bytes;
    }
    if (f->flags & REC_FN_NONBLOCKING) /* the bytes a request posted, once for the call */
        s->posted_bytes += ev->bytes;
}

static int netcdf_layer(unsigned layer)
{
    return layer == REC_LAYER_PNETCDF || layer == REC_LAYER_NETCDF;
}

/* One rank's calls. Children come before their parent: the MPI-IO data
 * calls seen since the last top-level call are the next one's. */
static int walk_rank(nc_vars *s, ra_trace *t, uint32_t rank, rec_error *err)
{
    ra_rank *w = ra_rank_open(t, rank, RA_WALK_NO_OFFSETS | RA_WALK_NO_TREE, err);
    if (!w)
        return -1;
    ra_event ev;
    int rc;
    uint64_t below_calls = 0;
    int64_t below_bytes = 0;
    while ((rc = ra_rank_next(w, &ev, err)) == 1) {
        const rec_func_desc *f = ev.func;
        if (ev.depth > 0) {
            if (ev.layer == REC_LAYER_MPIIO && (f->flags & REC_FN_DATA) && !ev.failed) {
                below_calls++;
                below_bytes += ev.bytes;
            }
            continue;
        }
        uint64_t calls = below_calls;
        int64_t bytes = below_bytes;
        below_calls = 0, below_bytes = 0;
        if (!netcdf_layer(ev.layer) || ev.failed)
            continue;
        int requests = rec_arg_with_kind(f, REC_KIND_NC_REQUEST_ARRAY, REC_ARG_IN);
        if (requests >= 0) {
            s->waits++;
            s->completed += ev.rec->args[requests].len;
            s->carried_calls += calls;
            s->carried_bytes += bytes;
            continue;
        }
        int in = rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_IN),
            out = rec_arg_with_kind(f, REC_KIND_NC_VARID, REC_ARG_OUT),
            ids = rec_arg_with_kind(f, REC_KIND_NC_VARID_ARRAY, REC_ARG_IN);
        if (out >= 0) { /* ncmpi_def_var, ncmpi_inq_varid: the variable's name */
            int name = rec_arg_with_kind(f, REC_KIND_STRING, REC_ARG_IN);
            nc_var *v = var_of(s, ev.file, ev.rec->args[out].i);
            if (name >= 0 && ev.rec->args[name].ptr)
                snprintf(v->name, sizeof v->name, "%.*s", (int)ev.rec->args[name].len,
                         (const char *)ev.rec->args[name].ptr);
            continue;
        }
        if (!(f->flags & REC_FN_DATA))
            continue;
        if (ids >= 0) {
            multi_call(s, &ev, ids);
        } else if (in >= 0) {
            nc_var *v = var_of(s, ev.file, ev.rec->args[in].i);
            count_call(s, v, f, ev.bytes);
            count_bytes(v, f, ev.bytes);
        }
    }
    ra_rank_close(w);
    return rc < 0 ? -1 : 0;
}

static int var_order(const void *a, const void *b)
{
    const nc_var *x = a, *y = b;
    if (x->written + x->read != y->written + y->read)
        return x->written + x->read > y->written + y->read ? -1 : 1;
    return x->file != y->file ? (x->file < y->file ? -1 : 1)
                              : (x->varid < y->varid ? -1 : x->varid > y->varid);
}

int ra_summary_print_vars(const ra_summary *sum, FILE *out, rec_error *err)
{
    ra_trace *t = sum->t;
    const rec_table *table = rec_trace_table(ra_trace_rec(t));
    int any = 0; /* the summary's rows: a netCDF call was made */
    for (size_t i = 0; i < sum->nrows && !any; i++) {
        const rec_func_desc *f = rec_table_lookup(table, sum->rows[i].func);
        any = f && netcdf_layer(f->layer);
    }
    if (!any)
        return 0;
    nc_vars s;
    memset(&s, 0, sizeof s);
    for (uint32_t rank = 0; rank < ra_trace_nranks(t); rank++)
        if (walk_rank(&s, t, rank, err) != 0) {
            free(s.v);
            free(s.row);
            return -1;
        }
    size_t shown = 0;
    if (s.n) /* qsort wants an array, even of none */
        qsort(s.v, s.n, sizeof *s.v, var_order);
    for (size_t i = 0; i < s.n; i++)
        if (s.v[i].calls) {
            if (!shown++)
                fprintf(
                    out,
                    "\nnetCDF variables (data calls that name them, all ranks):\n%-20s %10s %10s %10s %10s "
                    "%14s %14s  path\n",
                    "variable", "calls", "collective", "independ.", "posted", "bytes_written", "bytes_read");
            const nc_var *v = &s.v[i];
            fprintf(out, "%-20s %10llu %10llu %10llu %10llu %14lld %14lld  \"%s\"\n", v->name,
                    (unsigned long long)v->calls, (unsigned long long)v->collective,
                    (unsigned long long)v->independent, (unsigned long long)v->posted, (long long)v->written,
                    (long long)v->read, v->file >= 0 ? ra_file_path(t, v->file) : "?");
        }
    if (s.unattributed_calls)
        fprintf(out,
                "Multi-variable calls without each variable's bytes (a trace made before they were recorded): "
                "%llu calls, %lld bytes, given to no variable\n",
                (unsigned long long)s.unattributed_calls, (long long)s.unattributed_bytes);
    if (s.waits)
        fprintf(
            out,
            "Nonblocking requests: %llu completed by %llu calls (%lld bytes posted); inside those calls %llu "
            "MPI-IO data calls moved %lld bytes: %.1f requests a call\n",
            (unsigned long long)s.completed, (unsigned long long)s.waits, (long long)s.posted_bytes,
            (unsigned long long)s.carried_calls, (long long)s.carried_bytes,
            s.carried_calls ? (double)s.completed / (double)s.carried_calls : 0.0);
    free(s.v);
    free(s.row);
    return 0;
}
