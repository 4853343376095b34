/* Units of the replayer's own file system rules: the symlink guard, mkdir
 * -p inside the prefix, pre-created inputs' sizes. (The re-rooting rule
 * itself is the facts library's: tests/facts.) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs.h"
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
