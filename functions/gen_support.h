/* gen_support.h: what the programs that write C from the function table
 * share -- gen_functions, the tracer's gen_wrappers, the replayer's
 * gen_replay and recorder-codegen: how an argument's C value relates to its
 * recorded value, C parameter lists, a call's success test. Internal: not
 * installed with recorder_functions.h. */
#ifndef RECORDER_GEN_SUPPORT_H
#define RECORDER_GEN_SUPPORT_H

#include <stdio.h>

#include "recorder_functions.h"

/* The C type is a pointer ("... *"). */
int gen_is_pointer(const char *ctype);
/* The C type is va_list. */
int gen_is_va_list(const rec_arg_desc *a);
/* Some argument is a va_list (vfprintf). */
int gen_has_va_list(const rec_func_desc *f);
/* A variadic function without VA arguments (fprintf): it forwards its "..."
 * to its v-form. */
int gen_forwards_va_list(const rec_func_desc *f);
/* The position of f's argument called name, or -1. */
int gen_arg_named(const rec_func_desc *f, const char *name);
/* The name of the va_list function a variadic f forwards to: vfprintf of
 * fprintf, __vfprintf_chk of __fprintf_chk (v before its plain twin's name). */
/* Whether a DERIVED expression of f names rt_pos_before, its stream's
 * position right before the call (rec_stream_moved); stream gets the C
 * expression of that stream (an argument's name, or stdin for scanf). */
int gen_measures_position(const rec_func_desc *f, char *stream, size_t size);
void gen_va_list_form(const rec_func_desc *f, char *name, size_t size);
/* Written by the call only. */
int gen_is_out_only(const rec_arg_desc *a);
/* The memory type of a netCDF write's buffer ctype as ncfill_write takes it (templates/ncfill.c.tmpl):
 * "sizeof(E), REAL, SIGNED" of its element type E, "0, 0, 0" for an untyped (void) one. */
void gen_nc_mem_traits(const char *buffer_ctype, char *buf, size_t cap);

/* A single handle (not an array of them). */
int rec_kind_is_handle(unsigned kind);
/* The C value is itself the handle pointer (FILE *, DIR *, a mapping). */
int rec_kind_pointer_is_value(unsigned kind);
/* The argument is a pointer whose pointee is the recorded value (int *size,
 * MPI_Comm *newcomm; not strings, buffers, arrays or FILE *). */
int rec_arg_by_pointer(const rec_arg_desc *a);
/* The operator argument an iteration counts the calls of (its OP_CALLS field's
 * len names it), with in *data the void * argument after it, which the library
 * hands the operator; -1 when f has no OP_CALLS field. */
int gen_counted_operator(const rec_func_desc *f, int *data);
/* The distinct C types of the operators (functions/operators.def) a layer's
 * functions take as inputs, only the counted ones' when counted; up to max,
 * in table order; returns how many. */
unsigned gen_operator_types(unsigned layer, int counted, const char **types, unsigned max);
/* What a generator writes for one operator type: its return type, parameters
 * and the n parameter names in them (each a pointer into params and a length). */
typedef void gen_operator_fn(const char *type, const char *ret, const char *params, const char *const *names,
                             const unsigned *lens, unsigned n);
/* fn for each operator type gen_operator_types gives (up to 64). */
void gen_each_operator(unsigned layer, int counted, gen_operator_fn *fn);
/* The element type of a pointer type: "const hsize_t *" -> "hsize_t";
 * "rec_int3 *" (rows of three ints) -> "int". */
void rec_ctype_element(const char *ctype, char *out, size_t cap);
/* Elements per row of an array of that pointer type: 3 for "rec_int3 *"
 * (MPI's int ranges[][3]), 1 for every other type. */
unsigned rec_ctype_row(const char *ctype);

/* The C parameter list of f: its arguments but the VA and DERIVED ones,
 * then "..." for a variadic function, "void" for none. */
enum {
    GEN_PARAM_NAMES = 1,        /* "int fd" rather than "int" */
    GEN_PARAM_VA_LIST = 2,      /* the v-form of a variadic function: ", va_list" instead of "..." */
    GEN_PARAM_ELLIPSIS = 4      /* a va_list argument becomes "..." (a variadic stand-in) */
};
void gen_print_params(FILE *out, const rec_func_desc *f, unsigned how);
/* Generated code for f sits between these: "#if REC_HAVE_MPI4" or "#if
 * REC_HAVE_MPI1" and "#endif" for the functions an MPI's header may lack
 * (LARGE_COUNT, SINCE_MPI4, REMOVED_MPI3; rec_mpi_versions.h, which the
 * generated code includes); "" for every other function. */
const char *gen_guard_begin(const rec_func_desc *f);
/* An MPI-4 large-count function's base (X of X_c) when the two differ only
 * in counts (MPI_Count for int or MPI_Aint; MPI_Count * for int *), else
 * NULL: an MPI without MPI-4 replays and runs X_c through X while counts fit. */
const rec_func_desc *gen_narrow_base(const rec_func_desc *f);
/* A large-count function's count it hands back (MPI_Count *, not derived),
 * which its base takes as an int *. */
int gen_count_out(const rec_arg_desc *a);
const char *gen_guard_end(const rec_func_desc *f);
/* A C expression in `ret` that is true when the call succeeded. */
const char *gen_success_test(const rec_func_desc *f);

/* Opens dir/name for writing; on failure prints "generator: dir/name:
 * reason" and exits 1. gen_close closes it the same way. */
FILE *gen_create(const char *generator, const char *dir, const char *name);
void gen_close(const char *generator, FILE *out, const char *dir, const char *name);
/* The per-layer part of generated file names: "posix", "mpi", "mpiio", "hdf5". */
const char *gen_layer_part(unsigned layer);
/* An optional layer's preprocessor condition (RECORDER_HAVE_PNETCDF), NULL
 * for a layer every build has, and the #include lines of the headers that
 * declare its functions ("" for none). Generated code keeps such a layer's
 * functions under the condition. */
const char *gen_layer_guard(unsigned layer);
const char *gen_layer_includes(unsigned layer);

/* The stand-in for the application's function id (CALLBACK: 1, 2, ...) of
 * an MPI reduction, of C type ctype (operators.def): its name, prefix and
 * the function type and the id ("reduce_MPI_User_function_2"; id 0: the
 * one for reductions the trace did not see made, "..._untraced"), and its
 * definition, which calls reduce_bytes (templates/reduce.c.tmpl): one
 * function per id, so the copy passes as many distinct functions as the
 * traced program. 0 on success, -1 when ctype is no reduction's or the text
 * does not fit. */
int gen_reduction_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
int gen_reduction_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
/* The stand-in for the application's function id (CALLBACK: 1, 2, ...) of
 * an MPI error handler, of C type ctype (operators.def): its name
 * ("errhandler_MPI_Comm_errhandler_function_2") and its definition, which
 * calls errhandler_returns (templates/errhandler.c.tmpl). 0 on success, -1
 * when ctype is no error handler's, id is not positive or the text does
 * not fit. */
int gen_errhandler_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
int gen_errhandler_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
/* Either of the above, by what ctype is (a reduction's or an error
 * handler's function type); and the template whose code the stand-ins call
 * ("reduce.c.tmpl", "errhandler.c.tmpl"), NULL for a type that has no
 * stand-in. */
int gen_callback_name(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
int gen_callback_function(const char *prefix, const char *ctype, int64_t id, char *buf, size_t cap);
const char *gen_callback_template(const char *ctype);
/* "static MPI_Op <prefix>untraced_op(void)": a reduction for one the trace
 * does not know (made before tracing), made by the table's SOLE(OP_OF_CALLBACK)
 * function (its PMPI_ entry point, which no tracer sees) of the untraced
 * stand-in of its CALLBACK type, commutative; made once when
 * once is set, else anew at each call. 0 on success, -1 otherwise. */
int gen_untraced_op_function(const char *prefix, int once, char *buf, size_t cap);
/* "-Wl,--wrap=NAME" lines for the functions of a layer (REC_LAYER_COUNT: all). */
void gen_write_wrap_options(FILE *out, unsigned layer);

#endif
