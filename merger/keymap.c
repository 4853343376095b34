/* keymap.c: see keymap.h. Linear probing, no deletion (the merger's maps
 * only grow until the merge ends), doubled at 3/4 full. */
#include "keymap.h"

#include <stdlib.h>

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key & (cap - 1);
}

static keymap_slot *find_slot(keymap_slot *slots, uint32_t cap, uint64_t key)
{
    for (uint32_t i = slot_of(key, cap);; i = (i + 1) & (cap - 1))
        if (slots[i].key == key || slots[i].key == KEYMAP_EMPTY)
            return &slots[i];
}

int keymap_get(keymap *m, uint64_t key, int64_t *value)
{
    if (m->memo_ok && m->memo_key == key) {
        *value = m->memo_value;
        return 1;
    }
    int found = 0;
    if (key == KEYMAP_EMPTY) {
        found = m->has_empty_key;
        *value = m->empty_key_value;
    } else if (m->cap) {
        keymap_slot *s = find_slot(m->slots, m->cap, key);
        found = s->key == key;
        *value = s->value;
    }
    if (found) {
        m->memo_ok = 1;
        m->memo_key = key;
        m->memo_value = *value;
    }
    return found;
}

static int grow(keymap *m)
{
    uint32_t cap = m->cap ? m->cap * 2 : 8;
    keymap_slot *slots = malloc(cap * sizeof *slots);
    if (!slots || cap < m->cap) {
        free(slots);
        return -1;
    }
    for (uint32_t i = 0; i < cap; i++)
        slots[i].key = KEYMAP_EMPTY;
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->slots[i].key != KEYMAP_EMPTY)
            *find_slot(slots, cap, m->slots[i].key) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
    return 0;
}

int keymap_put(keymap *m, uint64_t key, int64_t value)
{
    if (m->memo_ok && m->memo_key == key)
        m->memo_value = value;
    if (key == KEYMAP_EMPTY) {
        m->has_empty_key = 1;
        m->empty_key_value = value;
        return 0;
    }
    if ((m->used + 1) * 4 > m->cap * 3 && grow(m) != 0)
        return -1;
    keymap_slot *s = find_slot(m->slots, m->cap, key);
    if (s->key == KEYMAP_EMPTY) {
        s->key = key;
        m->used++;
    }
    s->value = value;
    return 0;
}

void keymap_free(keymap *m)
{
    free(m->slots);
    *m = (keymap){0};
}
