/* emit.h: how the records a group of ranks has at its heads become merged
 * records. Internal to merger/. */
#ifndef RECORDER_MERGER_EMIT_H
#define RECORDER_MERGER_EMIT_H

#include "merge_internal.h"

/* At most this many merged records in one lockstep batch (emit_lockstep). */
enum { LOCKSTEP_MAX = 128 };

/* Columns per merged record: every field, then the start and end times. */
enum { EMIT_COLUMNS = REC_MAX_FIELDS + 2, COL_TSTART = REC_MAX_FIELDS, COL_TEND = REC_MAX_FIELDS + 1 };

typedef struct emit_buffers {
    uint32_t kcap;                  /* lockstep batches go up to this many records (memory allowing) */
    wrec **recs;                    /* per group member: its window record, translated in place */
    uint32_t *ranks;                /* per group member: its rank */
    uint8_t *done;                  /* per group member: already translated */
    int64_t *cols;                  /* kcap x EMIT_COLUMNS columns of one value per member */
    size_t col_stride;              /* values from one column to the next (see emit_buffers_init) */
    int64_t *first;                 /* kcap x EMIT_COLUMNS: each column's first member's value */
    uint32_t varying[LOCKSTEP_MAX]; /* per record: the columns filled for every member (see put) */
    rec_value *values;              /* per variation x member */
    rec_variation *vars;
    rec_rank_range *ranges;
    /* Member k's string or array in a field, for callers without window
     * records (combine.c); NULL: b->recs[k]'s. */
    rec_value (*bytes_of)(void *ctx, uint32_t k, unsigned field);
    void *bytes_ctx;
    int64_t time_tolerance; /* ticks: a member's time within it of member 0's is member 0's (0: exact) */
} emit_buffers;

int emit_buffers_init(emit_buffers *b, uint32_t nranks);
void emit_buffers_free(emit_buffers *b);

/* Writes one merged record for the heads of the group (ascending ranks); the
 * caller pops them. 0, or -1 with err set. */
int emit(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b, rec_merge_stats *st,
         rec_error *err);

/* The group is every rank still running, all at the same signature. When the
 * next records of all of them agree too, writes up to LOCKSTEP_MAX merged
 * records at once, pops them and refills the windows; returns how many. 0:
 * nothing done (emit one record instead); -1: error (err). */
int emit_lockstep(merger *m, rec_writer *w, rank_state **group, uint32_t n, emit_buffers *b,
                  rec_merge_stats *st, rec_error *err);

/* Member k's value of column c (a field, COL_TSTART or COL_TEND) of
 * `record`: members in order from 0, after b->varying[record] = 0. */
void emit_put(emit_buffers *b, unsigned record, uint32_t k, unsigned c, int64_t v);
/* Column c of `record`, for the caller to write whole (members 0 .. n-1)
 * instead of member by member. */
int64_t *emit_column(emit_buffers *b, unsigned record, unsigned c);
/* Writes the merged record of the n members (ranks in b->ranks) whose values
 * are in the columns of `record`; `first` is the first member's record as
 * read (its strings and arrays; scalars and times come from the columns). */
int emit_finish(merger *m, rec_writer *w, uint32_t n, const rec_layout_view *lay, const rec_record *first,
                unsigned record, emit_buffers *b, rec_merge_stats *st, rec_error *err);
/* The merged trace's id for a handle the first rank that has it numbers
 * `own`: that number if no other handle took it, else a fresh one; -1: out
 * of memory. */
int64_t claim_merged_id(merger *m, unsigned space, int64_t own);

#endif
