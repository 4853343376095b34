/* runtime.h: the tracer's configuration and life-cycle hooks. Internal. */
#ifndef RECORDER_RUNTIME_H
#define RECORDER_RUNTIME_H

#include <limits.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

#define RT_MAX_OPTIONS 16

/* RECORDER_AGGREGATE: a file per rank and part (off), one aggregate per node,
 * K aggregates of contiguous ranks; by default off below
 * RT_AGGREGATE_AUTO_RANKS ranks and per node from there on. */
enum { RT_AGGREGATE_OFF = 0, RT_AGGREGATE_NODE = -1, RT_AGGREGATE_AUTO = -2 };
#define RT_AGGREGATE_AUTO_RANKS 1024
#define RT_MAX_PREFIXES 64
/* The tracer's peephole window: MPI-IO through HDF5 repeats its dozens of
 * calls per transfer each some ten records after the last, beyond the
 * library's default of 3 (RECORDER_WINDOW). */
#define RT_WINDOW_DEFAULT 32

/* An HDF5 value (H5Awrite's, a fill value) is recorded up to this size by
 * default, RECORDER_ATTR_VALUE_MAX up to the largest, else not at all. */
#define RT_ATTR_VALUE_MAX (64u << 10)
#define RT_ATTR_VALUE_LARGEST (1u << 20)

typedef struct rt_config {
    char traces_dir[PATH_MAX]; /* RECORDER_TRACES_DIR, "" for the default */
    double time_resolution;    /* RECORDER_TIME_RESOLUTION, seconds per tick */
    unsigned window;           /* RECORDER_WINDOW */
    size_t buffer_size;        /* RECORDER_BUFFER_SIZE, bytes per block */
    int compression_level;     /* RECORDER_COMPRESSION_LEVEL, zstd's; 0: no compression */
    double flush_interval;     /* RECORDER_FLUSH_INTERVAL, seconds between time flushes; 0: full blocks only */
    int aggregate;             /* RECORDER_AGGREGATE: RT_AGGREGATE_* or K files (K > 0) */
    char stage_dir[PATH_MAX];  /* RECORDER_STAGE_DIR: where ranks keep their files until then */
    unsigned char layer_on[REC_LAYER_COUNT];
    int attr_values;          /* RECORDER_ATTR_VALUES: 0 keeps no attribute or fill value in the trace */
    size_t attr_value_max;    /* RECORDER_ATTR_VALUE_MAX: the largest value recorded, in bytes */
    /* RECORDER_EXCLUSION_FILE / RECORDER_INCLUSION_FILE path prefixes */
    char *exclude[RT_MAX_PREFIXES];
    size_t nexclude;
    char *include[RT_MAX_PREFIXES];
    size_t ninclude;
    size_t exclude_len[RT_MAX_PREFIXES], include_len[RT_MAX_PREFIXES]; /* measured once, at load */
    unsigned char exclude_keeps[RT_MAX_PREFIXES]; /* a "!" entry: its paths stay traced */
    char cwd[PATH_MAX]; /* to match relative paths against the prefixes */
    /* Started by an MPI launcher (PMI_RANK, ...): wait for MPI_Init. */
    int under_mpi_launcher;
    uint32_t launcher_rank, launcher_size;
    /* An MPI launcher itself (RECORDER_LAUNCHERS): never traced. */
    int is_launcher;
    char option_text[RT_MAX_OPTIONS][2][256];
    size_t noptions;
} rt_config;

void rt_config_load(rt_config *c);
size_t rt_config_options(const rt_config *c, rec_option *out, size_t max);
/* 1 if calls on this path are recorded. */
int rt_config_path_traced(const rt_config *c, const char *path);
extern rt_config *rt_active_config;

void rt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rt_handles_init(void);

/* ---- rebuilding handles the program used before any traced call made
 * them (rebuild.c; with the lock held) ---- */
/* Writes, marked as rebuilt, the calls that make handle `id` of this kind
 * equal to `value`. */
struct rt_call;
void rt_rebuild(struct rt_call *c, unsigned kind, uint64_t value, int64_t id);
/* Whether records can be written now. */
int rt_can_append(void);
/* Appends a rebuilt record (the caller sets synthetic). */
void rt_append_synthetic(const rec_record *r);
/* The id of a predefined handle value of this kind (1), or 0. */
int rt_handle_predefined(unsigned kind, uint64_t value, int64_t *id);
/* A failed MPI call's code as its error class's id (functions/handles.def). */
int64_t rt_mpi_error_class(int code);
/* The id the trace already has for a handle value (1), or 0: nothing is added. */
int rt_handle_known(unsigned kind, uint64_t value, int64_t *id);
/* Objects rebuilt for an operator are closed, as rebuilt records, when the
 * call that ran the operator returns (rt_commit asks while any is open). */
extern unsigned rt_nscoped;
void rt_close_scoped(struct rt_call *c);
/* A fresh id of the kind's space that stands for no real value (a handle
 * only rebuilt records use). */
int64_t rt_handle_phantom(unsigned kind);
/* The value of a predefined handle, or 0. */
uint64_t rt_handle_value(unsigned kind, int64_t id);
/* ---- what HDF5's filters stored (h5store.c) ---- */
/* hid_t without <hdf5.h>: HDF5 1.10's is int64_t. */
void rt_h5store_written(int64_t dset);
void rt_h5store_before_close(int64_t dset);
/* The rank's RANK.h5store; written (through io) when its stream closes. */
void rt_h5store_attach(const char *dir, uint32_t rank);
void rt_h5store_flush(const rec_io *io);
void rt_after_mpi_init(int ok);
/* The trace directory once this process writes into it, else NULL. */
const char *rt_trace_dir(void);
/* The same, after a program without MPI that has not yet created its trace
 * file creates it (takes the lock: call without it). */
const char *rt_trace_dir_now(void);
/* The C library's functions the tracer does its own I/O with, never its
 * wrappers: resolved once, before the first traced call. */
typedef struct rt_libc {
    int (*open)(const char *, int, ...);
    ssize_t (*write)(int, const void *, size_t);
    int (*close)(int);
    int (*mkdir)(const char *, mode_t);
    int (*unlink)(const char *);
    int (*stat)(const char *, struct stat *);
    int (*fstat)(int, struct stat *);
    ssize_t (*read)(int, void *, size_t);
    int (*rmdir)(const char *);
} rt_libc;
extern rt_libc rt_real;
/* Fills rt_real (the constructor does; a call made before it may too). */
void rt_real_resolve(void);
/* The wall clock when tracing started, ns since the epoch. */
uint64_t rt_start_wall_ns(void);
/* The same read at the coarse clock, whose ticks stamp files' times: a file
 * changed before that tick was changed before tracing started. */
uint64_t rt_start_tick_ns(void);
void rt_after_mpi_finalize(void);
struct rt_call;
/* Before the real MPI_Finalize: an aggregated trace is written now, while MPI runs. */
void rt_before_mpi_finalize(struct rt_call *c);

/* ---- aggregate files (aggregate.c; collective over MPI_COMM_WORLD) ---- */
/* Whether this run aggregates: 1, with the directory the rank writes its
 * files into until MPI_Finalize in stage; 0: a file per rank in the trace
 * directory (as well when a rank cannot make its stage directory). */
int rt_aggregate_begin(const rt_config *c, int rank, int size, char *stage, size_t cap);
/* Writes the ranks' staged files into DIR's aggregates and removes them;
 * when that fails anywhere, every rank moves its own into DIR instead. */
void rt_aggregate_finish(const rt_config *c, const char *stage, const char *dir, int rank, int size);
/* A trace directory used again (rank 0, at MPI_Init): the aggregates of an
 * earlier run would be read in place of this run's files, or be
 * overwritten only in part. */
void rt_aggregate_clear(const char *dir);
/* A rank that will not reach MPI_Finalize: its staged files go to DIR. */
void rt_aggregate_salvage(const char *stage, const char *dir, uint32_t rank);

#endif
