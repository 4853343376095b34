/* seed_tool: turns real traces into small fuzz seeds (make_seeds.sh).
 *
 *   seed_tool reduce IN OUT [--ranks N] [--records K] [--flush F] [--incomplete] [--zstd [FRAME]]
 *       re-encodes the first K records (default 40) of the first N ranks
 *       (default 2) of trace IN into OUT, with a function table cut down
 *       to the functions used and uncompressed blocks of at most F records
 *       (default 16; 0: blocks as the writer cuts them): seeds of a few KB
 *       whose bytes the fuzzer can reach. --incomplete leaves rank 0
 *       without its end marker and N.meta; --zstd compresses the blocks
 *       (runs of zstd frames of FRAME raw bytes, default 64 KiB).
 *   seed_tool raw DIR       rewrites DIR/<any>.rec with uncompressed blocks and
 *                           DIR/recorder.meta with an uncompressed body
 *   seed_tool pack DIR FILE [FLAGS]   DIR -> container (fuzz.h)
 *   seed_tool unpack FILE DIR         container -> new DIR (checksums repaired
 *                                     if the container's flags say so)
 *   seed_tool codec REC FILE [WINDOW] the first block's raw payload, as a
 *                                     fuzz_codec input */
#define _GNU_SOURCE
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zstd.h>

#include "block.h"
#include "rec_bytes.h"
#include "recorder_format.h"

static int die(const char *fmt, const char *arg)
{
    fprintf(stderr, "seed_tool: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(1);
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("%s: cannot open", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc(len > 0 ? (size_t)len : 1);
    if (!data || fread(data, 1, (size_t)len, f) != (size_t)len)
        die("%s: cannot read", path);
    fclose(f);
    *n = (size_t)len;
    return data;
}

static void spill(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
        die("%s: cannot write", path);
}

static int reduce(const char *in, const char *out, uint32_t max_ranks, uint64_t max_records, unsigned flush,
                  int incomplete, int zstd, size_t frame)
{
    rec_error err;
    rec_trace *t = rec_trace_open(in, &err);
    if (!t)
        die("%s", err.msg);
    if (mkdir(out, 0755) != 0 && errno != EEXIST)
        die("%s: cannot create", out);
    const rec_trace_info *info = rec_trace_get_info(t);
    const rec_table *table = rec_trace_table(t);
    uint32_t nranks = info->nranks < max_ranks ? info->nranks : max_ranks;
    /* Pass 1: the functions the kept records use. */
    uint8_t used[REC_FUNCTION_ID_LIMIT] = {0};
    for (uint32_t r = 0; r < nranks; r++) {
        rec_cursor *c = rec_cursor_open(t, r, &err);
        if (!c)
            die("%s", err.msg);
        rec_record rec;
        for (uint64_t k = 0; k < max_records && rec_cursor_next(c, &rec, &err) == 1; k++)
            used[rec.func] = 1;
        rec_cursor_close(c);
    }
    rec_func_desc *funcs = calloc(rec_table_count(table) + 1, sizeof *funcs);
    size_t nf = 0;
    for (size_t i = 0; i < rec_table_count(table); i++)
        if (used[rec_table_at(table, i)->id])
            funcs[nf++] = *rec_table_at(table, i);
    rec_table *small = rec_table_new(funcs, nf, &err);
    if (!small)
        die("%s", err.msg);
    rec_trace_info oinfo = *info;
    oinfo.nranks = nranks;
    oinfo.noptions = 0;
    if (rec_write_global_metadata(out, &oinfo, small, NULL, &err) != 0)
        die("%s", err.msg);
    /* Pass 2: the records, paths redefined in the new streams. */
    for (uint32_t r = 0; r < nranks; r++) {
        rec_cursor *c = rec_cursor_open(t, r, &err);
        const rec_rank_meta *meta = rec_trace_rank_meta(t, r, &err);
        rec_writer_options o;
        rec_writer_options_init(&o);
        o.table = small;
        o.window = info->window;
        o.codec = zstd ? REC_CODEC_ZSTD : REC_CODEC_NONE;
        o.frame_size = frame;
        o.start_time_ns = meta ? meta->start_time_ns : info->start_time_ns;
        rec_writer *w = rec_writer_open(out, r, &o, &err);
        if (!c || !w)
            die("%s", err.msg);
        rec_record rec;
        for (uint64_t k = 0; k < max_records && rec_cursor_next(c, &rec, &err) == 1; k++) {
            const rec_func_desc *f = rec_table_lookup(table, rec.func);
            for (unsigned a = 0; a < f->nargs; a++)
                if (rec_kind_class(f->args[a].kind) == REC_CLASS_PATH && rec.args[a].i >= 0) {
                    const char *p = rec_cursor_path(c, rec.args[a].i);
                    rec.args[a].i = p ? rec_writer_path_id(w, p) : -1;
                }
            if (rec_writer_append(w, &rec, &err) != 0)
                die("%s", err.msg);
            if (flush && (k + 1) % flush == 0 && rec_writer_flush(w, &err) != 0)
                die("%s", err.msg);
        }
        rec_cursor_close(c);
        int rc = incomplete && r == 0 ? rec_writer_abandon(w, &err) : rec_writer_close(w, &err);
        if (rc != 0)
            die("%s", err.msg);
    }
    rec_table_free(small);
    free(funcs);
    rec_trace_close(t);
    return 0;
}

/* Every block stored uncompressed: mutations of zstd frames mostly die in
 * zstd, those of raw payloads reach the record decoder. */
static void raw_stream(const char *path)
{
    size_t n;
    uint8_t *in = slurp(path, &n);
    if (n < 16)
        die("%s: too short", path);
    int swap = 0;
    uint32_t bom;
    memcpy(&bom, in + 4, 4);
    swap = bom == 0x04030201u;
    if (swap)
        die("%s: written on the other byte order: not supported", path);
    rec_buf out = {0};
    rec_put_bytes(&out, in, 16);
    size_t at = 16;
    while (at + REC_BLOCK_HEADER_SIZE <= n) {
        rec_block_header h;
        const char *why;
        if (rec_block_header_unpack(in + at, swap, &h, &why) != 0)
            die("%s: bad block header", path);
        const uint8_t *payload = in + at + REC_BLOCK_HEADER_SIZE;
        size_t next = at + REC_BLOCK_HEADER_SIZE + h.stored_size;
        if (memcmp(h.magic, REC_END_MAGIC, 4) == 0 || h.codec == REC_CODEC_NONE) {
            rec_put_bytes(&out, in + at, REC_BLOCK_HEADER_SIZE + h.stored_size);
        } else {
            uint8_t *raw = malloc(h.raw_size ? h.raw_size : 1);
            size_t got = raw ? ZSTD_decompress(raw, h.raw_size, payload, h.stored_size) : 0;
            if (!raw || ZSTD_isError(got) || got != h.raw_size)
                die("%s: cannot decompress a block", path);
            h.codec = REC_CODEC_NONE;
            h.stored_size = h.raw_size;
            h.payload_crc = rec_crc32(0, raw, h.raw_size);
            uint8_t header[REC_BLOCK_HEADER_SIZE];
            rec_block_header_pack(&h, header);
            rec_put_bytes(&out, header, sizeof header);
            rec_put_bytes(&out, raw, h.raw_size);
            free(raw);
        }
        at = next;
    }
    spill(path, out.data, out.len);
    rec_buf_free(&out);
    free(in);
}

/* recorder.meta with its body stored as is (codec 0), for the same reason. */
static void raw_meta(const char *path)
{
    size_t n;
    uint8_t *in = slurp(path, &n);
    uint32_t raw;
    if (n < 21 || memcmp(in, "RKGM", 4) != 0)
        die("%s: not a recorder.meta", path);
    memcpy(&raw, in + 13, 4);
    if (in[12] == REC_CODEC_NONE) {
        free(in);
        return;
    }
    uint8_t *body = malloc(raw ? raw : 1);
    size_t got = body ? ZSTD_decompress(body, raw, in + 17, n - 21) : 0;
    if (!body || ZSTD_isError(got) || got != raw)
        die("%s: cannot decompress the body", path);
    rec_buf out = {0};
    rec_put_bytes(&out, in, 12);
    rec_put_u8(&out, REC_CODEC_NONE);
    rec_put_bytes(&out, &raw, 4);
    rec_put_bytes(&out, body, raw);
    uint32_t crc = rec_crc32(0, out.data, out.len);
    rec_put_bytes(&out, &crc, 4);
    spill(path, out.data, out.len);
    rec_buf_free(&out);
    free(body);
    free(in);
}

static void raw_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        die("%s: cannot open", dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".rec") == 0) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            raw_stream(path);
        } else if (strcmp(e->d_name, "recorder.meta") == 0) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            raw_meta(path);
        }
    }
    closedir(d);
}

static void codec_seed(const char *rec, const char *out, unsigned window)
{
    size_t n;
    uint8_t *in = slurp(rec, &n);
    rec_block_header h;
    const char *why;
    if (n < 16 + REC_BLOCK_HEADER_SIZE || rec_block_header_unpack(in + 16, 0, &h, &why) != 0 ||
        h.codec != REC_CODEC_NONE || n - 16 - REC_BLOCK_HEADER_SIZE < h.stored_size)
        die("%s: no uncompressed first block", rec);
    uint8_t *seed = malloc(2 + (size_t)h.stored_size);
    seed[0] = (uint8_t)window;
    seed[1] = 1; /* 2 ranks: the merged seeds come from 2-rank traces */
    memcpy(seed + 2, in + 16 + REC_BLOCK_HEADER_SIZE, h.stored_size);
    spill(out, seed, 2 + (size_t)h.stored_size);
    free(seed);
    free(in);
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "reduce") == 0) {
        uint32_t ranks = 2;
        uint64_t records = 40;
        unsigned flush = 16;
        int incomplete = 0, zstd = 0;
        size_t frame = 0;
        for (int i = 4; i < argc; i++) {
            if (strcmp(argv[i], "--incomplete") == 0)
                incomplete = 1;
            else if (strcmp(argv[i], "--zstd") == 0) {
                zstd = 1;
                if (i + 1 < argc && argv[i + 1][0] != '-')
                    frame = (size_t)atoll(argv[++i]);
            }
            else if (i + 1 < argc && strcmp(argv[i], "--ranks") == 0)
                ranks = (uint32_t)atoi(argv[++i]);
            else if (i + 1 < argc && strcmp(argv[i], "--records") == 0)
                records = (uint64_t)atoll(argv[++i]);
            else if (i + 1 < argc && strcmp(argv[i], "--flush") == 0)
                flush = (unsigned)atoi(argv[++i]);
            else
                die("unknown option %s", argv[i]);
        }
        return reduce(argv[2], argv[3], ranks, records, flush, incomplete, zstd, frame);
    }
    if (argc == 3 && strcmp(argv[1], "raw") == 0) {
        raw_dir(argv[2]);
        return 0;
    }
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "pack") == 0) {
        uint8_t *data;
        size_t n = fuzz_pack(argv[2], (uint8_t)(argc == 5 ? atoi(argv[4]) : 0), &data);
        if (!n)
            die("%s: cannot pack", argv[2]);
        spill(argv[3], data, n);
        free(data);
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "unpack") == 0) {
        size_t n;
        uint8_t *data = slurp(argv[2], &n);
        if (mkdir(argv[3], 0755) != 0)
            die("%s: cannot create (it must not exist yet)", argv[3]);
        if (fuzz_unpack(data, n, argv[3]) < 0)
            die("%s: cannot unpack", argv[2]);
        free(data);
        return 0;
    }
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "codec") == 0) {
        codec_seed(argv[2], argv[3], argc == 5 ? (unsigned)atoi(argv[4]) : REC_WINDOW_DEFAULT);
        return 0;
    }
    fprintf(stderr, "usage: seed_tool reduce IN OUT [--ranks N] [--records K] [--flush F] [--incomplete]\n"
                    "       seed_tool raw DIR | pack DIR FILE [FLAGS] | unpack FILE DIR | codec REC FILE [WINDOW]\n");
    return 2;
}
