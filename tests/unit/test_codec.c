/* Unit tests of the peephole compressor (format/codec.c): the paper's
 * Fig. 5 -> Fig. 6 example byte for byte, and reference choice for every
 * window size from 1 to 8. */
#include "codec.h"
#include "rk_test.h"

#include <stdlib.h>

/* The four functions of Fig. 5 of "Recorder 2.0: Efficient Parallel I/O
 * Tracing and Analysis", with the arguments the paper records (addresses
 * included), and no return value, so a record's fields are exactly the
 * paper's arguments. */
static const rec_arg_desc comm_rank_args[] = {{"comm", "MPI_Comm", REC_KIND_INT, 0, "", 0},
                                              {"rank", "int *", REC_KIND_INT, 0, "", 0}};
static const rec_arg_desc allreduce_args[] = {
    {"sendbuf", "const void *", REC_KIND_INT, 0, "", 0}, {"recvbuf", "void *", REC_KIND_INT, 0, "", 0},
    {"count", "int", REC_KIND_INT, 0, "", 0},            {"datatype", "MPI_Datatype", REC_KIND_INT, 0, "", 0},
    {"op", "MPI_Op", REC_KIND_INT, 0, "", 0},            {"comm", "MPI_Comm", REC_KIND_INT, 0, "", 0}};
static const rec_arg_desc write_at_args[] = {
    {"fh", "MPI_File", REC_KIND_INT, 0, "", 0},    {"offset", "MPI_Offset", REC_KIND_INT, 0, "", 0},
    {"buf", "const void *", REC_KIND_INT, 0, "", 0}, {"count", "int", REC_KIND_INT, 0, "", 0},
    {"datatype", "MPI_Datatype", REC_KIND_INT, 0, "", 0}, {"status", "MPI_Status *", REC_KIND_INT, 0, "", 0}};
static const rec_arg_desc pwrite_args[] = {{"path", "const char *", REC_KIND_PATH, 0, "", 0},
                                           {"buf", "const void *", REC_KIND_INT, 0, "", 0},
                                           {"count", "size_t", REC_KIND_INT, 0, "", 0},
                                           {"offset", "off_t", REC_KIND_INT, 0, "", 0}};
enum { COMM_RANK = 100, ALLREDUCE = 116, WRITE_AT = 92, PWRITE = 11 };
static const rec_func_desc paper_funcs[] = {
    {COMM_RANK, REC_LAYER_MPI, REC_KIND_NONE, 0, 2, 0, "MPI_Comm_rank", "void", comm_rank_args, 0, 0, 0},
    {ALLREDUCE, REC_LAYER_MPI, REC_KIND_NONE, 0, 6, 0, "MPI_Allreduce", "void", allreduce_args, 0, 0, 0},
    {WRITE_AT, REC_LAYER_MPIIO, REC_KIND_NONE, 0, 6, 0, "MPI_File_write_at", "void", write_at_args, 0, 0, 0},
    {PWRITE, REC_LAYER_POSIX, REC_KIND_NONE, 0, 4, 0, "pwrite", "void", pwrite_args, 0, 0, 0},
};

static rec_record make(unsigned func, uint64_t tstart, uint64_t tend, int n, const int64_t *v)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)func;
    r.tstart = tstart;
    r.tend = tend;
    for (int i = 0; i < n; i++)
        r.args[i].i = v[i];
    return r;
}

/* The table of paper_funcs; every test starts from it. */
static rec_table *paper_table(void)
{
    rec_error err;
    rec_table *table = rec_table_new(paper_funcs, 4, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    return table;
}

/* An encoder of `window` over `table`, at the start of a stream. */
static void start_encoder(rec_encoder *e, rec_table *table, unsigned window)
{
    CU_ASSERT_EQUAL_FATAL(rec_encoder_init(e, table, window), 0);
    rec_encoder_reset(e, 0);
}

/* A decoder of `window` over `table`, reading `in` from the start of a stream. */
static void start_decoder(rec_decoder *d, rec_table *table, unsigned window, rec_in *in, const uint8_t *data,
                          size_t len)
{
    rec_decoder_init(d, table, window);
    rec_decoder_reset(d, 0);
    rec_in_init(in, data, len);
}

/* Encodes records one by one and keeps where each starts. */
static void encode_all(rec_encoder *e, const rec_record *recs, size_t n, rec_buf *out, size_t *starts)
{
    for (size_t i = 0; i < n; i++) {
        const char *why = NULL;
        starts[i] = out->len;
        CU_ASSERT_EQUAL_FATAL(rec_encode(e, &recs[i], out, &why), 0);
    }
}

/* encode_all as a whole stream with its own encoder of `window`; the caller
 * frees out. */
static void encode_stream(rec_table *table, unsigned window, const rec_record *recs, size_t n, rec_buf *out,
                          size_t *starts)
{
    rec_encoder e;
    start_encoder(&e, table, window);
    encode_all(&e, recs, n, out, starts);
    rec_encoder_free(&e);
}

RK_TEST(codec, paper_fig5_to_fig6)
{
    rec_table *table = paper_table();
    const int64_t world = 1140850688, rank_ptr = 0x7ffdc64a6f64, dbl = 1275070475, path = 0;
    rec_record recs[10] = {
        make(COMM_RANK, 0, 0, 2, (int64_t[]){world, rank_ptr}),
        make(COMM_RANK, 5, 5, 2, (int64_t[]){world, rank_ptr}),
        make(COMM_RANK, 7, 7, 2, (int64_t[]){world, rank_ptr}),
        make(COMM_RANK, 9, 9, 2, (int64_t[]){world, rank_ptr}),
        make(ALLREDUCE, 2095, 2098, 6, (int64_t[]){0x564591831ec0, 0x5645917a10a0, 1, dbl, 1476395010, world}),
        make(ALLREDUCE, 2102, 2106, 6, (int64_t[]){0x564591831f20, 0x564591831e60, 1, dbl, 1476395009, world}),
        make(WRITE_AT, 2951, 2956, 6, (int64_t[]){0x5645916fdaa0, 39416, 0x5645917a1cf0, 256, 1275068685, 0x7ffdc649cc70}),
        make(PWRITE, 2953, 2954, 4, (int64_t[]){path, 0x5645917a1cf0, 256, 39416}),
        make(WRITE_AT, 2956, 2958, 6, (int64_t[]){0x5645916fdaa0, 34184, 0x7ffdc64a73b0, 48, 1275068685, 0x7ffdc649c430}),
        make(PWRITE, 2961, 2964, 4, (int64_t[]){path, 0x7ffdc64a73b0, 48, 34184}),
    };
    rec_encoder e;
    start_encoder(&e, table, 3);
    rec_buf out = {0};
    size_t starts[10];
    encode_all(&e, recs, 10, &out, starts);

    /* Fig. 6: the status bytes and reference distances. */
    static const uint8_t want_status[10] = {0x00, 0x80, 0x80, 0x80, 0x00, 0xE4, 0x00, 0x00, 0xBA, 0xB8};
    static const int want_ref[10] = {0, 1, 1, 1, 0, 1, 0, 0, 2, 2};
    rec_decoder d;
    rec_in in;
    start_decoder(&d, table, 3, &in, out.data, out.len);
    for (int i = 0; i < 10; i++) {
        CU_ASSERT_EQUAL(out.data[starts[i]], want_status[i]);
        rec_record got;
        rec_def def;
        CU_ASSERT_EQUAL_FATAL(rec_decode(&d, &in, &got, &def), 1);
        CU_ASSERT_EQUAL(got.ref, want_ref[i]);
        CU_ASSERT_EQUAL(got.func, recs[i].func);
        CU_ASSERT_EQUAL(got.tstart, recs[i].tstart);
        CU_ASSERT_EQUAL(got.tend, recs[i].tend);
        const rec_func_desc *f = rec_table_lookup(table, got.func);
        for (unsigned a = 0; a < f->nargs; a++)
            CU_ASSERT_EQUAL(got.args[a].i, recs[i].args[a].i);
    }
    CU_ASSERT_PTR_EQUAL(in.p, in.end);
    /* 10 records with 40 arguments: 6 records compressed, 12 arguments not stored. */
    rec_counts total = {0};
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++) {
        total.records += e.per_func[id].records;
        total.compressed_records += e.per_func[id].compressed_records;
        total.fields += e.per_func[id].fields;
        total.elided_fields += e.per_func[id].elided_fields;
    }
    CU_ASSERT_EQUAL(total.records, 10);
    CU_ASSERT_EQUAL(total.compressed_records, 6);
    CU_ASSERT_EQUAL(total.fields, 40);
    CU_ASSERT_EQUAL(total.elided_fields, 12);
    CU_ASSERT_EQUAL(d.total.compressed_records, 6);
    CU_ASSERT_EQUAL(d.total.elided_fields, 12);
    rec_buf_free(&out);
    rec_decoder_free(&d);
    rec_encoder_free(&e);
    rec_table_free(table);
}

/* A record whose best match sits `distance` records back, behind filler
 * records of another function: compressed against it exactly when the
 * window reaches it. */
RK_TEST(codec, reference_reaches_exactly_the_window)
{
    rec_table *table = paper_table();
    for (unsigned window = 1; window <= 8; window++) {
        for (unsigned distance = 1; distance <= 9; distance++) {
            rec_record recs[12];
            size_t n = 0;
            recs[n++] = make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 0});
            for (unsigned k = 1; k < distance; k++)
                recs[n++] = make(COMM_RANK, k, k, 2, (int64_t[]){k, k});
            recs[n++] = make(PWRITE, 20, 21, 4, (int64_t[]){7, 2, 64, 64});
            rec_buf out = {0};
            size_t starts[12];
            encode_stream(table, window, recs, n, &out, starts);
            uint8_t status = out.data[starts[n - 1]];
            if (distance <= window) {
                CU_ASSERT_EQUAL(status, 0x80 | 0x20 | 0x08); /* buf and offset differ */
                CU_ASSERT_EQUAL(out.data[starts[n - 1] + 3], distance); /* status, dstart, duration, ref */
            } else {
                CU_ASSERT_EQUAL(status, 0x00);
            }
            rec_buf_free(&out);
        }
    }
    rec_table_free(table);
}

/* Most arguments in common beats recency; equal counts go to the most recent. */
RK_TEST(codec, prefers_most_common_then_most_recent)
{
    rec_table *table = paper_table();
    for (unsigned window = 3; window <= 8; window++) {
        rec_record recs[4] = {
            make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 128}), /* 3 in common with the last */
            make(PWRITE, 2, 3, 4, (int64_t[]){8, 1, 32, 0}),   /* 1 in common */
            make(PWRITE, 4, 5, 4, (int64_t[]){9, 1, 16, 5}),   /* 1 in common with each */
            make(PWRITE, 6, 7, 4, (int64_t[]){7, 1, 64, 999}),
        };
        rec_buf out = {0};
        size_t starts[4];
        encode_stream(table, window, recs, 4, &out, starts);
        CU_ASSERT_EQUAL(out.data[starts[3]], 0x80 | 0x08); /* only the offset differs */
        CU_ASSERT_EQUAL(out.data[starts[3] + 3], 3);
        /* The third record ties with the first and the second (buf only): the more
         * recent second wins. */
        CU_ASSERT_EQUAL(out.data[starts[2] + 3], 1);
        rec_buf_free(&out);
    }
    rec_table_free(table);
}

/* The reference of every record is the one an exhaustive search of the
 * REC_SCAN newest window records of its function picks (most recorded fields
 * equal, ties to the most recent), else the newest record of its function
 * further back if it has a field in common, whatever shortcut the encoder
 * takes: random records over a tiny alphabet, so full matches,
 * partial ones and periodic patterns all occur, two functions interleaved,
 * every window size. The references are read back through the decoder. */
RK_TEST(codec, reference_is_the_exhaustive_choice)
{
    rec_table *table = paper_table();
    enum { N = 3000 };
    rec_record *recs = calloc(N, sizeof *recs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(recs);
    uint64_t state = 12345;
    for (unsigned window = 1; window <= REC_WINDOW_MAX; window++) {
        for (size_t i = 0; i < N; i++) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t bits = state >> 20;
            int64_t v[6];
            for (int k = 0; k < 6; k++)
                v[k] = (int64_t)((bits >> (3 * k)) % (k == 3 ? 2 : 3));
            recs[i] = (bits >> 40) % 4 ? make(PWRITE, 2 * i, 2 * i + 1, 4, v)
                                       : make(ALLREDUCE, 2 * i, 2 * i + 1, 6, v);
        }
        rec_buf out = {0};
        size_t *starts = calloc(N, sizeof *starts);
        encode_stream(table, window, recs, N, &out, starts);
        rec_decoder d;
        rec_in in;
        start_decoder(&d, table, window, &in, out.data, out.len);
        unsigned mismatches = 0;
        for (size_t i = 0; i < N; i++) {
            rec_record got;
            rec_def def;
            CU_ASSERT_EQUAL_FATAL(rec_decode(&d, &in, &got, &def), 1);
            unsigned nargs = recs[i].func == PWRITE ? 4 : 6, want = 0, best = 0, seen = 0;
            for (unsigned back = 1; back <= window && back <= REC_SCAN && back <= i; back++) {
                const rec_record *w = &recs[i - back];
                if (w->func != recs[i].func)
                    continue;
                seen++;
                unsigned common = 0;
                for (unsigned k = 0; k < nargs; k++)
                    common += w->args[k].i == recs[i].args[k].i;
                if (common > best) {
                    best = common;
                    want = back;
                }
            }
            for (unsigned back = REC_SCAN + 1; !seen && back <= window && back <= i; back++) {
                const rec_record *w = &recs[i - back];
                if (w->func != recs[i].func)
                    continue;
                unsigned common = 0;
                for (unsigned k = 0; k < nargs; k++)
                    common += w->args[k].i == recs[i].args[k].i;
                want = common ? back : 0;
                break;
            }
            mismatches += (got.compressed ? got.ref : 0) != want;
            for (unsigned k = 0; k < nargs; k++)
                mismatches += got.args[k].i != recs[i].args[k].i;
        }
        CU_ASSERT_EQUAL(mismatches, 0);
        rec_decoder_free(&d);
        free(starts);
        rec_buf_free(&out);
    }
    free(recs);
    rec_table_free(table);
}

/* A window of 0 stores every record in full. */
RK_TEST(codec, window_zero_disables_compression)
{
    rec_table *table = paper_table();
    rec_record recs[3] = {make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 0}), make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 0}),
                          make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 0})};
    rec_buf out = {0};
    size_t starts[3];
    encode_stream(table, 0, recs, 3, &out, starts);
    for (int i = 0; i < 3; i++)
        CU_ASSERT_EQUAL(out.data[starts[i]], 0);
    rec_buf_free(&out);
    rec_table_free(table);
}

/* Records of functions with more than 7 fields still compress, with mask
 * extension bytes, and decode to the same values. */
RK_TEST(codec, more_than_seven_fields)
{
    rec_arg_desc many[12];
    for (int i = 0; i < 12; i++)
        many[i] = (rec_arg_desc){"a", "long", REC_KIND_INT, 0, "", 0};
    rec_func_desc f = {5, REC_LAYER_POSIX, REC_KIND_INT, REC_FAIL_NEG1, 12, 0, "wide", "long", many, 0, 0, 0};
    rec_error err;
    rec_table *table = rec_table_new(&f, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(table);
    rec_record a = make(5, 0, 1, 12, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    a.ret.i = -1;
    a.err = 2;
    rec_record b = a;
    b.args[1].i = 200;  /* field 1: status bit 5 */
    b.args[9].i = 900;  /* field 9: extension byte 0, bit 5 */
    b.err = 0;          /* field 13 (errno): extension byte 0, bit 1 */
    rec_buf out = {0};
    rec_record recs[2] = {a, b};
    size_t starts[2];
    encode_stream(table, 3, recs, 2, &out, starts);
    CU_ASSERT_EQUAL(out.data[starts[1]], 0x80 | 0x20);
    CU_ASSERT_EQUAL(rec_ext_mask_bytes(14), 1);
    CU_ASSERT_EQUAL(out.data[starts[1] + 4], 0x20 | 0x02);
    rec_decoder d;
    rec_in in;
    start_decoder(&d, table, 3, &in, out.data, out.len);
    rec_record got;
    rec_def def;
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL_FATAL(rec_decode(&d, &in, &got, &def), 1);
        for (int k = 0; k < 12; k++)
            CU_ASSERT_EQUAL(got.args[k].i, recs[i].args[k].i);
        CU_ASSERT_EQUAL(got.ret.i, -1);
        CU_ASSERT_EQUAL(got.err, recs[i].err);
    }
    rec_buf_free(&out);
    rec_decoder_free(&d);
    rec_table_free(table);
}

/* A reference past the declared window is malformed input. */
RK_TEST(codec, reference_outside_window_is_an_error)
{
    rec_table *table = paper_table();
    rec_record recs[6];
    recs[0] = make(PWRITE, 0, 1, 4, (int64_t[]){7, 1, 64, 0});
    for (int k = 1; k < 5; k++)
        recs[k] = make(COMM_RANK, 1, 1, 2, (int64_t[]){k, k});
    recs[5] = make(PWRITE, 2, 3, 4, (int64_t[]){7, 1, 64, 64});
    rec_buf out = {0};
    size_t starts[6];
    encode_stream(table, 5, recs, 6, &out, starts);
    CU_ASSERT_EQUAL(out.data[starts[5] + 3], 5);
    rec_decoder d;
    rec_in in;
    start_decoder(&d, table, 3, &in, out.data, out.len); /* the stream claims a window of 3 */
    rec_record got;
    rec_def def;
    for (int i = 0; i < 5; i++)
        CU_ASSERT_EQUAL(rec_decode(&d, &in, &got, &def), 1);
    CU_ASSERT_EQUAL(rec_decode(&d, &in, &got, &def), -1);
    CU_ASSERT_STRING_EQUAL(in.failure, "ref_id outside the window");
    CU_ASSERT_EQUAL(in.failure_at, starts[5]);
    rec_buf_free(&out);
    rec_decoder_free(&d);
    rec_table_free(table);
}

/* Function ids missing from the table are rejected on both sides. */
RK_TEST(codec, unknown_function_id)
{
    rec_table *table = paper_table();
    rec_encoder e;
    start_encoder(&e, table, 3);
    rec_buf out = {0};
    rec_record r = make(999, 0, 0, 0, NULL);
    const char *why = NULL;
    CU_ASSERT_EQUAL(rec_encode(&e, &r, &out, &why), -1);
    CU_ASSERT_STRING_EQUAL(why, "function id not in the table");
    uint8_t raw[] = {0x00, 0x00, 0x00, 0xe7, 0x07}; /* a full record of function 999 */
    rec_decoder d;
    rec_in in;
    start_decoder(&d, table, 3, &in, raw, sizeof raw);
    rec_def def;
    CU_ASSERT_EQUAL(rec_decode(&d, &in, &r, &def), -1);
    CU_ASSERT_STRING_EQUAL(in.failure, "function id not in the trace's table");
    rec_buf_free(&out);
    rec_decoder_free(&d);
    rec_encoder_free(&e);
    rec_table_free(table);
}
