/* recorder_import.h: logs other tools keep, read, and turned into traces.
 *
 * A Darshan log (format 3.00 to 3.41: Darshan 3.0 to 3.5) is read whole by
 * a reader of our own: its header, the job record with the executable and
 * the mount table, the name records (record id -> path), the counter
 * records of the POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_FILE and
 * PNETCDF_VAR modules (every module version,
 * mapped onto the current layout) and the segments of the DXT_POSIX and
 * DXT_MPIIO modules; zlib or bzip2 regions, logs of either byte order.
 * ri_import_darshan then writes a recorder-kit trace of it through the
 * format's writer (docs/user/recorder-import.md says what it infers).
 * Errors name the log and the reason, with the byte where it shows. */
#ifndef RECORDER_IMPORT_H
#define RECORDER_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Darshan's module ids, as its format numbers them since 3.41 (older logs
 * are renumbered to these). */
enum {
    RI_DARSHAN_NULL = 0,
    RI_DARSHAN_POSIX = 1,
    RI_DARSHAN_MPIIO = 2,
    RI_DARSHAN_H5F = 3,
    RI_DARSHAN_H5D = 4,
    RI_DARSHAN_PNETCDF_FILE = 5,
    RI_DARSHAN_PNETCDF_VAR = 6,
    RI_DARSHAN_BGQ = 7,
    RI_DARSHAN_LUSTRE = 8,
    RI_DARSHAN_STDIO = 9,
    RI_DARSHAN_DXT_POSIX = 10,
    RI_DARSHAN_DXT_MPIIO = 11,
    RI_DARSHAN_MDHIM = 12,
    RI_DARSHAN_APXC = 13,
    RI_DARSHAN_APMPI = 14,
    RI_DARSHAN_HEATMAP = 15,
    RI_DARSHAN_DFS = 16,
    RI_DARSHAN_DAOS = 17,
    RI_DARSHAN_KNOWN_MODULES = 18,
    RI_DARSHAN_MAX_MODULES = 64
};
enum { RI_DARSHAN_ZLIB = 0, RI_DARSHAN_BZIP2 = 1, RI_DARSHAN_NO_COMPRESSION = 2 };

/* Where a region is in the file (compressed bytes). */
typedef struct ri_darshan_region {
    uint64_t offset, length;
} ri_darshan_region;

/* A record of a counter module (POSIX, MPI-IO, STDIO, H5F, PNETCDF_FILE; and
 * H5D, PNETCDF_VAR: a dataset or variable, named "FILE:/NAME"): one file on one
 * rank, or on every rank (rank -1: Darshan reduced the records of a file
 * all ranks opened to one). Counters are in the current layout
 * (ri_darshan_counter_index); a counter the log's version lacks is -1, as
 * darshan-util sets it. */
typedef struct ri_darshan_record {
    uint64_t id;
    int64_t rank;
    uint64_t file_id; /* H5D, PNETCDF_VAR: the record id of the dataset's or variable's file (0:
                       * H5D version 1 kept none); 0 in the other modules */
    const int64_t *counters;
    const double *fcounters;
} ri_darshan_record;

/* One DXT access: bytes at offset (-1: unknown, DXT_MPIIO version 1),
 * seconds since the job started. */
typedef struct ri_darshan_segment {
    int64_t offset, length;
    double start, end;
} ri_darshan_segment;

/* A DXT record: one file on one rank, its writes then its reads, each in
 * the order they were made. */
typedef struct ri_darshan_dxt {
    uint64_t id;
    int64_t rank;
    int64_t shared; /* as the log says (-1: a file shared by every rank) */
    char hostname[65];
    uint64_t nwrites, nreads;
    const ri_darshan_segment *writes, *reads;
} ri_darshan_dxt;

typedef struct ri_darshan_module {
    uint32_t version; /* the module's own format version, 0 when absent */
    int partial;      /* the module ran out of memory: records are missing */
    ri_darshan_region region;
    size_t nrecords;
    ri_darshan_record *records; /* the counter modules */
    ri_darshan_dxt *dxt;        /* DXT_POSIX, DXT_MPIIO */
    unsigned ncounters, nfcounters;
} ri_darshan_module;

typedef struct ri_darshan_mount {
    const char *type, *path;
} ri_darshan_mount;

typedef struct ri_darshan_name {
    uint64_t id;
    const char *name;
} ri_darshan_name;

typedef struct ri_darshan_log {
    const char *path; /* as given, for messages */
    char version[9];  /* "3.41" */
    int major, minor;
    int swapped;            /* written on a machine of the other byte order */
    int compression;        /* RI_DARSHAN_ZLIB, ... */
    uint64_t partial_flags; /* bit m: module m ran out of memory */
    uint64_t header_size;
    ri_darshan_region job_region, name_region;
    /* the job record */
    int64_t uid, start_sec, start_nsec, end_sec, end_nsec, nprocs, jobid;
    const char *metadata; /* "key=value" lines */
    const char *exe;      /* the command line, as far as Darshan kept it */
    size_t nmounts;
    const ri_darshan_mount *mounts; /* in the log's order */
    size_t nnames;
    const ri_darshan_name *names; /* sorted by id */
    ri_darshan_module
        modules[RI_DARSHAN_MAX_MODULES]; /* decoded: POSIX, MPI-IO, STDIO, H5F, H5D, PNETCDF_*, DXT_*;
                                            others: region only */
    void *mem;                           /* the reader's allocations */
} ri_darshan_log;

/* Reads the log at path (or the n bytes at data, named name in messages).
 * NULL with err: "NAME: truncated region at byte N: ...", "NAME: not a
 * Darshan log: ...", "NAME: corrupt POSIX region: ..." */
ri_darshan_log *ri_darshan_open(const char *path, rec_error *err);
ri_darshan_log *ri_darshan_read(const void *data, size_t n, const char *name, rec_error *err);
void ri_darshan_free(ri_darshan_log *log);
/* 1 when the reader was built with libbz2 (bzip2 logs read). */
int ri_darshan_reads_bzip2(void);

/* The path of a record id, NULL when the log names none. */
const char *ri_darshan_name_of(const ri_darshan_log *log, uint64_t id);
/* "POSIX", "MPI-IO", "DXT_POSIX", ...; NULL past the known modules. */
const char *ri_darshan_module_name(unsigned module);
/* A counter of a counter module by its name ("POSIX_OPENS",
 * "MPIIO_F_OPEN_START_TIMESTAMP"): its index, *is_float set to whether it
 * is one of the fcounters; -1 when the module has none of that name. */
int ri_darshan_counter_index(unsigned module, const char *name, int *is_float);
const char *ri_darshan_counter_name(unsigned module, unsigned index, int is_float);
/* The job's start, in ns since the epoch. */
uint64_t ri_darshan_start_ns(const ri_darshan_log *log);

/* ---- a trace of a log ---- */
typedef struct ri_import_options {
    double time_resolution; /* seconds a tick; 0: 1e-7 */
} ri_import_options;

typedef struct ri_import_summary {
    uint32_t nranks;
    uint64_t records, inferred;              /* records written, and of them inferred */
    uint64_t posix_segments, mpiio_segments; /* DXT segments taken */
    uint64_t files;
    uint64_t stat_files; /* of them made from their counters alone (no DXT accesses) */
    uint64_t upper_calls, upper_nested; /* HDF5 calls placed; MPI-IO and POSIX calls nested beneath them (or PnetCDF's) */
    uint64_t pnetcdf_calls;             /* PnetCDF calls placed */
} ri_import_summary;

/* Writes DIR (created if missing, must hold no trace) as the trace of log:
 * with DXT, each rank's reads and writes in their order, the opens and
 * closes the counters imply placed around them, marked inferred; a file
 * DXT kept no access of (every file, without DXT), its calls made from its
 * counters alone, all marked inferred: as many of each as counted, sizes
 * in the access-size histogram's bins adding up to its bytes (the trace's
 * RECORDER_IMPORT_METHOD says how). What Darshan's HDF5 and PnetCDF
 * modules counted is said file by file (RECORDER_IMPORT_UPPER_LAYERS); a
 * file of the H5F module gets its HDF5 calls, inferred, the file's other
 * calls nested beneath (PnetCDF's are not placed yet). 0, or -1 with err. */
int ri_import_darshan(const ri_darshan_log *log, const char *dir, const ri_import_options *o,
                      ri_import_summary *sum, rec_error *err);

#ifdef __cplusplus
}
#endif
#endif
