/* fuzz_darshan: the Darshan log reader (importer/darshan_log.c and
 * darshan_modules.c), then the plan of a trace of what it read
 * (importer/import_plan.c), in memory.
 * Input: flags:u8, then a log as it is (bit 0 clear) or its parts (bit 0
 * set), written into a log here so that mutations reach the decoders past
 * zlib's checksums:
 *   part := slot:u8 version:u8 length:u16 (little-endian) bytes[length]
 * slot 0 is the job region, 1 the name records, 2 + m module m (modulo the
 * format's slots) of that module version; the format is (flags >> 4) % 5 of
 * 3.00, 3.10, 3.20, 3.21, 3.41; bit 1 writes the other byte order, bit 2
 * two zlib streams a region. Oracles: a refused log has a message naming
 * it; a plan's calls are, on every rank, in the order a tracer appends
 * them (by end). */
#include <stdlib.h>
#include <string.h>

#include "darshan_make.h"
#include "fuzz.h"
#include "import.h"

static const char *const formats[] = {"3.00", "3.10", "3.20", "3.21", "3.41"};
enum { MAX_PLANNED_RANKS = 64 };

static uint8_t *build_log(const uint8_t *data, size_t size, unsigned flags, size_t *n)
{
    dm_log l;
    memset(&l, 0, sizeof l);
    l.version = formats[(flags >> 4) % 5];
    l.swap = (flags >> 1) & 1;
    l.split_streams = (flags >> 2) & 1;
    unsigned slots = strcmp(l.version, "3.41") == 0 ? RI_DARSHAN_MAX_MODULES : 16;
    size_t at = 0;
    while (at + 4 <= size) {
        unsigned slot = data[at], version = data[at + 1];
        size_t len = (size_t)data[at + 2] | (size_t)data[at + 3] << 8;
        at += 4;
        if (len > size - at)
            len = size - at;
        dm_buf *b = slot == 0 ? &l.job : slot == 1 ? &l.names : &l.modules[(slot - 2) % slots];
        if (slot >= 2)
            l.versions[(slot - 2) % slots] = version;
        b->len = 0;
        dm_put(b, data + at, len);
        at += len;
    }
    uint8_t *out = dm_write(&l, n);
    dm_release(&l);
    return out;
}

/* Everything the reader gave, touched. */
static uint64_t walk(const ri_darshan_log *log)
{
    uint64_t sum = strlen(log->exe) + strlen(log->metadata);
    for (size_t i = 0; i < log->nmounts; i++)
        sum += strlen(log->mounts[i].type) + strlen(log->mounts[i].path);
    for (size_t i = 0; i < log->nnames; i++)
        sum += strlen(log->names[i].name) + (ri_darshan_name_of(log, log->names[i].id) != NULL);
    for (unsigned m = 0; m < RI_DARSHAN_KNOWN_MODULES; m++) {
        const ri_darshan_module *mod = &log->modules[m];
        for (size_t r = 0; r < mod->nrecords; r++) {
            if (mod->records) {
                sum += mod->records[r].file_id;
                for (unsigned c = 0; c < mod->ncounters; c++)
                    sum += (uint64_t)mod->records[r].counters[c];
                for (unsigned c = 0; c < mod->nfcounters; c++)
                    sum += mod->records[r].fcounters[c] > 0;
            } else {
                const ri_darshan_dxt *d = &mod->dxt[r];
                for (uint64_t s = 0; s < d->nwrites; s++)
                    sum += (uint64_t)d->writes[s].length;
                for (uint64_t s = 0; s < d->nreads; s++)
                    sum += (uint64_t)d->reads[s].length;
            }
        }
    }
    return sum;
}

static void check_plan(const ri_darshan_log *log)
{
    /* the upper layers' line of the trace's metadata: NUL-terminated within its buffer */
    char upper[512];
    size_t files = ri_upper_layers(log, upper, sizeof upper);
    if (strnlen(upper, sizeof upper) == sizeof upper || (files > 0) != (upper[0] != 0))
        abort();
    ri_plan p;
    rec_error err = {{0}};
    if (ri_plan_build(log, 1e-7, &p, &err) != 0) {
        if (strncmp(err.msg, "fuzz.darshan: ", 14) != 0 || !err.msg[14])
            abort(); /* a refusal names the log */
        return;
    }
    for (uint32_t r = 0; r < p.nranks; r++)
        for (size_t i = 1; i < p.ranks[r].n; i++)
            if (p.ranks[r].v[i].tend < p.ranks[r].v[i - 1].tend)
                abort(); /* out of the order a tracer appends in */
    ri_plan_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    unsigned flags = data[0];
    uint8_t *built = NULL;
    size_t n = size - 1;
    const uint8_t *log_bytes = data + 1;
    if (flags & 1)
        log_bytes = built = build_log(data + 1, size - 1, flags, &n);
    rec_error err = {{0}};
    ri_darshan_log *log = ri_darshan_read(log_bytes, n, "fuzz.darshan", &err);
    if (!log) {
        if (strncmp(err.msg, "fuzz.darshan: ", 14) != 0 || !err.msg[14])
            abort(); /* a refusal names the log and says why */
    } else {
        volatile uint64_t sum = walk(log);
        (void)sum;
        if (log->nprocs <= MAX_PLANNED_RANKS)
            check_plan(log);
        ri_darshan_free(log);
    }
    free(built);
    return 0;
}
