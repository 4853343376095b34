/* rk_trace.c: see rk_trace.h. */
#include "rk_trace.h"

#include <CUnit/CUnit.h>

void rk_trace_write_global(const char *dir, const rec_trace_info *info)
{
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(rec_write_global_metadata(dir, info, NULL, NULL, &err), 0);
}

rec_writer *rk_trace_open_rank(const char *dir, uint32_t rank, const rec_writer_options *o)
{
    rec_error err;
    rec_writer *w = rec_writer_open(dir, rank, o, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    return w;
}
