/* order.c: the order between ranks that a trace without MPI calls cannot
 * keep by itself.
 *
 * Traced with its MPI layer off, a program's barriers are not in the trace:
 * replayed as fast as each rank goes, rank 2 may open out/group.1 before
 * rank 0 has made out/, or see a file another rank made only later. The
 * trace still shows what happened first, through the file system:
 *   - a call that succeeded on a path (or below it) another rank created
 *     came after that creation (the path did not exist before it);
 *   - a call that failed because a path was missing (ENOENT, ENOTDIR) came
 *     before another rank created it, when the clocks say so by a margin.
 * Each such pair becomes an edge, "rank C's record i before rank U's record
 * j", between top-level records only (a call inside a collective must not
 * wait for one the collective itself holds up); edges another edge of the
 * same two ranks already implies are dropped. The replaying ranks keep them
 * with empty PMPI messages on a communicator of their own. The events agree
 * with the real order of the original run, which that run proves free of
 * cycles, so the edges cannot deadlock the replay. */
#define _GNU_SOURCE
#include "order.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "recorder_facts.h"

/* A failure counts as "before the creation" only this far ahead of it:
 * the ranks' clocks agree to well within it. */
#define FAIL_MARGIN 1e-3
enum { PATH_KEY_MAX = 4096 };

enum event_kind { EV_CREATE, EV_USE, EV_MISSING };

typedef struct event {
    uint32_t key, rank, seq, thread;
    uint8_t kind;
    double t0, t1;
} event;

typedef struct path_key {
    char *key;
    uint32_t id;
    UT_hash_handle hh;
} path_key;

/* A path's first creation (and when the second one starts: a use after it
 * may be of another file of that name). */
typedef struct creation {
    int has;
    uint32_t rank, seq, thread;
    double t0, t1, next_t0;
    int existed; /* used before its first creation: an input, no edges */
} creation;

struct rp_order_scan {
    path_key *keys;
    char **names; /* by id */
    size_t nkeys, names_cap;
    event *ev;
    size_t nev, ev_cap;
    int has_mpi, failed;
};

rp_order_scan *rp_order_scan_new(void)
{
    return calloc(1, sizeof(rp_order_scan));
}

static int intern(rp_order_scan *s, const char *key, uint32_t *id)
{
    path_key *p;
    HASH_FIND_STR(s->keys, key, p);
    if (p) {
        *id = p->id;
        return 0;
    }
    if (s->nkeys == s->names_cap) {
        size_t cap = s->names_cap ? 2 * s->names_cap : 256;
        char **grown = realloc(s->names, cap * sizeof *grown);
        if (!grown)
            return -1;
        s->names = grown;
        s->names_cap = cap;
    }
    p = calloc(1, sizeof *p);
    if (!p || !(p->key = strdup(key))) {
        free(p);
        return -1;
    }
    p->id = (uint32_t)s->nkeys;
    s->names[s->nkeys++] = p->key;
    HASH_ADD_KEYPTR(hh, s->keys, p->key, strlen(p->key), p);
    *id = p->id;
    return 0;
}

static void add_event(rp_order_scan *s, const char *key, uint32_t rank, uint32_t seq, uint32_t thread, int kind,
                      double t0, double t1)
{
    if (s->nev == s->ev_cap) {
        size_t cap = s->ev_cap ? 2 * s->ev_cap : 1024;
        event *grown = realloc(s->ev, cap * sizeof *grown);
        if (!grown) {
            s->failed = 1;
            return;
        }
        s->ev = grown;
        s->ev_cap = cap;
    }
    uint32_t id;
    if (intern(s, key, &id) != 0) {
        s->failed = 1;
        return;
    }
    s->ev[s->nev++] = (event){id, rank, seq, thread, (uint8_t)kind, t0, t1};
}

void rp_order_note(rp_order_scan *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, uint32_t seq,
                   double t0, double t1, const char *const *paths)
{
    if (!s || s->failed || r->depth != 0)
        return;
    if (f->layer == REC_LAYER_MPI && !r->synthetic && !(f->roles & (REC_ROLE_STARTS_MPI | REC_ROLE_ENDS_MPI))) {
        s->has_mpi = 1; /* the trace orders its ranks itself */
        return;
    }
    int ok = rf_succeeded(f, r);
    int missing = !ok && (r->err == ENOENT || r->err == ENOTDIR);
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        if (!paths[k] || rf_path_names_no_file(f, k))
            continue;
        char key[PATH_KEY_MAX];
        if (rf_path_normalize(paths[k], key, sizeof key, RF_PATH_ROOTED | rf_path_flags(f)) != 0 || rf_path_is_system(key))
            continue;
        int existed = !ok && rf_record_creates(f, r, k) && r->err == EEXIST;
        if (ok || existed)
            add_event(s, key, rank, seq, r->thread, ok && rf_record_creates(f, r, k) ? EV_CREATE : EV_USE, t0, t1);
        else if (missing)
            add_event(s, key, rank, seq, r->thread, EV_MISSING, t0, t1);
    }
}

static void free_scan(rp_order_scan *s)
{
    path_key *p, *tmp;
    HASH_ITER(hh, s->keys, p, tmp)
    {
        HASH_DEL(s->keys, p);
        free(p->key);
        free(p);
    }
    free(s->names);
    free(s->ev);
    free(s);
}

/* The ids of the path's ancestors that have a key (nearest first). */
static size_t ancestors(rp_order_scan *s, const char *key, uint32_t *out, size_t cap)
{
    char dir[PATH_KEY_MAX];
    snprintf(dir, sizeof dir, "%s", key);
    size_t n = 0;
    for (char *slash = strrchr(dir, '/'); slash && slash != dir && n < cap; slash = strrchr(dir, '/')) {
        *slash = 0;
        path_key *p;
        HASH_FIND_STR(s->keys, dir, p);
        if (p)
            out[n++] = p->id;
    }
    return n;
}

/* Two threads' records keep their order (seq) within each thread only. */
static int same_threads(const rp_edge *x, const rp_edge *y)
{
    return x->from_rank == y->from_rank && x->to_rank == y->to_rank && x->from_thread == y->from_thread &&
           x->to_thread == y->to_thread;
}

static int by_pair_then_target(const void *a, const void *b)
{
    const rp_edge *x = a, *y = b;
    if (x->from_rank != y->from_rank)
        return x->from_rank < y->from_rank ? -1 : 1;
    if (x->to_rank != y->to_rank)
        return x->to_rank < y->to_rank ? -1 : 1;
    if (x->from_thread != y->from_thread)
        return x->from_thread < y->from_thread ? -1 : 1;
    if (x->to_thread != y->to_thread)
        return x->to_thread < y->to_thread ? -1 : 1;
    if (x->to_seq != y->to_seq)
        return x->to_seq < y->to_seq ? -1 : 1;
    return x->from_seq > y->from_seq ? -1 : x->from_seq < y->from_seq; /* the strongest first */
}

static int push_edge(rp_edge **e, size_t *n, size_t *cap, rp_edge edge)
{
    if (*n == *cap) {
        size_t grown_cap = *cap ? 2 * *cap : 64;
        rp_edge *grown = realloc(*e, grown_cap * sizeof *grown);
        if (!grown)
            return -1;
        *e = grown;
        *cap = grown_cap;
    }
    (*e)[(*n)++] = edge;
    return 0;
}

/* Edge of event v with a path's first creation c, if the two must keep their order. */
static int relate(const event *v, const creation *c, rp_edge **e, size_t *n, size_t *cap)
{
    if (!c->has || c->existed || v->rank == c->rank)
        return 0;
    if (v->kind == EV_MISSING)
        return v->t1 + FAIL_MARGIN < c->t0
                   ? push_edge(e, n, cap, (rp_edge){v->rank, v->seq, c->rank, c->seq, v->thread, c->thread})
                   : 0;
    /* After a second creation the name may be another file's. */
    if (v->t0 > c->t1 && (!c->next_t0 || v->t0 < c->next_t0))
        return push_edge(e, n, cap, (rp_edge){c->rank, c->seq, v->rank, v->seq, c->thread, v->thread});
    return 0;
}

size_t rp_order_edges(rp_order_scan *s, rp_edge **out)
{
    *out = NULL;
    if (!s)
        return 0;
    if (s->has_mpi || s->failed || s->nkeys == 0) {
        free_scan(s);
        return 0;
    }
    creation *cr = calloc(s->nkeys, sizeof *cr);
    if (!cr) {
        free_scan(s);
        return 0;
    }
    for (size_t i = 0; i < s->nev; i++) {
        const event *v = &s->ev[i];
        creation *c = &cr[v->key];
        if (v->kind != EV_CREATE)
            continue;
        if (!c->has || v->t0 < c->t0) {
            if (c->has && (!c->next_t0 || c->t0 < c->next_t0))
                c->next_t0 = c->t0;
            *c = (creation){1, v->rank, v->seq, v->thread, v->t0, v->t1, c->next_t0, 0};
        } else if (!c->next_t0 || v->t0 < c->next_t0) {
            c->next_t0 = v->t0;
        }
    }
    /* A path used (or something made below it) before its first creation existed already. */
    uint32_t anc[256];
    for (size_t i = 0; i < s->nev; i++) {
        const event *v = &s->ev[i];
        if (v->kind == EV_MISSING)
            continue;
        if (v->kind == EV_USE && cr[v->key].has && v->t1 < cr[v->key].t0)
            cr[v->key].existed = 1;
        size_t na = ancestors(s, s->names[v->key], anc, 256);
        for (size_t a = 0; a < na; a++)
            if (cr[anc[a]].has && v->t1 < cr[anc[a]].t0)
                cr[anc[a]].existed = 1;
    }
    rp_edge *e = NULL;
    size_t n = 0, cap = 0;
    int oom = 0;
    for (size_t i = 0; i < s->nev && !oom; i++) {
        const event *v = &s->ev[i];
        oom |= relate(v, &cr[v->key], &e, &n, &cap);
        size_t na = ancestors(s, s->names[v->key], anc, 256);
        for (size_t a = 0; a < na && !oom; a++) {
            event as_use = *v;
            if (as_use.kind == EV_CREATE)
                as_use.kind = EV_USE; /* made below it: it existed */
            oom |= relate(&as_use, &cr[anc[a]], &e, &n, &cap);
        }
    }
    free(cr);
    free_scan(s);
    if (oom) {
        free(e);
        return 0;
    }
    /* Of the edges between two ranks' threads keep those no other implies:
     * (i -> j) implies (i' -> j') when i' <= i and j' >= j. */
    if (n)
        qsort(e, n, sizeof *e, by_pair_then_target); /* e is NULL when there are none */
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int same_pair = kept > 0 && same_threads(&e[kept - 1], &e[i]);
        if (same_pair && e[i].from_seq <= e[kept - 1].from_seq)
            continue;
        e[kept++] = e[i];
    }
    *out = e;
    return kept;
}

/* ---- replaying side ----
 * A thread's steps (what it waits for before its records, what it tells
 * after them) sorted by seq, each list walked by its own thread only. With
 * MPI below MPI_THREAD_MULTIPLE the MPI calls are serialized, and a wait
 * polls, so that it holds nobody up. */

typedef struct step {
    uint32_t seq, peer;
} step;

typedef struct steps {
    uint32_t thread;
    step *v;
    size_t n, cap, next;
} steps;

static struct {
    MPI_Comm comm;
    steps *waits, *dones; /* one list per thread */
    size_t nwaits, ndones;
    uint64_t kept;
    int multiple; /* MPI is MPI_THREAD_MULTIPLE */
    pthread_mutex_t lock, mpi;
} ord = {MPI_COMM_NULL, NULL, NULL, 0, 0, 0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

static int by_seq(const void *a, const void *b)
{
    const step *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static steps *list_of(steps **lists, size_t *n, uint32_t thread, int make)
{
    for (size_t i = 0; i < *n; i++)
        if ((*lists)[i].thread == thread)
            return &(*lists)[i];
    if (!make)
        return NULL;
    steps *grown = realloc(*lists, (*n + 1) * sizeof *grown);
    if (!grown)
        return NULL;
    *lists = grown;
    grown[*n] = (steps){thread, NULL, 0, 0, 0};
    return &grown[(*n)++];
}

static int add_step(steps **lists, size_t *n, uint32_t thread, step s)
{
    steps *l = list_of(lists, n, thread, 1);
    if (!l)
        return -1;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        step *grown = realloc(l->v, cap * sizeof *grown);
        if (!grown)
            return -1;
        l->v = grown;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return 0;
}

void rp_order_init(const rp_edge *edges, size_t n, int rank)
{
    if (n == 0)
        return;
    PMPI_Comm_dup(MPI_COMM_WORLD, &ord.comm); /* every rank has the same n */
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    ord.multiple = level == MPI_THREAD_MULTIPLE;
    int oom = 0;
    for (size_t i = 0; i < n; i++) {
        if ((int)edges[i].to_rank == rank)
            oom |= add_step(&ord.waits, &ord.nwaits, edges[i].to_thread, (step){edges[i].to_seq, edges[i].from_rank});
        if ((int)edges[i].from_rank == rank)
            oom |= add_step(&ord.dones, &ord.ndones, edges[i].from_thread,
                            (step){edges[i].from_seq, edges[i].to_rank});
    }
    if (oom) {
        fprintf(stderr, "recorder-replay: out of memory\n");
        PMPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < ord.nwaits; i++)
        qsort(ord.waits[i].v, ord.waits[i].n, sizeof *ord.waits[i].v, by_seq);
    for (size_t i = 0; i < ord.ndones; i++)
        qsort(ord.dones[i].v, ord.dones[i].n, sizeof *ord.dones[i].v, by_seq);
}

/* The thread's steps up to seq, taken from its list: [*first, *first + count). */
static size_t take(steps *lists, size_t n, uint32_t thread, uint32_t seq, const step **first)
{
    pthread_mutex_lock(&ord.lock);
    steps *l = NULL;
    for (size_t i = 0; i < n && !l; i++)
        if (lists[i].thread == thread)
            l = &lists[i];
    size_t k = 0;
    if (l) {
        *first = l->v + l->next;
        while (l->next < l->n && l->v[l->next].seq <= seq)
            l->next++, k++;
    }
    pthread_mutex_unlock(&ord.lock);
    return k;
}

static void receive(int peer)
{
    if (ord.multiple) {
        PMPI_Recv(NULL, 0, MPI_BYTE, peer, 0, ord.comm, MPI_STATUS_IGNORE);
        return;
    }
    MPI_Request req;
    int done = 0;
    pthread_mutex_lock(&ord.mpi);
    PMPI_Irecv(NULL, 0, MPI_BYTE, peer, 0, ord.comm, &req);
    for (;;) {
        PMPI_Test(&req, &done, MPI_STATUS_IGNORE);
        pthread_mutex_unlock(&ord.mpi);
        if (done)
            return;
        sched_yield();
        pthread_mutex_lock(&ord.mpi);
    }
}

static void tell(int peer)
{
    if (!ord.multiple)
        pthread_mutex_lock(&ord.mpi);
    PMPI_Send(NULL, 0, MPI_BYTE, peer, 0, ord.comm);
    if (!ord.multiple)
        pthread_mutex_unlock(&ord.mpi);
}

/* The thread's steps up to seq in lists, each done with act; how many. */
static size_t walk(steps *lists, size_t n, uint32_t thread, uint32_t seq, void (*act)(int peer))
{
    const step *s = NULL;
    size_t k = n ? take(lists, n, thread, seq, &s) : 0;
    for (size_t i = 0; i < k; i++)
        act((int)s[i].peer);
    return k;
}

void rp_order_wait(uint32_t thread, uint32_t seq)
{
    size_t k = walk(ord.waits, ord.nwaits, thread, seq, receive);
    if (k) {
        pthread_mutex_lock(&ord.lock);
        ord.kept += k;
        pthread_mutex_unlock(&ord.lock);
    }
}

void rp_order_done(uint32_t thread, uint32_t seq)
{
    walk(ord.dones, ord.ndones, thread, seq, tell);
}

uint64_t rp_order_waits(void)
{
    return ord.kept;
}

void rp_order_free(void)
{
    /* a rank whose stream ended early still lets the others on */
    for (size_t i = 0; i < ord.ndones; i++)
        rp_order_done(ord.dones[i].thread, UINT32_MAX);
    for (size_t i = 0; i < ord.nwaits; i++)
        rp_order_wait(ord.waits[i].thread, UINT32_MAX);
    if (ord.comm != MPI_COMM_NULL)
        PMPI_Comm_free(&ord.comm);
    for (size_t i = 0; i < ord.nwaits; i++)
        free(ord.waits[i].v);
    for (size_t i = 0; i < ord.ndones; i++)
        free(ord.dones[i].v);
    free(ord.waits);
    free(ord.dones);
    ord.waits = ord.dones = NULL;
    ord.nwaits = ord.ndones = 0;
}
