/* aliases.c: see aliases.h. One hash of (rank, space, unified id) -> the
 * rank's own id, and in the same hash, per unified handle, how many aliases
 * it has (keys whose `who` has ALIAS_COUNT set). */
#include "aliases.h"

#include "rec_bytes.h"
#include "recorder_format.h"

#include <stdlib.h>
#include <uthash.h>

#define ALIAS_COUNT ((uint64_t)1 << 63)

typedef struct alias_key {
    uint64_t who; /* rank << 8 | handle space, or ALIAS_COUNT | space */
    int64_t merged_id;
} alias_key;

struct rec_alias {
    alias_key key;
    int64_t value; /* the rank's own id, or the count */
    UT_hash_handle hh;
};

static struct rec_alias *find(const rec_aliases *table, alias_key key)
{
    struct rec_alias *a = NULL;
    if (table)
        HASH_FIND(hh, table, &key, sizeof key, a);
    return a;
}

/* value -1 on a count entry: one more. */
static int set(rec_aliases **table, alias_key key, int64_t value)
{
    struct rec_alias *a = find(*table, key);
    if (!a) {
        if (!(a = calloc(1, sizeof *a)))
            return -1;
        a->key = key;
        HASH_ADD(hh, *table, key, sizeof a->key, a);
    }
    a->value = key.who & ALIAS_COUNT ? a->value + 1 : value;
    return 0;
}

int rec_aliases_take(rec_aliases **table, const uint8_t *bytes, size_t len, int64_t only_rank, const char **why)
{
    rec_in in;
    rec_in_init(&in, bytes, len);
    uint64_t rank = rec_get_varint(&in), space = rec_get_varint(&in);
    int64_t merged_id = rec_get_svarint(&in), rank_id = rec_get_svarint(&in);
    /* Ranks stay below 2^55: the counts' keys hold a rank in 55 bits. */
    if (in.failure || space >= REC_SPACE_COUNT || rank >= (uint64_t)1 << 55) {
        *why = "malformed handle alias";
        return -1;
    }
    if (only_rank >= 0 && rank != (uint64_t)only_rank)
        return 0;
    if (set(table, (alias_key){rank << 8 | space, merged_id}, rank_id) != 0 ||
        (only_rank < 0 && set(table, (alias_key){ALIAS_COUNT | space, merged_id}, -1) != 0))
        return -2;
    return 0;
}

int64_t rec_aliases_own(const rec_aliases *table, uint32_t rank, unsigned space, int64_t merged_id)
{
    const struct rec_alias *a = find(table, (alias_key){(uint64_t)rank << 8 | space, merged_id});
    return a ? a->value : merged_id;
}

int64_t rec_aliases_count(const rec_aliases *table, unsigned space, int64_t merged_id)
{
    const struct rec_alias *a = find(table, (alias_key){ALIAS_COUNT | space, merged_id});
    return a ? a->value : 0;
}

void rec_aliases_free(rec_aliases **table)
{
    struct rec_alias *a, *tmp;
    HASH_ITER(hh, *table, a, tmp)
    {
        HASH_DEL(*table, a);
        free(a);
    }
    *table = NULL;
}
