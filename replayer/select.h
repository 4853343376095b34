/* select.h: call trees and --layers (see select.c). Internal. */
#ifndef RECORDER_REPLAY_SELECT_H
#define RECORDER_REPLAY_SELECT_H

#include "replay.h"

enum {
    RP_ISSUE = 0,   /* replay it */
    RP_COVERED = 1, /* an ancestor is replayed and makes this call again */
    RP_OUTSIDE = 2  /* its layer is not selected (its lower calls may be) */
};

/* Called for every record, in stream order, once its tree is complete;
 * the record is freed after the call. */
typedef void (*rp_emit_fn)(void *ctx, rp_rec *r, int action);

typedef struct rp_select rp_select;
rp_select *rp_select_new(int layers); /* RP_LAYERS_TOP or a REC_LAYER_* */
/* Takes ownership of r (malloc'd). */
void rp_select_push(rp_select *s, rp_rec *r, rp_emit_fn emit, void *ctx);
/* Trees left open at the end of the stream. */
void rp_select_flush(rp_select *s, rp_emit_fn emit, void *ctx);
void rp_select_free(rp_select *s);

#endif
