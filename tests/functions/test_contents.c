/* The table's description of MPI datatype constructors (COMBINER, FROM,
 * FROM_N in functions/mpi.def) against the MPI standard's layout of
 * MPI_Type_get_contents (MPI 4.0, section 5.1.13 "Decoding a Datatype"),
 * written out here from the standard, and against the MPI library: a type
 * made with known arguments, decoded the table's way, gives them back. And
 * the sole roles: one function each. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "gen_support.h"
#include "rec_combiners.h"
#include "rec_mpi_versions.h"
#include "recorder_functions.h"
#include "rk_test.h"

enum { I = REC_CONTENTS_INTS, A = REC_CONTENTS_AINTS, T = REC_CONTENTS_TYPES };

/* Argument `name` is array[base + step * n] (each: the n elements from there). */
typedef struct layout {
    const char *name;
    unsigned array, base, step, each;
} layout;

static const rec_func_desc *constructor(unsigned combiner)
{
    const rec_func_desc *found = NULL;
    for (size_t i = 0; i < rec_function_count; i++)
        if (rec_func_combiner(&rec_functions[i]) == combiner) {
            CU_ASSERT_PTR_NULL(found); /* one constructor a combiner */
            found = &rec_functions[i];
        }
    CU_ASSERT_PTR_NOT_NULL_FATAL(found);
    return found;
}

static int arg_named(const rec_func_desc *f, const char *name)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (strcmp(f->args[a].name, name) == 0)
            return (int)a;
    return -1;
}

/* Every IN argument of the combiner's constructor is in `want`, as it says;
 * the arrays' length is the argument named `n`. */
static void check_layout(unsigned combiner, const char *name, const char *n, const layout *want, size_t count)
{
    const rec_func_desc *f = constructor(combiner);
    CU_ASSERT_STRING_EQUAL(f->name, name);
    CU_ASSERT_FALSE(f->roles & REC_ROLE_LARGE_COUNT);
    unsigned in = 0;
    for (unsigned a = 0; a < f->nargs; a++)
        in += (f->args[a].flags & REC_ARG_IN) != 0;
    CU_ASSERT_EQUAL(in, count);
    for (size_t k = 0; k < count; k++) {
        int a = arg_named(f, want[k].name);
        CU_ASSERT_FATAL(a >= 0);
        rec_contents s = rec_arg_contents(f, (unsigned)a);
        CU_ASSERT_EQUAL(s.array, want[k].array);
        CU_ASSERT_EQUAL(s.base, want[k].base);
        CU_ASSERT_EQUAL(s.step, want[k].step);
        CU_ASSERT_EQUAL(s.each, want[k].each);
        if (want[k].each)
            CU_ASSERT_EQUAL(rec_arg_length(f, (unsigned)a), arg_named(f, n));
    }
}

/* MPI 4.0, 5.1.13: the combiner's constructor and where its arguments are. */
RK_TEST(functions, vector_contents_are_the_standards)
{
    /* ni = 3, na = 0, nt = 1: count, blocklength, stride; oldtype */
    static const layout want[] = {
        {"count", I, 0, 0, 0}, {"blocklength", I, 1, 0, 0}, {"stride", I, 2, 0, 0}, {"oldtype", T, 0, 0, 0}};
    check_layout(REC_COMBINER_VECTOR, "MPI_Type_vector", NULL, want, 4);
}

RK_TEST(functions, indexed_contents_are_the_standards)
{
    /* ni = 2 count + 1: count, blocklengths[count], displacements[count]; oldtype */
    static const layout want[] = {{"count", I, 0, 0, 0},
                                  {"array_of_blocklengths", I, 1, 0, 1},
                                  {"array_of_displacements", I, 1, 1, 1},
                                  {"oldtype", T, 0, 0, 0}};
    check_layout(REC_COMBINER_INDEXED, "MPI_Type_indexed", "count", want, 4);
}

RK_TEST(functions, struct_contents_are_the_standards)
{
    /* ni = count + 1, na = count, nt = count */
    static const layout want[] = {{"count", I, 0, 0, 0},
                                  {"array_of_blocklengths", I, 1, 0, 1},
                                  {"array_of_displacements", A, 0, 0, 1},
                                  {"array_of_types", T, 0, 0, 1}};
    check_layout(REC_COMBINER_STRUCT, "MPI_Type_create_struct", "count", want, 4);
}

RK_TEST(functions, subarray_contents_are_the_standards)
{
    /* ni = 3 ndims + 2: ndims, sizes, subsizes, starts, order; oldtype */
    static const layout want[] = {{"ndims", I, 0, 0, 0},
                                  {"array_of_sizes", I, 1, 0, 1},
                                  {"array_of_subsizes", I, 1, 1, 1},
                                  {"array_of_starts", I, 1, 2, 1},
                                  {"order", I, 1, 3, 0},
                                  {"oldtype", T, 0, 0, 0}};
    check_layout(REC_COMBINER_SUBARRAY, "MPI_Type_create_subarray", "ndims", want, 6);
}

RK_TEST(functions, darray_contents_are_the_standards)
{
    /* ni = 4 ndims + 4: size, rank, ndims, gsizes, distribs, dargs, psizes, order; oldtype */
    static const layout want[] = {{"size", I, 0, 0, 0},
                                  {"rank", I, 1, 0, 0},
                                  {"ndims", I, 2, 0, 0},
                                  {"array_of_gsizes", I, 3, 0, 1},
                                  {"array_of_distribs", I, 3, 1, 1},
                                  {"array_of_dargs", I, 3, 2, 1},
                                  {"array_of_psizes", I, 3, 3, 1},
                                  {"order", I, 3, 4, 0},
                                  {"oldtype", T, 0, 0, 0}};
    check_layout(REC_COMBINER_DARRAY, "MPI_Type_create_darray", "ndims", want, 9);
}

RK_TEST(functions, resized_contents_are_the_standards)
{
    /* ni = 0, na = 2, nt = 1: lb, extent; oldtype */
    static const layout want[] = {{"oldtype", T, 0, 0, 0}, {"lb", A, 0, 0, 0}, {"extent", A, 1, 0, 0}};
    check_layout(REC_COMBINER_RESIZED, "MPI_Type_create_resized", NULL, want, 3);
}

RK_TEST(functions, every_combiner_has_one_classic_constructor_and_twins_none)
{
    for (unsigned c = REC_COMBINER_NONE + 1; c < REC_COMBINER_LIMIT; c++)
        CU_ASSERT_EQUAL(constructor(c)->layer, REC_LAYER_MPI);
    for (size_t i = 0; i < rec_function_count; i++) {
        const rec_func_desc *f = &rec_functions[i];
        if (!(f->roles & REC_ROLE_LARGE_COUNT))
            continue;
        CU_ASSERT_EQUAL(rec_func_combiner(f), REC_COMBINER_NONE);
        CU_ASSERT_EQUAL(rec_func_sole(f), REC_SOLE_NONE);
        for (unsigned a = 0; a < f->nargs; a++)
            CU_ASSERT_EQUAL(rec_arg_contents(f, a).array, REC_CONTENTS_NONE);
    }
}

/* MPI's combiners, as the standard names them, and the table's: the
 * generated map gives the constructor that carries the same COMBINER. */
RK_TEST(functions, rec_combiner_function_maps_each_combiner_to_its_constructor)
{
    static const struct {
        int mpi;
        unsigned table;
    } combiners[] = {
        {MPI_COMBINER_DUP, REC_COMBINER_DUP},
        {MPI_COMBINER_CONTIGUOUS, REC_COMBINER_CONTIGUOUS},
        {MPI_COMBINER_VECTOR, REC_COMBINER_VECTOR},
        {MPI_COMBINER_HVECTOR, REC_COMBINER_HVECTOR},
        {MPI_COMBINER_INDEXED, REC_COMBINER_INDEXED},
        {MPI_COMBINER_HINDEXED, REC_COMBINER_HINDEXED},
        {MPI_COMBINER_INDEXED_BLOCK, REC_COMBINER_INDEXED_BLOCK},
        {MPI_COMBINER_HINDEXED_BLOCK, REC_COMBINER_HINDEXED_BLOCK},
        {MPI_COMBINER_STRUCT, REC_COMBINER_STRUCT},
        {MPI_COMBINER_SUBARRAY, REC_COMBINER_SUBARRAY},
        {MPI_COMBINER_DARRAY, REC_COMBINER_DARRAY},
        {MPI_COMBINER_RESIZED, REC_COMBINER_RESIZED},
    };
    CU_ASSERT_EQUAL(sizeof combiners / sizeof combiners[0], REC_COMBINER_LIMIT - 1u);
    for (size_t i = 0; i < sizeof combiners / sizeof combiners[0]; i++) {
        const rec_func_desc *f = rec_function_by_id(rec_combiner_function(combiners[i].mpi));
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_PTR_EQUAL(f, constructor(combiners[i].table));
        CU_ASSERT_EQUAL(rec_func_combiner(f), combiners[i].table);
    }
    /* Named types, Fortran's and MPI-1's integer forms: no constructor. */
    static const int none[] = {MPI_COMBINER_NAMED, MPI_COMBINER_F90_REAL, MPI_COMBINER_F90_COMPLEX,
                               MPI_COMBINER_F90_INTEGER REC_IF_MPI1(, MPI_COMBINER_HVECTOR_INTEGER,
                                                                    MPI_COMBINER_HINDEXED_INTEGER,
                                                                    MPI_COMBINER_STRUCT_INTEGER)};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
        CU_ASSERT_EQUAL(rec_combiner_function(none[i]), 0u);
}

/* ---- the MPI library: types made with known arguments decode to them ---- */

static void mpi_down(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (!done)
        MPI_Finalize();
}

static void mpi_up(void)
{
    int on = 0;
    MPI_Initialized(&on);
    if (!on) {
        MPI_Init(NULL, NULL);
        atexit(mpi_down);
    }
}

/* Argument `name` of t's constructor, read from t's contents the table's
 * way: its elements (a datatype as its handle's bits) into out; how many. */
static size_t decoded(MPI_Datatype t, const char *name, int64_t *out, size_t cap)
{
    int ni, na, nt, combiner;
    CU_ASSERT_FATAL(MPI_Type_get_envelope(t, &ni, &na, &nt, &combiner) == MPI_SUCCESS);
    const rec_func_desc *f = rec_function_by_id(rec_combiner_function(combiner));
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    int *ints = malloc(((size_t)ni + 1) * sizeof *ints);
    MPI_Aint *aints = malloc(((size_t)na + 1) * sizeof *aints);
    MPI_Datatype *types = malloc(((size_t)nt + 1) * sizeof *types);
    CU_ASSERT_FATAL(MPI_Type_get_contents(t, ni, na, nt, ints, aints, types) == MPI_SUCCESS);
    int64_t n = 0;
    for (unsigned a = 0; a < f->nargs; a++)
        if (rec_arg_contents(f, a).each)
            n = ints[rec_arg_contents(f, (unsigned)rec_arg_length(f, a)).base];
    /* The table's layout for this n spans exactly what the envelope reports. */
    size_t end[T + 1] = {0};
    for (unsigned a = 0; a < f->nargs; a++) {
        rec_contents s = rec_arg_contents(f, a);
        size_t last = s.base + s.step * (size_t)n + (s.each ? (size_t)n : 1);
        if (s.array != REC_CONTENTS_NONE && last > end[s.array])
            end[s.array] = last;
    }
    CU_ASSERT_EQUAL(end[I], (size_t)ni);
    CU_ASSERT_EQUAL(end[A], (size_t)na);
    CU_ASSERT_EQUAL(end[T], (size_t)nt);
    int a = arg_named(f, name);
    CU_ASSERT_FATAL(a >= 0);
    rec_contents s = rec_arg_contents(f, (unsigned)a);
    size_t at = s.base + s.step * (size_t)n, len = s.each ? (size_t)n : 1;
    size_t size = s.array == I ? (size_t)ni : s.array == A ? (size_t)na : (size_t)nt;
    CU_ASSERT_FATAL(at + len <= size && len <= cap);
    for (size_t e = 0; e < len; e++)
        out[e] = s.array == I ? ints[at + e] : s.array == A ? (int64_t)aints[at + e] : (int64_t)(intptr_t)types[at + e];
    free(ints), free(aints), free(types);
    return len;
}

static void check_arg(MPI_Datatype t, const char *name, const int64_t *want, size_t n)
{
    int64_t got[16];
    CU_ASSERT_EQUAL_FATAL(decoded(t, name, got, 16), n);
    for (size_t e = 0; e < n; e++)
        CU_ASSERT_EQUAL(got[e], want[e]);
}

static int64_t handle(MPI_Datatype t)
{
    return (int64_t)(intptr_t)t;
}

RK_TEST(functions, the_mpi_library_gives_back_a_vector_indexed_and_structs_arguments)
{
    mpi_up();
    MPI_Datatype t;
    MPI_Type_vector(2, 3, 5, MPI_INT, &t);
    check_arg(t, "count", (int64_t[]){2}, 1);
    check_arg(t, "blocklength", (int64_t[]){3}, 1);
    check_arg(t, "stride", (int64_t[]){5}, 1);
    check_arg(t, "oldtype", (int64_t[]){handle(MPI_INT)}, 1);
    MPI_Type_free(&t);
    int bl[3] = {1, 2, 3}, disp[3] = {0, 4, 10};
    MPI_Type_indexed(3, bl, disp, MPI_DOUBLE, &t);
    check_arg(t, "count", (int64_t[]){3}, 1);
    check_arg(t, "array_of_blocklengths", (int64_t[]){1, 2, 3}, 3);
    check_arg(t, "array_of_displacements", (int64_t[]){0, 4, 10}, 3);
    check_arg(t, "oldtype", (int64_t[]){handle(MPI_DOUBLE)}, 1);
    MPI_Type_free(&t);
    MPI_Aint adisp[3] = {0, 8, 24};
    MPI_Datatype members[3] = {MPI_INT, MPI_DOUBLE, MPI_FLOAT};
    MPI_Type_create_struct(3, bl, adisp, members, &t);
    check_arg(t, "count", (int64_t[]){3}, 1);
    check_arg(t, "array_of_blocklengths", (int64_t[]){1, 2, 3}, 3);
    check_arg(t, "array_of_displacements", (int64_t[]){0, 8, 24}, 3);
    check_arg(t, "array_of_types", (int64_t[]){handle(MPI_INT), handle(MPI_DOUBLE), handle(MPI_FLOAT)}, 3);
    MPI_Type_free(&t);
}

RK_TEST(functions, the_mpi_library_gives_back_a_subarray_darray_and_resized_types_arguments)
{
    mpi_up();
    MPI_Datatype t;
    int sizes[3] = {8, 6, 4}, subs[3] = {4, 3, 2}, starts[3] = {1, 2, 0};
    MPI_Type_create_subarray(3, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_FLOAT, &t);
    check_arg(t, "ndims", (int64_t[]){3}, 1);
    check_arg(t, "array_of_sizes", (int64_t[]){8, 6, 4}, 3);
    check_arg(t, "array_of_subsizes", (int64_t[]){4, 3, 2}, 3);
    check_arg(t, "array_of_starts", (int64_t[]){1, 2, 0}, 3);
    check_arg(t, "order", (int64_t[]){MPI_ORDER_FORTRAN}, 1);
    check_arg(t, "oldtype", (int64_t[]){handle(MPI_FLOAT)}, 1);
    MPI_Type_free(&t);
    int gs[2] = {16, 12}, dist[2] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC};
    int dargs[2] = {MPI_DISTRIBUTE_DFLT_DARG, 2}, ps[2] = {2, 3};
    MPI_Type_create_darray(6, 4, 2, gs, dist, dargs, ps, MPI_ORDER_C, MPI_DOUBLE, &t);
    check_arg(t, "size", (int64_t[]){6}, 1);
    check_arg(t, "rank", (int64_t[]){4}, 1);
    check_arg(t, "ndims", (int64_t[]){2}, 1);
    check_arg(t, "array_of_gsizes", (int64_t[]){16, 12}, 2);
    check_arg(t, "array_of_distribs", (int64_t[]){MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, 2);
    check_arg(t, "array_of_dargs", (int64_t[]){MPI_DISTRIBUTE_DFLT_DARG, 2}, 2);
    check_arg(t, "array_of_psizes", (int64_t[]){2, 3}, 2);
    check_arg(t, "order", (int64_t[]){MPI_ORDER_C}, 1);
    check_arg(t, "oldtype", (int64_t[]){handle(MPI_DOUBLE)}, 1);
    MPI_Type_free(&t);
    MPI_Type_create_resized(MPI_INT, -8, 100, &t);
    check_arg(t, "oldtype", (int64_t[]){handle(MPI_INT)}, 1);
    check_arg(t, "lb", (int64_t[]){-8}, 1);
    check_arg(t, "extent", (int64_t[]){100}, 1);
    MPI_Type_free(&t);
}

/* ---- sole roles ---- */

RK_TEST(functions, each_sole_role_is_one_functions)
{
    for (unsigned sole = REC_SOLE_NONE + 1; sole < REC_SOLE_LIMIT; sole++) {
        const rec_func_desc *f = rec_function_with_sole(sole);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(rec_func_sole(f), sole);
        unsigned holders = 0;
        for (size_t i = 0; i < rec_function_count; i++)
            holders += rec_func_sole(&rec_functions[i]) == sole;
        CU_ASSERT_EQUAL(holders, 1u);
    }
    CU_ASSERT_STRING_EQUAL(rec_function_with_sole(REC_SOLE_COMMITS_TYPE)->name, "MPI_Type_commit");
    CU_ASSERT_STRING_EQUAL(rec_function_with_sole(REC_SOLE_SIMPLE_SPACE)->name, "H5Screate_simple");
    CU_ASSERT_PTR_NULL(rec_function_with_sole(REC_SOLE_NONE));
}

/* MPI's named constants are recorded as MPICH's values (constants.def): under
 * MPICH canonical and native agree; under any MPI each canonical value names
 * one constant of its kind, which the table finds by value and by name. */
RK_TEST(functions, mpi_constants_are_mpichs_values_one_name_each)
{
    size_t n = 0;
#define C(kind, name, value)                                                                                 \
    do {                                                                                                     \
        n++;                                                                                                 \
        CU_ASSERT_TRUE(rec_kind_has_mpi_constants(REC_KIND_##kind));                                          \
        CU_ASSERT_STRING_EQUAL(rec_mpi_constant_name(REC_KIND_##kind, value), #name);                        \
        CU_ASSERT_EQUAL(rec_mpi_constant_value(#name), value);                                               \
        if (MPICH_CONSTANTS)                                                                                 \
            CU_ASSERT_EQUAL((int64_t)(name), (int64_t)(value));                                              \
    } while (0);
#ifdef MPICH_VERSION
#define MPICH_CONSTANTS 1
#else
#define MPICH_CONSTANTS 0
#endif
#include "constants.def"
#undef C
    CU_ASSERT_EQUAL(n, rec_mpi_constant_count);
    CU_ASSERT_FALSE(rec_kind_has_mpi_constants(REC_KIND_MPI_COMM));
    CU_ASSERT_PTR_NULL(rec_mpi_constant_name(REC_KIND_MPI_RANK, 3)); /* a rank, not a constant */
}

/* The stand-in kernels and replays reduce with (templates/reduce.c.tmpl):
 * on a type whose extent is past its data (MPI_INT resized to 16 bytes), it
 * combines each element's 4 bytes of data and leaves the 12 after them, and
 * the bytes past the last element's data, as they were. */
#include "reduce.c.tmpl"
RK_TEST(functions, reduction_stand_in_combines_each_elements_data_alone)
{
    mpi_up();
    MPI_Datatype spaced;
    CU_ASSERT_FATAL(MPI_Type_create_resized(MPI_INT, 0, 16, &spaced) == MPI_SUCCESS);
    unsigned char in[48], inout[48], want[48];
    for (int b = 0; b < 48; b++) {
        in[b] = (unsigned char)(b * 7 + 1);
        inout[b] = want[b] = (unsigned char)(b * 13 + 5);
    }
    for (int e = 0; e < 2; e++)
        for (int b = e * 16; b < e * 16 + 4; b++)
            want[b] ^= in[b];
    reduce_bytes(in, inout, 2, spaced); /* 2 of the 3 elements the buffers have room for */
    CU_ASSERT_EQUAL(memcmp(inout, want, sizeof want), 0);
    MPI_Type_free(&spaced);
}

/* A reduction's CALLBACK (operators.def): the stand-in's count type, one
 * stand-in per function id, and the reduction for one made out of sight,
 * made by the sole OP_OF_CALLBACK function's PMPI_ entry point. */
RK_TEST(functions, reductions_stand_in_per_function_and_for_the_untraced)
{
    const rec_func_desc *maker = rec_function_with_sole(REC_SOLE_OP_OF_CALLBACK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(maker);
    CU_ASSERT_STRING_EQUAL(maker->name, "MPI_Op_create");
    CU_ASSERT_STRING_EQUAL(rec_reduction_count_ctype("MPI_User_function *"), "int");
    CU_ASSERT_STRING_EQUAL(rec_reduction_count_ctype("MPI_User_function_c *"), "MPI_Count");
    CU_ASSERT_PTR_NULL(rec_reduction_count_ctype("H5L_iterate_t"));
    char text[1024];
    CU_ASSERT_EQUAL(gen_reduction_name("rp_", "MPI_User_function *", 2, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(text, "rp_reduce_MPI_User_function_2");
    CU_ASSERT_EQUAL(gen_reduction_name("", "MPI_User_function_c *", 0, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(text, "reduce_MPI_User_function_c_untraced");
    CU_ASSERT_EQUAL(gen_reduction_name("", "H5L_iterate_t", 1, text, sizeof text), -1);
    CU_ASSERT_EQUAL(gen_reduction_function("", "MPI_User_function_c *", 3, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(
        text, "static void reduce_MPI_User_function_c_3(void *in, void *inout, MPI_Count *count, "
              "MPI_Datatype *type)\n{\n    reduce_bytes(in, inout, *count, *type);\n}\n");
    CU_ASSERT_EQUAL(gen_untraced_op_function("", 1, text, sizeof text), 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "static MPI_Op untraced_op(void)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "PMPI_Op_create(reduce_MPI_User_function_untraced, 1, &op);"));
    CU_ASSERT_EQUAL(gen_untraced_op_function("rp_", 0, text, sizeof text), 0);
    CU_ASSERT_PTR_NULL(strstr(text, "made")); /* anew at each call */
    CU_ASSERT_EQUAL(gen_untraced_op_function("", 1, text, 40), -1);
}

/* An error handler's CALLBACK (operators.def): the handle type of the
 * stand-in's first parameter, one stand-in per function id, none for id 0
 * (an error handler the trace did not see made is MPI_ERRORS_RETURN); and
 * the template each kind of stand-in calls. */
RK_TEST(functions, error_handlers_stand_in_per_function)
{
    CU_ASSERT_STRING_EQUAL(rec_errhandler_subject_ctype("MPI_Comm_errhandler_function *"), "MPI_Comm");
    CU_ASSERT_STRING_EQUAL(rec_errhandler_subject_ctype("MPI_File_errhandler_function *"), "MPI_File");
    CU_ASSERT_PTR_NULL(rec_errhandler_subject_ctype("MPI_User_function *"));
    CU_ASSERT_PTR_NULL(rec_reduction_count_ctype("MPI_Comm_errhandler_function *"));
    char text[1024];
    CU_ASSERT_EQUAL(gen_callback_name("rp_", "MPI_File_errhandler_function *", 3, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(text, "rp_errhandler_MPI_File_errhandler_function_3");
    CU_ASSERT_EQUAL(gen_callback_name("", "MPI_Comm_errhandler_function *", 0, text, sizeof text), -1);
    CU_ASSERT_EQUAL(gen_callback_name("", "MPI_User_function *", 2, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(text, "reduce_MPI_User_function_2");
    CU_ASSERT_EQUAL(gen_callback_function("", "MPI_Comm_errhandler_function *", 1, text, sizeof text), 0);
    CU_ASSERT_STRING_EQUAL(
        text, "static void errhandler_MPI_Comm_errhandler_function_1(MPI_Comm *handle, int *code, "
              "...)\n{\n    errhandler_returns(handle, code);\n}\n");
    CU_ASSERT_EQUAL(gen_callback_function("", "MPI_Comm_errhandler_function *", 1, text, 40), -1);
    CU_ASSERT_STRING_EQUAL(gen_callback_template("MPI_Comm_errhandler_function *"), "errhandler.c.tmpl");
    CU_ASSERT_STRING_EQUAL(gen_callback_template("MPI_User_function_c *"), "reduce.c.tmpl");
    CU_ASSERT_PTR_NULL(gen_callback_template("H5L_iterate_t"));
}

/* The stand-in returns as MPI_ERRORS_RETURN would: a failing call on a
 * communicator that has a handler of it hands its error back, once the
 * handler ran. */
#include "errhandler.c.tmpl"
static int stand_in_calls;
static void counting_stand_in(MPI_Comm *handle, int *code, ...)
{
    stand_in_calls++;
    errhandler_returns(handle, code);
}
RK_TEST(functions, error_handler_stand_in_returns_the_error)
{
    mpi_up();
    MPI_Comm comm;
    MPI_Errhandler handler;
    CU_ASSERT_FATAL(MPI_Comm_dup(MPI_COMM_SELF, &comm) == MPI_SUCCESS);
    CU_ASSERT_FATAL(MPI_Comm_create_errhandler(counting_stand_in, &handler) == MPI_SUCCESS);
    CU_ASSERT_FATAL(MPI_Comm_set_errhandler(comm, handler) == MPI_SUCCESS);
    int value = 0, cls = MPI_SUCCESS;
    int err = MPI_Bcast(&value, 1, MPI_INT, 1, comm); /* root 1 of a communicator of 1 */
    MPI_Error_class(err, &cls);
    CU_ASSERT_EQUAL(cls, MPI_ERR_ROOT);
    CU_ASSERT_EQUAL(stand_in_calls, 1);
    MPI_Errhandler_free(&handler);
    MPI_Comm_free(&comm);
}

/* Error handlers are handles of their own reference-counted space (a get
 * hands back one more reference), their predefined ones by name; the sets
 * are MPI calls that change what their subject does. */
RK_TEST(functions, error_handlers_are_counted_handles_set_and_got)
{
    CU_ASSERT_EQUAL(rec_kind_handle_space(REC_KIND_MPI_ERRHANDLER), REC_SPACE_ERRHANDLER);
    CU_ASSERT(rec_space_counts_references(REC_SPACE_ERRHANDLER));
    CU_ASSERT_STRING_EQUAL(rec_kind_name(REC_KIND_MPI_ERRHANDLER), "MPI_ERRHANDLER");
    CU_ASSERT_STRING_EQUAL(rec_predefined_handle_name(REC_KIND_MPI_ERRHANDLER, 0), "MPI_ERRHANDLER_NULL");
    CU_ASSERT_STRING_EQUAL(rec_predefined_handle_name(REC_KIND_MPI_ERRHANDLER, 1), "MPI_ERRORS_ARE_FATAL");
    CU_ASSERT_STRING_EQUAL(rec_predefined_handle_name(REC_KIND_MPI_ERRHANDLER, 2), "MPI_ERRORS_RETURN");
    static const char *const makers[] = {"MPI_Comm_create_errhandler", "MPI_File_create_errhandler",
                                         "MPI_Comm_get_errhandler", "MPI_File_get_errhandler"};
    for (size_t i = 0; i < sizeof makers / sizeof makers[0]; i++) {
        const rec_func_desc *f = rec_function_by_name(makers[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT(f->flags & REC_FN_CREATES);
        CU_ASSERT(rec_arg_with_kind(f, REC_KIND_MPI_ERRHANDLER, REC_ARG_OUT | REC_ARG_CREATE) == 1);
        CU_ASSERT_EQUAL(rec_arg_with_kind(f, REC_KIND_CALLBACK, REC_ARG_IN) >= 0, i < 2);
    }
    const rec_func_desc *fr = rec_function_by_name("MPI_Errhandler_free");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fr);
    CU_ASSERT_EQUAL(rec_func_reference_change(fr), -1);
    const rec_func_desc *set = rec_function_by_name("MPI_File_set_errhandler");
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    CU_ASSERT_EQUAL(set->layer, REC_LAYER_MPIIO);
    /* on MPI_FILE_NULL too, predefined id 0 */
    CU_ASSERT_EQUAL(set->args[REC_ARG_SUBJECT].kind, REC_KIND_MPI_FILE);
    CU_ASSERT_STRING_EQUAL(rec_predefined_handle_name(REC_KIND_MPI_FILE, 0), "MPI_FILE_NULL");
}

/* ---- C99 and wide-character entry points ---- */

/* __isoc99_X is traced as X as __X_chk is (FORTIFIED): the twin, the
 * va_list form its wrapper forwards to, and every argument of the twin by
 * name and kind (what gen_functions' check_fortified requires). */
RK_TEST(functions, c99_and_wide_entry_points_are_traced_as_their_plain_twin)
{
    static const char *const pairs[][3] = {
        {"__isoc99_fscanf", "fscanf", "__isoc99_vfscanf"},   {"__isoc99_scanf", "scanf", "__isoc99_vscanf"},
        {"__isoc99_fwscanf", "fwscanf", "__isoc99_vfwscanf"}, {"__isoc99_wscanf", "wscanf", "__isoc99_vwscanf"},
        {"__printf_chk", "printf", "__vprintf_chk"},           {"__fwprintf_chk", "fwprintf", "__vfwprintf_chk"},
        {"__wprintf_chk", "wprintf", "__vwprintf_chk"},       {"__isoc99_vfscanf", "vfscanf", NULL},
        {"__vfwprintf_chk", "vfwprintf", NULL},               {"__fgetws_chk", "fgetws", NULL},
        {"__fgetws_unlocked_chk", "fgetws_unlocked", NULL},   {"__gets_chk", "gets", NULL},
    };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        const rec_func_desc *f = rec_function_by_name(pairs[p][0]), *twin = rec_function_by_name(pairs[p][1]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_PTR_NOT_NULL_FATAL(twin);
        CU_ASSERT_TRUE(rec_func_fortified(f));
        CU_ASSERT_FALSE(rec_func_fortified(twin));
        CU_ASSERT_PTR_EQUAL(rec_func_plain_twin(f), twin);
        CU_ASSERT_PTR_NULL(rec_func_plain_twin(twin));
        CU_ASSERT_EQUAL(f->ret_kind, twin->ret_kind);
        CU_ASSERT_EQUAL(f->roles, twin->roles);
        for (unsigned a = 0; a < twin->nargs; a++) {
            int at = gen_arg_named(f, twin->args[a].name);
            CU_ASSERT_TRUE_FATAL(at >= 0);
            CU_ASSERT_EQUAL(f->args[at].kind, twin->args[a].kind);
            CU_ASSERT_STRING_EQUAL(f->args[at].len, twin->args[a].len);
        }
        if (pairs[p][2]) {
            char form[64];
            gen_va_list_form(f, form, sizeof form);
            CU_ASSERT_STRING_EQUAL(form, pairs[p][2]);
        }
    }
    char form[64];
    gen_va_list_form(rec_function_by_name("fwprintf"), form, sizeof form);
    CU_ASSERT_STRING_EQUAL(form, "vfwprintf");
}

/* What a scan read and a wide call took is the stream's move (rt_pos_before,
 * taken of the stream the call names, or of stdin and stdout); printf's
 * stream is a DERIVED console handle; fprintf's bytes are its result. */
RK_TEST(functions, scans_and_wide_calls_measure_their_stream)
{
    static const char *const measured[][2] = {
        {"fscanf", "stream"}, {"vfscanf", "stream"}, {"scanf", "stdin"},    {"vwscanf", "stdin"},
        {"fwprintf", "stream"}, {"wprintf", "stdout"}, {"fgetws", "stream"}, {"__isoc99_fscanf", "stream"},
    };
    char stream[64];
    for (size_t m = 0; m < sizeof measured / sizeof measured[0]; m++) {
        const rec_func_desc *f = rec_function_by_name(measured[m][0]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        CU_ASSERT_EQUAL(gen_measures_position(f, stream, sizeof stream), 1);
        CU_ASSERT_STRING_EQUAL(stream, measured[m][1]);
        int bytes = rec_arg_with_kind(f, REC_KIND_SIZE, REC_ARG_DERIVED);
        CU_ASSERT_TRUE(bytes >= 0);
    }
    CU_ASSERT_EQUAL(gen_measures_position(rec_function_by_name("fprintf"), stream, sizeof stream), 0);
    CU_ASSERT_EQUAL(gen_measures_position(rec_function_by_name("printf"), stream, sizeof stream), 0);
    const rec_func_desc *p = rec_function_by_name("printf");
    int console = rec_arg_with_kind(p, REC_KIND_FILE_STREAM, REC_ARG_DERIVED);
    CU_ASSERT_TRUE_FATAL(console >= 0);
    CU_ASSERT_STRING_EQUAL(p->args[console].len, "stdout");
    CU_ASSERT_EQUAL(rec_function_by_name("fscanf")->args[1].kind, REC_KIND_SCAN_FORMAT);
    CU_ASSERT_EQUAL(rec_function_by_name("fwprintf")->header, REC_HEADER_WCHAR);
}

#include "scan.c.tmpl"

/* A kernel's and a replay's scan (templates/scan.c.tmpl): the traced bytes
 * whatever they are, as many conversions, EOF at the end. */
RK_TEST(functions, scan_format_reads_the_bytes_and_makes_the_conversions)
{
    CU_ASSERT_STRING_EQUAL(scan_format(3, 13), "%*10c%c%c%c");
    CU_ASSERT_STRING_EQUAL(scan_format(0, 4), "%*4c");
    CU_ASSERT_STRING_EQUAL(scan_format(0, 0), "%n");
    CU_ASSERT_STRING_EQUAL(scan_format(-1, 0), "%c");
    CU_ASSERT_STRING_EQUAL(scan_format(-1, 5), "%*5c%c");
    CU_ASSERT_STRING_EQUAL(scan_format(2, -1), "%c%c"); /* a stream that cannot tell: a byte a conversion */
    CU_ASSERT_STRING_EQUAL(scan_format(1, 1), "%c");
    CU_ASSERT_EQUAL(wcscmp(wscan_format(2, 6), L"%*4c%c%c"), 0);
    char text[] = "12 3.5 abc\nrest";
    FILE *f = fmemopen(text, strlen(text), "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fscanf(f, scan_format(3, 11), SCAN_TO), 3);
    CU_ASSERT_EQUAL(ftell(f), 11);
    CU_ASSERT_EQUAL(fscanf(f, scan_format(0, 4), SCAN_TO), 0);
    CU_ASSERT_EQUAL(ftell(f), 15);
    CU_ASSERT_EQUAL(fscanf(f, scan_format(-1, 0), SCAN_TO), EOF);
    fclose(f);
}

/* PnetCDF's data families (functions/pnetcdf.def): one row each expands to
 * every operation, access, element type and collective form, at the ids the
 * family and the type give, with the arguments the access takes. */
RK_TEST(functions, pnetcdf_families_expand_to_every_form)
{
    size_t n = 0;
    for (size_t i = 0; i < rec_function_count; i++)
        n += rec_functions[i].layer == REC_LAYER_PNETCDF;
    CU_ASSERT_EQUAL(n, 879);
    const rec_func_desc *f = rec_function_by_name("ncmpi_put_vara_float_all"); /* family 2, type 8, _all */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 2 + 3 + 2 * 8);
    CU_ASSERT_EQUAL(f->flags & (REC_FN_COLLECTIVE | REC_FN_WRITE | REC_FN_NONBLOCKING), REC_FN_COLLECTIVE | REC_FN_WRITE);
    CU_ASSERT_EQUAL(f->nargs, 6); /* ncid, varid, start, count, buf, bytes */
    CU_ASSERT_STRING_EQUAL(f->args[4].ctype, "const float *");
    CU_ASSERT_EQUAL(rec_arg_with_role(f, REC_AROLE_COUNT), 3);
    CU_ASSERT_EQUAL(f->args[5].flags, REC_ARG_OUT | REC_ARG_DERIVED);
    f = rec_function_by_name("ncmpi_iput_varn_ulonglong"); /* family 27, type 11, no _all */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 27 + 2 + 2 * 11);
    CU_ASSERT_EQUAL(f->args[rec_arg_with_role(f, REC_AROLE_ROWS)].kind, REC_KIND_COUNT);
    CU_ASSERT_EQUAL(f->args[3].kind, REC_KIND_NC_OFFSET_ROWS);
    CU_ASSERT_EQUAL(rec_arg_with_kind(f, REC_KIND_NC_REQUEST, REC_ARG_OUT | REC_ARG_CREATE), 6);
    CU_ASSERT_PTR_NULL(rec_function_by_name("ncmpi_iput_varn_ulonglong_all"));
    f = rec_function_by_name("ncmpi_get_vars_all"); /* flexible: bufcount and buftype */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 8 + 1);
    CU_ASSERT_EQUAL(f->args[7].kind, REC_KIND_MPI_DATATYPE);
    CU_ASSERT(f->flags & REC_FN_READ);
    f = rec_function_by_name("ncmpi_mput_vara_all"); /* family 32: nvars variables, a row and a buffer each */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 32 + 1);
    CU_ASSERT_EQUAL(f->nargs, 10); /* ncid, nvars, varids, starts, counts, bufs, bufcounts, buftypes, bytes, row_bytes */
    CU_ASSERT_EQUAL(rec_arg_with_role(f, REC_AROLE_ROWS), 1);
    CU_ASSERT_EQUAL(f->args[2].kind, REC_KIND_NC_VARID_ARRAY);
    CU_ASSERT_EQUAL(f->args[4].kind, REC_KIND_NC_OFFSET_ROWS);
    CU_ASSERT_EQUAL(f->args[5].kind, REC_KIND_BUFFER_ARRAY);
    CU_ASSERT_EQUAL(f->args[7].kind, REC_KIND_MPI_DATATYPE_ARRAY);
    CU_ASSERT_EQUAL(f->args[8].flags, REC_ARG_OUT | REC_ARG_DERIVED);
    CU_ASSERT_EQUAL(f->args[9].kind, REC_KIND_ROW_BYTES); /* each variable's bytes */
    CU_ASSERT_EQUAL(f->args[9].flags, REC_ARG_OUT | REC_ARG_DERIVED);
    CU_ASSERT_EQUAL(rec_kind_class(REC_KIND_ROW_BYTES), REC_CLASS_ARRAY);
    {
        /* a trace's entry of before row_bytes (one field fewer) still adopts the entry's roles; one
         * whose field is of another kind, none */
        rec_arg_desc args[9];
        memcpy(args, f->args, sizeof args);
        rec_func_desc old = *f;
        old.args = args;
        old.nargs = 9;
        for (unsigned a = 0; a < 9; a++)
            args[a].role = 0;
        old.roles = 0;
        rec_func_adopt_roles(&old, args);
        CU_ASSERT_EQUAL(rec_arg_with_role(&old, REC_AROLE_ROWS), 1);
        CU_ASSERT_EQUAL(rec_arg_with_role(&old, REC_AROLE_COUNT), 4);
        args[8].kind = REC_KIND_COUNT;
        rec_func_adopt_roles(&old, args);
        CU_ASSERT_EQUAL(rec_arg_with_role(&old, REC_AROLE_ROWS), -1);
        old.nargs = 8; /* missing a field that is no DERIVED one: bytes is, buftypes not */
        args[8].kind = f->args[8].kind;
        rec_func_adopt_roles(&old, args);
        CU_ASSERT_EQUAL(rec_arg_with_role(&old, REC_AROLE_ROWS), 1);
        old.nargs = 7;
        rec_func_adopt_roles(&old, args);
        CU_ASSERT_EQUAL(rec_arg_with_role(&old, REC_AROLE_ROWS), -1);
    }
    CU_ASSERT_EQUAL(f->flags & (REC_FN_COLLECTIVE | REC_FN_WRITE), REC_FN_COLLECTIVE | REC_FN_WRITE);
    CU_ASSERT_EQUAL(rec_kind_element(REC_KIND_NC_VARID_ARRAY), REC_KIND_NC_VARID);
    f = rec_function_by_name("ncmpi_mget_varm_double"); /* family 39, type 9, independent */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 39 + 2 + 2 * 9);
    CU_ASSERT_STRING_EQUAL(f->args[7].ctype, "double **");
    CU_ASSERT_EQUAL(f->flags & (REC_FN_COLLECTIVE | REC_FN_READ), REC_FN_READ);
    CU_ASSERT_EQUAL(rec_arg_with_role(f, REC_AROLE_STRIDE), 5);
    f = rec_function_by_name("ncmpi_get_vard_all"); /* family 41: the flexible forms alone */
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(f->id, 4224 + 32 * 41 + 1);
    CU_ASSERT_EQUAL(f->args[rec_arg_with_role(f, REC_AROLE_VIEW_FILETYPE)].kind, REC_KIND_MPI_DATATYPE);
    CU_ASSERT_EQUAL(rec_arg_with_role(f, REC_AROLE_VIEW_FILETYPE), 2);
    CU_ASSERT_PTR_NULL(rec_function_by_name("ncmpi_put_vard_int"));
    CU_ASSERT_STRING_EQUAL(rec_layer_name(REC_LAYER_PNETCDF), "PnetCDF");
    CU_ASSERT_EQUAL(rec_layers_top_down[0], REC_LAYER_NETCDF);
    CU_ASSERT_EQUAL(rec_layers_top_down[1], REC_LAYER_PNETCDF);
    CU_ASSERT_EQUAL(rec_kind_handle_space(REC_KIND_NC_REQUEST_ARRAY), REC_SPACE_NCREQUEST);
    CU_ASSERT_TRUE(rec_kind_is_handle_array(REC_KIND_NC_REQUEST_ARRAY));
    CU_ASSERT_FALSE(rec_kind_is_handle_array(REC_KIND_NC_DIMID_ARRAY));
}
