/* combine.h: merging merged traces (combine.c: the lanes and which records
 * go next; combine_emit.c: one merged record out of the lanes' records).
 * Internal to merger/. */
#ifndef RECORDER_MERGER_COMBINE_H
#define RECORDER_MERGER_COMBINE_H

#include "emit.h"

/* A record of a part held after its cursor moved on: a later record of the
 * part, of other ranks, was merged first. One allocation. */
typedef struct held_record {
    rec_record rec;
    rec_merge_info mi;
} held_record;

typedef struct lane_entry {
    uint64_t sig;
    uint32_t nranks, nranges;
    rec_rank_range *ranges; /* the record's rank set */
    uint16_t func;
    uint8_t collective, merged;
    held_record *held; /* read already (merged.c's cursor is past it) */
} lane_entry;

typedef struct lane {
    rank_state rs;       /* the signatures' handle identities (rs.canon) and paths (rs.cursor: ahead) */
    rec_trace *t;
    rec_cursor *ahead;   /* reads the window's records: their signatures */
    rec_cursor *now;     /* reads the records as they are merged, keeping every rank's handle aliases */
    uint64_t head_pos, now_pos; /* the window's first record's place in the part, and now's next */
    uint32_t block_first, block_ranks; /* the part's ranks (its merge.part), 0: not known */
    chunk_pool pool;
    lane_entry *ring; /* the window: ring[head] and count - 1 after it, some merged already */
    unsigned head, count;
    int eof;
    keymap held;      /* signature -> window entries with it not merged yet */
    keymap final_ids; /* handle_key(space, the part's id) -> the merged trace's */
    /* the record being merged */
    rec_record rec;
    rec_merge_info mi;
    unsigned pick;            /* its entry in the window */
    uint32_t offset;          /* its first member's place in the group */
    int var_of[EMIT_COLUMNS]; /* each column's variation in mi, -1: none */
    rec_value bytes[REC_MAX_FIELDS]; /* strings and arrays of its base, decoded and translated */
} lane;

/* Entries of a window looked at for records of other ranks that may go
 * before the lane's first (the rest wait). */
enum { REORDER_SCAN = 32 };

typedef struct combiner {
    merger m;
    lane *lanes;
    unsigned nlanes, window;
    rec_writer *w;
    emit_buffers b;
    lane *group[64];
    unsigned ngroup;
    const rec_layout_view *lay;
    /* strings and arrays of members that differ from their lane's base */
    int64_t *arena, **spent; /* the block in use, and full ones */
    size_t arena_used, arena_cap, nspent;
    int oom;
    uint8_t *taken; /* a bit per rank: the ranks of a window's earlier records */
    uint8_t *usable[64]; /* per lane: which of its first REORDER_SCAN entries may go first */
} combiner;

static inline lane_entry *entry(const combiner *c, const lane *L, unsigned k)
{
    return &L->ring[(L->head + k) % c->window];
}

/* Lane L's record at entry L->pick into L->rec and L->mi: read now, or held
 * since a later one was read first. */
int lane_record(combiner *c, lane *L, rec_error *err);
/* Writes the merged record of the group's picked records (c->group). */
int combine_emit(combiner *c, rec_merge_stats *st, rec_error *err);
/* Member k's string or array (emit_buffers.bytes_of). */
rec_value combine_member_bytes(void *ctx, uint32_t k, unsigned field);
/* Frees what the last record's strings and arrays took. */
void combine_arena_reset(combiner *c);

#endif
