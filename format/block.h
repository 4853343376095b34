/* block.h: the header in front of every block of a record stream, and the
 * end marker. Internal to format/; layout in docs/reference/format.md. */
#ifndef REC_BLOCK_H
#define REC_BLOCK_H

#include <stdint.h>

#define REC_BLOCK_MAGIC "RKBL"
#define REC_END_MAGIC "RKEN"
#define REC_BLOCK_HEADER_SIZE 80
#define REC_BLOCK_FUNC_BITMAP 32 /* one bit per (function id mod 256) */
#define REC_BLOCK_MAX_RAW (64u << 20)
/* A zstd payload is a run of frames, each of whole records and about this
 * many raw bytes (the last record may go past it): a reader holds one frame
 * decompressed at a time, not the block (a merge keeps a reader per rank). */
#define REC_FRAME_RAW (64u << 10)
#define REC_FRAMES_MAX (REC_BLOCK_MAX_RAW / 2 / REC_FRAME_RAW + 1)

typedef struct rec_block_header {
    char magic[4];
    uint8_t codec;
    uint32_t stored_size, raw_size, nrecords, ndefs;
    uint64_t first_tstart, last_tend;
    uint32_t payload_crc;
    uint8_t funcs[REC_BLOCK_FUNC_BITMAP];
} rec_block_header;

/* Into 80 bytes, in this machine's byte order, with a CRC of the header. */
void rec_block_header_pack(const rec_block_header *h, uint8_t out[REC_BLOCK_HEADER_SIZE]);
/* Returns 0, or -1 with *why set (bad magic, header checksum). */
int rec_block_header_unpack(const uint8_t in[REC_BLOCK_HEADER_SIZE], int swap, rec_block_header *h,
                            const char **why);

static inline int rec_block_has_func(const rec_block_header *h, unsigned id)
{
    return (h->funcs[(id & 0xff) >> 3] >> (id & 7)) & 1;
}

#endif
