/* runtime.c: the tracer's life cycle.
 *
 * Loaded with LD_PRELOAD, it starts recording at its constructor. Records
 * are buffered by a deferred writer until the rank is known: at MPI_Init for
 * MPI programs (rank 0 picks the trace directory and broadcasts it), at once
 * for an MPI program started without a launcher (rank 0 of 1), and as late as
 * can be for a program without MPI (see claim_directory). The trace is
 * closed at MPI_Finalize, or at exit for programs that never call it; an MPI
 * program that exits without MPI_Finalize leaves every record written but
 * no N.meta, so readers report the rank as incomplete. The tracer's own I/O
 * goes through the real libc functions and its MPI traffic through PMPI_,
 * so neither ever shows in the trace. */
#define _GNU_SOURCE
#include "runtime.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "wrapper_prelude.h"

RT_TLS rt_thread rt_self;
RT_HOT volatile int rt_active;
RT_HOT unsigned char rt_layer_on[REC_LAYER_COUNT] = {1, 1, 1, 1, 1, 1};
uint64_t rt_t0_ns;
double rt_ns_per_tick = 100.0;

RT_HOT int rt_lock_word;
RT_HOT static rec_writer *writer;
static rt_config config;
static uint64_t start_wall_ns;
/* The same start at the coarse clock's tick, the clock file systems stamp
 * modification times with. */
static uint64_t start_tick_ns;
static int mpi_started, warned;
RT_HOT static int finalize_pending;
/* A program without MPI that has not yet created its trace file. */
RT_HOT static int claim_later;
static int program_has_mpi;
/* An aggregated trace (aggregate.c): the rank's files wait in stage_dir. */
static int aggregating, world_rank, world_size;
static char stage_dir[PATH_MAX];
static uint32_t next_thread_id;

/* ---- real functions ---- */

rt_libc rt_real;

void rt_warn(const char *fmt, ...)
{
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n > sizeof msg - 2)
        n = sizeof msg - 2;
    msg[n++] = '\n';
    ssize_t (*w)(int, const void *, size_t) = rt_real.write ? rt_real.write : write;
    if (w(2, msg, (size_t)n) < 0) { /* stderr is gone: nowhere to report */
    }
}

uint32_t rt_thread_next_id(void)
{
    return __atomic_fetch_add(&next_thread_id, 1, __ATOMIC_RELAXED);
}

uint32_t rt_thread_id(void)
{
    rt_self.id = rt_thread_next_id();
    rt_self.has_id = 1;
    return rt_self.id;
}

/* Contended: mark the lock as having waiters and sleep until it is free
 * (the mutex of Drepper's "Futexes Are Tricky"). */
void rt_lock_wait(int seen)
{
    int saved_errno = errno; /* futex fails with EAGAIN when the lock changed meanwhile */
    if (seen != 2)
        seen = __atomic_exchange_n(&rt_lock_word, 2, __ATOMIC_ACQUIRE);
    while (seen != 0) {
        syscall(SYS_futex, &rt_lock_word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
        seen = __atomic_exchange_n(&rt_lock_word, 2, __ATOMIC_ACQUIRE);
    }
    errno = saved_errno;
}

void rt_unlock_wake(void)
{
    int saved_errno = errno;
    syscall(SYS_futex, &rt_lock_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    errno = saved_errno;
}

/* ---- the trace directory and metadata ---- */

static int make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (rt_real.mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return rt_real.mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void default_dir(char *out, size_t cap, long pid)
{
    time_t now = (time_t)(start_wall_ns / 1000000000ull);
    struct tm tm;
    localtime_r(&now, &tm);
    char stamp[64];
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    snprintf(out, cap, "recorder-traces/%s-%ld", stamp, pid);
}

static int write_global_meta(const char *dir, uint32_t nranks)
{
    rec_option opts[RT_MAX_OPTIONS];
    size_t n = rt_config_options(&config, opts, RT_MAX_OPTIONS);
    rec_trace_info info = {.nranks = nranks,
                           .time_resolution = config.time_resolution,
                           .start_time_ns = start_wall_ns,
                           .window = config.window,
                           .noptions = n,
                           .options = opts};
    rec_io io = {rt_real.open, rt_real.write, rt_real.close};
    rec_error err;
    if (rec_write_global_metadata(dir, &info, NULL, &io, &err) != 0) {
        rt_warn("recorder: %s: tracing disabled", err.msg);
        return -1;
    }
    return 0;
}

static char trace_dir[PATH_MAX];

const char *rt_trace_dir(void)
{
    return trace_dir[0] && writer ? trace_dir : NULL;
}

uint64_t rt_start_wall_ns(void)
{
    return start_wall_ns;
}

uint64_t rt_start_tick_ns(void)
{
    return start_tick_ns;
}

/* Tracing stops for good, nothing more written: the program runs on. */
static void discard_writer(void)
{
    if (writer)
        rec_writer_discard(writer);
    writer = NULL;
    rt_active = 0;
}

static void schedule_flush(uint64_t now_ticks);

/* Creates the rank's trace file; on failure tracing stops, the program runs on. */
static int attach(const char *dir, uint32_t rank)
{
    rec_error err;
    int rc = rec_writer_attach(writer, dir, rank, &err);
    if (rc == 0) {
        snprintf(trace_dir, sizeof trace_dir, "%s", dir);
        schedule_flush(rt_ticks());
    }
    rt_h5store_attach(dir, rank);
    if (rc != 0) {
        /* Busy: an exec'd child of a traced process; it stays untraced, quietly. */
        if (rc != REC_WRITER_BUSY)
            rt_warn("recorder: %s: tracing disabled", err.msg);
        discard_writer();
    }
    return rc;
}

/* The bytes of dir/name (NULL when absent or unreadable; *n: their count). */
static uint8_t *read_trace_file(const char *dir, const char *name, size_t *n)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = rt_real.open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    enum { MOST = 4 << 20 }; /* a function table: tens of kilobytes */
    struct stat st;
    size_t size = rt_real.fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < MOST ? (size_t)st.st_size : MOST;
    uint8_t *data = malloc(size);
    ssize_t got;
    *n = 0;
    while (data && *n < size && (got = rt_real.read(fd, data + *n, size - *n)) > 0)
        *n += (size_t)got;
    rt_real.close(fd);
    return data;
}

/* The rank count of the trace already in dir (0: none or unreadable), and
 * when it started. */
static uint32_t trace_already_in(const char *dir, uint64_t *started_ns)
{
    size_t n;
    uint8_t *data = read_trace_file(dir, "recorder.meta", &n);
    uint32_t nranks = 0;
    if (!data || rec_global_peek(data, n, &nranks, started_ns) != 0)
        nranks = 0;
    free(data);
    return nranks;
}

/* The records of rank 0 of the trace in dir (0: none, unfinished or unreadable). */
static uint64_t records_already_in(const char *dir)
{
    size_t n;
    uint8_t *data = read_trace_file(dir, "0.meta", &n);
    uint64_t records = 0;
    if (!data || rec_rank_peek(data, n, &records) != 0)
        records = 0;
    free(data);
    return records;
}

/* When process pid started, in clock ticks since boot (/proc/PID/stat's 22nd
 * field); 0 when unknown. */
static unsigned long long process_start_ticks(long pid)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%ld", pid);
    size_t n;
    char *data = (char *)read_trace_file(dir, "stat", &n);
    unsigned long long ticks = 0;
    char *end = data && n ? memrchr(data, ')', n) : NULL; /* the name may hold spaces and ")" */
    if (end && (size_t)(end - data) + 2 < n) {
        data[n - 1] = 0;
        char *p = end + 2; /* field 3, the state */
        for (int field = 3; field < 22 && p; field++)
            p = strchr(p, ' '), p = p ? p + 1 : NULL;
        if (p)
            ticks = strtoull(p, NULL, 10);
    }
    free(data);
    return ticks;
}

/* The earliest this process's parent can have started, on the clock of
 * start_wall_ns (process start times count whole ticks); 0 when unknown. */
static uint64_t parent_began_ns(void)
{
    unsigned long long self = process_start_ticks(getpid()), parent = process_start_ticks(getppid());
    long hz = sysconf(_SC_CLK_TCK);
    if (!self || !parent || parent > self || hz <= 0)
        return 0;
    uint64_t before = (self - parent + 1) * (1000000000ull / (unsigned long long)hz);
    return start_wall_ns > before ? start_wall_ns - before : 1;
}

/* Whether the trace in dir holds rank's records from a program begun after
 * `since`: with this process's parent's start, a job script's application
 * (this process being the script, or a program the script ran after it),
 * not a trace an earlier run left there. The rank's file tells by when it
 * was last written, not the trace's start: that is rank 0's, which under load
 * can begin before this rank's job script does. */
static int rank_traced_since(const char *dir, uint32_t rank, uint64_t since)
{
    struct stat st;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%u.rec", dir, rank);
    int has_rank = rt_real.stat(path, &st) == 0;
    if (!has_rank) {
        snprintf(path, sizeof path, "%s/aggregate.0", dir);
        has_rank = rt_real.stat(path, &st) == 0;
    }
    uint64_t written = has_rank ? (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec : 0;
    uint64_t started = 0;
    return since && has_rank && trace_already_in(dir, &started) && written > since;
}

/* The same, for the trace directory given, or for any trace of the default
 * place (./recorder-traces/): the application's is named after its rank 0. */
static int rank_traced_within_parent(uint32_t rank)
{
    uint64_t since = parent_began_ns();
    if (!since)
        return 0;
    if (config.traces_dir[0])
        return rank_traced_since(config.traces_dir, rank, since);
    DIR *traces = opendir("recorder-traces");
    struct dirent *e;
    int found = 0;
    while (traces && !found && (e = readdir(traces))) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "recorder-traces/%s", e->d_name);
        found = e->d_name[0] != '.' && rank_traced_since(dir, rank, since);
    }
    if (traces)
        closedir(traces);
    return found;
}

static void rt_stop_tracing(void);
static void close_writer(int complete, int quiet);

static void claim_directory_now(void);

/* Creates the trace of a program started without an MPI launcher (rank 0
 * of 1; lock held). An MPI program does so at its start. A program without
 * MPI does so only once it has something to keep: its first full block, its
 * first HDF5 input, or its exit. Until then RECORDER_TRACES_DIR is free for
 * the programs it runs: `timeout 600 mpirun ...` or `bash job.sh` traced the
 * wrapper into the directory and held rank 0's file, and the application's
 * rank 0 went untraced. A trace begun there after this program started is
 * one of them: it is kept when it is an MPI run's or holds at least as many
 * records (a wrapper gives way to its application; an application that ran
 * `mkdir` does not give way to it). (A program without MPI never writes into
 * an MPI run's trace begun before it either: a job script that exports
 * LD_PRELOAD and RECORDER_TRACES_DIR runs `ls` after `mpirun`; the
 * constructor sees to that, while stderr is still open.) */
static void claim_directory(void)
{
    claim_later = 0;
    if (!writer)
        return;
    /* its own calls (flock, ftruncate) pass straight through: outside a
     * wrapper they would be traced, and wait for the lock held here */
    uint32_t busy = rt_self.busy;
    rt_self.busy = 1;
    claim_directory_now();
    rt_self.busy = busy;
}

static void claim_directory_now(void)
{
    char dir[PATH_MAX];
    if (config.traces_dir[0]) {
        uint64_t started = 0;
        uint32_t nranks = program_has_mpi ? 0 : trace_already_in(config.traces_dir, &started);
        if (nranks && started > start_wall_ns &&
            (nranks > 1 || records_already_in(config.traces_dir) >= rec_writer_records(writer))) {
            discard_writer();
            return;
        }
        snprintf(dir, sizeof dir, "%s", config.traces_dir);
    } else {
        default_dir(dir, sizeof dir, (long)getpid());
    }
    if (make_dirs(dir) != 0) {
        rt_warn("recorder: %s: cannot create the trace directory: %s: tracing disabled", dir, strerror(errno));
        discard_writer();
        return;
    }
    if (attach(dir, 0) == 0 && write_global_meta(dir, 1) != 0) {
        /* records that no recorder.meta describes are unreadable: write none */
        discard_writer();
    }
}

const char *rt_trace_dir_now(void)
{
    if (claim_later) {
        rt_lock();
        if (claim_later)
            claim_directory();
        rt_unlock();
    }
    return rt_trace_dir();
}

/* Called from the MPI_Init/MPI_Init_thread wrappers (lock held). */
void rt_after_mpi_init(int ok)
{
    if (!ok || !writer)
        return;
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    mpi_started = 1;
    /* A rank that exits without MPI_Finalize writes its trace at once, before
     * the exit handlers the MPI library registered in MPI_Init run (they are
     * called last-registered first): under mpiexec the first rank to end can
     * get the others killed, and the destructor came too late for them. */
    static int exit_hook;
    if (!exit_hook++)
        atexit(rt_stop_tracing);
    if (rec_writer_attached(writer)) /* started as a singleton: already rank 0 of 1 */
        return;
    char dir[PATH_MAX] = {0};
    if (rank == 0) {
        if (config.traces_dir[0])
            snprintf(dir, sizeof dir, "%s", config.traces_dir);
        else
            default_dir(dir, sizeof dir, (long)getpid());
        if (make_dirs(dir) != 0) {
            rt_warn("recorder: %s: cannot create the trace directory: %s: tracing disabled", dir, strerror(errno));
            dir[0] = 0;
        } else if (rt_aggregate_clear(dir), write_global_meta(dir, (uint32_t)size) != 0) {
            /* without recorder.meta no rank's records can be read, so no
             * rank writes any (and only rank 0 warns, once) */
            dir[0] = 0;
        }
    }
    /* Also a barrier: no rank creates its file before the directory exists. */
    PMPI_Bcast(dir, sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!dir[0]) {
        discard_writer();
        return;
    }
    world_rank = rank;
    world_size = size;
    aggregating = rt_aggregate_begin(&config, rank, size, stage_dir, sizeof stage_dir);
    attach(aggregating ? stage_dir : dir, (uint32_t)rank);
    snprintf(trace_dir, sizeof trace_dir, "%s", dir); /* where h5skel files go, aggregating or not */
}

void rt_before_mpi_finalize(rt_call *c)
{
    if (!aggregating)
        return;
    aggregating = 0;
    rt_lock();
    /* The record of MPI_Finalize ends here: what follows is the tracer's. */
    if (c && writer && !c->skip) {
        rec_error err;
        c->rec.tend = rt_ticks();
        c->rec.ret.i = 0;
        c->rec.err = 0;
        if (rec_writer_append(writer, &c->rec, &err) != 0 && !warned++)
            rt_warn("recorder: %s", err.msg);
    }
    if (c)
        c->skip = 1;
    close_writer(1, 0);
    rt_unlock();
    rt_aggregate_finish(&config, stage_dir, trace_dir, world_rank, world_size);
}

void rt_after_mpi_finalize(void)
{
    finalize_pending = 1;
}

/* quiet: after a failure already reported (one warning per process). */
static void close_writer(int complete, int quiet)
{
    if (!writer)
        return;
    rec_error err;
    rt_h5store_flush(&(rec_io){rt_real.open, rt_real.write, rt_real.close});
    int rc = complete ? rec_writer_close(writer, &err) : rec_writer_abandon(writer, &err);
    if (rc != 0 && !quiet)
        rt_warn("recorder: %s", err.msg);
    writer = NULL;
    rt_active = 0;
}

RT_HOT static uint32_t commits;
/* When the records buffered since the last block go to the file whatever
 * their amount (RECORDER_FLUSH_INTERVAL), so that a killed run keeps them. */
RT_HOT static uint64_t next_flush_ticks = UINT64_MAX;

static void schedule_flush(uint64_t now_ticks)
{
    double ticks = config.flush_interval * 1e9 / rt_ns_per_tick;
    next_flush_ticks = config.flush_interval > 0 && ticks < 1.8e19 ? now_ticks + (uint64_t)ticks : UINT64_MAX;
}

/* The buffered records to the file now: at most one interval's calls are lost to a kill. */
static void flush_by_time(uint64_t now_ticks)
{
    rec_error err;
    if (writer && rec_writer_attached(writer) && rec_writer_flush(writer, &err) != 0) {
        if (!warned++)
            rt_warn("recorder: %s: tracing stops here, the program runs on", err.msg);
        close_writer(0, 1);
    }
    schedule_flush(now_ticks);
}

void rt_commit(rt_call *c)
{
    if (RT_UNLIKELY(rt_nscoped))
        rt_close_scoped(c); /* before c's own record: the operator's calls come first */
    if (!c->skip && writer) {
        rec_error err;
        if (RT_UNLIKELY(++commits % 65536 == 0 || c->rec.tend >= rt_next_anchor_ticks))
            rt_clock_anchor();
        if (rec_writer_append(writer, &c->rec, &err) != 0) {
            if (!warned++)
                rt_warn("recorder: %s: tracing stops here, the program runs on", err.msg);
            /* a writer whose write failed is abandoned quietly: abandoning it
             * fails again, and the one warning has been given */
            close_writer(0, 1);
        } else if (RT_UNLIKELY(claim_later) && commits % 64 == 0 && rec_writer_bytes(writer)) {
            claim_directory(); /* a block is full: it goes to the file (asked every 64 records) */
        } else if (RT_UNLIKELY(c->rec.tend >= next_flush_ticks)) {
            flush_by_time(c->rec.tend);
        }
    }
    if (finalize_pending) {
        finalize_pending = 0;
        close_writer(1, 0);
    }
    for (unsigned i = 0; i < c->nheap; i++)
        free(c->heap[i]);
    rt_unlock();
    rt_self.nest = c->outer_nest;
    rt_self.top = c->outer_top;
    rt_self.busy = 0;
    *rt_errno() = c->saved_errno;
}

int rt_opaque_enter(void)
{
    if (!rt_active || rt_self.busy)
        return 0;
    rt_self.busy = 1;
    return 1;
}

void rt_opaque_leave(int own)
{
    if (own)
        rt_self.busy = 0;
}

void rt_opaque_done(void)
{
    if (finalize_pending) {
        finalize_pending = 0;
        close_writer(1, 0);
    }
    rt_unlock();
}

int rt_can_append(void)
{
    return writer != NULL && rt_active;
}

void rt_append_synthetic(const rec_record *r)
{
    rec_error err;
    if (writer && rec_writer_append(writer, r, &err) != 0) {
        if (!warned++)
            rt_warn("recorder: %s: tracing stops here, the program runs on", err.msg);
        close_writer(0, 1);
    }
}

int64_t *rt_array(rt_call *c, unsigned field, size_t n)
{
    if (c->arena_used + n <= RT_ARENA_WORDS) {
        int64_t *p = c->arena + c->arena_used;
        c->arena_used += n;
        return p;
    }
    (void)field;
    int64_t *p = c->nheap < REC_MAX_FIELDS ? malloc((n ? n : 1) * sizeof *p) : NULL;
    if (!p) /* the caller records the array as empty */
        return NULL;
    c->heap[c->nheap++] = p;
    return p;
}

/* Encoded in memory of the call's own: the application's buffer says its
 * length only to the decoder, so nothing of it past that is read here. The
 * same library encodes what it decoded byte for byte; H5E_BEGIN_TRY keeps
 * a failure off the application's stderr. */
void rt_h5_encoding(rt_call *c, unsigned field, hid_t obj)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    if (obj <= 0)
        return;
    H5E_BEGIN_TRY
    {
        H5I_type_t type = H5Iget_type(obj);
        herr_t (*encode)(hid_t, void *, size_t *) = type == H5I_DATASPACE     ? H5Sencode
                                                    : type == H5I_DATATYPE    ? H5Tencode
                                                    : type == H5I_GENPROP_LST ? H5Pencode
                                                                              : NULL;
        size_t n = 0;
        int64_t *bytes = NULL;
        if (encode && encode(obj, NULL, &n) >= 0 && n > 0 && n <= RT_MAX_ENCODED)
            bytes = rt_array(c, field, (n + 7) / 8);
        if (bytes && encode(obj, bytes, &n) >= 0) {
            v->ptr = bytes;
            v->len = (uint32_t)n;
        }
    }
    H5E_END_TRY
}

int64_t rt_status_bytes(const MPI_Status *status, int ok)
{
    if (!ok || status == MPI_STATUS_IGNORE || !status)
        return -1;
    int count = 0;
    if (PMPI_Get_count(status, MPI_BYTE, &count) != MPI_SUCCESS || count == MPI_UNDEFINED)
        return -1;
    return count;
}

/* ---- start and end ---- */

static void on_fork_prepare(void)
{
    rt_lock();
}

static void on_fork_parent(void)
{
    rt_unlock();
}

/* The child is not traced: its copy of the buffer belongs to the parent. */
static void on_fork_child(void)
{
    rt_lock_word = 0; /* the child has one thread: the lock is its own */
    claim_later = 0;
    discard_writer();
}

void rt_real_resolve(void)
{
    /* The tracer's own files go through the C library's functions by name,
     * never through its wrappers (C symbols here, not table lookups): the
     * one place the tracer names them. */
    rt_real = (rt_libc){rt_resolve("open"),   rt_resolve("write"), rt_resolve("close"), rt_resolve("mkdir"),
                        rt_resolve("unlink"), rt_resolve("stat"),  rt_resolve("fstat"),
                        rt_resolve("read"),   rt_resolve("rmdir")};
}

off_t rt_stream_tell(FILE *stream)
{
    static off_t (*real_ftello)(FILE *);
    if (!real_ftello)
        real_ftello = rt_resolve("ftello");
    return real_ftello ? real_ftello(stream) : -1;
}

__attribute__((constructor)) static void rt_start_tracing(void)
{
    rt_real_resolve();
    rt_config_load(&config);
    for (int l = 0; l < REC_LAYER_COUNT; l++)
        rt_layer_on[l] = config.layer_on[l];
    rt_ns_per_tick = config.time_resolution * 1e9;
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME_COARSE, &ts) == 0) /* first: at most the start */
        start_tick_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    clock_gettime(CLOCK_REALTIME, &ts);
    start_wall_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    rt_t0_ns = rt_now_ns();
    rt_clock_init();
    rt_handles_init();
    if (config.is_launcher)
        return; /* it starts the ranks, which trace themselves */
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.window = config.window;
    o.block_size = config.buffer_size;
    if (config.compression_level == 0)
        o.codec = REC_CODEC_NONE;
    else
        o.zstd_level = config.compression_level;
    o.start_time_ns = start_wall_ns;
    o.exclusive = 1;
    o.io = (rec_io){rt_real.open, rt_real.write, rt_real.close};
    rec_error err;
    writer = rec_writer_open_deferred(&o, &err);
    if (!writer) {
        rt_warn("recorder: %s: tracing disabled", err.msg);
        return;
    }
    pthread_atfork(on_fork_prepare, on_fork_parent, on_fork_child);
    rt_self.has_id = 1; /* the loading thread is thread 0 */
    next_thread_id = 1;
    if (!config.under_mpi_launcher) {
        /* an MPI program started without mpirun is an MPI run of its own */
        program_has_mpi = dlsym(RTLD_DEFAULT, "PMPI_Init") != NULL;
        uint64_t started;
        uint32_t nranks = config.traces_dir[0] && !program_has_mpi ? trace_already_in(config.traces_dir, &started) : 0;
        if (nranks > 1) { /* said now: a program may close stderr before it exits (ls does) */
            rt_warn("recorder: %s holds the trace of an MPI run of %u ranks: %s, a program without MPI, is not "
                    "traced into it",
                    config.traces_dir, nranks, program_invocation_short_name);
            discard_writer();
            return;
        }
        claim_later = 1;
        if (program_has_mpi)
            claim_directory();
    }
    rt_active = writer != NULL;
}

__attribute__((destructor)) static void rt_stop_tracing(void)
{
    rt_lock();
    rt_active = 0;
    if (claim_later)
        claim_directory();
    if (writer && !rec_writer_attached(writer)) {
        /* Launched by mpirun but never called MPI_Init: the launcher's rank,
         * unless that rank holds an application this job ran since: then this
         * is its job script, or a program the script ran after it (`mpirun
         * job.sh`, whose lines are `./app` and `cat log`), and gives way. */
        char dir[PATH_MAX];
        if (config.traces_dir[0])
            snprintf(dir, sizeof dir, "%s", config.traces_dir);
        else
            default_dir(dir, sizeof dir, (long)getppid());
        if (rank_traced_within_parent(config.launcher_rank))
            discard_writer();
        else if (make_dirs(dir) == 0) {
            if (attach(dir, config.launcher_rank) == 0 && config.launcher_rank == 0)
                write_global_meta(dir, config.launcher_size);
        }
    }
    /* An MPI program that never reached MPI_Finalize did not finish cleanly. */
    close_writer(!mpi_started, 0);
    if (aggregating) { /* and its aggregate will never be written: its files go where readers look */
        aggregating = 0;
        rt_aggregate_salvage(stage_dir, trace_dir, (uint32_t)world_rank);
    }
    rt_unlock();
}

/* ---- paths (lock held) ---- */

/* Longer paths fail with ENAMETOOLONG anyway; recording one whole could
 * make a block larger than readers accept. */
static const char *capped(const char *path, char *buf)
{
    size_t n = strnlen(path, PATH_MAX + 1);
    if (n <= PATH_MAX)
        return path;
    memcpy(buf, path, PATH_MAX);
    buf[PATH_MAX] = 0;
    return buf;
}

int64_t rt_path(rt_call *c, const char *path)
{
    char buf[PATH_MAX + 1];
    if (!path)
        return -1;
    path = capped(path, buf);
    if (!rt_config_path_traced(&config, path)) {
        c->skip = 1; /* and no definition: excluded paths never enter the trace */
        return -1;
    }
    return writer ? rec_writer_path_id(writer, path) : -1;
}

int64_t rt_path_value(rt_call *c, const char *path)
{
    char buf[PATH_MAX + 1];
    (void)c;
    if (path)
        path = capped(path, buf);
    return writer && path ? rec_writer_path_id(writer, path) : -1;
}
