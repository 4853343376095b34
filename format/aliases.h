/* aliases.h: the handle aliases of a merged stream (format.md section 11):
 * the id each rank knows a unified handle by, where it is not the unified
 * one. Internal to format/. */
#ifndef REC_ALIASES_H
#define REC_ALIASES_H

#include <stddef.h>
#include <stdint.h>

typedef struct rec_alias rec_aliases; /* NULL: none yet */

/* Takes an alias definition's bytes; only_rank >= 0 keeps that rank's
 * aliases alone. 0; -1 malformed (*why); -2 out of memory. */
int rec_aliases_take(rec_aliases **table, const uint8_t *bytes, size_t len, int64_t only_rank, const char **why);
/* The id `rank` knows merged_id (of this handle space) by. */
int64_t rec_aliases_own(const rec_aliases *table, uint32_t rank, unsigned space, int64_t merged_id);
/* How many aliases merged_id has (0: every rank knows it by that id). */
int64_t rec_aliases_count(const rec_aliases *table, unsigned space, int64_t merged_id);
void rec_aliases_free(rec_aliases **table);

#endif
