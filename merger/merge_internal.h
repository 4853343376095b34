/* merge_internal.h: the merger's state, shared by window.c and merge.c. */
#ifndef RECORDER_MERGE_INTERNAL_H
#define RECORDER_MERGE_INTERNAL_H

#include "recorder_merge.h"
#include "window.h"

/* A record's fields as the merger sees them: arguments, then (unless the
 * function returns void) the return value and errno. */
typedef struct rec_layout_view {
    unsigned nargs, nfields;
    uint8_t cls[REC_MAX_FIELDS];
    uint8_t kind[REC_MAX_FIELDS];
    uint8_t space[REC_MAX_FIELDS];   /* the handle space, 0: not a handle */
    uint8_t created[REC_MAX_FIELDS]; /* a handle the call creates */
    uint32_t own_fields;             /* fields each rank translates on its own: paths, arrays of handles */
    uint32_t used_handles, created_handles; /* integer handle fields, unified across the group */
    uint32_t sig_fields;                    /* arguments the signature reads */
    uint32_t bytes_fields;                  /* strings and arrays: their bytes follow the window record */
} rec_layout_view;

struct merger;
/* The function's layout, worked out once per function. */
const rec_layout_view *layout_for(struct merger *m, unsigned func);

typedef struct merger {
    const rec_table *table;
    unsigned window;
    uint32_t nranks;      /* ranks merged here (ranks[i] is rank first_rank + i) */
    uint32_t total_ranks; /* the trace's: a record of that many stands for everyone */
    rank_state *ranks;
    sig_entry *sigs;
    sig_entry **bucket; /* bucket[c]: complete signatures whose head_count is c */
    uint32_t max_bucket;
    uint64_t records_in;
    int64_t next_merged_id[REC_SPACE_COUNT];
    keymap merged_ids_used;   /* (space, id) already given to a handle in the merged trace */
    rec_layout_view *layouts; /* REC_FUNCTION_ID_LIMIT, filled on first use */
    uint8_t *layout_ready;
    uint32_t live;    /* ranks whose window is not empty */
    uint32_t unfinished_pending; /* ranks at the end of a stream without its end marker, not yet counted */
    chunk_pool pool;  /* where every rank's records are carved from */
    void *rank_slots; /* every rank's ring of slots, one block */
    rank_sig *sig_tabs; /* every rank's first signature table, one block */
    unsigned ring_slots; /* a rank's ring: window + READ_AHEAD slots */
    uint64_t visit;
} merger;

/* What both mergers start and end with: the options (or their defaults,
 * kept in *defaults) with the statistics zeroed; a merger's table, sizes,
 * first handle ids and layout cache (-1: out of memory), and its release. */
const rec_merge_options *merge_options(const rec_merge_options *o, rec_merge_options *defaults, rec_merge_stats *st);
int merger_begin(merger *m, const rec_table *table, unsigned window, uint32_t nranks, uint32_t total_ranks);
void merger_end_common(merger *m);
int fill(merger *m, rank_state *rs, rec_error *err);
void pop(merger *m, rank_state *rs);
void pop_many(merger *m, rank_state *rs, unsigned k);
void sig_tab_free(rank_state *rs);
void chunk_release(rank_state *rs, wrec *w);
void chunk_settle(rank_state *rs);
void chunk_drop_current(rank_state *rs);
void chunk_pool_free(chunk_pool *p);
void *rank_arrays_alloc(size_t n, size_t size);
void *rank_arrays_alloc_raw(size_t n, size_t size, int zeroed);
void update_complete(merger *m, sig_entry *s);
uint64_t distance(const merger *m, const rank_state *rs);
void wrec_to_record(const wrec *w, const rec_layout_view *lay, rec_record *r);
uint64_t handle_key(unsigned space, int64_t id);
/* Slot k of the rank's ring (0: its head; k < count: the window; then the
 * records read ahead), without a division. */
static inline unsigned window_index(const merger *m, const rank_state *rs, unsigned k)
{
    unsigned i = rs->head + k;
    return i >= m->ring_slots ? i - m->ring_slots : i;
}

static inline wslot *window_slot(const merger *m, const rank_state *rs, unsigned k)
{
    return &rs->ring[window_index(m, rs, k)];
}

/* merge.c's helpers, for combine.c */
double now(void);
int make_dirs(const char *path);
/* The ticks a per-rank time may be off by (rec_merge_options.time_resolution; 0: exact). */
int64_t merge_time_tolerance(const rec_merge_options *o, const rec_trace_info *info);
int write_meta(const char *out_dir, const rec_trace *t, const rec_merge_options *o, const char *in_dir,
               uint64_t start_ns, rec_error *err);
/* The merged stream's writer in out_dir (made if missing), on the clock
 * starting at start_ns; a part of a parallel merge is not compressed. */
rec_writer *open_merged_writer(const char *out_dir, const rec_table *table, uint64_t start_ns, int part,
                               rec_error *err);
/* What HDF5's filters stored, as out_dir/merged.h5store: each distinct
 * entry once (the ranks of a parallel file report the same), from each of
 * the dirs in turn, their merged.h5store or else ranks first .. first +
 * count - 1. A damaged one is said and left out: the records are the trace. */
int carry_h5store(const char *const *dirs, unsigned n, uint32_t first, uint32_t count, const char *out_dir,
                  const char *tool, rec_error *err);
/* The signature of a record read on its own (a record of a merged part), as
 * fill() gives a window record its, noting the handles it creates. */
int record_signature(rank_state *rs, const rec_layout_view *lay, const rec_record *r, uint64_t *sig);

void prefetch_ahead(const merger *m, rank_state *const *group, uint32_t n, uint32_t k);
void prefetch_heads(const merger *m, rank_state *const *group, uint32_t n, uint32_t k);
void prefetch_refill(const merger *m, rank_state *const *group, uint32_t n, uint32_t k, unsigned batch);
void prefetch_batch(const merger *m, rank_state *const *group, uint32_t n, uint32_t k, unsigned batch);

#endif
