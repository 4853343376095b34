/* Units of the replayer's own file system rules: the symlink guard, mkdir
 * -p inside the prefix, pre-created inputs' sizes; the order between ranks. (The re-rooting rule
 * itself is the facts library's: tests/facts.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs.h"
#include "order.h"
#include "rk_test.h"

static void path_in(char *out, size_t cap, const char *root, const char *rel)
{
    snprintf(out, cap, "%s/%s", root, rel);
}

RK_TEST(replay_rules, symlinks_leading_out_of_the_prefix_are_refused)
{
    char prefix[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
    path_in(prefix, sizeof prefix, rk_test_tmpdir(), "prefix");
    CU_ASSERT_EQUAL(rp_mkdirs("", prefix), 0);
    path_in(p, sizeof p, prefix, "sub");
    CU_ASSERT_EQUAL(mkdir(p, 0755), 0);
    path_in(q, sizeof q, prefix, "inside");
    CU_ASSERT_EQUAL(symlink(p, q), 0); /* absolute, inside */
    path_in(q, sizeof q, prefix, "rel-inside");
    CU_ASSERT_EQUAL(symlink("sub/../sub", q), 0); /* relative, inside */
    path_in(q, sizeof q, prefix, "outside");
    CU_ASSERT_EQUAL(symlink(rk_test_tmpdir(), q), 0); /* absolute, outside */
    path_in(q, sizeof q, prefix, "climb");
    CU_ASSERT_EQUAL(symlink("../..", q), 0); /* relative, outside */
    path_in(q, sizeof q, prefix, "chain");
    path_in(p, sizeof p, prefix, "outside");
    CU_ASSERT_EQUAL(symlink(p, q), 0); /* inside, to a link outside */
    path_in(q, sizeof q, prefix, "dangling");
    CU_ASSERT_EQUAL(symlink("nowhere/yet", q), 0);

    const char *safe[] = {"a/new/file", "sub/x", "inside/x", "rel-inside/x", "dangling", "dangling/x"};
    const char *unsafe[] = {"outside/x", "outside", "climb/x", "chain/x"};
    for (size_t i = 0; i < sizeof safe / sizeof *safe; i++) {
        path_in(q, sizeof q, prefix, safe[i]);
        CU_ASSERT_EQUAL(rp_safe(prefix, q), 0);
    }
    for (size_t i = 0; i < sizeof unsafe / sizeof *unsafe; i++) {
        path_in(q, sizeof q, prefix, unsafe[i]);
        CU_ASSERT_EQUAL(rp_safe(prefix, q), -1);
    }
    CU_ASSERT_EQUAL(rp_safe(prefix, "/etc/passwd"), -1); /* not under the prefix at all */
}

RK_TEST(replay_rules, mkdirs_creates_only_under_the_prefix)
{
    char prefix[PATH_MAX], dir[PATH_MAX], outside[PATH_MAX];
    path_in(prefix, sizeof prefix, rk_test_tmpdir(), "mk/prefix");
    CU_ASSERT_EQUAL(rp_mkdirs("", prefix), 0);
    path_in(dir, sizeof dir, prefix, "a/b/c");
    CU_ASSERT_EQUAL(rp_mkdirs(prefix, dir), 0);
    CU_ASSERT_EQUAL(rp_sys_kind(dir), 2);
    CU_ASSERT_EQUAL(rp_mkdirs(prefix, dir), 0); /* again: nothing to do */
    path_in(outside, sizeof outside, rk_test_tmpdir(), "mk/elsewhere");
    CU_ASSERT_EQUAL(rp_mkdirs(prefix, outside), -1);
    CU_ASSERT_EQUAL(rp_sys_kind(outside), 0);
    path_in(outside, sizeof outside, rk_test_tmpdir(), "mk/prefixes"); /* a name that merely starts alike */
    CU_ASSERT_EQUAL(rp_mkdirs(prefix, outside), -1);
}

RK_TEST(replay_rules, sys_make_file_sets_the_size)
{
    char f[PATH_MAX];
    path_in(f, sizeof f, rk_test_tmpdir(), "input.dat");
    CU_ASSERT_EQUAL(rp_sys_make_file(f, 65536), 0);
    struct stat st;
    CU_ASSERT_EQUAL(stat(f, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 65536);
    CU_ASSERT_EQUAL(rp_sys_make_file(f, 10), 0);
    CU_ASSERT_EQUAL(stat(f, &st), 0);
    CU_ASSERT_EQUAL(st.st_size, 10);
}

/* ---- the order between ranks of a trace without MPI calls (order.c) ---- */

/* One top-level call of `name` on `path` by `rank` (its thread `thread`), noted at seq. */
static void note_on(rp_order_scan *s, uint32_t thread, const char *name, const char *path, int64_t flags,
                    int failed_errno, uint32_t rank, uint32_t seq, double t0, double t1)
{
    const rec_func_desc *f = rec_function_by_name(name);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = f->id;
    r.thread = thread;
    const char *paths[REC_MAX_ARGS] = {0};
    int placed = 0;
    for (unsigned k = 0; k < f->nargs; k++) {
        if (f->args[k].kind == REC_KIND_PATH && !placed++)
            paths[k] = path;
        else if (f->args[k].kind == REC_KIND_OFLAGS)
            r.args[k].i = flags;
    }
    r.ret.i = failed_errno ? -1 : 3;
    r.err = failed_errno;
    rp_order_note(s, f, &r, rank, seq, t0, t1, paths);
}

static void note(rp_order_scan *s, const char *name, const char *path, int64_t flags, int failed_errno,
                 uint32_t rank, uint32_t seq, double t0, double t1)
{
    note_on(s, 0, name, path, flags, failed_errno, rank, seq, t0, t1);
}

RK_TEST(replay_rules, ranks_keep_the_order_their_files_show)
{
    rp_order_scan *s = rp_order_scan_new();
    note(s, "stat", "/w/out/x", 0, ENOENT, 1, 2, 0.50, 0.51);        /* missing, before out/ is made */
    note(s, "mkdir", "/w/out", 0, 0, 0, 5, 1.00, 1.10);              /* rank 0 makes out/ */
    note(s, "stat", "/w/out", 0, 0, 3, 1, 1.05, 1.06);               /* overlaps the mkdir: no order */
    note(s, "open", "/w/out/group.1", O_CREAT | O_WRONLY, 0, 2, 3, 2.0, 2.1); /* inside out/, after it */
    note(s, "open", "/w/out/group.1", O_RDONLY, 0, 2, 7, 3.0, 3.1);  /* implied by the one above */
    note(s, "stat", "/w/in", 0, 0, 1, 4, 0.20, 0.21);                /* /w/in existed before ... */
    note(s, "open", "/w/in", O_CREAT | O_WRONLY, 0, 0, 6, 0.50, 0.60); /* ... so this made nothing */
    note(s, "stat", "/w/in", 0, 0, 2, 1, 0.90, 0.91);
    rp_edge *e;
    size_t n = rp_order_edges(s, &e);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    /* by (from rank, to rank) */
    CU_ASSERT(e[0].from_rank == 0 && e[0].from_seq == 5 && e[0].to_rank == 2 && e[0].to_seq == 3);
    CU_ASSERT(e[1].from_rank == 1 && e[1].from_seq == 2 && e[1].to_rank == 0 && e[1].to_seq == 5);
    free(e);
}

/* A rank's threads keep their own order only: an edge to one thread's record
 * implies nothing of another thread's later records. */
RK_TEST(replay_rules, each_thread_keeps_its_own_edges)
{
    rp_order_scan *s = rp_order_scan_new();
    note_on(s, 0, "mkdir", "/w/out", 0, 0, 0, 5, 1.00, 1.10);
    note_on(s, 2, "open", "/w/out/a", O_CREAT | O_WRONLY, 0, 1, 3, 2.0, 2.1);
    note_on(s, 0, "open", "/w/out/b", O_CREAT | O_WRONLY, 0, 1, 7, 3.0, 3.1);
    note_on(s, 2, "open", "/w/out/c", O_CREAT | O_WRONLY, 0, 1, 9, 4.0, 4.1); /* implied: thread 2 after seq 3 */
    rp_edge *e;
    size_t n = rp_order_edges(s, &e);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    /* by (from rank, to rank, from thread, to thread) */
    CU_ASSERT(e[0].from_rank == 0 && e[0].from_seq == 5 && e[0].from_thread == 0 && e[0].to_rank == 1 &&
              e[0].to_seq == 7 && e[0].to_thread == 0);
    CU_ASSERT(e[1].from_rank == 0 && e[1].from_seq == 5 && e[1].from_thread == 0 && e[1].to_rank == 1 &&
              e[1].to_seq == 3 && e[1].to_thread == 2);
    free(e);
}

RK_TEST(replay_rules, a_trace_with_mpi_calls_orders_itself)
{
    rp_order_scan *s = rp_order_scan_new();
    note(s, "mkdir", "/w/out", 0, 0, 0, 5, 1.00, 1.10);
    note(s, "open", "/w/out/f", O_CREAT | O_WRONLY, 0, 2, 3, 2.0, 2.1);
    const rec_func_desc *barrier = NULL;
    for (size_t i = 0; !barrier && i < rec_function_count; i++) /* any MPI-layer call that is not MPI_Init */
        if (rec_functions[i].layer == REC_LAYER_MPI &&
            !(rec_functions[i].roles & (REC_ROLE_STARTS_MPI | REC_ROLE_ENDS_MPI)))
            barrier = &rec_functions[i];
    CU_ASSERT_PTR_NOT_NULL_FATAL(barrier);
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = barrier->id;
    const char *none[REC_MAX_ARGS] = {0};
    rp_order_note(s, barrier, &r, 1, 0, 1.5, 1.6, none);
    rp_edge *e;
    CU_ASSERT_EQUAL(rp_order_edges(s, &e), 0);
    free(e);
}
