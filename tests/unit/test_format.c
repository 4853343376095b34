/* Unit tests of the trace writer and reader: round trips of every function
 * in the table with random arguments of every kind, malformed input
 * (truncation and corruption at every byte), long time deltas, incomplete
 * traces and selective decoding. */
#define _GNU_SOURCE
#include "block.h"
#include "codec.h"
#include "meta.h"
#include "recorder_format.h"
#include "rk_test.h"
#include "rk_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---- */

static uint64_t rng_state;
static uint64_t rnd(void)
{
    /* splitmix64: deterministic, so a run can be regenerated for checking */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int64_t random_int(void)
{
    switch (rnd() % 7) {
    case 0: return 0;
    case 1: return -1;
    case 2: return (int64_t)(rnd() % 100);
    case 3: return (int64_t)rnd();
    case 4: return INT64_MIN;
    case 5: return INT64_MAX;
    default: return -(int64_t)(rnd() % 1000000);
    }
}

static void write_global(const char *dir, uint32_t nranks, unsigned window)
{
    rec_option opts[1] = {{"RECORDER_WINDOW", "3"}};
    rec_trace_info info = {.nranks = nranks, .time_resolution = 1e-7, .start_time_ns = 1700000000000000000ull,
                           .window = window, .noptions = 1, .options = opts};
    rk_trace_write_global(dir, &info);
}

/* Storage for one generated record's strings and arrays. */
typedef struct gen_store {
    char str[REC_MAX_FIELDS][48];
    int64_t arr[REC_MAX_FIELDS][16];
} gen_store;

static const char *const path_names[] = {"/tmp/a", "/scratch/run/ckpt.0001.h5", "rel/path", "", "/x y/\"q\"\n"};

/* Fills r with random values for function f. Half of the time a field
 * keeps the value of the previous record of the same function, so the
 * compressor finds references. path_index[] gets the path name chosen. */
static void generate(const rec_func_desc *f, rec_record *r, const rec_record *prev, gen_store *s, int *path_index)
{
    unsigned nf = rec_func_nfields(f);
    for (unsigned i = 0; i < nf; i++) {
        unsigned kind = i < f->nargs ? f->args[i].kind : i == f->nargs ? f->ret_kind : REC_KIND_ERRNO;
        rec_value *v = i < f->nargs ? &r->args[i] : i == f->nargs ? &r->ret : NULL;
        rec_value errno_holder;
        if (!v)
            v = &errno_holder;
        int reuse = prev && rnd() % 2;
        const rec_value *old = !prev ? NULL : i < f->nargs ? &prev->args[i] : i == f->nargs ? &prev->ret : NULL;
        switch (rec_kind_class(kind)) {
        case REC_CLASS_INT:
            if (v == &errno_holder)
                r->err = reuse ? prev->err : (int64_t)(rnd() % 3 ? 0 : rnd() % 133);
            else
                v->i = reuse ? old->i : random_int();
            break;
        case REC_CLASS_PATH:
            path_index[i] = reuse ? path_index[i] : (int)(rnd() % 5);
            break;
        case REC_CLASS_STR: {
            if (reuse) {
                memcpy(s->str[i], old->ptr, old->len);
                v->len = old->len;
            } else {
                v->len = (uint32_t)(rnd() % 40);
                for (uint32_t k = 0; k < v->len; k++)
                    s->str[i][k] = (char)rnd(); /* any byte, NUL included */
            }
            v->ptr = s->str[i];
            break;
        }
        case REC_CLASS_ARRAY: {
            if (reuse) {
                v->len = (uint32_t)rec_value_array(old, s->arr[i], 16);
            } else {
                v->len = (uint32_t)(rnd() % 17);
                for (uint32_t k = 0; k < v->len; k++)
                    s->arr[i][k] = random_int();
            }
            v->ptr = s->arr[i];
            v->encoded = 0;
            break;
        }
        default:
            *v = (rec_value){0};
            break;
        }
    }
}

static void expect_same_value(unsigned cls, const rec_value *got, const rec_value *want)
{
    switch (cls) {
    case REC_CLASS_INT:
        CU_ASSERT_EQUAL(got->i, want->i);
        break;
    case REC_CLASS_STR:
        CU_ASSERT_EQUAL_FATAL(got->len, want->len);
        CU_ASSERT(memcmp(got->ptr, want->ptr, got->len) == 0);
        break;
    case REC_CLASS_ARRAY: {
        int64_t a[16], b[16];
        CU_ASSERT_EQUAL_FATAL(rec_value_array(got, a, 16), rec_value_array(want, b, 16));
        CU_ASSERT(memcmp(a, b, got->len * sizeof(int64_t)) == 0);
        break;
    }
    default:
        break;
    }
}

/* Writes `count` random records over the whole table on one rank, reads
 * them back and compares every field. */
static void roundtrip_framed(unsigned window, int codec, size_t block_size, size_t frame_size, size_t count,
                             uint64_t seed)
{
    char name[64];
    snprintf(name, sizeof name, "rt-w%u-c%d-b%zu-f%zu", window, codec, block_size, frame_size);
    char *dir = rk_test_dir(name);
    write_global(dir, 1, window);
    const rec_table *table = rec_table_builtin();
    size_t nfuncs = rec_table_count(table);
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.window = window;
    o.codec = codec;
    o.block_size = block_size;
    o.frame_size = frame_size;
    rec_writer *w = rk_trace_open_rank(dir, 0, &o);
    rec_error err;

    rec_record *last = calloc(REC_FUNCTION_ID_LIMIT, sizeof *last);
    gen_store *stores = calloc(REC_FUNCTION_ID_LIMIT, sizeof *stores);
    int(*paths)[REC_MAX_FIELDS] = calloc(REC_FUNCTION_ID_LIMIT, sizeof *paths);
    char *seen = calloc(REC_FUNCTION_ID_LIMIT, 1);
    /* Pass 1 writes, pass 2 regenerates the same sequence and checks it. */
    rec_cursor *c = NULL;
    rec_trace *t = NULL;
    for (int pass = 0; pass < 2; pass++) {
        rng_state = seed;
        memset(seen, 0, REC_FUNCTION_ID_LIMIT);
        uint64_t now = 0;
        size_t fi = 0;
        for (size_t n = 0; n < count; n++) {
            if (n < nfuncs)
                fi = n; /* every function at least once */
            else if (rnd() % 3 == 0) /* mostly the same function again, as real traces do */
                fi = rnd() % nfuncs;
            const rec_func_desc *f = rec_table_at(table, fi);
            rec_record r;
            memset(&r, 0, sizeof r);
            r.func = f->id;
            now += rnd() % 3 ? rnd() % 50 : rnd() % 100000;
            r.tstart = now;
            r.tend = now + rnd() % 200;
            r.depth = (uint8_t)(rnd() % 4 ? 0 : rnd() % 3);
            r.thread = (uint32_t)(rnd() % 8 ? 0 : rnd() % 5);
            gen_store store;
            generate(f, &r, seen[f->id] ? &last[f->id] : NULL, &store, paths[f->id]);
            for (unsigned i = 0; i < f->nargs; i++)
                if (rec_kind_class(f->args[i].kind) == REC_CLASS_PATH)
                    r.args[i].i = pass ? 0 : rec_writer_path_id(w, path_names[paths[f->id][i]]);
            if (f->ret_kind != REC_KIND_NONE && rec_kind_class(f->ret_kind) == REC_CLASS_PATH)
                r.ret.i = pass ? 0 : rec_writer_path_id(w, path_names[paths[f->id][f->nargs]]);
            if (pass == 0) {
                CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &r, &err), 0);
            } else {
                rec_record got;
                int rc = rec_cursor_next(c, &got, &err);
                if (rc != 1)
                    fprintf(stderr, "record %zu: rc %d: %s\n", n, rc, err.msg);
                CU_ASSERT_EQUAL_FATAL(rc, 1);
                CU_ASSERT_EQUAL_FATAL(got.func, r.func);
                CU_ASSERT_EQUAL(got.tstart, r.tstart);
                CU_ASSERT_EQUAL(got.tend, r.tend);
                CU_ASSERT_EQUAL(got.depth, r.depth);
                CU_ASSERT_EQUAL(got.thread, r.thread);
                for (unsigned i = 0; i <= f->nargs; i++) {
                    unsigned kind = i < f->nargs ? f->args[i].kind : f->ret_kind;
                    if (i == f->nargs && kind == REC_KIND_NONE)
                        break;
                    const rec_value *gv = i < f->nargs ? &got.args[i] : &got.ret;
                    const rec_value *wv = i < f->nargs ? &r.args[i] : &r.ret;
                    if (rec_kind_class(kind) == REC_CLASS_PATH) {
                        CU_ASSERT_STRING_EQUAL(rec_cursor_path(c, gv->i), path_names[paths[f->id][i]]);
                    } else {
                        expect_same_value(rec_kind_class(kind), gv, wv);
                    }
                }
                if (f->ret_kind != REC_KIND_NONE)
                    CU_ASSERT_EQUAL(got.err, r.err);
            }
            /* Keep a private copy as the next record's "previous" values. */
            stores[f->id] = store;
            last[f->id] = r;
            for (unsigned i = 0; i <= f->nargs && i < REC_MAX_FIELDS; i++) {
                rec_value *v = i < f->nargs ? &last[f->id].args[i] : &last[f->id].ret;
                unsigned kind = i < f->nargs ? f->args[i].kind : f->ret_kind;
                if (rec_kind_class(kind) == REC_CLASS_STR)
                    v->ptr = stores[f->id].str[i];
                else if (rec_kind_class(kind) == REC_CLASS_ARRAY)
                    v->ptr = stores[f->id].arr[i];
            }
            seen[f->id] = 1;
        }
        if (pass == 0) {
            rec_counts counts;
            rec_writer_counts(w, &counts);
            CU_ASSERT_EQUAL(counts.records, count);
            CU_ASSERT(window == 0 ? counts.compressed_records == 0 : counts.compressed_records > count / 4);
            CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
            t = rec_trace_open(dir, &err);
            CU_ASSERT_PTR_NOT_NULL_FATAL(t);
            c = rec_cursor_open(t, 0, &err);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        } else {
            rec_record extra;
            CU_ASSERT_EQUAL(rec_cursor_next(c, &extra, &err), 0);
            CU_ASSERT_EQUAL(rec_cursor_complete(c), 1);
        }
    }
    rec_cursor_close(c);
    rec_trace_close(t);
    free(last);
    free(stores);
    free(paths);
    free(seen);
    free(dir);
}

static void roundtrip(unsigned window, int codec, size_t block_size, size_t count, uint64_t seed)
{
    roundtrip_framed(window, codec, block_size, 0, count, seed);
}

/* Small zstd frames: records refer back across frame boundaries, whose
 * strings and arrays the reader must still hold once the next frame is in. */
RK_TEST(format, roundtrip_references_across_zstd_frames)
{
    roundtrip_framed(3, REC_CODEC_ZSTD, 1 << 20, 4096, 20000, 7);
    roundtrip_framed(16, REC_CODEC_ZSTD, 1 << 20, 1024, 5000, 8);
}

RK_TEST(format, roundtrip_every_function_window3_zstd)
{
    roundtrip(3, REC_CODEC_ZSTD, 1 << 20, 20000, 1);
}

RK_TEST(format, roundtrip_every_function_small_blocks_raw)
{
    roundtrip(3, REC_CODEC_NONE, 4096, 20000, 2);
}

/* 10,000 records: the first of each of the table's (about 2,000) functions is never a reference. */
RK_TEST(format, roundtrip_every_function_windows_0_1_8_16)
{
    roundtrip(0, REC_CODEC_ZSTD, 8192, 10000, 3);
    roundtrip(1, REC_CODEC_ZSTD, 8192, 10000, 4);
    roundtrip(8, REC_CODEC_NONE, 8192, 10000, 5);
    roundtrip(16, REC_CODEC_ZSTD, 8192, 10000, 6);
}

/* The writer encodes records in batches (format/writer.c, staging): what it
 * writes must be the bytes of encoding each record at once, in order, path
 * definitions and rebuilt-record marks included. The reference is the codec
 * itself, fed the same sequence; the trace has one uncompressed block. */
RK_TEST(format, staged_records_are_written_as_encoded_at_once)
{
    char *dir = rk_test_dir("staged-bytes");
    write_global(dir, 1, 3);
    const rec_table *table = rec_table_builtin();
    size_t nfuncs = rec_table_count(table);
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.codec = REC_CODEC_NONE;
    o.block_size = REC_BLOCK_MAX_RAW / 2;
    rec_writer *w = rk_trace_open_rank(dir, 0, &o);
    rec_encoder e;
    CU_ASSERT_EQUAL_FATAL(rec_encoder_init(&e, table, o.window), 0);
    rec_buf want = {0};
    rec_error err;
    rec_record *last = calloc(REC_FUNCTION_ID_LIMIT, sizeof *last);
    int(*paths)[REC_MAX_FIELDS] = calloc(REC_FUNCTION_ID_LIMIT, sizeof *paths);
    char *seen = calloc(REC_FUNCTION_ID_LIMIT, 1);
    int64_t defined = 0; /* paths the reference has defined: ids come in order */
    rng_state = 99;
    uint64_t now = 1000;
    size_t fi = 0;
    for (size_t n = 0; n < 6000; n++) {
        if (rnd() % 4 == 0) /* runs of one function between others, as loops make */
            fi = rnd() % nfuncs;
        const rec_func_desc *f = rec_table_at(table, fi);
        rec_record r;
        memset(&r, 0, sizeof r);
        r.func = f->id;
        now += rnd() % 60;
        r.tstart = now;
        r.tend = now + rnd() % 30;
        r.synthetic = rnd() % 64 == 0;
        r.inferred = rnd() % 48 == 0;
        gen_store store;
        generate(f, &r, seen[f->id] ? &last[f->id] : NULL, &store, paths[f->id]);
        for (unsigned i = 0; i <= f->nargs; i++) {
            unsigned kind = i < f->nargs ? f->args[i].kind : f->ret_kind;
            if (kind == REC_KIND_NONE || rec_kind_class(kind) != REC_CLASS_PATH)
                continue;
            const char *path = path_names[paths[f->id][i]];
            int64_t id = rec_writer_path_id(w, path);
            if (id == defined)
                rec_encode_path_def(&want, defined++, path);
            (i < f->nargs ? &r.args[i] : &r.ret)->i = id;
        }
        if (n == 0)
            rec_encoder_reset(&e, r.tstart);
        if (r.synthetic)
            rec_encode_def(&want, REC_DEF_SYNTHETIC, "", 0);
        if (r.inferred)
            rec_encode_def(&want, REC_DEF_INFERRED, "", 0);
        const char *why = NULL;
        CU_ASSERT_EQUAL_FATAL(rec_encode(&e, &r, &want, &why), 0);
        CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &r, &err), 0);
        last[f->id] = r;
        seen[f->id] = 1;
    }
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/0.rec", dir);
    FILE *fp = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fp);
    size_t head = REC_FILE_HEADER_SIZE + sizeof(uint32_t) + REC_BLOCK_HEADER_SIZE;
    uint8_t *got = malloc(head + want.len + 1);
    size_t read = fread(got, 1, head + want.len + 1, fp);
    fclose(fp);
    CU_ASSERT_TRUE_FATAL(read > head + want.len); /* the end marker follows the one block */
    CU_ASSERT_EQUAL(memcmp(got + head, want.data, want.len), 0);
    free(got);
    rec_buf_free(&want);
    rec_encoder_free(&e);
    free(last);
    free(paths);
    free(seen);
    free(dir);
}

/* An importer's inferred records (format 1.9) read back inferred, the
 * records between them not, whatever else marks them; recorder2text's line
 * ends in "[inferred]". */
RK_TEST(format, inferred_marks_round_trip_and_print)
{
    char *dir = rk_test_dir("inferred-marks");
    write_global(dir, 1, 3);
    const rec_func_desc *close_fn = rec_function_by_name("close");
    CU_ASSERT_PTR_NOT_NULL_FATAL(close_fn);
    rec_writer *w = rk_trace_open_rank(dir, 0, NULL);
    rec_error err;
    enum { N = 40 };
    for (unsigned n = 0; n < N; n++) {
        rec_record r;
        memset(&r, 0, sizeof r);
        r.func = close_fn->id;
        r.tstart = 10 * n;
        r.tend = 10 * n + 5;
        r.args[0].i = 64 + n % 3;
        r.inferred = n % 3 == 0;
        r.synthetic = n % 5 == 0;
        CU_ASSERT_EQUAL_FATAL(rec_writer_append(w, &r, &err), 0);
    }
    CU_ASSERT_EQUAL_FATAL(rec_writer_close(w, &err), 0);
    rec_trace *t = rec_trace_open(dir, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(rec_trace_get_info(t)->version_minor, 10); /* 1.9 brought the marks; 1.10 is the writer's */
    rec_cursor *c = rec_cursor_open(t, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    rec_record r;
    unsigned n = 0, inferred = 0;
    char line[512];
    while (rec_cursor_next(c, &r, &err) == 1) {
        CU_ASSERT_EQUAL(r.inferred, n % 3 == 0);
        CU_ASSERT_EQUAL(r.synthetic, n % 5 == 0);
        CU_ASSERT_EQUAL(r.args[0].i, 64 + n % 3);
        rec_print_record(line, sizeof line, rec_trace_table(t), &r, 0, 1e-7, NULL, NULL);
        CU_ASSERT_EQUAL(strstr(line, " [inferred]") != NULL, n % 3 == 0);
        inferred += r.inferred;
        n++;
    }
    CU_ASSERT_EQUAL(n, N);
    CU_ASSERT_EQUAL(inferred, (N + 2) / 3);
    rec_cursor_close(c);
    rec_trace_close(t);
    free(dir);
}
