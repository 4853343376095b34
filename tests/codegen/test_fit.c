/* Unit tests of recorder-codegen's value inference: relations with the rank
 * (affine, rank groups, MPI_Dims_create grids as vorpal-like needs, tables,
 * choices), with loop counters (affine, modulo, tables, non-separable
 * values rejected), categorical values, and string patterns. */
#include "cg.h"
#include "emit.h"
#include "rk_test.h"

#include <stdlib.h>
#include <string.h>

typedef struct fixture {
    cg_model m;
    cg_fitctx x;
    int64_t cells[4096];
    const int64_t *rows[512];
} fixture;

/* ninsts instances (loops of the given counts) on every one of nranks ranks. */
static fixture *make(uint32_t nranks, uint32_t ndims, const uint32_t *counts)
{
    fixture *f = calloc(1, sizeof *f);
    f->m.nranks = nranks;
    uint32_t ranks[256];
    for (uint32_t r = 0; r < nranks; r++)
        ranks[r] = r;
    uint32_t rs = cg_rankset_id(&f->m, ranks, nranks);
    f->x.m = &f->m;
    f->x.rs = &f->m.ranksets[rs];
    f->x.dims.n = ndims;
    f->x.ninsts = 1;
    for (uint32_t d = 0; d < ndims; d++) {
        f->x.dims.count[d] = counts[d];
        f->x.ninsts *= counts[d];
    }
    for (uint32_t t = 0; t < f->x.ninsts; t++)
        f->rows[t] = f->cells + (size_t)t * nranks;
    f->x.vals = f->rows;
    return f;
}

static void drop(fixture *f)
{
    cg_model_free(&f->m);
    free(f);
}

static int64_t *cell(fixture *f, uint32_t t, uint32_t rank)
{
    return &f->cells[(size_t)t * f->m.nranks + rank];
}

/* The model cg_fit_num finds for the fixture's values; the test stops if there is none. */
static cg_num fit_num(fixture *f)
{
    cg_num n;
    CU_ASSERT_EQUAL_FATAL(cg_fit_num(&f->x, &n), 0);
    return n;
}

RK_TEST(codegen_fit, dims_create_matches_mpich)
{
    /* MPI_Dims_create(n, 3) of MPICH 4.0 for n = 1..64 (and a few 2-D ones) */
    static const int want3[64][3] = {
        {1, 1, 1},  {2, 1, 1},  {3, 1, 1},  {2, 2, 1},  {5, 1, 1},  {3, 2, 1},  {7, 1, 1},  {2, 2, 2},
        {3, 3, 1},  {5, 2, 1},  {11, 1, 1}, {3, 2, 2},  {13, 1, 1}, {7, 2, 1},  {5, 3, 1},  {4, 2, 2},
        {17, 1, 1}, {3, 3, 2},  {19, 1, 1}, {5, 2, 2},  {7, 3, 1},  {11, 2, 1}, {23, 1, 1}, {4, 3, 2},
        {5, 5, 1},  {13, 2, 1}, {3, 3, 3},  {7, 2, 2},  {29, 1, 1}, {5, 3, 2},  {31, 1, 1}, {4, 4, 2},
        {11, 3, 1}, {17, 2, 1}, {7, 5, 1},  {4, 3, 3},  {37, 1, 1}, {19, 2, 1}, {13, 3, 1}, {5, 4, 2},
        {41, 1, 1}, {7, 3, 2},  {43, 1, 1}, {11, 2, 2}, {5, 3, 3},  {23, 2, 1}, {47, 1, 1}, {4, 4, 3},
        {7, 7, 1},  {5, 5, 2},  {17, 3, 1}, {13, 2, 2}, {53, 1, 1}, {6, 3, 3},  {11, 5, 1}, {7, 4, 2},
        {19, 3, 1}, {29, 2, 1}, {59, 1, 1}, {5, 4, 3},  {61, 1, 1}, {31, 2, 1}, {7, 3, 3},  {4, 4, 4}};
    for (int n = 1; n <= 64; n++) {
        int dims[3];
        cg_dims_create(n, 3, dims);
        CU_ASSERT(dims[0] == want3[n - 1][0] && dims[1] == want3[n - 1][1] && dims[2] == want3[n - 1][2]);
    }
    static const int want2[][3] = {{12, 4, 3}, {18, 6, 3}, {24, 6, 4}, {32, 8, 4}, {60, 10, 6}, {64, 8, 8}};
    for (size_t i = 0; i < sizeof want2 / sizeof want2[0]; i++) {
        int dims[2];
        cg_dims_create(want2[i][0], 2, dims);
        CU_ASSERT(dims[0] == want2[i][1] && dims[1] == want2[i][2]);
    }
}

RK_TEST(codegen_fit, affine_in_the_rank)
{
    fixture *f = make(8, 0, NULL);
    for (uint32_t r = 0; r < 8; r++)
        *cell(f, 0, r) = 2104 + 16384 * (int64_t)r;
    cg_num n = fit_num(f);
    CU_ASSERT_EQUAL(n.c, 2104);
    CU_ASSERT_EQUAL_FATAL(n.nterms, 1);
    CU_ASSERT_EQUAL(n.terms[0].kind, CG_T_RANK);
    CU_ASSERT_EQUAL(n.terms[0].coef, 16384);
    CU_ASSERT(!n.table && !n.ternary);
    cg_num_free(&n);
    drop(f);
}

RK_TEST(codegen_fit, rank_groups)
{
    fixture *f = make(6, 0, NULL);
    for (uint32_t r = 0; r < 6; r++)
        *cell(f, 0, r) = (int64_t)(r / 3); /* n-to-m's colours: groups of 3 */
    cg_num n = fit_num(f);
    CU_ASSERT_EQUAL_FATAL(n.nterms, 1);
    CU_ASSERT(n.terms[0].kind == CG_T_RANKDIV && n.terms[0].div == 3 && n.terms[0].coef == 1 && n.c == 0);
    cg_num_free(&n);
    for (uint32_t r = 0; r < 6; r++)
        *cell(f, 0, r) = 10 + 5 * (int64_t)(r % 2);
    n = fit_num(f);
    CU_ASSERT(n.nterms == 1 && n.terms[0].kind == CG_T_RANKMOD && n.terms[0].div == 2 &&
              n.terms[0].coef == 5);
    CU_ASSERT_EQUAL(n.c, 10);
    cg_num_free(&n);
    drop(f);
}

/* vorpal-like: each rank's block corner is coords x block, coords over MPI_Dims_create(N, 3). */
static void vorpal_corner(fixture *f, int ndims, const int *dims, const int *block, int element)
{
    for (uint32_t r = 0; r < f->m.nranks; r++) {
        int64_t rest = r, coords[3];
        for (int d = ndims - 1; d >= 0; d--) {
            coords[d] = rest % dims[d];
            rest /= dims[d];
        }
        *cell(f, 0, r) = coords[element] * block[element];
    }
}

RK_TEST(codegen_fit, grid_of_a_block_decomposition)
{
    int block[3] = {8, 12, 16};
    for (uint32_t nranks = 8; nranks <= 16; nranks += 8) {
        fixture *f = make(nranks, 0, NULL);
        int dims[3];
        cg_dims_create((int)nranks, 3, dims);
        f->x.grid_nd = 3; /* the caller saw a multi-dimensional corner */
        for (int e = 0; e < 3; e++) {
            vorpal_corner(f, 3, dims, block, e);
            cg_num n = fit_num(f);
            CU_ASSERT_EQUAL(n.grid_ndims, 3);
            CU_ASSERT(n.grid_dims[0] == dims[0] && n.grid_dims[1] == dims[1] && n.grid_dims[2] == dims[2]);
            CU_ASSERT_EQUAL_FATAL(n.nterms, 1);
            CU_ASSERT(n.terms[0].kind == CG_T_COORD && n.terms[0].arg == e && n.terms[0].coef == block[e]);
            cg_num_free(&n);
        }
        drop(f);
    }
    /* Without the hint, a value using two coordinates still fits the grid. */
    fixture *f = make(8, 0, NULL);
    for (uint32_t r = 0; r < 8; r++)
        *cell(f, 0, r) = 100 * (r / 4) + 7 * (r % 2); /* (2, 2, 2): coords 0 and 2 */
    cg_num n = fit_num(f);
    CU_ASSERT(n.grid_ndims == 3 && n.nterms == 2 && n.terms[0].coef == 100 && n.terms[1].coef == 7);
    cg_num_free(&n);
    drop(f);
}

RK_TEST(codegen_fit, tables_and_choices_by_rank)
{
    fixture *f = make(4, 0, NULL);
    static const int64_t starts[4] = {0, 2048, 4098, 6150}; /* gcrm-like's uneven cells */
    for (uint32_t r = 0; r < 4; r++)
        *cell(f, 0, r) = starts[r];
    cg_num n = fit_num(f);
    CU_ASSERT_EQUAL_FATAL(n.table, CG_TAB_RANK);
    CU_ASSERT(n.ntab == 4 && !memcmp(n.tab, starts, sizeof starts) && n.c == 0 && n.nterms == 0);
    cg_num_free(&n);
    /* two values: a choice, cheaper than a table */
    for (uint32_t r = 0; r < 4; r++)
        *cell(f, 0, r) = r == 2 ? 5 : 9;
    n = fit_num(f);
    CU_ASSERT(n.ternary && !n.table && n.tab[2] == 5 && n.tab[0] == 9);
    cg_num_free(&n);
    drop(f);
}

RK_TEST(codegen_fit, counters)
{
    uint32_t counts[2] = {3, 4};
    fixture *f = make(2, 2, counts);
    for (uint32_t i = 0; i < 3; i++)
        for (uint32_t j = 0; j < 4; j++)
            for (uint32_t r = 0; r < 2; r++)
                *cell(f, i * 4 + j, r) = 5 + 262144 * i + 16384 * j + 65536 * r; /* ior-like offsets */
    cg_num n = fit_num(f);
    CU_ASSERT(n.c == 5 && n.nterms == 3 && !n.table);
    int64_t rank = 0, i = 0, j = 0;
    for (unsigned t = 0; t < n.nterms; t++) {
        if (n.terms[t].kind == CG_T_RANK)
            rank = n.terms[t].coef;
        else if (n.terms[t].kind == CG_T_CTR)
            (n.terms[t].arg == 0 ? &i : &j)[0] = n.terms[t].coef;
    }
    CU_ASSERT(rank == 65536 && i == 262144 && j == 16384);
    cg_num_free(&n);
    /* cyclic placement: dir.<j % 2> */
    for (uint32_t t = 0; t < 12; t++)
        for (uint32_t r = 0; r < 2; r++)
            *cell(f, t, r) = (t % 4) % 2;
    n = fit_num(f);
    CU_ASSERT(n.nterms == 1 && n.terms[0].kind == CG_T_CTRMOD && n.terms[0].arg == 1 && n.terms[0].div == 2);
    cg_num_free(&n);
    /* irregular in the inner counter, the same in every outer iteration: a table */
    static const int64_t sizes[4] = {256, 320, 1000, 17};
    for (uint32_t t = 0; t < 12; t++)
        for (uint32_t r = 0; r < 2; r++)
            *cell(f, t, r) = sizes[t % 4] + 7 * (t / 4);
    n = fit_num(f);
    CU_ASSERT(n.table == CG_TAB_CTR && n.table_ctr == 1 && n.ntab == 4 && n.tab[2] == 1000);
    CU_ASSERT(n.nterms == 1 && n.terms[0].kind == CG_T_CTR && n.terms[0].arg == 0 && n.terms[0].coef == 7);
    cg_num_free(&n);
    /* the rank part changes with the counter (rank * i): no model */
    for (uint32_t t = 0; t < 12; t++)
        for (uint32_t r = 0; r < 2; r++)
            *cell(f, t, r) = (int64_t)(r * t);
    CU_ASSERT_EQUAL(cg_fit_num(&f->x, &n), -1);
    drop(f);
}

RK_TEST(codegen_fit, categorical_values)
{
    uint32_t counts[1] = {3};
    fixture *f = make(4, 1, counts);
    cg_cat c;
    for (uint32_t t = 0; t < 3; t++)
        for (uint32_t r = 0; r < 4; r++)
            *cell(f, t, r) = 13; /* H5T_NATIVE_DOUBLE everywhere */
    CU_ASSERT(cg_fit_cat(&f->x, 1, &c) == 0 && c.mode == CG_CAT_CONST && c.value == 13);
    cg_cat_free(&c);
    for (uint32_t t = 0; t < 3; t++)
        for (uint32_t r = 0; r < 4; r++)
            *cell(f, t, r) = r == 0 ? 6 : 12;
    CU_ASSERT(cg_fit_cat(&f->x, 1, &c) == 0 && c.mode == CG_CAT_TERNARY && c.tab[0] == 6 && c.tab[3] == 12);
    cg_cat_free(&c);
    for (uint32_t t = 0; t < 3; t++)
        for (uint32_t r = 0; r < 4; r++)
            *cell(f, t, r) = 20 + t;
    CU_ASSERT(cg_fit_cat(&f->x, 1, &c) == 0 && c.table == CG_TAB_CTR && c.ntab == 3 && c.tab[1] == 21);
    cg_cat_free(&c);
    CU_ASSERT_EQUAL(cg_fit_cat(&f->x, 0, &c), -1); /* the same without tables */
    *cell(f, 1, 2) = 99;
    CU_ASSERT_EQUAL(cg_fit_cat(&f->x, 1, &c), -1); /* by rank and counter at once */
    drop(f);
}

static void strings(fixture *f, const char *const *s)
{
    for (uint32_t t = 0; t < f->x.ninsts; t++)
        for (uint32_t r = 0; r < f->m.nranks; r++) {
            const char *v = s[t * f->m.nranks + r];
            *cell(f, t, r) = cg_str_id(&f->m, v, strlen(v));
        }
}

/* The fit cg_fit_values finds for string values s (ninsts x nranks of them);
 * the test stops if there is none. */
static cg_fieldfit fit_strings(fixture *f, const char *const *s)
{
    strings(f, s);
    cg_fieldfit fit;
    CU_ASSERT_EQUAL_FATAL(cg_fit_values(&f->x, CG_FIT_STR, CG_FIT_NUM, 1, &fit), 0);
    return fit;
}

RK_TEST(codegen_fit, string_patterns)
{
    uint32_t counts[1] = {3};
    fixture *f = make(2, 1, counts);
    static const char *const ckpt[] = {"/d/ckpt.0.0", "/d/ckpt.0.1", "/d/ckpt.1.0",
                                       "/d/ckpt.1.1", "/d/ckpt.2.0", "/d/ckpt.2.1"};
    cg_fieldfit fit = fit_strings(f, ckpt);
    CU_ASSERT_EQUAL_FATAL(fit.cls, CG_FIT_STR);
    CU_ASSERT_EQUAL_FATAL(fit.nruns, 2);
    CU_ASSERT_EQUAL(fit.fmt.mode, CG_CAT_CONST);
    CU_ASSERT_STRING_EQUAL(cg_str(&f->m, fit.fmt.value), "/d/ckpt.%d.%d");
    CU_ASSERT(fit.runs[0].nterms == 1 && fit.runs[0].terms[0].kind == CG_T_CTR);
    CU_ASSERT(fit.runs[1].nterms == 1 && fit.runs[1].terms[0].kind == CG_T_RANK);
    cg_fieldfit_free(&fit);
    static const char *const padded[] = {"v_0008.h5", "v_0008.h5", "v_0009.h5",
                                         "v_0009.h5", "v_0010.h5", "v_0010.h5"};
    fit = fit_strings(f, padded);
    CU_ASSERT(fit.cls == CG_FIT_STR && fit.nruns == 1 && fit.width[0] == 4);
    CU_ASSERT_STRING_EQUAL(cg_str(&f->m, fit.fmt.value), "v_%04d.h5"); /* the "5" of h5 stays literal */
    cg_fieldfit_free(&fit);
    /* mkdir -p: every directory on the way, as prefixes of the deepest */
    static const char *const dirs[] = {"/a", "/a", "/a/bb", "/a/bb", "/a/bb/c", "/a/bb/c"};
    fit = fit_strings(f, dirs);
    CU_ASSERT(fit.cls == CG_FIT_STR && fit.is_prefix);
    CU_ASSERT_STRING_EQUAL(cg_str(&f->m, fit.prefix_of), "/a/bb/c");
    CU_ASSERT(fit.runs[0].table == CG_TAB_CTR && fit.runs[0].tab[0] == 2 && fit.runs[0].tab[2] == 7);
    cg_fieldfit_free(&fit);
    /* names with nothing in common: a table by counter */
    static const char *const names[] = {"x", "x", "px", "px", "id1", "id1"};
    fit = fit_strings(f, names);
    CU_ASSERT(fit.cls == CG_FIT_CAT && fit.cat.table == CG_TAB_CTR && fit.strings);
    cg_fieldfit_free(&fit);
    drop(f);
}

RK_TEST(codegen_fit, formats_chosen_by_a_counter)
{
    /* gcrm-like: pressure_t<step> and temperature_t<step>, nested */
    uint32_t counts[2] = {3, 2};
    fixture *f = make(1, 2, counts);
    static const char *const names[] = {"pressure_t0",    "temperature_t0", "pressure_t1",
                                        "temperature_t1", "pressure_t2",    "temperature_t2"};
    cg_fieldfit fit = fit_strings(f, names);
    CU_ASSERT_EQUAL_FATAL(fit.cls, CG_FIT_STR);
    CU_ASSERT(fit.fmt.table == CG_TAB_CTR && fit.fmt.table_ctr == 1 && fit.fmt.ntab == 2);
    CU_ASSERT_STRING_EQUAL(cg_str(&f->m, fit.fmt.tab[1]), "temperature_t%d");
    CU_ASSERT(fit.nruns == 1 && fit.runs[0].nterms == 1 && fit.runs[0].terms[0].kind == CG_T_CTR &&
              fit.runs[0].terms[0].arg == 0);
    cg_fieldfit_free(&fit);
    drop(f);
}

RK_TEST(codegen_fit, run_directory_digits_are_literal)
{
    /* A run directory named by a commit hash (many digit runs, one of 21
     * digits) and a job id: only the file's number varies. */
    uint32_t counts[1] = {2};
    fixture *f = make(2, 1, counts);
#define HEX_DIR "/tmp/ci-b6ad5e0a9ba7d3557c44f62f0ef80d883140016a/run_2026_11_25-1234567/x123456789012345678901y"
    static const char *const paths[] = {HEX_DIR "/vorpal_0000.h5", HEX_DIR "/vorpal_0000.h5",
                                        HEX_DIR "/vorpal_0001.h5", HEX_DIR "/vorpal_0001.h5"};
    cg_fieldfit fit = fit_strings(f, paths);
    CU_ASSERT_EQUAL_FATAL(fit.cls, CG_FIT_STR);
    CU_ASSERT(fit.nruns == 1 && fit.width[0] == 4);
    CU_ASSERT_STRING_EQUAL(cg_str(&f->m, fit.fmt.value), HEX_DIR "/vorpal_%04d.h5");
    CU_ASSERT(fit.runs[0].nterms == 1 && fit.runs[0].terms[0].kind == CG_T_CTR);
    cg_fieldfit_free(&fit);
    /* a number longer than 18 digits that varies is no pattern */
    static const char *const long_runs[] = {"/d/1234567890123456789000", "/d/1234567890123456789000",
                                            "/d/1234567890123456789001", "/d/1234567890123456789001"};
    strings(f, long_runs);
    CU_ASSERT_EQUAL(cg_fit_values(&f->x, CG_FIT_STR, CG_FIT_NUM, 1, &fit), 0);
    CU_ASSERT_EQUAL(fit.cls, CG_FIT_CAT);
    cg_fieldfit_free(&fit);
#undef HEX_DIR
    drop(f);
}

/* Affine in the rank but for the ranks that made one call more or less
 * (every 16th): the rank's term plus a choice of two offsets, not a table
 * of 64; with no structure in those ranks, a table again. */
RK_TEST(codegen_fit, affine_but_for_an_offset_on_some_ranks)
{
    fixture *f = make(64, 0, NULL);
    for (uint32_t r = 0; r < 64; r++)
        *cell(f, 0, r) = 1000000 + 4096 * (int64_t)r - (r % 16 == 0 ? 262144 : 0);
    cg_num n = fit_num(f);
    CU_ASSERT(n.ternary && !n.table && n.nterms == 1);
    CU_ASSERT(n.terms[0].kind == CG_T_RANK && n.terms[0].coef == 4096 && n.c == 0);
    CU_ASSERT(n.ntab == 64 && n.tab[0] == 1000000 - 262144 && n.tab[16] == 1000000 - 262144 && n.tab[1] == 1000000 &&
              n.tab[63] == 1000000);
    cg_num_free(&n);
    static const uint32_t scattered[] = {2, 3, 7, 11, 13, 19, 23, 24, 29, 31, 37, 41, 42, 43, 47, 53, 59, 61};
    for (uint32_t r = 0; r < 64; r++)
        *cell(f, 0, r) = 1000000 + 4096 * (int64_t)r;
    for (size_t k = 0; k < sizeof scattered / sizeof scattered[0]; k++)
        *cell(f, 0, scattered[k]) -= 262144;
    n = fit_num(f);
    CU_ASSERT(n.table == CG_TAB_RANK && !n.ternary && n.nterms == 0);
    cg_num_free(&n);
    drop(f);
}

/* cg_index_condition's text for a set of ranks out of `total`. */
static char *condition(const uint32_t *ranks, uint32_t n, uint32_t total)
{
    sb out = {0};
    cg_index_condition(NULL, ranks, n, total, "rank", &out);
    char *s = strdup(sb_str(&out));
    sb_free(&out);
    return s;
}

#define CHECK_CONDITION(want, total, ...)                                                                     \
    do {                                                                                                     \
        static const uint32_t set[] = {__VA_ARGS__};                                                         \
        char *got = condition(set, sizeof set / sizeof set[0], total);                                       \
        CU_ASSERT_STRING_EQUAL(got, want);                                                                   \
        free(got);                                                                                           \
    } while (0)

/* Rank conditions follow the structure of the set, not its size: ranges
 * and strides, or the complement's when it has fewer pieces. */
RK_TEST(codegen_fit, rank_conditions_follow_the_structure_of_the_set)
{
    CHECK_CONDITION("rank == 3", 10, 3);
    CHECK_CONDITION("rank < 4", 10, 0, 1, 2, 3);
    CHECK_CONDITION("rank % 2 == 1", 10, 1, 3, 5, 7, 9);
    CHECK_CONDITION("rank == 0 || (rank >= 5 && rank <= 7)", 100, 0, 5, 6, 7);
    CHECK_CONDITION("!(rank >= 10 && rank <= 19)", 30, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 22, 23, 24, 25, 26,
                    27, 28, 29);
    CHECK_CONDITION("rank != 5", 10, 0, 1, 2, 3, 4, 6, 7, 8, 9);
    CHECK_CONDITION("rank == 1 || rank == 4 || rank == 9", 10, 1, 4, 9);
    /* every rank but every 16th, out of 4,096: one comparison */
    uint32_t *most = malloc(4096 * sizeof *most), n = 0;
    for (uint32_t r = 0; r < 4096; r++)
        if (r % 16)
            most[n++] = r;
    char *got = condition(most, n, 4096);
    CU_ASSERT_STRING_EQUAL(got, "rank % 16 != 0");
    free(got);
    free(most);
}

/* N items over P ranks, the first N % P ranks one more: each rank's start
 * is 8 * (N / P) * rank + 8 * min(rank, N % P), not a table of P. Two
 * slopes of no such shape (gcrm-like's cells) stay a table. */
RK_TEST(codegen_fit, balanced_block_starts)
{
    fixture *f = make(16, 0, NULL);
    const int64_t items = 1000, q = items / 16, m = items % 16; /* 62 each, the first 8 hold 63 */
    for (uint32_t r = 0; r < 16; r++)
        *cell(f, 0, r) = 8 * (q * (int64_t)r + ((int64_t)r < m ? (int64_t)r : m));
    cg_num n = fit_num(f);
    CU_ASSERT(!n.table && !n.ternary && n.nterms == 2 && n.c == 0);
    CU_ASSERT(n.terms[0].kind == CG_T_RANK && n.terms[0].coef == 8 * q);
    CU_ASSERT(n.terms[1].kind == CG_T_RANKMIN && n.terms[1].div == m && n.terms[1].coef == 8);
    cg_num_free(&n);
    drop(f);
    f = make(4, 0, NULL);
    static const int64_t counts[4] = {2048, 2050, 2052, 2046};
    for (uint32_t r = 0; r < 4; r++)
        *cell(f, 0, r) = counts[r];
    n = fit_num(f);
    CU_ASSERT(n.table == CG_TAB_RANK && n.nterms == 0);
    cg_num_free(&n);
    drop(f);
}
