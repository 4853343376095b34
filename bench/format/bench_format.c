/* bench_format.c: how big and how fast the trace format is.
 *
 * Three synthetic single-rank record streams, each of N records (default
 * 2,000,000) with 100 ns ticks and jittered timestamps:
 *
 *   strided-pwrite   pwrite(fd, buf, 64, offset) = 64, offset += 64 per call,
 *                    calls ~1 us apart, each taking 0.3-0.6 us
 *   same-off-pwrite  the same with a constant offset
 *   allreduce-heavy  MPI_Allreduce(count 8, MPI_DOUBLE, MPI_SUM, WORLD) with
 *                    2-40 us of compute between calls, about one in 64 calls
 *                    an MPI_Barrier, now and then a pwrite to a log file
 *
 * Every stream also holds a rare function, as the last record of each
 * quarter of the stream (fsync in the pwrite streams, pwrite in the MPI
 * stream): the selective read asks for that function only, so the reader
 * can skip the blocks without it.
 *
 * Each stream is written with three configurations: the default (window 3,
 * zstd), window 3 without zstd, and window 0 without zstd (the uncompressed
 * binary baseline). For each we report the size of 0.rec per record, and
 * records per second for writing (append loop + close), for a full cursor
 * scan, and for the selective scan (N / its wall time).
 *
 * The PRNG seed is fixed, so every run sees the same streams. The traces go
 * to a temporary directory under $TMPDIR (or /tmp) that is removed at the
 * end. Reads come from the page cache: they measure decoding, not disks. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "rec_function_ids.h"
#include "recorder_format.h"

#define DEFAULT_RECORDS 2000000ull
#define RARE_RECORDS 4 /* the rare function ends each quarter of a stream */
#define TIME_RESOLUTION 1e-7 /* 100 ns ticks, the tracer's default */
#define SEED 0x5eedf0a7u
#define FIRST_DYNAMIC_FD REC_HANDLE_DYNAMIC_BASE

/* ---- synthetic streams ---- */

/* The records are generated before the clock starts, in this compact form,
 * and turned into rec_record by patching a per-function template. */
enum { T_PWRITE, T_FSYNC, T_ALLREDUCE, T_BARRIER, T_LOG_PWRITE, T_COUNT };

typedef struct event {
    uint64_t tstart;
    int64_t offset; /* pwrite only */
    uint32_t dur;   /* ticks */
    uint8_t tmpl;
} event;

enum { S_STRIDED, S_SAME_OFFSET, S_ALLREDUCE, S_COUNT };
static const char *const stream_names[S_COUNT] = {"strided-pwrite", "same-off-pwrite", "allreduce-heavy"};
static const char *const rare_names[S_COUNT] = {"fsync", "fsync", "pwrite"};

/* splitmix64: small, fast, and the same everywhere. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (the tiny modulo bias does not matter here). */
static uint32_t rng_range(uint64_t *s, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(rng_next(s) % (hi - lo + 1));
}

/* Occasional OS noise: one call in 4096 starts 5-500 us late. */
static uint64_t stall(uint64_t *s)
{
    return (rng_next(s) & 4095) == 0 ? rng_range(s, 50, 5000) : 0;
}

/* Record i is a rare one (the last of each quarter of the stream). */
static int is_rare(size_t i, size_t n)
{
    size_t period = n / RARE_RECORDS ? n / RARE_RECORDS : 1;
    return i % period == period - 1 && i / period < RARE_RECORDS;
}

static void gen_pwrite_stream(event *ev, size_t n, int strided, uint64_t seed)
{
    uint64_t s = seed, t = 1000;
    int64_t offset = 0;
    for (size_t i = 0; i < n; i++) {
        event *e = &ev[i];
        e->tstart = t;
        e->offset = offset;
        if (is_rare(i, n)) {
            e->tmpl = T_FSYNC;
            e->dur = rng_range(&s, 500, 3000); /* 50-300 us */
            t += e->dur;
        } else {
            e->tmpl = T_PWRITE;
            e->dur = rng_range(&s, 3, 6); /* 0.3-0.6 us */
            if (strided)
                offset += 64;
        }
        t += rng_range(&s, 7, 13) + stall(&s); /* next call ~1 us later */
    }
}

static void gen_allreduce_stream(event *ev, size_t n, uint64_t seed)
{
    uint64_t s = seed, t = 1000;
    int64_t log_offset = 0;
    for (size_t i = 0; i < n; i++) {
        event *e = &ev[i];
        e->tstart = t;
        e->offset = 0;
        if (is_rare(i, n)) {
            e->tmpl = T_LOG_PWRITE;
            e->offset = log_offset;
            log_offset += 256;
            e->dur = rng_range(&s, 5, 30);
        } else if ((rng_next(&s) & 63) == 0) {
            e->tmpl = T_BARRIER;
            e->dur = rng_range(&s, 20, 200);
        } else {
            e->tmpl = T_ALLREDUCE;
            e->dur = rng_range(&s, 30, 120); /* 3-12 us */
        }
        t += e->dur + rng_range(&s, 20, 400) + stall(&s); /* 2-40 us of compute */
    }
}

static void gen_stream(int stream, event *ev, size_t n)
{
    uint64_t seed = SEED + (uint64_t)stream * 0x1000193u;
    if (stream == S_ALLREDUCE)
        gen_allreduce_stream(ev, n, seed);
    else
        gen_pwrite_stream(ev, n, stream == S_STRIDED, seed);
}

static size_t count_rare(const event *ev, size_t n, int stream)
{
    unsigned rare = stream == S_ALLREDUCE ? T_LOG_PWRITE : T_FSYNC;
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ev[i].tmpl == rare;
    return c;
}

/* ---- record templates ---- */

static rec_record templates[T_COUNT];
static const unsigned template_func[T_COUNT] = {
    [T_PWRITE] = REC_ID_pwrite,
    [T_FSYNC] = REC_ID_fsync,
    [T_ALLREDUCE] = REC_ID_MPI_Allreduce,
    [T_BARRIER] = REC_ID_MPI_Barrier,
    [T_LOG_PWRITE] = REC_ID_pwrite,
};
/* The argument count each template assumes, checked against the table. */
static const unsigned template_nargs[T_COUNT] = {4, 1, 6, 1, 4};

static int init_templates(void)
{
    for (unsigned k = 0; k < T_COUNT; k++) {
        const rec_func_desc *f = rec_function_by_id(template_func[k]);
        if (!f || f->nargs != template_nargs[k] || f->ret_kind == REC_KIND_NONE) {
            fprintf(stderr, "bench-format: function id %u is not the function this benchmark expects\n",
                    template_func[k]);
            return -1;
        }
        memset(&templates[k], 0, sizeof templates[k]);
        templates[k].func = (uint16_t)template_func[k];
    }
    /* pwrite(fd, buf, count, offset) = count */
    rec_record *r = &templates[T_PWRITE];
    r->args[0].i = FIRST_DYNAMIC_FD;
    r->args[2].i = 64;
    r->ret.i = 64;
    r = &templates[T_LOG_PWRITE];
    r->args[0].i = FIRST_DYNAMIC_FD + 1;
    r->args[2].i = 256;
    r->ret.i = 256;
    /* fsync(fd) = 0 */
    templates[T_FSYNC].args[0].i = FIRST_DYNAMIC_FD;
    /* MPI_Allreduce(sendbuf, recvbuf, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) = MPI_SUCCESS;
     * the handle ids are the predefined ones of functions/handles.def. */
    r = &templates[T_ALLREDUCE];
    r->args[2].i = 8;
    r->args[3].i = 13; /* MPI_DOUBLE */
    r->args[4].i = 3;  /* MPI_SUM */
    r->args[5].i = 1;  /* MPI_COMM_WORLD */
    templates[T_BARRIER].args[0].i = 1;
    return 0;
}

/* ---- timing and files ---- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void remove_trace(const char *dir)
{
    static const char *const files[] = {"recorder.meta", "0.rec", "0.meta"};
    char path[4200];
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

/* ---- one (stream, configuration) cell ---- */

typedef struct config {
    const char *name;
    unsigned window;
    int codec;
} config;

static const config configs[] = {
    {"w3+zstd", 3, REC_CODEC_ZSTD},
    {"w3 raw", 3, REC_CODEC_NONE},
    {"w0 raw", 0, REC_CODEC_NONE},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

typedef struct result {
    uint64_t file_bytes, blocks, skipped;
    double write_s, read_s, select_s;
    size_t rare_found;
    double ref_share; /* records stored as references */
} result;

static int write_trace(const char *dir, const config *cfg, const event *ev, size_t n, result *res)
{
    rec_error err;
    rec_trace_info info = {
        .nranks = 1,
        .time_resolution = TIME_RESOLUTION,
        .start_time_ns = 1700000000000000000ull,
        .window = cfg->window,
    };
    if (rec_write_global_metadata(dir, &info, NULL, NULL, &err) != 0) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        return -1;
    }
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.window = cfg->window;
    o.codec = cfg->codec;
    rec_writer *w = rec_writer_open(dir, 0, &o, &err);
    if (!w) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        return -1;
    }
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        const event *e = &ev[i];
        rec_record *r = &templates[e->tmpl];
        r->tstart = e->tstart;
        r->tend = e->tstart + e->dur;
        if (e->tmpl == T_PWRITE || e->tmpl == T_LOG_PWRITE)
            r->args[3].i = e->offset;
        if (rec_writer_append(w, r, &err) != 0) {
            fprintf(stderr, "bench-format: %s\n", err.msg);
            rec_writer_discard(w);
            return -1;
        }
    }
    rec_counts counts;
    rec_writer_counts(w, &counts);
    if (rec_writer_close(w, &err) != 0) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        return -1;
    }
    double t1 = now();
    if (res->write_s == 0 || t1 - t0 < res->write_s)
        res->write_s = t1 - t0;
    res->ref_share = counts.records ? (double)counts.compressed_records / (double)counts.records : 0;
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/0.rec", dir);
    if (stat(path, &st) != 0) {
        fprintf(stderr, "bench-format: %s: %s\n", path, strerror(errno));
        return -1;
    }
    res->file_bytes = (uint64_t)st.st_size;
    return 0;
}

/* Scans rank 0, all of it (want_func < 0) or only want_func. Returns the
 * records returned, or -1. sum receives the sum of their tstart. */
static long long scan(const char *dir, int want_func, double *seconds, uint64_t *sum, uint64_t *skipped,
                      uint64_t *blocks)
{
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    if (!t) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        return -1;
    }
    long long got = 0;
    *sum = 0;
    double t0 = now();
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    if (!c) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        rec_trace_close(t);
        return -1;
    }
    if (want_func >= 0)
        rec_cursor_want(c, (unsigned)want_func);
    rec_record r;
    int rc;
    while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
        got++;
        *sum += r.tstart;
    }
    *skipped = rec_cursor_blocks_skipped(c);
    int complete = rec_cursor_complete(c);
    rec_cursor_close(c);
    double t1 = now();
    *seconds = t1 - t0;
    const rec_rank_meta *m = rec_trace_rank_meta(t, 0, &err);
    *blocks = m ? m->blocks : 0;
    rec_trace_close(t);
    if (rc < 0) {
        fprintf(stderr, "bench-format: %s\n", err.msg);
        return -1;
    }
    if (!complete) {
        fprintf(stderr, "bench-format: %s: the stream ended without its end marker\n", dir);
        return -1;
    }
    return got;
}

static int run_cell(const char *root, int stream, const config *cfg, const event *ev, size_t n, size_t rare,
                    uint64_t want_sum, unsigned repeat, result *res)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/s%d-w%u-c%d", root, stream, cfg->window, cfg->codec);
    memset(res, 0, sizeof *res);
    unsigned rare_func = stream == S_ALLREDUCE ? REC_ID_pwrite : REC_ID_fsync;
    for (unsigned rep = 0; rep < repeat; rep++) {
        if (mkdir(dir, 0700) != 0) {
            fprintf(stderr, "bench-format: cannot create %s: %s\n", dir, strerror(errno));
            return -1;
        }
        int ok = write_trace(dir, cfg, ev, n, res) == 0;
        double secs;
        uint64_t sum, skipped, blocks;
        long long got = ok ? scan(dir, -1, &secs, &sum, &skipped, &blocks) : -1;
        if (ok && (got != (long long)n || sum != want_sum)) {
            fprintf(stderr, "bench-format: %s: read back %lld records (tstart sum %llu), wrote %zu (sum %llu)\n",
                    dir, got, (unsigned long long)sum, n, (unsigned long long)want_sum);
            ok = 0;
        }
        if (ok && (res->read_s == 0 || secs < res->read_s))
            res->read_s = secs;
        got = ok ? scan(dir, (int)rare_func, &secs, &sum, &skipped, &blocks) : -1;
        if (ok && got != (long long)rare) {
            fprintf(stderr, "bench-format: %s: the selective read found %lld %s records, not %zu\n", dir, got,
                    rare_names[stream], rare);
            ok = 0;
        }
        if (ok) {
            if (res->select_s == 0 || secs < res->select_s)
                res->select_s = secs;
            res->rare_found = (size_t)got;
            res->skipped = skipped;
            res->blocks = blocks;
        }
        remove_trace(dir);
        if (!ok)
            return -1;
    }
    return 0;
}

/* ---- main ---- */

static void usage(FILE *out)
{
    fprintf(out, "usage: bench-format [--records N] [--repeat R]\n"
                 "  --records N  records per stream (default %llu)\n"
                 "  --repeat R   measure each cell R times and keep the fastest (default 1)\n",
            DEFAULT_RECORDS);
}

static int parse_count(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || v == 0 || v > max || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

static void cpu_model(char *buf, size_t cap)
{
    snprintf(buf, cap, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *colon = strchr(line, ':');
            if (colon) {
                colon++;
                while (*colon == ' ' || *colon == '\t')
                    colon++;
                snprintf(buf, cap, "%s", colon);
                buf[strcspn(buf, "\n")] = 0;
            }
            break;
        }
    }
    fclose(f);
}

static double mrate(size_t n, double seconds)
{
    return seconds > 0 ? (double)n / seconds / 1e6 : 0;
}

int main(int argc, char **argv)
{
    unsigned long long records = DEFAULT_RECORDS, repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        unsigned long long *target = strcmp(argv[i], "--records") == 0  ? &records
                                     : strcmp(argv[i], "--repeat") == 0 ? &repeat
                                                                         : NULL;
        if (!target || i + 1 >= argc || parse_count(argv[i + 1], target == &records ? 1ull << 32 : 100, target)) {
            usage(stderr);
            return 2;
        }
        i++;
    }
    size_t n = (size_t)records;
    if (init_templates() != 0)
        return 1;

    const char *tmp = getenv("TMPDIR");
    char root[4096];
    snprintf(root, sizeof root, "%s/bench-format-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        fprintf(stderr, "bench-format: cannot create a directory like %s: %s\n", root, strerror(errno));
        return 1;
    }
    event *ev = malloc(n * sizeof *ev);
    if (!ev) {
        fprintf(stderr, "bench-format: out of memory for %zu records\n", n);
        rmdir(root);
        return 1;
    }

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    printf("bench-format: %zu records per stream, %g s ticks, 1 MiB blocks, zstd level 1\n", n, TIME_RESOLUTION);
    printf("machine: %ld CPUs online (nproc), %s; best of %llu run%s per cell\n", sysconf(_SC_NPROCESSORS_ONLN),
           cpu, repeat, repeat == 1 ? "" : "s");
    printf("write: append loop + close; read: full cursor scan; select: cursor wanting only the rare\n"
           "function (N / scan time); rates in millions of records per second; refs: records\n"
           "stored as a reference to a window record; skipped: blocks the selective read skipped.\n\n");
    printf("%-16s %-8s %9s %8s %8s %8s %6s  %-6s %5s %9s\n", "stream", "config", "bytes/rec", "write", "read",
           "select", "refs", "rare", "found", "skipped");
    printf("%-16s %-8s %9s %8s %8s %8s %6s  %-6s %5s %9s\n", "", "", "", "Mrec/s", "Mrec/s", "Mrec/s", "", "", "",
           "blocks");

    int status = 0;
    for (int s = 0; s < S_COUNT && status == 0; s++) {
        gen_stream(s, ev, n);
        size_t rare = count_rare(ev, n, s);
        uint64_t want_sum = 0;
        for (size_t i = 0; i < n; i++)
            want_sum += ev[i].tstart;
        for (size_t k = 0; k < NCONFIGS; k++) {
            result res;
            if (run_cell(root, s, &configs[k], ev, n, rare, want_sum, (unsigned)repeat, &res) != 0) {
                status = 1;
                break;
            }
            char skipped[32];
            snprintf(skipped, sizeof skipped, "%llu/%llu", (unsigned long long)res.skipped,
                     (unsigned long long)res.blocks);
            printf("%-16s %-8s %9.3f %8.2f %8.2f %8.2f %5.1f%%  %-6s %5zu %9s\n", stream_names[s], configs[k].name,
                   (double)res.file_bytes / (double)n, mrate(n, res.write_s), mrate(n, res.read_s),
                   mrate(n, res.select_s), 100 * res.ref_share, rare_names[s], res.rare_found, skipped);
            fflush(stdout);
        }
    }
    free(ev);
    if (rmdir(root) != 0)
        fprintf(stderr, "bench-format: cannot remove %s: %s\n", root, strerror(errno));
    return status;
}
