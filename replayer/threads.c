/* threads.c: the replay's threads.
 *
 * A rank's records come from its loader as one stream, in the order the
 * calls ended, every thread's interleaved. Each thread the replay runs takes
 * its own records in its own order: the thread that wants its next record
 * reads the stream (one reader at a time, the others wait for it) and hands
 * every record it passes to its thread's queue, until it reaches one of its
 * own. Nobody reads ahead of need, so a trace of one thread holds one
 * record at a time, as before; a thread waiting in a call (pthread_join, a
 * barrier, MPI) never holds up the others' records, since they read for
 * themselves.
 *
 * A thread is run when the replay issues the pthread_create that started it
 * (a top-level call of a thread it runs): it gets a pthread of its own,
 * started through the interposable name, running thread_main. Its records
 * may come before that call's record (they ended before it returned): they
 * wait in its queue. Its stream ends with the record of the pthread_join
 * that joined it, which ended after everything it did; or with the rank's.
 * The records of a thread the replay does not run (one a library started
 * inside a call, one started before tracing, one whose pthread_create was
 * not replayed) are skipped, with that reason, as they are read.
 *
 * Each thread has a context of its own (per-call memory, scratch buffers,
 * counts); the counts are added to the main thread's at the end. */
#define _GNU_SOURCE
#include "threads.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "order.h"
#include "recorder_facts.h"
#include "select.h"

enum fate { UNKNOWN, RUNNING, SKIPPED };

typedef struct thread {
    uint32_t id;
    enum fate fate;
    int ended;    /* no record of it follows (its join's record was read; or the stream's end) */
    int joined;   /* a replayed pthread_join took it */
    int finished; /* its pthread ran all its records */
    const char *why; /* SKIPPED: the reason its records are skipped */
    rp_rec **q;      /* its records not yet taken: q[head..n) */
    size_t head, n, cap;
    rp_select *sel; /* SKIPPED: the selection its records go through */
    pthread_t tid;
    rp_ctx *x; /* RUNNING: its context */
} thread;

static struct {
    pthread_mutex_t lock; /* recursive: skipping a record may skip a thread it started */
    pthread_cond_t changed;
    rp_in *in;
    const rp_threads_hooks *hooks;
    rp_ctx *main_ctx;
    thread **t; /* by id */
    size_t nt;
    int reading, eof;
    rp_stats done;  /* the counts of the threads that finished */
    rp_ctx *skips;  /* accounts the records of the threads not run */
} S;

/* The one turn in the libraries that are not thread-safe (netCDF over HDF5 shares HDF5): taken only
 * once a replayed pthread_create ran, so a program of one thread never waits on it. */
static pthread_mutex_t library_turn = PTHREAD_MUTEX_INITIALIZER;
static int threads_started; /* __atomic */

void rp_take_turn(rp_ctx *x)
{
    if (!__atomic_load_n(&threads_started, __ATOMIC_ACQUIRE) || x->in_turn)
        return;
    pthread_mutex_lock(&library_turn);
    x->in_turn = 1;
}

void rp_give_turn(rp_ctx *x)
{
    if (!x->in_turn)
        return;
    x->in_turn = 0;
    pthread_mutex_unlock(&library_turn);
}

static const char not_seen[] = "of a thread no replayed call started (started before tracing, or out of its sight)";

static rp_ctx *ctx_for_thread(const rp_ctx *from);

int rp_func_orders_threads(const rec_func_desc *f)
{
    return f && (rec_arg_with_kind(f, REC_KIND_THREAD_ID, 0) >= 0 || rec_arg_with_kind(f, REC_KIND_PTHREAD_BARRIER, 0) >= 0);
}

void rp_threads_init(rp_in *in, const rp_threads_hooks *hooks, rp_ctx *main_ctx)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&S.lock, &a);
    pthread_mutexattr_destroy(&a);
    pthread_cond_init(&S.changed, NULL);
    S.in = in;
    S.hooks = hooks;
    S.main_ctx = main_ctx;
    S.skips = ctx_for_thread(main_ctx);
}

static void out_of_memory(void)
{
    S.hooks->fatal("out of memory");
    abort();
}

/* The thread of this id, made UNKNOWN when new (under the lock). */
static thread *get(uint32_t id)
{
    if (id >= S.nt) {
        size_t nt = S.nt ? S.nt : 8;
        while (nt <= id)
            nt *= 2;
        thread **grown = realloc(S.t, nt * sizeof *grown);
        if (!grown)
            out_of_memory();
        memset(grown + S.nt, 0, (nt - S.nt) * sizeof *grown);
        S.t = grown;
        S.nt = nt;
    }
    if (!S.t[id]) {
        if (!(S.t[id] = calloc(1, sizeof *S.t[id])))
            out_of_memory();
        S.t[id]->id = id;
        S.t[id]->fate = id == 0 ? RUNNING : UNKNOWN; /* the main thread, the tracer's first */
    }
    return S.t[id];
}

static void push(thread *t, rp_rec *r)
{
    if (t->head && t->head == t->n)
        t->head = t->n = 0;
    if (t->n == t->cap) {
        if (t->head) { /* room at the front */
            memmove(t->q, t->q + t->head, (t->n - t->head) * sizeof *t->q);
            t->n -= t->head;
            t->head = 0;
        } else {
            size_t cap = t->cap ? 2 * t->cap : 16;
            rp_rec **grown = realloc(t->q, cap * sizeof *grown);
            if (!grown)
                out_of_memory();
            t->q = grown;
            t->cap = cap;
        }
    }
    t->q[t->n++] = r;
}

/* The id of the thread a record's STARTS_THREAD call made (-1: none). */
static int64_t started_id(const rec_func_desc *f, const rp_rec *r)
{
    int a = f && rec_func_sole(f) == REC_SOLE_STARTS_THREAD ? rec_arg_with_kind(f, REC_KIND_THREAD_ID, REC_ARG_CREATE) : -1;
    return a >= 0 ? r->args[a].i : -1;
}

/* The id of the thread a record's call joined, when it did (-1: none). */
static int64_t joined_id(const rec_func_desc *f, const rp_rec *r)
{
    int a = f && (f->flags & REC_FN_DESTROYS) ? rec_arg_with_kind(f, REC_KIND_THREAD_ID, REC_ARG_IN) : -1;
    return a >= 0 && rf_ret_status(f, r->ret.i) == 1 ? r->args[a].i : -1;
}

static void skip_thread(thread *t, const char *why);

/* A record of a thread not run, through its selection, as the replay's
 * emit would see it: what would be issued is skipped, with the reason. */
static void emit_skipped(void *arg, rp_rec *r, int action)
{
    thread *t = arg;
    const rec_func_desc *f = rec_function_by_id(r->func);
    int64_t child = started_id(f, r);
    if (child >= 0)
        skip_thread(get((uint32_t)child), "of a thread started by a thread the replay does not run");
    if (action == RP_COVERED)
        return;
    if (action == RP_OUTSIDE) {
        S.skips->stats.filtered[f ? f->layer : 0]++;
    } else {
        S.skips->reason = t->why;
        rp_skip(S.skips, r);
    }
    rp_order_done(r->thread, r->seq); /* what waits for it on another rank goes on */
}

static void skip_record(thread *t, rp_rec *r)
{
    if (!t->sel && !(t->sel = rp_select_new(S.main_ctx->opt.layers)))
        out_of_memory();
    rp_select_push(t->sel, r, emit_skipped, t);
}

/* Under the lock: the thread is not run; its records so far are skipped, and those that follow. */
static void skip_thread(thread *t, const char *why)
{
    if (t->fate != UNKNOWN)
        return;
    t->fate = SKIPPED;
    t->why = why;
    for (size_t k = t->head; k < t->n; k++)
        skip_record(t, t->q[k]);
    free(t->q);
    t->q = NULL;
    t->head = t->n = t->cap = 0;
    if (t->ended && t->sel)
        rp_select_flush(t->sel, emit_skipped, t);
}

/* Under the lock: a record just read goes to its thread. */
static void deliver(rp_rec *r)
{
    S.hooks->read(r);
    const rec_func_desc *f = rec_function_by_id(r->func);
    thread *t = get(r->thread);
    /* read before r goes: its thread (or the skipping) frees it, maybe at once */
    int64_t joined = r->compatible ? joined_id(f, r) : -1;
    if (t->fate == SKIPPED)
        skip_record(t, r);
    else
        push(t, r);
    if (joined >= 0 && (uint64_t)joined < UINT32_MAX) { /* nothing of that thread follows */
        thread *j = get((uint32_t)joined);
        j->ended = 1;
        if (j->fate == SKIPPED && j->sel)
            rp_select_flush(j->sel, emit_skipped, j);
    }
}

/* Under the lock: the stream's end; the threads nobody started are not run. */
static void end_of_stream(void)
{
    S.eof = 1;
    for (size_t i = 0; i < S.nt; i++)
        if (S.t[i]) {
            S.t[i]->ended = 1;
            if (S.t[i]->fate == UNKNOWN)
                skip_thread(S.t[i], not_seen);
            else if (S.t[i]->fate == SKIPPED && S.t[i]->sel)
                rp_select_flush(S.t[i]->sel, emit_skipped, S.t[i]);
        }
}

/* One message from the loader, read without the lock. NULL: the end. */
static rp_rec *read_one(void)
{
    rp_msg m;
    if (!rp_in_next(S.in, &m))
        S.hooks->fatal("the trace loader stopped in the middle of the trace");
    if (m.type == RP_MSG_END) {
        free(m.data);
        return NULL;
    }
    if (m.type == RP_MSG_ERROR) {
        char *s = rp_msg_str(&m);
        S.hooks->fatal(s ? s : "the trace cannot be read");
    }
    rp_rec *r = m.type == RP_MSG_RECORD ? rp_msg_record(&m) : NULL;
    free(m.data);
    if (!r)
        S.hooks->fatal("garbled message from the trace loader");
    return r;
}

rp_rec *rp_thread_next(uint32_t id)
{
    pthread_mutex_lock(&S.lock);
    rp_rec *r = NULL;
    for (;;) {
        thread *t = get(id);
        if (t->head < t->n) {
            r = t->q[t->head++];
            break;
        }
        if (t->ended || S.eof)
            break;
        if (S.reading) {
            pthread_cond_wait(&S.changed, &S.lock);
            continue;
        }
        S.reading = 1;
        pthread_mutex_unlock(&S.lock);
        rp_rec *got = read_one();
        pthread_mutex_lock(&S.lock);
        S.reading = 0;
        if (got)
            deliver(got);
        else
            end_of_stream();
        pthread_cond_broadcast(&S.changed);
    }
    pthread_mutex_unlock(&S.lock);
    return r;
}

/* ---- starting and joining ---- */

/* The copy of a context a new thread starts with: the options and clocks, nothing of the calls. */
static rp_ctx *ctx_for_thread(const rp_ctx *from)
{
    rp_ctx *x = calloc(1, sizeof *x);
    if (!x)
        out_of_memory();
    x->opt = from->opt;
    x->rank = from->rank;
    x->nranks = from->nranks;
    x->prefix_len = from->prefix_len;
    x->resolution = from->resolution;
    x->anchor_ticks = from->anchor_ticks;
    x->anchored = from->anchored;
    x->anchor_now = from->anchor_now;
    x->unsynth = from->unsynth; /* read only once the replay runs */
    return x;
}

static void *thread_main(void *arg)
{
    thread *t = arg; /* stays: threads are never freed */
    S.hooks->run(t->x, t->id);
    rp_ctx *x = t->x;
    pthread_mutex_lock(&S.lock);
    rp_stats_add(&S.done, &x->stats);
    t->finished = 1;
    pthread_cond_broadcast(&S.changed);
    pthread_mutex_unlock(&S.lock);
    rp_ctx_release(x);
    free(x);
    return NULL;
}

int rp_thread_start(rp_ctx *x, const rp_rec *r, int64_t id, int *ok)
{
    *ok = 0;
    if (id < 0 || (uint64_t)id >= UINT32_MAX) {
        x->reason = "the traced call started no thread";
        return -1;
    }
    rp_begin(x, r);
    pthread_mutex_lock(&S.lock);
    thread *t = get((uint32_t)id);
    if (t->fate != UNKNOWN) {
        pthread_mutex_unlock(&S.lock);
        x->reason = "starts a thread the trace started before";
        return -1;
    }
    t->fate = RUNNING;
    t->x = ctx_for_thread(x);
    __atomic_store_n(&threads_started, 1, __ATOMIC_RELEASE);
    /* its records wait in its queue until it takes them */
    int err = pthread_create(&t->tid, NULL, thread_main, t);
    if (err) {
        rp_ctx_release(t->x);
        free(t->x);
        t->x = NULL;
        t->fate = UNKNOWN;
        skip_thread(t, "of a thread whose pthread_create failed in the replay");
    }
    pthread_mutex_unlock(&S.lock);
    *ok = err == 0;
    return 0;
}

int rp_thread_join(rp_ctx *x, const rp_rec *r, int64_t id, int *ok)
{
    *ok = 0;
    pthread_mutex_lock(&S.lock);
    thread *t = id >= 0 && (uint64_t)id < S.nt ? S.t[id] : NULL;
    int can = t && t->fate == RUNNING && t->id != 0 && !t->joined;
    if (can)
        t->joined = 1;
    pthread_mutex_unlock(&S.lock);
    if (!can) {
        x->reason = "joins a thread the replay does not run";
        return -1;
    }
    rp_begin(x, r);
    *ok = pthread_join(t->tid, NULL) == 0;
    return 0;
}

void rp_thread_not_started(const rec_func_desc *f, const rp_rec *r, const char *why)
{
    int64_t id = started_id(f, r);
    if (id < 0 || (uint64_t)id >= UINT32_MAX)
        return;
    pthread_mutex_lock(&S.lock);
    skip_thread(get((uint32_t)id), why);
    pthread_mutex_unlock(&S.lock);
}

void rp_threads_finish(rp_ctx *main_ctx)
{
    pthread_mutex_lock(&S.lock);
    for (size_t i = 1; i < S.nt; i++) {
        thread *t = S.t[i];
        if (!t || t->fate != RUNNING || t->joined)
            continue;
        while (!t->finished) /* one the trace did not join: it ends with the stream */
            pthread_cond_wait(&S.changed, &S.lock);
        pthread_detach(t->tid); /* untraced: the trace has no join of it */
    }
    rp_stats_add(&main_ctx->stats, &S.done);
    if (S.skips)
        rp_stats_add(&main_ctx->stats, &S.skips->stats);
    for (size_t i = 0; i < S.nt; i++)
        if (S.t[i]) {
            for (size_t k = S.t[i]->head; k < S.t[i]->n; k++)
                free(S.t[i]->q[k]);
            free(S.t[i]->q);
            rp_select_free(S.t[i]->sel);
            free(S.t[i]);
        }
    free(S.t);
    S.t = NULL;
    S.nt = 0;
    pthread_mutex_unlock(&S.lock);
}

void *rp_object_new(rp_ctx *x, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        x->reason = "out of memory for the object";
    return p;
}
