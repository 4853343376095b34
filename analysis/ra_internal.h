/* ra_internal.h: what the pieces of librecorder-analysis share privately. */
#ifndef RA_INTERNAL_H
#define RA_INTERNAL_H

#include "recorder_analysis.h"
#include "recorder_facts.h"

#include <stdint.h>
#include <stdlib.h>

/* ---- MPI datatypes and file views ----
 * A view tiles its filetype (facts: rf_type) from its displacement; when
 * the filetype's data is one contiguous block, accesses inside one instance
 * of it map to exact byte ranges. */
typedef struct ra_view {
    int64_t disp;
    int64_t esize; /* etype size, >= 1 */
    rf_type ft;
} ra_view;
void ra_view_default(ra_view *v);
int64_t ra_view_map(const ra_view *v, int64_t pos, int64_t bytes, int *exact);

/* ---- per-function plans: what the model reads from each record ---- */
enum {
    RA_SP_NONE = 0,
    RA_SP_LSEEK, /* returns the new position */
    RA_SP_FSEEK, /* sets it from offset and whence, returns 0 */
    RA_SP_FTELL, /* returns the position */
    RA_SP_REWIND,
    RA_SP_TRUNCATE, /* sets the file's size */
    RA_SP_SET_VIEW,
    RA_SP_MPI_SEEK,
    RA_SP_MPI_GETPOS,
    RA_SP_MPI_SETSIZE,
    RA_SP_MPI_GETSIZE,
    RA_SP_SHARED, /* data through the shared file pointer: offset unknown */
    RA_SP_TYPE_CONSTRUCT, /* an MPI datatype constructor (a TYPE_* shape) */
    RA_SP_TYPE_SIZE,
    RA_SP_TYPE_EXTENT,
    RA_SP_TYPE_OTHER
};

/* Handle spaces the model tracks. */
enum {
    RA_HS_NONE = 0,
    RA_HS_FD,
    RA_HS_STREAM,
    RA_HS_DIR,
    RA_HS_MPIFILE,
    RA_HS_HDF5,
    RA_HS_TYPE,
    RA_HS_NCFILE, /* a netCDF file id: the file its create or open named */
    RA_HS_COUNT
};

#define RA_MAX_CONSOLE_ARGS 4
typedef struct ra_plan {
    const rec_func_desc *f;
    uint8_t op;         /* ra_op of a successful call */
    uint8_t data;       /* REC_FN_DATA */
    uint8_t special;    /* RA_SP_* */
    uint8_t file_space; /* RA_HS_* of file_arg, RA_HS_NONE for a PATH */
    int8_t file_arg;    /* the argument naming the file, -1 */
    int8_t dirfd_arg;   /* the DIRFD a relative PATH is relative to, -1 */
    rf_args args;       /* offset, whence, size, derived bytes, ... (facts) */
    int8_t sp_args[3];  /* what the special reads: its arguments, by role (special_args in ra_plan.c) */
    int8_t mode_arg;    /* OFLAGS, STDIO_MODE or MPI_AMODE */
    int8_t name_arg;    /* STRING: an HDF5 object's name relative to its location */
    int8_t new_arg;     /* NEW out argument holding a created handle; -2: the return value */
    uint8_t new_space;  /* RA_HS_* of the created handle, NONE: not tracked */
    uint8_t new_kind;
    uint8_t destroys; /* RA_HS_* of the first argument it releases, NONE */
    uint8_t nconsole;
    int8_t console_args[RA_MAX_CONSOLE_ARGS];
} ra_plan;

/* Plans for every function of the trace's table, indexed by id. */
ra_plan *ra_plans_build(const rec_table *table);
static inline int ra_call_failed(const rec_func_desc *f, const rec_record *r)
{
    return rf_ret_status(f, r->ret.i) == 0;
}
int ra_kind_space(unsigned kind);

/* ---- the trace ---- */
struct ra_trace {
    rec_trace *rt;
    const rec_table *table;
    uint32_t nranks;
    double resolution;
    ra_plan *plans;
    /* interned paths */
    char **paths;
    size_t npaths, cap_paths;
    ra_map path_index; /* hash of the path -> index + 1 (collisions chain through path_next) */
    int *path_next;
    double *rank_offset; /* NaN until computed */
    uint64_t *rank_records;
};

#endif
