/* bytes.c: buffer growth and CRC-32 (IEEE, reflected, slicing-by-4). */
#include "rec_bytes.h"

#include <stdlib.h>

void rec_buf_reserve(rec_buf *b, size_t extra)
{
    if (b->oom || b->len + extra <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->oom = 1;
        return;
    }
    b->data = p;
    b->cap = cap;
}

void rec_buf_free(rec_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}

/* Slicing by 8: eight bytes a step, each through its own table. */
static uint32_t crc_table[8][256];
static int crc_ready;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++)
            crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^ crc_table[0][crc_table[t - 1][i] & 0xff];
    __atomic_store_n(&crc_ready, 1, __ATOMIC_RELEASE);
}

uint32_t rec_crc32(uint32_t crc, const void *data, size_t n)
{
    if (!__atomic_load_n(&crc_ready, __ATOMIC_ACQUIRE))
        crc_init();
    const uint8_t *p = data;
    crc = ~crc;
    while (n >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = crc_table[7][lo & 0xff] ^ crc_table[6][(lo >> 8) & 0xff] ^ crc_table[5][(lo >> 16) & 0xff] ^
              crc_table[4][lo >> 24] ^ crc_table[3][hi & 0xff] ^ crc_table[2][(hi >> 8) & 0xff] ^
              crc_table[1][(hi >> 16) & 0xff] ^ crc_table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}
