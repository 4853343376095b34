/* parallel.c: recorder-merge under mpirun. The trace's ranks are split
 * into as many consecutive blocks as there are processes; each process
 * merges its block (rec_merge_traces with a block), then the blocks' merged
 * parts are merged in a tree (rec_merge_combine): at each level a process
 * takes its neighbour's part, until process 0 writes the merged trace.
 * Every process needs the memory of its block only. */
#define _GNU_SOURCE
#include "parallel.h"
#include "merge_internal.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int merge_launched_by_mpi(void)
{
    static const char *const vars[] = {"PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "PMI_FD",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

/* The first rank of process p's block (p = active: the end): even blocks.
 * (Weighting them by the merging of parts each process does in the tree
 * gains nothing: a process merges parts only once its neighbour's are done.) */
static uint32_t block_start(int p, int active, uint32_t nranks)
{
    return (uint32_t)((uint64_t)p * nranks / (uint32_t)active);
}

/* Waits without spinning: a process done with its block must leave the
 * processor to the others (oversubscribed, it slowed them down). */
static void wait_idle(MPI_Request *req)
{
    int done = 0;
    for (;;) {
        MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        nanosleep(&(struct timespec){0, 500000}, NULL);
    }
}

/* A status passed along the tree: 0, or -1 and the message. */
typedef struct status {
    int rc;
    char msg[sizeof(((rec_error *)0)->msg)];
} status;

/* Every process learns the lowest-numbered failure, if any: 0 or -1. */
static int agree(status *s, int me, int size)
{
    int mine = s->rc ? me : size, first;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == size)
        return 0;
    MPI_Bcast(s->msg, sizeof s->msg, MPI_CHAR, first, MPI_COMM_WORLD);
    s->rc = -1;
    return -1;
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The clock every part's times go on, as the serial merge chooses it: the
 * earliest rank's start. Also the longest rank's records. */
static void block_clock(const char *in, uint32_t first, uint32_t count, uint64_t *start_ns, uint64_t *longest,
                        status *s)
{
    *start_ns = UINT64_MAX;
    *longest = 0;
    rec_error err;
    rec_trace *t = rec_trace_open(in, &err);
    if (!t) {
        s->rc = -1;
        snprintf(s->msg, sizeof s->msg, "%s", err.msg);
        return;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    for (uint32_t r = first; r < first + count; r++) {
        const rec_rank_meta *meta = rec_trace_rank_meta(t, r, &err);
        uint64_t start = meta ? meta->start_time_ns : info->start_time_ns;
        *start_ns = start < *start_ns ? start : *start_ns;
        if (meta && meta->records > *longest)
            *longest = meta->records;
    }
    rec_trace_close(t);
}

int merge_parallel(const char *in, const char *out, const rec_merge_options *base, int quiet)
{
    double t0 = wall();
    int me, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    status s = {0};
    rec_error err;
    uint32_t nranks = 0;
    rec_trace *probe = rec_trace_open(in, &err);
    if (!probe) {
        s.rc = -1;
        snprintf(s.msg, sizeof s.msg, "%s", err.msg);
    } else {
        nranks = rec_trace_get_info(probe)->nranks;
        if (rec_trace_is_merged(probe)) {
            s.rc = -1;
            snprintf(s.msg, sizeof s.msg, "%s: already a merged trace", in);
        }
        rec_trace_close(probe);
    }
    if (agree(&s, me, size) != 0)
        goto finish;
    /* Processes past the trace's ranks have no block. */
    int active = size < (int)nranks ? size : (int)nranks;
    /* The farthest-match rule merges a call only when every rank has it
     * next, which no block can tell: a block's ranks that agree made one
     * record where the whole trace's made one a rank (2,330 merged records
     * against 1,003 for a 5-rank trace). It runs serially, on process 0. */
    if (base->paper_rule && active > 1) {
        if (me == 0 && !quiet)
            fprintf(stderr, "recorder-merge: --farthest-match: merging on one process (the rule needs every rank's "
                            "next call)\n");
        active = 1;
    }
    uint32_t first = block_start(me < active ? me : active, active, nranks);
    uint32_t count = me < active ? block_start(me + 1, active, nranks) - first : 0;
    uint64_t start_ns = UINT64_MAX, longest = 0, clock_start, clock_longest;
    if (count)
        block_clock(in, first, count, &start_ns, &longest, &s);
    if (agree(&s, me, size) != 0)
        goto finish;
    /* as signed numbers: an idle process's UINT64_MAX won a MIN over
     * MPI_UINT64_T under MPICH (times since the epoch are below 2^63) */
    int64_t mine_start = start_ns > INT64_MAX ? INT64_MAX : (int64_t)start_ns, first_start;
    MPI_Allreduce(&mine_start, &first_start, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    clock_start = (uint64_t)first_start;
    MPI_Allreduce(&longest, &clock_longest, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);

    char parts[4200], mine[4300], theirs[4300], next[4300];
    snprintf(parts, sizeof parts, "%s/.recorder-merge-parts", out);
    if (me == 0) {
        rec_merge_remove_dir(parts);
        if (make_dirs(parts) != 0) {
            s.rc = -1;
            snprintf(s.msg, sizeof s.msg, "%s: cannot create: %s", parts, strerror(errno));
        }
    }
    if (agree(&s, me, size) != 0)
        goto finish;
    rec_merge_options o = *base;
    o.first_rank = first;
    o.rank_count = count;
    o.start_ns = clock_start;
    o.part = 1;
    o.progress = base->progress && me == 0;
    rec_merge_stats st = {0}, block = {0};
    snprintf(mine, sizeof mine, "%s/%d", parts, me);
    if (count && active > 1 && rec_merge_traces(in, mine, &o, &block, &err) != 0) {
        s.rc = -1;
        snprintf(s.msg, sizeof s.msg, "%s", err.msg);
    }
    uint64_t records_in = block.records_in, all_records_in = 0;
    if (getenv("RECORDER_MERGE_PHASES"))
        fprintf(stderr, "recorder-merge: process %d: block of %u ranks merged at %.2f s\n", me, count, wall() - t0);
    /* The tree: at level `step`, process p (a multiple of 2 step) takes
     * p + step's part; the last level writes the merged trace. */
    for (int step = 1; step < active && count; step *= 2) {
        if (me % (2 * step) == step) {
            MPI_Send(&s, sizeof s, MPI_BYTE, me - step, 0, MPI_COMM_WORLD);
            break;
        }
        if (me + step >= active)
            continue;
        status theirs_status;
        MPI_Request req;
        MPI_Irecv(&theirs_status, sizeof theirs_status, MPI_BYTE, me + step, 0, MPI_COMM_WORLD, &req);
        wait_idle(&req);
        if (s.rc == 0 && theirs_status.rc != 0)
            s = theirs_status;
        if (s.rc != 0)
            continue;
        snprintf(theirs, sizeof theirs, "%s/%d", parts, me + step);
        int last = 2 * step >= active;
        snprintf(next, sizeof next, "%s/%d.%d", parts, me, 2 * step);
        const char *inputs[2] = {mine, theirs};
        rec_merge_options co = *base;
        co.part = !last;
        co.first_rank = first;
        co.rank_count = block_start(me + 2 * step < active ? me + 2 * step : active, active, nranks) - first;
        co.progress = 0;
        if (rec_merge_combine(in, inputs, 2, last ? out : next, &co, &st, &err) != 0) {
            s.rc = -1;
            snprintf(s.msg, sizeof s.msg, "%s", err.msg);
            continue;
        }
        if (getenv("RECORDER_MERGE_PHASES"))
            fprintf(stderr, "recorder-merge: process %d: level %d merged at %.2f s\n", me, step, wall() - t0);
        rec_merge_remove_dir(mine);
        rec_merge_remove_dir(theirs);
        /* a process's part is always PARTS/p, where its parent looks */
        if (!last && rename(next, mine) != 0) {
            s.rc = -1;
            snprintf(s.msg, sizeof s.msg, "%s: cannot rename to %s: %s", next, mine, strerror(errno));
        }
    }
    if (active == 1 && me == 0 && s.rc == 0) {
        /* one rank, one block: the serial merge */
        o = *base;
        if (rec_merge_traces(in, out, &o, &st, &err) != 0) {
            s.rc = -1;
            snprintf(s.msg, sizeof s.msg, "%s", err.msg);
        }
        records_in = 0;
    }
    MPI_Request req;
    MPI_Ireduce(&records_in, &all_records_in, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD, &req);
    wait_idle(&req);
    MPI_Ibcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD, &req);
    wait_idle(&req);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long peak_kb = ru.ru_maxrss, most_kb = 0;
    MPI_Reduce(&peak_kb, &most_kb, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (me == 0) {
        rec_merge_remove_dir(parts);
        if (s.rc == 0 && !quiet) {
            st.records_in = active > 1 ? all_records_in : st.records_in;
            st.max_rank_records = clock_longest;
            st.seconds = wall() - t0;
            merge_print_summary("recorder-merge", &st, out);
            printf("recorder-merge: %d process%s, peak %.1f MB in one\n", active, active > 1 ? "es" : "", most_kb / 1024.0);
        }
    }
finish:
    if (s.rc != 0 && me == 0)
        fprintf(stderr, "recorder-merge: %s\n", s.msg);
    return s.rc == 0 ? 0 : 1;
}
