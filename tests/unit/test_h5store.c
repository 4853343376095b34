/* Unit tests of the h5store files (format/h5store.c, format.md section 13):
 * entries and their chunk lists round-trip, every rank's file is read and
 * equal lines kept once, and a damaged file is an error naming it and the
 * line. */
#include "rec_h5store.h"
#include "rk_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char good[] = "recorder-kit h5store 1\n"
                           "2128 8 32768 1\t/out/f.h5\t/low\t1 0,266 8192,270\n"
                           "113953 2 32768 2,1\t/out/f.h5\t/g/shuffled\n";

static void write_text(const char *dir, const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

RK_TEST(h5store, entries_and_chunk_lists_round_trip)
{
    rec_h5store s = {0}, back;
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(rec_h5store_parse(good, strlen(good), "good", &s, &err), 0);
    CU_ASSERT_EQUAL_FATAL(s.n, 2);
    CU_ASSERT_EQUAL(s.e[0].stored, 2128);
    CU_ASSERT_EQUAL(s.e[0].chunks, 8);
    CU_ASSERT_EQUAL(s.e[0].chunk_bytes, 32768);
    CU_ASSERT_STRING_EQUAL(s.e[0].file, "/out/f.h5");
    CU_ASSERT_STRING_EQUAL(s.e[0].dataset, "/low");
    CU_ASSERT_EQUAL(s.e[0].rank, 1);
    CU_ASSERT_EQUAL_FATAL(s.e[0].nsizes, 2);
    CU_ASSERT_EQUAL(s.e[0].sizes[2], 8192);
    CU_ASSERT_EQUAL(s.e[0].sizes[3], 270);
    CU_ASSERT_STRING_EQUAL(s.e[1].filters, "2,1");
    CU_ASSERT_EQUAL(s.e[1].nsizes, 0);
    CU_ASSERT_DOUBLE_EQUAL(rec_h5store_ratio(&s.e[0]), 2128.0 / (8 * 32768.0), 1e-12);
    char *text = rec_h5store_chunks_text(&s.e[0]);
    CU_ASSERT_STRING_EQUAL(text, "1 0,266 8192,270");
    free(text);
    CU_ASSERT_PTR_NULL(rec_h5store_chunks_text(&s.e[1]));
    /* written as a merged trace's file and read back: the same text */
    char path[4096];
    snprintf(path, sizeof path, "%s/merged.h5store", rk_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(rec_h5store_write(path, &s, &err), 0);
    CU_ASSERT_EQUAL_FATAL(rec_h5store_read(rk_test_tmpdir(), &back, &err), 0);
    CU_ASSERT_EQUAL(back.n, 2);
    CU_ASSERT_EQUAL(back.e[0].sizes[1], 266);
    CU_ASSERT_STRING_EQUAL(back.e[1].dataset, "/g/shuffled");
    rec_h5store_free(&back);
    rec_h5store_free(&s);
    remove(path);
}

RK_TEST(h5store, every_ranks_file_is_read_and_equal_lines_kept_once)
{
    char dir[4096];
    rec_h5store s;
    rec_error err;
    snprintf(dir, sizeof dir, "%s/ranks", rk_test_tmpdir());
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0755), 0);
    write_text(dir, "0.rec", "");
    write_text(dir, "1.rec", "");
    write_text(dir, "0.h5store", good);
    write_text(dir, "1.h5store", "recorder-kit h5store 1\n2128 8 32768 1\t/out/f.h5\t/low\t1 0,266 8192,270\n"
                                 "64 1 400 1\t/out/g.h5\t/only1\n");
    CU_ASSERT_EQUAL_FATAL(rec_h5store_read(dir, &s, &err), 0);
    CU_ASSERT_EQUAL(s.n, 3); /* rank 1's first line is rank 0's */
    CU_ASSERT_STRING_EQUAL(s.e[2].dataset, "/only1");
    rec_h5store_free(&s);
}

RK_TEST(h5store, a_damaged_file_names_itself_and_the_line)
{
    static const char *const bad[] = {
        "recorder-kit h5store 2\n",                                /* another version */
        "recorder-kit h5store 1\n1 2 3 1\t/f\t/d\n12 x\t/f\t/d\n", /* not numbers */
        "recorder-kit h5store 1\n12 1 400 1\t/f\n",                /* no dataset */
        "recorder-kit h5store 1\n12 1 400 1\t/f\t/d\t1 0;12\n",    /* a bad chunk list */
    };
    static const char *const says[] = {"not an h5store file", "line 3: malformed", "line 2: malformed",
                                       "line 2: malformed"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rec_h5store s = {0};
        rec_error err = {{0}};
        CU_ASSERT_EQUAL(rec_h5store_parse(bad[i], strlen(bad[i]), "t/0.h5store", &s, &err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "t/0.h5store"));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, says[i]));
        rec_h5store_free(&s);
    }
}
