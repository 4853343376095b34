/* rk_trace.h: the first steps of the synthetic traces the unit tests write,
 * each a fatal CUnit assertion when it fails. */
#ifndef RK_TRACE_H
#define RK_TRACE_H

#include "recorder_format.h"

/* Writes the trace's global metadata `info` into dir. */
void rk_trace_write_global(const char *dir, const rec_trace_info *info);

/* Opens rank's record stream (or REC_MERGED_STREAM) in dir with the writer
 * options `o` (NULL: the defaults). */
rec_writer *rk_trace_open_rank(const char *dir, uint32_t rank, const rec_writer_options *o);

#endif
