/* meta.h: the fixed file headers and the two metadata files. Internal. */
#ifndef REC_META_H
#define REC_META_H

#include "rec_bytes.h"
#include "recorder_format.h"

#define REC_BOM 0x01020304u
#define REC_BOM_SWAPPED 0x04030201u
#define REC_MAGIC_GLOBAL "RKGM"
#define REC_MAGIC_RANK_META "RKRM"
#define REC_MAGIC_RECORDS "RKRS"

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


#endif
