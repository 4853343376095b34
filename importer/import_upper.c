/* import_upper.c: the HDF5 layer's calls of a Darshan log, above the MPI-IO
 * (or POSIX) calls the plan placed for the same file.
 *
 * Per H5F file and rank (a record reduced to rank -1 is dealt over every
 * rank, each its share): a file access list with the MPI-IO driver when
 * H5F_USE_MPIIO, a collective transfer list when a dataset says
 * H5D_USE_MPIIO_COLLECTIVE, then H5F_OPENS sessions, one over each session
 * of the file's lower calls in turn (the first a create when that session
 * wrote), each closed. Per H5D dataset of the file: a dataspace of
 * H5D_DATASPACE_NDIMS dimensions holding H5D_DATASPACE_NPOINTS points, its
 * later dimensions the common access's lengths, its first the points over
 * them; chunked by H5D_CHUNK_SIZE_D* (D1 the last dimension); a type of
 * H5D_DATATYPE_SIZE bytes (the table's first predefined one of that size,
 * else an opaque one); H5D_OPENS opens (the first a create when the file
 * was created), each in the session its calls' times fall in; H5D_WRITES
 * and H5D_READS writes and reads, their sizes as stat_sizes.c gives a
 * POSIX record's from the H5D histogram and common accesses (the bytes
 * exact when they divide into rows), each selecting a block of rows, the
 * ranks' blocks one after another along the first dimension (in turn, as
 * the calls are dealt), starting over past its end.
 *
 * The lower calls of a session nest beneath (their depth + 1): each in the
 * data call of the window (the dataset's first to last read or write,
 * split evenly between its calls) it started in, taken in time order;
 * those before every data call's window in the create or open, those
 * after in the close. An upper call's window is its nested calls'; one
 * with none takes the end of the call before it. Every call is inferred.
 * Each function is the table's of a sole role (REC_SOLE_*). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "import_upper.h"
#include "import_view.h"

/* HDF5's constants are macros that call H5open(): the values alone here */
#undef H5CHECK
#undef H5OPEN
#define H5CHECK
#define H5OPEN

static int H5F_OPENS_, H5F_USE_MPIIO_;
int64_t ri_predefined(unsigned kind, const char *name)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        if (rec_predefined_handles[i].kind == kind && strcmp(rec_predefined_handles[i].name, name) == 0)
            return rec_predefined_handles[i].id;
    return -1;
}

int ri_grow(void *v, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 32;
    void *w = realloc(*(void **)v, c * size);
    if (!w)
        return -1;
    *(void **)v = w;
    *cap = c;
    return 0;
}

ri_slot *ri_add_slot(ri_slots *s, unsigned sole, int kind)
{
    if (ri_grow(&s->v, &s->cap, s->n, sizeof *s->v) != 0)
        return NULL;
    ri_slot *x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    x->sole = (uint8_t)sole;
    x->kind = (uint8_t)kind;
    x->a0 = x->a1 = -1;
    return x;
}

void ri_set_array(ri_upper *u, unsigned k, const int64_t *v, int n)
{
    u->arrlen[k] = (uint8_t)(v ? n : 0);
    for (int i = 0; v && i < n; i++)
        u->arr[k][i] = v[i];
}

/* ---- one rank's calls of one file ---- */

typedef struct dcall {
    uint32_t d, session;
    uint8_t k; /* 0 read, 1 write */
    int64_t g; /* the record's call index */
    double a0, a1;
    double first; /* the start of its dataset's first call in the session */
} dcall;

static const ri_event *ev_at(const ri_upper_ctx *c, size_t i)
{
    return &c->b->p->ranks[c->rank].v[i];
}

static int by_start_idx(const void *x, const void *y, void *arg)
{
    const ri_event *v = arg;
    const ri_event *a = &v[*(const size_t *)x], *b = &v[*(const size_t *)y];
    if (a->tstart != b->tstart)
        return a->tstart < b->tstart ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

size_t ri_lower_sessions(ri_upper_ctx *c, const file_state *f, size_t **idx_out, ri_lower **out)
{
    const ri_events *e = &c->b->p->ranks[c->rank];
    uint32_t fi = (uint32_t)(f - c->b->files);
    size_t n = 0, *idx = malloc((e->n ? e->n : 1) * sizeof *idx);
    ri_lower *s = calloc(e->n ? e->n : 1, sizeof *s);
    if (!idx || !s) {
        free(idx);
        free(s);
        return (size_t)-1;
    }
    for (size_t i = 0; i < e->n; i++)
        if (e->v[i].file == fi && e->v[i].depth == 0 && e->v[i].call != RI_CALL_START &&
            e->v[i].call != RI_CALL_END && e->v[i].call != RI_CALL_UPPER)
            idx[n++] = i;
    qsort_r(idx, n, sizeof *idx, by_start_idx, e->v);
    int64_t wbits = (ri_amode_of(0, 1) | ri_amode_of(1, 1)) & ~ri_amode_of(1, 0);
    int64_t obits = ri_oflags_of(0, 1) | ri_oflags_of(1, 1);
    size_t ns = 0;
    ri_lower *cur = NULL;
    for (size_t i = 0; i < n; i++) {
        const ri_event *x = &e->v[idx[i]];
        if (x->call == RI_CALL_OPEN && !cur) {
            cur = &s[ns++];
            cur->open = idx[i];
            cur->mid = idx + i + 1;
            cur->t0 = x->tstart;
            cur->writes = x->layer == REC_LAYER_MPIIO ? (x->flags & wbits) != 0 : (x->flags & obits) != 0;
        } else if (cur && x->call == RI_CALL_CLOSE) {
            cur->close = idx[i];
            cur->t1 = x->tend;
            cur = NULL;
        } else if (cur) {
            cur->nmid++;
            cur->writes |= x->call == RI_CALL_WRITE;
        }
    }
    if (cur) /* an open never closed: not a session */
        ns--;
    *idx_out = idx;
    *out = s;
    return ns;
}

uint32_t ri_pick_session(const ri_lower *s, size_t nlow, size_t nsess, double t, const builder *b, int write)
{
    if (!nlow || t <= 0) {
        if (write || nsess == 0)
            return 0;
        return (uint32_t)(nsess - 1);
    }
    uint64_t at = ri_ticks(b, t), best = UINT64_MAX;
    uint32_t pick = 0;
    for (size_t i = 0; i < nlow && i < nsess; i++) {
        if (at >= s[i].t0 && at <= s[i].t1)
            return (uint32_t)i;
        uint64_t dist = at < s[i].t0 ? s[i].t0 - at : at - s[i].t1;
        if (dist < best)
            best = dist, pick = (uint32_t)i;
    }
    return pick;
}

static int cmp_dcall(const void *x, const void *y)
{
    const dcall *a = x, *b = y;
    if (a->session != b->session)
        return a->session < b->session ? -1 : 1;
    if (a->a0 != b->a0)
        return a->a0 < b->a0 ? -1 : 1;
    if (a->k != b->k)
        return a->k > b->k ? -1 : 1; /* writes first */
    return a->g < b->g ? -1 : a->g > b->g;
}

/* By session, the datasets in the order of their first call there, each one's calls in time order. */
static int cmp_grouped(const void *x, const void *y)
{
    const dcall *a = x, *b = y;
    if (a->session != b->session)
        return a->session < b->session ? -1 : 1;
    if (a->first != b->first)
        return a->first < b->first ? -1 : 1;
    if (a->d != b->d)
        return a->d < b->d ? -1 : 1;
    return cmp_dcall(x, y);
}

int64_t ri_new_hid(ri_upper_ctx *c)
{
    return c->next_hid[c->rank]++;
}

const char *ri_keep_name(ri_plan *p, const char *name)
{
    for (size_t i = p->nnames; i-- > 0;)
        if (strcmp(p->names[i], name) == 0)
            return p->names[i];
    if (ri_grow(&p->names, &p->names_cap, p->nnames, sizeof *p->names) != 0)
        return NULL;
    char *s = strdup(name);
    if (s)
        p->names[p->nnames++] = s;
    return s;
}

/* A dataset's handles made before its first open on the rank. */
static int prepare(ri_upper_ctx *c, ri_slots *s, ri_dset *d, const int64_t *cls)
{
    if (d->space)
        return 0;
    ri_slot *x = ri_add_slot(s, REC_SOLE_SIMPLE_SPACE, RI_K_NONE);
    if (!x)
        return -1;
    d->space = x->u.made = ri_new_hid(c);
    x->u.count = d->ndims;
    ri_set_array(&x->u, 0, d->dims, d->ndims);
    ri_set_array(&x->u, 1, NULL, 0);
    int64_t t = -1;
    for (size_t i = 0; i < rec_predefined_handle_count && t < 0; i++)
        if (rec_predefined_handles[i].kind == REC_KIND_H5_TYPE && rec_predefined_handles[i].size == d->tsize)
            t = rec_predefined_handles[i].id;
    if (t < 0) {
        if (!(x = ri_add_slot(s, REC_SOLE_H5_TYPE_OF_CLASS, RI_K_NONE)))
            return -1;
        t = x->u.made = ri_new_hid(c);
        x->u.flags = H5T_OPAQUE;
        x->u.bytes = d->tsize;
    }
    d->type = t;
    d->dcpl = cls[3]; /* H5P_DEFAULT */
    if (d->chunked) {
        if (!(x = ri_add_slot(s, REC_SOLE_PLIST_OF_CLASS, RI_K_NONE)))
            return -1;
        d->dcpl = x->u.made = ri_new_hid(c);
        x->u.cls = cls[1];
        if (!(x = ri_add_slot(s, REC_SOLE_SETS_CHUNK, RI_K_NONE)))
            return -1;
        x->u.subject = d->dcpl;
        x->u.count = d->ndims;
        ri_set_array(&x->u, 0, d->chunk, d->ndims);
    }
    return 0;
}

/* Opens (or creates) the dataset, makes the calls (from first, n of
 * them), closes it. */
static int dataset_session(ri_upper_ctx *c, ri_slots *s, ri_dset *d, const dcall *calls, size_t n, int file_created,
                           const int64_t *cls, int64_t dxpl)
{
    if (prepare(c, s, d, cls) != 0)
        return -1;
    int create = !d->created && file_created;
    ri_slot *x = ri_add_slot(s, create ? REC_SOLE_CREATES_DATASET : REC_SOLE_OPENS_DATASET, RI_K_NONE);
    if (!x)
        return -1;
    d->created = 1;
    int64_t h = x->u.made = ri_new_hid(c);
    x->u.subject = c->file_handle;
    if (!(x->u.name = ri_keep_name(c->b->p, d->name)))
        return ri_fail(c->b, "out of memory");
    x->u.type = d->type;
    x->u.spaces[0] = d->space;
    x->u.plists[0] = x->u.plists[1] = x->u.plists[2] = cls[3];
    if (create)
        x->u.plists[1] = d->dcpl;
    int64_t inner = 1;
    for (int i = 1; i < d->ndims; i++)
        inner *= d->inner[i];
    for (size_t i = 0; i < n; i++) {
        const dcall *q = &calls[i];
        int64_t rows = d->sizes[q->k][q->g] / (d->tsize * inner);
        if (rows < 1)
            rows = 1;
        int64_t start[RI_UPPER_DIMS] = {0}, count[RI_UPPER_DIMS];
        start[0] = d->start[q->k][q->g];
        count[0] = rows;
        for (int j = 1; j < d->ndims; j++)
            count[j] = d->inner[j];
        if (!(x = ri_add_slot(s, REC_SOLE_SELECTS_HYPERSLAB, RI_K_NONE)))
            return -1;
        x->u.subject = d->space;
        x->u.flags = H5S_SELECT_SET;
        ri_set_array(&x->u, 0, start, d->ndims);
        ri_set_array(&x->u, 1, NULL, 0);
        ri_set_array(&x->u, 2, count, d->ndims);
        ri_set_array(&x->u, 3, NULL, 0);
        if (d->memrows != rows) {
            if (!(x = ri_add_slot(s, REC_SOLE_SIMPLE_SPACE, RI_K_NONE)))
                return -1;
            d->mem = x->u.made = ri_new_hid(c);
            d->memrows = rows;
            x->u.count = d->ndims;
            ri_set_array(&x->u, 0, count, d->ndims);
            ri_set_array(&x->u, 1, NULL, 0);
        }
        if (!(x = ri_add_slot(s, q->k ? REC_SOLE_WRITES_DATASET : REC_SOLE_READS_DATASET,
                           q->k ? RI_K_WRITE : RI_K_READ)))
            return -1;
        x->u.subject = h;
        x->u.type = d->type;
        x->u.spaces[0] = d->mem;
        x->u.spaces[1] = d->space;
        x->u.plists[0] = d->coll ? dxpl : cls[3];
        x->u.bytes = rows * inner * d->tsize;
        x->a0 = q->a0;
        x->a1 = q->a1;
    }
    if (!(x = ri_add_slot(s, REC_SOLE_CLOSES_DATASET, RI_K_NONE)))
        return -1;
    x->u.subject = h;
    return 0;
}

/* The slot a lower call starting at t goes in: the data call of the window
 * it started in (taken in time order from *k, the next data call's window
 * once the current one holds a call or has passed), the open's before every
 * window (or the session's first call), the close's after (or its last). */
static size_t slot_of(const builder *b, const ri_slots *s, size_t *k, uint64_t t, int first_call, int last_call,
                      uint64_t first, uint64_t last, size_t fopen_i, size_t fclose_i)
{
    if (first_call || t < first || *k >= s->n)
        return last_call ? fclose_i : fopen_i;
    if (last_call || t > last)
        return fclose_i;
    for (;;) {
        size_t n = *k + 1;
        while (n < s->n && s->v[n].kind != RI_K_READ && s->v[n].kind != RI_K_WRITE)
            n++;
        if (n >= s->n || ri_ticks(b, s->v[n].a0) > t || (s->v[*k].nkids == 0 && ri_ticks(b, s->v[*k].a1) >= t))
            break;
        *k = n;
    }
    return *k;
}

int ri_emit_session(ri_upper_ctx *c, const file_state *f, ri_slots *s, const ri_lower *low, size_t nlow,
                    uint64_t *prev, unsigned layer)
{
    builder *b = c->b;
    size_t fopen_i = 0, fclose_i = s->n - 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].kind == RI_K_FOPEN)
            fopen_i = i;
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].kind == RI_K_READ || s->v[i].kind == RI_K_WRITE) {
            uint64_t a0 = ri_ticks(b, s->v[i].a0), a1 = ri_ticks(b, s->v[i].a1);
            first = a0 < first ? a0 : first;
            last = a1 > last ? a1 : last;
        }
    size_t k = 0;
    while (k < s->n && s->v[k].kind != RI_K_READ && s->v[k].kind != RI_K_WRITE)
        k++;
    uint32_t fi = (uint32_t)(f - b->files);
    ri_events *ev = &b->p->ranks[c->rank];
    for (size_t l = 0; l < nlow; l++) {
        for (size_t m = 0; m <= low[l].nmid + 1; m++) {
            size_t ei = m == 0 ? low[l].open : m == low[l].nmid + 1 ? low[l].close : low[l].mid[m - 1];
            const ri_event *e = ev_at(c, ei);
            ri_slot *x = &s->v[slot_of(b, s, &k, e->tstart, l == 0 && m == 0, l == nlow - 1 && m == low[l].nmid + 1,
                                       first, last, fopen_i, fclose_i)];
            x->cs = x->nkids && x->cs < e->tstart ? x->cs : e->tstart;
            x->ce = x->nkids && x->ce > e->tend ? x->ce : e->tend;
            x->nkids++;
        }
        /* everything of the file in the lower session one deeper */
        uint64_t lo = ev_at(c, low[l].open)->tstart, hi = ev_at(c, low[l].close)->tend;
        for (size_t i = 0; i < ev->n; i++)
            if (ev->v[i].file == fi && ev->v[i].call != RI_CALL_UPPER && ev->v[i].tstart >= lo &&
                ev->v[i].tend <= hi) {
                ev->v[i].depth++;
                b->p->upper_nested += ev->v[i].depth == 1;
            }
        if (l == 0 && *prev < lo)
            *prev = lo;
    }
    for (size_t i = 0; i < s->n; i++) {
        ri_slot *x = &s->v[i];
        ri_event *e = ri_add_event(b, c->rank, f, RI_CALL_UPPER, (int)layer);
        if (!e)
            return -1;
        if (ri_grow(&b->p->upper, &b->p->upper_cap, b->p->nupper, sizeof *b->p->upper) != 0)
            return ri_fail(b, "out of memory");
        b->p->upper[b->p->nupper] = x->u;
        e->aux = (uint32_t)b->p->nupper++;
        e->sole = x->sole;
        e->inferred = 1;
        if (x->nkids) {
            e->tstart = x->cs > *prev ? x->cs : *prev;
            e->tend = x->ce > e->tstart ? x->ce : e->tstart;
        } else
            e->tstart = e->tend = *prev;
        *prev = e->tend;
        if (layer == REC_LAYER_HDF5)
            b->p->upper_calls++;
        else
            b->p->pnetcdf_calls++;
    }
    return 0;
}

typedef struct h5file {
    const ri_darshan_record *rec;    /* the rank's H5F record, own or rank -1 */
    const ri_darshan_record **dsets; /* the file's H5D records (every rank's) */
    size_t ndsets;
} h5file;

static int place_rank(ri_upper_ctx *c, file_state *f, const h5file *h, const int64_t *cls)
{
    builder *b = c->b;
    uint32_t nranks = b->p->nranks;
    uint32_t sn = h->rec->rank < 0 ? nranks : 1, sr = h->rec->rank < 0 ? c->rank : 0;
    int64_t opens = ri_share(ri_counter(h->rec, H5F_OPENS_) > 0 ? ri_counter(h->rec, H5F_OPENS_) : 0, sn, sr);
    if (opens <= 0)
        return 0;
    if (opens > (int64_t)RI_MAX_STAT_CALLS)
        return ri_fail(b, "an H5F record counts more than 4194304 opens: recorder-import makes no trace that "
                          "large yet");
    int mpiio = ri_counter(h->rec, H5F_USE_MPIIO_) > 0;
    size_t *idx = NULL;
    ri_lower *low = NULL;
    size_t nlow = ri_lower_sessions(c, f, &idx, &low);
    if (nlow == (size_t)-1)
        return ri_fail(b, "out of memory");
    int rc = -1;
    size_t nd = 0, ncalls = 0, cap = 0;
    ri_dset *ds = calloc(h->ndsets ? h->ndsets : 1, sizeof *ds);
    dcall *calls = NULL;
    int64_t *extra = NULL, *stamp = NULL;
    double *first = NULL;
    ri_slots s = {0};
    if (!ds)
        goto out;
    for (size_t i = 0; i < h->ndsets; i++) { /* the rank's records: its own, else the rank -1 one */
        const ri_darshan_record *r = h->dsets[i];
        if (r->rank >= 0 && r->rank != (int64_t)c->rank)
            continue;
        int own_exists = 0;
        for (size_t j = 0; j < h->ndsets; j++)
            own_exists |= h->dsets[j]->id == r->id && h->dsets[j]->rank == (int64_t)c->rank;
        if (r->rank < 0 && own_exists)
            continue;
        if (ri_upper_dataset(c->b, c->rank, r, nranks, &ds[nd]) != 0)
            goto out;
        nd++;
    }
    int created = nlow ? low[0].writes : 0;
    for (size_t i = 0; i < nd; i++) {
        ri_dset *d = &ds[i];
        for (int k = 0; k < 2; k++) {
            int64_t mine = ri_share(d->n[k], d->share_n, d->share_r);
            if (k == 1 && mine > 0 && !nlow)
                created = 1;
            for (int64_t j = 0; j < mine; j++) {
                if (ri_grow(&calls, &cap, ncalls, sizeof *calls) != 0)
                    goto oom;
                double w0 = d->win[k][0], w1 = d->win[k][1] > w0 ? d->win[k][1] : w0;
                dcall *q = &calls[ncalls++];
                q->d = (uint32_t)i;
                q->k = (uint8_t)k;
                q->g = j * d->share_n + d->share_r;
                q->a0 = w0 + (w1 - w0) * (double)j / (double)mine;
                q->a1 = w0 + (w1 - w0) * (double)(j + 1) / (double)mine;
                q->session = ri_pick_session(low, nlow, (size_t)opens, (q->a0 + q->a1) / 2, b, k);
            }
        }
    }
    if (ncalls > 1)
        qsort(calls, ncalls, sizeof *calls, cmp_dcall);
    /* each dataset's opens: one in each session it has calls in (its calls together there, at its
     * first call's place), the rest in turn over the sessions */
    extra = calloc(nd ? nd : 1, sizeof *extra);
    stamp = calloc(nd ? nd : 1, sizeof *stamp);
    first = calloc(nd ? nd : 1, sizeof *first);
    if (!extra || !stamp || !first)
        goto oom;
    for (size_t q = 0; q < ncalls; q++) {
        uint32_t di = calls[q].d;
        if (stamp[di] != (int64_t)calls[q].session + 1) {
            stamp[di] = (int64_t)calls[q].session + 1;
            first[di] = calls[q].a0;
            extra[di]++; /* the sessions it has calls in, first */
        }
        calls[q].first = first[di];
    }
    if (ncalls > 1)
        qsort(calls, ncalls, sizeof *calls, cmp_grouped);
    for (size_t i = 0; i < nd; i++)
        extra[i] = ds[i].opens > extra[i] ? ds[i].opens - extra[i] : 0;
    int64_t fapl = cls[3], dxpl = cls[3];
    uint64_t prev = 0;
    size_t qs = 0; /* the session's first call */
    int any_coll = 0;
    for (size_t i = 0; i < nd; i++)
        any_coll |= ds[i].coll;
    for (int64_t sess = 0; sess < opens; sess++) {
        s.n = 0;
        ri_slot *x;
        if (sess == 0 && mpiio) {
            if (!(x = ri_add_slot(&s, REC_SOLE_PLIST_OF_CLASS, RI_K_NONE)))
                goto oom;
            fapl = x->u.made = ri_new_hid(c);
            x->u.cls = cls[0];
            if (!(x = ri_add_slot(&s, REC_SOLE_SETS_FAPL_MPIO, RI_K_NONE)))
                goto oom;
            x->u.subject = fapl;
            const ri_event *o = nlow ? ev_at(c, low[0].open) : NULL;
            x->u.comm =
                (o && o->layer == REC_LAYER_MPIIO ? o->collective : h->rec->rank < 0) ? cls[4] : cls[5];
        }
        if (sess == 0 && any_coll && mpiio) {
            if (!(x = ri_add_slot(&s, REC_SOLE_PLIST_OF_CLASS, RI_K_NONE)))
                goto oom;
            dxpl = x->u.made = ri_new_hid(c);
            x->u.cls = cls[2];
            if (!(x = ri_add_slot(&s, REC_SOLE_SETS_DXPL_MPIO, RI_K_NONE)))
                goto oom;
            x->u.subject = dxpl;
            x->u.flags = H5FD_MPIO_COLLECTIVE;
        }
        int create = sess == 0 && created;
        int writes = (size_t)sess < nlow && low[sess].writes;
        size_t qe = qs;
        while (qe < ncalls && calls[qe].session == (uint32_t)sess)
            writes |= calls[qe++].k;
        if (!(x = ri_add_slot(&s, create ? REC_SOLE_CREATES_H5_FILE : REC_SOLE_OPENS_H5_FILE, RI_K_FOPEN)))
            goto oom;
        c->file_handle = x->u.made = ri_new_hid(c);
        x->u.flags = create ? H5F_ACC_TRUNC : writes ? H5F_ACC_RDWR : H5F_ACC_RDONLY;
        size_t fopen_at = s.n - 1;
        x->u.plists[0] = create ? cls[3] : fapl;
        x->u.plists[1] = fapl;
        /* the datasets in the order of their first call in the session, then those only opened */
        char *done = calloc(nd ? nd : 1, 1);
        if (!done)
            goto oom;
        for (size_t q = qs; q < qe;) { /* a dataset's calls of the session lie together */
            uint32_t di = calls[q].d;
            size_t n = 0;
            while (q + n < qe && calls[q + n].d == di)
                n++;
            done[di] = 1;
            if (dataset_session(c, &s, &ds[di], calls + q, n, create || created, cls, dxpl) != 0) {
                free(done);
                goto oom;
            }
            q += n;
        }
        qs = qe;
        for (size_t i = 0; i < nd; i++)
            if (extra[i] > 0 && (extra[i] > opens - 1 - sess || !done[i])) {
                if (dataset_session(c, &s, &ds[i], NULL, 0, created, cls, dxpl) != 0) {
                    free(done);
                    goto oom;
                }
                extra[i]--;
            }
        free(done);
        for (size_t i = fopen_at + 1; i < s.n && !create; i++) /* a dataset made: not read-only */
            if (s.v[i].sole == REC_SOLE_CREATES_DATASET)
                s.v[fopen_at].u.flags = H5F_ACC_RDWR;
        if (!(x = ri_add_slot(&s, REC_SOLE_CLOSES_H5_FILE, RI_K_FCLOSE)))
            goto oom;
        x->u.subject = c->file_handle;
        if (ri_emit_session(c, f, &s, (size_t)sess < nlow ? &low[sess] : NULL, (size_t)sess < nlow, &prev,
                            REC_LAYER_HDF5) != 0)
            goto out;
    }
    b->p->upper_files += c->rank == 0 || h->rec->rank >= 0;
    rc = 0;
    goto out;
oom:
    ri_fail(b, "out of memory");
out:
    for (size_t i = 0; i < nd; i++)
        ri_upper_dataset_free(&ds[i]);
    free(ds);
    free(calls);
    free(s.v);
    free(idx);
    free(low);
    free(extra);
    free(stamp);
    free(first);
    return rc;
}

/* ---- every H5F file ---- */

int ri_require_soles(builder *b, const unsigned *soles, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!rec_function_with_sole(soles[i])) {
            char m[160];
            snprintf(m, sizeof m, "the function table has no function of the sole role %s", rec_sole_name(soles[i]));
            return ri_fail(b, m);
        }
    return 0;
}

int ri_upper_each_file(builder *b, unsigned file_module, unsigned member_module, ri_upper_place_fn place,
                       void *arg)
{
    const ri_darshan_log *log = b->log;
    const ri_darshan_module *mf = &log->modules[file_module], *md = &log->modules[member_module];
    records fh = {0};
    const ri_darshan_record **dr = malloc((md->nrecords ? md->nrecords : 1) * sizeof *dr);
    int64_t *next_hid = malloc(b->p->nranks * sizeof *next_hid);
    int rc = -1;
    if (ri_index_records(mf, &fh) != 0 || !dr || !next_hid) {
        ri_fail(b, "out of memory");
        goto out;
    }
    const ri_darshan_record **fr = fh.v;
    for (uint32_t r = 0; r < b->p->nranks; r++)
        next_hid[r] = REC_HANDLE_DYNAMIC_BASE;
    ri_upper_ctx c = {.b = b, .next_hid = next_hid};
    for (size_t i = 0; i < mf->nrecords; i++) {
        if (i && fr[i - 1]->id == fr[i]->id)
            continue;
        file_state *f = ri_find_file(b, fr[i]->id);
        if (!f) /* Darshan saw no POSIX or MPI-IO call of it */
            continue;
        const char *path = ri_darshan_name_of(log, fr[i]->id);
        size_t plen = path ? strlen(path) : 0, nd = 0;
        for (size_t j = 0; j < md->nrecords; j++) {
            const ri_darshan_record *x = &md->records[j];
            int mine = x->file_id == fr[i]->id;
            if (!mine && x->file_id == 0 && path) { /* H5D 1: by the name */
                const char *name = ri_darshan_name_of(log, x->id);
                mine = name && strncmp(name, path, plen) == 0 && name[plen] == ':';
            }
            if (mine)
                dr[nd++] = x;
        }
        qsort(dr, nd, sizeof *dr, ri_by_id_rank);
        for (uint32_t r = 0; r < b->p->nranks; r++) {
            const ri_darshan_record *own = NULL, *all = NULL;
            for (size_t j = i; j < mf->nrecords && fr[j]->id == fr[i]->id; j++) {
                if (fr[j]->rank == (int64_t)r)
                    own = fr[j];
                if (fr[j]->rank < 0)
                    all = fr[j];
            }
            if (!own && !all)
                continue;
            c.rank = r;
            if (place(&c, f, own ? own : all, dr, nd, arg) != 0)
                goto out;
        }
    }
    rc = 0;
out:
    free(fh.v);
    free(dr);
    free(next_hid);
    return rc;
}

static int place_h5file(ri_upper_ctx *c, file_state *f, const ri_darshan_record *rec,
                        const ri_darshan_record **members, size_t n, void *cls)
{
    h5file h = {rec, members, n};
    return place_rank(c, f, &h, cls);
}

int ri_plan_upper(builder *b)
{
    const ri_darshan_log *log = b->log;
    if (!log->modules[RI_DARSHAN_H5F].nrecords || !b->p->nranks)
        return 0;
    int isf;
    H5F_OPENS_ = ri_darshan_counter_index(RI_DARSHAN_H5F, "H5F_OPENS", &isf);
    H5F_USE_MPIIO_ = ri_darshan_counter_index(RI_DARSHAN_H5F, "H5F_USE_MPIIO", &isf);
    int64_t cls[6] = {ri_predefined(REC_KIND_H5_PLIST_CLASS, "H5P_FILE_ACCESS"),
                      ri_predefined(REC_KIND_H5_PLIST_CLASS, "H5P_DATASET_CREATE"),
                      ri_predefined(REC_KIND_H5_PLIST_CLASS, "H5P_DATASET_XFER"),
                      ri_predefined(REC_KIND_H5_PLIST, "H5P_DEFAULT"),
                      ri_predefined(REC_KIND_MPI_COMM, "MPI_COMM_WORLD"),
                      ri_predefined(REC_KIND_MPI_COMM, "MPI_COMM_SELF")};
    for (int i = 0; i < 6; i++)
        if (cls[i] < 0)
            return ri_fail(b, "the function table names no H5P_FILE_ACCESS, H5P_DATASET_CREATE, "
                              "H5P_DATASET_XFER, H5P_DEFAULT, MPI_COMM_WORLD or MPI_COMM_SELF");
    static const unsigned soles[] = {
        REC_SOLE_PLIST_OF_CLASS,   REC_SOLE_SETS_FAPL_MPIO,  REC_SOLE_SETS_DXPL_MPIO,
        REC_SOLE_SETS_CHUNK,       REC_SOLE_SIMPLE_SPACE,    REC_SOLE_SELECTS_HYPERSLAB,
        REC_SOLE_H5_TYPE_OF_CLASS, REC_SOLE_CREATES_H5_FILE, REC_SOLE_OPENS_H5_FILE,
        REC_SOLE_CLOSES_H5_FILE,   REC_SOLE_CREATES_DATASET, REC_SOLE_OPENS_DATASET,
        REC_SOLE_CLOSES_DATASET,   REC_SOLE_WRITES_DATASET,  REC_SOLE_READS_DATASET};
    if (ri_require_soles(b, soles, sizeof soles / sizeof soles[0]) != 0)
        return -1;
    return ri_upper_each_file(b, RI_DARSHAN_H5F, RI_DARSHAN_H5D, place_h5file, cls);
}
