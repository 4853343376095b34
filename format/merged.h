/* merged.h: merge annotations (format/merged.c). Internal to format/. */
#ifndef REC_MERGED_H
#define REC_MERGED_H

#include "codec.h"

/* Parsed annotation; reused from record to record. */
typedef struct rec_merge_state {
    rec_merge_info info;
    rec_rank_range *ranges;
    size_t ranges_cap;
    rec_variation *vars;
    size_t *vidx; /* where each vector variation's values start in values[] */
    size_t vars_cap;
    rec_value *values;
    size_t values_cap;
    uint8_t *scratch; /* the arrays of DISK_ARRAYS_AFFINE vectors, encoded as a record's are */
    size_t scratch_cap;
    uint8_t *made; /* per variation: its arrays are in scratch */
    size_t made_cap;
} rec_merge_state;

void rec_merge_encode(rec_buf *b, const rec_layout *lay, const rec_record *base, const rec_merge_info *mi);
/* Parses an annotation for the record `base` that followed it; with
 * sets_only its rank set alone (no variation: values are not read). */
int rec_merge_parse(rec_merge_state *s, const uint8_t *bytes, size_t len, const rec_layout *lay,
                    const rec_record *base, uint32_t nranks_total, int sets_only, const char **why);
void rec_merge_apply(const rec_merge_info *mi, const rec_layout *lay, rec_record *r, uint32_t rank, uint32_t index);
void rec_merge_state_free(rec_merge_state *s);

#endif
