/* import_write.c: a plan (import_plan.c) as a recorder-kit trace, through
 * the format's writer as the tracer writes one: recorder.meta with what the
 * trace came from and what was inferred, then per rank N.rec and N.meta.
 * Each call is the function table's own of its sole role (the one function
 * that does it: open, pread, MPI_File_write_at_all, ...), its arguments
 * filled by their kinds. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "import.h"

typedef struct functions {
    const rec_func_desc *start, *end, *open, *close, *read, *write;
    const rec_func_desc *mpi_open, *mpi_close, *mpi_read, *mpi_write, *mpi_read_all, *mpi_write_all;
    const rec_func_desc *seek, *stat, *sync, *datasync, *mpi_sync, *mpi_size;
    const rec_func_desc *fopen, *fclose, *fread, *fwrite, *fseek, *fflush;
} functions;

typedef struct predefined {
    int64_t world, self, info_null, byte;
} predefined;

static int fail(rec_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(rec_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int find_functions(functions *fn, rec_error *err)
{
    static const struct {
        unsigned sole;
        size_t at;
    } wanted[] = {
        {REC_SOLE_STARTS_MPI_RUN, offsetof(functions, start)},
        {REC_SOLE_ENDS_MPI_RUN, offsetof(functions, end)},
        {REC_SOLE_OPENS_FD, offsetof(functions, open)},
        {REC_SOLE_CLOSES_FD, offsetof(functions, close)},
        {REC_SOLE_READS_FD_AT, offsetof(functions, read)},
        {REC_SOLE_WRITES_FD_AT, offsetof(functions, write)},
        {REC_SOLE_OPENS_MPI_FILE, offsetof(functions, mpi_open)},
        {REC_SOLE_CLOSES_MPI_FILE, offsetof(functions, mpi_close)},
        {REC_SOLE_READS_MPI_FILE_AT, offsetof(functions, mpi_read)},
        {REC_SOLE_WRITES_MPI_FILE_AT, offsetof(functions, mpi_write)},
        {REC_SOLE_READS_MPI_FILE_AT_ALL, offsetof(functions, mpi_read_all)},
        {REC_SOLE_WRITES_MPI_FILE_AT_ALL, offsetof(functions, mpi_write_all)},
        {REC_SOLE_SEEKS_FD, offsetof(functions, seek)},
        {REC_SOLE_STATS_PATH, offsetof(functions, stat)},
        {REC_SOLE_SYNCS_FD, offsetof(functions, sync)},
        {REC_SOLE_SYNCS_FD_DATA, offsetof(functions, datasync)},
        {REC_SOLE_SYNCS_MPI_FILE, offsetof(functions, mpi_sync)},
        {REC_SOLE_GETS_MPI_FILE_SIZE, offsetof(functions, mpi_size)},
        {REC_SOLE_OPENS_STREAM, offsetof(functions, fopen)},
        {REC_SOLE_CLOSES_STREAM, offsetof(functions, fclose)},
        {REC_SOLE_READS_STREAM, offsetof(functions, fread)},
        {REC_SOLE_WRITES_STREAM, offsetof(functions, fwrite)},
        {REC_SOLE_SEEKS_STREAM, offsetof(functions, fseek)},
        {REC_SOLE_FLUSHES_STREAM, offsetof(functions, fflush)},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++) {
        const rec_func_desc *f = rec_function_with_sole(wanted[i].sole);
        if (!f)
            return fail(err, "the function table has no function of the sole role %s",
                        rec_sole_name(wanted[i].sole));
        memcpy((char *)fn + wanted[i].at, &f, sizeof f);
    }
    return 0;
}

static int64_t predefined_id(unsigned kind, const char *name)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++)
        if (rec_predefined_handles[i].kind == kind && strcmp(rec_predefined_handles[i].name, name) == 0)
            return rec_predefined_handles[i].id;
    return -1;
}

/* ---- one call as a record ---- */

typedef struct values {
    int64_t handle, path, flags, mode, length, offset, comm;
} values;

static const char *const stdio_modes[] = {"r", "w", "r+", "w+"}; /* RI_STDIO_* */

static void fill(const rec_func_desc *f, const values *v, const predefined *pd, rec_record *r)
{
    unsigned sole = rec_func_sole(f);
    int stream_data = sole == REC_SOLE_READS_STREAM || sole == REC_SOLE_WRITES_STREAM;
    for (unsigned a = 0; a < f->nargs; a++) {
        int64_t x = 0;
        switch (f->args[a].kind) {
        case REC_KIND_STDIO_MODE: {
            const char *m = stdio_modes[v->flags >= 0 && v->flags < 4 ? v->flags : 0];
            r->args[a].ptr = m;
            r->args[a].len = (uint32_t)strlen(m);
            break;
        }
        case REC_KIND_FILE_STREAM:
            x = v->handle;
            break;
        case REC_KIND_WHENCE: /* SEEK_END: a seek below MPI_File_get_size (ri_seek_in_get_size) */
            x = v->flags == SEEK_END ? SEEK_END : SEEK_SET;
            break;
        case REC_KIND_PATH:
            x = v->path;
            break;
        case REC_KIND_FD:
        case REC_KIND_MPI_FILE:
            x = v->handle;
            break;
        case REC_KIND_OFLAGS:
        case REC_KIND_MPI_AMODE:
            x = v->flags;
            break;
        case REC_KIND_MODE:
            x = v->mode;
            break;
        case REC_KIND_SIZE:
            x = stream_data ? 1 : v->length; /* fread and fwrite: items of 1 byte */
            break;
        case REC_KIND_COUNT:
            x = v->length;
            break;
        case REC_KIND_OFFSET:
        case REC_KIND_MPI_FILE_POS:
            x = v->offset;
            break;
        case REC_KIND_MPI_COMM:
            x = v->comm;
            break;
        case REC_KIND_MPI_INFO:
            x = pd->info_null;
            break;
        case REC_KIND_MPI_DATATYPE:
            x = pd->byte;
            break;
        case REC_KIND_MPI_STATUS:
            x = -1;
            break; /* MPI_STATUS_IGNORE */
        default:
            break;
        }
        r->args[a].i = x;
    }
    /* what it returns: the handle an open makes, the bytes a POSIX access moved, else success */
    if (f->flags & REC_FN_CREATES && rec_arg_with_kind(f, REC_KIND_MPI_FILE, REC_ARG_CREATE) < 0)
        r->ret.i = v->handle;
    else if (f->ret_kind == REC_KIND_SIZE || stream_data)
        r->ret.i = v->length;
    else if (f->ret_kind == REC_KIND_OFFSET) /* lseek: where it moved to */
        r->ret.i = v->offset;
    else
        r->ret.i = 0;
    r->err = 0;
}

static const rec_func_desc *function_of(const functions *fn, const ri_event *e)
{
    int mpi = e->layer == REC_LAYER_MPIIO, st = e->stdio;
    switch ((ri_call)e->call) {
    case RI_CALL_START:
        return fn->start;
    case RI_CALL_END:
        return fn->end;
    case RI_CALL_OPEN:
        return mpi ? fn->mpi_open : st ? fn->fopen : fn->open;
    case RI_CALL_CLOSE:
        return mpi ? fn->mpi_close : st ? fn->fclose : fn->close;
    case RI_CALL_READ:
        return mpi ? (e->collective ? fn->mpi_read_all : fn->mpi_read) : st ? fn->fread : fn->read;
    case RI_CALL_WRITE:
        return mpi ? (e->collective ? fn->mpi_write_all : fn->mpi_write) : st ? fn->fwrite : fn->write;
    case RI_CALL_SEEK:
        return st ? fn->fseek : fn->seek;
    case RI_CALL_STAT:
        return fn->stat;
    case RI_CALL_SYNC:
        return mpi ? fn->mpi_sync : fn->sync;
    case RI_CALL_SIZE:
        return fn->mpi_size;
    case RI_CALL_DATASYNC:
        return fn->datasync;
    case RI_CALL_FLUSH:
        return fn->fflush;
    case RI_CALL_UPPER:
        return rec_function_with_sole(e->sole);
    }
    return NULL;
}

static int write_rank(const ri_plan *p, const ri_darshan_log *log, const char *dir, uint32_t rank,
                      const functions *fn, const predefined *pd, rec_error *err)
{
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.start_time_ns = ri_darshan_start_ns(log);
    rec_writer *w = rec_writer_open(dir, rank, &o, err);
    if (!w)
        return -1;
    const ri_events *ev = &p->ranks[rank];
    for (size_t i = 0; i < ev->n; i++) {
        const ri_event *e = &ev->v[i];
        const rec_func_desc *f = function_of(fn, e);
        rec_record r;
        memset(&r, 0, sizeof r);
        r.func = f->id;
        r.tstart = e->tstart;
        r.tend = e->tend;
        r.depth = e->depth;
        r.inferred = e->inferred;
        values v = {
            e->handle, -1, e->flags, e->mode, e->length, e->offset, e->collective ? pd->world : pd->self};
        if (e->call == RI_CALL_OPEN || e->call == RI_CALL_STAT ||
            (e->call == RI_CALL_UPPER && rec_arg_with_kind(f, REC_KIND_PATH, REC_ARG_IN) >= 0))
            v.path = rec_writer_path_id(w, p->paths[e->file]);
        if (e->call == RI_CALL_UPPER)
            ri_fill_upper(f, &p->upper[e->aux], v.path, pd->info_null, &r);
        else
            fill(f, &v, pd, &r);
        if (rec_writer_append(w, &r, err) != 0) {
            rec_writer_discard(w);
            return -1;
        }
    }
    return rec_writer_close(w, err);
}

/* ---- recorder.meta: what the trace is of ---- */

static const char *partial_modules(const ri_darshan_log *log, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (unsigned m = 0; m < RI_DARSHAN_KNOWN_MODULES; m++)
        if (log->modules[m].partial && len < cap)
            len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? " " : "", ri_darshan_module_name(m));
    return out;
}

/* How the calls of files without DXT accesses were made (stat_*.c). */
static const char STATISTICAL[] =
    "statistical: from the counters alone (no DXT accesses): sizes from the access-size histogram, the four "
    "common access sizes first, each bin's other sizes as equal as integers allow, the bytes exact; offsets "
    "consecutive, cut into segments (gaps) and passes (starting over) to the consecutive and sequential "
    "counts, to the largest byte; a rank -1 record's calls dealt to every rank (sizes in turn), its ranks "
    "splitting the file segment by segment (or each covering it whole, when the largest byte says so); "
    "opens, read/write switches, seeks, stats, syncs and flushes as counted, each rank its share; "
    "collective accesses, opens and syncs alike on every rank; times between each kind's first start and "
    "last end";

static void method_of(const ri_plan *p, char *out, size_t cap)
{
    if (!p->stat_files) {
        size_t len = (size_t)snprintf(out, cap, "DXT: every read and write DXT kept");
        if (p->coll_unmatched && len < cap)
            snprintf(out + len, cap - len,
                     " (%llu collective accesses the counters count matched by no round of every rank's: "
                     "left independent)",
                     (unsigned long long)p->coll_unmatched);
        return;
    }
    int all = p->posix_segments + p->mpiio_segments == 0;
    size_t len = (size_t)snprintf(out, cap, "%s%s", all ? "" : "DXT, and for files DXT kept no access of, ",
                                  STATISTICAL);
    if (len < cap)
        snprintf(out + len, cap - len,
                 " (%llu files: %llu with stdio calls; %llu shared layouts partitioned, %llu replicated; "
                 "%llu whose histogram could not be followed, sizes as equal as the bytes allow)",
                 (unsigned long long)p->stat_files, (unsigned long long)p->stat_stdio,
                 (unsigned long long)p->stat_partitioned, (unsigned long long)p->stat_replicated,
                 (unsigned long long)p->stat_even);
}

static int write_global(const ri_plan *p, const ri_darshan_log *log, const char *dir, double resolution,
                        rec_error *err)
{
    char jobid[32], nprocs[32], partial[512], files[160], metadata[1100], method[1600], upper[4096];
    method_of(p, method, sizeof method);
    if (!ri_upper_layers(log, upper, sizeof upper))
        snprintf(upper, sizeof upper, "none: the log has no HDF5 or PnetCDF module records");
    /* Darshan's "key=value" lines, on one line */
    snprintf(metadata, sizeof metadata, "%s", log->metadata);
    size_t len = strlen(metadata);
    while (len && metadata[len - 1] == '\n')
        metadata[--len] = 0;
    for (char *nl = strchr(metadata, '\n'); nl; nl = strchr(nl, '\n'))
        *nl = ';';
    snprintf(jobid, sizeof jobid, "%lld", (long long)log->jobid);
    snprintf(nprocs, sizeof nprocs, "%lld", (long long)log->nprocs);
    snprintf(files, sizeof files,
             "%llu over MPI_COMM_WORLD, %llu over MPI_COMM_SELF, %llu POSIX, %llu left out",
             (unsigned long long)p->world_files, (unsigned long long)p->self_files,
             (unsigned long long)p->posix_files, (unsigned long long)p->skipped_files);
    rec_option opts[] = {
        {"RECORDER_IMPORTED_FROM", "darshan"},
        {"DARSHAN_LOG", log->path},
        {"DARSHAN_LOG_VERSION", log->version},
        {"DARSHAN_EXE", log->exe},
        {"DARSHAN_JOBID", jobid},
        {"DARSHAN_NPROCS", nprocs},
        {"DARSHAN_METADATA", metadata},
        {"DARSHAN_PARTIAL_MODULES", partial_modules(log, partial, sizeof partial)},
        {"RECORDER_IMPORT_FILES", files},
        {"RECORDER_IMPORT_METHOD", method},
        {"RECORDER_IMPORT_UPPER_LAYERS", upper},
        {"RECORDER_IMPORT_SEEN",
         "every read and write DXT_POSIX and DXT_MPIIO kept, with its offset, length, "
         "start and end: POSIX ones as pread and pwrite, MPI-IO ones as MPI_File_read_at and "
         "write_at (or their _all twins), the POSIX ones of MPI-IO files inside them"},
        {"RECORDER_IMPORT_INFERRED",
         "records marked inferred: MPI_Init and MPI_Finalize at the job's start "
         "and end; as many opens of each file "
         "as its counters say a rank made, splitting the rank's accesses (every "
         "rank's, for a shared file) at "
         "their longest pauses, each open ending as its first access starts and "
         "each close starting as its last "
         "ends; MPI-IO files opened over MPI_COMM_WORLD when Darshan reduced "
         "their records to rank -1, else over "
         "MPI_COMM_SELF, with POSIX opens inside; open flags and MPI amodes from "
         "what each session did; as many MPI-IO "
         "reads and writes collective as the file's counters count (over "
         "MPI_COMM_WORLD: in rounds, one access of every rank whose windows "
         "meet, the ranks' clocks allowed to differ by the least that finds "
         "as many; over MPI_COMM_SELF: the rank's largest); a POSIX file's "
         "lseeks (its counters' share of each rank) just before its accesses; "
         "MPI_File_sync, fsync and fdatasync (each rank's share) at the end of "
         "its last session that wrote; every call of a file without DXT "
         "accesses (RECORDER_IMPORT_METHOD says how they were made); every HDF5 call of a file Darshan's H5F module "
         "kept: its opens, its H5D datasets' opens, writes and reads as counted, "
         "dataspaces, selections, chunks and property lists from the H5D counters, "
         "the file's MPI-IO and POSIX calls nested beneath by time"},
    };
    rec_trace_info info = {.nranks = p->nranks,
                           .time_resolution = resolution,
                           .start_time_ns = ri_darshan_start_ns(log),
                           .window = REC_WINDOW_DEFAULT,
                           .noptions = sizeof opts / sizeof opts[0],
                           .options = opts};
    return rec_write_global_metadata(dir, &info, NULL, NULL, err);
}

static int make_dir(const char *dir, rec_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return fail(err, "%s: %s", path, strerror(errno));
        *s = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return fail(err, "%s: %s", path, strerror(errno));
    char meta[4200];
    snprintf(meta, sizeof meta, "%s/recorder.meta", dir);
    if (access(meta, F_OK) == 0)
        return fail(err, "%s: holds a trace already (%s)", dir, "recorder.meta");
    return 0;
}

int ri_plan_write(const ri_plan *p, const ri_darshan_log *log, const char *dir, double resolution,
                  ri_import_summary *sum, rec_error *err)
{
    functions fn;
    predefined pd = {
        predefined_id(REC_KIND_MPI_COMM, "MPI_COMM_WORLD"), predefined_id(REC_KIND_MPI_COMM, "MPI_COMM_SELF"),
        predefined_id(REC_KIND_MPI_INFO, "MPI_INFO_NULL"), predefined_id(REC_KIND_MPI_DATATYPE, "MPI_BYTE")};
    if (find_functions(&fn, err) != 0)
        return -1;
    if (pd.world < 0 || pd.self < 0 || pd.info_null < 0 || pd.byte < 0)
        return fail(err,
                    "the function table names no MPI_COMM_WORLD, MPI_COMM_SELF, MPI_INFO_NULL or MPI_BYTE");
    if (make_dir(dir, err) != 0 || write_global(p, log, dir, resolution, err) != 0)
        return -1;
    uint64_t records = 0;
    for (uint32_t r = 0; r < p->nranks; r++) {
        if (write_rank(p, log, dir, r, &fn, &pd, err) != 0)
            return -1;
        records += p->ranks[r].n;
    }
    if (sum) {
        sum->nranks = p->nranks;
        sum->records = records;
        sum->inferred = p->inferred;
        sum->posix_segments = p->posix_segments;
        sum->mpiio_segments = p->mpiio_segments;
        sum->files = p->nfiles;
        sum->stat_files = p->stat_files;
        sum->upper_calls = p->upper_calls;
        sum->upper_nested = p->upper_nested;
        sum->pnetcdf_calls = p->pnetcdf_calls;
    }
    return 0;
}

int ri_import_darshan(const ri_darshan_log *log, const char *dir, const ri_import_options *o,
                      ri_import_summary *sum, rec_error *err)
{
    double resolution = o && o->time_resolution > 0 ? o->time_resolution : 1e-7;
    ri_plan p;
    if (ri_plan_build(log, resolution, &p, err) != 0)
        return -1;
    int rc = ri_plan_write(&p, log, dir, resolution, sum, err);
    ri_plan_free(&p);
    return rc;
}
