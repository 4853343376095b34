/* The runner for RK_TEST units: "runner SUITE.NAME" runs one test,
 * "runner" runs all, "runner --list" lists them. Exit 1 on any failure. */
#define _GNU_SOURCE
#include "rk_test.h"
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir_path[256];

static void remove_tmpdir(void)
{
    if (tmpdir_path[0] && !getenv("RK_TEST_KEEP")) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir_path);
        if (system(cmd) != 0)
            fprintf(stderr, "warning: could not remove %s\n", tmpdir_path);
    }
}

const char *rk_test_tmpdir(void)
{
    if (!tmpdir_path[0]) {
        const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(tmpdir_path, sizeof tmpdir_path, "%s/rk_test.XXXXXX", base);
        if (!mkdtemp(tmpdir_path)) {
            perror("mkdtemp");
            exit(2);
        }
        atexit(remove_tmpdir);
    }
    return tmpdir_path;
}

char *rk_test_dir(const char *name)
{
    char *dir;
    if (asprintf(&dir, "%s/%s", rk_test_tmpdir(), name) < 0)
        abort();
    mkdir(dir, 0755);
    return dir;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    if (only && strcmp(only, "--list") == 0) {
        for (const rk_test_entry *t = rk_test_registry; t->suite; t++)
            printf("%s.%s\n", t->suite, t->name);
        return 0;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = NULL;
    const char *suite_name = NULL;
    int added = 0;
    for (const rk_test_entry *t = rk_test_registry; t->suite; t++) {
        char full[256];
        snprintf(full, sizeof full, "%s.%s", t->suite, t->name);
        if (only && strcmp(only, full) != 0)
            continue;
        if (!suite_name || strcmp(suite_name, t->suite) != 0) {
            suite = CU_get_suite(t->suite);
            if (!suite)
                suite = CU_add_suite(t->suite, NULL, NULL);
            suite_name = t->suite;
        }
        CU_add_test(suite, t->name, t->fn);
        added++;
    }
    if (!added) {
        fprintf(stderr, "%s: no test named %s\n", argv[0], only ? only : "(any)");
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_tests_failed() + CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
