/* gen_replay.h: what gen_replay's parts share (internal to the generator). */
#ifndef RECORDER_GEN_REPLAY_H
#define RECORDER_GEN_REPLAY_H

#include <stdio.h>

#include "gen_support.h"

/* The layer's operators and callbacks' stand-ins (gen_replay_callbacks.c). */
void gen_replay_callbacks(FILE *to, unsigned layer);
/* The replay of a call on a thread (its THREAD_ID argument), by role (gen_replay_callbacks.c). */
void gen_replay_thread_call(FILE *to, const rec_func_desc *f);
/* A tuning set's hints and lists on a call's argument (gen_replay_tune.c). */
void gen_replay_tune_arg(FILE *to, const rec_func_desc *f, unsigned i);
/* A netCDF put's NC_STRING or variable-length values of the traced lengths in buffer n (of C type
 * ctype), where the entry records them; whether it does (gen_replay_pointers.c). */
int gen_replay_nc_pointers(FILE *to, const rec_func_desc *f, const char *n, const char *ctype);
/* An H5Dwrite's variable-length strings or sequences of the traced lengths in buffer n, where the entry
 * records them (gen_replay_pointers.c). */
void gen_replay_h5_pointers(FILE *to, const rec_func_desc *f, const char *n);
/* After an H5Dread that succeeded, what HDF5 allocated for the variable-length data it read freed
 * (gen_replay_pointers.c). */
void gen_replay_h5_reclaim(FILE *to, const rec_func_desc *f);

#endif
