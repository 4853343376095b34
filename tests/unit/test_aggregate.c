/* Unit tests of aggregate files (rec_parts, the format's section 14): a
 * trace packed into aggregates reads back as the same trace with a file per
 * rank, every stream stays within its member, and damaged member tables are
 * refused naming the file and the reason. */
#define _GNU_SOURCE
#include "rec_h5store.h"
#include "recorder_format.h"
#include "rec_function_ids.h"
#include "rk_test.h"
#include "rk_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char h5store_text[] = "recorder-kit h5store 1\n2128 8 32768 1\t/out/f.h5\t/low\n";

/* The file's bytes (NULL and 0 when it does not exist). */
static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    *n = 0;
    if (!f)
        return NULL;
    uint8_t *data = NULL;
    for (size_t cap = 0, got = 1; got;) {
        if (*n == cap)
            data = realloc(data, cap = cap * 2 + 4096);
        got = fread(data + *n, 1, cap - *n, f);
        *n += got;
    }
    fclose(f);
    return data;
}

/* Three ranks of strided pwrites in several blocks; rank 1 also has an
 * h5store file, rank 2 never closes (no 2.meta). */
static char *write_trace(const char *name)
{
    char *dir = rk_test_dir(name);
    rk_trace_write_global(dir, &(rec_trace_info){.nranks = 3, .time_resolution = 1e-7, .window = 3});
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.block_size = 4096;
    for (uint32_t rank = 0; rank < 3; rank++) {
        rec_writer *w = rk_trace_open_rank(dir, rank, &o);
        rec_error err;
        for (int64_t k = 0; k < 2000; k++) {
            rec_record r;
            memset(&r, 0, sizeof r);
            r.func = REC_ID_pwrite;
            r.tstart = (uint64_t)k * 10;
            r.tend = r.tstart + 3;
            r.args[0].i = 64;
            r.args[2].i = 4096;
            r.args[3].i = (k * 3 + rank) * 4096;
            r.ret.i = 4096;
            CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &r, &err), 0);
        }
        CU_ASSERT_EQUAL_FATAL(rank == 2 ? rec_writer_abandon(w, &err) : rec_writer_close(w, &err), 0);
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/1.h5store", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(h5store_text, f);
    fclose(f);
    return dir;
}

/* Moves ranks [first, first + n)'s files of dir into aggregate.<index> of count. */
static void pack(const char *dir, uint32_t index, uint32_t count, uint32_t first, uint32_t n)
{
    rec_aggregate_member m[8];
    uint8_t *data[8][REC_PART_COUNT];
    size_t size = rec_aggregate_header_size(n);
    for (uint32_t i = 0; i < n; i++) {
        m[i].rank = first + i;
        for (unsigned k = 0; k < REC_PART_COUNT; k++) {
            char path[4200];
            size_t len;
            snprintf(path, sizeof path, "%s/%u.%s", dir, first + i, rec_part_suffix(k));
            data[i][k] = slurp(path, &len);
            unlink(path);
            m[i].length[k] = len;
            m[i].offset[k] = len ? size : 0;
            size += len;
        }
    }
    uint8_t *header = malloc(rec_aggregate_header_size(n));
    rec_aggregate_header_pack(header, index, count, m, n);
    char path[4200];
    snprintf(path, sizeof path, "%s/aggregate.%u", dir, index);
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fwrite(header, 1, rec_aggregate_header_size(n), f);
    for (uint32_t i = 0; i < n; i++)
        for (unsigned k = 0; k < REC_PART_COUNT; k++) {
            if (m[i].length[k])
                fwrite(data[i][k], 1, m[i].length[k], f);
            free(data[i][k]);
        }
    fclose(f);
    free(header);
}

/* Every rank's records printed, one line each, and its end ("complete" or not). */
static char *print_trace(const char *dir)
{
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    for (uint32_t rank = 0; rank < 3; rank++) {
        rec_cursor *c = rec_cursor_open(t, rank, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        rec_record r;
        int rc;
        while ((rc = rec_cursor_next(c, &r, &err)) == 1)
            fprintf(out, "%u %u %llu %lld\n", rank, r.func, (unsigned long long)r.tstart, (long long)r.args[3].i);
        CU_ASSERT_EQUAL(rc, 0);
        fprintf(out, "rank %u complete %d meta %d\n", rank, rec_cursor_complete(c),
                rec_trace_rank_meta(t, rank, &err) != NULL);
        rec_cursor_close(c);
    }
    rec_trace_close(t);
    fclose(out);
    return text;
}

RK_TEST(aggregate, members_read_back_as_the_files_they_were)
{
    char *dir = write_trace("aggregate_members");
    char *want = print_trace(dir);
    pack(dir, 0, 2, 0, 2);
    pack(dir, 1, 2, 2, 1);
    char path[4200];
    snprintf(path, sizeof path, "%s/0.rec", dir);
    CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
    char *got = print_trace(dir);
    CU_ASSERT_STRING_EQUAL(got, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "rank 2 complete 0 meta 0"));
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "rank 1 complete 1 meta 1"));

    rec_error err;
    rec_parts *l = rec_parts_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(l);
    CU_ASSERT_EQUAL(rec_parts_aggregates(l), 2);
    rec_part_place at;
    CU_ASSERT_EQUAL(rec_parts_find(l, 1, REC_PART_STREAM, &at), 0);
    char name[4300];
    snprintf(name, sizeof name, "%s/aggregate.0 (1.rec)", dir);
    CU_ASSERT_STRING_EQUAL(at.name, name);
    CU_ASSERT_EQUAL(rec_parts_find(l, 2, REC_PART_META, &at), 1); /* rank 2 never closed */
    uint8_t *data;
    size_t n;
    CU_ASSERT_EQUAL(rec_parts_read(l, 1, REC_PART_H5STORE, &data, &n, &err), 0);
    CU_ASSERT_EQUAL(n, strlen(h5store_text));
    CU_ASSERT_EQUAL(memcmp(data, h5store_text, n), 0);
    free(data);
    CU_ASSERT_EQUAL(rec_parts_read(l, 0, REC_PART_H5STORE, &data, &n, &err), 1);
    rec_parts_close(l);

    rec_h5store s;
    CU_ASSERT_EQUAL_FATAL(rec_h5store_read(dir, &s, &err), 0);
    CU_ASSERT_EQUAL(s.n, 1);
    rec_h5store_free(&s);
    free(want);
    free(got);
    free(dir);
}

/* A member whose stream was cut short: the reader stops at the member's
 * end (the next member's bytes follow) and names the member. */
RK_TEST(aggregate, a_stream_never_reads_into_the_next_member)
{
    char *dir = write_trace("aggregate_cut");
    char path[4200];
    size_t n;
    snprintf(path, sizeof path, "%s/0.rec", dir);
    uint8_t *rec = slurp(path, &n);
    FILE *f = fopen(path, "wb");
    fwrite(rec, 1, n - 30, f); /* the end marker and the end of the last block */
    fclose(f);
    free(rec);
    pack(dir, 0, 1, 0, 3);
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_record r;
    int rc;
    while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
    }
    CU_ASSERT_EQUAL(rc, -1); /* 0.meta says the rank closed: a cut stream is an error */
    char want[4300];
    snprintf(want, sizeof want, "%s/aggregate.0 (0.rec): truncated block", dir);
    if (!strstr(err.msg, want))
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
    rec_cursor_close(c);
    rec_trace_close(t);
    free(dir);
}

/* Damaged member tables: the trace is refused, naming the file and why. */
RK_TEST(aggregate, damaged_member_tables_are_refused)
{
    static const struct {
        long at;        /* byte to change (-1: none) */
        uint8_t value;
        long truncate;  /* new size of aggregate.1 (-1: keep) */
        const char *says;
    } cases[] = {
        {40, 0xff, -1, "aggregate.1: member table checksum mismatch"},
        {12, 7, -1, "aggregate.1: says it is aggregate 7 of 2"},
        {0, 'X', -1, "aggregate.1: bad magic at byte 0: not a aggregate file"},
        {-1, 0, 20, "aggregate.1: truncated header at byte 20"},
        {-1, 0, 60, "aggregate.1: truncated member table at byte 60"},
        {-1, 0, 100, "its rec part ends past the end of the file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "aggregate_bad%zu", i);
        char *dir = write_trace(name);
        pack(dir, 0, 2, 0, 2);
        pack(dir, 1, 2, 2, 1);
        char path[4200];
        snprintf(path, sizeof path, "%s/aggregate.1", dir);
        if (cases[i].at >= 0) {
            FILE *f = fopen(path, "r+b");
            fseek(f, cases[i].at, SEEK_SET);
            fputc(cases[i].value, f);
            fclose(f);
        }
        if (cases[i].truncate >= 0)
            CU_ASSERT_EQUAL_FATAL(truncate(path, cases[i].truncate), 0);
        rec_error err = {{0}};
        rec_trace *t = rec_trace_open(dir, &err);
        CU_ASSERT_PTR_NULL(t);
        if (!strstr(err.msg, cases[i].says))
            fprintf(stderr, "case %zu: %s\n", i, err.msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].says));
        rec_trace_close(t);
        free(dir);
    }
    /* A rank in two aggregates. */
    char *dir = write_trace("aggregate_twice");
    pack(dir, 0, 2, 0, 2);
    char from[4200], to[4200];
    snprintf(from, sizeof from, "%s/aggregate.0", dir);
    snprintf(to, sizeof to, "%s/aggregate.1", dir);
    size_t n;
    uint8_t *copy = slurp(from, &n);
    rec_aggregate_info info;
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(rec_aggregate_parse(copy, n, n, from, &info, &err), 0);
    CU_ASSERT_EQUAL(info.n, 2);
    rec_aggregate_header_pack(copy, 1, 2, info.members, info.n); /* the same ranks, as aggregate 1 */
    free(info.members);
    FILE *f = fopen(to, "wb");
    fwrite(copy, 1, n, f);
    fclose(f);
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 0 is a member of both aggregate.0 and aggregate.1"));
    free(copy);
    free(dir);
}

/* Any one byte of an aggregate's header and member table changed, and the
 * file cut at any byte of them: the trace is refused, never read wrong. */
RK_TEST(aggregate, every_damaged_or_missing_byte_of_a_table_is_caught)
{
    char *dir = write_trace("aggregate_every_byte");
    pack(dir, 0, 1, 0, 3);
    char path[4200];
    snprintf(path, sizeof path, "%s/aggregate.0", dir);
    size_t n;
    uint8_t *good = slurp(path, &n);
    size_t table = rec_aggregate_header_size(3);
    CU_ASSERT_FATAL(n > table);
    unsigned refused = 0, cases = 0;
    for (size_t at = 0; at < 2 * table; at++) {
        uint8_t *bad = malloc(n);
        memcpy(bad, good, n);
        size_t len = n;
        if (at < table)
            bad[at] ^= 0x5a; /* a changed byte */
        else
            len = at - table; /* cut there */
        FILE *f = fopen(path, "wb");
        fwrite(bad, 1, len, f);
        fclose(f);
        free(bad);
        rec_error err = {{0}};
        rec_trace *t = rec_trace_open(dir, &err);
        cases++;
        if (!t && strstr(err.msg, "aggregate.0"))
            refused++;
        else
            fprintf(stderr, "%s at byte %zu: %s\n", at < table ? "changed" : "cut", at % table,
                    t ? "read" : err.msg);
        rec_trace_close(t);
    }
    CU_ASSERT_EQUAL(refused, cases);
    free(good);
    free(dir);
}
