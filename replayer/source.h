/* source.h: where the loader gets a rank's records from. Internal.
 * Today one implementation: the format's cursor, which serves per-rank
 * traces and (rank by rank) merged traces alike. Another source, e.g. a
 * merged stream expanded here, only has to fill these four functions. */
#ifndef RECORDER_REPLAY_SOURCE_H
#define RECORDER_REPLAY_SOURCE_H

#include "recorder_format.h"

typedef struct rp_source rp_source;

typedef struct rp_source_ops {
    /* 1: *r holds the next record; 0: end of the rank's records; -1: error. */
    int (*next)(rp_source *s, rec_record *r, rec_error *err);
    /* The path with this id (NULL if undefined). */
    const char *(*path)(rp_source *s, int64_t id);
    /* After the end: 1 if the rank's stream ended cleanly. */
    int (*complete)(rp_source *s);
    void (*close)(rp_source *s);
} rp_source_ops;

struct rp_source {
    const rp_source_ops *ops;
    void *impl;
};

rp_source *rp_source_open(rec_trace *t, uint32_t rank, rec_error *err);
/* From now on the rank's source gives at most `records` records, and then
 * counts as finished (a trace cut short: see cut.h). */
void rp_source_limit(uint32_t rank, uint64_t records);

/* For rec_path_fn-style callbacks: ctx is the rp_source. */
const char *rp_source_path_cb(void *ctx, int64_t id);

#endif
