/* meta.h: the fixed file headers and the two metadata files. Internal. */
#ifndef REC_META_H
#define REC_META_H

#include "bytes.h"
#include "recorder_format.h"

#define REC_BOM 0x01020304u
#define REC_BOM_SWAPPED 0x04030201u
#define REC_MAGIC_GLOBAL "RKGM"
#define REC_MAGIC_RANK_META "RKRM"
#define REC_MAGIC_RECORDS "RKRS"
#define REC_FILE_HEADER_SIZE 12 /* magic[4], bom u32, major u16, minor u16 */

/* Fixed-width fields are written in the writer's byte order; the BOM tells
 * a reader on the other byte order to swap them. Varints need no swapping. */
typedef struct rec_fixed {
    rec_in in;
    int swap;
} rec_fixed;

uint16_t rec_fixed_u16(rec_fixed *f);
uint32_t rec_fixed_u32(rec_fixed *f);
uint64_t rec_fixed_u64(rec_fixed *f);

void rec_put_file_header(rec_buf *b, const char magic[4]);
/* Checks magic, byte order and version; leaves f positioned after the header.
 * Returns 0, or -1 with err naming path. */
int rec_check_file_header(rec_fixed *f, const char magic[4], const char *path, const char *what,
                          uint32_t *major, uint32_t *minor, rec_error *err);

/* A parsed recorder.meta. */
typedef struct rec_global {
    rec_trace_info info;
    rec_option *options;
    rec_func_desc *funcs;
    size_t nfuncs;
    rec_table *table;
} rec_global;

void rec_meta_encode_global(rec_buf *b, const rec_trace_info *info, const rec_table *table);
int rec_meta_parse_global(const void *data, size_t n, const char *path, rec_global *g, rec_error *err);
void rec_global_free(rec_global *g);

typedef struct rec_rank_summary {
    uint32_t rank;
    uint64_t start_time_ns;
    uint64_t records, blocks, stored_bytes, raw_bytes, first_tstart, last_tend;
    const rec_counts *per_func; /* REC_FUNCTION_ID_LIMIT entries */
    size_t npaths;
    char *const *paths;
} rec_rank_summary;

void rec_meta_encode_rank(rec_buf *b, const rec_rank_summary *s);
int rec_meta_parse_rank(const void *data, size_t n, const char *path, rec_rank_meta *m, rec_error *err);
void rec_rank_meta_free(rec_rank_meta *m);

/* Whole-file helpers. */
int rec_write_file(const rec_io *io, const char *path, const void *data, size_t n, rec_error *err);
/* Reads a whole file (malloc'ed into *data); -1 with err naming path. */
int rec_read_file(const char *path, uint8_t **data, size_t *n, rec_error *err);

#endif
