/* window.h: the merger's per-rank windows and its signature table.
 * Internal to merger/.
 *
 * A rank's window is a ring of slots: each holds a record, its signature and
 * the slot of the next record with the same signature. The records read
 * ahead wait in the slots after the window's, so a record is written to its
 * slot once. What the matching
 * reads and writes (signatures, chains, counts) lives in the slots and the
 * rank's signature table, never in the records, which are only read when
 * they are merged: at thousands of ranks the records live in main memory,
 * and every line of them a step touched was a cache miss. */
#ifndef RECORDER_MERGER_WINDOW_H
#define RECORDER_MERGER_WINDOW_H

#include <stdint.h>
#include <uthash.h>

#include "keymap.h"
#include "recorder_format.h"

struct sig_entry;

/* How many records a rank reads at a time. */
enum { READ_AHEAD = 64 };

/* Records of a rank come from chunks of CHUNK_BYTES, aligned to that size so
 * that a record's chunk is its address rounded down; they leave in the order
 * they came, so a chunk is recycled once its last record is gone. */
enum { CHUNK_BYTES = 16 * 1024 };

typedef struct chunk {
    size_t used, cap; /* bytes of data[] */
    uint32_t live;
    struct chunk *next_free; /* in the pool */
    /* records are carved from data[], so it is aligned for them (a misaligned
     * record is undefined behaviour) */
    _Alignas(16) uint8_t data[];
} chunk;

/* Chunks are carved from slabs of CHUNK_SLAB_BYTES, kept until the merge ends. */
enum { CHUNK_SLAB_BYTES = 2 << 20 };
typedef struct chunk_pool {
    chunk *free;
    void **slabs;
    size_t nslabs, cap;
} chunk_pool;

/* One record: a deep copy (strings and arrays live in the same allocation,
 * arrays decoded to int64). */
typedef struct wrec {
    uint64_t tstart, tend; /* on the merged trace's clock */
    uint32_t thread;
    uint16_t func;
    uint8_t depth;
    uint8_t synthetic; /* rebuilt by the tracer (rec_record.synthetic) */
    uint8_t inferred;  /* placed by an importer (rec_record.inferred) */
    /* One slot a field of the layout (the arguments, then the return value and
     * errno): the value itself, or for strings and arrays where their bytes
     * are in the record and how many. 8 bytes a field rather than a 24-byte
     * rec_value: each cache line a record spans is paid for twice at
     * thousands of ranks (read ahead, merged). */
    int64_t v[];
} wrec;

static inline chunk *wrec_home(const wrec *w)
{
    return (chunk *)((uintptr_t)w & ~(uintptr_t)(CHUNK_BYTES - 1));
}

/* Field i of a window record as a value (strings and arrays: their bytes, arrays decoded). */
static inline rec_value wrec_value(const wrec *w, unsigned cls, unsigned i)
{
    if (cls == REC_CLASS_STR || cls == REC_CLASS_ARRAY) {
        uint64_t at = (uint64_t)w->v[i];
        return (rec_value){.ptr = (const uint8_t *)w + (at >> 32), .len = (uint32_t)at};
    }
    return (rec_value){.i = w->v[i]};
}

/* A slot of a rank's ring: a record in the window, or read ahead. */
typedef struct wslot {
    wrec *rec;
    uint64_t sig;
    uint32_t next_same; /* the slot of the next record with this signature (while the count says so) */
} wslot;

/* Per rank: how many window records carry a signature, the first and last
 * (slots), and the global entry. The entries live in the rank's
 * open-addressing table (rank_state.sig_tab), 32 bytes each and the table
 * cache-line aligned, so that an entry is one line, the one prefetched (at
 * 40 bytes most entries straddled two). An entry whose count fell to 0
 * stays as a tombstone, revived when its signature comes back; the table is
 * rebuilt when tombstones fill it. */
/* Entries of a rank's first signature table (see sig_rebuild). */
enum { SIG_TAB_FIRST = 16 };

typedef struct rank_sig {
    uint64_t sig;
    struct sig_entry *gsig; /* NULL: never used (ends a probe) */
    uint32_t count;
    uint32_t first, last;
} rank_sig;

/* Where a signature's entry starts its probe in a table of cap entries. */
static inline uint32_t sig_home(uint64_t sig, uint32_t cap)
{
    return (uint32_t)(sig ^ sig >> 29) & (cap - 1);
}

typedef struct rank_state {
    /* What every merged record touches, in the first two cache lines (prefetched
     * together, see prefetch_ahead); the rest is for reading ahead. */
    _Alignas(64) uint32_t rank;
    unsigned head, count; /* the window: ring[head] is the oldest of count, then `queued` read ahead */
    int done;             /* the window will get no more records */
    wslot *ring;
    struct sig_entry *head_sig;
    struct rank_state *hprev, *hnext; /* ranks whose head has head_sig */
    rank_sig *sig_tab;                /* sig_cap entries, a power of two */
    uint32_t sig_cap, queued; /* queued: records read ahead, in the slots after the window's */
    uint64_t head_pos;   /* the head's index in the rank's stream */
    int64_t tick_offset; /* added to times to put them on the merged trace's clock */
    keymap unified;      /* (space, this rank's id) -> the merged trace's id; its memo is hot */
    chunk *popped_home;  /* pops not yet counted off their chunk (chunk_settle) */
    uint32_t popped;
    /* reading ahead */
    rec_cursor *cursor;
    int eof;           /* the stream has none left to read */
    int unfinished;    /* at eof: the stream lacks its end marker (a crash, a kill) */
    uint32_t sig_used; /* signature table entries used since its last rebuild */
    keymap canon;      /* (space, id) -> canonical identity of the handle */
    chunk *current;    /* records are carved from it */
    chunk_pool *pool;  /* the merger's */
} rank_state;

/* Global, per signature. A signature is complete when every rank that holds
 * it in its window has it at its head. */
typedef struct sig_entry {
    uint64_t sig;
    uint32_t head_count, ranks_with;
    rank_state *heads;
    struct sig_entry *bprev, *bnext; /* in the bucket of complete signatures of its head_count */
    int in_bucket;
    uint64_t visit; /* the fallback's pass that last looked at it */
    UT_hash_handle hh;
} sig_entry;

#endif
