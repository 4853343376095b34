/* block.c: packing of block headers. */
#include "block.h"

#include <string.h>

#include "rec_bytes.h"

enum {
    OFF_MAGIC = 0,
    OFF_CODEC = 4, /* then 3 reserved zero bytes */
    OFF_STORED = 8,
    OFF_RAW = 12,
    OFF_NRECORDS = 16,
    OFF_NDEFS = 20,
    OFF_FIRST = 24,
    OFF_LAST = 32,
    OFF_PAYLOAD_CRC = 40,
    OFF_FUNCS = 44,
    OFF_HEADER_CRC = 76,
};

void rec_block_header_pack(const rec_block_header *h, uint8_t out[REC_BLOCK_HEADER_SIZE])
{
    memset(out, 0, REC_BLOCK_HEADER_SIZE);
    memcpy(out + OFF_MAGIC, h->magic, 4);
    out[OFF_CODEC] = h->codec;
    memcpy(out + OFF_STORED, &h->stored_size, 4);
    memcpy(out + OFF_RAW, &h->raw_size, 4);
    memcpy(out + OFF_NRECORDS, &h->nrecords, 4);
    memcpy(out + OFF_NDEFS, &h->ndefs, 4);
    memcpy(out + OFF_FIRST, &h->first_tstart, 8);
    memcpy(out + OFF_LAST, &h->last_tend, 8);
    memcpy(out + OFF_PAYLOAD_CRC, &h->payload_crc, 4);
    memcpy(out + OFF_FUNCS, h->funcs, REC_BLOCK_FUNC_BITMAP);
    uint32_t crc = rec_crc32(0, out, OFF_HEADER_CRC);
    memcpy(out + OFF_HEADER_CRC, &crc, 4);
}

static uint32_t u32_at(const uint8_t *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static uint64_t u64_at(const uint8_t *p, int swap)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return swap ? __builtin_bswap64(v) : v;
}

int rec_block_header_unpack(const uint8_t in[REC_BLOCK_HEADER_SIZE], int swap, rec_block_header *h,
                            const char **why)
{
    memcpy(h->magic, in + OFF_MAGIC, 4);
    if (memcmp(h->magic, REC_BLOCK_MAGIC, 4) != 0 && memcmp(h->magic, REC_END_MAGIC, 4) != 0) {
        *why = "bad block magic";
        return -1;
    }
    if (u32_at(in + OFF_HEADER_CRC, swap) != rec_crc32(0, in, OFF_HEADER_CRC)) {
        *why = "block header checksum mismatch";
        return -1;
    }
    h->codec = in[OFF_CODEC];
    h->stored_size = u32_at(in + OFF_STORED, swap);
    h->raw_size = u32_at(in + OFF_RAW, swap);
    h->nrecords = u32_at(in + OFF_NRECORDS, swap);
    h->ndefs = u32_at(in + OFF_NDEFS, swap);
    h->first_tstart = u64_at(in + OFF_FIRST, swap);
    h->last_tend = u64_at(in + OFF_LAST, swap);
    h->payload_crc = u32_at(in + OFF_PAYLOAD_CRC, swap);
    memcpy(h->funcs, in + OFF_FUNCS, REC_BLOCK_FUNC_BITMAP);
    if (h->codec > 1) {
        *why = "unknown block codec";
        return -1;
    }
    if (h->raw_size > REC_BLOCK_MAX_RAW || h->stored_size > REC_BLOCK_MAX_RAW) {
        *why = "block larger than 64 MiB";
        return -1;
    }
    return 0;
}
