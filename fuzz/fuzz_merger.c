/* fuzz_merger: recorder-merge's input. Input: a container (fuzz.h) with a
 * per-rank trace, served from memory; it is merged with rec_merge_traces
 * into a scratch directory and, when that succeeds, the merged trace is
 * read back in full. */
#include "fuzz.h"

#include <stdio.h>

#include "recorder_merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char out[4200];
    snprintf(out, sizeof out, "%s/out", fuzz_scratch_dir());
    int flags = fuzz_mount(data, size);
    if (flags < 0)
        return 0;
    fuzz_clear_dir(out);
    rec_merge_options o;
    rec_merge_options_init(&o);
    o.window = 8 + (unsigned)(flags >> 4); /* small windows reach the fallback rule */
    o.paper_rule = (flags >> 2) & 1;
    rec_merge_stats st;
    rec_error err;
    if (rec_merge_traces(FUZZ_MEMORY_DIR, out, &o, &st, &err) == 0)
        fuzz_walk_trace(out, (unsigned)flags);
    return 0;
}
