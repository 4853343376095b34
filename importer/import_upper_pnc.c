/* import_upper_pnc.c: the PnetCDF layer's calls of a Darshan log, above the
 * MPI-IO (and POSIX) calls the plan placed for the same file.
 *
 * Per PNETCDF_FILE file and rank (a record reduced to rank -1 dealt over
 * every rank, each its share): PNETCDF_FILE_CREATES + _OPENS sessions, the
 * first an ncmpi_create when the file was created, the others ncmpi_open,
 * each closed, over the rank's sessions of the file's lower calls (shared
 * out in turn, every one of them under one PnetCDF session). In the
 * create's define mode, per PNETCDF_VAR variable of the file: its
 * dimensions (the shape import_upper_dset.c gives a record; a record
 * variable's first the file's one unlimited dimension), the variable, of the
 * netCDF type of its element size; then ncmpi_enddef. The data calls: per
 * variable, as many reads and writes as its counters count, sized as
 * stat_sizes.c sizes a record's (the bytes exact when they are whole rows),
 * each a subarray of rows, the ranks' blocks one after another along the
 * first dimension: collective ones ncmpi_put_vara_all / get_vara_all (as
 * many on every rank: a remainder is made independent), independent ones
 * ncmpi_put_vara / get_vara inside ncmpi_begin_indep_data and
 * end_indep_data (every rank enters it, at the file's first independent
 * call), nonblocking ones ncmpi_iput_vara / iget_vara, completed by
 * PNETCDF_FILE_COLL_WAITS ncmpi_wait_all calls spread over the file's wait
 * window (at least one, the last after every nonblocking call). Calls are in
 * time order (the record's window split evenly between the rank's calls);
 * every time is the record's, so the collective calls come in the same order
 * on every rank. The lower calls nest beneath as beneath HDF5's
 * (ri_emit_session): a nonblocking call's I/O in the wait that completes
 * it. Every call is inferred; each function is the table's of a sole role. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "import_upper.h"
#include "import_view.h"

/* netCDF's values of these (netcdf.h and pnetcdf.h agree; the importer is
 * built without PnetCDF's headers). */
enum { NC_NOWRITE_ = 0, NC_WRITE_ = 1, NC_CLOBBER_ = 0, NC_64BIT_DATA_ = 0x20, NC_UNLIMITED_ = 0 };
enum { NC_BYTE_ = 1, NC_SHORT_ = 3, NC_FLOAT_ = 5, NC_DOUBLE_ = 6 };

/* What a planned call of the rank is: a data call of a mode, a wait, the
 * independent mode's begin and end. */
enum { M_COLL, M_INDEP, M_NB, M_WAIT, M_BEGIN, M_END };

typedef struct pcall {
    uint32_t v, session;
    uint8_t k, mode; /* k: 0 read, 1 write; mode M_* */
    int64_t g;       /* the record's call index */
    double t;        /* where it goes: its time (the independent ones the file's first) */
    double a0, a1;   /* the window its nested calls start in */
} pcall;

/* The order of a session's calls: by time, the independent mode's begin,
 * calls and end together; then by variable and call. */
static int cmp_pcall(const void *x, const void *y)
{
    static const int rank_of[] = {
        [M_COLL] = 3, [M_INDEP] = 1, [M_NB] = 3, [M_WAIT] = 4, [M_BEGIN] = 0, [M_END] = 2};
    const pcall *a = x, *b = y;
    if (a->session != b->session)
        return a->session < b->session ? -1 : 1;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    if (rank_of[a->mode] != rank_of[b->mode])
        return rank_of[a->mode] < rank_of[b->mode] ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    if (a->k != b->k)
        return a->k > b->k ? -1 : 1;
    return a->g < b->g ? -1 : a->g > b->g;
}

typedef struct pncfile {
    const ri_darshan_record *rec;   /* the rank's PNETCDF_FILE record, own or rank -1 */
    const ri_darshan_record **vars; /* the file's PNETCDF_VAR records (every rank's) */
    size_t nvars;
} pncfile;

static int64_t fcount(const ri_darshan_record *r, const char *name)
{
    int isf;
    int64_t v = ri_counter(r, ri_darshan_counter_index(RI_DARSHAN_PNETCDF_FILE, name, &isf));
    return v > 0 ? v : 0;
}

static double ftime(const ri_darshan_record *r, const char *name)
{
    int isf;
    double v = ri_fcounter(r, ri_darshan_counter_index(RI_DARSHAN_PNETCDF_FILE, name, &isf));
    return v > 0 && v < 1e12 ? v : 0;
}

/* A rank's calls of a mode (of a record's total of them shared over n
 * ranks): collective ones alike on every rank, the remainder independent. */
static int64_t calls_of(const ri_dset *d, int k, int mode, uint32_t r)
{
    const int64_t *m = d->mode_n[k];
    uint32_t n = d->share_n;
    if (mode == M_COLL)
        return m[M_COLL] / n;
    if (mode == M_INDEP)
        return ri_share(m[M_INDEP] + m[M_COLL] % n, n, r);
    return ri_share(m[M_NB], n, r);
}

/* The record's first call index of the rank's calls of kind k: the ranks' calls one after another. */
static int64_t first_call_of(const ri_dset *d, int k, uint32_t rank)
{
    int64_t g = 0;
    for (uint32_t r = 0; r < rank && d->share_n > 1; r++)
        for (int m = M_COLL; m <= M_NB; m++)
            g += calls_of(d, k, m, r);
    return g;
}

/* The netCDF type and the MPI datatype of an element of the variable. */
static void types_of(const ri_dset *d, int64_t *nc_type, int64_t *mpi_type)
{
    const char *mpi = d->tsize == 8   ? "MPI_DOUBLE"
                      : d->tsize == 4 ? "MPI_FLOAT"
                      : d->tsize == 2 ? "MPI_SHORT"
                                      : "MPI_SIGNED_CHAR";
    *nc_type = d->tsize == 8 ? NC_DOUBLE_ : d->tsize == 4 ? NC_FLOAT_ : d->tsize == 2 ? NC_SHORT_ : NC_BYTE_;
    *mpi_type = ri_predefined(REC_KIND_MPI_DATATYPE, mpi);
}

/* The rank's calls of the file: every variable's data calls, the waits,
 * the independent mode's begin and end. */
static int plan_calls(ri_upper_ctx *c, const pncfile *h, ri_dset *ds, size_t nd, const ri_lower *span,
                      size_t nspan, size_t nsess, pcall **out, size_t *nout)
{
    builder *b = c->b;
    size_t n = 0, cap = 0;
    pcall *v = NULL;
    double t_indep = -1, nb_end = 0, nb_start = -1;
    int indep = 0, nb = 0;
    for (size_t i = 0; i < nd; i++)
        for (int k = 0; k < 2; k++) {
            const ri_dset *d = &ds[i];
            if (d->mode_n[k][M_INDEP] + d->mode_n[k][M_COLL] % d->share_n > 0) {
                indep = 1;
                t_indep = t_indep < 0 || d->win[k][0] < t_indep ? d->win[k][0] : t_indep;
            }
            if (d->mode_n[k][M_NB] > 0) {
                nb = 1;
                nb_end = d->win[k][1] > nb_end ? d->win[k][1] : nb_end;
                nb_start = nb_start < 0 || d->win[k][0] < nb_start ? d->win[k][0] : nb_start;
            }
        }
    for (size_t i = 0; i < nd; i++)
        for (int k = 0; k < 2; k++) {
            const ri_dset *d = &ds[i];
            int64_t g = first_call_of(d, k, c->rank);
            double w0 = d->win[k][0], w1 = d->win[k][1] > w0 ? d->win[k][1] : w0;
            for (int mode = M_COLL; mode <= M_NB; mode++) {
                int64_t mine = calls_of(d, k, mode, d->share_r);
                for (int64_t j = 0; j < mine; j++) {
                    if (ri_grow(&v, &cap, n, sizeof *v) != 0)
                        goto oom;
                    pcall *q = &v[n++];
                    memset(q, 0, sizeof *q);
                    q->v = (uint32_t)i;
                    q->k = (uint8_t)k;
                    q->mode = (uint8_t)mode;
                    q->g = g++;
                    q->a0 = w0 + (w1 - w0) * (double)j / (double)mine;
                    q->a1 = w0 + (w1 - w0) * (double)(j + 1) / (double)mine;
                    q->t = mode == M_INDEP ? t_indep : q->a0;
                }
            }
        }
    if (indep)
        for (int e = 0; e < 2; e++) {
            if (ri_grow(&v, &cap, n, sizeof *v) != 0)
                goto oom;
            memset(&v[n], 0, sizeof v[n]);
            v[n].mode = e ? M_END : M_BEGIN;
            v[n++].t = t_indep;
        }
    if (nb) { /* the waits: over the file's wait window, the last after every nonblocking call */
        const ri_darshan_record *r = h->rec;
        int64_t waits = fcount(r, "PNETCDF_FILE_COLL_WAITS");
        waits = r->rank < 0 ? waits / b->p->nranks : waits;
        waits = waits < 1 ? 1 : waits > (int64_t)RI_MAX_STAT_CALLS ? (int64_t)RI_MAX_STAT_CALLS : waits;
        double ws = ftime(r, "PNETCDF_FILE_F_WAIT_START_TIMESTAMP"),
               we = ftime(r, "PNETCDF_FILE_F_WAIT_END_TIMESTAMP");
        if (we <= ws)
            ws = nb_start, we = nb_end;
        double prev_t = nb_start;
        for (int64_t i = 0; i < waits; i++) {
            if (ri_grow(&v, &cap, n, sizeof *v) != 0)
                goto oom;
            pcall *q = &v[n++];
            memset(q, 0, sizeof *q);
            q->mode = M_WAIT;
            q->k = 1;
            q->t = ws + (we - ws) * (double)(i + 1) / (double)waits;
            if (i == waits - 1 && q->t < nb_end)
                q->t = nb_end;
            q->a0 = prev_t;
            q->a1 = prev_t = q->t;
        }
    }
    for (size_t i = 0; i < n; i++)
        v[i].session = ri_pick_session(span, nspan, nsess, v[i].t, b, v[i].k);
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_pcall);
    *out = v;
    *nout = n;
    return 0;
oom:
    free(v);
    return ri_fail(b, "out of memory");
}

/* A copy of n requests and n statuses the plan keeps, for a wait. */
static int64_t *keep_requests(ri_plan *p, const int64_t *req, size_t n)
{
    if (ri_grow(&p->lists, &p->lists_cap, p->nlists, sizeof *p->lists) != 0)
        return NULL;
    int64_t *l = calloc(2 * n + 1, sizeof *l);
    if (l) {
        memcpy(l, req, n * sizeof *l);
        p->lists[p->nlists++] = l;
    }
    return l;
}

/* Whether the rank's event i is an open over MPI_COMM_WORLD. */
static int ev_layer_collective(const ri_upper_ctx *c, size_t i)
{
    const ri_event *e = &c->b->p->ranks[c->rank].v[i];
    return e->layer == REC_LAYER_MPIIO && e->collective;
}

static ri_slot *add(ri_slots *s, unsigned sole, int kind, int64_t ncid)
{
    ri_slot *x = ri_add_slot(s, sole, kind);
    if (x)
        x->u.subject = ncid;
    return x;
}

/* The create's definitions: every variable's dimensions, the variable; the define mode ended. */
static int define(ri_upper_ctx *c, ri_slots *s, ri_dset *ds, size_t nd, const int *record)
{
    int64_t ncid = c->file_handle, ndims = 0, unlimited = -1;
    ri_slot *x;
    for (size_t i = 0; i < nd; i++) {
        ri_dset *d = &ds[i];
        int64_t dimids[RI_UPPER_DIMS], nc_type, mpi_type;
        for (int j = 0; j < d->ndims; j++) {
            if (j == 0 && record[i] && unlimited >= 0) {
                dimids[0] = unlimited;
                continue;
            }
            if (!(x = add(s, REC_SOLE_DEFINES_NC_DIM, RI_K_NONE, ncid)))
                return -1;
            char name[300];
            if (j == 0 && record[i])
                snprintf(name, sizeof name, "record");
            else
                snprintf(name, sizeof name, "%s_%d", d->name + 1, j);
            if (!(x->u.name = ri_keep_name(c->b->p, name)))
                return -1;
            x->u.count = j == 0 && record[i] ? NC_UNLIMITED_ : d->dims[j];
            x->u.id = dimids[j] = ndims++;
            if (j == 0 && record[i])
                unlimited = dimids[0];
        }
        if (!(x = add(s, REC_SOLE_DEFINES_NC_VAR, RI_K_NONE, ncid)) ||
            !(x->u.name = ri_keep_name(c->b->p, d->name + 1)))
            return -1;
        types_of(d, &nc_type, &mpi_type);
        x->u.flags = nc_type;
        x->u.count = d->ndims;
        ri_set_array(&x->u, 0, dimids, d->ndims);
        x->u.id = (int64_t)i;
    }
    return add(s, REC_SOLE_ENDS_NC_DEFINE, RI_K_NONE, ncid) ? 0 : -1;
}

/* A data call of the session's: a subarray of the rows its size holds. */
static int data_call(ri_upper_ctx *c, ri_slots *s, const ri_dset *d, const pcall *q, int64_t *pending,
                     size_t *npending)
{
    static const unsigned soles[2][3] = {
        {REC_SOLE_READS_NC_VARA_ALL, REC_SOLE_READS_NC_VARA, REC_SOLE_STARTS_NC_READ_VARA},
        {REC_SOLE_WRITES_NC_VARA_ALL, REC_SOLE_WRITES_NC_VARA, REC_SOLE_STARTS_NC_WRITE_VARA}};
    int64_t inner = 1, nc_type, mpi_type;
    for (int i = 1; i < d->ndims; i++)
        inner *= d->inner[i];
    int64_t rows = d->sizes[q->k][q->g] / (d->tsize * inner);
    rows = rows < 1 ? 1 : rows;
    int64_t start[RI_UPPER_DIMS] = {0}, count[RI_UPPER_DIMS];
    start[0] = d->start[q->k][q->g];
    count[0] = rows;
    for (int j = 1; j < d->ndims; j++)
        count[j] = d->inner[j];
    /* a nonblocking call's I/O happens in the wait: nothing nests in it */
    ri_slot *x = add(s, soles[q->k][q->mode],
                     q->mode == M_NB ? RI_K_NONE
                     : q->k          ? RI_K_WRITE
                                     : RI_K_READ,
                     c->file_handle);
    if (!x)
        return -1;
    types_of(d, &nc_type, &mpi_type);
    x->u.id = q->v; /* the variables' ids are their order of definition */
    ri_set_array(&x->u, 0, start, d->ndims);
    ri_set_array(&x->u, 1, count, d->ndims);
    x->u.count = rows * inner;
    x->u.datatype = mpi_type;
    x->u.bytes = rows * inner * d->tsize;
    x->a0 = q->a0;
    x->a1 = q->a1;
    if (q->mode == M_NB)
        pending[(*npending)++] = x->u.made = ri_new_hid(c);
    return 0;
}

/* The lower sessions [*l0, *l1) of PnetCDF session i of nsess: i * nlow / nsess on, when there are as many
 * lower sessions, else the i-th alone; 0 when there is none. */
static int lower_of(size_t nlow, size_t nsess, size_t i, size_t *l0, size_t *l1)
{
    *l0 = nlow >= nsess ? i * nlow / nsess : i;
    *l1 = nlow >= nsess ? (i + 1) * nlow / nsess : i + 1;
    return *l0 < nlow;
}

/* The rank's PnetCDF sessions of the file over its lower sessions. */
static int place_rank(ri_upper_ctx *c, file_state *f, const pncfile *h, int64_t world, int64_t self)
{
    builder *b = c->b;
    uint32_t nranks = b->p->nranks;
    uint32_t sn = h->rec->rank < 0 ? nranks : 1, sr = h->rec->rank < 0 ? c->rank : 0;
    int64_t creates = ri_share(fcount(h->rec, "PNETCDF_FILE_CREATES"), sn, sr);
    int64_t nsess = creates + ri_share(fcount(h->rec, "PNETCDF_FILE_OPENS"), sn, sr);
    if (nsess <= 0)
        return 0;
    if (nsess > (int64_t)RI_MAX_STAT_CALLS)
        return ri_fail(b, "a PNETCDF_FILE record counts more than 4194304 creates and opens: recorder-import "
                          "makes no trace that large yet");
    size_t *idx = NULL, nd = 0, ncalls = 0, npending = 0;
    ri_lower *low = NULL, *span = NULL;
    size_t nlow = ri_lower_sessions(c, f, &idx, &low);
    if (nlow == (size_t)-1)
        return ri_fail(b, "out of memory");
    int rc = -1;
    ri_dset *ds = calloc(h->nvars ? h->nvars : 1, sizeof *ds);
    int *record = calloc(h->nvars ? h->nvars : 1, sizeof *record);
    pcall *calls = NULL;
    int64_t *pending = NULL;
    ri_slots s = {0};
    span = calloc((size_t)nsess, sizeof *span);
    if (!ds || !record || !span)
        goto oom;
    for (size_t i = 0; i < h->nvars; i++) { /* the rank's records: its own, else the rank -1 one */
        const ri_darshan_record *r = h->vars[i];
        int own_exists = 0;
        for (size_t j = 0; j < h->nvars; j++)
            own_exists |= h->vars[j]->id == r->id && h->vars[j]->rank == (int64_t)c->rank;
        if ((r->rank >= 0 && r->rank != (int64_t)c->rank) || (r->rank < 0 && own_exists))
            continue;
        if (ri_upper_variable(b, c->rank, r, nranks, RI_DARSHAN_PNETCDF_VAR, &ds[nd]) != 0)
            goto out;
        int isf;
        record[nd++] = ri_counter(r, ri_darshan_counter_index(RI_DARSHAN_PNETCDF_VAR,
                                                              "PNETCDF_VAR_IS_RECORD_VAR", &isf)) > 0;
    }
    /* each session's lower sessions: their span */
    size_t nspan = 0;
    for (int64_t i = 0; i < nsess && nlow; i++) {
        size_t l0, l1;
        if (!lower_of(nlow, (size_t)nsess, (size_t)i, &l0, &l1))
            break;
        span[nspan].t0 = low[l0].t0;
        span[nspan].t1 = low[l1 - 1].t1;
        for (size_t l = l0; l < l1; l++)
            span[nspan].writes |= low[l].writes;
        nspan++;
    }
    if (plan_calls(c, h, ds, nd, span, nspan, (size_t)nsess, &calls, &ncalls) != 0)
        goto out;
    if (!(pending = malloc((ncalls ? ncalls : 1) * sizeof *pending)))
        goto oom;
    int created = creates > 0;
    int64_t comm = h->rec->rank < 0 ? world : self;
    for (size_t l = 0; l < nlow && comm == self; l++)
        if (ev_layer_collective(c, low[l].open))
            comm = world;
    uint64_t prev = 0;
    size_t q = 0;
    for (int64_t sess = 0; sess < nsess; sess++) {
        s.n = 0;
        int create = sess == 0 && created, writes = (size_t)sess < nspan && span[sess].writes;
        for (size_t i = q; i < ncalls && calls[i].session == (uint32_t)sess; i++)
            writes |= calls[i].k && calls[i].mode <= M_NB;
        ri_slot *x = ri_add_slot(&s, create ? REC_SOLE_CREATES_NC_FILE : REC_SOLE_OPENS_NC_FILE, RI_K_FOPEN);
        if (!x)
            goto oom;
        c->file_handle = x->u.made = ri_new_hid(c);
        x->u.comm = comm;
        x->u.flags = create ? NC_CLOBBER_ | NC_64BIT_DATA_ : writes ? NC_WRITE_ : NC_NOWRITE_;
        if (create && define(c, &s, ds, nd, record) != 0)
            goto oom;
        npending = 0;
        for (; q < ncalls && calls[q].session == (uint32_t)sess; q++) {
            const pcall *p = &calls[q];
            if (p->mode <= M_NB) {
                if (data_call(c, &s, &ds[p->v], p, pending, &npending) != 0)
                    goto oom;
                continue;
            }
            unsigned sole = p->mode == M_WAIT    ? REC_SOLE_WAITS_NC_ALL
                            : p->mode == M_BEGIN ? REC_SOLE_BEGINS_NC_INDEP
                                                 : REC_SOLE_ENDS_NC_INDEP;
            if (!(x = add(&s, sole, p->mode == M_WAIT ? RI_K_WRITE : RI_K_NONE, c->file_handle)))
                goto oom;
            if (p->mode == M_WAIT) { /* the requests since the last wait, and their I/O */
                x->u.count = (int64_t)npending;
                if (npending && !(x->u.list = keep_requests(b->p, pending, npending)))
                    goto oom;
                x->u.nlist = (uint32_t)npending;
                x->a0 = p->a0;
                x->a1 = p->a1;
                npending = 0;
            }
        }
        if (!(x = add(&s, REC_SOLE_CLOSES_NC_FILE, RI_K_FCLOSE, c->file_handle)))
            goto oom;
        size_t l0 = 0, l1 = 0; /* the session's lower sessions */
        if ((size_t)sess >= nspan || !lower_of(nlow, (size_t)nsess, (size_t)sess, &l0, &l1))
            l0 = l1 = 0;
        if (ri_emit_session(c, f, &s, low + l0, l1 - l0, &prev, REC_LAYER_PNETCDF) != 0)
            goto out;
    }
    b->p->pnetcdf_files += c->rank == 0 || h->rec->rank >= 0;
    rc = 0;
    goto out;
oom:
    ri_fail(b, "out of memory");
out:
    for (size_t i = 0; i < nd; i++)
        ri_upper_dataset_free(&ds[i]);
    free(ds);
    free(record);
    free(calls);
    free(pending);
    free(s.v);
    free(idx);
    free(low);
    free(span);
    return rc;
}

/* ---- the handles' ids ---- */

int ri_upper_pnc_renumber(ri_plan *p)
{
    for (uint32_t r = 0; r < p->nranks; r++) {
        const ri_events *ev = &p->ranks[r];
        int64_t top = REC_HANDLE_DYNAMIC_BASE, next[2] = {REC_HANDLE_DYNAMIC_BASE, REC_HANDLE_DYNAMIC_BASE};
        for (size_t i = 0; i < ev->n; i++)
            if (ev->v[i].call == RI_CALL_UPPER && ev->v[i].layer == REC_LAYER_PNETCDF &&
                p->upper[ev->v[i].aux].made >= top)
                top = p->upper[ev->v[i].aux].made + 1;
        int64_t *map = calloc((size_t)(top - REC_HANDLE_DYNAMIC_BASE) + 1, sizeof *map);
        if (!map)
            return -1;
#define NEW_ID_(id)                                                                                          \
    ((id) >= REC_HANDLE_DYNAMIC_BASE && (id) < top && map[(id)-REC_HANDLE_DYNAMIC_BASE]                      \
         ? map[(id)-REC_HANDLE_DYNAMIC_BASE]                                                                 \
         : (id))
        for (size_t i = 0; i < ev->n; i++) {
            const ri_event *e = &ev->v[i];
            if (e->call != RI_CALL_UPPER || e->layer != REC_LAYER_PNETCDF)
                continue;
            ri_upper *u = &p->upper[e->aux];
            u->subject = NEW_ID_(u->subject);
            for (uint32_t k = 0; k < u->nlist; k++)
                u->list[k] = NEW_ID_(u->list[k]);
            if (u->made >= REC_HANDLE_DYNAMIC_BASE) { /* an ncid, or a request (the only other handle made) */
                int request =
                    e->sole == REC_SOLE_STARTS_NC_WRITE_VARA || e->sole == REC_SOLE_STARTS_NC_READ_VARA;
                map[u->made - REC_HANDLE_DYNAMIC_BASE] = next[request]++;
                u->made = map[u->made - REC_HANDLE_DYNAMIC_BASE];
            }
        }
#undef NEW_ID_
        free(map);
    }
    return 0;
}

/* ---- every PNETCDF_FILE file ---- */

static int place_pncfile(ri_upper_ctx *c, file_state *f, const ri_darshan_record *rec,
                         const ri_darshan_record **members, size_t n, void *comms)
{
    pncfile h = {rec, members, n};
    return place_rank(c, f, &h, ((const int64_t *)comms)[0], ((const int64_t *)comms)[1]);
}

int ri_plan_upper_pnc(builder *b)
{
    if (!b->log->modules[RI_DARSHAN_PNETCDF_FILE].nrecords || !b->p->nranks)
        return 0;
    int64_t comms[2] = {ri_predefined(REC_KIND_MPI_COMM, "MPI_COMM_WORLD"),
                        ri_predefined(REC_KIND_MPI_COMM, "MPI_COMM_SELF")};
    if (comms[0] < 0 || comms[1] < 0 || ri_predefined(REC_KIND_MPI_DATATYPE, "MPI_DOUBLE") < 0)
        return ri_fail(b, "the function table names no MPI_COMM_WORLD, MPI_COMM_SELF or MPI_DOUBLE");
    static const unsigned soles[] = {
        REC_SOLE_CREATES_NC_FILE,      REC_SOLE_OPENS_NC_FILE,       REC_SOLE_CLOSES_NC_FILE,
        REC_SOLE_DEFINES_NC_DIM,       REC_SOLE_DEFINES_NC_VAR,      REC_SOLE_ENDS_NC_DEFINE,
        REC_SOLE_BEGINS_NC_INDEP,      REC_SOLE_ENDS_NC_INDEP,       REC_SOLE_WRITES_NC_VARA,
        REC_SOLE_WRITES_NC_VARA_ALL,   REC_SOLE_READS_NC_VARA,       REC_SOLE_READS_NC_VARA_ALL,
        REC_SOLE_STARTS_NC_WRITE_VARA, REC_SOLE_STARTS_NC_READ_VARA, REC_SOLE_WAITS_NC_ALL};
    if (ri_require_soles(b, soles, sizeof soles / sizeof soles[0]) != 0)
        return -1;
    return ri_upper_each_file(b, RI_DARSHAN_PNETCDF_FILE, RI_DARSHAN_PNETCDF_VAR, place_pncfile, comms);
}
