/* keymap.h: a 64-bit key -> int64 value map for the merger's per-rank handle
 * tables. Open addressing in one array, so that a lookup touches one cache
 * line, and a memo of the last hit, because a rank uses the same few handles
 * record after record: at thousands of ranks, every cold line a record costs
 * is what makes the merge slower per record (issue 6). Internal to merger/. */
#ifndef RECORDER_MERGER_KEYMAP_H
#define RECORDER_MERGER_KEYMAP_H

#include <stdint.h>

typedef struct keymap_slot {
    uint64_t key; /* KEYMAP_EMPTY: free (that key itself lives in has_empty_key) */
    int64_t value;
} keymap_slot;

typedef struct keymap {
    uint64_t memo_key; /* the last key found, and its value (first: the hot part) */
    int64_t memo_value;
    int memo_ok;
    uint32_t cap, used;
    int has_empty_key;
    keymap_slot *slots;
    int64_t empty_key_value;
} keymap;

#define KEYMAP_EMPTY UINT64_MAX

/* 1 and *value if key is present, else 0. */
int keymap_get(keymap *m, uint64_t key, int64_t *value);
/* Sets key to value; -1 when out of memory. */
int keymap_put(keymap *m, uint64_t key, int64_t value);
void keymap_free(keymap *m);

#endif
