/* threads.h: the replay's threads (see threads.c). Internal. */
#ifndef RECORDER_REPLAY_THREADS_H
#define RECORDER_REPLAY_THREADS_H

#include "replay.h"
#include "wire.h"

/* What the rank's replay does with the records (main.c). */
typedef struct rp_threads_hooks {
    /* A record just read from the loader, in the rank's stream order
     * (serialized: one reader at a time). */
    void (*read)(const rp_rec *r);
    /* Replays the records of `thread` (rp_thread_next) with x, on a pthread of
     * the thread's own; returns when they are all done. */
    void (*run)(rp_ctx *x, uint32_t thread);
    /* The stream cannot be read on: ends the replay. */
    void (*fatal)(const char *msg);
} rp_threads_hooks;

/* Before any record: the loader's stream, the hooks, the main thread's context. */
void rp_threads_init(rp_in *in, const rp_threads_hooks *hooks, rp_ctx *main_ctx);
/* The next record of a thread the replay runs (malloc'd; the caller frees
 * it), in that thread's order; NULL when it has no more. */
rp_rec *rp_thread_next(uint32_t thread);
/* After the main thread's records: waits for every thread the replay
 * started and adds their counts, and those of the threads it did not run,
 * to main_ctx's. */
void rp_threads_finish(rp_ctx *main_ctx);

/* Whether f orders threads (a THREAD or PTHREAD_BARRIER argument): issued
 * at the top of a call tree whatever --layers says, never below it. */
int rp_func_orders_threads(const rec_func_desc *f);

/* ---- from the generated dispatch, by role and kind ----
 * Nonzero, with x->reason set: skip the record. Else the call was made
 * (rp_begin included) and *ok says whether it succeeded. */
/* STARTS_THREAD: a pthread of the replay's for thread `id`. */
int rp_thread_start(rp_ctx *x, const rp_rec *r, int64_t id, int *ok);
/* A DESTROYS call of a THREAD (pthread_join): joins that thread's pthread. */
int rp_thread_join(rp_ctx *x, const rp_rec *r, int64_t id, int *ok);
/* A record that starts thread `id` (the THREAD its STARTS_THREAD call made)
 * was not replayed: its records are skipped, with that reason. */
void rp_thread_not_started(const rec_func_desc *f, const rp_rec *r, const char *why);
/* The object at an address a creating call is given (a pthread barrier):
 * zeroed memory the handle keeps (rp_handle_attach frees it with the handle). */
void *rp_object_new(rp_ctx *x, size_t n);

/* A call of a library that is not thread-safe (RP_TAKE_TURN in the dispatch) waits its turn once
 * the replay runs threads of its own, as the program must have; rp_end gives the turn back. */
void rp_take_turn(rp_ctx *x);
void rp_give_turn(rp_ctx *x);

#endif
