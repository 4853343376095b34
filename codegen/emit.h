/* emit.h: writing the kernel (internal to codegen's emit*.c). */
#ifndef RECORDER_CODEGEN_EMIT_H
#define RECORDER_CODEGEN_EMIT_H

#include "cg.h"
#include "template.h"

/* A table the kernel declares: rank- or counter-indexed values. */
typedef struct cg_table {
    char *name, *ctype;
    sb body;           /* "{...}", with its spans */
    const char *label; /* what indexes it: "rank", "i", ... */
    unsigned per_line; /* values a line when it takes several */
    uint32_t n;
    int local;       /* inside main (its values are not constant expressions) */
    int64_t *values; /* a table of integers by rank: its values (emit_prefix.c), else NULL */
    int dropped;     /* written as the running sum of another (emit_prefix.c): not declared */
} cg_table;

/* What one statement node knows at emission. */
typedef struct cg_stmtinfo {
    const cg_node *node;
    char **vars; /* per field: the variable a CREATE field fills, or NULL */
    int *used;   /* per field: some later call names it */
    int guarded; /* it sits inside a rank guard */
} cg_stmtinfo;

typedef struct cg_emitter {
    cg_model *m;
    cg_tree *t;
    const cg_options *o;
    /* inst -> its statement */
    cg_stmtinfo **inst_stmt;
    cg_stmtinfo *stmts;
    size_t nstmts, capstmts;
    /* names */
    char **names;
    size_t nnames;
    /* tables */
    cg_table *tables;
    size_t ntables;
    /* what the body uses */
    char *root;         /* ROOT */
    char elem_type[64]; /* the C type of the values a callback writes: array elements, pointees */
    unsigned array_row; /* elements per row of the array being written (rec_ctype_row) */
    int64_t *blocks;    /* how far the ranks' values step: rank coefficients */
    size_t nblocks;
    int uses_root;
    int uses_h5fill;        /* a write to a filtered dataset takes filtered() data */
    int uses_ncfill;        /* a netCDF-4 write takes nc_filtered() data */
    int uses_h5value;       /* a call writes a recorded HDF5 value: h5_value() (templates/h5value.c.tmpl) */
    int64_t h5value_zeros;  /* the bytes of h5value_zeros, what a call writes whose value the trace lacks */
    int uses_h5fill_chunks; /* setup() fills an HDF5 input's filtered chunks (h5_make_input.c) */
    int uses_zbuf;          /* a PnetCDF write sends zeros (zbuf) */
    int uses_P, uses_S, uses_text, uses_vlen, uses_hvl, uses_h5reclaim, uses_no_pointer, uses_status, uses_statuses_ignored,
        uses_stat[4], grid_ndims, other_grid;
    int uses_line, uses_lines; /* LINE(n), lines(): writes that carry newlines (emit_text.c) */
    uint64_t n_unlined;        /* writes whose newlines the kernel does not put back */
    uint32_t statuses;         /* MPI_Status array length */
    int uses_threads;          /* calls start or join threads: threads[], thread_mains[] */
    int threaded;              /* the program started threads: calls of libraries that are not thread-safe take turns */
    unsigned turn_layers;      /* the layers whose calls take turns (ONE_AT_A_TIME), by bit */
    sb thread_slot;            /* the last THREAD_ID argument's id, the thread the start routine is for */
    sb shared_decls;           /* variables of handles calls of several threads name: at file scope */
    cg_slot *slots;            /* elastic: what the spans of the text are (cg_doc) */
    size_t nslots, capslots;
    int64_t wsize, rsize;
    int layers[REC_LAYER_COUNT];
    char *protos;    /* declarations of functions the headers do not declare */
    char *int_forms; /* MPI-4 large-count functions as their int forms, for an MPI without them */
    /* the current statement's loop counters */
    cg_dims dims;
    /* statistics for the header */
    uint32_t n_affine, n_ranks_nranks, n_div, n_grid, n_rank_table, n_ternary, n_ctr_affine, n_ctr_table,
        n_patterns, n_guards, n_statements, n_ctr_choice, n_nranks, n_prefix;
    char example_affine[160], example_grid[160], example_pattern[160];
} cg_emitter;

/* ---- emit_span.c: what elastic kernels record of their text (cg_doc) ---- */
/* A span of kind over out's text from at, and its slot to fill (NULL in
 * other kernels, which record nothing). */
cg_slot *cg_span(cg_emitter *e, sb *out, size_t at, int kind);
/* A literal's span (CG_LIT_* role, its operator with it) over out's text
 * from at: value its magnitude; tight: an operand of unary -, *, / or %. */
void cg_literal_span(cg_emitter *e, sb *out, size_t at, int role, uint64_t value, int tight, int unknown);
/* An integer literal: its sign as text, its magnitude (and suffix) a literal. */
void cg_put_literal(cg_emitter *e, int64_t v, const char *suffix, int tight, sb *out);
/* A literal this rank count cannot tell, written ELASTIC_ANY: the other runs tell it. */
void cg_put_unknown(cg_emitter *e, int tight, sb *out);
/* The literals of out's spans are in scope (CG_SCOPE_*). */
void cg_scope(cg_emitter *e, const sb *out, int scope);

/* ---- emit_h5input.c ---- */
/* The HDF5 inputs with a skeleton: their tables and the code that makes
 * them (template values h5inputs, h5make, h5tables, h5files); how many, or
 * -1 with err set. */
int cg_h5_inputs(cg_emitter *e, tpl_ctx *c, char *err, size_t cap);

/* body on one line when "prefix body;" fits in 110 columns, else by lines
 * of per_line values, each with a comment naming the first (label k). */
void cg_braced(cg_emitter *e, sb *body, uint32_t n, const char *label, unsigned per_line, int indent,
               size_t prefix, sb *out);

/* ---- emit_setup.c ---- */
/* What setup() re-creates: the template's dirs, files, texts and links. */
void cg_setup_inputs(cg_emitter *e, tpl_ctx *c);

/* ---- emit_text.c ---- */
/* Whether the trace's line reads showed newlines in the bytes of a write
 * statement that the kernel puts back (one shape for all its writes); the
 * writes of one it cannot are counted in n_unlined. */
int cg_text_wanted(cg_emitter *e, cg_stmtinfo *s);
/* The text such a statement sends (count: the C text of its byte count;
 * NULL for a one-byte write). */
void cg_text_source(cg_emitter *e, cg_stmtinfo *s, const sb *count, sb *out);
/* The data a write statement's buffer argument sends when cg_text_wanted
 * (one_byte: fputc's character): 1, or 0 for the plain pattern. */
int cg_line_buffer(cg_emitter *e, cg_stmtinfo *s, int one_byte, sb *out);
/* A VALUE field's text, as the call's argument (emit_stmt.c). */
void cg_field_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out);

/* ---- emit_root.c ---- */
/* ROOT: the directory holding the most leaf paths the kernel names, or the
 * nearest one above it that the kernel names itself; and a path through it. */
void cg_choose_root(cg_emitter *e);
void cg_path_text(cg_emitter *e, const char *s, size_t n, int as_format, sb *out);

/* ---- emit_value.c ---- */
const char *cg_counter_name(unsigned depth);
/* A C condition that holds exactly on the ranks of rs (nranks in all). */
void cg_rank_condition(const cg_rankset *rs, uint32_t nranks, sb *out);
/* Elastic kernels: every arithmetic progression as in_ranks(rank, first, step, last),
 * literals to model (a single rank's step is unknown but in the largest run). */
void cg_rank_condition_elastic(cg_emitter *e, const cg_rankset *rs, int largest, sb *out);
/* The same for a loop counter or any index var over 0 .. total-1. */
void cg_index_condition(cg_emitter *e, const uint32_t *idx, uint32_t n, uint32_t total, const char *var,
                        sb *out);
/* A numeric expression; kind picks symbolic names for constants. */
void cg_render_num(cg_emitter *e, const cg_num *n, unsigned kind, const char *field, sb *out, int *is_ll);
/* A categorical value; text(v) writes one value. */
typedef void (*cg_value_text)(cg_emitter *e, int64_t v, unsigned kind, sb *out);
void cg_render_cat(cg_emitter *e, const cg_cat *c, unsigned kind, const char *field, const char *ctype,
                   cg_value_text text, sb *out);
/* A string pattern: "fmt", args (for P(), S() or a literal). */
void cg_render_pattern(cg_emitter *e, const cg_fieldfit *f, const char *field, int path, sb *out);
/* The steps of the values that are affine in the rank (for q * nranks). */
void cg_collect_blocks(cg_emitter *e);
/* The C text of a constant of a kind (O_CREAT | O_TRUNC, H5S_UNLIMITED, 0644, ...). */
void cg_const_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);
/* emit_threads.c: a THREAD_ID argument as the kernel's thread of that id (threads[id]), the id kept for
 * the start routine; pthread_create's start routine as the function of that thread (thread_mains[id]), 0
 * when field is not one. */
void cg_thread_id_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out);
int cg_thread_start_text(cg_emitter *e, const rec_func_desc *f, unsigned field, sb *out);
/* A call of a library that is not thread-safe, in a program that started threads, takes its turn:
 * ONE_AT_A_TIME(call) (turn_open, turn_close); assigned says whether its value is. */
void cg_take_turn(cg_emitter *e, const rec_func_desc *f, tpl_ctx *c, int assigned);
/* The kernel's turn (library_turn, ONE_AT_A_TIME): turn_test, turn_libraries. */
void cg_turns(cg_emitter *e, tpl_ctx *c);
/* Whether a call of another thread names the handle the statement's field creates (its variable is then
 * declared at file scope, e->shared_decls). */
int cg_shared_var(const cg_emitter *e, const cg_stmtinfo *s, unsigned field);
/* A handle's value: its variable (a barrier's address), a predefined name, or what stands for one the trace
 * never made. */
void cg_handle_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);
void cg_string_literal(cg_emitter *e, const char *s, uint32_t n, sb *out);
/* The kernel's filtered-data generator and its table, when a write uses them
 * (emit_h5fill.c); -1 with err when its template cannot be read. */
int cg_h5fill_values(cg_emitter *e, tpl_ctx *c, char *err, size_t cap);
/* Adds a declaration the kernel needs before main (once). */
void cg_add_proto(cg_emitter *e, const char *text);
/* A helper template's code (reduce.c.tmpl, scan.c.tmpl), once: the --templates directory's copy, else
 * the built-in one. */
void cg_add_template(cg_emitter *e, const char *name);
/* emit_reduce.c: the stand-in for the function id v of a CALLBACK argument
 * of C type e->elem_type (an MPI reduction's: "reduce_MPI_User_function_1";
 * an error handler's: "errhandler_MPI_Comm_errhandler_function_2"),
 * its definition added; the text of a reduction for one the trace did not
 * see made. */
void cg_callback_text(cg_emitter *e, int64_t v, unsigned kind, sb *out);
void cg_untraced_op_text(cg_emitter *e, sb *out);

/* ---- emit_prefix.c ---- */
/* Keeps the values of the rank table `name` (integers only), for cg_prefix_tables. */
void cg_table_keep_values(cg_emitter *e, const char *name, const char *ctype, const int64_t *values,
                          uint32_t n);
/* Writes each rank table that is a running sum of another as that sum, in
 * body; the table is then not declared. Fixed rank counts only. */
void cg_prefix_tables(cg_emitter *e, sb *body);

const char *cg_table_add(cg_emitter *e, const char *base, const char *ctype, sb *body, uint32_t n, int local,
                         const char *label, unsigned per_line);
/* A unique C identifier starting with base. */
const char *cg_unique_name(cg_emitter *e, const char *base);

/* ---- emit_decl.c ---- */
/* The position of f's va_list argument, or -1. */
int cg_va_list_arg(const rec_func_desc *f);
/* Adds what calling f needs declared to e->protos or e->int_forms, once. */
void cg_need_declaration(cg_emitter *e, const rec_func_desc *f);

/* ---- emit_stmt.c ---- */
/* One statement (its call, with assignment or declaration) into out. */
void cg_emit_stmt(cg_emitter *e, cg_stmtinfo *s, tpl_ctx *c);
/* Declarations a guarded or out-parameter statement needs before it. */
void cg_emit_decls(cg_emitter *e, cg_stmtinfo *s, int hoisted, sb *out);
/* The C text of argument field of s as the call takes it. */
void cg_arg_text(cg_emitter *e, cg_stmtinfo *s, unsigned field, sb *out);
void cg_prepare_stmts(cg_emitter *e);
const char *cg_var_ctype(const rec_func_desc *f, unsigned field, char *buf, size_t cap);
/* ---- emit_netcdf.c ---- */
/* netCDF attribute or fill values of argument field, as typed literals (text as a string; rbuf or NULL for
 * one the call reads into), the NC_STRING values of an NC_STRING_LENGTHS field, or the variable-length
 * values of an NC_VLEN_LENGTHS one (HDF5's of an H5_STRING_LENGTHS or H5_VLEN_LENGTHS one). */
void cg_nc_values_render(cg_emitter *e, const cg_cat *cat, const rec_func_desc *f, unsigned field,
                         const char *name, sb *out);
/* netCDF attribute strings of argument field (NC_STRINGS), as an array of string literals. */
void cg_nc_attribute_strings_render(cg_emitter *e, const cg_cat *cat, const rec_func_desc *f, unsigned field,
                                    const char *name, sb *out);
/* Whether an out argument recorded as -1 on every rank was a NULL pointer (rec_arg_minus_one_is_null). */
int cg_passed_null(cg_emitter *e, cg_stmtinfo *s, unsigned field);
/* The NC_STRING_LENGTHS or NC_VLEN_LENGTHS field of a netCDF put (H5_STRING_LENGTHS or H5_VLEN_LENGTHS of
 * an H5Dwrite) some rank of s wrote strings or variable-length values with (-1: none): its value is an
 * array of pattern strings of those lengths (TEXT(n), NULL for -1), or of nc_vlen_t (hvl_t) of them
 * (VLEN(n), HVL(n): n elements of the pattern). */
int cg_pointers_field(cg_emitter *e, cg_stmtinfo *s);
/* A PnetCDF or netCDF write's data, a: zeros (zbuf), which the libraries convert to any variable's type,
 * where the pattern's bytes read as doubles are out of a float's range, as ints out of a byte's
 * (NC_ERANGE); a netCDF-4 one, where the trace says what HDF5's filters stored, nc_filtered()'s values
 * (templates/ncfill.c.tmpl) that its variable's filters store alike. 0 for any other write. */
int cg_nc_data(cg_emitter *e, cg_stmtinfo *s, const rec_arg_desc *a, sb *out);
/* The elements of each row of an NC_OFFSET_ROWS field: the first rank's with rows (the same on every
 * rank), or 0; elem: their C type. */
unsigned cg_nc_row_length(cg_emitter *e, cg_stmtinfo *s, unsigned field, char *elem, size_t cap);
/* How far a rank's buffers of a BUFFER_ARRAY field spread in bytes (the first's distance, 0, among
 * them); -1 past 256 MiB, where a kernel puts them all at one place. */
int64_t cg_nc_buffer_spread(cg_model *m, const cg_inst *in, unsigned field, uint32_t k);
/* A BUFFER_ARRAY argument's start: "(type)buffer_rows(zbuf or rbuf, rows, " (a write's zeros, a read's
 * room), and 1 when its distances come next (their element type in elem), or "NULL" and 0 when they
 * spread too far; the caller closes it. */
int cg_nc_buffer_rows(cg_emitter *e, cg_stmtinfo *s, unsigned field, char *elem, size_t cap, sb *out);

/* ---- emit_h5reclaim.c ---- */
/* After a dataset read of s into a memory type the program made, h5_reclaim()'s arguments in c's
 * "reclaim" (templates/h5reclaim.c.tmpl frees what HDF5 allocated for variable-length data); quiet: the
 * read failed in the traced run, and nothing follows it. */
void cg_h5_reclaim(cg_emitter *e, cg_stmtinfo *s, tpl_ctx *c, int quiet);
/* h5_reclaim()'s code after text, where a statement calls it; 1 (err says why) when its template fails. */
int cg_h5_reclaim_code(cg_emitter *e, sb *text, char *err, size_t cap);

/* ---- emit_kernel.c ---- */
/* The kernel: its text in *out (wrapped), or with doc its text and spans (elastic). */
int cg_emit_kernel(cg_model *m, cg_tree *t, const cg_options *o, char **out, cg_doc *doc, rec_error *err);

/* ---- bufsize.c ---- */
void cg_buffer_sizes(cg_emitter *e);

/* ---- wrap.c ---- */
/* The repository's .clang-format ColumnLimit, which kernels keep. */
#define CG_COLUMNS 110
/* Breaks lines longer than the column limit the way clang-format does. */
char *cg_wrap_lines(const char *text, unsigned limit);

/* ---- templates.c ---- */
/* The text of template name (from dir if set, else built in); NULL if none. */
char *cg_template(const char *dir, const char *name, char *err, size_t cap);

#endif
