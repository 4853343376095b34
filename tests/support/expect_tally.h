/* expect_tally.h: per function, a rank's calls and the bytes they moved, as
 * the kernels' --expect counts them; shared by trace_expect and layer_calls,
 * which compare traces with those counts. */
#ifndef EXPECT_TALLY_H
#define EXPECT_TALLY_H

#include "recorder_format.h"

typedef struct expect_tally {
    uint64_t calls[REC_FUNCTION_ID_LIMIT]; /* by function id */
    int64_t bytes[REC_FUNCTION_ID_LIMIT];
} expect_tally;

/* The bytes the tracer worked out after the call, if it did; else, for a
 * data call that succeeded, its return value (fread/fwrite: items times the
 * item size); else 0. */
int64_t expect_bytes(const rec_func_desc *f, const rec_record *r);

/* Counts the call r of f and its bytes. */
void expect_tally_add(expect_tally *t, const rec_func_desc *f, const rec_record *r);

#endif
