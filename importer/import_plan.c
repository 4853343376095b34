/* import_plan.c: each rank's calls in a trace of a Darshan log with DXT.
 *
 * DXT kept every read and write (offset, length, start and end) of each
 * file a rank touched, per layer; the counters say how many times each
 * file was opened, by which ranks, and whether its MPI-IO accesses were
 * collective. The plan takes the DXT accesses as they are and infers the
 * rest, marking it so:
 *   - a file's scope: a file with MPI-IO records is opened with MPI-IO,
 *     over MPI_COMM_WORLD when Darshan reduced its records to rank -1 (or
 *     every rank has one), else over MPI_COMM_SELF by each rank that has
 *     one; its POSIX accesses are the MPI-IO calls' own (depth 1), and the
 *     ranks with POSIX records open it with POSIX inside MPI_File_open. A
 *     file with POSIX records alone is opened with open(2).
 *   - sessions: the opens a rank made of the file (its counters, or the
 *     rank -1 record's over the ranks) split its accesses, every rank's
 *     together for a shared file, at the longest pauses; opens the accesses
 *     cannot place come after the last session.
 *   - each session's open ends when its first access starts, its close
 *     starts when its last one ends (every rank's, for a rank that made
 *     none); the first open starts at the counters' first open time when
 *     that fits, the last close ends at their last close time.
 *   - an open's flags (MPI amode) are what its session did: reads alone
 *     read-only, writes write-only and created, both read-write; one open
 *     with an MPI-IO record takes the record's mode.
 *   - as many MPI-IO reads and writes are collective as the record counts,
 *     matched across the ranks of the file's communicator
 *     (import_collective.c).
 *   - MPI_Init and MPI_Finalize at the job's start and end, when the job
 *     was an MPI one (more than one process, or MPI-IO records).
 * Darshan's own pseudo files (<STDOUT>, ...) are left out. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_build.h"
#include "import_stat.h"
#include "import_view.h"

int ri_fail(builder *b, const char *what)
{
    if (b->err)
        snprintf(b->err->msg, sizeof b->err->msg, "%s: %s", b->log->path, what);
    return -1;
}

uint64_t ri_ticks(const builder *b, double seconds)
{
    if (!(seconds > 0))
        return 0;
    double t = seconds / b->res;
    return t >= 4e18 ? (uint64_t)4e18 : (uint64_t)llround(t);
}

/* ---- the log's records, found by id and rank ---- */

int ri_by_id_rank(const void *x, const void *y)
{
    const ri_darshan_record *a = *(const ri_darshan_record *const *)x,
                            *b = *(const ri_darshan_record *const *)y;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->rank < b->rank ? -1 : a->rank > b->rank;
}

int ri_index_records(const ri_darshan_module *m, records *out)
{
    out->n = m->nrecords;
    out->v = malloc((m->nrecords ? m->nrecords : 1) * sizeof *out->v);
    if (!out->v)
        return -1;
    for (size_t i = 0; i < m->nrecords; i++)
        out->v[i] = &m->records[i];
    qsort(out->v, out->n, sizeof *out->v, ri_by_id_rank);
    return 0;
}

const ri_darshan_record *ri_find_record(const records *r, uint64_t id, int64_t rank)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const ri_darshan_record *x = r->v[mid];
        if (x->id == id && x->rank == rank)
            return x;
        if (x->id < id || (x->id == id && x->rank < rank))
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Records of the file of any rank of its own (not -1). */
size_t ri_own_records(const records *r, uint64_t id, const ri_darshan_record ***first)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->v[mid]->id < id || (r->v[mid]->id == id && r->v[mid]->rank < 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t n = 0;
    while (lo + n < r->n && r->v[lo + n]->id == id)
        n++;
    *first = r->v + lo;
    return n;
}

int64_t ri_counter(const ri_darshan_record *r, int index)
{
    return r && index >= 0 ? r->counters[index] : -1;
}

double ri_fcounter(const ri_darshan_record *r, int index)
{
    return r && index >= 0 ? r->fcounters[index] : -1;
}

static void find_counters(counters *c)
{
    int f;
#define POSIX_(field, name) c->field = ri_darshan_counter_index(RI_DARSHAN_POSIX, name, &f)
#define MPIIO_(field, name) c->field = ri_darshan_counter_index(RI_DARSHAN_MPIIO, name, &f)
    POSIX_(opens, "POSIX_OPENS");
    POSIX_(filenos, "POSIX_FILENOS");
    POSIX_(dups, "POSIX_DUPS");
    POSIX_(mode, "POSIX_MODE");
    POSIX_(open_start, "POSIX_F_OPEN_START_TIMESTAMP");
    POSIX_(close_end, "POSIX_F_CLOSE_END_TIMESTAMP");
    POSIX_(seeks, "POSIX_SEEKS");
    POSIX_(fsyncs, "POSIX_FSYNCS");
    POSIX_(fdsyncs, "POSIX_FDSYNCS");
    MPIIO_(indep_opens, "MPIIO_INDEP_OPENS");
    MPIIO_(coll_opens, "MPIIO_COLL_OPENS");
    MPIIO_(mpi_mode, "MPIIO_MODE");
    MPIIO_(mpi_open_start, "MPIIO_F_OPEN_START_TIMESTAMP");
    MPIIO_(mpi_close_end, "MPIIO_F_CLOSE_END_TIMESTAMP");
    MPIIO_(mpi_syncs, "MPIIO_SYNCS");
    MPIIO_(indep_reads, "MPIIO_INDEP_READS");
    MPIIO_(indep_writes, "MPIIO_INDEP_WRITES");
    MPIIO_(coll_reads, "MPIIO_COLL_READS");
    MPIIO_(coll_writes, "MPIIO_COLL_WRITES");
    MPIIO_(split_reads, "MPIIO_SPLIT_READS");
    MPIIO_(split_writes, "MPIIO_SPLIT_WRITES");
    MPIIO_(nb_reads, "MPIIO_NB_READS");
    MPIIO_(nb_writes, "MPIIO_NB_WRITES");
#undef POSIX_
#undef MPIIO_
}

/* ---- files and their accesses ---- */

static int by_id(const void *x, const void *y)
{
    uint64_t a = ((const file_state *)x)->id, b = ((const file_state *)y)->id;
    return a < b ? -1 : a > b;
}

file_state *ri_find_file(builder *b, uint64_t id)
{
    file_state key = {.id = id};
    return bsearch(&key, b->files, b->nfiles, sizeof key, by_id);
}

static int collect_files(builder *b)
{
    static const unsigned mods[] = {RI_DARSHAN_POSIX, RI_DARSHAN_MPIIO, RI_DARSHAN_STDIO,
                                    RI_DARSHAN_DXT_POSIX, RI_DARSHAN_DXT_MPIIO};
    enum { NMODS = sizeof mods / sizeof mods[0] };
    size_t cap = 0;
    for (size_t i = 0; i < NMODS; i++)
        cap += b->log->modules[mods[i]].nrecords;
    b->files = calloc(cap ? cap : 1, sizeof *b->files);
    if (!b->files)
        return ri_fail(b, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < NMODS; i++) {
        const ri_darshan_module *m = &b->log->modules[mods[i]];
        for (size_t r = 0; r < m->nrecords; r++)
            b->files[n++].id = m->records ? m->records[r].id : m->dxt[r].id;
    }
    qsort(b->files, n, sizeof *b->files, by_id);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (kept && b->files[kept - 1].id == b->files[i].id)
            continue;
        const char *path = ri_darshan_name_of(b->log, b->files[i].id);
        if (!path || !path[0] || path[0] == '<') { /* unnamed, or Darshan's <STDOUT>, <STDIN>, ... */
            b->p->skipped_files++;
            continue;
        }
        b->files[kept].id = b->files[i].id;
        b->files[kept].path = path;
        kept++;
    }
    b->nfiles = kept;
    for (size_t r = 0; r < b->mpiio.n; r++) {
        file_state *f = ri_find_file(b, b->mpiio.v[r]->id);
        if (f)
            f->has_mpiio = 1;
    }
    return 0;
}

static int add_access(builder *b, file_state *f, const ri_darshan_dxt *d, const ri_darshan_segment *s,
                      int layer, int write)
{
    if (f->nacc == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        ri_access *v = realloc(f->acc, cap * sizeof *v);
        if (!v)
            return ri_fail(b, "out of memory");
        f->acc = v;
        f->cap = cap;
    }
    uint64_t t0 = ri_ticks(b, s->start), t1 = ri_ticks(b, s->end);
    f->acc[f->nacc++] = (ri_access){
        (uint32_t)d->rank, (uint8_t)layer, (uint8_t)write, s->offset, s->length > 0 ? s->length : 0, t0,
        t1 < t0 ? t0 : t1, 0};
    return 0;
}

static int by_rank_start(const void *x, const void *y)
{
    const ri_access *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->tstart != b->tstart)
        return a->tstart < b->tstart ? -1 : 1;
    return a->layer > b->layer ? -1 : a->layer < b->layer; /* MPI-IO before the POSIX it made */
}

static int collect_accesses(builder *b)
{
    static const unsigned mods[] = {RI_DARSHAN_DXT_POSIX, RI_DARSHAN_DXT_MPIIO};
    for (size_t i = 0; i < 2; i++) {
        const ri_darshan_module *m = &b->log->modules[mods[i]];
        int layer = mods[i] == RI_DARSHAN_DXT_MPIIO ? REC_LAYER_MPIIO : REC_LAYER_POSIX;
        for (size_t r = 0; r < m->nrecords; r++) {
            const ri_darshan_dxt *d = &m->dxt[r];
            file_state *f = ri_find_file(b, d->id);
            if (!f)
                continue;
            if (layer == REC_LAYER_MPIIO)
                f->has_mpiio = 1;
            for (uint64_t s = 0; s < d->nwrites; s++)
                if (add_access(b, f, d, &d->writes[s], layer, 1) != 0)
                    return -1;
            for (uint64_t s = 0; s < d->nreads; s++)
                if (add_access(b, f, d, &d->reads[s], layer, 0) != 0)
                    return -1;
            *(layer == REC_LAYER_MPIIO ? &b->p->mpiio_segments : &b->p->posix_segments) +=
                d->nwrites + d->nreads;
        }
    }
    for (size_t i = 0; i < b->nfiles; i++)
        if (b->files[i].nacc > 1)
            qsort(b->files[i].acc, b->files[i].nacc, sizeof(ri_access), by_rank_start);
    return 0;
}

/* ---- events ---- */

ri_event *ri_add_event(builder *b, uint32_t rank, const file_state *f, ri_call call, int layer)
{
    if (b->seq >= RI_MAX_CALLS) { /* a trace's calls, each ri_event's 72 bytes in memory first */
        ri_fail(b, "more than 16777216 calls to place: recorder-import makes no trace that large yet");
        return NULL;
    }
    ri_events *e = &b->p->ranks[rank];
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 64;
        ri_event *v = realloc(e->v, cap * sizeof *v);
        if (!v) {
            ri_fail(b, "out of memory");
            return NULL;
        }
        e->v = v;
        e->cap = cap;
    }
    ri_event *ev = &e->v[e->n++];
    memset(ev, 0, sizeof *ev);
    ev->seq = b->seq++;
    ev->file = f ? (uint32_t)(f - b->files) : 0;
    ev->call = (uint8_t)call;
    ev->layer = (uint8_t)layer;
    return ev;
}

static int by_end(const void *x, const void *y)
{
    const ri_event *a = x, *b = y;
    if (a->tend != b->tend)
        return a->tend < b->tend ? -1 : 1;
    if (a->depth != b->depth) { /* an inner call ends first, but one made to be inside another call */
        const ri_event *in = a->depth > b->depth ? a : b, *out = in == a ? b : a;
        int inside = !in->parent || in->depth != out->depth + 1 || in->parent == out->seq + 1;
        return (in == a) == inside ? -1 : 1;
    }
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* MPI_Init before everything, MPI_Finalize after, on every rank. */
static int add_run_bounds(builder *b)
{
    uint64_t first = UINT64_MAX, last = 0;
    for (uint32_t r = 0; r < b->p->nranks; r++)
        for (size_t i = 0; i < b->p->ranks[r].n; i++) {
            const ri_event *e = &b->p->ranks[r].v[i];
            first = e->tstart < first ? e->tstart : first;
            last = e->tend > last ? e->tend : last;
        }
    if (first == UINT64_MAX)
        first = 0;
    double run = ((double)b->log->end_sec - (double)b->log->start_sec) + /* a corrupt job record's */
                 1e-9 * ((double)b->log->end_nsec - (double)b->log->start_nsec); /* times may not subtract */
    uint64_t end = ri_ticks(b, run);
    for (uint32_t r = 0; r < b->p->nranks; r++) {
        ri_event *s = ri_add_event(b, r, NULL, RI_CALL_START, REC_LAYER_MPI);
        if (!s)
            return -1;
        s->tstart = 0;
        s->tend = first > 0 ? first - 1 : 0;
        s->inferred = 1;
        ri_event *e = ri_add_event(b, r, NULL, RI_CALL_END, REC_LAYER_MPI);
        if (!e)
            return -1;
        e->tstart = last + 1;
        e->tend = end > last + 1 ? end : last + 1;
        e->inferred = 1;
    }
    return 0;
}

/* Whether a record of the file counts reads or writes. */
static int counts_data(const records *r, unsigned module, uint64_t id)
{
    const ri_darshan_record **own, *all = ri_find_record(r, id, -1);
    size_t n = ri_own_records(r, id, &own);
    for (size_t i = 0; i <= n; i++) {
        const ri_darshan_record *x = i < n ? own[i] : all;
        if (!x)
            continue;
        ri_view v;
        ri_view_of(x, module, &v);
        if (v.n[0] > 0 || v.n[1] > 0)
            return 1;
    }
    return 0;
}

/* A file's calls come from its counters alone when DXT kept none of its
 * accesses and the log has no DXT, or its counters count reads or writes
 * DXT did not keep (stdio's, which DXT never traces, among them). */
static int from_counters(const builder *b, const file_state *f)
{
    if (f->nacc)
        return 0;
    return b->stat_only || counts_data(&b->posix, RI_DARSHAN_POSIX, f->id) ||
           counts_data(&b->mpiio, RI_DARSHAN_MPIIO, f->id) || counts_data(&b->stdio, RI_DARSHAN_STDIO, f->id);
}

int ri_plan_build(const ri_darshan_log *log, double resolution, ri_plan *p, rec_error *err)
{
    memset(p, 0, sizeof *p);
    builder b = {.log = log, .res = resolution, .p = p, .err = err};
    b.stat_only =
        log->modules[RI_DARSHAN_DXT_POSIX].nrecords == 0 && log->modules[RI_DARSHAN_DXT_MPIIO].nrecords == 0;
    p->nranks = (uint32_t)log->nprocs;
    p->ranks = calloc(p->nranks ? p->nranks : 1, sizeof *p->ranks);
    b.next_fd = calloc(p->nranks ? p->nranks : 1, sizeof *b.next_fd);
    b.next_mpifile = calloc(p->nranks ? p->nranks : 1, sizeof *b.next_mpifile);
    b.next_stream = calloc(p->nranks ? p->nranks : 1, sizeof *b.next_stream);
    int rc = -1;
    if (!p->ranks || !b.next_fd || !b.next_mpifile || !b.next_stream ||
        ri_index_records(&log->modules[RI_DARSHAN_POSIX], &b.posix) != 0 ||
        ri_index_records(&log->modules[RI_DARSHAN_MPIIO], &b.mpiio) != 0 ||
        ri_index_records(&log->modules[RI_DARSHAN_STDIO], &b.stdio) != 0) {
        ri_fail(&b, "out of memory");
        goto done;
    }
    for (uint32_t r = 0; r < p->nranks; r++)
        b.next_fd[r] = b.next_mpifile[r] = b.next_stream[r] = REC_HANDLE_DYNAMIC_BASE;
    find_counters(&b.c);
    if (collect_files(&b) != 0 || collect_accesses(&b) != 0)
        goto done;
    for (size_t i = 0; i < b.nfiles; i++)
        if ((from_counters(&b, &b.files[i]) ? ri_plan_stat_file(&b, &b.files[i])
                                            : ri_plan_file(&b, &b.files[i])) != 0)
            goto done;
    if (ri_plan_upper(&b) != 0 || ri_plan_upper_pnc(&b) != 0)
        goto done;
    int mpi = log->nprocs > 1 || log->modules[RI_DARSHAN_MPIIO].nrecords > 0 ||
              log->modules[RI_DARSHAN_DXT_MPIIO].nrecords > 0;
    if (mpi && add_run_bounds(&b) != 0)
        goto done;
    for (uint32_t r = 0; r < p->nranks; r++) {
        if (p->ranks[r].n > 1)
            qsort(p->ranks[r].v, p->ranks[r].n, sizeof(ri_event), by_end);
        for (size_t i = 0; i < p->ranks[r].n; i++)
            p->inferred += p->ranks[r].v[i].inferred;
    }
    if (ri_upper_pnc_renumber(p) != 0) {
        ri_fail(&b, "out of memory");
        goto done;
    }
    p->nfiles = b.nfiles;
    p->paths = calloc(b.nfiles ? b.nfiles : 1, sizeof *p->paths);
    if (!p->paths) {
        ri_fail(&b, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < b.nfiles; i++)
        p->paths[i] = b.files[i].path;
    rc = 0;
done:
    for (size_t i = 0; i < b.nfiles; i++)
        free(b.files[i].acc);
    free(b.files);
    free(b.posix.v);
    free(b.mpiio.v);
    free(b.stdio.v);
    free(b.next_fd);
    free(b.next_mpifile);
    free(b.next_stream);
    free(b.scratch);
    if (rc != 0)
        ri_plan_free(p);
    return rc;
}

void ri_plan_free(ri_plan *p)
{
    for (uint32_t r = 0; p->ranks && r < p->nranks; r++)
        free(p->ranks[r].v);
    free(p->ranks);
    free(p->paths);
    free(p->upper);
    for (size_t i = 0; i < p->nnames; i++)
        free(p->names[i]);
    free(p->names);
    for (size_t i = 0; i < p->nlists; i++)
        free(p->lists[i]);
    free(p->lists);
    memset(p, 0, sizeof *p);
}
