/* recorder_facts.h: what a recorded call did, worked out from the function
 * table's kinds and roles alone. One library for the analyses, recorder-diff,
 * the code generator and the replayer, so that "did it succeed", "how many
 * bytes did it move", "which path does it create", "what existed before the
 * run" and "how big is this datatype" have one answer each. Internal: not
 * installed. */
#ifndef RECORDER_FACTS_H
#define RECORDER_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_format.h"

/* ---- a call's outcome ---- */

/* 1 if a call that returned `ret` succeeded, 0 if it failed, -1 if its
 * record cannot tell (no return value, or one that signals no failure). A
 * pointer return is recorded as a handle or path id, -1 when it was NULL. */
int rf_ret_status(const rec_func_desc *f, int64_t ret);
/* Whether the call succeeded (an unknown outcome counts as success). */
static inline int rf_succeeded(const rec_func_desc *f, const rec_record *r)
{
    return rf_ret_status(f, r->ret.i) != 0;
}

/* Where a function keeps what the facts below read, found once per
 * function from its kinds and roles (-1: none). */
typedef struct rf_args {
    int8_t offset;  /* explicit position: OFFSET or MPI_FILE_POS, in */
    int8_t whence;  /* WHENCE or MPI_WHENCE */
    int8_t size;    /* SIZE, in (fread's item size, read's count) */
    int8_t derived; /* the bytes the tracer worked out after the call */
    int8_t strlen;  /* STRLEN: a string written, recorded as its length */
    int8_t stat;    /* STATBUF out: the file's size */
    int8_t handle;  /* the file handle it acts on: FD, FILE_STREAM or MPI_FILE, not created */
} rf_args;
void rf_args_of(const rec_func_desc *f, rf_args *out);

/* The bytes a successful data call moved, or -1 if its record does not
 * say. Reads at the end of a file move 0. */
int64_t rf_bytes_moved(const rec_func_desc *f, const rf_args *a, const rec_record *r);

/* An MPI call that changes the datatype or info object it acts on, or the
 * error handler of the handle it acts on, and reports nothing
 * (MPI_Type_commit, MPI_Info_set, MPI_Info_delete, MPI_Comm_set_errhandler). */
int rf_changes_mpi_object(const rec_func_desc *f);

/* The predefined handles of the console: fds 0-2 and stdin, stdout, stderr. */
int rf_is_console(unsigned kind, int64_t id);
/* Whether any FD or FILE_STREAM argument of the call is the console. */
int rf_on_console(const rec_func_desc *f, const rec_record *r);

/* Calls on special files: a PATH argument naming /dev, /proc or /sys (not
 * a link target, which names no file), or a handle such a call made. Like
 * console I/O, kernels leave them out. Calls of each rank come in order. */
typedef struct rf_special rf_special;
rf_special *rf_special_new(void);
/* 1 if this call of `rank` is on a special file; paths[k] is PATH argument
 * k as recorded (NULL for other arguments). Remembers the handles such a
 * call makes, and forgets the one it releases. */
int rf_special_call(rf_special *s, const rec_func_desc *f, const rec_record *r, uint32_t rank,
                    const char *const *paths);
void rf_special_free(rf_special *s);

/* ---- paths ---- */

/* Whether PATH argument `arg` names no file the call touches (a symbolic
 * link's target, an external link's file). */
int rf_path_names_no_file(const rec_func_desc *f, unsigned arg);
/* Whether the call can put a symbolic link at its NEW_PATH: it makes one
 * (a LINK_TARGET), or moves or links whatever its other path names. */
int rf_places_link(const rec_func_desc *f);
/* Whether PATH argument `arg` is created by the call when it succeeds: its
 * NEW_PATH argument, or any path of an open whose flags create (O_CREAT,
 * "w"/"a", MPI_MODE_CREATE, H5F_ACC_TRUNC/EXCL). ints[k] and strs[k] are
 * argument k's integer and (STDIO_MODE) string values. */
int rf_path_created(const rec_func_desc *f, unsigned arg, const int64_t *ints, const char *const *strs);
/* The same, from a record. */
int rf_record_creates(const rec_func_desc *f, const rec_record *r, unsigned arg);

/* Lexical normal form: no "//", "." or trailing '/'; ".." drops the
 * component before it; RF_PATH_FS_PREFIX drops a ROMIO file-system prefix
 * ("ufs:", see rf_path_flags) first. RF_PATH_ROOTED makes the result absolute (a
 * relative path reads from "/"), and a ".." at "/" stays there
 * (RF_PATH_ESCAPE_FAILS: returns 1 instead). A relative result keeps
 * leading ".." components; an empty one is ".". Returns 0, 1 for an escape,
 * -1 when the result does not fit in cap (out is then cut short). */
enum { RF_PATH_ROOTED = 1, RF_PATH_ESCAPE_FAILS = 2, RF_PATH_FS_PREFIX = 4 };
int rf_path_normalize(const char *in, char *out, size_t cap, unsigned flags);
/* The length of path's ROMIO file-system prefix ("ufs:", "lustre:", ...), which
 * RF_PATH_FS_PREFIX drops; 0 when it has none. */
size_t rf_path_fs_prefix(const char *path);
/* RF_PATH_FS_PREFIX for the paths of f, a function whose paths name files
 * through ROMIO (the MPI-IO layer), else 0. */
unsigned rf_path_flags(const rec_func_desc *f);
/* prefix + key (a normalized absolute path; "/" is prefix itself). 0, or
 * -1 when it does not fit. */
int rf_path_reroot(const char *prefix, const char *key, char *out, size_t cap);
/* Whether a normalized absolute path is under /dev (but not /dev/shm), /proc
 * or /sys. */
int rf_path_is_system(const char *key);
/* The directory part of a path ("/" for "/x", "." for "x"). */
void rf_path_dirname(const char *path, char *out, size_t cap);
/* A relative symbolic link target read from the directory of its link
 * (both as recorded; the link read from "/"): 0 when it stays inside "/",
 * the re-rooted tree, with key its normalized absolute path (the link then
 * works as it did, kept as it is); 1 when it climbs out; -1 when too long. */
int rf_link_target_key(const char *link, const char *target, char *key, size_t cap);

/* ---- what existed before the run ---- */

/* Paths whose first event, in the ranks' common time line, shows them
 * already there -- a successful call that does not create them, a creation
 * that failed with EEXIST, or, with RF_INPUTS_ANCESTORS, a path used below
 * them -- were inputs: directories as directories, files with the largest
 * size the trace shows for them before anything created them (st_size of a
 * stat, the end of a read, an MPI-IO file's reported size). What lies below
 * a symbolic link the run made is reached through the link: no input. */
enum { RF_INPUTS_ANCESTORS = 1 };
typedef struct rf_inputs rf_inputs;
typedef struct rf_input {
    char *key;    /* normalized, absolute */
    int is_dir;
    int64_t size; /* files */
    int hdf5;     /* a file the HDF5 layer opened: its contents cannot be synthesized */
    char *link; /* a symbolic link the run read (readlink) and did not make: its target as read, else NULL */
    uint32_t file; /* the path's id in rf_inputs_lines */
    unsigned char *head; /* the bytes the file began with, as a call that opened it recorded (a netCDF
                            header: kernels and replays write them back), or NULL */
    uint32_t head_len;
} rf_input;
rf_inputs *rf_inputs_new(unsigned flags);
/* One top-level call of `rank` at time t. paths[k] is PATH argument k as
 * recorded (NULL for other arguments); system paths are left out. Calls of
 * one rank come in order; ranks may interleave. A name readdir returned
 * (DIR_ENTRY) shows that entry of the directory there; a target readlink
 * read (NAME_LENGTH with a LINK_TARGET) shows a link. */
void rf_inputs_add(rf_inputs *s, const rec_func_desc *f, const rec_record *r, uint32_t rank, double t,
                   const char *const *paths);
/* Where the data call rf_inputs_add saw last moved its bytes: the file's id
 * (as rf_input.file) and the byte range. 0 when it moved none at a place
 * the trace tells (not a data call, an MPI-IO view, an unknown handle). */
typedef struct rf_span {
    uint32_t file;
    int64_t offset, bytes;
} rf_span;
int rf_inputs_last_span(const rf_inputs *s, rf_span *out);
/* The path key of a file id (rf_span.file), or NULL; valid until finish. */
const char *rf_inputs_key(const rf_inputs *s, uint32_t file);
/* The inputs, sorted by key (*out is malloc'ed, each key too); frees s.
 * What the run reached below a link it found is moved to the link's
 * target (a size seen through the link counts for the target). */
size_t rf_inputs_finish(rf_inputs *s, rf_input **out);
void rf_inputs_free(rf_input *in, size_t n);

/* ---- line structure ----
 * A line-oriented read (REC_ROLE_READS_LINE) at offset o that returned L
 * bytes, fewer than its limit (fgets(n): n - 1), ends at a delimiter: byte
 * o + L - 1 is '\n' (or getdelim's DELIMITER) and none lies before it in
 * the read. A read that filled its buffer tells nothing. Files are the
 * rf_inputs ids; text made of wbuf's pattern ('a' + b % 26) with the
 * delimiters at those offsets makes every such read return what it did. */
typedef struct rf_lines rf_lines;
rf_lines *rf_lines_new(void);
/* One read of `file` (limit 0: none, as getline). */
void rf_lines_note(rf_lines *l, uint32_t file, int64_t offset, int64_t got, int64_t limit, int delim);
/* Sorts the delimiters of every file (after the last note). */
void rf_lines_finish(rf_lines *l);
/* The line structure the inputs' scan found (finished); call before
 * rf_inputs_finish. The caller frees it with rf_lines_free. */
rf_lines *rf_inputs_lines(rf_inputs *s);
void rf_lines_free(rf_lines *l);
/* Names a file by its path key (rf_inputs_lines names those with
 * delimiters); finds a file by it: 1 and *file, or 0. */
void rf_lines_set_key(rf_lines *l, uint32_t file, const char *key);
int rf_lines_find(const rf_lines *l, const char *key, uint32_t *file);
/* Files are 0 .. rf_lines_count - 1; a file's key, or NULL. */
size_t rf_lines_count(const rf_lines *l);
const char *rf_lines_key(const rf_lines *l, uint32_t file);
/* The file's delimiter byte, or -1 when no read showed one. */
int rf_lines_delim(const rf_lines *l, uint32_t file);
/* The delimiters' offsets in [offset, offset + n), ascending (*at points
 * into l); their count. */
size_t rf_lines_in(const rf_lines *l, uint32_t file, int64_t offset, int64_t n, const int64_t **at);
/* The delimiters at[0..n) of a range of len bytes from offset, told the
 * compact way: none; one ending the range (TRAILING, a write of one whole
 * line); one every `period` bytes from `first` on to the end of the range
 * (REGULAR: first < period, no line of the range left without one); else
 * IRREGULAR (a table). */
typedef enum { RF_LINES_NONE, RF_LINES_TRAILING, RF_LINES_REGULAR, RF_LINES_IRREGULAR } rf_lines_kind;
typedef struct rf_line_shape {
    rf_lines_kind kind;
    int64_t first, period; /* TRAILING: len - 1 and len */
} rf_line_shape;
rf_line_shape rf_lines_shape(const int64_t *at, size_t n, int64_t offset, int64_t len);
/* The lengths of the lines the delimiters at[0..n) end, the first from
 * offset (up to cap in out); their count. */
size_t rf_lines_lengths(const int64_t *at, size_t n, int64_t offset, int64_t *out, size_t cap);
/* n bytes from offset of the text: the pattern, delim at each of at[0..nat). */
void rf_lines_fill(char *buf, int64_t n, const int64_t *at, size_t nat, int64_t offset, int delim);

/* ---- datatypes and dataspaces ---- */

/* An MPI datatype's layout, as the standard defines it: copies of it tile
 * `extent` bytes apart from `lb`; its data starts at true_lb. */
typedef struct rf_type {
    int64_t size;       /* bytes of data in one element */
    int64_t lb, extent; /* lower bound and extent (ub = lb + extent) */
    int64_t true_lb;    /* where its first byte of data lies */
    uint8_t known;      /* the layout is known (else only a guess) */
    uint8_t contiguous; /* its data is one block of size bytes at true_lb */
} rf_type;

/* How a constructor's argument values are read: each consumer keeps
 * records its own way (a record, a kernel model's per-rank columns). */
typedef struct rf_values {
    int64_t (*scalar)(const void *ctx, unsigned arg);
    /* fills up to cap elements; returns how many the argument holds */
    size_t (*array)(const void *ctx, unsigned arg, int64_t *out, size_t cap);
    rf_type (*type)(const void *ctx, int64_t id); /* an MPI datatype made before */
    const void *ctx;
} rf_values;

/* A predefined MPI datatype (functions/handles.def); unknown: all zero. */
rf_type rf_type_predefined(int64_t id);
/* What an MPI datatype constructor (a TYPE_* shape) makes. */
rf_type rf_type_construct(const rec_func_desc *f, const rf_values *v);

/* A predefined HDF5 datatype's size in bytes, or -1. */
int64_t rf_h5_type_size_predefined(int64_t id);
/* What an HDF5 constructor makes, in its own unit: a dataspace's points
 * (SPACE_*), a datatype's bytes (TYPE_*_H5); -1 when the arguments do not
 * tell. size(ctx, kind, id) gives an existing object's (-1 unknown). */
int64_t rf_h5_construct(const rec_func_desc *f, const rf_values *v,
                        int64_t (*size)(const void *ctx, unsigned kind, int64_t id));

#endif
