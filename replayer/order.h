/* order.h: the order between ranks a trace without MPI calls cannot keep
 * by itself (see order.c). Internal.
 *
 * The loader of rank 0 collects path events while it scans every rank
 * (rp_order_note), then turns them into edges (rp_order_edges): "rank C's
 * record i comes before rank U's record j". The replaying ranks get the
 * edges with the inputs and keep them with PMPI point-to-point messages on a
 * communicator of their own (rp_order_wait before a record, rp_order_done
 * after it). */
#ifndef RECORDER_REPLAY_ORDER_H
#define RECORDER_REPLAY_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

typedef struct rp_edge {
    uint32_t from_rank, from_seq; /* this record's end ... */
    uint32_t to_rank, to_seq;     /* ... comes before this one's start */
    uint32_t from_thread, to_thread; /* the threads of the two records */
} rp_edge;
enum { RP_EDGE_WORDS = sizeof(rp_edge) / sizeof(uint32_t) };

/* ---- loader side ---- */
typedef struct rp_order_scan rp_order_scan;
rp_order_scan *rp_order_scan_new(void);
/* One record of `rank` at position seq, at times t0..t1 (seconds on the
 * ranks' common clock); paths[k]: its PATH arguments (NULL: none). */
void rp_order_note(rp_order_scan *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, uint32_t seq,
                   double t0, double t1, const char *const *paths);
/* The edges, fewest that keep the order (freed by the caller); frees s.
 * None when the trace holds MPI calls of its own (they order the ranks). */
size_t rp_order_edges(rp_order_scan *s, rp_edge **out);

/* ---- replaying side ----
 * Each thread keeps its own records' edges, in its own order: a thread
 * never waits for an edge of another's (which may wait, on another rank,
 * for something this thread has yet to do). Safe from several threads. */
/* This rank's part of the edges (every rank passes the same list). */
void rp_order_init(const rp_edge *edges, size_t n, int rank);
/* Before record seq of thread: waits for the records that must come first. */
void rp_order_wait(uint32_t thread, uint32_t seq);
/* After record seq of thread: tells the ranks waiting for it. */
void rp_order_done(uint32_t thread, uint32_t seq);
/* How many waits this rank kept (for the summary). */
uint64_t rp_order_waits(void);
void rp_order_free(void);

#endif
