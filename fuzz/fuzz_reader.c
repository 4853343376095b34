/* fuzz_reader: the reader over every file of a trace directory.
 * Input: a container (fuzz.h) holding recorder.meta, N.rec, N.meta and/or
 * merged.rec, merged.meta, served from memory; the trace is read as
 * recorder2text reads it. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int flags = fuzz_mount(data, size);
    if (flags >= 0)
        fuzz_walk_trace(FUZZ_MEMORY_DIR, (unsigned)flags);
    return 0;
}
