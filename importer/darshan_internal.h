/* darshan_internal.h: what the Darshan reader's files share. */
#ifndef DARSHAN_INTERNAL_H
#define DARSHAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_import.h"

/* Darshan's magic number, an int64 at byte 8 of every log. */
#define DL_MAGIC 6567223
/* The decompressed bytes of a region are at most this many (a corrupt
 * log must not make the reader allocate without bound). */
#define DL_REGION_MAX ((size_t)1 << 31)

/* Every allocation of a log, freed with it. */
void *dl_alloc(ri_darshan_log *log, size_t n);
char *dl_strndup(ri_darshan_log *log, const char *s, size_t n);

/* err = "LOG: " + the message; returns -1. */
int dl_fail(const ri_darshan_log *log, rec_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Fixed-width fields in the log's byte order. */
uint64_t dl_u64(const ri_darshan_log *log, const uint8_t *p);
uint32_t dl_u32(const ri_darshan_log *log, const uint8_t *p);
double dl_f64(const ri_darshan_log *log, const uint8_t *p);

/* The decompressed bytes of a region (what names it in messages: "POSIX
 * module"); an empty region gives none. */
int dl_region_bytes(ri_darshan_log *log, const uint8_t *file, size_t size, ri_darshan_region r,
                    const char *what, uint8_t **out, size_t *n, rec_error *err);

/* Decodes the modules the reader knows (darshan_modules.c). */
int dl_read_modules(ri_darshan_log *log, const uint8_t *file, size_t size, rec_error *err);

#endif
