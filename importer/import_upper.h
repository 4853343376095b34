/* import_upper.h: what import_upper.c (the HDF5 layer's calls of a
 * Darshan log, and the session machinery both upper layers place their
 * calls with), import_upper_dset.c (a dataset's or variable's shape and
 * calls from its H5D or PNETCDF_VAR record; an upper call's record) and
 * import_upper_pnc.c (the PnetCDF layer's calls) share. */
#ifndef IMPORT_UPPER_H
#define IMPORT_UPPER_H

#include "import_build.h"
#include "import_stat.h"

/* A dimension's length, a type's size and the points of a row at most (a
 * corrupt record's larger ones are taken as 1). */
#define RI_UPPER_MAX_EXTENT ((int64_t)1 << 30)

/* One upper call being planned: its function (a sole role), its
 * arguments, the window its nested calls start in (data calls), the span
 * of the calls nested in it. */
enum { RI_K_NONE, RI_K_READ, RI_K_WRITE, RI_K_FOPEN, RI_K_FCLOSE };
typedef struct ri_slot {
    uint8_t sole, kind; /* REC_SOLE_*, RI_K_* */
    ri_upper u;
    double a0, a1; /* data calls: the window (seconds) their nested calls start in */
    uint64_t cs, ce;
    size_t nkids;
} ri_slot;

typedef struct ri_slots {
    ri_slot *v;
    size_t n, cap;
} ri_slots;

/* The rank being placed, its handle ids (the next one of each rank), the open file's handle. */
typedef struct ri_upper_ctx {
    builder *b;
    uint32_t rank;
    int64_t *next_hid;
    int64_t file_handle;
} ri_upper_ctx;

/* One session of a file's top calls on a rank: an open to its close. */
typedef struct ri_lower {
    size_t open, close; /* indices into the rank's events */
    size_t *mid;        /* the calls between, by start */
    size_t nmid;
    uint64_t t0, t1;
    int writes;
} ri_lower;

/* Room for one more of n elements of size bytes in *v (cap of them): 0, or -1 out of memory. */
int ri_grow(void *v, size_t *cap, size_t n, size_t size);
/* A new slot of the sole role and kind (RI_K_*), zeroed; NULL out of memory. */
ri_slot *ri_add_slot(ri_slots *s, unsigned sole, int kind);
/* The upper call's k-th array: n elements of v (v NULL: none). */
void ri_set_array(ri_upper *u, unsigned k, const int64_t *v, int n);
/* The id of the table's predefined handle of this kind and name, or -1. */
int64_t ri_predefined(unsigned kind, const char *name);
int64_t ri_new_hid(ri_upper_ctx *c);
/* 0, or -1 (the error said) when the table has no function of one of the n sole roles. */
int ri_require_soles(builder *b, const unsigned *soles, size_t n);
/* A copy of a name the plan keeps (NULL out of memory). */
const char *ri_keep_name(ri_plan *p, const char *name);
/* The sessions of the file's top calls on the rank, by start (*idx_out
 * holds their calls, *out the sessions: free both); (size_t)-1 out of memory. */
size_t ri_lower_sessions(ri_upper_ctx *c, const file_state *f, size_t **idx_out, ri_lower **out);
/* The upper session (of nsess) a call at t seconds goes to: the lower
 * session holding t, else the nearest. */
uint32_t ri_pick_session(const ri_lower *s, size_t nlow, size_t nsess, double t, const builder *b, int write);
/* Nests the lower sessions' calls (nlow of them, in time order) beneath the
 * slots (the data calls' windows, the open's and close's) and makes the
 * slots the rank's events at the layer; *prev: the end of the call before. */
int ri_emit_session(ri_upper_ctx *c, const file_state *f, ri_slots *s, const ri_lower *low, size_t nlow,
                    uint64_t *prev, unsigned layer);

/* For every file of the file module (H5F, PNETCDF_FILE) the plan has and
 * every rank with a record of it (its own, else the rank -1 one): place()
 * with that record and the member module's (H5D, PNETCDF_VAR) records of
 * the file (by their file record id; H5D 1's by their name), every rank's,
 * by id then rank; the ranks' handle ids from REC_HANDLE_DYNAMIC_BASE. */
typedef int (*ri_upper_place_fn)(ri_upper_ctx *c, file_state *f, const ri_darshan_record *rec,
                                 const ri_darshan_record **members, size_t n, void *arg);
int ri_upper_each_file(builder *b, unsigned file_module, unsigned member_module, ri_upper_place_fn place,
                       void *arg);

/* A dataset of the file as one rank sees it. */
typedef struct ri_dset {
    uint64_t id;
    const ri_darshan_record *rec; /* the rank's own, or the rank -1 one */
    uint32_t share_n, share_r;    /* the rank's place among the record's ranks */
    char name[256];
    int ndims, chunked, coll;
    int64_t dims[RI_UPPER_DIMS], chunk[RI_UPPER_DIMS], inner[RI_UPPER_DIMS], tsize;
    int64_t n[2];                            /* the record's reads, writes (every rank's) */
    int64_t *sizes[2];                       /* their sizes */
    int64_t *start[2];                       /* the first row of each */
    double win[2][2];                        /* read, write: first start, last end */
    int64_t opens;                           /* the rank's */
    int64_t mode_n[2][3];                    /* PnetCDF: the record's collective, independent, nonblocking reads, writes */
    int64_t space, type, dcpl, mem, memrows; /* handles made on this rank (0: not yet) */
    int created;
} ri_dset;

/* The dataset of an H5D record as a rank sees it (the record reduced to
 * rank -1 shared over nranks, the rank its share): its shape, type, chunks,
 * its calls' sizes and first rows, their windows, the rank's opens. */
int ri_upper_dataset(builder *b, uint32_t rank, const ri_darshan_record *rec, uint32_t nranks, ri_dset *d);
/* The same of a PNETCDF_VAR record (M: RI_DARSHAN_PNETCDF_VAR; no chunks). */
int ri_upper_variable(builder *b, uint32_t rank, const ri_darshan_record *rec, uint32_t nranks, unsigned M,
                      ri_dset *d);
void ri_upper_dataset_free(ri_dset *d);
/* A PNETCDF_VAR record's reads (write 0) or writes of a mode: 0 collective, 1 independent, 2 nonblocking. */
int64_t ri_upper_var_calls(const ri_darshan_record *rec, int write, int mode);


#endif
