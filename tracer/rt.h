/* rt.h: the tracer runtime that the generated wrappers call. Internal.
 *
 * A wrapper (generated from the function table by gen_wrappers) runs:
 *   rt_enter       -> 0: not tracing this call (disabled, nested in the
 *                     tracer itself, layer off): call the real function only
 *   capture IN values (raw handles, scalars, arrays)
 *   rt_start; the real call; rt_stop (times, errno)
 *   capture OUT values and the return value
 *   rt_lock; turn raw handles and paths into per-rank ids; rt_commit
 * rt_commit appends the record, unlocks and restores errno, so the
 * application sees exactly what the real call did. */
#ifndef RECORDER_RT_H
#define RECORDER_RT_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

#include <mpi.h>
#include "late.h" /* mpi.h and hdf5.h, reached by name */
#include "rec_mpi_versions.h"

#include "recorder_format.h"

#define RT_TLS __attribute__((tls_model("initial-exec"))) __thread
/* What every traced call reads or writes (switches, clock anchors, lock,
 * writer), laid out together in a few cache lines: a system call between two
 * traced calls evicts lines, and each scattered one would be a miss. */
#define RT_HOT __attribute__((section(".data.rt_hot"), aligned(8)))
#define RT_LIKELY(x) __builtin_expect(!!(x), 1)
#define RT_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Small arrays live in the call; larger ones on the heap. */
#define RT_ARENA_WORDS 256
/* Strings (names, keys, modes) are recorded up to this many bytes. */
#define RT_MAX_STRING 4096
/* A netCDF classic file's header, into NC_HEADER field `field`: the first
 * bytes of path, as many as the header of the file ncid has (ncheader.c);
 * empty where it cannot be read or is larger than RT_MAX_ENCODED. */
struct rt_call;
void rt_nc_header(struct rt_call *c, unsigned field, int ncid, const char *path);
/* n netCDF strings, into NC_STRINGS field `field`: their count, then each one and a NUL while they fit
 * RT_MAX_NC_VALUES bytes (ncheader.c). */
void rt_nc_strings(struct rt_call *c, unsigned field, const char *const *strings, long long n);
/* The size of the file at path, -1 if none (the C library's stat); of a classic netCDF file only
 * (netCDF-4's, an HDF5 input, is made again from its skeleton in a layout of HDF5's own). */
int64_t rt_nc_file_size(const char *path);
int64_t rt_nc_classic_file_size(const char *path);

/* The most bytes of attribute or fill values an NC_VALUES field keeps (kernels write zeros past it). */
#define RT_MAX_NC_VALUES 65536
/* An encoded HDF5 object (H5Sdecode's buffer) is recorded up to this size,
 * else not at all: a replay of part of one would decode garbage. */
#define RT_MAX_ENCODED (1u << 20)

typedef struct rt_call {
    rec_record rec;
    uint64_t raw[REC_MAX_FIELDS]; /* raw handle values captured before the call */
    int saved_errno;
    uint8_t skip; /* an excluded path or handle: do not record */
    uint8_t layer;
    uint32_t outer_nest; /* the thread's rt_self.nest before this call */
    uint8_t outer_top;   /* the thread's rt_self.top before this call */
    uint64_t handles_made; /* rt_handles_made when the call began: later handles were made inside it */
    size_t arena_used;
    unsigned nheap; /* heap[0..nheap) are freed when the call ends */
    int64_t *heap[REC_MAX_FIELDS];
    int64_t arena[RT_ARENA_WORDS];
} rt_call;

typedef struct rt_thread {
    uint32_t busy;  /* inside the tracer: every traced call passes straight through */
    /* traced calls open on this thread since the application's last call
     * (bits 8 and up), and the layer of the innermost of them (bits 0-7) */
    uint32_t nest;
    uint32_t top;   /* the layer of the outermost of them (the application's call) */
    uint32_t id;    /* 0 for the first thread seen, then 1, 2, ... */
    uint32_t has_id;
    uint32_t child;  /* the id of the thread this one is starting (threads.c) */
    void *child_box; /* what that thread starts with, until it has started */
    int *errno_at; /* this thread's errno: saved and restored around every call, without a libc call */
} rt_thread;

extern RT_TLS rt_thread rt_self;
extern uint64_t rt_handles_made; /* handles the creating calls made so far (handles.c) */
extern volatile int rt_active;                 /* the tracer records */
extern unsigned char rt_layer_on[REC_LAYER_COUNT];
extern uint64_t rt_t0_ns;                      /* CLOCK_MONOTONIC at tick 0 */
extern double rt_ns_per_tick;

static inline uint64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The clock: CLOCK_MONOTONIC, or the CPU's time-stamp counter when it is
 * invariant (constant_tsc, nonstop_tsc): 9 ns a read instead of 20. TSC
 * readings are turned into ns through an anchor (a TSC reading, the
 * monotonic time then, ns per TSC tick) that rt_clock_anchor() refreshes
 * every 65536 records and as the run ages (clock.c), so the two clocks never
 * drift apart. */
typedef struct rt_anchor {
    uint64_t tsc;
    double ns;
    double ns_per_tsc;
    uint64_t ticks;        /* the trace's ticks at tsc */
    uint64_t ticks_per_tsc; /* ticks per TSC tick, in units of 2^-40 */
} rt_anchor;
extern int rt_use_tsc;
extern rt_anchor rt_anchors[2];
extern int rt_anchor_current;
extern uint64_t rt_next_anchor_ticks; /* UINT64_MAX without the TSC */
void rt_clock_anchor(void);
void rt_clock_init(void);

static inline uint64_t rt_ticks(void)
{
#if defined(__x86_64__)
    if (RT_LIKELY(rt_use_tsc)) {
        /* Fixed point, no floating point: this runs twice a traced call. */
        const rt_anchor *a = &rt_anchors[__atomic_load_n(&rt_anchor_current, __ATOMIC_ACQUIRE)];
        int64_t since = (int64_t)(__builtin_ia32_rdtsc() - a->tsc);
        return a->ticks + (since > 0 ? (uint64_t)(((unsigned __int128)(uint64_t)since * a->ticks_per_tsc) >> 40) : 0);
    }
#endif
    uint64_t ns = rt_now_ns() - rt_t0_ns;
    return rt_ns_per_tick == 100.0 ? ns / 100 : (uint64_t)((double)ns / rt_ns_per_tick);
}

uint32_t rt_thread_id(void);
uint32_t rt_thread_next_id(void); /* takes the next thread id */

static inline int *rt_errno(void)
{
    if (RT_UNLIKELY(!rt_self.errno_at))
        rt_self.errno_at = &errno;
    return rt_self.errno_at;
}

static inline int rt_enter(rt_call *c, unsigned func, unsigned layer)
{
    if (RT_UNLIKELY(!rt_active) || rt_self.busy || !rt_layer_on[layer])
        return 0;
    c->rec.func = (uint16_t)func;
    c->rec.synthetic = 0;
    c->rec.inferred = 0;
    uint32_t nest = rt_self.nest;
    /* libnetcdf calls its own nc_* API through its PLT (nc_create_par calls
     * nc_inq_*, nc_put_var1 nc_put_vara): inside an application's netCDF
     * call, a netCDF call is the library's own, and untraced. */
    if (layer == REC_LAYER_NETCDF && nest >> 8 && rt_self.top == REC_LAYER_NETCDF)
        return 0;
    /* A call of a layer not below the running call's (HDF5 under HDF5,
     * anything under POSIX) is the application's own code, called back by
     * the library (an iteration operator, a signal handler): an
     * application call, at depth 0, and the calls it makes below it. */
    c->outer_nest = nest;
    c->outer_top = (uint8_t)rt_self.top;
    /* ... unless a library above it made the call that runs the callback
     * (netCDF-4's H5Aiterate2 operators read attributes with H5Aopen): the
     * callback is that library's, and its calls are nested in its call.
     * PnetCDF calls back no application code, but calls its own API through
     * the dynamic linker (ncmpi_inq_dimlen calls ncmpi_inq_dim): nested too. */
    unsigned outer = nest & 0xff;
    int below = layer < outer || (nest >> 8 && layer < rt_self.top) ||
                (layer == outer && layer == REC_LAYER_PNETCDF && nest >> 8);
    unsigned depth = below ? nest >> 8 : 0; /* layer: 0 (POSIX) when depth is 0 */
    if (!depth)
        rt_self.top = layer;
    c->rec.depth = (uint8_t)(depth < 255 ? depth : 255);
    c->rec.thread = RT_LIKELY(rt_self.has_id) ? rt_self.id : rt_thread_id();
    c->skip = 0;
    c->layer = (uint8_t)layer;
    c->arena_used = 0;
    c->nheap = 0;
    c->handles_made = __atomic_load_n(&rt_handles_made, __ATOMIC_RELAXED);
    rt_self.nest = (depth + 1) << 8 | layer;
    rt_self.busy = 1; /* capturing values may call traced functions (H5S..., MPI_Comm_size) */
    return 1;
}

static inline void rt_start(rt_call *c)
{
    rt_self.busy = 0;
    c->rec.tstart = rt_ticks();
}

/* For OPAQUE functions: what the real call does inside stays untraced. */
static inline void rt_start_opaque(rt_call *c)
{
    c->rec.tstart = rt_ticks();
}

static inline void rt_stop(rt_call *c)
{
    c->saved_errno = *rt_errno();
    c->rec.tend = rt_ticks();
    rt_self.busy = 1;
}

/* The tracer's one lock (writer, handle maps, configuration): a futex
 * mutex whose uncontended path is one atomic instruction each way, inline in
 * every wrapper. rt_lock_word: 0 free, 1 held, 2 held with waiters. */
extern int rt_lock_word;
void rt_lock_wait(int seen);
void rt_unlock_wake(void);

static inline void rt_lock(void)
{
    int seen = 0;
    if (RT_UNLIKELY(
            !__atomic_compare_exchange_n(&rt_lock_word, &seen, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)))
        rt_lock_wait(seen);
}

static inline void rt_unlock(void)
{
    if (RT_UNLIKELY(__atomic_exchange_n(&rt_lock_word, 0, __ATOMIC_RELEASE) == 2))
        rt_unlock_wake();
}

/* An OPAQUE function whose layer is not traced: the calls made inside it
 * stay untraced all the same. 1 when this call made the thread busy. */
int rt_opaque_enter(void);
void rt_opaque_leave(int own);
/* After its hook ran under the lock: closes the trace if the hook asked, unlocks. */
void rt_opaque_done(void);
/* Appends the record (unless skipped), unlocks, closes the call, restores errno. */
void rt_commit(rt_call *c);

/* ---- values (call with the lock held) ---- */

/* The per-rank id of a handle: predefined, known, or new at first sight. */
int64_t rt_handle(rt_call *c, unsigned kind, uint64_t value);
/* A handle the call just created (a failed call passes ok = 0: id -1). */
int64_t rt_handle_new(rt_call *c, unsigned kind, uint64_t value, int ok);
/* The handle is gone (closed, freed): its value may come back as another. */
void rt_handle_forget(unsigned kind, uint64_t value);
/* An application function a library calls back (CALLBACK): 1, 2, ... in
 * the order the rank first saw it, 0 for NULL, never its address. */
int64_t rt_callback_id(uint64_t address);
/* threads.c: pthread_create's hooks (before and after the call), the id of
 * the thread a call created (its pthread_t; -1 if none) and of a pthread_t,
 * under the lock. */
void rt_thread_starting(void *(**start)(void *), void **arg);
void rt_thread_started(int ok);
int64_t rt_thread_created(uint64_t self, int ok);
int64_t rt_thread_of(uint64_t self);
/* One more reference to a handle (count > 0: the count the library reports). */
void rt_handle_retain(unsigned kind, uint64_t value, int64_t count);
/* One reference fewer (count >= 0: the count the library reports): the
 * handle is forgotten when none is left. */
void rt_handle_release(unsigned kind, uint64_t value, int64_t count);
/* A destroying call's subject is gone, if its value still names the handle of that id (taken before
 * the call: another thread may have been given the value since, for a handle of its own). */
void rt_handle_release_of(unsigned kind, uint64_t value, int64_t id);
/* The path's id; marks the call skipped when the path is excluded. */
int64_t rt_path(rt_call *c, const char *path);

/* An HDF5 file is about to be opened (h5input.c): the first process to see
 * a file the run did not create captures its structure into the trace
 * directory. -1: that failed, which rt_h5_input_opened reports once the
 * application's own open succeeded. */
int rt_h5_input_opening(const char *path);
void rt_h5_input_opened(int state);

/* Space for n array elements that lives as long as the call. */
int64_t *rt_array(rt_call *c, unsigned field, size_t n);

/* The helpers the table's length expressions name; a stream's position by
 * the C library's ftello, never its wrapper. */
off_t rt_stream_tell(FILE *stream);
#define REC_FTELLO rt_stream_tell
#include "table_helpers.h"

/* An MPI named constant's canonical value (functions/constants.def); any
 * other value of the kind as it is. Inline: at a wrapper's call the kind is
 * a constant, so only that kind's comparisons remain. */
static inline int64_t rt_mpi_constant(unsigned kind, int64_t native)
{
#define C(kind_, name, canonical)                                                                            \
    if (kind == REC_KIND_##kind_ && native == (int64_t)(name))                                               \
        return canonical;
#include "constants.def"
#undef C
    return native;
}

#endif
