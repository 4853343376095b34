/* test_proved.c: a report of recorder-advise --prove read back
 * (advise/prove.h, proved_read): the first line's ranks and findings with
 * ": " in the trace's name, each finding's heading and the text after its
 * labels, and the exact errors of what is not such a report. */
#include "prove.h"
#include "rk_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The report TEXT in a file of the test's scratch directory; the caller frees the path. */
static char *report_file(const char *name, const char *text)
{
    char *path = malloc(strlen(rk_test_tmpdir()) + strlen(name) + 2);
    sprintf(path, "%s/%s", rk_test_tmpdir(), name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static const char *const proved_report =
    "recorder-advise: /t/a: 9 ranks, 1 finding: 4 ranks, 2 findings\n"
    "prove: 1 untuned and 1 tuned replay of each finding's set, alternated, at 4 ranks under mpiexec; each "
    "replay's own time\n"
    "\n"
    "[1] small accesses: /data/x: y.dat\n"
    "    evidence:  512 MPI-IO data calls\n"
    "    set:       mpiio.data=collective\n"
    "    untuned:   median 0.090 s, min..max 0.089..0.091 s, 1 replay\n"
    "    tuned:     failed: replay 1 of 1 exited with status 1\n"
    "    stderr:    tuned: not this one\n"
    "    ratio:     none: a replay failed\n"
    "    applied:   not checked: a replay failed\n"
    "\n"
    "[2] unbalanced bytes per rank\n"
    "    evidence:  the most: rank 0\n"
    "\n"
    "combined tuning set (1 line; --set-file FILE writes it, recorder-replay --tune FILE tries it):\n"
    "    mpiio.data=collective\n";

RK_TEST(proved, headings_and_labels_with_colons_in_the_names)
{
    char *path = report_file("proved.txt", proved_report), err[512] = "";
    proved p;
    CU_ASSERT_EQUAL_FATAL(proved_read(path, &p, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(p.nranks, 4);
    CU_ASSERT_EQUAL_FATAL(p.n, 2);
    CU_ASSERT_STRING_EQUAL(p.f[0].heading, "small accesses: /data/x: y.dat");
    CU_ASSERT_STRING_EQUAL(p.f[0].untuned, "median 0.090 s, min..max 0.089..0.091 s, 1 replay");
    CU_ASSERT_STRING_EQUAL(p.f[0].tuned, "failed: replay 1 of 1 exited with status 1");
    CU_ASSERT_STRING_EQUAL(p.f[0].ratio, "none: a replay failed");
    CU_ASSERT_STRING_EQUAL(p.f[0].applied, "not checked: a replay failed");
    CU_ASSERT_STRING_EQUAL(p.f[1].heading, "unbalanced bytes per rank");
    CU_ASSERT_STRING_EQUAL(p.f[1].untuned, "");
    CU_ASSERT_STRING_EQUAL(p.f[1].applied, "");
    proved_free(&p);
    CU_ASSERT_PTR_NULL(p.f);
    free(path);
}

/* proved_read's error on TEXT, with the file's path where "@" stands. */
static void refused(const char *name, const char *text, const char *want)
{
    char *path = report_file(name, text), err[512] = "", expected[1024];
    proved p;
    CU_ASSERT_EQUAL(proved_read(path, &p, err, sizeof err), -1);
    CU_ASSERT_PTR_NULL(p.f);
    const char *at = strchr(want, '@');
    snprintf(expected, sizeof expected, "%.*s%s%s", (int)(at - want), want, path, at + 1);
    CU_ASSERT_STRING_EQUAL(err, expected);
    free(path);
}

RK_TEST(proved, what_is_not_a_prove_report_is_refused_with_its_reason)
{
    refused("summary.txt", "recorder-summary: 4 ranks\n",
            "@: not a report of recorder-advise (its first line)");
    refused("plain.txt", "recorder-advise: t: 4 ranks, 1 finding\n\n[1] small accesses: f\n",
            "@: a report of recorder-advise without --prove (no \"prove:\" line)");
    refused("order.txt", "recorder-advise: t: 4 ranks, 2 findings\nprove: x\n[2] small accesses: f\n",
            "@: finding [2] out of order or beyond the 2 of its first line");
    refused("beyond.txt", "recorder-advise: t: 4 ranks, 1 finding\nprove: x\n[1] a\n[2] b\n",
            "@: finding [2] out of order or beyond the 1 of its first line");
    refused("short.txt", "recorder-advise: t: 4 ranks, 2 findings\nprove: x\n[1] a\n",
            "@: 1 of the 2 findings its first line announces");
    char err[512];
    proved p;
    CU_ASSERT_EQUAL(proved_read("/nonexistent/proved.txt", &p, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "/nonexistent/proved.txt: cannot open: No such file or directory");
}

RK_TEST(proved, one_rank_and_no_finding)
{
    char *path = report_file("one.txt", "recorder-advise: t: 1 rank, 0 findings\nprove: x\n"), err[512] = "";
    proved p;
    CU_ASSERT_EQUAL(proved_read(path, &p, err, sizeof err), 0);
    CU_ASSERT_STRING_EQUAL(err, "");
    CU_ASSERT_EQUAL(p.nranks, 1);
    CU_ASSERT_EQUAL(p.n, 0);
    proved_free(&p);
    free(path);
}
