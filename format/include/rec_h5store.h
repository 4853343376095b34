/* rec_h5store.h: what HDF5's filters stored for the datasets a traced run
 * wrote, the trace's RANK.h5store files (merged.h5store in a merged trace;
 * docs/reference/format.md, section 13). One entry a dataset close. */
#ifndef RECORDER_H5STORE_H
#define RECORDER_H5STORE_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

typedef struct rec_h5store_entry {
    uint64_t stored;      /* bytes its chunks took in the file, after the filters */
    uint64_t chunks;      /* chunks allocated */
    uint64_t chunk_bytes; /* bytes of one chunk before the filters */
    char filters[128];    /* the pipeline's filter ids, comma-separated, in order */
    char *file;           /* the file's name as HDF5 reported it */
    char *dataset;        /* the dataset's path in the file */
    /* each chunk's first element's coordinates (rank of them) then its
     * stored size, rank + 1 numbers a chunk; nsizes 0 when not recorded */
    unsigned rank;
    size_t nsizes;
    uint64_t *sizes;
} rec_h5store_entry;

typedef struct rec_h5store {
    size_t n;
    rec_h5store_entry *e;
} rec_h5store;

/* Reads DIR's merged.h5store, or else every RANK.h5store (rank order), into
 * out, one entry per distinct line. A trace without any is empty, not an
 * error; a malformed line is an error naming the file and the line. */
int rec_h5store_read(const char *dir, rec_h5store *out, rec_error *err);
/* The same, adding to out what DIR's merged.h5store, or else ranks first ..
 * first + count - 1, hold (a block of the ranks; entries already in out are
 * not added again). */
int rec_h5store_read_ranks(const char *dir, uint32_t first, uint32_t count, rec_h5store *out, rec_error *err);
/* Adds the entries of an h5store file's text (name: for messages) to out. */
int rec_h5store_parse(const char *text, size_t len, const char *name, rec_h5store *out, rec_error *err);
/* Writes the entries as the file path (the merged trace's merged.h5store). */
int rec_h5store_write(const char *path, const rec_h5store *s, rec_error *err);
void rec_h5store_free(rec_h5store *s);
/* The entry's chunks as its file's field holds them, "RANK x,..,size ...";
 * NULL when it has none. Freed by the caller. */
char *rec_h5store_chunks_text(const rec_h5store_entry *e);
/* Stored over raw size (stored / (chunks x chunk_bytes)), or -1 when unknown. */
double rec_h5store_ratio(const rec_h5store_entry *e);

#endif
