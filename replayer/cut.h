/* cut.h: where the replay of a trace cut short stops. Internal. */
#ifndef RECORDER_REPLAY_CUT_H
#define RECORDER_REPLAY_CUT_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

/* When some rank's stream lacks its end marker (a job killed at its time
 * limit, a crash), the ranks' traces end at different calls: replaying each
 * to its own end would leave ranks waiting in collectives the others never
 * reached. The trace is merged (in a scratch directory, then removed) and
 * every rank stops where the first such stream ends in the merged order:
 * *limits (nranks entries, malloc'd) gets each rank's records up to there,
 * *unfinished those ranks, *after the merged records kept. 0 with *limits
 * NULL when every stream ended cleanly (or the trace is merged already), 1
 * with *limits, -1 with err. */
int rp_cut(rec_trace *t, uint64_t **limits, uint32_t *unfinished, uint64_t *after, char *err, size_t cap);

#endif
