/* import_sessions.c: one file's calls on every rank that made some: its
 * scope (which layer opens it, over which ranks), its sessions (the opens
 * its counters count, placed around the accesses at their longest pauses)
 * and, in each, the open, the DXT accesses and the close
 * (import_plan.c's header says what is inferred and how). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_build.h"

/* Opens a rank made of one file, and over all its ranks, at most this many placed. */
enum { MAX_SESSIONS = 1 << 20, MAX_SCOPE_CALLS = 1 << 22 };

typedef struct scope {
    file_state *f;
    int64_t rank;                 /* -1: every rank */
    int layer;                    /* the layer that opens it: REC_LAYER_MPIIO or REC_LAYER_POSIX */
    int world;                    /* MPI-IO over MPI_COMM_WORLD */
    const ri_darshan_record *rec; /* the top layer's counters */
    int lone;                     /* a world file's opens over MPI_COMM_SELF: no access, no sync */
} scope;

/* A session, over the scope's ranks. */
typedef struct session {
    uint64_t split; /* accesses starting before it are this session's (or an earlier one's) */
    uint64_t start, end;
    int accessed, reads, writes;
} session;

static int64_t positive(int64_t v)
{
    return v > 0 ? v : 0;
}

/* The independent opens of a file every rank opened collectively too
 * (Darshan counts an open over one rank independent): over MPI_COMM_SELF,
 * outside the collective sessions, each rank its share (PnetCDF's
 * independent-mode handle), the ones left over rank 0's (IOR's rank 0
 * checking the file, or asking its size). */
static uint64_t lone_opens(const builder *b, const scope *s, uint32_t rank)
{
    const counters *c = &b->c;
    if (!s->world || !s->rec || s->rec->rank >= 0 || b->p->nranks < 2 || ri_counter(s->rec, c->coll_opens) <= 0)
        return 0;
    uint64_t indep = (uint64_t)positive(ri_counter(s->rec, c->indep_opens));
    return indep / b->p->nranks + (rank == 0 ? indep % b->p->nranks : 0);
}

/* Opens one rank made: the rank -1 record counts every rank's. */
static uint64_t opens_of(const builder *b, const scope *s)
{
    const counters *c = &b->c;
    int64_t n;
    if (s->layer == REC_LAYER_MPIIO) {
        int64_t indep = positive(ri_counter(s->rec, c->indep_opens));
        n = indep + positive(ri_counter(s->rec, c->coll_opens));
        if (s->world && lone_opens(b, s, 0) > 0) /* the rank -1 record's collective sessions, rounded */
            n = (positive(ri_counter(s->rec, c->coll_opens)) + b->p->nranks / 2) / b->p->nranks * b->p->nranks;
    } else
        n = positive(positive(ri_counter(s->rec, c->opens)) - positive(ri_counter(s->rec, c->filenos)) -
                     positive(ri_counter(s->rec, c->dups)));
    if (s->rec && s->rec->rank < 0 && b->p->nranks > 0)
        n = (n + b->p->nranks / 2) / b->p->nranks;
    return (uint64_t)n;
}

static int by_start(const void *x, const void *y)
{
    const ri_access *a = x, *b = y;
    return a->tstart < b->tstart ? -1 : a->tstart > b->tstart;
}

typedef struct gap {
    uint64_t size, middle;
} gap;

static int by_size_then_time(const void *x, const void *y)
{
    const gap *a = x, *b = y;
    if (a->size != b->size)
        return a->size > b->size ? -1 : 1;
    return a->middle < b->middle ? -1 : a->middle > b->middle;
}

static int by_middle(const void *x, const void *y)
{
    const gap *a = x, *b = y;
    return a->middle < b->middle ? -1 : a->middle > b->middle;
}

/* The k sessions of the accesses acc (sorted by start): split at the k-1
 * longest pauses between them, the opens left over after them. */
static int split_sessions(builder *b, const ri_access *acc, size_t n, session *ss, uint64_t k)
{
    gap *gaps = malloc((n ? n : 1) * sizeof *gaps);
    if (!gaps)
        return ri_fail(b, "out of memory");
    size_t ng = 0;
    uint64_t end = 0;
    for (size_t i = 0; i + 1 < n; i++) {
        end = acc[i].tend > end ? acc[i].tend : end;
        if (acc[i + 1].tstart > end)
            gaps[ng++] = (gap){acc[i + 1].tstart - end, end + (acc[i + 1].tstart - end) / 2};
    }
    qsort(gaps, ng, sizeof *gaps, by_size_then_time);
    size_t cuts = ng < k - 1 ? ng : (size_t)(k - 1);
    qsort(gaps, cuts, sizeof *gaps, by_middle);
    for (uint64_t j = 0; j < k; j++)
        ss[j] = (session){j < cuts ? gaps[j].middle + 1 : UINT64_MAX, 0, 0, 0, 0, 0};
    free(gaps);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        while (acc[i].tstart >= ss[j].split)
            j++;
        session *s = &ss[j];
        if (!s->accessed || acc[i].tstart < s->start)
            s->start = acc[i].tstart;
        if (!s->accessed || acc[i].tend > s->end)
            s->end = acc[i].tend;
        s->accessed = 1;
        s->reads |= !acc[i].write;
        s->writes |= acc[i].write;
    }
    return 0;
}

/* Windows for the sessions no access placed: after the previous session,
 * or where the counters' first open and last close say. 0 when none fits. */
static int place_empty_sessions(const builder *b, const scope *s, session *ss, uint64_t k)
{
    int mpi = s->layer == REC_LAYER_MPIIO;
    double first = ri_fcounter(s->rec, mpi ? b->c.mpi_open_start : b->c.open_start);
    double last = ri_fcounter(s->rec, mpi ? b->c.mpi_close_end : b->c.close_end);
    for (uint64_t j = 0; j < k; j++) {
        if (ss[j].accessed)
            continue;
        if (j > 0) {
            ss[j].start = ss[j - 1].end + 2;
        } else if (first >= 0) {
            ss[j].start = ri_ticks(b, first);
        } else {
            return 0;
        }
        ss[j].end = ss[j].start + 1;
        if (j == 0 && k == 1 && last >= first)
            ss[j].end = ri_ticks(b, last) > ss[j].start ? ri_ticks(b, last) : ss[j].start + 1;
    }
    return 1;
}

/* ---- what an open is asked ---- */

int64_t ri_amode_of(int reads, int writes)
{
    if (writes)
        return (reads ? MPI_MODE_RDWR : MPI_MODE_WRONLY) | MPI_MODE_CREATE;
    return MPI_MODE_RDONLY;
}

int64_t ri_oflags_of_amode(int64_t amode)
{
    int64_t f = (amode & MPI_MODE_RDWR) ? O_RDWR : (amode & MPI_MODE_WRONLY) ? O_WRONLY : O_RDONLY;
    return f | ((amode & MPI_MODE_CREATE) ? O_CREAT : 0);
}

int64_t ri_oflags_of(int reads, int writes)
{
    if (writes)
        return (reads ? O_RDWR : O_WRONLY) | O_CREAT;
    return O_RDONLY;
}

static int64_t permissions(const builder *b, const ri_darshan_record *posix, int64_t flags)
{
    if (!(flags & O_CREAT))
        return 0;
    int64_t m = ri_counter(posix, b->c.mode);
    return m > 0 && m <= 07777 ? m : 0644;
}

/* ---- one rank's calls of the scope ---- */

typedef struct window {
    uint64_t open_start, start, end, close_end;
} window;

static ri_event *call(builder *b, uint32_t rank, const scope *s, ri_call c, int layer, uint64_t t0,
                      uint64_t t1)
{
    ri_event *e = ri_add_event(b, rank, s->f, c, layer);
    if (e) {
        e->tstart = t0;
        e->tend = t1 < t0 ? t0 : t1;
    }
    return e;
}

int ri_get_size_at(builder *b, uint32_t rank, const file_state *f, uint64_t t, int64_t mpifile, uint64_t *parent)
{
    ri_event *g = ri_add_event(b, rank, f, RI_CALL_SIZE, REC_LAYER_MPIIO);
    if (!g)
        return -1;
    g->tstart = g->tend = t;
    g->inferred = 1;
    g->handle = mpifile;
    *parent = g->seq + 1;
    return 0;
}

void ri_seek_in_get_size(ri_event *k, uint64_t t, uint64_t parent, int to_end, int64_t fd)
{
    k->call = RI_CALL_SEEK;
    k->layer = REC_LAYER_POSIX;
    k->tstart = k->tend = t;
    k->depth = 1;
    k->inferred = 1;
    k->handle = fd;
    k->parent = parent;
    k->flags = to_end ? SEEK_END : SEEK_SET;
    k->offset = 0;
}

/* n seeks of the MPI-IO file's fd at tick t, two in each MPI_File_get_size
 * (ri_get_size_at), an odd one alone in the last. */
static int get_sizes(builder *b, uint32_t rank, const file_state *f, int64_t n, uint64_t t, int64_t mpifile,
                     int64_t fd)
{
    for (int64_t i = 0; i < n; i += 2) {
        uint64_t parent;
        if (ri_get_size_at(b, rank, f, t, mpifile, &parent) != 0)
            return -1;
        for (int j = 0; j < (i + 1 < n ? 2 : 1); j++) {
            ri_event *k = ri_add_event(b, rank, f, RI_CALL_SEEK, REC_LAYER_POSIX);
            if (!k)
                return -1;
            ri_seek_in_get_size(k, t, parent, j == 0, fd);
        }
    }
    return 0;
}

static int open_close(builder *b, uint32_t rank, const scope *s, int layer, int depth, int64_t flags,
                      int64_t mode, int64_t handle, const window *w, int closing)
{
    ri_event *e = closing ? call(b, rank, s, RI_CALL_CLOSE, layer, w->end, w->close_end)
                          : call(b, rank, s, RI_CALL_OPEN, layer, w->open_start, w->start);
    if (!e)
        return -1;
    e->depth = (uint8_t)depth;
    e->inferred = 1;
    e->collective = (uint8_t)(layer == REC_LAYER_MPIIO && s->world);
    e->handle = handle;
    e->flags = flags;
    e->mode = mode;
    return 0;
}

/* The rank's accesses of one session, in their order; a POSIX access of an
 * MPI-IO file inside the MPI-IO call it started in ends with it. */
static int accesses(builder *b, uint32_t rank, const scope *s, const ri_access *acc, size_t n,
                    int64_t mpifile, int64_t fd, int64_t *seeks)
{
    uint64_t parent_start = 0, parent_end = 0, position = 0;
    int has_parent = 0;
    for (size_t i = 0; i < n; i++) {
        const ri_access *a = &acc[i];
        if (*seeks > 0 && a->layer == REC_LAYER_POSIX && s->layer == REC_LAYER_POSIX) {
            ri_event *k = call(b, rank, s, RI_CALL_SEEK, REC_LAYER_POSIX, a->tstart, a->tstart);
            if (!k)
                return -1;
            k->inferred = 1;
            k->handle = fd;
            k->offset = a->offset > 0 ? a->offset : 0;
            --*seeks;
        }
        ri_event *e = call(b, rank, s, a->write ? RI_CALL_WRITE : RI_CALL_READ, a->layer, a->tstart, a->tend);
        if (!e)
            return -1;
        e->length = a->length;
        e->offset = a->offset;
        if (a->layer == REC_LAYER_MPIIO) {
            if (a->offset < 0) /* DXT_MPIIO 1 kept no offsets: one after the other */
                e->offset = (int64_t)position;
            position = (uint64_t)e->offset + (uint64_t)a->length;
            e->handle = mpifile;
            e->collective = a->collective;
            parent_start = a->tstart;
            parent_end = a->tend;
            has_parent = 1;
        } else {
            e->handle = fd;
            if (s->layer == REC_LAYER_MPIIO) {
                e->depth = 1;
                if (has_parent && a->tstart >= parent_start && a->tstart <= parent_end &&
                    e->tend > parent_end)
                    e->tend = parent_end;
            }
            if (e->offset < 0)
                e->offset = 0;
        }
    }
    return 0;
}

/* The rank's share of a counter of the scope's record (of every rank's when it is rank -1). */
static int64_t share(const builder *b, const scope *s, uint32_t rank, int index)
{
    int64_t v = s->rec ? positive(ri_counter(s->rec, index)) : 0;
    if (s->rec && s->rec->rank < 0 && b->p->nranks > 0) {
        if (s->world) /* a collective call: as many on every rank */
            return v / b->p->nranks;
        v = v / b->p->nranks + (int64_t)(rank < (uint64_t)v % b->p->nranks);
    }
    return v;
}

/* The syncs DXT does not keep (MPI_File_sync, fsync, fdatasync), the rank's
 * share, at the end of its last session that wrote, before the close. */
static int syncs(builder *b, uint32_t rank, const scope *s, int64_t handle, uint64_t at)
{
    int mpi = s->layer == REC_LAYER_MPIIO;
    for (int data = 0; data < 1 + !mpi; data++) {
        int64_t n = share(b, s, rank, mpi ? b->c.mpi_syncs : data ? b->c.fdsyncs : b->c.fsyncs);
        for (int64_t j = 0; j < n; j++) {
            ri_event *e = call(b, rank, s, data ? RI_CALL_DATASYNC : RI_CALL_SYNC, s->layer, at, at);
            if (!e)
                return -1;
            e->inferred = 1;
            e->handle = handle;
            e->collective = (uint8_t)(mpi && s->world);
        }
    }
    return 0;
}

static int place_rank(builder *b, const scope *s, uint32_t rank, const ri_access *acc, size_t n,
                      const session *ss, uint64_t k)
{
    const counters *c = &b->c;
    int mpi = s->layer == REC_LAYER_MPIIO;
    const ri_darshan_record *posix = ri_find_record(&b->posix, s->f->id, -1);
    if (!posix)
        posix = ri_find_record(&b->posix, s->f->id, rank);
    int posix_below = 0; /* the rank opened the MPI-IO file with POSIX too */
    for (size_t i = 0; i < n && !posix_below; i++)
        posix_below = acc[i].layer == REC_LAYER_POSIX;
    posix_below |= posix != NULL;
    /* counter times are the rank's own, or every rank's for a collective open */
    int own_times = s->rank >= 0 || s->world;
    double first = ri_fcounter(s->rec, mpi ? c->mpi_open_start : c->open_start);
    double last = ri_fcounter(s->rec, mpi ? c->mpi_close_end : c->close_end);
    /* a POSIX file's seeks (IOR's lseek before each read and write, which
     * DXT does not keep): the rank's share, each just before an access; an
     * MPI-IO file's (the MPI library's own, for MPI-IO calls Darshan does
     * not count: ROMIO's for MPI_File_get_size): the rank's share of its
     * POSIX record's, each inside an MPI_File_get_size at the end of the
     * rank's last session */
    int64_t seeks = mpi ? 0 : share(b, s, rank, c->seeks);
    int64_t below_seeks = 0;
    if (mpi && posix && !s->lone) {
        below_seeks = positive(ri_counter(posix, c->seeks));
        if (posix->rank < 0 && b->p->nranks > 0)
            below_seeks = below_seeks / b->p->nranks + (int64_t)(rank < (uint64_t)below_seeks % b->p->nranks);
    }
    int at_end = 0; /* the seeks below MPI-IO after the last session's accesses, else after the first open */
    if (below_seeks > 0 && n > 0) {
        size_t in_last = 0, at = 0;
        for (uint64_t j = 0; j < k; j++)
            for (in_last = 0; at < n && acc[at].tstart < ss[j].split; at++)
                in_last++;
        at_end = in_last > 0;
    }
    uint64_t sync_at = k - 1; /* the last session that wrote, where a file is synced */
    while (sync_at > 0 && !ss[sync_at].writes)
        sync_at--;
    if (!ss[sync_at].writes)
        sync_at = k - 1;
    size_t i = 0;
    for (uint64_t j = 0; j < k; j++) {
        size_t from = i;
        int reads = 0, writes = 0;
        window w = {0, ss[j].start, ss[j].end, 0};
        for (; i < n && acc[i].tstart < ss[j].split; i++) {
            if (i == from || acc[i].tstart < w.start)
                w.start = acc[i].tstart;
            if (i == from || acc[i].tend > w.end)
                w.end = acc[i].tend;
            reads |= !acc[i].write;
            writes |= acc[i].write;
        }
        if (i == from || s->world) { /* what the session did, over every rank: one amode for all */
            reads = ss[j].reads;
            writes = ss[j].writes;
        }
        w.open_start = w.start > 0 ? w.start - 1 : 0;
        if (j == 0 && own_times && first >= 0 && ri_ticks(b, first) <= w.start)
            w.open_start = ri_ticks(b, first);
        w.close_end = w.end + 1;
        if (j == k - 1 && own_times && last >= 0 && ri_ticks(b, last) >= w.end)
            w.close_end = ri_ticks(b, last);
        int64_t mpifile = -1, fd = -1, flags, mode;
        if (mpi) {
            flags = ri_amode_of(reads, writes);
            int64_t recorded = ri_counter(s->rec, c->mpi_mode);
            if (k == 1 && recorded > 0)
                flags = recorded;
            mpifile = b->next_mpifile[rank]++;
            if (open_close(b, rank, s, REC_LAYER_MPIIO, 0, flags, 0, mpifile, &w, 0) != 0)
                return -1;
            if (posix_below) {
                int64_t of = ri_oflags_of_amode(flags);
                fd = b->next_fd[rank]++;
                if (open_close(b, rank, s, REC_LAYER_POSIX, 1, of, permissions(b, posix, of), fd, &w, 0) != 0)
                    return -1;
                if (j == 0 && !at_end && get_sizes(b, rank, s->f, below_seeks, w.start, mpifile, fd) != 0)
                    return -1;
            }
        } else {
            flags = ri_oflags_of(reads, writes);
            mode = permissions(b, s->rec, flags);
            fd = b->next_fd[rank]++;
            if (open_close(b, rank, s, REC_LAYER_POSIX, 0, flags, mode, fd, &w, 0) != 0)
                return -1;
        }
        if (i > from && accesses(b, rank, s, acc + from, i - from, mpifile, fd, &seeks) != 0)
            return -1;
        if (j == sync_at && !s->lone && syncs(b, rank, s, mpi ? mpifile : fd, w.end) != 0)
            return -1;
        if (j == k - 1 && fd >= 0 && at_end && get_sizes(b, rank, s->f, below_seeks, w.end, mpifile, fd) != 0)
            return -1;
        if (fd >= 0 && open_close(b, rank, s, REC_LAYER_POSIX, mpi, 0, 0, fd, &w, 1) != 0)
            return -1;
        if (mpi && open_close(b, rank, s, REC_LAYER_MPIIO, 0, 0, 0, mpifile, &w, 1) != 0)
            return -1;
    }
    return 0;
}

/* The scope's sessions, then each of its ranks' calls. */
static int place(builder *b, const scope *s)
{
    file_state *f = s->f;
    const ri_access *all = f->acc;
    size_t nall = f->nacc, first = 0;
    if (s->rank >= 0) { /* the rank's own accesses, already by start */
        while (first < f->nacc && f->acc[first].rank < (uint32_t)s->rank)
            first++;
        nall = 0;
        while (first + nall < f->nacc && f->acc[first + nall].rank == (uint32_t)s->rank)
            nall++;
        all = nall ? f->acc + first : NULL;
    } else if (nall) { /* every rank's, by start */
        if (b->scratch_cap < nall) {
            ri_access *v = realloc(b->scratch, nall * sizeof *v);
            if (!v)
                return ri_fail(b, "out of memory");
            b->scratch = v;
            b->scratch_cap = nall;
        }
        memcpy(b->scratch, f->acc, nall * sizeof *f->acc);
        qsort(b->scratch, nall, sizeof *b->scratch, by_start);
        all = b->scratch;
    }
    uint64_t k = opens_of(b, s);
    if (k == 0 && nall == 0)
        return 0; /* touched, never opened (stat, ...) */
    if (k == 0)
        k = 1; /* accesses whose open the counters missed (a partial module) */
    uint64_t nranks = s->rank < 0 ? b->p->nranks : 1;
    if (k > MAX_SESSIONS || nranks * k > MAX_SCOPE_CALLS) {
        char what[600];
        snprintf(what, sizeof what, "%s: %llu opens on each of %llu ranks, more than recorder-import places",
                 f->path, (unsigned long long)k, (unsigned long long)nranks);
        return ri_fail(b, what);
    }
    session *ss = calloc(k, sizeof *ss);
    if (!ss)
        return ri_fail(b, "out of memory");
    int rc = split_sessions(b, all, nall, ss, k);
    if (rc == 0 && !place_empty_sessions(b, s, ss, k)) {
        b->p->skipped_files++; /* opened, never accessed, no time to place it at */
        free(ss);
        return 0;
    }
    size_t at = s->rank < 0 ? 0 : first; /* f->acc is by rank: each rank's run follows the last one's */
    for (uint32_t r = 0; rc == 0 && r < nranks; r++) {
        uint32_t rank = s->rank < 0 ? r : (uint32_t)s->rank;
        while (at < f->nacc && f->acc[at].rank < rank)
            at++;
        size_t n = 0;
        while (at + n < f->nacc && f->acc[at + n].rank == rank)
            n++;
        rc = place_rank(b, s, rank, n ? f->acc + at : NULL, n, ss, k);
        at += n;
    }
    /* each rank's lone opens, over MPI_COMM_SELF, accessing nothing, after the sessions */
    for (uint32_t r = 0; rc == 0 && r < nranks && s->world; r++) {
        uint64_t lone = lone_opens(b, s, r);
        if (lone == 0)
            continue;
        if (lone > MAX_SESSIONS || nranks * lone > MAX_SCOPE_CALLS) {
            char what[600];
            snprintf(what, sizeof what,
                     "%s: %llu independent opens on each of %llu ranks, more than recorder-import places",
                     f->path, (unsigned long long)lone, (unsigned long long)nranks);
            free(ss);
            return ri_fail(b, what);
        }
        scope self = *s;
        self.world = 0;
        self.lone = 1;
        session *alone = calloc(lone, sizeof *alone);
        if (!alone) {
            free(ss);
            return ri_fail(b, "out of memory");
        }
        for (uint64_t j = 0; j < lone; j++) {
            alone[j].start = (j ? alone[j - 1].end : ss[k - 1].end) + 2;
            alone[j].end = alone[j].start + 1;
            alone[j].split = 0;
            alone[j].reads = 1;
        }
        rc = place_rank(b, &self, r, NULL, 0, alone, lone);
        free(alone);
    }
    free(ss);
    return rc;
}

/* Each rank of its own: those with a record of the file, or accesses. */
static int place_each_rank(builder *b, file_state *f, int layer, const records *recs)
{
    const ri_darshan_record **own;
    size_t nown = ri_own_records(recs, f->id, &own), r = 0, a = 0;
    while (r < nown || a < f->nacc) {
        uint32_t rank = r < nown && (a >= f->nacc || (uint32_t)own[r]->rank <= f->acc[a].rank)
                            ? (uint32_t)own[r]->rank
                            : f->acc[a].rank;
        if (rank >= b->p->nranks)
            break;
        scope s = {f, rank, layer, 0, ri_find_record(recs, f->id, rank), 0};
        if (place(b, &s) != 0)
            return -1;
        while (r < nown && (uint32_t)own[r]->rank == rank)
            r++;
        while (a < f->nacc && f->acc[a].rank == rank)
            a++;
    }
    return 0;
}

int ri_plan_file(builder *b, file_state *f)
{
    if (f->has_mpiio) {
        const ri_darshan_record **own, *all = ri_find_record(&b->mpiio, f->id, -1);
        size_t nown = ri_own_records(&b->mpiio, f->id, &own);
        if (all || (b->p->nranks > 1 && nown == b->p->nranks)) {
            b->p->world_files++;
            if (ri_mark_collective(b, f, 1) != 0)
                return -1;
            scope s = {f, -1, REC_LAYER_MPIIO, 1, all ? all : own[0], 0};
            return place(b, &s);
        }
        b->p->self_files++;
        if (ri_mark_collective(b, f, 0) != 0)
            return -1;
        return place_each_rank(b, f, REC_LAYER_MPIIO, &b->mpiio);
    }
    b->p->posix_files++;
    const ri_darshan_record *all = ri_find_record(&b->posix, f->id, -1);
    if (all) {
        scope s = {f, -1, REC_LAYER_POSIX, 0, all, 0};
        return place(b, &s);
    }
    return place_each_rank(b, f, REC_LAYER_POSIX, &b->posix);
}
