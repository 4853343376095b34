/* bench_summary.c: how fast recorder-summary's core runs, and in how much
 * memory, on a large synthetic trace.
 *
 * The trace (default 10,000,000 records over 4 ranks, written with the
 * format's writer into a temporary directory under $TMPDIR or /tmp, removed
 * at the end) mixes what an I/O-heavy rank records: runs of 4 KiB pwrites at
 * increasing offsets, lseek + 64 KiB reads of a second file, fstat, an
 * MPI_Allreduce now and then, and every 50,000 records the data file closed
 * and another one opened (so the handle maps and the file table work too).
 *
 * Three measurements, each in a child process so its peak RSS is its own:
 *   reader   a bare cursor scan of every rank (the format's decoding alone)
 *   summary  the summary collector on the I/O model's events: exactly what
 *            recorder-summary runs before printing (model without offsets)
 *   model    the I/O model with offsets and sessions, no collector (what
 *            recorder-overlap and recorder-layers start from)
 * Each phase runs on one core; its rate is records per second of the CPU
 * time it used (wall time is shown too, but on a shared machine it measures
 * the neighbours as well). The goal for summary is 20 M records/s. Reads
 * come from the page cache.
 * Each phase runs --repeat times (default 3); the best run is shown. With
 * --mix pwrite every record but the opens and closes is a 4 KiB pwrite at
 * an increasing offset (bench-format's strided-pwrite stream).
 *   build/bench/bench-summary [--records N] [--ranks R] [--mix io|pwrite] [--repeat N] [--keep DIR] */
#include "ra_tools.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIME_RESOLUTION 1e-7
#define REOPEN_EVERY 50000

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static unsigned id_of(const char *name)
{
    const rec_func_desc *f = rec_function_by_name(name);
    if (!f) {
        fprintf(stderr, "bench-summary: %s is not in the function table\n", name);
        exit(1);
    }
    return f->id;
}

static int append(rec_writer *w, rec_record *r, uint64_t *t, uint64_t dur, uint64_t *seed)
{
    rec_error err;
    r->tstart = *t;
    r->tend = *t + dur;
    *t += dur + 5 + rng(seed) % 20;
    if (rec_writer_append(w, r, &err) != 0) {
        fprintf(stderr, "bench-summary: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int pwrite_only; /* --mix pwrite: bench-format's strided-pwrite stream, for comparison */

static int write_rank(const char *dir, uint32_t rank, uint64_t n)
{
    rec_error err;
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.start_time_ns = 1700000000000000000ull + rank * 1000ull;
    rec_writer *w = rec_writer_open(dir, rank, &o, &err);
    if (!w) {
        fprintf(stderr, "bench-summary: %s\n", err.msg);
        return -1;
    }
    unsigned open_id = id_of("open"), close_id = id_of("close"), pwrite_id = id_of("pwrite"),
             read_id = id_of("read");
    unsigned lseek_id = id_of("lseek"), fstat_id = id_of("fstat"), allreduce_id = id_of("MPI_Allreduce");
    uint64_t seed = 0x5eed0000u + rank, t = 1000, made = 0;
    int64_t input = REC_HANDLE_DYNAMIC_BASE, fd = input, offset = 0, in_off = 0;
    char path[64];
    rec_record r;
    /* open("/scratch/input.dat", O_RDONLY) = input */
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)open_id;
    r.args[0].i = rec_writer_path_id(w, "/scratch/input.dat");
    r.ret.i = input;
    int rc = append(w, &r, &t, 80, &seed);
    made++;
    while (made < n && rc == 0) {
        if (made % REOPEN_EVERY == 1) {
            if (fd != input) { /* close(fd) = 0 */
                memset(&r, 0, sizeof r);
                r.func = (uint16_t)close_id;
                r.args[0].i = fd;
                rc |= append(w, &r, &t, 20, &seed);
                made++;
            }
            /* open(path, O_WRONLY|O_CREAT, 0644) = the next fd */
            snprintf(path, sizeof path, "/scratch/run/rank%u/out.%llu", rank,
                     (unsigned long long)(made / REOPEN_EVERY));
            memset(&r, 0, sizeof r);
            r.func = (uint16_t)open_id;
            r.args[0].i = rec_writer_path_id(w, path);
            r.args[1].i = 0101;
            r.args[2].i = 0644;
            r.ret.i = ++fd;
            rc |= append(w, &r, &t, 80, &seed);
            made++;
            offset = 0;
            continue;
        }
        uint64_t x = pwrite_only ? 0 : rng(&seed) % 100;
        memset(&r, 0, sizeof r);
        if (x < 70) { /* pwrite(fd, buf, 4096, offset) = 4096 */
            r.func = (uint16_t)pwrite_id;
            r.args[0].i = fd;
            r.args[2].i = 4096;
            r.args[3].i = offset;
            r.ret.i = 4096;
            offset += 4096;
            rc |= append(w, &r, &t, 3 + rng(&seed) % 4, &seed);
        } else if (x < 80) { /* lseek(input, off, SEEK_SET) = off; read(input, buf, 65536) = 65536 */
            r.func = (uint16_t)lseek_id;
            r.args[0].i = input;
            r.args[1].i = in_off;
            r.ret.i = in_off;
            rc |= append(w, &r, &t, 1, &seed);
            memset(&r, 0, sizeof r);
            r.func = (uint16_t)read_id;
            r.args[0].i = input;
            r.args[2].i = 65536;
            r.ret.i = 65536;
            in_off = (in_off + 65536) % (1 << 30);
            rc |= append(w, &r, &t, 10 + rng(&seed) % 10, &seed);
            made++;
        } else if (x < 90) { /* MPI_Allreduce(.., 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) */
            r.func = (uint16_t)allreduce_id;
            r.args[2].i = 8;
            r.args[3].i = 13;
            r.args[4].i = 3;
            r.args[5].i = 1;
            rc |= append(w, &r, &t, 30 + rng(&seed) % 90, &seed);
        } else { /* fstat(fd, {st_size}) = 0 */
            r.func = (uint16_t)fstat_id;
            r.args[0].i = fd;
            r.args[1].i = offset;
            rc |= append(w, &r, &t, 2, &seed);
        }
        made++;
    }
    if (rec_writer_close(w, &err) != 0) {
        fprintf(stderr, "bench-summary: %s\n", err.msg);
        return -1;
    }
    return rc;
}

/* ---- the measured phases ---- */

enum { PHASE_READER, PHASE_SUMMARY, PHASE_MODEL };
static const char *const phase_names[] = {"reader", "summary", "model"};

static int ev_none(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    (*(uint64_t *)ctx) += (uint64_t)ev->bytes;
    return 0;
}

/* Runs in the child: returns the records it went through, or 0 on error. */
static uint64_t run_phase(const char *dir, int phase)
{
    rec_error err;
    ra_trace *t = ra_trace_open(dir, &err);
    if (!t) {
        fprintf(stderr, "bench-summary: %s\n", err.msg);
        return 0;
    }
    uint64_t records = 0, sink = 0;
    if (phase == PHASE_READER) {
        for (uint32_t rank = 0; rank < ra_trace_nranks(t); rank++) {
            rec_cursor *c = rec_cursor_open(ra_trace_rec(t), rank, &err);
            rec_record r;
            int rc;
            while (c && (rc = rec_cursor_next(c, &r, &err)) == 1)
                records++;
            rec_cursor_close(c);
        }
    } else if (phase == PHASE_SUMMARY) {
        ra_summary s;
        ra_summary_init(&s, t, 0);
        uint32_t *ranks = ra_xmalloc(ra_trace_nranks(t) * sizeof *ranks);
        for (uint32_t rank = 0; rank < ra_trace_nranks(t); rank++)
            ranks[rank] = rank;
        if (ra_summary_walk(&s, ranks, ra_trace_nranks(t), NULL, &err) == 0)
            for (uint32_t rank = 0; rank < ra_trace_nranks(t); rank++)
                records += s.rank_records[rank];
        else
            fprintf(stderr, "bench-summary: %s\n", err.msg);
        ra_summary_sort(&s);
        ra_summary_free(&s);
        free(ranks);
    } else {
        ra_visitor v = {&sink, NULL, ev_none, NULL};
        for (uint32_t rank = 0; rank < ra_trace_nranks(t); rank++)
            records += ra_rank_record_count(t, rank);
        if (ra_walk(t, NULL, 0, 0, &v, NULL, &err) != 0) {
            fprintf(stderr, "bench-summary: %s\n", err.msg);
            records = 0;
        }
    }
    ra_trace_close(t);
    return records;
}

static int measure(const char *dir, int phase, uint64_t expected, double *seconds, double *cpu, long *rss_kib)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    double t0 = now();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        uint64_t n = run_phase(dir, phase);
        ssize_t w = write(fds[1], &n, sizeof n);
        _exit(w == (ssize_t)sizeof n && n ? 0 : 1);
    }
    close(fds[1]);
    uint64_t n = 0;
    ssize_t got = read(fds[0], &n, sizeof n);
    close(fds[0]);
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        got != (ssize_t)sizeof n)
        return -1;
    *seconds = now() - t0;
    *cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
    *rss_kib = ru.ru_maxrss;
    if (n != expected) {
        fprintf(stderr, "bench-summary: %s saw %llu records, the trace has %llu\n", phase_names[phase],
                (unsigned long long)n, (unsigned long long)expected);
        return -1;
    }
    return 0;
}

static int remove_tree(const char *dir)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "rm -rf -- '%s'", dir);
    return system(cmd);
}

int main(int argc, char **argv)
{
    uint64_t records = 10000000;
    uint32_t ranks = 4;
    int repeat = 3;
    const char *keep = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--records") && i + 1 < argc)
            records = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--ranks") && i + 1 < argc)
            ranks = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--mix") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "io") || !strcmp(argv[i + 1], "pwrite")))
            pwrite_only = !strcmp(argv[++i], "pwrite");
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
            keep = argv[++i];
        else {
            fprintf(stderr, "usage: bench-summary [--records N] [--ranks R] [--mix io|pwrite] [--repeat N] "
                            "[--keep DIR]\n");
            return 2;
        }
    }
    if (!ranks || records < ranks) {
        fprintf(stderr, "bench-summary: need at least one record per rank\n");
        return 2;
    }
    char dir[4096];
    if (keep) {
        snprintf(dir, sizeof dir, "%s", keep);
        if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
            fprintf(stderr, "bench-summary: %s: %s\n", dir, strerror(errno));
            return 1;
        }
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/bench-summary.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "bench-summary: %s: %s\n", dir, strerror(errno));
            return 1;
        }
    }
    rec_error err;
    rec_trace_info info = {.nranks = ranks,
                           .time_resolution = TIME_RESOLUTION,
                           .start_time_ns = 1700000000000000000ull,
                           .window = REC_WINDOW_DEFAULT};
    double t0 = now();
    int failed = rec_write_global_metadata(dir, &info, NULL, NULL, &err) != 0;
    for (uint32_t r = 0; r < ranks && !failed; r++)
        failed = write_rank(dir, r, records / ranks + (r < records % ranks)) != 0;
    double gen = now() - t0;
    uint64_t total = 0, bytes = 0;
    if (!failed) {
        ra_trace *t = ra_trace_open(dir, &err);
        failed = !t;
        for (uint32_t r = 0; t && r < ranks; r++) {
            total += ra_rank_record_count(t, r);
            char p[4200];
            struct stat st;
            snprintf(p, sizeof p, "%s/%u.rec", dir, r);
            if (stat(p, &st) == 0)
                bytes += (uint64_t)st.st_size;
        }
        ra_trace_close(t);
    }
    if (failed) {
        fprintf(stderr, "bench-summary: writing the trace failed\n");
        if (!keep)
            remove_tree(dir);
        return 1;
    }
    printf("bench-summary: %llu records over %u ranks (%s mix), %.2f bytes/record, written in %.2f s\n",
           (unsigned long long)total, ranks, pwrite_only ? "pwrite" : "io", (double)bytes / (double)total,
           gen);
    printf("%-8s %10s %10s %16s %14s\n", "phase", "wall s", "CPU s", "Mrecords/CPU-s", "peak RSS MiB");
    for (int phase = PHASE_READER; phase <= PHASE_MODEL && !failed; phase++) {
        double s = 0, cpu = 0;
        long rss = 0;
        for (int k = 0; k < repeat && !failed; k++) { /* best of: the machine may be shared */
            double s1, cpu1;
            long rss1;
            if (measure(dir, phase, total, &s1, &cpu1, &rss1) != 0) {
                fprintf(stderr, "bench-summary: the %s phase failed\n", phase_names[phase]);
                failed = 1;
            } else if (k == 0 || cpu1 < cpu) {
                s = s1, cpu = cpu1, rss = rss1;
            }
        }
        if (failed)
            break;
        printf("%-8s %10.3f %10.3f %16.2f %14.1f\n", phase_names[phase], s, cpu, (double)total / cpu / 1e6,
               (double)rss / 1024.0);
    }
    if (!keep)
        remove_tree(dir);
    return failed ? 1 : 0;
}
