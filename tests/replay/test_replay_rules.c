/* Units of the replayer's safety rules: the re-rooting rule (shared with
 * generated kernels and recorder-diff, so it must stay exactly this), the
 * symlink guard, mkdir -p inside the prefix, and which calls create their
 * paths. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>
#include <mpi.h>

#include "creation.h"
#include "fs.h"
#include "rk_test.h"

static const char *norm(const char *in, int clamp, int *rc)
{
    static char out[PATH_MAX];
    *rc = rp_norm(in, out, sizeof out, clamp);
    return out;
}

#define NORM_IS(in, want)                                                                                    \
    do {                                                                                                     \
        int rc_;                                                                                             \
        CU_ASSERT_STRING_EQUAL(norm(in, 1, &rc_), want);                                                     \
        CU_ASSERT_EQUAL(rc_, 0);                                                                             \
    } while (0)

RK_TEST(replay_rules, absolute_and_relative_paths_go_under_the_root)
{
    NORM_IS("/a/b/c", "/a/b/c");
    NORM_IS("x/y", "/x/y");
    NORM_IS("a//b/", "/a/b");
    NORM_IS("", "/");
    NORM_IS(".", "/");
    NORM_IS("/", "/");
}

RK_TEST(replay_rules, dot_dot_is_lexical_and_clamped_at_the_root)
{
    NORM_IS("/a/./b/../c", "/a/c");
    NORM_IS("../../etc/passwd", "/etc/passwd");
    NORM_IS("/..", "/");
    NORM_IS("/a/../../../b/..", "/");
    NORM_IS("a/b/../../../../c", "/c");
    int rc;
    norm("/a/../../b", 0, &rc);
    CU_ASSERT_EQUAL(rc, 1); /* without clamping, climbing out is reported */
    norm("/a/b/../c", 0, &rc);
    CU_ASSERT_EQUAL(rc, 0);
}

RK_TEST(replay_rules, reroot_prefixes_the_normalized_path)
{
    char out[PATH_MAX];
    CU_ASSERT_EQUAL(rp_reroot("/p/q", "/a/b", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/p/q/a/b");
    CU_ASSERT_EQUAL(rp_reroot("/p/q", "/", out, sizeof out), 0);
    CU_ASSERT_STRING_EQUAL(out, "/p/q");
    CU_ASSERT_EQUAL(rp_reroot("/p", "/a", out, 3), -1);
}

RK_TEST(replay_rules, device_proc_and_sys_paths_are_recognized)
{
    CU_ASSERT(rp_is_system("/dev"));
    CU_ASSERT(rp_is_system("/dev/null"));
    CU_ASSERT(rp_is_system("/proc/self/fd/1"));
    CU_ASSERT(rp_is_system("/sys/kernel"));
    CU_ASSERT(!rp_is_system("/devices"));
    CU_ASSERT(!rp_is_system("/a/dev/null"));
    CU_ASSERT(!rp_is_system("/processes"));
}

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

static int creates(const char *func, unsigned arg, int64_t a0, int64_t a1, int64_t a2, const char *mode)
{
    const rec_func_desc *f = rec_function_by_name(func);
    int64_t ints[REC_MAX_ARGS] = {a0, a1, a2};
    const char *strs[REC_MAX_ARGS] = {0};
    for (unsigned k = 0; k < f->nargs; k++)
        if (f->args[k].kind == REC_KIND_STDIO_MODE)
            strs[k] = mode;
    return rp_arg_creates(f, arg, ints, strs);
}

RK_TEST(replay_rules, which_calls_create_their_paths)
{
    CU_ASSERT(creates("open", 0, 64, O_WRONLY | O_CREAT | O_TRUNC, 0644, NULL));
    CU_ASSERT(!creates("open", 0, 64, O_RDONLY, 0, NULL));
    CU_ASSERT(creates("openat", 1, 3, 64, O_CREAT, NULL));
    CU_ASSERT(creates("creat", 0, 64, 0644, 0, NULL));
    CU_ASSERT(creates("fopen", 0, 64, 0, 0, "w"));
    CU_ASSERT(creates("fopen", 0, 64, 0, 0, "a+"));
    CU_ASSERT(!creates("fopen", 0, 64, 0, 0, "r+"));
    CU_ASSERT(creates("mkdir", 0, 64, 0755, 0, NULL));
    CU_ASSERT(!creates("stat", 0, 64, 0, 0, NULL));
    CU_ASSERT(!creates("rename", 0, 64, 65, 0, NULL));
    CU_ASSERT(creates("rename", 1, 64, 65, 0, NULL));
    CU_ASSERT(creates("symlink", 1, 64, 65, 0, NULL));
    CU_ASSERT(creates("MPI_File_open", 1, 1, 64, MPI_MODE_CREATE | MPI_MODE_WRONLY, NULL));
    CU_ASSERT(!creates("MPI_File_open", 1, 1, 64, MPI_MODE_RDONLY, NULL));
    CU_ASSERT(creates("H5Fcreate", 0, 64, H5F_ACC_TRUNC, 0, NULL));
    CU_ASSERT(!creates("H5Fopen", 0, 64, H5F_ACC_RDONLY, 0, NULL));
    CU_ASSERT(rp_names_no_file(rec_function_by_name("symlink"), 0));
    CU_ASSERT(!rp_names_no_file(rec_function_by_name("symlink"), 1));
    CU_ASSERT(rp_names_no_file(rec_function_by_name("H5Lcreate_external"), 0));
}
