/* Unit tests of merge annotations (format/merged.c): every on-disk form of a
 * per-rank vector round-trips exactly, the encoder picks the shortest, and
 * the parser rejects the new forms where they mean nothing. */
#include "rec_bytes.h"
#include "merged.h"
#include "rec_function_ids.h"
#include "rk_test.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MEMBERS = 256 };

typedef struct annotation_case {
    rec_record base;
    rec_rank_range range;
    rec_variation vars[3];
    rec_value values[3][MEMBERS];
    rec_merge_info mi;
} annotation_case;

/* ranks 0..MEMBERS-1 of a pwrite, no variation yet */
static void case_init(annotation_case *c)
{
    memset(c, 0, sizeof *c);
    c->base.func = REC_ID_pwrite;
    c->base.args[0].i = 70;
    c->base.args[2].i = 4096;
    c->range = (rec_rank_range){0, MEMBERS, 1};
    c->mi = (rec_merge_info){.nranges = 1, .ranges = &c->range, .nranks = MEMBERS, .vars = c->vars};
}

static void add_vector(annotation_case *c, unsigned field)
{
    rec_variation *v = &c->vars[c->mi.nvars];
    *v = (rec_variation){.field = (uint16_t)field, .relation = REC_REL_VECTOR, .values = c->values[c->mi.nvars]};
    c->mi.nvars++;
}

static int64_t *value(annotation_case *c, unsigned var, uint32_t member)
{
    return &c->values[var][member].i;
}

/* Encodes, checks the relation code written for each variation, parses,
 * checks every member's value; returns the annotation's size. */
static size_t round_trip(annotation_case *c, const unsigned *codes)
{
    const rec_layout *lay = rec_table_layout(rec_table_builtin(), REC_ID_pwrite);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lay);
    /* the base holds the first member's values, as the merger writes it */
    for (uint32_t v = 0; v < c->mi.nvars; v++) {
        if (c->vars[v].field == REC_FIELD_TSTART)
            c->base.tstart = (uint64_t)c->values[v][0].i;
        else if (c->vars[v].field == REC_FIELD_TEND)
            c->base.tend = (uint64_t)c->values[v][0].i;
        else
            c->base.args[c->vars[v].field].i = c->values[v][0].i;
    }
    rec_buf b = {0};
    rec_merge_encode(&b, lay, &c->base, &c->mi);
    CU_ASSERT_FATAL(!b.oom && b.len > 0);
    /* the relation codes: after the rank set (1 range of three small varints
     * and nvars), each variation starts with its field and relation */
    rec_in in;
    rec_in_init(&in, b.data, b.len);
    CU_ASSERT_EQUAL(rec_get_varint(&in), 1);
    for (int i = 0; i < 3; i++)
        rec_get_varint(&in);
    CU_ASSERT_EQUAL_FATAL(rec_get_varint(&in), c->mi.nvars);
    rec_merge_state s = {0};
    const char *why = NULL;
    CU_ASSERT_EQUAL_FATAL(rec_merge_parse(&s, b.data, b.len, lay, &c->base, MEMBERS, 0, &why), 0);
    CU_ASSERT_EQUAL_FATAL(s.info.nvars, c->mi.nvars);
    for (uint32_t v = 0; v < c->mi.nvars; v++) {
        CU_ASSERT_EQUAL(s.info.vars[v].field, c->vars[v].field);
        CU_ASSERT_EQUAL(s.info.vars[v].relation, REC_REL_VECTOR);
        for (uint32_t k = 0; k < MEMBERS; k++)
            CU_ASSERT_EQUAL(s.info.vars[v].values[k].i, c->values[v][k].i);
    }
    /* walk the encoding again to see each variation's code */
    rec_merge_state_free(&s);
    size_t len = b.len;
    uint32_t v = 0;
    while (v < c->mi.nvars && in.p < in.end) {
        CU_ASSERT_EQUAL(rec_get_varint(&in), c->vars[v].field);
        uint64_t code = rec_get_varint(&in);
        if (code != codes[v])
            fprintf(stderr, "variation %u: relation %llu, not %u\n", v, (unsigned long long)code, codes[v]);
        CU_ASSERT_EQUAL(code, codes[v]);
        for (uint32_t k = 0; k < MEMBERS; k++)
            rec_get_svarint(&in);
        v++;
    }
    CU_ASSERT_EQUAL(v, c->mi.nvars);
    CU_ASSERT(in.p == in.end && !in.failure);
    free(b.data);
    return len;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int64_t jitter(unsigned spread)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)(rng % spread);
}

/* Clocks offset by the rank (a start skew) and drifting apart: the starts
 * go as deltas against the previous member, the ends as durations. */
RK_TEST(merged, drifting_clocks_take_chained_starts_and_durations)
{
    annotation_case c;
    case_init(&c);
    add_vector(&c, REC_FIELD_TSTART);
    add_vector(&c, REC_FIELD_TEND);
    for (uint32_t k = 0; k < MEMBERS; k++) {
        *value(&c, 0, k) = 1000000 + 1000 * (int64_t)k + jitter(100);
        *value(&c, 1, k) = *value(&c, 0, k) + 3 + jitter(3);
    }
    const unsigned codes[] = {2, 3};
    size_t len = round_trip(&c, codes);
    /* 2 bytes a start (about 1000 apart), 1 a duration, and the set */
    CU_ASSERT(len <= 3 * MEMBERS + 16);
}

/* Times close to the first member's: the 1.0 form, which older readers read. */
RK_TEST(merged, close_times_keep_the_first_form)
{
    annotation_case c;
    case_init(&c);
    add_vector(&c, REC_FIELD_TSTART);
    add_vector(&c, 3); /* offset */
    for (uint32_t k = 0; k < MEMBERS; k++) {
        *value(&c, 0, k) = 5000 + jitter(50);
        *value(&c, 1, k) = k == 7 ? 1 : 0; /* one rank differs: every form costs a byte a member, ties keep the first */
    }
    const unsigned codes[] = {0, 0};
    round_trip(&c, codes);
}

/* An end-time vector with no start vector (durations would equal the
 * plain deltas), and arguments that count up: both chained. */
RK_TEST(merged, ends_without_starts_and_counting_arguments_chain)
{
    annotation_case c;
    case_init(&c);
    c.base.tstart = 777;
    add_vector(&c, 3); /* offset: uneven blocks, each rank's after the last */
    add_vector(&c, REC_FIELD_TEND);
    int64_t at = 0;
    for (uint32_t k = 0; k < MEMBERS; k++) {
        *value(&c, 0, k) = at;
        at += 1 << 20 | jitter(4096);
        *value(&c, 1, k) = 777 + 50 * (int64_t)k + jitter(5);
    }
    const unsigned codes[] = {2, 2};
    size_t len = round_trip(&c, codes);
    CU_ASSERT(len <= (4 + 1) * MEMBERS + 16); /* 4 bytes an offset (about 1 MB apart), 1 an end */
    CU_ASSERT_EQUAL(c.base.tstart, 777);
}

/* Deltas wrap at 64 bits in every form: extreme values round-trip. */
RK_TEST(merged, extreme_values_wrap_in_every_form)
{
    annotation_case c;
    case_init(&c);
    add_vector(&c, REC_FIELD_TSTART);
    add_vector(&c, REC_FIELD_TEND);
    add_vector(&c, 3);
    for (uint32_t k = 0; k < MEMBERS; k++) {
        *value(&c, 0, k) = k % 2 ? INT64_MAX - (int64_t)k : INT64_MIN + (int64_t)k;
        *value(&c, 1, k) = (int64_t)((uint64_t)*value(&c, 0, k) + 10);
        *value(&c, 2, k) = k % 3 ? INT64_MIN : INT64_MAX;
    }
    const unsigned codes[] = {0, 3, 0};
    round_trip(&c, codes);
}

/* The new forms where they mean nothing are errors, not guesses. */
RK_TEST(merged, new_forms_out_of_place_are_rejected)
{
    const rec_layout *lay = rec_table_layout(rec_table_builtin(), REC_ID_pwrite);
    rec_record base;
    memset(&base, 0, sizeof base);
    base.func = REC_ID_pwrite;
    struct {
        uint8_t bytes[16];
        size_t len;
        const char *why;
    } bad[] = {
        /* durations for an argument */
        {{1, 0, 2, 1, 1, 3, 3, 0, 0}, 9, "durations for a field that is not an end time, or after an affine start"},
        /* durations after an affine start (field 1000 = e8 07) */
        {{1, 0, 2, 1, 2, 0xe8, 0x07, 1, 2, 0, 0xe9, 0x07, 3, 0, 0}, 15,
         "durations for a field that is not an end time, or after an affine start"},
        /* relation 4 (an affine time) on an argument */
        {{1, 0, 2, 1, 1, 3, 4, 0, 0}, 9, "bad field or relation in a merge annotation"},
        /* relation 5 (affine arrays) on an integer argument */
        {{1, 0, 2, 1, 1, 3, 5, 1, 0, 0}, 10, "arrays over the ranks for a field that is not an array"},
        /* relation 6 */
        {{1, 0, 2, 1, 1, 3, 6, 0, 0}, 9, "bad field or relation in a merge annotation"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rec_merge_state s = {0};
        const char *why = NULL;
        CU_ASSERT_EQUAL(rec_merge_parse(&s, bad[i].bytes, bad[i].len, lay, &base, 4, 0, &why), -1);
        CU_ASSERT_STRING_EQUAL(why ? why : "", bad[i].why);
        rec_merge_state_free(&s);
    }
}

/* A start time on a line over the ranks (clocks started rank by rank) is the line, its b told against
 * the record's own start: a few bytes whatever the time, read back as the affine relation. */
RK_TEST(merged, affine_times_are_told_against_the_record)
{
    const rec_layout *lay = rec_table_layout(rec_table_builtin(), REC_ID_pwrite);
    rec_record base;
    memset(&base, 0, sizeof base);
    base.func = REC_ID_pwrite;
    base.tstart = 123456789012ull + 5 * 10; /* the set's first rank is 5 */
    base.tend = base.tstart + 4;
    rec_rank_range range = {5, 100, 1};
    rec_variation vars[2] = {{.field = REC_FIELD_TSTART, .relation = REC_REL_AFFINE, .a = 10, .b = 123456789012},
                             {.field = REC_FIELD_TEND, .relation = REC_REL_AFFINE, .a = 10, .b = 123456789016}};
    rec_merge_info mi = {.nranges = 1, .ranges = &range, .nranks = 100, .nvars = 2, .vars = vars};
    rec_buf b = {0};
    rec_merge_encode(&b, lay, &base, &mi);
    /* set (4 bytes), nvars, 2 x (field 2 bytes, relation 4, a, b - own - ... : 1 byte each) */
    CU_ASSERT_EQUAL(b.len, 5 + 2 * 5);
    CU_ASSERT_EQUAL(b.data[7], 4);
    rec_merge_state s = {0};
    const char *why = NULL;
    CU_ASSERT_EQUAL_FATAL(rec_merge_parse(&s, b.data, b.len, lay, &base, 200, 0, &why), 0);
    CU_ASSERT_EQUAL_FATAL(s.info.nvars, 2);
    for (int v = 0; v < 2; v++) {
        CU_ASSERT_EQUAL(s.info.vars[v].relation, REC_REL_AFFINE);
        CU_ASSERT_EQUAL(s.info.vars[v].a, 10);
        CU_ASSERT_EQUAL(s.info.vars[v].b, vars[v].b);
    }
    rec_merge_state_free(&s);
    free(b.data);
}

/* A hyperslab's start, rank * 4096, at 10,000 ranks: two numbers an element, not one array a rank; each
 * rank reads its own array back. An array off the line stays a vector. */
RK_TEST(merged, arrays_on_lines_over_the_ranks_are_stored_once)
{
    enum { N = 10000 };
    const rec_layout *lay = rec_table_layout(rec_table_builtin(), REC_ID_H5Sselect_hyperslab);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lay);
    static int64_t elems[N][2];
    static rec_value values[N];
    for (uint32_t k = 0; k < N; k++) {
        uint32_t rank = 2 * k + 1; /* odd ranks */
        elems[k][0] = 4096 * (int64_t)rank;
        elems[k][1] = 7 - 3 * (int64_t)rank;
        values[k] = (rec_value){.ptr = elems[k], .len = 2};
    }
    rec_record base;
    memset(&base, 0, sizeof base);
    base.func = REC_ID_H5Sselect_hyperslab;
    base.args[2] = values[0];
    rec_rank_range range = {1, N, 2};
    rec_variation var = {.field = 2, .relation = REC_REL_VECTOR, .values = values};
    rec_merge_info mi = {.nranges = 1, .ranges = &range, .nranks = N, .nvars = 1, .vars = &var};
    for (int off_line = 0; off_line < 2; off_line++) {
        if (off_line)
            elems[N - 1][1] += 1;
        rec_buf b = {0};
        rec_merge_encode(&b, lay, &base, &mi);
        CU_ASSERT_FATAL(!b.oom);
        CU_ASSERT(off_line ? b.len > 2 * N : b.len < 32);
        rec_merge_state s = {0};
        const char *why = NULL;
        CU_ASSERT_EQUAL_FATAL(rec_merge_parse(&s, b.data, b.len, lay, &base, 2 * N + 1, 0, &why), 0);
        CU_ASSERT_EQUAL_FATAL(s.info.nvars, 1);
        CU_ASSERT_EQUAL(s.info.vars[0].relation, REC_REL_VECTOR);
        int64_t got[2];
        uint32_t wrong = 0;
        for (uint32_t k = 0; k < N; k++) {
            wrong += rec_value_array(&s.info.vars[0].values[k], got, 2) != 2 || got[0] != elems[k][0] ||
                     got[1] != elems[k][1];
        }
        CU_ASSERT_EQUAL(wrong, 0);
        rec_merge_state_free(&s);
        free(b.data);
    }
}
