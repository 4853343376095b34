/* replay.h: recorder-replay's internals, shared by its hand-written parts and
 * by the dispatch gen_replay writes from the function table. Internal.
 *
 * The replayer is an MPI program that runs under the tracer in tests, so its
 * own work must never look like application I/O: the trace is decoded and
 * the inputs are pre-created by a loader process forked before MPI_Init (the
 * tracer does not trace children), its own file system work uses raw system
 * calls, its MPI traffic PMPI_, and the HDF5 queries it needs to size buffers
 * go to libhdf5's own symbols (rp_h5). Only the replayed calls go through the
 * normal, interposable names. */
#ifndef RECORDER_REPLAY_H
#define RECORDER_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include <hdf5.h>
#include <mpi.h>
#include "rec_mpi_versions.h"

#include "recorder_functions.h"

#define RP_PATH_MAX 4096

/* ---- one record as the replayer sees it (decoded from the loader) ---- */
typedef struct rp_value {
    int64_t i;        /* INT; PATH: the id; ARRAY: unused */
    const char *s;    /* STR and PATH: NUL-terminated bytes (NULL: none) */
    uint32_t len;     /* STR: bytes; ARRAY: elements */
    const int64_t *a; /* ARRAY elements */
} rp_value;

typedef struct rp_rec {
    uint64_t tstart, tend;
    int64_t err;
    uint16_t func;
    uint8_t depth;
    uint8_t compatible; /* the trace's entry for func matches this build's table */
    uint8_t synthetic;  /* a handle the program made out of the tracer's sight, rebuilt (rec_record) */
    uint32_t thread;
    uint32_t seq; /* position in the rank's stream */
    rp_value args[REC_MAX_ARGS];
    rp_value ret;
} rp_rec;

/* ---- options ---- */
enum { RP_LAYERS_TOP = -1 }; /* else a rec_layer: replay that layer's calls */
typedef struct rp_options {
    const char *trace_dir;
    char prefix[RP_PATH_MAX]; /* absolute and normalized */
    int layers;               /* RP_LAYERS_TOP or REC_LAYER_* */
    double scale;             /* 0: asap; 1: faithful; else gaps scaled */
    int strict, verbose;
} rp_options;

/* ---- statistics, summed over ranks for the summary ---- */
#define RP_MAX_REASONS 256
typedef struct rp_skip_entry {
    uint16_t func;
    const char *reason;
    uint64_t count;
} rp_skip_entry;

typedef struct rp_stats {
    uint64_t replayed[REC_LAYER_COUNT], skipped[REC_LAYER_COUNT], filtered[REC_LAYER_COUNT];
    uint64_t mismatched[REC_LAYER_COUNT];
    uint64_t bytes_read[REC_LAYER_COUNT], bytes_written[REC_LAYER_COUNT];
    uint64_t mismatch_by_func[REC_FUNCTION_ID_LIMIT];
    uint64_t as_bytes; /* calls issued with their data as MPI_BYTE (rp_mpi_as_bytes) */
    uint64_t rebuilt;  /* rebuilt records replayed (their handles were made out of the tracer's sight) */
    uint64_t ordered;  /* calls that waited for another rank's (order.c) */
    size_t nskips;
    rp_skip_entry skips[RP_MAX_REASONS];
} rp_stats;

/* ---- the replay context of one rank ---- */
typedef struct rp_arena_block rp_arena_block;
typedef struct rp_unsynth rp_unsynth;

typedef struct rp_ctx {
    rp_options opt;
    int rank, nranks;
    size_t prefix_len;
    const char *reason;                      /* why the current call is skipped */
    char pathkey[REC_MAX_ARGS][RP_PATH_MAX]; /* the current call's paths, normalized, before re-rooting */
    /* per-call memory, released when the next call starts */
    rp_arena_block *arena;
    /* scratch buffers: IN data (pattern-filled) and OUT data */
    unsigned char *wbuf, *rbuf;
    size_t wcap, wfilled, rcap;
    size_t wnl; /* where the last write's closing newline is in wbuf (wnl_set) */
    int wnl_set;
    /* the current write's delimiters, when line reads showed its file's (text.c): text_n of them, at
     * text_at[i] - text_off in its bytes */
    int text_known, text_delim;
    const int64_t *text_at;
    size_t text_n;
    int64_t text_off;
    MPI_Status last_status;
    /* timing: trace ticks -> replay clock */
    double resolution;     /* seconds per tick */
    uint64_t anchor_ticks; /* the traced MPI_Init's end (or the first record) */
    int anchored;
    double anchor_now; /* the replay clock at that point */
    double orig_end;   /* seconds from the anchor to MPI_Finalize's start */
    int enum_counter;
    rp_unsynth *unsynth; /* HDF5 inputs that cannot be synthesized */
    int in_turn; /* holds the turn in a library that is not thread-safe (rp_take_turn) */
    rp_stats stats;
} rp_ctx;

typedef void (*rp_replay_fn)(rp_ctx *x, const rp_rec *r);
/* Filled by the generated files: one function per table entry, by id. */
void rp_register_posix(rp_replay_fn *table);
void rp_register_mpi(rp_replay_fn *table);
void rp_register_mpiio(rp_replay_fn *table);
void rp_register_hdf5(rp_replay_fn *table);
void rp_register_pnetcdf(rp_replay_fn *table); /* where built with PnetCDF */
void rp_register_netcdf(rp_replay_fn *table);  /* where built with netCDF */

/* from's counts added to into's (a thread's to the rank's). */
void rp_stats_add(rp_stats *into, const rp_stats *from);
/* The memory a context holds for its calls (its arena and scratch buffers), freed. */
void rp_ctx_release(rp_ctx *x);

/* ---- the call protocol of a generated function ----
 * convert arguments (any helper may set x->reason and ask to skip);
 * rp_begin (waits for the traced time); the real call; rp_end. */
void rp_skip(rp_ctx *x, const rp_rec *r);
void rp_begin(rp_ctx *x, const rp_rec *r);
/* ok: the replayed call succeeded; bytes: the data it moved. */
void rp_end(rp_ctx *x, const rp_rec *r, int ok, int64_t bytes);

/* The largest data buffer the replay allocates: a call that needs more is
 * skipped with that reason. */
#define RP_BUFFER_LIMIT ((size_t)1 << 32)

/* Per-call memory (zeroed). */
void *rp_alloc(rp_ctx *x, size_t n);
void rp_arena_reset(rp_ctx *x);
/* Scratch data: in = 1 for data the call reads (filled with a pattern). */
void *rp_scratch(rp_ctx *x, int in, size_t n);
/* A buffer a nonblocking call keeps until it completes (malloc'd). */
void *rp_owned(rp_ctx *x, int in, size_t n);
/* A NUL-terminated pattern string of n bytes (NULL when n < 0). */
char *rp_pattern_str(rp_ctx *x, int64_t n);
/* A NUL-terminated copy of a STR value ("" when absent). */
char *rp_str(rp_ctx *x, const rp_value *v);

/* ---- handles ---- */
/* The real handle for a recorded id (predefined or re-created); nonzero and
 * x->reason set when there is none. */
int rp_handle_in(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw);
/* Ids of the handles the replay makes for itself (a tuning set's lists, tune.c): no trace's. */
#define RP_HANDLE_OWN_BASE ((int64_t)1 << 50)
#define RP_HANDLE_OWN_COUNT 16
/* A new reduction for one the trace does not know (the program made it
 * before it was traced): commutative, of the stand-in function (gen_replay). */
uint64_t rp_untraced_op_raw(void);
/* This MPI's value of a named constant recorded canonically (functions/constants.def). */
int64_t rp_mpi_constant(unsigned kind, int64_t canonical);
/* A handle the call created: id (recorded) now means raw. */
void rp_handle_new(rp_ctx *x, unsigned kind, int64_t id, uint64_t raw, const char *pathkey);
/* The handle is gone (closed, freed, completed), every reference. */
void rp_handle_forget(rp_ctx *x, unsigned kind, int64_t id);
/* The handle of the id's latest reference, the one a destroying call frees
 * (rp_handle_in's otherwise). */
int rp_handle_latest(rp_ctx *x, unsigned kind, int64_t id, uint64_t *raw);
/* One more reference to the id's handle (H5Iinc_ref), one fewer (a close,
 * H5Idec_ref): the id is forgotten when none is left. */
void rp_handle_retain(rp_ctx *x, unsigned kind, int64_t id);
void rp_handle_drop(rp_ctx *x, unsigned kind, int64_t id);
/* The normalized path a handle was opened with (NULL if unknown). */
const char *rp_handle_path(rp_ctx *x, unsigned kind, int64_t id);
/* Buffers a nonblocking call keeps: freed when the handle is forgotten. */
void rp_handle_attach(rp_ctx *x, unsigned kind, int64_t id, void *buf);
/* The buffer a split collective's _begin attached to the file (NULL: none). */
void *rp_handle_pending(rp_ctx *x, unsigned kind, int64_t id);
void rp_handle_release(rp_ctx *x, unsigned kind, int64_t id);
void rp_handles_init(void);
/* After a call that completes requests: drop those that came back null. */
void rp_requests_settle(rp_ctx *x, const rp_value *ids, const MPI_Request *reqs, size_t n);

/* ---- paths ---- */
enum { RP_PATH_NORMAL = 0, RP_PATH_LINK_TARGET = 1, RP_PATH_NO_PARENT = 2 };
/* The re-rooted path of argument `arg` of r into *out (NULL when the
 * recorded path is absent); a relative path is joined to the DIRFD argument
 * before it, a symlink target resolved from the link. Nonzero with
 * x->reason set: skip the call. */
int rp_path(rp_ctx *x, const rp_rec *r, int arg, int mode, const char **out);

/* ---- arrays ---- */
/* A C array of a recorded ARRAY value, at least min_n elements (NULL when
 * the record holds none and min_n is 0). */
#define RP_ARRAY(x, v, elem_t, min_n)                                                                        \
    ({                                                                                                       \
        const rp_value *rp_av_ = (v);                                                                        \
        size_t rp_an_ = rp_av_->len > (size_t)(min_n) ? rp_av_->len : (size_t)(min_n);                       \
        elem_t *rp_ap_ = rp_an_ ? (elem_t *)rp_alloc((x), rp_an_ * sizeof(elem_t)) : NULL;                   \
        for (size_t rp_k_ = 0; rp_k_ < rp_av_->len; rp_k_++)                                                 \
            rp_ap_[rp_k_] = (elem_t)rp_av_->a[rp_k_];                                                        \
        rp_ap_;                                                                                              \
    })
/* Handle arrays: each id converted; missing requests become MPI_REQUEST_NULL. */
int rp_datatype_array(rp_ctx *x, const rp_value *v, MPI_Datatype **out);
MPI_Request *rp_request_array(rp_ctx *x, const rp_value *v, size_t min_n);
/* PnetCDF request ids: the live ones of the recorded ids, NC_REQ_NULL for calls not replayed. */
int *rp_nc_request_array(rp_ctx *x, const rp_value *v);
/* netCDF attribute or fill values: an aligned copy of the recorded bytes, zeros past them; NULL for none. */
void *rp_nc_values(rp_ctx *x, const rp_value *v);
/* netCDF attribute strings (NC_STRINGS) as the char * array a call takes: those recorded, then empty ones. */
void *rp_nc_attribute_strings(rp_ctx *x, const rp_value *v);
/* NC_STRING values of the recorded lengths (NULL for -1), of pattern characters; NULL for none. */
char **rp_nc_strings(rp_ctx *x, const rp_value *v);
/* netCDF's nc_vlen_t, as netcdf.h lays it out (h5fill.c checks where it sees netcdf.h). */
typedef struct rp_nc_vlen {
    size_t len;
    void *p;
} rp_nc_vlen;
/* Variable-length values of the recorded lengths (NC_VLEN_LENGTHS: the size of an element of their base
 * type, then each one's length in elements), of pattern elements; NULL for none or no room. */
rp_nc_vlen *rp_nc_vlens(rp_ctx *x, const rp_value *v);
/* PnetCDF varn's starts or counts: rows pointers into the recorded values, rows of them (NULL: none). */
MPI_Offset **rp_nc_offset_rows(rp_ctx *x, const rp_value *v, int64_t rows);
/* PnetCDF mput's buffers: as many pointers as the record's argument rows says (at least one), laid out
 * in one scratch buffer (zeros when in) as argument layout's distances say (all at one place when they
 * spread past the limit), each with room for argument bytes' value and, where counts >= 0, its row's
 * count of its type's span (types: the rows' datatypes); -1: no such argument. NULL past the limit. */
void **rp_buffer_rows(rp_ctx *x, const rp_rec *r, unsigned layout, int in, int rows, int bytes, int counts,
                      const MPI_Datatype *types);
/* struct iovec from the recorded lengths, over scratch data. */
struct iovec *rp_iovec(rp_ctx *x, const rp_value *v, int in);
/* Elements for an OUT array: the largest of the recorded count, the
 * length expression (when it can be evaluated before the call) and 64. */
size_t rp_out_len(const rp_value *v, long expr);
int64_t rp_array_bound(const rp_value *v);
/* The application passed MPI_STATUSES_IGNORE: every recorded status is -1. */
int rp_statuses_ignored(const rp_value *v);

/* ---- sizes the generated code and the hooks use ---- */
size_t rp_mpi_span(MPI_Datatype t); /* bytes one element of t may touch */
/* count elements of *type, in a buffer the generated code sizes as
 * max(1, count * per_count) x rp_mpi_span(*type) + 64 bytes: when no such
 * buffer can be given (it would exceed RP_BUFFER_LIMIT, or the type reaches
 * below its start) but the data fits, *count and *type become the same bytes
 * as MPI_BYTE (the replay writes a pattern: the memory layout of data does
 * not matter, only its bytes and their place in the file). Else unchanged. */
void rp_mpi_as_bytes(rp_ctx *x, const rp_rec *r, size_t per_count, int *count, MPI_Datatype *type);
size_t rp_h5d_span(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space);
size_t rp_h5a_span(hid_t attr, hid_t type);
size_t rp_h5_chunk_bytes(hid_t dset);
/* A buffer for HDF5 data of this type (variable-length strings get valid pointers). */
/* The memory of a recorded HDF5 value (H5_VALUE), references made in loc's
 * file, valid until the next one; NULL when the trace has none. */
const void *rp_h5_value(const rp_value *v, hid_t loc);
/* Where a replayed iteration stops: at the call of its operator the traced one
 * stopped at (calls), returning what stopped it (ret, the call's result);
 * never when the traced one went on to the end (ret 0). */
typedef struct rp_op_stop_at {
    int64_t calls, stop, ret;
} rp_op_stop_at;
void *rp_op_stop(rp_ctx *x, int64_t calls, int64_t ret);
/* An operator's return for its next call (data: an rp_op_stop, or NULL: 0). */
static inline int64_t rp_op_stop_next(void *data)
{
    rp_op_stop_at *s = data;
    return s && ++s->calls == s->stop ? s->ret : 0;
}
void *rp_h5_buffer(rp_ctx *x, int in, size_t bytes, hid_t type);
/* An H5Dwrite's variable-length data: the strings of the traced lengths (H5_STRING_LENGTHS, NULL for
 * -1), else the hvl_t of them (H5_VLEN_LENGTHS, as rp_nc_vlens makes), each at its element's place in
 * the buffer; buf where the trace recorded neither. */
void *rp_h5_vlens(rp_ctx *x, void *buf, const rp_value *strings, const rp_value *seqs);
/* What HDF5 allocated for the variable-length data (strings, sequences) a dataset read put in buf, freed
 * (H5Dvlen_reclaim over the selection the read filled); nothing for a type without them. */
void rp_h5_reclaim(hid_t dset, hid_t type, hid_t mem_space, hid_t file_space, void *buf);
/* An H5Dwrite's data: for a dataset whose filters the trace says stored a
 * ratio of its raw size, values that they store alike (h5fill.c); else pattern. */
const void *rp_h5_filtered(rp_ctx *x, hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space,
                           const void *pattern);
#ifdef RECORDER_HAVE_NETCDF
/* The data of a netCDF-4 write (its arguments; its buffer's elements as gen_nc_mem_traits gives them):
 * what its variable's filters store as they did in the trace, else fallback. */
const void *rp_nc_filtered(rp_ctx *x, int ncid, int varid, const size_t *start, const size_t *count,
                           const ptrdiff_t *stride, size_t size, int real, int is_signed, const void *fallback);
#endif
void *rp_h5_enum_value(rp_ctx *x, hid_t type);
/* A cache configuration of the current version; obj >= 0: obj's current one. */
void *rp_h5_mdc_config(rp_ctx *x, hid_t obj, int is_file);
/* The handles a skipped call would have made (handles.c). */
void rp_handles_not_made(const rec_func_desc *f, const rp_rec *r);
/* An HDF5 id that names nothing (kernels write STALE_HID(n) alike). */
#define RP_STALE_HID(n) ((int64_t)0x7f00000000000000 + (n))
long rp_fcntl_arg(rp_ctx *x, int cmd, long recorded);
/* A function the current headers do not declare, found the way the dynamic
 * linker would (so a preloaded tracer still sees the call). */
void *rp_symbol(const char *name);

/* ---- libhdf5's own functions, for the replayer's private queries ---- */
typedef struct rp_h5_fns {
    __typeof__(&H5Iis_valid) Iis_valid;
    __typeof__(&H5Sget_select_npoints) Sget_select_npoints;
    __typeof__(&H5Sget_simple_extent_npoints) Sget_simple_extent_npoints;
    __typeof__(&H5Sget_simple_extent_ndims) Sget_simple_extent_ndims;
    __typeof__(&H5Sclose) Sclose;
    __typeof__(&H5Dget_space) Dget_space;
    __typeof__(&H5Dget_type) Dget_type;
    __typeof__(&H5Dget_create_plist) Dget_create_plist;
    __typeof__(&H5Aget_space) Aget_space;
    __typeof__(&H5Tget_size) Tget_size;
    __typeof__(&H5Tget_class) Tget_class;
    __typeof__(&H5Tis_variable_str) Tis_variable_str;
    __typeof__(&H5Tclose) Tclose;
    __typeof__(&H5Pget_chunk) Pget_chunk;
    __typeof__(&H5Pclose) Pclose;
    __typeof__(&H5Pget_mdc_config) Pget_mdc_config;
    __typeof__(&H5Fget_mdc_config) Fget_mdc_config;
} rp_h5_fns;
extern rp_h5_fns rp_h5;
int rp_h5_init(char *err, size_t cap);

/* ---- timing ---- */
double rp_now(void); /* seconds, CLOCK_MONOTONIC */

/* ---- the HDF5 inputs no replay can synthesize (normalized paths) ---- */
void rp_unsynth_add(rp_ctx *x, const char *key);
int rp_unsynth_has(const rp_ctx *x, const char *key);

/* ---- messages: raw writes, so a traced replay never records them ---- */
void rp_say(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
