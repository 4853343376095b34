/* Unit tests of the reader on damaged and unusual traces: truncation and
 * corruption at every byte, time deltas past 2^32 ticks, traces of ranks
 * that never closed, selective decoding and its block skipping, zstd blocks
 * as runs of frames. */
#define _GNU_SOURCE
#include "block.h"
#include "reader_fs.h"
#include "recorder_format.h"
#include "rec_function_ids.h"
#include "rk_test.h"
#include "rk_trace.h"

#include <zstd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static void write_global(const char *dir, uint32_t nranks)
{
    rk_trace_write_global(dir, &(rec_trace_info){.nranks = nranks, .time_resolution = 1e-7, .window = 3});
}

static rec_record pwrite_record(int64_t fd, int64_t count, int64_t offset, uint64_t t)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = REC_ID_pwrite;
    r.tstart = t;
    r.tend = t + 3;
    r.args[0].i = fd;
    r.args[2].i = count;
    r.args[3].i = offset;
    r.ret.i = count;
    return r;
}

/* A small two-rank trace in a new directory `name` (returned, for the
 * caller to free): opens, strided pwrites, an fsync, closes. With
 * block_size 4096 it spans several blocks. */
static char *write_small_trace(const char *name, size_t writes, size_t block_size, int close_cleanly)
{
    char *dir = rk_test_dir(name);
    write_global(dir, 2);
    for (uint32_t rank = 0; rank < 2; rank++) {
        rec_writer_options o;
        rec_writer_options_init(&o);
        o.block_size = block_size;
        rec_writer *w = rk_trace_open_rank(dir, rank, &o);
        rec_error err;
        rec_record r;
        memset(&r, 0, sizeof r);
        r.func = REC_ID_open;
        r.args[0].i = rec_writer_path_id(w, rank ? "/data/out.1" : "/data/out.0");
        r.args[1].i = 0101;
        r.args[2].i = 0644;
        r.ret.i = 64;
        CU_ASSERT_EQUAL(rec_writer_append(w, &r, &err), 0);
        for (size_t i = 0; i < writes; i++) {
            r = pwrite_record(64, 4096, (int64_t)(i * 4096 * 2 + rank * 4096), 10 + i * 7 + (i * 31 % 5));
            CU_ASSERT_EQUAL(rec_writer_append(w, &r, &err), 0);
        }
        memset(&r, 0, sizeof r);
        r.func = REC_ID_fsync;
        r.tstart = r.tend = 100000;
        r.args[0].i = 64;
        CU_ASSERT_EQUAL(rec_writer_append(w, &r, &err), 0);
        if (close_cleanly) {
            CU_ASSERT_EQUAL(rec_writer_close(w, &err), 0);
        } else {
            CU_ASSERT_EQUAL(rec_writer_flush(w, &err), 0);
            rec_record late = pwrite_record(64, 1, 0, 200000); /* lost with the crash */
            CU_ASSERT_EQUAL(rec_writer_append(w, &late, &err), 0);
            rec_writer_discard(w);
        }
    }
    return dir;
}

/* Reads every rank to the end. 0: all fine; -1: an error (message in err). */
static int read_all(const char *dir, uint64_t *records, rec_error *err)
{
    rec_trace *t = rec_trace_open(dir, err);
    if (!t)
        return -1;
    int rc = 0;
    *records = 0;
    for (uint32_t rank = 0; rank < rec_trace_get_info(t)->nranks && rc == 0; rank++) {
        rec_cursor *c = rec_cursor_open(t, rank, err);
        if (!c) {
            rc = -1;
            break;
        }
        rec_record r;
        int got;
        while ((got = rec_cursor_next(c, &r, err)) == 1)
            (*records)++;
        if (got < 0)
            rc = -1;
        rec_cursor_close(c);
    }
    rec_trace_close(t);
    return rc;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(*n ? *n : 1);
    CU_ASSERT_EQUAL_FATAL(fread(data, 1, *n, f), *n);
    fclose(f);
    return data;
}

static void spill(const char *path, const uint8_t *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(data, 1, n, f), n);
    fclose(f);
}

static const char *const trace_files[] = {"recorder.meta", "0.rec", "0.meta", "1.rec", "1.meta"};

RK_TEST(reader, truncation_at_every_byte_is_an_error)
{
    char *dir = write_small_trace("truncate", 300, 4096, 1);
    uint64_t records;
    rec_error err;
    CU_ASSERT_EQUAL_FATAL(read_all(dir, &records, &err), 0);
    CU_ASSERT_EQUAL(records, 2 * 302);
    for (size_t f = 0; f < sizeof trace_files / sizeof *trace_files; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, trace_files[f]);
        size_t n;
        uint8_t *orig = slurp(path, &n);
        size_t failures = 0;
        for (size_t len = 0; len < n; len++) {
            spill(path, orig, len);
            err.msg[0] = 0;
            int rc = read_all(dir, &records, &err);
            failures += rc != 0;
            if (rc == 0)
                fprintf(stderr, "%s truncated to %zu bytes read without error\n", trace_files[f], len);
            /* Every message names the damaged file. */
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, trace_files[f]));
        }
        CU_ASSERT_EQUAL(failures, n);
        spill(path, orig, n);
        free(orig);
    }
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), 0);
    free(dir);
}

RK_TEST(reader, corruption_at_every_byte_is_an_error)
{
    char *dir = write_small_trace("corrupt", 200, 4096, 1);
    rec_error err;
    uint64_t records;
    for (size_t f = 0; f < sizeof trace_files / sizeof *trace_files; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, trace_files[f]);
        size_t n;
        uint8_t *orig = slurp(path, &n);
        uint8_t *bad = malloc(n);
        size_t undetected = 0;
        for (size_t at = 0; at < n; at++) {
            if (at == 10 || at == 11) /* the minor version: readers accept any */
                continue;
            memcpy(bad, orig, n);
            bad[at] ^= 0x5a;
            spill(path, bad, n);
            if (read_all(dir, &records, &err) == 0) {
                undetected++;
                fprintf(stderr, "%s: byte %zu flipped unnoticed\n", trace_files[f], at);
            }
        }
        CU_ASSERT_EQUAL(undetected, 0);
        spill(path, orig, n);
        free(orig);
        free(bad);
    }
    free(dir);
}

RK_TEST(reader, error_messages_name_file_and_reason)
{
    char *dir = write_small_trace("messages", 10, 4096, 1);
    rec_error err;
    uint64_t records;
    char path[4096];
    size_t n;
    snprintf(path, sizeof path, "%s/0.rec", dir);
    uint8_t *orig = slurp(path, &n);
    uint8_t *bad = malloc(n);

    memcpy(bad, orig, n);
    bad[0] = 'X';
    spill(path, bad, n);
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), -1);
    char want[4200];
    snprintf(want, sizeof want, "%s: bad magic at byte 0: not a record stream file", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);

    memcpy(bad, orig, n);
    bad[8] = 9; /* major version 9 */
    spill(path, bad, n);
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), -1);
    snprintf(want, sizeof want, "%s: unknown format version 9.%d at byte 8 (this reader: 1.x)", path,
             REC_FORMAT_VERSION_MINOR);
    CU_ASSERT_STRING_EQUAL(err.msg, want);

    spill(path, orig, n - 1);
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), -1);
    snprintf(want, sizeof want, "%s: truncated block header at byte %zu", path, n - 80);
    CU_ASSERT_STRING_EQUAL(err.msg, want);

    spill(path, orig, n);
    CU_ASSERT_EQUAL(rec_trace_open("/nonexistent/trace", &err), NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/trace: not a trace directory"));
    free(orig);
    free(bad);
    free(dir);
}

RK_TEST(reader, time_deltas_beyond_2_32_ticks)
{
    char *dir = rk_test_dir("longtime");
    write_global(dir, 1);
    rec_writer *w = rk_trace_open_rank(dir, 0, NULL);
    rec_error err;
    const uint64_t starts[] = {0, 5, (1ull << 32) + 7, (1ull << 33) + 1, (1ull << 33) + 2, (1ull << 40), (1ull << 62)};
    const uint64_t lengths[] = {1, (1ull << 32) + 3, 0, 5, (1ull << 35), 2, (1ull << 33)};
    for (int i = 0; i < 7; i++) {
        rec_record r = pwrite_record(64, 8, i * 8, starts[i]);
        r.tend = starts[i] + lengths[i];
        CU_ASSERT_EQUAL(rec_writer_append(w, &r, &err), 0);
    }
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_record r;
    for (int i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL_FATAL(rec_cursor_next(c, &r, &err), 1);
        CU_ASSERT_EQUAL(r.tstart, starts[i]);
        CU_ASSERT_EQUAL(r.tend, starts[i] + lengths[i]);
        CU_ASSERT_EQUAL(r.args[3].i, i * 8);
    }
    CU_ASSERT_EQUAL(rec_cursor_next(c, &r, &err), 0);
    rec_cursor_close(c);
    rec_trace_close(t);
    free(dir);
}

RK_TEST(reader, rank_that_never_closed_reads_to_last_block)
{
    char *dir = write_small_trace("crashed", 1000, 4096, 0);
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NULL(rec_trace_rank_meta(t, 0, &err));
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_record r;
    uint64_t n = 0;
    int rc;
    while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
        if (n == 0) {
            CU_ASSERT_STRING_EQUAL(rec_cursor_path(c, r.args[0].i), "/data/out.0");
        }
        n++;
    }
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(n, 1002); /* open, 1000 pwrites, fsync; the unflushed record is lost */
    CU_ASSERT_EQUAL(rec_cursor_complete(c), 0);
    rec_cursor_close(c);
    rec_trace_close(t);

    /* A torn last block (the crash hit mid-write) ends the stream early, not in an error. */
    char path[4096];
    snprintf(path, sizeof path, "%s/1.rec", dir);
    size_t size;
    uint8_t *data = slurp(path, &size);
    spill(path, data, size - 100);
    uint64_t records;
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), 0);
    CU_ASSERT(records > 1002 && records < 2004);
    free(data);
    free(dir);
}

RK_TEST(reader, selective_decoding_skips_blocks)
{
    char *dir = rk_test_dir("selective");
    write_global(dir, 1);
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.block_size = 4096;
    rec_writer *w = rk_trace_open_rank(dir, 0, &o);
    rec_error err;
    /* 20000 pwrites, with a read every 5000: most blocks hold no read. */
    uint64_t reads = 0;
    for (int i = 0; i < 20000; i++) {
        rec_record r = pwrite_record(64, 100, i * 100, (uint64_t)i * 10);
        if (i % 5000 == 4999) {
            r.func = REC_ID_pread;
            reads++;
        }
        CU_ASSERT_EQUAL(rec_writer_append(w, &r, &err), 0);
    }
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    rec_trace *t = rec_trace_open(dir, &err);
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_cursor_want(c, REC_ID_pread);
    rec_record r;
    uint64_t got = 0;
    while (rec_cursor_next(c, &r, &err) == 1) {
        CU_ASSERT_EQUAL(r.func, REC_ID_pread);
        CU_ASSERT_EQUAL(r.args[3].i % 500000, 499900);
        got++;
    }
    CU_ASSERT_EQUAL(got, reads);
    CU_ASSERT_EQUAL(rec_cursor_complete(c), 1);
    const rec_rank_meta *m = rec_trace_rank_meta(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT(m->blocks > 8);
    CU_ASSERT(rec_cursor_blocks_skipped(c) >= m->blocks - reads);
    rec_cursor_close(c);
    rec_trace_close(t);
    free(dir);
}

RK_TEST(reader, rank_metadata_counts)
{
    char *dir = write_small_trace("counts", 500, 1 << 20, 1);
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(rec_trace_get_info(t)->nranks, 2);
    const rec_rank_meta *m = rec_trace_rank_meta(t, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->records, 502);
    CU_ASSERT_EQUAL(m->npaths, 1);
    CU_ASSERT_STRING_EQUAL(m->paths[0], "/data/out.1");
    int found = 0;
    for (size_t i = 0; i < m->nfuncs; i++) {
        if (m->funcs[i].func != REC_ID_pwrite)
            continue;
        found = 1;
        CU_ASSERT_EQUAL(m->funcs[i].counts.records, 500);
        /* Every pwrite after the first references the previous one. */
        CU_ASSERT_EQUAL(m->funcs[i].counts.compressed_records, 499);
    }
    CU_ASSERT(found);
    CU_ASSERT_PTR_NULL(rec_trace_rank_meta(t, 2, &err));
    rec_trace_close(t);
    free(dir);
}

/* A zstd block is a run of frames of whole records, about REC_FRAME_RAW raw
 * bytes each, which one-shot decompression reads as the whole payload too
 * (readers of traces before frames). */
RK_TEST(reader, zstd_blocks_are_runs_of_frames_of_whole_records)
{
    char *dir = write_small_trace("frames", 100000, 1 << 20, 1);
    char path[4096];
    size_t n;
    snprintf(path, sizeof path, "%s/0.rec", dir);
    uint8_t *file = slurp(path, &n);
    rec_block_header h;
    const char *why = NULL;
    CU_ASSERT_FATAL(n > 16 + REC_BLOCK_HEADER_SIZE);
    CU_ASSERT_EQUAL_FATAL(rec_block_header_unpack(file + 16, 0, &h, &why), 0);
    CU_ASSERT_EQUAL_FATAL(h.codec, REC_CODEC_ZSTD);
    CU_ASSERT_FATAL(h.raw_size > 3 * REC_FRAME_RAW); /* else the test shows nothing */
    const uint8_t *payload = file + 16 + REC_BLOCK_HEADER_SIZE;
    uint8_t *whole = malloc(h.raw_size), *pieces = malloc(h.raw_size);
    size_t at = 0, raw = 0, frames = 0;
    while (at < h.stored_size) {
        size_t size = ZSTD_findFrameCompressedSize(payload + at, h.stored_size - at);
        unsigned long long content = ZSTD_getFrameContentSize(payload + at, h.stored_size - at);
        CU_ASSERT_FATAL(!ZSTD_isError(size) && content <= h.raw_size - raw);
        CU_ASSERT_EQUAL_FATAL(ZSTD_decompress(pieces + raw, (size_t)content, payload + at, size), content);
        at += size;
        raw += (size_t)content;
        frames++;
        /* Cut after the record that reaches REC_FRAME_RAW: a pwrite record is under 64 bytes. */
        CU_ASSERT(content < REC_FRAME_RAW + 64);
        if (raw < h.raw_size)
            CU_ASSERT(content >= REC_FRAME_RAW);
    }
    CU_ASSERT_EQUAL(at, h.stored_size);
    CU_ASSERT_EQUAL(raw, h.raw_size);
    CU_ASSERT_EQUAL(frames, (h.raw_size + REC_FRAME_RAW - 1) / REC_FRAME_RAW);
    CU_ASSERT_EQUAL(ZSTD_decompress(whole, h.raw_size, payload, h.stored_size), h.raw_size);
    CU_ASSERT_EQUAL(memcmp(whole, pieces, h.raw_size), 0);
    rec_error err;
    uint64_t records;
    CU_ASSERT_EQUAL(read_all(dir, &records, &err), 0);
    CU_ASSERT_EQUAL(records, 2 * (100000 + 2));
    free(whole);
    free(pieces);
    free(file);
    free(dir);
}

/* Open file descriptors of this process. */
static unsigned open_fds(void)
{
    unsigned n = 0;
    for (int fd = 0; fd < 256; fd++) /* a test process has no more */
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

/* More streams than the reader may keep open (here 3 of 12): all of them
 * read through, records interleaved across the ranks as a merge reads
 * them, and never more than the budget open at once. */
RK_TEST(reader, more_streams_than_open_files)
{
    enum { RANKS = 12, RECORDS = 3000 };
    char *dir = rk_test_dir("many_streams");
    write_global(dir, RANKS);
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.block_size = 4096; /* many blocks: each read of a parked stream reopens it */
    for (uint32_t r = 0; r < RANKS; r++) {
        rec_writer *w = rk_trace_open_rank(dir, r, &o);
        rec_error err;
        for (uint64_t k = 0; k < RECORDS; k++) {
            rec_record rec = pwrite_record(64, 4096, (int64_t)(k * RANKS + r) * 4096, 10 * k);
            CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &rec, &err), 0);
        }
        CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    }
    unsigned saved = rec_reader_file_budget, before = open_fds();
    rec_reader_file_budget = 3;
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    rec_cursor *c[RANKS];
    for (uint32_t r = 0; r < RANKS; r++)
        CU_ASSERT_PTR_NOT_NULL_FATAL(c[r] = rec_cursor_open(t, r, &err));
    uint64_t got[RANKS] = {0};
    unsigned most = 0;
    int more = 1;
    while (more) {
        more = 0;
        for (uint32_t r = 0; r < RANKS; r++) {
            rec_record rec;
            int rc = rec_cursor_next(c[r], &rec, &err);
            CU_ASSERT(rc >= 0);
            if (rc == 1) {
                CU_ASSERT_EQUAL(rec.args[3].i, (int64_t)(got[r] * RANKS + r) * 4096);
                got[r]++;
                more = 1;
            }
        }
        unsigned now = open_fds() - before; /* once a round: fcntl 256 times */
        most = now > most ? now : most;
    }
    for (uint32_t r = 0; r < RANKS; r++) {
        CU_ASSERT_EQUAL(got[r], RECORDS);
        CU_ASSERT(rec_cursor_complete(c[r]));
        rec_cursor_close(c[r]);
    }
    rec_trace_close(t);
    CU_ASSERT(most >= 1 && most <= 3);
    CU_ASSERT_EQUAL(open_fds(), before);
    rec_reader_file_budget = saved;
    free(dir);
}
