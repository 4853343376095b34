/* import.h: what the two halves of recorder-import's trace of a Darshan
 * log share: the plan (import_plan.c: each rank's calls, DXT's seen ones and
 * the inferred ones placed around them) and its writing (import_write.c:
 * the calls as the function table's records). */
#ifndef IMPORT_H
#define IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_import.h"

typedef enum ri_call {
    RI_CALL_START, /* MPI_Init */
    RI_CALL_END,   /* MPI_Finalize */
    RI_CALL_OPEN,
    RI_CALL_CLOSE,
    RI_CALL_READ,
    RI_CALL_WRITE,
    /* a log without DXT: the calls its counters count besides */
    RI_CALL_SEEK,     /* lseek, fseek */
    RI_CALL_STAT,     /* stat of the file's path */
    RI_CALL_SYNC,     /* fsync, MPI_File_sync */
    RI_CALL_DATASYNC, /* fdatasync */
    RI_CALL_FLUSH,    /* fflush */
    RI_CALL_SIZE,     /* MPI_File_get_size, an lseek of the file's fd inside it */
    /* an HDF5 or PnetCDF call above a file's MPI-IO (or POSIX) calls: the
     * table's function of ri_event.sole, its arguments ri_plan.upper[aux]
     * (import_upper.c, import_upper_pnc.c) */
    RI_CALL_UPPER
} ri_call;

/* One call of one rank. */
typedef struct ri_event {
    uint64_t tstart, tend; /* ticks since the job started */
    uint64_t seq;          /* order of making: ties keep it */
    uint32_t file;         /* index into ri_plan.paths */
    uint8_t call;          /* ri_call */
    uint8_t layer;         /* REC_LAYER_POSIX or REC_LAYER_MPIIO */
    uint8_t depth;         /* 1: inside the MPI-IO call of the same file */
    uint8_t collective;    /* MPI-IO: the _all twin; an open over MPI_COMM_WORLD */
    uint8_t inferred;
    uint8_t stdio;  /* a FILE* call (fopen, fread, ...), POSIX layer */
    int64_t handle; /* the fd, FILE* or MPI_File id the open made */
    int64_t offset, length;
    int64_t flags, mode; /* opens: open(2) flags or MPI amode (fopen: RI_STDIO_*), and permission bits */
    uint8_t sole;        /* RI_CALL_UPPER: the function's sole role (REC_SOLE_*) */
    uint32_t aux;        /* RI_CALL_UPPER: its arguments, ri_plan.upper[aux] */
    uint64_t parent;     /* the seq + 1 of the call it is nested in, where that was made to hold it (0: any) */
} ri_event;

/* An upper-layer call's arguments, filled into its function's by kind in
 * argument order (ri_fill_upper): the first argument of a handle kind is
 * the subject, the others of that kind the lists' in turn. */
enum { RI_UPPER_DIMS = 5, RI_UPPER_ARRAYS = 4 };
typedef struct ri_upper {
    int64_t made, subject; /* the handle it makes (its return); its first argument */
    int64_t plists[3], spaces[2], type, cls, comm;
    int64_t flags;    /* H5_FACC, H5_XFER_MODE, H5_SELOP, H5_TCLASS, NC_MODE or NC_TYPE, whichever it takes */
    int64_t bytes;    /* its SIZE: the bytes moved, or a datatype's size */
    const char *name; /* its STRING: a dataset's, variable's or dimension's name */
    int64_t count;    /* its COUNT: a rank, a dimension's length, elements, requests */
    int64_t id;       /* its NC_VARID or NC_DIMID: the variable's or dimension's id in its file */
    int64_t datatype; /* its MPI_DATATYPE: the memory type of a PnetCDF data call */
    int64_t *list; /* its NC_REQUEST_ARRAY: nlist requests, then nlist statuses (ri_plan.lists) */
    uint32_t nlist;
    uint8_t arrlen[RI_UPPER_ARRAYS];
    int64_t arr[RI_UPPER_ARRAYS][RI_UPPER_DIMS]; /* its HSIZE_ARRAYs in turn (0 elements: NULL) */
} ri_upper;

/* fopen's modes, as ri_event.flags */
enum { RI_STDIO_R, RI_STDIO_W, RI_STDIO_RPLUS, RI_STDIO_WPLUS };

typedef struct ri_events {
    ri_event *v;
    size_t n, cap;
} ri_events;

typedef struct ri_plan {
    uint32_t nranks;
    size_t nfiles;
    const char **paths; /* the log's names, one a file */
    ri_events *ranks;   /* nranks of them, each sorted as a tracer appends: by end, inner calls first */
    uint64_t posix_segments, mpiio_segments, inferred;
    uint64_t world_files, self_files, posix_files, skipped_files;
    /* collective MPI-IO accesses the counters count that no round of
     * accesses of every rank matched: left independent (import_collective.c) */
    uint64_t coll_unmatched;
    /* files made from counters alone (no DXT accesses), and of them those
     * whose sizes could not follow the histogram, stdio ones, and how the
     * shared ones' ranks split them (stat_plan.c) */
    uint64_t stat_files, stat_even, stat_stdio, stat_partitioned, stat_replicated;
    /* the HDF5 layer's calls (import_upper.c): their arguments, and the
     * files and calls placed, the MPI-IO and POSIX calls nested beneath */
    ri_upper *upper;
    size_t nupper, upper_cap;
    char **names; /* the datasets', variables' and dimensions' names the calls point to */
    size_t nnames, names_cap;
    int64_t **lists; /* the request lists the calls point to */
    size_t nlists, lists_cap;
    uint64_t upper_files, upper_calls, upper_nested;
    uint64_t pnetcdf_files, pnetcdf_calls; /* the PnetCDF layer's (import_upper_pnc.c) */
} ri_plan;

/* What Darshan's HDF5 and PnetCDF modules counted, file by file, as one
 * line of the trace's metadata (import_layers.c); how many files. */
size_t ri_upper_layers(const ri_darshan_log *log, char *out, size_t cap);

/* The record of an upper-layer call: its arguments by kind (import_upper.c). */
struct rec_record;
void ri_fill_upper(const rec_func_desc *f, const ri_upper *u, int64_t path, int64_t info_null,
                   struct rec_record *r);

/* Numbers the PnetCDF calls' ncids and requests of each rank as the tracer
 * does, in the order of the rank's calls (sorted), per id space from
 * REC_HANDLE_DYNAMIC_BASE (import_upper_pnc.c); -1 out of memory. */
int ri_upper_pnc_renumber(ri_plan *p);

int ri_plan_build(const ri_darshan_log *log, double resolution, ri_plan *p, rec_error *err);
void ri_plan_free(ri_plan *p);
/* Writes the plan as the trace DIR (which must exist, empty of traces). */
int ri_plan_write(const ri_plan *p, const ri_darshan_log *log, const char *dir, double resolution,
                  ri_import_summary *sum, rec_error *err);

#endif
