/* recorder_h5skel.h: the structure of an HDF5 file a traced run read but
 * did not create (an input), so that a replay or a kernel can re-create it
 * before its run and the application's reads find the same objects at the
 * same addresses. The tracer captures one skeleton per input, once for all
 * of the run's processes, into the trace directory (docs/reference/format.md,
 * section 12); recorder-replay and recorder-codegen load them. Internal: not
 * installed. */
#ifndef RECORDER_H5SKEL_H
#define RECORDER_H5SKEL_H

#include <stddef.h>
#include <stdint.h>

/* The common file header's magic (its version is the trace format's). */
#define H5SKEL_MAGIC "RKH5"
/* A skeleton file of the trace directory: H5SKEL_PREFIX, then 16 hex digits. */
#define H5SKEL_PREFIX "h5skel-"
/* Attribute values up to this size are kept (their bytes, as stored). */
#define H5SKEL_MAX_VALUE 65536

/* Object kinds, the letters the kernels' tables use too. */
enum {
    H5SKEL_FILE = 'f',       /* the file's creation properties; value: the superblock version (1 byte) */
    H5SKEL_GROUP = 'g',      /* plist: its group creation properties */
    H5SKEL_NAMED_TYPE = 't', /* type */
    H5SKEL_DATASET = 'd',    /* type (or other: the named datatype it uses), space, plist (its dcpl) */
    H5SKEL_DATA = 'w',       /* name: a dataset whose data was written after later objects were made; its chunks */
    H5SKEL_ATTRIBUTE = 'a',  /* name: its object; other: its name; type, space, value */
    H5SKEL_HARD_LINK = 'l',  /* name: the link; other: the object's first name */
    H5SKEL_SOFT_LINK = 's',  /* name: the link; other: its target */
};

typedef struct h5skel_bytes {
    uint8_t *data;
    size_t len;
} h5skel_bytes;

typedef struct h5skel_object {
    char kind;
    char *name, *other; /* never NULL ("" when unused) */
    h5skel_bytes type, space, plist, value; /* H5Tencode, H5Sencode, H5Pencode; raw value */
    char *about;        /* one line for people ("8-byte float, 100 x 64, chunked 10 x 64, deflate 6") */
    uint64_t addr;      /* its object header's address (groups, named types, datasets); an attribute's: the
                         * continuation chunk of its object's header that holds it (0: the first chunk) */
    int64_t data_addr;  /* a dataset's first data block: contiguous data, its lowest chunk; -1: none */
    uint64_t storage;   /* bytes its data takes in the file */
    /* a chunked dataset's allocated chunks: each one's stored (filtered) size
     * and its first element's coordinates (ndims of them) */
    uint32_t ndims;
    uint64_t nchunks;
    uint64_t *chunk_size, *chunk_offset;
    int64_t corder; /* its link's creation order in a group that tracks it (netCDF-4 numbers variables so);
                     * -1: untracked, or no link (file, attribute and data rows) */
} h5skel_object;

typedef struct h5skel {
    char *path;           /* as the application named it when it opened it */
    uint64_t file_size;   /* bytes, when captured */
    uint64_t capture_ns;  /* what the capture cost the process that made it */
    size_t nobjects;
    h5skel_object *objects; /* the file row first, then by address; attributes after their object, links last */
} h5skel;

/* ---- capture (the tracer) ---- */

/* Reads the structure of the HDF5 file at path, with a read-only open of
 * its own (sec2 driver, no file locking): never an application's handle.
 * HDF5's error stack is silenced and cleared. 0, or -1 with err set. */
int h5skel_capture(const char *path, h5skel **out, char *err, size_t cap);

/* ---- the file ---- */

/* The skeleton file's name for an input path (no directory). */
void h5skel_file_name(const char *path, char *out, size_t cap);
/* The skeleton as the bytes of its file (malloc'ed), or NULL. */
uint8_t *h5skel_encode(const h5skel *s, size_t *len);
/* From a file's bytes; NULL with err naming `file` and the reason. */
h5skel *h5skel_decode(const void *bytes, size_t len, const char *file, char *err, size_t cap);
void h5skel_free(h5skel *s);

/* Every skeleton of a trace directory, in file name order; 0 and none when
 * there is none; -1 with err on a file that cannot be read. */
int h5skel_load_dir(const char *dir, h5skel ***out, size_t *n, char *err, size_t cap);
void h5skel_free_all(h5skel **all, size_t n);
/* The skeleton of the input whose normalized absolute path (as
 * rf_path_normalize with RF_PATH_ROOTED gives it) is key, or NULL. */
const h5skel *h5skel_find(h5skel *const *all, size_t n, const char *key);
/* Copies the skeleton files of trace directory src into dst (recorder-merge). */
int h5skel_copy_dir(const char *src, const char *dst, char *err, size_t cap);

/* ---- re-creation ---- */

/* Lowercase hex of bytes (malloc'ed, NUL-terminated). */
char *h5skel_hex(const h5skel_bytes *b);
/* A dataset's recorded chunks as text: its rank, then per chunk a space, its
 * first element's coordinates and its stored size, comma-separated ("1
 * 0,266 8192,270", as docs/reference/format.md's h5store files); "" when
 * none were recorded (malloc'ed). */
char *h5skel_chunks_text(const h5skel_object *o);
/* Creates the file at path from the skeleton, writing every dataset fully
 * with pattern data. 0, or -1 with err set. */
int h5skel_make(const h5skel *s, const char *path, char *err, size_t cap);

#endif
