/* codec.h: encoding and decoding of single records with the peephole
 * compressor of "Recorder 2.0: Efficient Parallel I/O Tracing and Analysis"
 * (section III-B). Internal to format/. */
#ifndef REC_CODEC_H
#define REC_CODEC_H

#include "rec_bytes.h"
#include "recorder_format.h"

/* Status byte. Bit 7 set: the record is a reference to a window record and
 * bits 6..0 mark which of fields 0..6 are stored (differ); fields 7 and up
 * are marked in extension bytes. Bit 7 clear: a full record, or (bit 6) a
 * definition entry that is not a record at all. */
enum {
    REC_STATUS_REF = 0x80,
    REC_STATUS_DEF = 0x40,
    REC_STATUS_DEPTH = 0x01,  /* full record: depth follows */
    REC_STATUS_THREAD = 0x02, /* full record: thread id follows */
    REC_STATUS_FULL_MASK = REC_STATUS_DEPTH | REC_STATUS_THREAD,
};
/* Definition entries. A path (kind 1) is "svarint id, string"; every later
 * kind is "varint length, payload", so a reader can skip kinds it does not
 * know. Kind 2 annotates the merged record that follows it (rank set and
 * per-rank values); kind 3 tells a rank's own id for a unified handle; kind
 * 4 (empty) marks the record that follows as rebuilt by the tracer, not
 * called by the program (rec_record.synthetic); kind 5 (empty, format 1.9)
 * marks it as inferred by an importer, not seen (rec_record.inferred). */
enum { REC_DEF_PATH = 1, REC_DEF_MERGE = 2, REC_DEF_ALIAS = 3, REC_DEF_SYNTHETIC = 4, REC_DEF_INFERRED = 5 };
void rec_encode_def(rec_buf *out, uint64_t kind, const void *payload, size_t len);

/* Per-function field layout, cached in the table. */
typedef struct rec_layout {
    uint8_t nfields;   /* args + ret + errno (ret and errno only for non-void) */
    uint8_t nrecorded; /* fields whose class is not NONE */
    uint8_t nargs;
    uint8_t cls[REC_MAX_FIELDS];
    /* The recorded fields (class not NONE), in order, and whether they are
     * all integers (INT or PATH): then the encoder compares flat arrays. */
    uint8_t nrec, all_scalar;
    uint8_t rec[REC_MAX_FIELDS];
    /* all_scalar: where recorded field k's int64_t lies in a rec_record */
    uint16_t at[REC_MAX_FIELDS];
} rec_layout;

const rec_layout *rec_table_layout(const rec_table *t, unsigned id);

/* The difference mask of a reference record: fields 0 .. REC_INLINE_FIELDS-1
 * in the status byte (field 0 in bit 6), the rest in extension bytes (field
 * REC_INLINE_FIELDS in the top bit of the first). */
enum { REC_INLINE_FIELDS = 7 };

/* Number of mask extension bytes a compressed record of nfields carries. */
static inline unsigned rec_ext_mask_bytes(unsigned nfields)
{
    return nfields > REC_INLINE_FIELDS ? (nfields - REC_INLINE_FIELDS + 7) / 8 : 0;
}

/* Marks field i as stored (it differs from the reference's). */
static inline void rec_mask_set(uint8_t *status, uint8_t *ext, unsigned i)
{
    if (i < REC_INLINE_FIELDS)
        *status |= (uint8_t)(1u << (REC_INLINE_FIELDS - 1 - i));
    else
        ext[(i - REC_INLINE_FIELDS) / 8] |= (uint8_t)(0x80u >> ((i - REC_INLINE_FIELDS) % 8));
}

/* Whether field i is marked stored. */
static inline int rec_mask_has(uint8_t status, const uint8_t *ext, unsigned i)
{
    return i < REC_INLINE_FIELDS
               ? (status >> (REC_INLINE_FIELDS - 1 - i)) & 1
               : (ext[(i - REC_INLINE_FIELDS) / 8] >> (7 - (i - REC_INLINE_FIELDS) % 8)) & 1;
}

/* Whether the status byte marks fields past the function's last one. */
static inline int rec_mask_past_fields(uint8_t status, unsigned nfields)
{
    return nfields < REC_INLINE_FIELDS && (status & ((1u << (REC_INLINE_FIELDS - nfields)) - 1));
}

typedef struct rec_slot {
    rec_record rec;
    /* all_scalar layouts: the recorded fields' values; of rec only func,
     * depth and thread are kept for them (encoder and decoder alike) */
    int64_t scalar[REC_MAX_FIELDS];
    rec_buf arena; /* copies of the record's strings and arrays (the reader's only across frames) */
} rec_slot;

/* Shared by encoder and decoder: the last `window` records of this block,
 * in as many slots as the window has (888 bytes each: a merger keeps one
 * window per rank). size 0: none could be allocated. */
typedef struct rec_window {
    unsigned size, count, head; /* head: where the next record goes */
    rec_slot *slots;
} rec_window;

/* An encoder compares a record with the REC_SCAN newest records of the
 * window; in a larger window, when none of them serves, also with the newest
 * record of its function (a direct-mapped table of each key's newest record:
 * a collision only hides it). HDF5's collective I/O repeats some thirty MPI
 * calls per transfer, each after the others: a window of 3 finds no earlier
 * call of the same function for most of them. */
#define REC_SCAN 3
#define REC_NEWEST_KEYS 1024
typedef struct rec_encoder {
    const rec_table *table;
    rec_window win;
    uint64_t prev_tstart;
    rec_counts total;
    rec_counts *per_func; /* REC_FUNCTION_ID_LIMIT entries */
    /* What the comparisons read of window slot i, kept apart from the slots
     * (888 bytes each) so that a record's search touches a few cache lines:
     * its function, depth and thread in one word (REC_KEY_NONE: matches
     * nothing), and for all-scalar layouts the recorded values and a hash
     * of them, which rules out a full match without comparing. */
    uint64_t key[REC_WINDOW_MAX];
    uint64_t hash[REC_WINDOW_MAX];
    int64_t val[REC_WINDOW_MAX][REC_MAX_FIELDS];
    uint64_t seq; /* records pushed, in windows larger than REC_SCAN */
    uint64_t newest_key[REC_NEWEST_KEYS], newest_seq[REC_NEWEST_KEYS];
} rec_encoder;

/* ---- shared by the encoder (codec.c) and the decoder (decode.c) ---- */

/* Field access: args, then ret, then errno. */

static inline void rec_load_fields(const rec_record *r, const rec_layout *lay, rec_value *errno_value,
                                   const rec_value *fields[REC_MAX_FIELDS])
{
    for (unsigned i = 0; i < lay->nargs; i++)
        fields[i] = &r->args[i];
    if (lay->nfields > lay->nargs) {
        fields[lay->nargs] = &r->ret;
        *errno_value = (rec_value){.i = r->err};
        fields[lay->nargs + 1] = errno_value;
    }
}

static inline rec_value *rec_field_slot(rec_record *r, const rec_layout *lay, unsigned i,
                                        rec_value *errno_value)
{
    if (i < lay->nargs)
        return &r->args[i];
    if (i == lay->nargs)
        return &r->ret;
    return errno_value;
}

/* Copies what a record of this layout uses (not the unused argument slots:
 * every record is copied into the window, so this is hot). */
static inline void rec_copy_record(rec_record *dst, const rec_record *src, const rec_layout *lay)
{
    dst->tstart = src->tstart;
    dst->tend = src->tend;
    dst->func = src->func;
    dst->depth = src->depth;
    dst->thread = src->thread;
    memcpy(dst->args, src->args, lay->nargs * sizeof src->args[0]);
    dst->ret = src->ret;
    dst->err = src->err;
}

/* The slot of the record `back` places before the next one (1 = most recent). */
static inline unsigned rec_window_index(const rec_window *w, unsigned back)
{
    unsigned i = w->head + w->size - back; /* < 2 * size: no division on this hot path */
    return i >= w->size ? i - w->size : i;
}

static inline rec_slot *rec_window_back(rec_window *w, unsigned back)
{
    return &w->slots[rec_window_index(w, back)];
}

static inline rec_slot *rec_window_push(rec_window *w)
{
    rec_slot *s = &w->slots[w->head];
    w->head = w->head + 1 == w->size ? 0 : w->head + 1;
    if (w->count < w->size)
        w->count++;
    return s;
}

/* -1 when the slots cannot be allocated (size is then 0). */
int rec_window_init(rec_window *w, unsigned size);
void rec_window_free(rec_window *w);
/* Bytes a record's strings and arrays take (encoded arrays keep their bytes). */
size_t rec_payload_size(const rec_record *r, const rec_layout *lay);
/* Copies the slot's strings and arrays into `into` (reserved by the caller)
 * and points the slot at the copies. */
void rec_copy_payload(rec_slot *s, const rec_layout *lay, rec_buf *into);

int rec_encoder_init(rec_encoder *e, const rec_table *table, unsigned window);
void rec_encoder_free(rec_encoder *e);
/* Starts a block: forgets the window, times restart from first_tstart. */
void rec_encoder_reset(rec_encoder *e, uint64_t first_tstart);
/* Appends r to out; returns 0, or -1 with *why set (bad function id ...). */
int rec_encode(rec_encoder *e, const rec_record *r, rec_buf *out, const char **why);
void rec_encode_path_def(rec_buf *out, int64_t id, const char *path);

typedef struct rec_decoder {
    const rec_table *table;
    rec_window win;
    unsigned window; /* as declared by the trace: references beyond it are errors */
    uint64_t prev_tstart;
    rec_counts total;
} rec_decoder;

void rec_decoder_init(rec_decoder *d, const rec_table *table, unsigned window);
void rec_decoder_reset(rec_decoder *d, uint64_t first_tstart);
void rec_decoder_free(rec_decoder *d);
void rec_decoder_keep_window(rec_decoder *d);

typedef struct rec_def {
    uint64_t kind;
    int64_t id;
    const uint8_t *bytes;
    uint32_t len;
} rec_def;

/* Decodes the next entry: 1 = a record in *r, 2 = a definition in *def,
 * -1 = malformed (in->failure says why, in->failure_at where). */
int rec_decode(rec_decoder *d, rec_in *in, rec_record *r, rec_def *def);
/* Starts loading the window slots the next rec_decode reads and writes. */
void rec_decoder_prefetch(const rec_decoder *d);

#endif
