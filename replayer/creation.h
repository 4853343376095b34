/* creation.h: which paths a call creates (see creation.c). Internal. */
#ifndef RECORDER_REPLAY_CREATION_H
#define RECORDER_REPLAY_CREATION_H

#include <stdint.h>

#include "recorder_functions.h"

/* PATH argument `arg` of f is created by the call. ints[k]: argument k's
 * integer value; strs[k]: its string (STDIO_MODE), or NULL. */
int rp_arg_creates(const rec_func_desc *f, unsigned arg, const int64_t *ints, const char *const *strs);
/* PATH argument `arg` names no file the call touches (a symlink's target). */
int rp_names_no_file(const rec_func_desc *f, unsigned arg);
int rp_is_mkdir(const rec_func_desc *f);

#endif
