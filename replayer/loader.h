/* loader.h: the loader process (see loader.c). Internal. */
#ifndef RECORDER_REPLAY_LOADER_H
#define RECORDER_REPLAY_LOADER_H

#include "replay.h"

/* Runs the loader: messages to to_replayer, the rank from from_replayer.
 * Returns the process's exit status. */
int rp_loader_main(const rp_options *opt, int to_replayer, int from_replayer);

#endif
