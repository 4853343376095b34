/* darshan_make.h: Darshan logs the reader's tests write themselves: of any
 * format version and either byte order, from regions the test fills field
 * by field, zlib-compressed as Darshan compresses them (one stream a
 * region, or two back to back, as ranks write them). Also a log read back
 * whole, written again in the other byte order. */
#ifndef DARSHAN_MAKE_H
#define DARSHAN_MAKE_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_import.h"

typedef struct dm_buf {
    uint8_t *data;
    size_t len, cap;
} dm_buf;

void dm_put(dm_buf *b, const void *p, size_t n);
void dm_u64(dm_buf *b, uint64_t v, int swap);
void dm_u32(dm_buf *b, uint32_t v, int swap);
void dm_f64(dm_buf *b, double v, int swap);
void dm_free(dm_buf *b);

/* A log's parts, uncompressed. Modules are numbered as the version numbers
 * them (before 3.20 no H5D, before 3.41 no PNETCDF_VAR) and, before 3.41,
 * there are 16. */
typedef struct dm_log {
    const char *version; /* "3.41", "3.10", ... */
    int swap;            /* write the other byte order */
    int split_streams;   /* each region as two zlib streams */
    uint64_t partial;
    int64_t jobid;
    dm_buf job, names;
    dm_buf modules[RI_DARSHAN_MAX_MODULES];
    uint32_t versions[RI_DARSHAN_MAX_MODULES];
} dm_log;

/* The job region: the job record (times: start and end, seconds and
 * nanoseconds, the latter kept from 3.41 on), the exe, then
 * "\nTYPE\tPATH" a mount and a NUL. */
void dm_job(dm_log *l, int64_t nprocs, const int64_t times[4], const char *metadata, const char *exe,
            const char *const *mounts, size_t nmounts);
/* A name record (3.00: with a u32 length, no NUL). */
void dm_name(dm_log *l, uint64_t id, const char *name);

/* The file's bytes (malloc'ed). */
uint8_t *dm_write(const dm_log *l, size_t *n);

/* What log holds, as the parts of a 3.41 log (the modules the reader
 * decodes; the others left out), in the other byte order with swap; and
 * freeing the parts. */
void dm_of_log(const ri_darshan_log *log, int swap, dm_log *out);
void dm_release(dm_log *l);
/* dm_of_log(log, 1, ...) written. */
uint8_t *dm_swapped_copy(const ri_darshan_log *log, size_t *n);

#endif
