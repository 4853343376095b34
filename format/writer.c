/* writer.c: per-rank record streams. Records are encoded into an in-memory
 * block; a full block is compressed (zstd, when that makes it smaller),
 * checksummed and written with one write(), so memory stays bounded and a
 * crash loses at most the block being filled. */
#include "block.h"
#include "merged.h"
#include "meta.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
/* Every traced call with a path looks it up here: hashed 8 bytes at a time
 * (uthash's default hash costs about 3 instructions a byte). */
static inline unsigned path_hash(const void *key, size_t n)
{
    const unsigned char *p = key;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n, x;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&x, p, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    x = 0;
    memcpy(&x, p, n);
    h = (h ^ x) * 0xff51afd7ed558ccdull;
    return (unsigned)(h ^ (h >> 29));
}
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = path_hash((keyptr), (keylen)))
#include <uthash.h>
#include <zstd.h>

typedef struct path_entry {
    char *path;
    int64_t id;
    UT_hash_handle hh;
} path_entry;

/* Records of functions whose recorded fields are all integers (most calls)
 * wait here unencoded and are encoded STAGE_RECORDS at a time, or before
 * anything else enters the block. Appending one is a copy into memory the
 * previous append touched; the encoder's state (window, tables, block) is
 * then fetched into the cache once per batch instead of once per record, as
 * a system call between two records evicts it. The bytes written are the
 * same as encoding each record at once. */
enum { STAGE_RECORDS = 256, STAGE_ARGS = 8 };
typedef struct staged_record {
    uint64_t tstart, tend;
    uint32_t thread;
    uint16_t func;
    uint8_t depth;
    int64_t field[STAGE_ARGS + 2]; /* the arguments, then ret and errno */
} staged_record;

struct rec_writer {
    /* what a staged append touches, first */
    int failed; /* an I/O error happened: everything after it is dropped */
    unsigned nstaged;
    staged_record *stage;
    uint8_t stageable[REC_FUNCTION_ID_LIMIT / 8]; /* bit per function id */
    rec_writer_options opt;
    char *dir;
    char rec_path[4096];
    uint32_t rank;
    int fd;
    int attached;    /* the file exists: blocks go to it, not to `pending` */
    rec_buf pending; /* whole blocks written before attach */
    rec_encoder enc;
    /* the block being filled */
    rec_buf block;
    uint32_t block_records, block_defs;
    uint64_t block_first_tstart, block_last_tend;
    uint8_t block_funcs[REC_BLOCK_FUNC_BITMAP];
    uint32_t frame_ends[REC_FRAMES_MAX]; /* raw offsets where the block's frames end, but the last */
    uint32_t nframe_ends;
    rec_buf packed; /* compression output */
    ZSTD_CCtx *zstd;
    /* paths */
    path_entry *path_map;
    char **paths;
    size_t npaths, paths_cap;
    /* totals */
    uint64_t records, blocks, defs, stored_bytes, raw_bytes, first_tstart, last_tend;
};

static int drain(rec_writer *w, rec_error *err);

void rec_writer_options_init(rec_writer_options *o)
{
    memset(o, 0, sizeof *o);
    o->window = REC_WINDOW_DEFAULT;
    o->block_size = 1u << 20;
    o->codec = REC_CODEC_ZSTD;
    o->zstd_level = 1;
}

static int io_fail(rec_writer *w, rec_error *err, const char *what)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s: %s: %s", w->rec_path, what, strerror(errno));
    w->failed = 1;
    return -1;
}

static int write_all(rec_writer *w, const void *data, size_t n, rec_error *err)
{
    if (!w->attached) {
        rec_put_bytes(&w->pending, data, n);
        if (w->pending.oom)
            return io_fail(w, err, "out of memory buffering before the trace file exists");
        w->stored_bytes += n;
        return 0;
    }
    const uint8_t *p = data;
    while (n) {
        ssize_t got = w->opt.io.write(w->fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return io_fail(w, err, "write failed");
        p += got;
        n -= (size_t)got;
        w->stored_bytes += (size_t)got;
    }
    return 0;
}

rec_writer *rec_writer_open_deferred(const rec_writer_options *o, rec_error *err)
{
    rec_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    w->fd = -1;
    if (o)
        w->opt = *o;
    else
        rec_writer_options_init(&w->opt);
    if (!w->opt.table)
        w->opt.table = rec_table_builtin();
    if (w->opt.window > REC_WINDOW_MAX)
        w->opt.window = REC_WINDOW_MAX;
    if (w->opt.block_size < 4096)
        w->opt.block_size = 4096;
    if (w->opt.block_size > REC_BLOCK_MAX_RAW / 2)
        w->opt.block_size = REC_BLOCK_MAX_RAW / 2;
    if (w->opt.frame_size == 0 || w->opt.frame_size > REC_FRAME_RAW)
        w->opt.frame_size = REC_FRAME_RAW; /* smaller: seeds and tests (REC_FRAMES_MAX bounds the count) */
    if (!w->opt.io.open)
        w->opt.io.open = open;
    if (!w->opt.io.write)
        w->opt.io.write = write;
    if (!w->opt.io.close)
        w->opt.io.close = close;
    snprintf(w->rec_path, sizeof w->rec_path, "(trace not yet created)");
    if (rec_encoder_init(&w->enc, w->opt.table, w->opt.window) != 0) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        rec_writer_discard(w);
        return NULL;
    }
    if (w->opt.codec == REC_CODEC_ZSTD && !(w->zstd = ZSTD_createCCtx()))
        w->opt.codec = REC_CODEC_NONE;
    rec_buf_reserve(&w->block, w->opt.block_size + 4096);
    if ((w->stage = malloc(STAGE_RECORDS * sizeof *w->stage)) != NULL)
        for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++) {
            const rec_layout *lay = rec_table_layout(w->opt.table, id);
            if (lay && lay->all_scalar && lay->nrec && lay->nargs <= STAGE_ARGS)
                w->stageable[id / 8] |= (uint8_t)(1u << (id % 8));
        }
    return w;
}

int rec_writer_attach(rec_writer *w, const char *dir, uint32_t rank, rec_error *err)
{
    if (w->attached) {
        snprintf(err->msg, sizeof err->msg, "%s: already created", w->rec_path);
        return -1;
    }
    w->rank = rank;
    free(w->dir);
    w->dir = strdup(dir);
    if (rank == REC_MERGED_STREAM)
        snprintf(w->rec_path, sizeof w->rec_path, "%s/merged.rec", dir);
    else
        snprintf(w->rec_path, sizeof w->rec_path, "%s/%u.rec", dir, rank);
    if (!w->dir) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (w->opt.exclusive ? 0 : O_TRUNC);
    w->fd = w->opt.io.open(w->rec_path, flags, 0644);
    if (w->fd < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", w->rec_path, strerror(errno));
        w->failed = 1;
        return -1;
    }
    /* A traced program's exec'd child inherits the tracer and its settings:
     * it must not truncate the file its parent is still writing. */
    if (w->opt.exclusive && (flock(w->fd, LOCK_EX | LOCK_NB) != 0 || ftruncate(w->fd, 0) != 0)) {
        snprintf(err->msg, sizeof err->msg, "%s: being written by another process", w->rec_path);
        w->opt.io.close(w->fd);
        w->fd = -1;
        w->failed = 1;
        return REC_WRITER_BUSY;
    }
    w->attached = 1;
    uint64_t buffered = w->stored_bytes;
    w->stored_bytes = 0;
    rec_buf header = {0};
    rec_put_file_header(&header, REC_MAGIC_RECORDS);
    rec_put_bytes(&header, &rank, sizeof rank);
    int rc = header.oom ? io_fail(w, err, "out of memory") : write_all(w, header.data, header.len, err);
    rec_buf_free(&header);
    if (rc == 0 && w->pending.len)
        rc = write_all(w, w->pending.data, w->pending.len, err);
    if (rc == 0 && w->stored_bytes != buffered + REC_FILE_HEADER_SIZE + sizeof rank)
        rc = io_fail(w, err, "short write");
    rec_buf_free(&w->pending);
    return rc;
}

int rec_writer_attached(const rec_writer *w)
{
    return w->attached;
}

rec_writer *rec_writer_open(const char *dir, uint32_t rank, const rec_writer_options *o, rec_error *err)
{
    rec_writer *w = rec_writer_open_deferred(o, err);
    if (w && rec_writer_attach(w, dir, rank, err) != 0) {
        rec_writer_discard(w);
        return NULL;
    }
    return w;
}

int64_t rec_writer_path_id(rec_writer *w, const char *path)
{
    if (!path)
        return -1;
    path_entry *e;
    HASH_FIND_STR(w->path_map, path, e);
    if (e)
        return e->id;
    if (w->npaths == w->paths_cap) {
        size_t cap = w->paths_cap ? 2 * w->paths_cap : 64;
        char **grown = realloc(w->paths, cap * sizeof *grown);
        if (!grown)
            return -1;
        w->paths = grown;
        w->paths_cap = cap;
    }
    e = calloc(1, sizeof *e);
    char *copy = strdup(path);
    if (!e || !copy) {
        free(e);
        free(copy);
        return -1;
    }
    if (drain(w, NULL) != 0) {
        free(e);
        free(copy);
        return -1;
    }
    e->path = copy;
    e->id = (int64_t)w->npaths;
    w->paths[w->npaths++] = copy;
    HASH_ADD_KEYPTR(hh, w->path_map, e->path, strlen(e->path), e);
    rec_encode_path_def(&w->block, e->id, path);
    w->block_defs++;
    w->defs++;
    return e->id;
}

/* Writes the block being filled, if it holds anything. */
static int flush_block(rec_writer *w, rec_error *err)
{
    if (w->failed) {
        /* Every failure sets err's message: callers print it. */
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: an earlier write failed", w->rec_path);
        return -1;
    }
    if (w->block.len == 0)
        return 0;
    if (w->block.oom)
        return io_fail(w, err, "out of memory while encoding");
    const void *payload = w->block.data;
    size_t stored = w->block.len;
    uint8_t codec = REC_CODEC_NONE;
    if (w->opt.codec == REC_CODEC_ZSTD) {
        /* One frame per stretch of whole records (REC_FRAME_RAW). */
        if (w->nframe_ends && w->frame_ends[w->nframe_ends - 1] == w->block.len)
            w->nframe_ends--; /* no empty last frame */
        size_t bound = ZSTD_compressBound(w->block.len) + (w->nframe_ends + 1) * ZSTD_compressBound(0);
        w->packed.len = 0;
        rec_buf_reserve(&w->packed, bound);
        size_t z = 0, from = 0;
        for (uint32_t f = 0; !w->packed.oom && f <= w->nframe_ends; f++) {
            size_t to = f < w->nframe_ends ? w->frame_ends[f] : w->block.len;
            size_t n = ZSTD_compressCCtx(w->zstd, w->packed.data + z, bound - z, w->block.data + from,
                                         to - from, w->opt.zstd_level);
            if (ZSTD_isError(n)) {
                z = SIZE_MAX;
                break;
            }
            z += n;
            from = to;
        }
        if (!w->packed.oom && z < w->block.len) {
            payload = w->packed.data;
            stored = z;
            codec = REC_CODEC_ZSTD;
        }
    }
    rec_block_header h = {
        .codec = codec,
        .stored_size = (uint32_t)stored,
        .raw_size = (uint32_t)w->block.len,
        .nrecords = w->block_records,
        .ndefs = w->block_defs,
        .first_tstart = w->block_first_tstart,
        .last_tend = w->block_last_tend,
        .payload_crc = rec_crc32(0, payload, stored),
    };
    memcpy(h.funcs, w->block_funcs, sizeof h.funcs);
    memcpy(h.magic, REC_BLOCK_MAGIC, 4);
    uint8_t raw_header[REC_BLOCK_HEADER_SIZE];
    rec_block_header_pack(&h, raw_header);
    if (write_all(w, raw_header, sizeof raw_header, err) != 0 || write_all(w, payload, stored, err) != 0)
        return -1;
    w->raw_bytes += w->block.len;
    w->blocks++;
    w->block.len = 0;
    w->nframe_ends = 0;
    w->block_records = w->block_defs = 0;
    memset(w->block_funcs, 0, sizeof w->block_funcs);
    return 0;
}

static int append_now(rec_writer *w, const rec_record *r, rec_error *err)
{
    if (w->block_records == 0) {
        rec_encoder_reset(&w->enc, r->tstart);
        w->block_first_tstart = r->tstart;
        w->block_last_tend = 0;
    }
    if (w->records == 0)
        w->first_tstart = r->tstart;
    if (r->synthetic) { /* the mark and its record stay in one block: blocks are cut after records */
        rec_encode_def(&w->block, REC_DEF_SYNTHETIC, "", 0);
        w->block_defs++;
        w->defs++;
    }
    if (r->inferred) { /* likewise */
        rec_encode_def(&w->block, REC_DEF_INFERRED, "", 0);
        w->block_defs++;
        w->defs++;
    }
    const char *why = NULL;
    if (rec_encode(&w->enc, r, &w->block, &why) != 0) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s: record %llu (function id %u): %s", w->rec_path,
                     (unsigned long long)w->records, r->func, why);
        return -1;
    }
    uint64_t tend = r->tend < r->tstart ? r->tstart : r->tend;
    if (tend > w->block_last_tend)
        w->block_last_tend = tend;
    if (tend > w->last_tend)
        w->last_tend = tend;
    w->block_funcs[(r->func & 0xff) >> 3] |= (uint8_t)(1u << (r->func & 7));
    w->block_records++;
    w->records++;
    if (w->block.len >= w->opt.block_size)
        return flush_block(w, err);
    uint32_t frame_start = w->nframe_ends ? w->frame_ends[w->nframe_ends - 1] : 0;
    if (w->block.len - frame_start >= w->opt.frame_size && w->nframe_ends < REC_FRAMES_MAX)
        w->frame_ends[w->nframe_ends++] = (uint32_t)w->block.len;
    return 0;
}

/* Encodes the staged records, in order. */
static int drain(rec_writer *w, rec_error *err)
{
    unsigned n = w->nstaged;
    w->nstaged = 0;
    rec_record r;
    r.synthetic = 0;
    r.inferred = 0;
    for (unsigned k = 0; k < n && !w->failed; k++) {
        const staged_record *s = &w->stage[k];
        r.tstart = s->tstart;
        r.tend = s->tend;
        r.func = s->func;
        r.depth = s->depth;
        r.thread = s->thread;
#pragma GCC unroll 8
        for (unsigned i = 0; i < STAGE_ARGS; i++)
            r.args[i].i = s->field[i];
        r.ret.i = s->field[STAGE_ARGS];
        r.err = s->field[STAGE_ARGS + 1];
        if (append_now(w, &r, err) != 0)
            return -1;
    }
    return 0;
}

static int earlier_failure(rec_writer *w, rec_error *err)
{
    if (err)
        snprintf(err->msg, sizeof err->msg, "%s: an earlier write failed", w->rec_path);
    return -1;
}

int rec_writer_append(rec_writer *w, const rec_record *r, rec_error *err)
{
    if (w->failed)
        return earlier_failure(w, err);
    if ((w->stageable[r->func / 8] >> (r->func % 8) & 1) && !r->synthetic && !r->inferred) {
        staged_record *s = &w->stage[w->nstaged++];
        s->tstart = r->tstart;
        s->tend = r->tend;
        s->thread = r->thread;
        s->func = r->func;
        s->depth = r->depth;
#pragma GCC unroll 8
        for (unsigned i = 0; i < STAGE_ARGS; i++) /* past the function's own: never read */
            s->field[i] = r->args[i].i;
        s->field[STAGE_ARGS] = r->ret.i;
        s->field[STAGE_ARGS + 1] = r->err;
        return w->nstaged == STAGE_RECORDS ? drain(w, err) : 0;
    }
    if (drain(w, err) != 0)
        return -1;
    return append_now(w, r, err);
}

int rec_writer_flush(rec_writer *w, rec_error *err)
{
    if (drain(w, err) != 0)
        return -1;
    return flush_block(w, err);
}

void rec_writer_counts(rec_writer *w, rec_counts *out)
{
    drain(w, NULL);
    memset(out, 0, sizeof *out);
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++) {
        const rec_counts *c = &w->enc.per_func[id];
        out->records += c->records;
        out->compressed_records += c->compressed_records;
        out->fields += c->fields;
        out->elided_fields += c->elided_fields;
    }
}

uint64_t rec_writer_bytes(const rec_writer *w)
{
    return w->stored_bytes;
}

uint64_t rec_writer_records(const rec_writer *w)
{
    return w->records + w->nstaged;
}

int rec_writer_abandon(rec_writer *w, rec_error *err)
{
    int rc = rec_writer_flush(w, err);
    rec_writer_discard(w);
    return rc;
}

int rec_writer_close(rec_writer *w, rec_error *err)
{
    if (!w->attached) {
        snprintf(err->msg, sizeof err->msg, "the trace file was never created");
        rec_writer_discard(w);
        return -1;
    }
    int rc = rec_writer_flush(w, err);
    if (rc == 0) {
        rec_block_header end = {
            .nrecords = (uint32_t)(w->records > UINT32_MAX ? UINT32_MAX : w->records),
            .ndefs = (uint32_t)(w->defs > UINT32_MAX ? UINT32_MAX : w->defs),
            .first_tstart = w->first_tstart,
            .last_tend = w->last_tend,
        };
        memcpy(end.magic, REC_END_MAGIC, 4);
        uint8_t raw[REC_BLOCK_HEADER_SIZE];
        rec_block_header_pack(&end, raw);
        rc = write_all(w, raw, sizeof raw, err);
    }
    if (w->fd >= 0 && w->opt.io.close(w->fd) != 0 && rc == 0)
        rc = io_fail(w, err, "close failed");
    w->fd = -1;
    if (rc == 0) {
        rec_rank_summary s = {
            .rank = w->rank,
            .start_time_ns = w->opt.start_time_ns,
            .records = w->records,
            .blocks = w->blocks,
            .stored_bytes = w->stored_bytes,
            .raw_bytes = w->raw_bytes,
            .first_tstart = w->first_tstart,
            .last_tend = w->last_tend,
            .per_func = w->enc.per_func,
            .npaths = w->npaths,
            .paths = w->paths,
        };
        rec_buf meta = {0};
        rec_meta_encode_rank(&meta, &s);
        char meta_path[4200];
        if (w->rank == REC_MERGED_STREAM)
            snprintf(meta_path, sizeof meta_path, "%s/merged.meta", w->dir);
        else
            snprintf(meta_path, sizeof meta_path, "%s/%u.meta", w->dir, w->rank);
        rc = meta.oom ? -1 : rec_write_file(&w->opt.io, meta_path, meta.data, meta.len, err);
        rec_buf_free(&meta);
    }
    rec_writer_discard(w);
    return rc;
}

void rec_writer_discard(rec_writer *w)
{
    if (!w)
        return;
    if (w->fd >= 0)
        w->opt.io.close(w->fd);
    path_entry *e, *tmp;
    HASH_ITER(hh, w->path_map, e, tmp)
    {
        HASH_DEL(w->path_map, e);
        free(e);
    }
    for (size_t i = 0; i < w->npaths; i++)
        free(w->paths[i]);
    free(w->paths);
    rec_encoder_free(&w->enc);
    rec_buf_free(&w->block);
    rec_buf_free(&w->packed);
    rec_buf_free(&w->pending);
    free(w->stage);
    ZSTD_freeCCtx(w->zstd);
    free(w->dir);
    free(w);
}

int rec_write_global_metadata(const char *dir, const rec_trace_info *info, const rec_table *table,
                              const rec_io *io, rec_error *err)
{
    rec_buf b = {0};
    rec_meta_encode_global(&b, info, table ? table : rec_table_builtin());
    char path[4200];
    snprintf(path, sizeof path, "%s/recorder.meta", dir);
    int rc = b.oom ? -1 : rec_write_file(io, path, b.data, b.len, err);
    if (b.oom)
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
    rec_buf_free(&b);
    return rc;
}

int rec_writer_append_merged(rec_writer *w, const rec_record *base, const rec_merge_info *mi, rec_error *err)
{
    if (mi) {
        if (drain(w, err) != 0)
            return -1;
        const rec_layout *lay = rec_table_layout(w->opt.table, base->func);
        if (!lay) {
            if (err)
                snprintf(err->msg, sizeof err->msg, "%s: function id %u not in the table", w->rec_path,
                         base->func);
            return -1;
        }
        rec_buf note = {0};
        rec_merge_encode(&note, lay, base, mi);
        if (note.oom) {
            rec_buf_free(&note);
            return io_fail(w, err, "out of memory");
        }
        /* The annotation and its record stay in one block: blocks are only
         * cut after a record. */
        rec_encode_def(&w->block, REC_DEF_MERGE, note.data, note.len);
        rec_buf_free(&note);
        w->block_defs++;
        w->defs++;
    }
    return rec_writer_append(w, base, err);
}

int rec_writer_handle_alias(rec_writer *w, uint32_t rank, unsigned kind, int64_t merged_id, int64_t rank_id)
{
    uint8_t payload[40];
    rec_buf b = {payload, 0, sizeof payload, 0};
    rec_put_varint(&b, rank);
    rec_put_varint(&b, rec_kind_handle_space(kind));
    rec_put_svarint(&b, merged_id);
    rec_put_svarint(&b, rank_id);
    if (drain(w, NULL) != 0)
        return -1;
    rec_encode_def(&w->block, REC_DEF_ALIAS, payload, b.len);
    w->block_defs++;
    w->defs++;
    return w->block.oom ? -1 : 0;
}
