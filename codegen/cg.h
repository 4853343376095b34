/* cg.h: recorder-codegen's internals, shared by its parts (not a public API).
 *
 * The pipeline: load.c reads a merged trace into a list of instances (one
 * per merged top-level call that the kernel reproduces, with every rank's
 * values); remerge.c joins runs of per-rank records that are the same calls
 * into SPMD instances; handles.c turns handle ids into the objects that
 * created them; loops.c folds repeated runs into nested loops; fit.c finds
 * how each value depends on the rank and the loop counters; emit*.c write
 * the kernel through the templates. */
#ifndef RECORDER_CODEGEN_CG_H
#define RECORDER_CODEGEN_CG_H

#include <stddef.h>
#include <stdint.h>

#include "gen_support.h"
#include "recorder_codegen.h"
#include "rec_h5store.h"
#include "recorder_format.h"
#include "strbuf.h"

#define CG_TOOL "recorder-codegen"
/* Handle fields hold, once resolved, CG_HOBJ_BASE + the object's index. */
#define CG_HOBJ_BASE ((int64_t)1 << 40)
#define CG_MAX_DEPTH 8 /* loop nesting */

/* What the kernel does with a field of a call. */
typedef enum cg_role {
    CG_ROLE_NONE = 0, /* not written by the kernel (outcomes, scratch, buffers) */
    CG_ROLE_VALUE,    /* an input the kernel reproduces */
    CG_ROLE_CREATE,   /* a handle the call creates */
    CG_ROLE_OUTLEN    /* an out array: its recorded length (0: the caller passed NULL) */
} cg_role;

/* The facts library's (recorder_facts.h), which the generator's own units need not see. */
typedef struct rf_span rf_span;
typedef struct rf_lines rf_lines;

/* One call the kernel makes: the same call on every rank of a set. */
typedef struct cg_inst {
    const rec_func_desc *f; /* the compiled-in table's entry */
    uint32_t rs;            /* rank set (cg_model.ranksets) */
    uint32_t nr;            /* ranks in the set */
    uint16_t nf;            /* fields: the arguments, then ret and errno unless void */
    int64_t *v;             /* nf x nr values: v[field * nr + k], k-th rank of the set */
    rf_span *spans;         /* a POSIX write: where each rank's bytes went (NULL: unknown), for its lines */
    uint32_t thread;        /* the id of the thread that made it (0: the main thread) */
} cg_inst;

typedef struct cg_rankset {
    uint32_t n;
    uint32_t *ranks; /* ascending */
} cg_rankset;

/* An arithmetic progression of ranks or counter values: first, first +
 * step, ... (count of them). */
typedef struct cg_progression {
    uint32_t first, step, count;
} cg_progression;
/* Ascending indexes as maximal progressions, left to right, into out (n
 * entries at most); returns how many (fit.c). */
uint32_t cg_progressions(const uint32_t *idx, uint32_t n, cg_progression *out);
/* The fewer progressions of the indexes' own or of the rest of 0 .. total-1:
 * the size of the condition that selects them (cg_index_condition). */
uint32_t cg_condition_pieces(const uint32_t *idx, uint32_t n, uint32_t total);

/* A handle a call created. */
typedef struct cg_hobj {
    uint32_t creator;  /* instance */
    uint16_t field;    /* its creating field */
    uint8_t kind;      /* that field's kind */
    uint32_t last_use; /* the last instance that names it */
    uint8_t shared;    /* a call of another thread than its creator's names it */
} cg_hobj;

/* A file or directory that existed before the traced run. */
struct h5skel;
typedef struct cg_input {
    char *path;   /* normalized, absolute ("x/y" reads as "/x/y") */
    int64_t size; /* bytes; -1 for a directory */
    int hdf5;     /* an HDF5 file: made from its skeleton, else it cannot be synthesized */
    struct h5skel *skel; /* the structure the tracer recorded of an HDF5 input, or NULL */
    char *link;   /* a symbolic link the run found: its target as read; else NULL */
    uint32_t file; /* its id in cg_model.lines */
    unsigned char *head; /* the bytes it began with (a netCDF header), written after it is made; or NULL */
    uint32_t head_len;
} cg_input;

typedef struct cg_pool_entry cg_pool_entry;

/* Everything known about the trace. */
typedef struct cg_model {
    char *trace_dir;
    uint32_t nranks;
    cg_inst *insts;
    size_t ninsts, capinsts;
    cg_rankset *ranksets;
    size_t nranksets;
    cg_hobj *hobjs;
    size_t nhobjs;
    /* interned strings (STR, PATH) and integer arrays (ARRAY): fields hold ids */
    char **strs;
    uint32_t *strlens;
    size_t nstrs, capstrs;
    int64_t **arrs;
    uint32_t *arrlens;
    size_t narrs, caparrs;
    cg_pool_entry *pool;
    cg_input *inputs;
    size_t ninputs;
    rf_lines *lines; /* where line-oriented reads showed newlines, by file id */
    rec_h5store h5store; /* what HDF5's filters stored: writes to those datasets get data stored alike */
    /* statistics for the header comment */
    uint64_t records, merged_records, top_level, kept;
    int layer; /* the options' (REC_CODEGEN_TOP or a REC_LAYER_*) */
    uint64_t per_rank_records; /* when the trace had to be merged */
    /* ranks whose stream ends without its end marker (a crash, a kill), the
     * merged records up to the first such stream's last one, and the calls
     * after them, left out: the others' matching collectives were never traced */
    uint32_t unfinished_ranks;
    uint64_t unfinished_after, dropped_after_end;
    uint64_t dropped_queries, dropped_console, dropped_special, dropped_threads, dropped_unknown, dropped_skeleton;
    uint64_t remerged_groups;
    uint32_t nthreads; /* threads besides the main one whose calls the kernel makes */
    int init_thread;      /* the program started MPI with MPI_Init_thread, at thread_level */
    int64_t thread_level; /* (recorded as a canonical MPI_THREAD_LEVEL) */
    char dropped_names[512];
    /* a trace recorder-import made: what of, and the kept calls it inferred (rec_record.inferred) */
    char imported_from[512];
    char import_method[2048]; /* recorder-import's RECORDER_IMPORT_METHOD: how it made the calls */
    uint64_t inferred_kept;
    /* elastic: the largest run records the form of each rank part, the others follow it */
    rec_codegen_hints *hints;
    int hint_on; /* while the emitter fits a statement's field (not while loops are folded) */
    uint32_t hint_stmt, hint_field, hint_sub;
} cg_model;

/* The form of one field's rank part in the largest run: a term kind (or
 * 255: none), its divisor, its grid. */
typedef struct cg_hint {
    uint32_t stmt, field, sub;
    uint8_t kind, nd;
    uint8_t coords; /* grid: the dimensions with a term */
    int64_t div;
} cg_hint;

struct rec_codegen_hints {
    int recording;
    cg_hint *v;
    size_t n, cap;
};

/* ---- load.c ---- */
typedef rec_codegen_options cg_options;

/* Reads (merging first when needed) the trace into m. 0, or -1 with err. */
int cg_load(const char *trace_dir, const cg_options *o, cg_model *m, rec_error *err);
void cg_model_free(cg_model *m);
cg_role cg_field_role(const rec_func_desc *f, unsigned field);
unsigned cg_field_kind(const rec_func_desc *f, unsigned field);
unsigned cg_nfields(const rec_func_desc *f);
int cg_is_handle_kind(unsigned kind);
/* Values a kernel picks among, never computes: handles, MPI statuses,
 * doubles, encoded HDF5 objects (whose bytes are tables of their own). */
int cg_is_categorical_kind(unsigned kind);
int cg_str_id(cg_model *m, const char *s, size_t n); /* -1 for NULL */
const char *cg_str(const cg_model *m, int64_t id);
uint32_t cg_str_len(const cg_model *m, int64_t id);
int cg_arr_id(cg_model *m, const int64_t *v, size_t n);
const int64_t *cg_arr(const cg_model *m, int64_t id, uint32_t *n);
uint32_t cg_rankset_id(cg_model *m, const uint32_t *ranks, uint32_t n);
int64_t *cg_inst_values(const cg_inst *in, unsigned field); /* nr values */

/* ---- layer.c: --layer, the records of a layer and below that no such call made ---- */
/* Takes one merged record (r, mi valid during the call) read as record nth:
 * pick says, per member in set order, which members the kernel makes the call
 * on (NULL: the depth-0 members, as by default). 0, or -1 with err set. */
typedef int (*cg_take_fn)(void *ctx, const rec_func_desc *tf, const rec_record *r, const rec_merge_info *mi,
                          uint64_t nth, const unsigned char *pick, rec_error *err);
typedef struct cg_layered cg_layered;
cg_layered *cg_layered_new(int layer); /* a REC_LAYER_* */
/* Holds r (copied) until every member's call tree is complete, then hands the
 * records decided on to take, in stream order; take's first error is returned. */
int cg_layered_push(cg_layered *s, const rec_func_desc *tf, const rec_record *r, const rec_merge_info *mi,
                    uint64_t nth, cg_take_fn take, void *ctx, rec_error *err);
/* At the end of the stream: open trees decided as they are, every record handed on. */
int cg_layered_finish(cg_layered *s, cg_take_fn take, void *ctx, rec_error *err);
void cg_layered_free(cg_layered *s);

/* ---- remerge.c ---- */
void cg_remerge(cg_model *m);
uint64_t cg_inst_shape(const cg_model *m, const cg_inst *in, int with_ranks);

/* ---- handles.c ---- */
void cg_resolve_handles(cg_model *m);

/* ---- the loop tree (loops.c) ---- */
typedef struct cg_node {
    int is_loop;
    uint64_t shape;
    size_t cost;     /* rough source bytes */
    uint32_t lo, hi; /* the instances it covers */
    /* a statement: its instances, one per combination of the enclosing loops' counters */
    uint32_t *insts;
    uint32_t ninsts;
    /* a loop */
    uint32_t count;
    struct cg_node **body;
    uint32_t nbody;
} cg_node;

typedef struct cg_tree {
    cg_node **top;
    uint32_t ntop;
    uint32_t nloops;
} cg_tree;

void cg_fold(cg_model *m, const cg_options *o, cg_tree *t);
void cg_tree_free(cg_tree *t);
uint32_t cg_tree_loops(const cg_tree *t);

/* ---- fit.c: how a field's values depend on the rank and the counters ---- */
typedef struct cg_dims {
    uint32_t n;
    uint32_t count[CG_MAX_DEPTH]; /* the enclosing loops' counts, outermost first */
} cg_dims;

/* Parts of a term a rank count cannot tell (elastic kernels): one rank, or
 * every rank in one group, says nothing of a coefficient or a divisor. */
enum { CG_UNKNOWN_COEF = 1, CG_UNKNOWN_DIV = 2 };

/* CG_T_RANKMIN: min(rank, div), the start of a block when the first div
 * ranks hold one item more (a balanced block distribution). */
enum { CG_T_RANK, CG_T_RANKDIV, CG_T_RANKMOD, CG_T_COORD, CG_T_CTR, CG_T_CTRMOD, CG_T_RANKMIN };
typedef struct cg_term {
    uint8_t kind, arg; /* arg: counter depth or grid dimension */
    uint8_t unknown;   /* elastic: CG_UNKNOWN_* parts this rank count cannot tell */
    int64_t div;       /* RANKDIV, RANKMOD, CTRMOD: the divisor; RANKMIN: the bound */
    int64_t coef;
} cg_term;

enum { CG_TAB_NONE, CG_TAB_RANK, CG_TAB_CTR };
enum { CG_CAT_NONE, CG_CAT_CONST, CG_CAT_TERNARY };

/* value = c + sum(terms) [+ table[rank or counter]] [+ (ternary over ranks)] */
typedef struct cg_num {
    int64_t c;
    uint8_t nterms;
    cg_term terms[CG_MAX_DEPTH + 4];
    uint8_t table;     /* CG_TAB_* */
    uint8_t table_ctr; /* CG_TAB_CTR: the counter */
    int64_t *tab;      /* CG_TAB_RANK: nranks entries; CG_TAB_CTR: the counter's count */
    uint32_t ntab;
    int ternary; /* the rank part is a choice between values (in tab, per rank) */
    int c_unknown; /* elastic: the constant cannot be told either */
    uint8_t grid_ndims;
    int grid_dims[3];
} cg_num;

/* A categorical value (strings, constants, handles): equal everywhere, or
 * chosen by the rank, or by one counter. */
typedef struct cg_cat {
    int mode;      /* CG_CAT_CONST, CG_CAT_TERNARY (by rank), or a table */
    uint8_t table; /* CG_TAB_RANK or CG_TAB_CTR when a table */
    uint8_t table_ctr;
    int64_t value; /* CONST */
    int64_t *tab;  /* values by rank (nranks entries) or by counter */
    uint32_t ntab;
    int64_t none; /* the value of ranks outside the set in rank tables */
} cg_cat;

typedef struct cg_fitctx {
    cg_model *m; /* string formats are interned */
    const cg_rankset *rs;
    cg_dims dims;
    uint32_t ninsts;
    const int64_t *const *vals; /* per instance: the nr values of the field */
    int grid_nd;                /* try an MPI_Dims_create grid of this many dimensions early (0: late) */
} cg_fitctx;

/* 0 and the model, or -1 when the values follow no model the kernel can express. */
int cg_fit_num(const cg_fitctx *x, cg_num *out);
int cg_fit_cat(const cg_fitctx *x, int allow_tables, cg_cat *out);
void cg_num_free(cg_num *n);
void cg_cat_free(cg_cat *c);

/* Elastic hints (fit.c): the largest run's form of the value numbered sub of
 * the field being fitted (NULL: none, or this is the largest run), and
 * recording one (in the largest run only). */
#define CG_HINT_STR_RUNS 3000u /* sub of a string field: div is the mask of its varying digit runs */
const cg_hint *cg_hint_find(const cg_model *m, uint32_t sub);
void cg_hint_put(cg_model *m, const cg_hint *h);

/* ---- values.c: one field of a statement, by the class of its values ---- */
enum { CG_FIT_NUM, CG_FIT_CAT, CG_FIT_STR, CG_FIT_ARR };

typedef struct cg_fieldfit cg_fieldfit;
struct cg_fieldfit {
    int cls;     /* CG_FIT_*: what the field is (a STR or ARR that fits no pattern becomes CAT) */
    int strings; /* CAT values are string ids */
    cg_num num;
    cg_cat cat;
    /* STR: literal parts around the varying digit runs, each run a number */
    uint32_t nruns;
    cg_cat fmt; /* the printf format (string ids): equal everywhere, by rank or by a counter */
    int *llrun; /* a run needs %lld */
    cg_num *runs;
    int *width;    /* 0, or the zero-padded width */
    int is_prefix; /* the values are the first runs[0] bytes ("%.*s") of prefix_of */
    int64_t prefix_of;
    /* ARR: one fit per element */
    uint32_t nel;
    cg_fieldfit *el;
};

/* How the values of a field (vals[t][k]) of instances under loops d on
 * ranks rs can be written; 0, or -1 when they cannot. cls is the field's
 * class: NUM (integers), CAT (constants, handles), STR (string ids) or ARR
 * (array ids, elements of class el_cls). */
int cg_fit_values(const cg_fitctx *x, int cls, int el_cls, int allow_tables, cg_fieldfit *out);
void cg_fieldfit_free(cg_fieldfit *f);
/* Rough size in source bytes. */
size_t cg_fieldfit_cost(const cg_model *m, const cg_fieldfit *f);
/* MPI_Dims_create's grid: balanced, non-increasing. */
void cg_dims_create(int n, int ndims, int *dims);
/* The maximum absolute value the numeric expression can take (for types). */
int64_t cg_num_max(const cg_num *n, const cg_model *m, const cg_dims *d);

/* ---- elastic kernels: each run's kernel as text with recorded spans ----
 * The emitter (emit*.c) tags, as it writes them, the stretches of the text
 * --elastic needs to know: each integer literal the models may replace,
 * each call argument and string literal, the header, the place of the
 * rank-count check, and notes the rank count may change (comments, paths
 * below ROOT, alignment). elastic.c compares the kernels on these, fits
 * the literals that differ and writes the kernel once. A span's tag
 * indexes cg_doc.slots. */
enum {
    CG_SPAN_LITERAL, /* an integer literal */
    CG_SPAN_ARG,     /* a call's argument */
    CG_SPAN_STRING,  /* a string literal (what a refusal names of a difference in it) */
    CG_SPAN_NOTE,    /* text the rank count may change: the reference's is kept */
    CG_SPAN_HEADER,  /* the header comment */
    CG_SPAN_CHECK    /* where the rank-count check goes (empty) */
};
/* Where a literal stands in its expression: a coefficient's span holds its
 * " * " after it, an addend's its " + " or " - " before it, so that the
 * kernel drops them with the literal ("1 * x" is "x", "x + 0" is "x"). */
enum { CG_LIT_PLAIN, CG_LIT_COEF, CG_LIT_ADDEND };
#define CG_LIT_GLUE 3 /* the bytes of " * ", " + ", " - " */
/* Where a literal is: main's body (and its locals), a constant table or
 * setup() (no model may change it), the buffer sizes (room is enough). */
enum { CG_SCOPE_MAIN, CG_SCOPE_STATIC, CG_SCOPE_SIZE };

typedef struct cg_slot {
    uint8_t kind;           /* CG_SPAN_* */
    uint8_t role;           /* LITERAL: CG_LIT_* */
    uint8_t scope;          /* LITERAL: CG_SCOPE_* */
    uint8_t unknown;        /* LITERAL: this rank count cannot tell it (written ELASTIC_ANY) */
    uint8_t tight;          /* LITERAL: an operand of unary -, *, / or %: a model there needs parentheses */
    int64_t value;          /* LITERAL: its magnitude (a sign is text) */
    const rec_func_desc *f; /* ARG: the call */
    unsigned arg;           /* ARG: its argument's index in f->args */
    uint32_t stmt;          /* ARG: the statement, numbered in the kernel */
} cg_slot;

/* A run's kernel as written: the text (unwrapped) with its spans. */
typedef struct cg_doc {
    sb text;
    cg_slot *slots;
    size_t nslots;
    int grid_nd; /* the dimensions of the grid the kernel's coords[] follow (0: none) */
    char *root;  /* the ROOT directory the text names ("": none) */
} cg_doc;

void cg_doc_free(cg_doc *d);

/* A model of an integer literal in the number of ranks N (elastic_models.c):
 * a form over one variable x, N or a dimension D_j of N's MPI_Dims_create
 * grid of nd dimensions. */
enum { CG_NM_CONST, CG_NM_PROD, CG_NM_QUOT, CG_NM_XDIV }; /* a; a + b*x; a + b/x; x/b */
typedef struct cg_nmodel {
    int form;
    int nd, j; /* the variable: N when nd == 0, else D_j */
    int64_t a, b;
} cg_nmodel;

/* The simplest model that gives the value v[i] at n[i] ranks exactly (k >= 2
 * points, n ascending), the grid of prefer_nd dimensions tried first: 0, or -1. */
int cg_nmodel_fit(const int64_t *n, const int64_t *v, unsigned k, int prefer_nd, cg_nmodel *out);
/* The C name of a model's variable: "nranks", "grid2[1]". */
void cg_nmodel_var(int nd, int j, char *out, size_t cap);
/* A model as C, in parentheses where it is an operand (tight), a sum or a quotient. */
void cg_nmodel_text(const cg_nmodel *m, int tight, sb *out);
/* The pipeline (codegen.c): the kernel's text, or, with doc, its spans too (elastic). */
int cg_codegen(const char *trace_dir, const cg_options *o, char **kernel, cg_doc *doc, rec_error *err);
/* elastic.c: one kernel from docs[0..k) of runs at nranks[] (ascending), traced in dirs[]. */
int cg_elastic_unify(const cg_doc *docs, const int64_t *nranks, const char *const *dirs, unsigned k,
                     const char *program, char **kernel, rec_error *err);

#endif
