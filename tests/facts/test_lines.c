/* Units of the facts library's line structure (where line-oriented reads
 * show delimiters, the compact forms kernels write them in, the text that
 * puts them back) and of what the inputs scan learns from directory
 * listings and links. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "rec_function_ids.h"
#include "recorder_facts.h"
#include "rk_test.h"

RK_TEST(lines, a_read_shorter_than_its_limit_ends_at_a_newline)
{
    rf_lines *l = rf_lines_new();
    rf_lines_note(l, 3, 0, 21, 64, '\n');  /* fgets(64) = 21: byte 20 */
    rf_lines_note(l, 3, 21, 63, 64, '\n'); /* filled its buffer: no newline known */
    rf_lines_note(l, 3, 84, 17, 64, '\n'); /* the rest of that line: byte 100 */
    rf_lines_note(l, 3, 0, 21, 0, '\n');   /* getline of the first line again: the same byte */
    rf_lines_note(l, 3, 200, 0, 0, '\n');  /* end of file: nothing */
    rf_lines_note(l, 3, 101, 9, 0, ',');   /* another delimiter on the same file: not kept */
    rf_lines_note(l, 1, 10, 5, 0, ';');    /* getdelim(';') on another file */
    rf_lines_finish(l);
    const int64_t *at;
    CU_ASSERT_EQUAL_FATAL(rf_lines_in(l, 3, 0, 1000, &at), 2u);
    CU_ASSERT_EQUAL(at[0], 20);
    CU_ASSERT_EQUAL(at[1], 100);
    CU_ASSERT_EQUAL(rf_lines_in(l, 3, 21, 79, &at), 0u); /* [21, 100) */
    CU_ASSERT_EQUAL_FATAL(rf_lines_in(l, 3, 21, 80, &at), 1u);
    CU_ASSERT_EQUAL(at[0], 100);
    CU_ASSERT_EQUAL(rf_lines_delim(l, 3), '\n');
    CU_ASSERT_EQUAL_FATAL(rf_lines_in(l, 1, 0, 100, &at), 1u);
    CU_ASSERT_EQUAL(at[0], 14);
    CU_ASSERT_EQUAL(rf_lines_delim(l, 1), ';');
    CU_ASSERT_EQUAL(rf_lines_delim(l, 2), -1); /* no read showed one */
    CU_ASSERT_EQUAL(rf_lines_in(l, 2, 0, 100, &at), 0u);
    CU_ASSERT_EQUAL(rf_lines_in(l, 99, 0, 100, &at), 0u);
    rf_lines_free(l);
}

RK_TEST(lines, regular_lines_are_told_by_their_first_and_period)
{
    const int64_t trailing[] = {123};
    rf_line_shape s = rf_lines_shape(trailing, 1, 100, 24);
    CU_ASSERT_EQUAL(s.kind, RF_LINES_TRAILING);
    CU_ASSERT_EQUAL(s.first, 23);
    CU_ASSERT_EQUAL(rf_lines_shape(trailing, 0, 100, 24).kind, RF_LINES_NONE);
    const int64_t every10[] = {1009, 1019, 1029};
    s = rf_lines_shape(every10, 3, 1000, 30);
    CU_ASSERT_EQUAL(s.kind, RF_LINES_REGULAR);
    CU_ASSERT_EQUAL(s.first, 9);
    CU_ASSERT_EQUAL(s.period, 10);
    /* a write that ends in the middle of a fourth line: still regular */
    CU_ASSERT_EQUAL(rf_lines_shape(every10, 3, 1000, 35).kind, RF_LINES_REGULAR);
    /* a line of 10 bytes without its newline at the end: a table */
    CU_ASSERT_EQUAL(rf_lines_shape(every10, 3, 1000, 41).kind, RF_LINES_IRREGULAR);
    /* a first line longer than the others */
    CU_ASSERT_EQUAL(rf_lines_shape(every10, 3, 990, 40).kind, RF_LINES_IRREGULAR);
    const int64_t varied[] = {4, 20, 21, 40};
    CU_ASSERT_EQUAL(rf_lines_shape(varied, 4, 0, 41).kind, RF_LINES_IRREGULAR);
    /* one newline inside the range, not at its end: a period as long as the range */
    s = rf_lines_shape(varied, 1, 0, 41);
    CU_ASSERT_EQUAL(s.kind, RF_LINES_REGULAR);
    CU_ASSERT_EQUAL(s.first, 4);
    CU_ASSERT_EQUAL(s.period, 41);
    int64_t len[4];
    CU_ASSERT_EQUAL(rf_lines_lengths(varied, 4, 0, len, 4), 4u);
    CU_ASSERT_EQUAL(len[0], 5);
    CU_ASSERT_EQUAL(len[1], 16);
    CU_ASSERT_EQUAL(len[2], 1);
    CU_ASSERT_EQUAL(len[3], 19);
    CU_ASSERT_EQUAL(rf_lines_lengths(varied, 4, 0, len, 2), 4u); /* counts what did not fit */
}

RK_TEST(lines, the_text_puts_each_newline_back_and_no_other)
{
    const int64_t at[] = {3, 9, 30};
    char buf[12];
    rf_lines_fill(buf, sizeof buf, at, 3, 2, '\n'); /* bytes 2..13 of the file */
    CU_ASSERT_EQUAL(memcmp(buf, "a\ncdefg\nijkl", sizeof buf), 0);
    /* what fgets would return on it, line by line */
    CU_ASSERT_EQUAL((char *)memchr(buf, '\n', sizeof buf) - buf, 1);
}

/* ---- what the inputs scan learns ---- */

static rec_record record(int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.ret.i = ret;
    return r;
}

static void add(rf_inputs *s, double t, const char *func, const char *path, rec_record *r)
{
    const rec_func_desc *f = rec_function_by_name(func);
    const char *paths[REC_MAX_ARGS] = {0};
    for (unsigned k = 0; k < f->nargs && path; k++)
        if (f->args[k].kind == REC_KIND_PATH) {
            paths[k] = path;
            break;
        }
    rf_inputs_add(s, f, r, 0, t, paths);
}

static const rf_input *find_input(const rf_input *in, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(in[i].key, key))
            return &in[i];
    return NULL;
}

RK_TEST(lines, the_scan_places_line_reads_and_writes_in_their_file)
{
    rf_inputs *s = rf_inputs_new(RF_INPUTS_ANCESTORS);
    rec_record r = record(7); /* fopen("/d/in.txt", "r") = FILE 7 */
    r.args[REC_ARG_fopen_mode].ptr = "r";
    r.args[REC_ARG_fopen_mode].len = 1;
    add(s, 1.0, "fopen", "/d/in.txt", &r);
    rf_span span;
    CU_ASSERT(!rf_inputs_last_span(s, &span));
    const int64_t lines[] = {10, 63, 5, 12}; /* fgets(64): 10, then 63 + 5 of one long line, then 12 */
    int64_t at = 0;
    for (int i = 0; i < 4; i++) {
        r = record(lines[i]);
        r.args[REC_ARG_fgets_size].i = 64;
        r.args[REC_ARG_fgets_stream].i = 7;
        add(s, 2.0 + i, "fgets", NULL, &r);
        CU_ASSERT_FATAL(rf_inputs_last_span(s, &span));
        CU_ASSERT_EQUAL(span.offset, at);
        CU_ASSERT_EQUAL(span.bytes, lines[i]);
        at += lines[i];
    }
    r = record(0);
    r.args[REC_ARG_fclose_stream].i = 7;
    add(s, 7.0, "fclose", NULL, &r);
    rf_lines *l = rf_inputs_lines(s);
    rf_input *in;
    size_t n = rf_inputs_finish(s, &in);
    const rf_input *txt = find_input(in, n, "/d/in.txt");
    CU_ASSERT_PTR_NOT_NULL_FATAL(txt);
    CU_ASSERT_EQUAL(txt->size, 90);
    CU_ASSERT_EQUAL(span.file, txt->file);
    const int64_t *marks;
    CU_ASSERT_EQUAL_FATAL(rf_lines_in(l, txt->file, 0, txt->size, &marks), 3u);
    CU_ASSERT_EQUAL(marks[0], 9);
    CU_ASSERT_EQUAL(marks[1], 77);
    CU_ASSERT_EQUAL(marks[2], 89);
    rf_lines_free(l);
    rf_inputs_free(in, n);
}

RK_TEST(lines, a_listing_and_a_link_the_run_found_are_inputs)
{
    rf_inputs *s = rf_inputs_new(0);
    rec_record r = record(5); /* opendir("/t") = DIR 5 */
    add(s, 1.0, "opendir", "/t", &r);
    const char *names[] = {".", "..", "notes.skip", "made.dat", "link", ""};
    for (int i = 0; i < 6; i++) {
        r = record(0);
        r.args[REC_ARG_readdir_dirp].i = 5;
        r.ret.ptr = names[i];
        r.ret.len = (uint32_t)strlen(names[i]);
        add(s, 2.0 + i, "readdir", NULL, &r);
    }
    r = record(3); /* made.dat was created before the listing: no input */
    r.args[REC_ARG_open_flags].i = O_CREAT | O_WRONLY;
    add(s, 1.5, "open", "/t/made.dat", &r);
    r = record(5); /* readlink("/t/link") = "a/f" */
    r.args[REC_ARG_readlink_buf].ptr = "a/f";
    r.args[REC_ARG_readlink_buf].len = 3;
    add(s, 9.0, "readlink", "/t/link", &r);
    r = record(4); /* a read through the link: its target held 300 bytes */
    add(s, 10.0, "open", "/t/link", &r);
    r = record(300);
    r.args[REC_ARG_read_fd].i = 4;
    r.args[REC_ARG_read_count].i = 4096;
    add(s, 11.0, "read", NULL, &r);
    rf_input *in;
    size_t n = rf_inputs_finish(s, &in);
    CU_ASSERT_PTR_NOT_NULL(find_input(in, n, "/t/notes.skip"));
    CU_ASSERT_PTR_NULL(find_input(in, n, "/t/made.dat"));
    CU_ASSERT_PTR_NULL(find_input(in, n, "/t/."));
    const rf_input *link = find_input(in, n, "/t/link");
    CU_ASSERT_PTR_NOT_NULL_FATAL(link);
    CU_ASSERT_STRING_EQUAL(link->link, "a/f");
    CU_ASSERT(!link->is_dir);
    const rf_input *target = find_input(in, n, "/t/a/f");
    CU_ASSERT_PTR_NOT_NULL_FATAL(target);
    CU_ASSERT_PTR_NULL(target->link);
    CU_ASSERT_EQUAL(target->size, 300);
    const rf_input *dir = find_input(in, n, "/t");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    CU_ASSERT(dir->is_dir);
    CU_ASSERT_EQUAL(n, 4u); /* /t, /t/a/f, /t/link, /t/notes.skip */
    rf_inputs_free(in, n);
}
