/* text.h: the newlines of what the replay writes (see text.c). Internal. */
#ifndef RECORDER_REPLAY_TEXT_H
#define RECORDER_REPLAY_TEXT_H

#include <stdint.h>

#include "recorder_facts.h"
#include "replay.h"
#include "wire.h"

/* Loader side, in the PREP message: the delimiters of every file. */
void rp_text_send(rp_out *o, const rf_lines *lines);
/* Rank 0, reading that message: them as one blob (*blob malloc'ed). */
void rp_text_receive(rp_msg *m, char **blob, uint64_t *len);
/* Every rank, from the blob rank 0 broadcast; a blob of 0 bytes: no file
 * has lines, and writes end with a newline as before. */
void rp_text_init(const char *blob, uint64_t len);
/* Before each record of the rank: where a POSIX write puts its bytes, and
 * so which of them are delimiters (rp_ctx.text_*). */
void rp_text_note(rp_ctx *x, const rp_rec *r);
void rp_text_free(void);

#endif
