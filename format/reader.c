/* reader.c: opening a trace and walking a rank's records.
 *
 * Selective decoding (Alg. 1 of "Recorder 2.0: Efficient Parallel I/O
 * Tracing and Analysis"): a cursor told which functions it wants skips every
 * block whose function bitmap holds none of them without reading its
 * payload, and within a block returns only wanted records.
 *
 * Every malformed input ends in an error naming the file and byte offset. A
 * rank whose N.meta is missing never closed its stream (crash, kill): its
 * records up to the last whole block are returned and the cursor reports the
 * stream as incomplete. */
#include "aliases.h"
#include "block.h"
#include "codec.h"
#include "merged.h"
#include "meta.h"
#include "reader_fs.h"
#include "files.h"

#include <uthash.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <zstd.h>

typedef struct rank_slot {
    uint32_t rank;
    int state; /* 0 not loaded, 1 loaded, 2 missing, 3 bad */
    rec_rank_meta meta;
    char error[1024];
    UT_hash_handle hh;
} rank_slot;

struct rec_trace {
    char *dir;
    rec_global g;
    /* by rank, only the ranks asked for: memory follows the ranks read, never
     * the nranks recorder.meta claims (a 100-byte file may claim 2^24) */
    rank_slot *ranks;
    rank_slot missing; /* the last rank found without N.meta (not kept) */
    rank_slot merged; /* merged traces: merged.meta, shared by every rank */
    rec_parts *parts; /* where each rank's files are */
};

int rec_trace_is_merged(const rec_trace *t)
{
    return (t->g.info.flags & REC_TRACE_MERGED) != 0;
}

rec_trace *rec_trace_open(const char *dir, rec_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/recorder.meta", dir);
    struct stat st;
    errno = 0; /* a path that exists but is no directory sets none */
    int is_dir = rec_reader_fs_hook ? rec_reader_fs_hook->is_dir(dir) == 1
                                    : stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
    if (!is_dir) {
        snprintf(err->msg, sizeof err->msg, "%s: not a trace directory: %s", dir,
                 errno ? strerror(errno) : "not a directory");
        return NULL;
    }
    uint8_t *data;
    size_t n;
    if (rec_read_file(path, &data, &n, err) != 0)
        return NULL;
    rec_trace *t = calloc(1, sizeof *t);
    if (!t) {
        free(data);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    int rc = rec_meta_parse_global(data, n, path, &t->g, err);
    free(data);
    if (rc != 0) {
        free(t);
        return NULL;
    }
    t->dir = strdup(dir);
    if (!t->dir) {
        rec_trace_close(t);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    if (!(t->parts = rec_parts_open(dir, err))) {
        rec_trace_close(t);
        return NULL;
    }
    return t;
}

void rec_trace_close(rec_trace *t)
{
    if (!t)
        return;
    rank_slot *s, *tmp;
    HASH_ITER(hh, t->ranks, s, tmp)
    {
        HASH_DEL(t->ranks, s);
        rec_rank_meta_free(&s->meta);
        free(s);
    }
    rec_parts_close(t->parts);
    rec_rank_meta_free(&t->merged.meta);
    rec_global_free(&t->g);
    free(t->dir);
    free(t);
}

const rec_trace_info *rec_trace_get_info(const rec_trace *t)
{
    return &t->g.info;
}

const rec_table *rec_trace_table(const rec_trace *t)
{
    return t->g.table;
}

const char *rec_trace_dir(const rec_trace *t)
{
    return t->dir;
}

const rec_parts *rec_trace_parts(const rec_trace *t)
{
    return t->parts;
}

/* Loads N.meta once. Returns the slot (NULL: out of memory); state 2
 * (missing) is not an error. */
static rank_slot *load_rank(rec_trace *t, uint32_t rank)
{
    int merged = rec_trace_is_merged(t);
    rank_slot *s = &t->merged;
    if (!merged) {
        HASH_FIND(hh, t->ranks, &rank, sizeof rank, s);
        if (!s) {
            if (!(s = calloc(1, sizeof *s)))
                return NULL;
            s->rank = rank;
            HASH_ADD(hh, t->ranks, rank, sizeof s->rank, s);
        }
    }
    if (s->state)
        return s;
    uint32_t expect_rank = merged ? REC_MERGED_STREAM : rank;
    rec_part_place at;
    rec_parts_find(t->parts, expect_rank, REC_PART_META, &at);
    const char *path = at.name;
    uint8_t *data;
    size_t n;
    rec_error err;
    int rc = rec_parts_read(t->parts, expect_rank, REC_PART_META, &data, &n, &err);
    if (rc != 0) {
        int missing = rc == 1;
        if (missing && !merged) { /* common (crashed ranks) and cheap to find again */
            HASH_DEL(t->ranks, s);
            free(s);
            s = &t->missing;
        }
        s->state = missing ? 2 : 3;
        snprintf(s->error, sizeof s->error, "%s", err.msg);
        return s;
    }
    if (rec_meta_parse_rank(data, n, path, &s->meta, &err) != 0) {
        s->state = 3;
        snprintf(s->error, sizeof s->error, "%s", err.msg);
    } else if (s->meta.rank != expect_rank) {
        s->state = 3;
        snprintf(s->error, sizeof s->error, "%s: holds rank %u's metadata", path, s->meta.rank);
        rec_rank_meta_free(&s->meta);
    } else {
        s->state = 1;
    }
    free(data);
    return s;
}

const rec_rank_meta *rec_trace_rank_meta(rec_trace *t, uint32_t rank, rec_error *err)
{
    if (rank >= t->g.info.nranks) {
        snprintf(err->msg, sizeof err->msg, "%s: no rank %u (the trace has %u)", t->dir, rank, t->g.info.nranks);
        return NULL;
    }
    rank_slot *s = load_rank(t, rank);
    if (!s || s->state != 1) {
        snprintf(err->msg, sizeof err->msg, "%s", s ? s->error : "out of memory");
        return NULL;
    }
    return &s->meta;
}

/* ---- cursor ---- */

struct rec_cursor {
    rec_trace *t;
    uint32_t rank;
    char path[4300];      /* for messages: the file, or the aggregate and the member */
    char file_path[4200]; /* the file the stream is in */
    uint64_t base, limit; /* the stream's bytes in it: from base, limit of them (UINT64_MAX: to its end) */
    rec_stream_file file; /* opened at its first read, parked past the budget (files.h) */
    int swap;
    uint64_t offset;       /* file offset of the next block header */
    uint64_t block_offset; /* file offset of the current block's header */
    const rec_rank_meta *meta; /* NULL: the rank did not close cleanly */
    uint8_t *stored, *raw; /* the block as stored; the current zstd frame decompressed */
    size_t stored_cap, raw_cap;
    uint32_t frame_at;       /* zstd: where the next frame starts in `stored` */
    uint32_t frame_raw_at;   /* zstd: the current frame's first byte in the block's raw bytes */
    uint32_t raw_done;       /* zstd: raw bytes of the block decompressed so far */
    uint8_t *note_copy;      /* an annotation kept across a frame change */
    size_t note_cap;
    rec_decoder dec;
    rec_in in;
    rec_block_header block;
    uint32_t block_records, block_defs;
    int in_block, done, complete;
    int filtering;
    uint8_t wanted[REC_FUNCTION_ID_LIMIT / 8];
    uint8_t wanted_mod256[REC_BLOCK_FUNC_BITMAP];
    char **paths; /* from the stream's definitions when there is no N.meta */
    size_t npaths, paths_cap;
    uint64_t records_seen, blocks_skipped, defs_seen;
    /* merged traces */
    int mode; /* 0 a rank's own stream, 1 a rank expanded from the merged stream, 2 the merged stream */
    const uint8_t *annotation; /* the merge annotation for the next record, in the block */
    uint32_t annotation_len;
    rec_merge_state merge;
    rec_aliases *aliases;  /* expanded rank (or the merged stream, when kept): unified handle id -> the rank's own */
    int keep_aliases;      /* the merged stream keeps every rank's aliases (rec_cursor_keep_aliases) */
    int sets_only;         /* the merged stream gives rank sets, no variations (rec_cursor_sets_only) */
    int64_t *own_handles[REC_MAX_ARGS]; /* handle arrays with the rank's own ids */
    size_t own_handles_cap[REC_MAX_ARGS];
    uint8_t synthetic_next; /* a REC_DEF_SYNTHETIC mark was read: the next record is rebuilt */
    uint8_t inferred_next;  /* a REC_DEF_INFERRED mark was read: the next record is inferred */
    rec_rank_range all_ranks;
};

static int cursor_error(rec_cursor *c, rec_error *err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#include <stdarg.h>
static int cursor_error(rec_cursor *c, rec_error *err, const char *fmt, ...)
{
    char what[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(err->msg, sizeof err->msg, "%s: %s", c->path, what);
    c->done = 1;
    return -1;
}

/* fread of the stream's bytes from `at` on: an aggregate holds other
 * ranks' parts after them, which the stream must not run into. */
static size_t stream_read(const rec_cursor *c, uint64_t at, void *buf, size_t n, FILE *file)
{
    if (c->limit != UINT64_MAX)
        n = at >= c->limit ? 0 : c->limit - at < n ? (size_t)(c->limit - at) : n;
    return n ? fread(buf, 1, n, file) : 0;
}

static rec_cursor *open_cursor(rec_trace *t, uint32_t rank, int mode, rec_error *err)
{
    if (mode != 2 && rank >= t->g.info.nranks) {
        snprintf(err->msg, sizeof err->msg, "%s: no rank %u (the trace has %u)", t->dir, rank, t->g.info.nranks);
        return NULL;
    }
    rank_slot *s = load_rank(t, rank);
    if (!s || s->state == 3) {
        snprintf(err->msg, sizeof err->msg, "%s", s ? s->error : "out of memory");
        return NULL;
    }
    rec_cursor *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    c->t = t;
    c->rank = rank;
    c->mode = mode;
    c->meta = s->state == 1 ? &s->meta : NULL;
    rec_part_place at;
    int absent = rec_parts_find(t->parts, mode ? REC_MERGED_STREAM : rank, REC_PART_STREAM, &at);
    snprintf(c->path, sizeof c->path, "%s", at.name);
    snprintf(c->file_path, sizeof c->file_path, "%s", at.path);
    c->base = at.base;
    c->limit = at.length;
    c->file.path = c->file_path;
    FILE *file = absent ? NULL : rec_stream_file_use(&c->file);
    if (!file || fseeko(file, (off_t)c->base, SEEK_SET) != 0) {
        if (absent)
            errno = ENOENT;
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", c->path, strerror(errno));
        free(c);
        return NULL;
    }
    rec_decoder_init(&c->dec, t->g.table, t->g.info.window);
    uint8_t header[REC_FILE_HEADER_SIZE + 4];
    size_t got = stream_read(c, 0, header, sizeof header, file);
    rec_fixed f = {0};
    rec_in_init(&f.in, header, got);
    uint32_t major, minor;
    if (rec_check_file_header(&f, REC_MAGIC_RECORDS, c->path, "record stream", &major, &minor, err) != 0) {
        rec_cursor_close(c);
        return NULL;
    }
    c->swap = f.swap;
    uint32_t file_rank = rec_fixed_u32(&f);
    if (f.in.failure) {
        snprintf(err->msg, sizeof err->msg, "%s: truncated header at byte %zu", c->path, got);
        rec_cursor_close(c);
        return NULL;
    }
    if (file_rank != (mode ? REC_MERGED_STREAM : rank)) {
        snprintf(err->msg, sizeof err->msg, "%s: holds rank %u's records", c->path, file_rank);
        rec_cursor_close(c);
        return NULL;
    }
    c->offset = sizeof header;
    return c;
}

rec_cursor *rec_cursor_open(rec_trace *t, uint32_t rank, rec_error *err)
{
    return open_cursor(t, rank, rec_trace_is_merged(t) ? 1 : 0, err);
}

rec_cursor *rec_cursor_open_merged(rec_trace *t, rec_error *err)
{
    if (!rec_trace_is_merged(t)) {
        snprintf(err->msg, sizeof err->msg, "%s: not a merged trace", t->dir);
        return NULL;
    }
    return open_cursor(t, 0, 2, err);
}

void rec_cursor_want(rec_cursor *c, unsigned func_id)
{
    if (func_id >= REC_FUNCTION_ID_LIMIT)
        return;
    c->filtering = 1;
    c->wanted[func_id >> 3] |= (uint8_t)(1u << (func_id & 7));
    c->wanted_mod256[(func_id & 0xff) >> 3] |= (uint8_t)(1u << (func_id & 7));
}

static int is_wanted(const rec_cursor *c, unsigned id)
{
    return !c->filtering || (id < REC_FUNCTION_ID_LIMIT && (c->wanted[id >> 3] >> (id & 7)) & 1);
}

static int block_may_hold_wanted(const rec_cursor *c, const rec_block_header *h)
{
    for (unsigned i = 0; i < REC_BLOCK_FUNC_BITMAP; i++)
        if (h->funcs[i] & c->wanted_mod256[i])
            return 1;
    return 0;
}

static int grow(uint8_t **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    uint8_t *p = realloc(*buf, need);
    if (!p)
        return -1;
    *buf = p;
    *cap = need;
    return 0;
}

/* A stream that stops early is an error when N.meta says the rank closed
 * cleanly, and the normal end of an incomplete trace otherwise. */
static int stream_stops(rec_cursor *c, rec_error *err, const char *what)
{
    if (c->meta)
        return cursor_error(c, err, "%s at byte %llu", what, (unsigned long long)c->offset);
    c->done = 1;
    c->complete = 0;
    return 0;
}

/* One decompression context per thread, whatever the number of cursors: a
 * merge of thousands of ranks keeps a cursor open per rank. */
static ZSTD_DCtx *shared_dctx(void)
{
    static __thread ZSTD_DCtx *dctx;
    if (!dctx)
        dctx = ZSTD_createDCtx();
    return dctx;
}

/* Decompresses the block's next zstd frame into c->raw, for c->in. A block
 * is a run of frames (REC_FRAME_RAW of whole records each), so a reader
 * holds one frame, not the whole block. 0, or -1 with err set. */
static int next_frame(rec_cursor *c, rec_error *err)
{
    ZSTD_DCtx *z = shared_dctx();
    if (!z)
        return cursor_error(c, err, "out of memory");
    if (c->frame_at >= c->block.stored_size) /* an empty payload has no stored bytes (NULL) */
        return cursor_error(c, err, "block at byte %llu: cannot decompress: no zstd frame",
                            (unsigned long long)c->block_offset);
    const uint8_t *src = c->stored + c->frame_at;
    size_t left = c->block.stored_size - c->frame_at;
    uint32_t raw_left = c->block.raw_size - c->raw_done;
    size_t size = ZSTD_findFrameCompressedSize(src, left);
    unsigned long long content = ZSTD_getFrameContentSize(src, left);
    if (!ZSTD_isError(size) && content == ZSTD_CONTENTSIZE_UNKNOWN) {
        size = left; /* a writer that does not give frame sizes: the rest at once */
        content = raw_left;
    }
    if (ZSTD_isError(size) || content == ZSTD_CONTENTSIZE_ERROR)
        return cursor_error(c, err, "block at byte %llu: cannot decompress: %s at payload byte %u",
                            (unsigned long long)c->block_offset,
                            ZSTD_isError(size) ? ZSTD_getErrorName(size) : "no zstd frame", c->frame_at);
    if (content > raw_left)
        return cursor_error(c, err, "block at byte %llu: its zstd frames hold more than the header's %u raw bytes",
                            (unsigned long long)c->block_offset, c->block.raw_size);
    if (grow(&c->raw, &c->raw_cap, content ? (size_t)content : 1) != 0)
        return cursor_error(c, err, "out of memory");
    size_t n = ZSTD_decompressDCtx(z, c->raw, (size_t)content, src, size);
    if (ZSTD_isError(n) || n != content)
        return cursor_error(c, err, "block at byte %llu: cannot decompress: %s", (unsigned long long)c->block_offset,
                            ZSTD_isError(n) ? ZSTD_getErrorName(n) : "wrong size");
    c->frame_at += (uint32_t)size;
    c->frame_raw_at = c->raw_done;
    c->raw_done += (uint32_t)content;
    rec_in_init(&c->in, c->raw, (size_t)content);
    return 0;
}

/* Reads the next block header and payload. 1: a block is ready; 0: end. */
static int next_block(rec_cursor *c, rec_error *err)
{
    for (;;) {
        uint8_t raw_header[REC_BLOCK_HEADER_SIZE];
        FILE *file = rec_stream_file_use(&c->file);
        if (!file)
            return cursor_error(c, err, "cannot reopen: %s", strerror(errno));
        if (fseeko(file, (off_t)(c->base + c->offset), SEEK_SET) != 0)
            return cursor_error(c, err, "seek to byte %llu failed", (unsigned long long)c->offset);
        size_t got = stream_read(c, c->offset, raw_header, sizeof raw_header, file);
        if (got == 0)
            return stream_stops(c, err, "stream ends without its end marker");
        if (got < sizeof raw_header)
            return stream_stops(c, err, "truncated block header");
        const char *why = NULL;
        rec_block_header h;
        if (rec_block_header_unpack(raw_header, c->swap, &h, &why) != 0)
            return cursor_error(c, err, "%s at byte %llu", why, (unsigned long long)c->offset);
        c->block_offset = c->offset;
        c->offset += sizeof raw_header;
        if (memcmp(h.magic, REC_END_MAGIC, 4) == 0) {
            if (h.nrecords != (c->records_seen > UINT32_MAX ? UINT32_MAX : c->records_seen))
                return cursor_error(c, err, "end marker at byte %llu counts %u records, the stream holds %llu",
                                    (unsigned long long)c->block_offset, h.nrecords,
                                    (unsigned long long)c->records_seen);
            if (c->meta && c->meta->records != c->records_seen)
                return cursor_error(c, err, "the stream holds %llu records, its .meta file says %llu",
                                    (unsigned long long)c->records_seen, (unsigned long long)c->meta->records);
            if (c->limit != UINT64_MAX ? c->offset != c->limit : fgetc(file) != EOF)
                return cursor_error(c, err, "unexpected bytes after the end marker at byte %llu",
                                    (unsigned long long)c->offset);
            c->done = 1;
            c->complete = 1;
            return 0;
        }
        /* Skipping needs the rank's full path table, which only N.meta has. */
        if (c->filtering && c->meta && !block_may_hold_wanted(c, &h)) {
            c->offset += h.stored_size;
            c->records_seen += h.nrecords;
            c->blocks_skipped++;
            continue;
        }
        if (grow(&c->stored, &c->stored_cap, h.stored_size) != 0)
            return cursor_error(c, err, "out of memory");
        got = stream_read(c, c->offset, c->stored, h.stored_size, file);
        if (got < h.stored_size)
            return stream_stops(c, err, "truncated block");
        c->offset += h.stored_size;
        if (rec_crc32(0, c->stored, h.stored_size) != h.payload_crc)
            return cursor_error(c, err, "block at byte %llu: payload checksum mismatch",
                                (unsigned long long)c->block_offset);
        if (h.codec != REC_CODEC_ZSTD && h.stored_size != h.raw_size)
            return cursor_error(c, err, "block at byte %llu: stored and raw sizes differ in an uncompressed block",
                                (unsigned long long)c->block_offset);
        c->block = h;
        c->block_records = c->block_defs = 0;
        c->frame_at = c->frame_raw_at = c->raw_done = 0;
        if (h.codec == REC_CODEC_ZSTD) {
            if (next_frame(c, err) != 0)
                return -1;
        } else {
            rec_in_init(&c->in, c->stored, h.raw_size);
        }
        rec_decoder_reset(&c->dec, h.first_tstart);
        c->in_block = 1;
        return 1;
    }
}

static int add_path(rec_cursor *c, const rec_def *def, rec_error *err)
{
    if (c->meta) { /* N.meta already has every path: check the id only */
        if (def->id < 0 || (uint64_t)def->id >= c->meta->npaths)
            return cursor_error(c, err, "block at byte %llu: path id %lld not in the .meta file",
                                (unsigned long long)c->block_offset, (long long)def->id);
        return 0;
    }
    if (def->id != (int64_t)c->npaths)
        return cursor_error(c, err, "block at byte %llu: path id %lld defined out of order",
                            (unsigned long long)c->block_offset, (long long)def->id);
    if (c->npaths == c->paths_cap) {
        size_t cap = c->paths_cap ? 2 * c->paths_cap : 64;
        char **p = realloc(c->paths, cap * sizeof *p);
        if (!p)
            return cursor_error(c, err, "out of memory");
        c->paths = p;
        c->paths_cap = cap;
    }
    char *copy = malloc((size_t)def->len + 1);
    if (!copy)
        return cursor_error(c, err, "out of memory");
    memcpy(copy, def->bytes, def->len);
    copy[def->len] = 0;
    c->paths[c->npaths++] = copy;
    return 0;
}

/* Definitions: paths, and in merged streams annotations and handle aliases. */
static int take_definition(rec_cursor *c, const rec_def *def, rec_error *err)
{
    if (def->kind == REC_DEF_PATH)
        return add_path(c, def, err);
    if (def->kind == REC_DEF_MERGE) {
        c->annotation = def->bytes;
        c->annotation_len = def->len;
        return 0;
    }
    if (def->kind == REC_DEF_SYNTHETIC) {
        c->synthetic_next = 1;
        return 0;
    }
    if (def->kind == REC_DEF_INFERRED) {
        c->inferred_next = 1;
        return 0;
    }
    if (def->kind == REC_DEF_ALIAS && (c->mode == 1 || c->keep_aliases)) {
        const char *why = NULL;
        int rc = rec_aliases_take(&c->aliases, def->bytes, def->len, c->mode == 1 ? (int64_t)c->rank : -1, &why);
        if (rc == -1)
            return cursor_error(c, err, "block at byte %llu: %s", (unsigned long long)c->block_offset, why);
        if (rc != 0)
            return cursor_error(c, err, "out of memory");
    }
    return 0; /* other kinds: written by a newer version, safe to skip */
}

int64_t rec_cursor_aliased(const rec_cursor *c, unsigned space, int64_t merged_id)
{
    return rec_aliases_count(c->aliases, space, merged_id);
}

static int64_t own_handle(const rec_cursor *c, unsigned space, int64_t id)
{
    return rec_cursor_own_handle(c, c->rank, space, id);
}

void rec_cursor_sets_only(rec_cursor *c)
{
    if (c->mode == 2)
        c->sets_only = 1;
}

void rec_cursor_keep_aliases(rec_cursor *c)
{
    c->keep_aliases = 1;
}

int64_t rec_cursor_own_handle(const rec_cursor *c, uint32_t rank, unsigned space, int64_t merged_id)
{
    return rec_aliases_own(c->aliases, rank, space, merged_id);
}

/* Field `field` as the rank's own: its handle, or each handle of its array
 * (decoded into the cursor's buffer for that field). */
static int unalias(rec_cursor *c, unsigned field, unsigned kind, rec_value *v)
{
    unsigned space = rec_kind_handle_space(kind);
    if (!space)
        return 0;
    if (rec_kind_class(kind) == REC_CLASS_INT) {
        v->i = own_handle(c, space, v->i);
        return 0;
    }
    if (rec_kind_class(kind) != REC_CLASS_ARRAY || v->len == 0)
        return 0;
    if (c->own_handles_cap[field] < v->len) {
        int64_t *grown = realloc(c->own_handles[field], v->len * sizeof *grown);
        if (!grown)
            return -1;
        c->own_handles[field] = grown;
        c->own_handles_cap[field] = v->len;
    }
    int64_t *own = c->own_handles[field];
    rec_value_array(v, own, v->len);
    for (uint32_t k = 0; k < v->len; k++)
        own[k] = own_handle(c, space, own[k]);
    v->ptr = own;
    v->encoded = 0;
    return 0;
}

/* A record of a merged stream. 1: keep it (for an expanded rank: now that
 * rank's own record); 0: not this rank's; -1: malformed. */
static int merged_record(rec_cursor *c, rec_record *r, rec_merge_info *mi, rec_error *err)
{
    const rec_layout *lay = rec_table_layout(c->t->g.table, r->func);
    const uint8_t *note = c->annotation;
    c->annotation = NULL;
    rec_merge_info all = {0};
    const rec_merge_info *info = &all;
    if (note) {
        const char *why = NULL;
        if (rec_merge_parse(&c->merge, note, c->annotation_len, lay, r, c->t->g.info.nranks, c->sets_only, &why) != 0)
            return cursor_error(c, err, "block at byte %llu: record %u: %s", (unsigned long long)c->block_offset,
                                c->block_records - 1, why);
        info = &c->merge.info;
    } else {
        /* No annotation: the same call, same values, on every rank. */
        c->all_ranks = (rec_rank_range){0, c->t->g.info.nranks, 1};
        all = (rec_merge_info){.nranges = 1, .ranges = &c->all_ranks, .nranks = c->t->g.info.nranks};
    }
    if (c->mode == 2) {
        if (mi)
            *mi = *info;
        return 1;
    }
    uint32_t index;
    if (!rec_merge_info_find(info, c->rank, &index))
        return 0;
    rec_merge_apply(info, lay, r, c->rank, index);
    if (c->aliases) {
        const rec_func_desc *f = rec_table_lookup(c->t->g.table, r->func);
        int failed = 0;
        for (unsigned a = 0; a < f->nargs; a++)
            failed |= unalias(c, a, f->args[a].kind, &r->args[a]);
        if (f->ret_kind != REC_KIND_NONE)
            unalias(c, 0, f->ret_kind, &r->ret); /* never an array */
        if (failed)
            return cursor_error(c, err, "out of memory");
    }
    return 1;
}

/* A merge annotation read at the end of a frame belongs to the record at the
 * start of the next one: its bytes are copied before the frame's go. */
static int keep_annotation(rec_cursor *c, rec_error *err)
{
    if (!c->annotation || c->annotation == c->note_copy)
        return 0;
    if (grow(&c->note_copy, &c->note_cap, c->annotation_len ? c->annotation_len : 1) != 0)
        return cursor_error(c, err, "out of memory");
    memcpy(c->note_copy, c->annotation, c->annotation_len);
    c->annotation = c->note_copy;
    return 0;
}

static int next_record(rec_cursor *c, rec_record *r, rec_merge_info *mi, rec_error *err)
{
    while (!c->done) {
        if (!c->in_block) {
            int rc = next_block(c, err);
            if (rc <= 0)
                return rc;
        }
        if (c->in.p == c->in.end) {
            if (c->block.codec == REC_CODEC_ZSTD && c->frame_at < c->block.stored_size) {
                rec_decoder_keep_window(&c->dec);
                if (keep_annotation(c, err) != 0 || next_frame(c, err) != 0)
                    return -1;
                continue;
            }
            c->in_block = 0;
            if (c->block.codec == REC_CODEC_ZSTD && c->raw_done != c->block.raw_size)
                return cursor_error(c, err, "block at byte %llu: its zstd frames hold %u raw bytes, its header says %u",
                                    (unsigned long long)c->block_offset, c->raw_done, c->block.raw_size);
            if (c->block_records != c->block.nrecords || c->block_defs != c->block.ndefs)
                return cursor_error(c, err, "block at byte %llu holds %u records and %u definitions, its header says %u and %u",
                                    (unsigned long long)c->block_offset, c->block_records, c->block_defs,
                                    c->block.nrecords, c->block.ndefs);
            continue;
        }
        rec_def def;
        int rc = rec_decode(&c->dec, &c->in, r, &def);
        if (rc < 0)
            return cursor_error(c, err, "block at byte %llu: record %u: %s at byte %zu of %u decoded",
                                (unsigned long long)c->block_offset, c->block_records, c->in.failure,
                                c->frame_raw_at + c->in.failure_at, c->block.raw_size);
        if (rc == 2) {
            c->block_defs++;
            c->defs_seen++;
            if (take_definition(c, &def, err) != 0)
                return -1;
            continue;
        }
        c->block_records++;
        c->records_seen++;
        r->synthetic = c->synthetic_next;
        c->synthetic_next = 0;
        r->inferred = c->inferred_next;
        c->inferred_next = 0;
        if (c->mode) {
            int keep = merged_record(c, r, mi, err);
            if (keep < 0)
                return -1;
            if (!keep)
                continue;
        }
        if (is_wanted(c, r->func))
            return 1;
    }
    return 0;
}

int rec_cursor_next(rec_cursor *c, rec_record *r, rec_error *err)
{
    return next_record(c, r, NULL, err);
}

int rec_cursor_next_merged(rec_cursor *c, rec_record *r, rec_merge_info *mi, rec_error *err)
{
    if (c->mode != 2)
        return cursor_error(c, err, "not opened with rec_cursor_open_merged");
    return next_record(c, r, mi, err);
}

const char *rec_cursor_path(const rec_cursor *c, int64_t id)
{
    if (id < 0)
        return NULL;
    if (c->meta)
        return (uint64_t)id < c->meta->npaths ? c->meta->paths[id] : NULL;
    return (uint64_t)id < c->npaths ? c->paths[id] : NULL;
}

void rec_cursor_counts(const rec_cursor *c, rec_counts *out)
{
    *out = c->dec.total;
}

uint64_t rec_cursor_blocks_skipped(const rec_cursor *c)
{
    return c->blocks_skipped;
}

int rec_cursor_complete(const rec_cursor *c)
{
    return c->complete;
}

void rec_cursor_close(rec_cursor *c)
{
    if (!c)
        return;
    rec_aliases_free(&c->aliases);
    rec_merge_state_free(&c->merge);
    rec_stream_file_close(&c->file);
    for (size_t i = 0; i < c->npaths; i++)
        free(c->paths[i]);
    free(c->paths);
    free(c->stored);
    free(c->raw);
    free(c->note_copy);
    rec_decoder_free(&c->dec);
    for (unsigned a = 0; a < REC_MAX_ARGS; a++)
        free(c->own_handles[a]);
    free(c);
}

void rec_cursor_prefetch(const rec_cursor *c, int stage)
{
    if (stage == 0) {
        __builtin_prefetch(&c->in);
        __builtin_prefetch(&c->dec);
        __builtin_prefetch(&c->block_records);
        return;
    }
    if (c->in_block && c->in.p) {
        __builtin_prefetch(c->in.p);
        __builtin_prefetch(c->in.p + 48);
    }
    rec_decoder_prefetch(&c->dec);
}
