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
} rec_layout_view;

void layout_of(const rec_func_desc *f, rec_layout_view *lay);

typedef struct merger {
    const rec_table *table;
    unsigned window;
    uint32_t nranks;
    rank_state *ranks;
    sig_entry *sigs;
    sig_entry **bucket; /* bucket[c]: complete signatures whose head_count is c */
    uint32_t max_bucket;
    uint64_t records_in;
    int64_t next_merged_id[REC_SPACE_COUNT];
    keyed *merged_ids_used; /* (space, id) already given to a handle in the merged trace */
    uint64_t visit;
} merger;

int fill(merger *m, rank_state *rs, rec_error *err);
void pop(merger *m, rank_state *rs);
void update_complete(merger *m, sig_entry *s);
uint64_t distance(const merger *m, const rank_state *rs);
void wrec_to_record(const wrec *w, rec_record *r);
uint64_t handle_key(unsigned space, int64_t id);
void free_keys(keyed **map);

#endif
