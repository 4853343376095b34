/* Unit tests of the merger on small synthetic traces: the paper's three
 * consecutive steps (Fig. 3), group merges, a worst case, relations with the
 * rank, handle unification, and exact round trips back to every rank. */
#define _GNU_SOURCE
#include "rec_function_ids.h"
#include "recorder_merge.h"
#include "rk_test.h"
#include "rk_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A call in a synthetic trace: function, fd (its per-rank id), count, offset. */
typedef struct call {
    unsigned func;
    int64_t fd, count, offset;
} call;

/* Writes one trace: rank r makes calls[r][0..n[r]). pwrite/pread/fsync take
 * (fd, count, offset); open opens "/data/file.<count>" and returns fd. */
static void write_trace(const char *dir, uint32_t nranks, const call *const *calls, const size_t *n)
{
    rec_trace_info info = {.nranks = nranks, .time_resolution = 1e-7, .window = 3, .start_time_ns = 1000};
    rk_trace_write_global(dir, &info);
    rec_error err;
    for (uint32_t r = 0; r < nranks; r++) {
        rec_writer_options o;
        rec_writer_options_init(&o);
        o.start_time_ns = 1000 + r * 700; /* the ranks started at different times */
        rec_writer *w = rk_trace_open_rank(dir, r, &o);
        for (size_t i = 0; i < n[r]; i++) {
            const call *c = &calls[r][i];
            rec_record rec;
            memset(&rec, 0, sizeof rec);
            rec.func = (uint16_t)c->func;
            rec.tstart = 10 * i + r;
            rec.tend = rec.tstart + 3;
            if (c->func == REC_ID_open) {
                char path[64];
                if (c->count)
                    snprintf(path, sizeof path, "/data/file.%lld", (long long)c->count);
                else /* a file unlike the others */
                    snprintf(path, sizeof path, "/data/input.txt");
                rec.args[0].i = rec_writer_path_id(w, path);
                rec.args[1].i = 0101;
                rec.args[2].i = 0644;
                rec.ret.i = c->fd;
            } else if (c->func == REC_ID_fsync || c->func == REC_ID_close) {
                rec.args[0].i = c->fd;
            } else {
                rec.args[0].i = c->fd;
                rec.args[2].i = c->count;
                rec.args[3].i = c->offset;
                rec.ret.i = c->count;
            }
            CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &rec, &err), 0);
        }
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    }
}

/* The merged stream as (function, rank-set size, first rank) triples. */
typedef struct merged_rec {
    unsigned func, nranks, first;
} merged_rec;

static size_t read_merged(const char *dir, merged_rec *out, size_t max)
{
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT(rec_trace_is_merged(t));
    rec_cursor *c = rec_cursor_open_merged(t, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_record r;
    rec_merge_info mi;
    size_t n = 0;
    int rc;
    while ((rc = rec_cursor_next_merged(c, &r, &mi, &err)) == 1 && n < max)
        out[n++] = (merged_rec){r.func, mi.nranks, mi.nranges ? mi.ranges[0].first : 0};
    CU_ASSERT_EQUAL(rc, 0);
    rec_cursor_close(c);
    rec_trace_close(t);
    return n;
}

/* Every rank's records read back from the merged trace equal the original,
 * times aside from the per-rank clock offset the merge applies. */
static void expect_round_trip(const char *orig, const char *merged)
{
    rec_error err;
    rec_trace *a = rec_trace_open(orig, &err), *b = rec_trace_open(merged, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    for (uint32_t rank = 0; rank < rec_trace_get_info(a)->nranks; rank++) {
        rec_cursor *ca = rec_cursor_open(a, rank, &err), *cb = rec_cursor_open(b, rank, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ca);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cb);
        rec_record ra, rb;
        int64_t offset = 0;
        size_t i = 0;
        for (;; i++) {
            int ga = rec_cursor_next(ca, &ra, &err), gb = rec_cursor_next(cb, &rb, &err);
            CU_ASSERT_EQUAL_FATAL(ga, gb);
            if (ga != 1)
                break;
            if (i == 0)
                offset = (int64_t)(rb.tstart - ra.tstart);
            CU_ASSERT_EQUAL(rb.func, ra.func);
            CU_ASSERT_EQUAL((int64_t)(rb.tstart - ra.tstart), offset);
            CU_ASSERT_EQUAL(rb.tend - rb.tstart, ra.tend - ra.tstart);
            const rec_func_desc *f = rec_table_lookup(rec_trace_table(a), ra.func);
            for (unsigned k = 0; k < f->nargs; k++) {
                if (rec_kind_class(f->args[k].kind) == REC_CLASS_PATH) {
                    CU_ASSERT_STRING_EQUAL(rec_cursor_path(cb, rb.args[k].i), rec_cursor_path(ca, ra.args[k].i));
                } else if (rec_kind_class(f->args[k].kind) == REC_CLASS_INT) {
                    CU_ASSERT_EQUAL(rb.args[k].i, ra.args[k].i);
                }
            }
            CU_ASSERT_EQUAL(rb.ret.i, ra.ret.i);
        }
        rec_cursor_close(ca);
        rec_cursor_close(cb);
    }
    rec_trace_close(a);
    rec_trace_close(b);
}

static void merge(const char *in, const char *out, int paper, unsigned window, rec_merge_stats *st)
{
    rec_merge_options o;
    rec_merge_options_init(&o);
    o.paper_rule = paper;
    o.window = window;
    rec_error err;
    int rc = rec_merge_traces(in, out, &o, st, &err);
    if (rc != 0)
        fprintf(stderr, "merge: %s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
}

#define W(fd, count, off) {REC_ID_pwrite, fd, count, off}
#define S(fd) {REC_ID_fsync, fd, 0, 0}

/* The three consecutive steps of Fig. 3 of "Automatic Generation of I/O
 * Kernels for HPC Applications": all heads match and merge; then the head
 * whose match is farthest (here: nowhere) goes alone; then the heads match
 * again. Both rules agree. */
RK_TEST(merge, paper_fig3_three_steps)
{
    const call r0[] = {W(64, 8, 0), S(64), W(64, 8, 8)};
    const call r1[] = {W(64, 8, 0), W(64, 8, 8)};
    const call r2[] = {W(64, 8, 0), W(64, 8, 8)};
    const call *calls[] = {r0, r1, r2};
    size_t n[] = {3, 2, 2};
    char *in = rk_test_dir("fig3"), *out = rk_test_dir("fig3-merged"), *out2 = rk_test_dir("fig3-paper");
    write_trace(in, 3, calls, n);
    for (int paper = 0; paper < 2; paper++) {
        rec_merge_stats st;
        merge(in, paper ? out2 : out, paper, 200, &st);
        merged_rec m[8];
        size_t k = read_merged(paper ? out2 : out, m, 8);
        CU_ASSERT_EQUAL_FATAL(k, 3);
        CU_ASSERT(m[0].func == REC_ID_pwrite && m[0].nranks == 3);
        CU_ASSERT(m[1].func == REC_ID_fsync && m[1].nranks == 1 && m[1].first == 0);
        CU_ASSERT(m[2].func == REC_ID_pwrite && m[2].nranks == 3);
        CU_ASSERT_EQUAL(st.records_in, 7);
        CU_ASSERT_EQUAL(st.merged_all, 2);
        expect_round_trip(in, paper ? out2 : out);
    }
    free(in);
    free(out);
    free(out2);
}

/* Group leaders (ranks 0 and 2) write twice before everyone meets at an
 * fsync: the complete-group rule merges the leaders' writes; the paper's
 * rule can only emit them one rank at a time. */
RK_TEST(merge, complete_groups_merge_subsets)
{
    const call lead0[] = {W(64, 8, 0), W(64, 8, 8), S(64)};
    const call lead2[] = {W(64, 8, 16), W(64, 8, 24), S(64)};
    const call rest[] = {S(64)};
    const call *calls[] = {lead0, rest, lead2, rest};
    size_t n[] = {3, 1, 3, 1};
    char *in = rk_test_dir("groups"), *out = rk_test_dir("groups-merged"), *paper = rk_test_dir("groups-paper");
    write_trace(in, 4, calls, n);
    rec_merge_stats st;
    merge(in, out, 0, 200, &st);
    merged_rec m[8];
    size_t k = read_merged(out, m, 8);
    CU_ASSERT_EQUAL_FATAL(k, 3);
    CU_ASSERT(m[0].func == REC_ID_pwrite && m[0].nranks == 2 && m[0].first == 0);
    CU_ASSERT(m[1].func == REC_ID_pwrite && m[1].nranks == 2);
    CU_ASSERT(m[2].func == REC_ID_fsync && m[2].nranks == 4);
    expect_round_trip(in, out);
    merge(in, paper, 1, 200, &st);
    k = read_merged(paper, m, 8);
    CU_ASSERT_EQUAL(k, 5); /* four single writes, then the fsync */
    CU_ASSERT(m[k - 1].func == REC_ID_fsync && m[k - 1].nranks == 4);
    expect_round_trip(in, paper);
    free(in);
    free(out);
    free(paper);
}

/* Offsets that are an affine function of the rank are stored as a relation;
 * others as a vector; either way each rank gets its own back. */
RK_TEST(merge, rank_relations)
{
    const call r[4][2] = {{W(64, 8, 0), W(64, 8, 5)}, {W(64, 8, 4096), W(64, 8, 7)},
                          {W(64, 8, 8192), W(64, 8, 1)}, {W(64, 8, 12288), W(64, 8, 100)}};
    const call *calls[] = {r[0], r[1], r[2], r[3]};
    size_t n[] = {2, 2, 2, 2};
    char *in = rk_test_dir("relations"), *out = rk_test_dir("relations-merged");
    write_trace(in, 4, calls, n);
    rec_merge_stats st;
    merge(in, out, 0, 200, &st);
    rec_error err;
    rec_trace *t = rec_trace_open(out, &err);
    rec_cursor *c = rec_cursor_open_merged(t, &err);
    rec_record rec;
    rec_merge_info mi;
    int found_affine = 0, found_vector = 0;
    while (rec_cursor_next_merged(c, &rec, &mi, &err) == 1) {
        for (uint32_t v = 0; v < mi.nvars; v++) {
            if (mi.vars[v].field != 3)
                continue;
            if (mi.vars[v].relation == REC_REL_AFFINE && mi.vars[v].a == 4096 && mi.vars[v].b == 0)
                found_affine++;
            if (mi.vars[v].relation == REC_REL_VECTOR && mi.vars[v].values[3].i == 100)
                found_vector++;
        }
        CU_ASSERT_EQUAL(mi.nranks, 4);
    }
    CU_ASSERT_EQUAL(found_affine, 1);
    CU_ASSERT_EQUAL(found_vector, 1);
    rec_cursor_close(c);
    rec_trace_close(t);
    expect_round_trip(in, out);
    free(in);
    free(out);
}

/* Rank 0 opens an extra file first, so its shared file is fd 65 where the
 * others have fd 64: the collective open still merges, the file gets one id
 * in the merged trace, and every rank gets its own id back. */
RK_TEST(merge, handles_are_unified)
{
    const call r0[] = {{REC_ID_open, 64, 0, 0}, {REC_ID_open, 65, 1, 0}, W(65, 8, 0), S(65)};
    const call rk[] = {{REC_ID_open, 64, 1, 0}, W(64, 8, 0), S(64)};
    const call *calls[] = {r0, rk, rk};
    size_t n[] = {4, 3, 3};
    char *in = rk_test_dir("unify"), *out = rk_test_dir("unify-merged");
    write_trace(in, 3, calls, n);
    rec_merge_stats st;
    merge(in, out, 0, 200, &st);
    merged_rec m[8];
    size_t k = read_merged(out, m, 8);
    CU_ASSERT_EQUAL_FATAL(k, 4); /* rank 0's extra open, then three merged calls */
    CU_ASSERT(m[0].func == REC_ID_open && m[0].nranks == 1);
    CU_ASSERT(m[1].func == REC_ID_open && m[1].nranks == 3);
    CU_ASSERT(m[2].func == REC_ID_pwrite && m[2].nranks == 3);
    CU_ASSERT(m[3].func == REC_ID_fsync && m[3].nranks == 3);
    /* In the merged stream the shared fd is one id (no per-rank vector). */
    rec_error err;
    rec_trace *t = rec_trace_open(out, &err);
    rec_cursor *c = rec_cursor_open_merged(t, &err);
    rec_record rec;
    rec_merge_info mi;
    while (rec_cursor_next_merged(c, &rec, &mi, &err) == 1)
        if (rec.func == REC_ID_fsync)
            for (uint32_t v = 0; v < mi.nvars; v++)
                CU_ASSERT_NOT_EQUAL(mi.vars[v].field, 0);
    rec_cursor_close(c);
    rec_trace_close(t);
    expect_round_trip(in, out);
    free(in);
    free(out);
}

/* The worst case: every rank makes the same calls in a different order (a
 * rotation), so heads never all match. The merge ends, loses nothing, and
 * still merges what it can. */
RK_TEST(merge, worst_case_rotations)
{
    enum { NR = 8, NC = 40 };
    static call r[NR][NC];
    const call *calls[NR];
    size_t n[NR];
    for (int k = 0; k < NR; k++) {
        for (int i = 0; i < NC; i++) {
            int j = (i + k) % NC;
            r[k][i] = (call){REC_ID_pwrite, 64, 1 + j, 100 * j};
        }
        calls[k] = r[k];
        n[k] = NC;
    }
    char *in = rk_test_dir("rotations"), *out = rk_test_dir("rotations-merged");
    write_trace(in, NR, calls, n);
    rec_merge_stats st;
    merge(in, out, 0, 200, &st);
    CU_ASSERT_EQUAL(st.records_in, NR * NC);
    CU_ASSERT(st.records_out < NR * NC);
    CU_ASSERT(st.records_out >= NC);
    expect_round_trip(in, out);
    /* With a window of 1 nothing beyond the heads is visible: still correct. */
    char *out1 = rk_test_dir("rotations-w1");
    merge(in, out1, 0, 1, &st);
    CU_ASSERT_EQUAL(st.records_in, NR * NC);
    expect_round_trip(in, out1);
    free(in);
    free(out);
    free(out1);
}

/* Long runs of alike calls merge in lockstep batches (up to 128 records of
 * every rank at a time): batches end at a file opened (a handle made), at a
 * call only some ranks make, and at the window's end; a field may start to
 * differ at any member. The counts are exact and every rank comes back. */
RK_TEST(merge, lockstep_batches_round_trip)
{
    enum { NR = 5, NC = 1000 };
    static call r[NR][NC + NC / 97 + NC / 300 + 2];
    const call *calls[NR];
    size_t n[NR];
    for (int k = 0; k < NR; k++) {
        size_t m = 0;
        for (int i = 0; i < NC; i++) {
            if (i % 300 == 0)
                r[k][m++] = (call){REC_ID_open, 64 + k + i / 300, 1 + i / 300, 0};
            if (i % 97 == 0 && k % 2 == 0)
                r[k][m++] = (call)S(64 + k + i / 300);
            /* rank 3's offset differs now and then: its column varies from member 3 */
            int64_t offset = 8 * i + (k == 3 && i % 7 == 0 ? 4096 : 0);
            r[k][m++] = (call)W(64 + k + i / 300, 8, offset);
        }
        calls[k] = r[k];
        n[k] = m;
    }
    char *in = rk_test_dir("lockstep");
    write_trace(in, NR, calls, n);
    const unsigned windows[] = {200, 50, 129};
    for (unsigned w = 0; w < sizeof windows / sizeof *windows; w++) {
        char name[32];
        snprintf(name, sizeof name, "lockstep-w%u", windows[w]);
        char *out = rk_test_dir(name);
        rec_merge_stats st;
        merge(in, out, 0, windows[w], &st);
        CU_ASSERT_EQUAL(st.records_in, NR * NC + 4 * NR + 11 * 3);
        CU_ASSERT_EQUAL(st.merged_all, NC + 4);   /* every pwrite and open */
        CU_ASSERT_EQUAL(st.merged_group, 11);     /* the fsyncs of ranks 0, 2, 4 */
        CU_ASSERT_EQUAL(st.single, 0);
        CU_ASSERT_EQUAL(st.records_out, NC + 4 + 11);
        expect_round_trip(in, out);
        free(out);
    }
    free(in);
}

/* Inconsistent input gets a clear error naming the file. */
RK_TEST(merge, missing_rank_is_an_error)
{
    const call one[] = {W(64, 8, 0)};
    const call *calls[] = {one, one};
    size_t n[] = {1, 1};
    char *in = rk_test_dir("missing"), *out = rk_test_dir("missing-merged");
    write_trace(in, 2, calls, n);
    char path[4200];
    snprintf(path, sizeof path, "%s/1.rec", in);
    CU_ASSERT_EQUAL(unlink(path), 0);
    rec_merge_options o;
    rec_merge_options_init(&o);
    rec_merge_stats st;
    rec_error err;
    CU_ASSERT_EQUAL(rec_merge_traces(in, out, &o, &st, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "1.rec: cannot open"));
    free(in);
    free(out);
}
