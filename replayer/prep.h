/* prep.h: finding and pre-creating the trace's input files (see prep.c).
 * Internal; runs in the loader process, which the tracer does not trace. */
#ifndef RECORDER_REPLAY_PREP_H
#define RECORDER_REPLAY_PREP_H

#include "recorder_format.h"
#include "replay.h"
#include "wire.h"

/* Reads every rank's records; on success creates the prefix and the inputs
 * under it and appends an RP_MSG_PREP message to o. On error (unreadable
 * or incomplete trace) creates nothing and fills err. */
int rp_prep(rec_trace *t, const rp_options *opt, rp_out *o, char *err, size_t cap);

#endif
