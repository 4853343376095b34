/* rk_test.h: one CUnit test per RK_TEST(suite, name); CMake finds each RK_TEST
 * in the sources and registers it as the ctest "suite.name". */
#ifndef RK_TEST_H
#define RK_TEST_H
#include <CUnit/CUnit.h>

#define RK_TEST(suite, name) void rk_test_##suite##__##name(void)

typedef struct rk_test_entry {
    const char *suite;
    const char *name;
    void (*fn)(void);
} rk_test_entry;

extern const rk_test_entry rk_test_registry[];

/* A scratch directory unique to this test process, created on first use. */
const char *rk_test_tmpdir(void);

/* The directory `name` in the scratch directory, created if missing; the
 * caller frees the path. */
char *rk_test_dir(const char *name);

#endif
