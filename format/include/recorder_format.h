/* recorder_format.h: writing and reading recorder-kit traces.
 *
 * A trace is a directory: recorder.meta (global metadata: time resolution,
 * start time, ranks, options and the function table itself), and per rank
 * N.rec (the record stream, in blocks) and N.meta (path table and counters,
 * written when the rank closes cleanly). docs/reference/format.md specifies every byte.
 *
 * Records are compressed as in Recorder 2.0 (Wang et al.): a record similar
 * to one of the last W records is stored as a reference plus the fields that
 * differ. Readers decode lazily: a cursor can be told which functions it
 * wants and skips whole blocks that hold none of them. */
#ifndef RECORDER_FORMAT_H
#define RECORDER_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "recorder_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REC_FORMAT_VERSION_MAJOR 1
#define REC_FORMAT_VERSION_MINOR 12

/* A record holds its arguments, then the return value and errno. */
#define REC_MAX_FIELDS (REC_MAX_ARGS + 2)
#define REC_WINDOW_MAX 64
#define REC_WINDOW_DEFAULT 3

/* Errors name the file and, for stream errors, the byte offset. */
typedef struct rec_error {
    char msg[1024];
} rec_error;

/* One argument (or return) value. Which member counts depends on the kind's
 * class: INT and PATH use i (PATH: the per-rank path id); STR uses ptr/len
 * (bytes, not NUL-terminated); ARRAY uses len and rec_value_array(). */
typedef struct rec_value {
    int64_t i;
    const void *ptr; /* STR: the bytes; ARRAY: int64_t[] (writer) or encoded (reader) */
    uint32_t len;    /* STR: bytes; ARRAY: elements */
    uint8_t encoded; /* ARRAY: ptr is still varint-encoded (reader side) */
} rec_value;

typedef struct rec_record {
    uint64_t tstart, tend; /* ticks since the trace started (see time_resolution) */
    uint16_t func;         /* function id (rec_func_desc.id) */
    uint8_t depth;         /* 0: called by the application; 1: from inside a traced call ... */
    uint32_t thread;       /* 0: the main thread */
    rec_value args[REC_MAX_ARGS]; /* the function's nargs; slots past them are undefined */
    rec_value ret;         /* unused when the function returns void */
    int64_t err;           /* errno after a failed call, else 0 */
    /* Filled by the reader: how the record was stored. */
    uint8_t compressed;    /* stored as a reference to a recent record */
    uint8_t ref;           /* the reference's distance (1 = previous record) */
    uint32_t diff_fields;  /* fields stored although compressed (the differing ones) */
    /* Not called by the program: the tracer wrote it, right before the call
     * that first used a handle no traced call had made, to rebuild that
     * handle (its members, type map, selection...). Written and read. */
    uint8_t synthetic;
    /* Not seen by any tracer: an importer placed it where the source's
     * counters say such a call was (a Darshan log's opens and closes
     * around the reads and writes its DXT module kept). Written and read. */
    uint8_t inferred;
} rec_record;

/* Element i of an ARRAY value; copies up to max elements into out and
 * returns the element count. */
size_t rec_value_array(const rec_value *v, int64_t *out, size_t max);

/* ---- function tables ----
 * The writer encodes with a table (normally the compiled-in one); the reader
 * decodes with the table stored in the trace, so old traces stay readable. */
typedef struct rec_table rec_table;
const rec_table *rec_table_builtin(void);
rec_table *rec_table_new(const rec_func_desc *funcs, size_t count, rec_error *err);
void rec_table_free(rec_table *t);
const rec_func_desc *rec_table_lookup(const rec_table *t, unsigned id);
size_t rec_table_count(const rec_table *t);
const rec_func_desc *rec_table_at(const rec_table *t, size_t index);
/* Fields a record of f has: its arguments, then the return value and errno
 * unless f returns void. */
unsigned rec_func_nfields(const rec_func_desc *f);
/* 1 when a and b have the same name, argument kinds and return kind: a
 * record decoded with one's layout means the same under the other's (a tool
 * that reads a trace's table by name must check it, since the trace's table
 * is input). */
int rec_func_same_kinds(const rec_func_desc *a, const rec_func_desc *b);

/* ---- global metadata ---- */
enum { REC_CODEC_NONE = 0, REC_CODEC_ZSTD = 1 };
enum { REC_TRACE_MERGED = 1u << 0 };

typedef struct rec_option {
    const char *key, *value;
} rec_option;

typedef struct rec_trace_info {
    uint32_t nranks;
    double time_resolution;   /* seconds per tick (1e-7 = 100 ns) */
    uint64_t start_time_ns;   /* wall clock at tick 0, ns since the epoch */
    uint32_t window;          /* peephole window the writers used */
    uint32_t flags;           /* REC_TRACE_* */
    uint32_t version_major, version_minor; /* filled by the reader */
    size_t noptions;
    const rec_option *options; /* key=value pairs, e.g. the RECORDER_* settings */
} rec_trace_info;

/* Writes DIR/recorder.meta, with the table the ranks' writers used. */
struct rec_io;
/* io: how to write (NULL: libc), see rec_io below. */
int rec_write_global_metadata(const char *dir, const rec_trace_info *info, const rec_table *table,
                              const struct rec_io *io, rec_error *err);
/* The rank count and start time (ns since the epoch) that the bytes of a
 * recorder.meta record; -1 when they are not one (a tracer checks a
 * directory before it writes into it). */
int rec_global_peek(const void *data, size_t n, uint32_t *nranks, uint64_t *start_time_ns);
/* The record count that the bytes of a finished rank's RANK.meta record; -1
 * when they are not one. */
int rec_rank_peek(const void *data, size_t n, uint64_t *records);

/* ---- writer ---- */

/* The writer does its own I/O through these, so a tracer can hand it the
 * real libc functions and never see its own calls. NULL members: libc. */
typedef struct rec_io {
    int (*open)(const char *path, int flags, ...);
    ssize_t (*write)(int fd, const void *buf, size_t count);
    int (*close)(int fd);
} rec_io;

typedef struct rec_writer_options {
    const rec_table *table; /* NULL: the compiled-in table */
    unsigned window;        /* 0 disables compression; 1..REC_WINDOW_MAX; default 3 */
    size_t block_size;      /* encoded bytes per block before it is flushed; default 1 MiB */
    int codec;              /* REC_CODEC_ZSTD (default) or REC_CODEC_NONE */
    int zstd_level;         /* default 1 */
    size_t frame_size;      /* zstd: raw bytes a frame reaches before the next starts; 0: 64 KiB */
    uint64_t start_time_ns; /* wall clock at tick 0 of this rank, ns since the epoch */
    int exclusive;          /* 1: lock the file; fail if another live process holds it (tracer) */
    rec_io io;
} rec_writer_options;

void rec_writer_options_init(rec_writer_options *o);

typedef struct rec_writer rec_writer;

/* Creates DIR/RANK.rec (DIR must exist). */
rec_writer *rec_writer_open(const char *dir, uint32_t rank, const rec_writer_options *o, rec_error *err);
/* The per-rank id of a path, defining it in the stream on first use. */
int64_t rec_writer_path_id(rec_writer *w, const char *path);
/* Encodes one record; PATH values must hold ids from rec_writer_path_id. */
int rec_writer_append(rec_writer *w, const rec_record *r, rec_error *err);
/* Writes the buffered block now (records stay readable after a crash). */
int rec_writer_flush(rec_writer *w, rec_error *err);
/* Flushes, ends the stream and writes DIR/RANK.meta; frees the writer. */
int rec_writer_close(rec_writer *w, rec_error *err);
/* A writer that buffers in memory until rec_writer_attach names its file:
 * a tracer does not know its rank before MPI_Init. */
rec_writer *rec_writer_open_deferred(const rec_writer_options *o, rec_error *err);
/* Creates DIR/RANK.rec and writes what was buffered. Returns 0, -1 on
 * error, or REC_WRITER_BUSY when `exclusive` and another live process holds
 * the file. */
#define REC_WRITER_BUSY (-2)
int rec_writer_attach(rec_writer *w, const char *dir, uint32_t rank, rec_error *err);
int rec_writer_attached(const rec_writer *w);
/* Writes every buffered record but neither the end marker nor RANK.meta,
 * so readers see a rank that did not finish cleanly; frees the writer. */
int rec_writer_abandon(rec_writer *w, rec_error *err);
/* Frees the writer without writing anything more (after fork, on abort). */
void rec_writer_discard(rec_writer *w);

/* Compression statistics (Tables II and III of
 * "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis"). */
typedef struct rec_counts {
    uint64_t records, compressed_records;
    uint64_t fields, elided_fields; /* recorded fields, and those not stored (equal to the reference) */
} rec_counts;
void rec_writer_counts(rec_writer *w, rec_counts *out); /* encodes what waits first */
uint64_t rec_writer_bytes(const rec_writer *w); /* bytes written to RANK.rec so far (or kept to be) */
uint64_t rec_writer_records(const rec_writer *w); /* records appended so far */

/* ---- reader ---- */
typedef struct rec_trace rec_trace;

rec_trace *rec_trace_open(const char *dir, rec_error *err);
void rec_trace_close(rec_trace *t);
const rec_trace_info *rec_trace_get_info(const rec_trace *t);
const rec_table *rec_trace_table(const rec_trace *t);
const char *rec_trace_dir(const rec_trace *t);
/* Where the trace's ranks' files are (below). */
const struct rec_parts *rec_trace_parts(const rec_trace *t);

/* ---- where a rank's files are ----
 * A rank's files (N.rec, N.meta, N.h5store) are files of their own in the
 * trace directory, or members of its aggregate files aggregate.0 ...
 * aggregate.K-1 (the tracer writes those when RECORDER_AGGREGATE asks): a
 * member holds the bytes the file would, from an offset of the aggregate.
 * The reader above goes through this; tools that read a rank's file
 * themselves (h5store) ask it too. Format: docs/reference/format.md, 14. */
enum { REC_PART_STREAM, REC_PART_META, REC_PART_H5STORE, REC_PART_COUNT };
typedef struct rec_part_place {
    char path[4200]; /* the file to open */
    char name[4300]; /* for messages: the path, or "DIR/aggregate.K (N.rec)" */
    uint64_t base;   /* where the part starts in the file */
    uint64_t length; /* its bytes; UINT64_MAX: up to the end of the file */
} rec_part_place;
/* A part's file name suffix: "rec", "meta", "h5store" (N.rec, ...). */
const char *rec_part_suffix(unsigned part);
typedef struct rec_parts rec_parts;
/* Reads DIR's aggregate member tables, if it has any; NULL with err when one
 * is corrupt. */
rec_parts *rec_parts_open(const char *dir, rec_error *err);
void rec_parts_close(rec_parts *l);
/* Aggregate files in the trace; 0: a file per rank. */
uint32_t rec_parts_aggregates(const rec_parts *l);
/* Where rank's part is (REC_MERGED_STREAM: merged.rec, ...). 0, or 1 when an
 * aggregate holds the rank but not that part (a rank that did not close
 * cleanly has no meta). A file of its own is not checked for. */
int rec_parts_find(const rec_parts *l, uint32_t rank, unsigned part, rec_part_place *out);
/* The whole part, malloc'ed into *data. 0; 1 when it does not exist
 * (errno ENOENT); -1 with err. */
int rec_parts_read(const rec_parts *l, uint32_t rank, unsigned part, uint8_t **data, size_t *n, rec_error *err);

/* The aggregate file's header and member table, for a writer. */
typedef struct rec_aggregate_member {
    uint32_t rank;
    uint64_t offset[REC_PART_COUNT], length[REC_PART_COUNT]; /* length 0: the rank has no such part */
} rec_aggregate_member;
size_t rec_aggregate_header_size(uint32_t nmembers);
/* Writes rec_aggregate_header_size(n) bytes at out: aggregate `index` of
 * `count`, holding these members. */
void rec_aggregate_header_pack(uint8_t *out, uint32_t index, uint32_t count, const rec_aggregate_member *m,
                               uint32_t n);
/* For a reader doing its own I/O (a replay reads untraced): the first
 * REC_AGGREGATE_HEAD_BYTES bytes of an aggregate tell the size of its
 * header and member table (0: no aggregate), which rec_aggregate_parse
 * reads; file_size bounds the members. members is malloc'ed. */
#define REC_AGGREGATE_HEAD_BYTES 28 /* file header, index, count, members, reserved */
typedef struct rec_aggregate_info {
    uint32_t index, count, n;
    rec_aggregate_member *members;
} rec_aggregate_info;
size_t rec_aggregate_table_size(const uint8_t *head, size_t n);
int rec_aggregate_parse(const uint8_t *table, size_t n, uint64_t file_size, const char *path, rec_aggregate_info *out,
                        rec_error *err);

/* Per-rank metadata (N.meta). complete is 0 when the rank never closed its
 * stream cleanly (crash, kill): its records up to the last full block are
 * still readable. */
typedef struct rec_func_counts {
    uint16_t func;
    rec_counts counts;
} rec_func_counts;

typedef struct rec_rank_meta {
    uint32_t rank;
    int complete;
    uint64_t start_time_ns; /* this rank's wall clock at its tick 0 */
    uint64_t records, blocks, stored_bytes, raw_bytes;
    uint64_t first_tstart, last_tend;
    size_t npaths;
    char **paths;            /* id -> path */
    size_t nfuncs;
    rec_func_counts *funcs;  /* per function id that occurs */
} rec_rank_meta;

/* Loaded on demand and cached; NULL with err set when N.meta is missing or bad. */
const rec_rank_meta *rec_trace_rank_meta(rec_trace *t, uint32_t rank, rec_error *err);

typedef struct rec_cursor rec_cursor;

rec_cursor *rec_cursor_open(rec_trace *t, uint32_t rank, rec_error *err);
/* Restrict the cursor to the functions marked here; by default it returns
 * every record. Call before the first rec_cursor_next. */
void rec_cursor_want(rec_cursor *c, unsigned func_id);
/* 1: *r holds the next record; 0: end of stream; -1: error (in err). Values
 * pointing into the trace stay valid until the cursor moves to another block,
 * at the earliest on the next call. */
int rec_cursor_next(rec_cursor *c, rec_record *r, rec_error *err);
/* A hint for programs reading thousands of streams in turn (the merger):
 * starts loading what the next rec_cursor_next will touch. Stage 0 touches
 * nothing itself (the cursor's own hot lines); stage 1, called a few
 * streams later, reads them and loads what they point to. */
void rec_cursor_prefetch(const rec_cursor *c, int stage);
/* The path with this id on the cursor's rank (NULL if undefined). */
const char *rec_cursor_path(const rec_cursor *c, int64_t id);
/* Counts over the records decoded so far (all records, wanted or not). */
void rec_cursor_counts(const rec_cursor *c, rec_counts *out);
/* Blocks skipped because they hold no wanted function. */
uint64_t rec_cursor_blocks_skipped(const rec_cursor *c);
/* 1 if the stream ended with its end marker (the rank closed cleanly). */
int rec_cursor_complete(const rec_cursor *c);
void rec_cursor_close(rec_cursor *c);

/* ---- merged traces ----
 * recorder-merge writes one stream (merged.rec, merged.meta) in which a
 * record stands for the same call on a set of ranks: its values are the
 * lowest rank's, and the fields that differ between ranks (times included)
 * are given per rank, as an affine relation with the rank or a vector.
 * rec_cursor_open(t, rank) on a merged trace gives that rank's own records
 * back, so every tool reads merged and per-rank traces alike. */
#define REC_MERGED_STREAM UINT32_MAX /* the "rank" of the merged stream */
enum { REC_FIELD_TSTART = 1000, REC_FIELD_TEND = 1001 };
enum { REC_REL_VECTOR = 0, REC_REL_AFFINE = 1 };

typedef struct rec_rank_range {
    uint32_t first, count, stride; /* ranks first, first+stride, ... (count of them) */
} rec_rank_range;

typedef struct rec_variation {
    uint16_t field;   /* 0..nfields-1 (args, ret, errno), REC_FIELD_TSTART or _TEND */
    uint8_t relation; /* REC_REL_AFFINE: value = a * rank + b; REC_REL_VECTOR: values[] */
    int64_t a, b;
    const rec_value *values; /* one per rank of the set, in set order */
} rec_variation;

typedef struct rec_merge_info {
    uint32_t nranges;
    const rec_rank_range *ranges;
    uint32_t nranks; /* ranks in the set */
    uint32_t nvars;
    const rec_variation *vars;
} rec_merge_info;

int rec_trace_is_merged(const rec_trace *t);
/* Appends a merged record: base holds the first rank's values. mi NULL: all
 * ranks, identical values. */
int rec_writer_append_merged(rec_writer *w, const rec_record *base, const rec_merge_info *mi, rec_error *err);
/* Rank `rank` knows the unified handle merged_id (of this kind) as rank_id. */
int rec_writer_handle_alias(rec_writer *w, uint32_t rank, unsigned kind, int64_t merged_id, int64_t rank_id);
/* The merged stream itself: *mi describes each record (valid until the next call). */
rec_cursor *rec_cursor_open_merged(rec_trace *t, rec_error *err);
int rec_cursor_next_merged(rec_cursor *c, rec_record *r, rec_merge_info *mi, rec_error *err);
/* The merged stream gives each record's rank set only: no variations
 * (nvars 0), their values not even decoded. For readers that look at the
 * calls and their sets alone. */
void rec_cursor_sets_only(rec_cursor *c);
/* The merged stream keeps the handle aliases of every rank as it reads them
 * (call before the first record), for rec_cursor_own_handle. */
void rec_cursor_keep_aliases(rec_cursor *c);
/* The id `rank` knows the unified handle merged_id (of this handle space) by,
 * as far as the cursor has read. */
int64_t rec_cursor_own_handle(const rec_cursor *c, uint32_t rank, unsigned space, int64_t merged_id);
/* How many aliases of the unified handle merged_id the merged stream has
 * read (0: every rank knows it by that id). */
int64_t rec_cursor_aliased(const rec_cursor *c, unsigned space, int64_t merged_id);
/* 1 if the rank is in the set, with its position in *index. */
int rec_merge_info_find(const rec_merge_info *mi, uint32_t rank, uint32_t *index);

/* ---- text ---- */

/* Resolves a path id (e.g. rec_cursor_path through a small adapter). */
typedef const char *(*rec_path_fn)(void *ctx, int64_t id);
/* Renders one value by its kind: paths as paths, flags symbolically, handles
 * by name or per-rank id. Returns the length written (always NUL-terminated). */
size_t rec_print_value(char *buf, size_t cap, unsigned kind, const rec_value *v, rec_path_fn path, void *ctx);
/* One line: "RANK TSTART TEND DEPTH LAYER name(arg=value, ...) = ret [errno=E]",
 * times in seconds since the trace started. */
size_t rec_print_record(char *buf, size_t cap, const rec_table *table, const rec_record *r, uint32_t rank,
                        double resolution, rec_path_fn path, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
