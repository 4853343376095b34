/* Unit tests of recorder-codegen's template engine: substitution, sections
 * over lists and flags, inverted sections, standalone tag lines, the
 * indentation of multi-line values, lookups through parent contexts, and
 * errors that name the template and the line; the spans of values go where
 * the values go. */
#include "rk_test.h"
#include "strbuf.h"
#include "template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[1024];

static void expect(const char *tmpl, const tpl_ctx *c, const char *want)
{
    char *got = tpl_render("t.tmpl", tmpl, c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

static void expect_error(const char *tmpl, const tpl_ctx *c, const char *want)
{
    err[0] = 0;
    char *got = tpl_render("t.tmpl", tmpl, c, err, sizeof err);
    CU_ASSERT_PTR_NULL(got);
    free(got);
    CU_ASSERT_STRING_EQUAL(err, want);
}

/* A new context holding one value. */
static tpl_ctx *context_with(const char *name, const char *value)
{
    tpl_ctx *c = tpl_new();
    tpl_set(c, name, value);
    return c;
}

RK_TEST(codegen_template, substitutes_values)
{
    tpl_ctx *c = context_with("name", "H5Dwrite");
    tpl_setf(c, "n", "%d", 42);
    expect("{{name}}(x, {{n}}); {{ name }}", c, "H5Dwrite(x, 42); H5Dwrite");
    tpl_set(c, "name", "H5Dread"); /* replaced, not added */
    expect("{{name}}", c, "H5Dread");
    expect("no tags at all\n", c, "no tags at all\n");
    tpl_free(c);
}

RK_TEST(codegen_template, sections_repeat_over_lists)
{
    tpl_ctx *c = context_with("sep", ";");
    const char *files[] = {"mpi.h", "hdf5.h", "stdio.h"};
    for (int i = 0; i < 3; i++)
        tpl_set(tpl_push(c, "includes"), "file", files[i]);
    /* items see their parents' values */
    expect("{{#includes}}<{{file}}>{{sep}}{{/includes}}", c, "<mpi.h>;<hdf5.h>;<stdio.h>;");
    tpl_free(c);
}

RK_TEST(codegen_template, flags_and_inverted_sections)
{
    tpl_ctx *c = tpl_new();
    tpl_flag(c, "on", 1);
    tpl_flag(c, "off", 0);
    tpl_set(c, "empty", "");
    expect("{{#on}}A{{/on}}{{#off}}B{{/off}}{{#missing}}C{{/missing}}{{#empty}}D{{/empty}}", c, "A");
    expect("{{^on}}A{{/on}}{{^off}}B{{/off}}{{^missing}}C{{/missing}}{{^list}}E{{/list}}", c, "BCE");
    tpl_push(c, "list");
    expect("{{^list}}E{{/list}}{{#list}}F{{/list}}", c, "F");
    tpl_free(c);
}

RK_TEST(codegen_template, standalone_tags_take_their_line)
{
    tpl_ctx *c = tpl_new();
    tpl_flag(c, "on", 1);
    expect("a\n{{! a comment }}\n  {{#on}}\nb\n  {{/on}}\n{{#off}}\nc\n{{/off}}\nd\n", c, "a\nb\nd\n");
    /* a tag sharing its line with text keeps the line */
    expect("x {{#on}}y{{/on}}\n", c, "x y\n");
    tpl_free(c);
}

RK_TEST(codegen_template, multiline_values_keep_indentation)
{
    tpl_ctx *c = context_with("body", "f();\n\ng();\nh();");
    expect("{\n    {{body}}\n}\n", c, "{\n    f();\n\n    g();\n    h();\n}\n");
    /* after other text on the line: no indentation is added */
    expect("x = {{body}}", c, "x = f();\n\ng();\nh();");
    tpl_free(c);
}

RK_TEST(codegen_template, nested_sections)
{
    tpl_ctx *c = tpl_new();
    for (int i = 0; i < 2; i++) {
        tpl_ctx *loop = tpl_push(c, "loops");
        tpl_setf(loop, "v", "%c", 'i' + i);
        for (int j = 0; j < 2; j++)
            tpl_setf(tpl_push(loop, "calls"), "f", "f%d", j);
    }
    expect("{{#loops}}[{{#calls}}{{v}}:{{f}} {{/calls}}]{{/loops}}", c, "[i:f0 i:f1 ][j:f0 j:f1 ]");
    tpl_free(c);
}

RK_TEST(codegen_template, errors_name_template_and_line)
{
    tpl_ctx *c = tpl_new();
    expect_error("a\nb {{nothing}}", c, "t.tmpl line 2: no value for {{nothing}}");
    expect_error("x\n{{#open}}\ny", c, "t.tmpl line 2: section {{#open}} is never closed");
    expect_error("{{#a}}{{/b}}", c, "t.tmpl line 1: {{/b}} closes no open section");
    expect_error("\n\n{{oops", c, "t.tmpl line 3: unterminated tag");
    expect_error("{{}}", c, "t.tmpl line 1: empty tag");
    tpl_push(c, "items");
    expect_error("{{items}}", c, "t.tmpl line 1: no value for {{items}}"); /* a list is not a value */
    tpl_free(c);
}

/* Hardening: a template of a few hundred bytes could ask for 2^40 section
 * repetitions (fuzz_template), and for the output of each; rendering stops
 * with an error at template.h's limits instead. */
RK_TEST(codegen_template, nested_sections_stop_at_the_step_limit)
{
    tpl_ctx *c = tpl_new();
    tpl_push(c, "a");
    tpl_push(c, "a");
    sb t = {0};
    for (int i = 0; i < 40; i++)
        sb_puts(&t, "{{#a}}");
    sb_puts(&t, "x");
    for (int i = 0; i < 40; i++)
        sb_puts(&t, "{{/a}}");
    /* allowed: TPL_MAX_STEPS, and more for the template's 481 bytes and the
     * context's entry and 2 items */
    char want[128];
    snprintf(want, sizeof want,
             "t.tmpl line 1: rendering stopped after %d steps (sections nested over lists multiply)",
             TPL_MAX_STEPS + (481 + 3) * TPL_STEPS_PER_INPUT);
    expect_error(sb_str(&t), c, want);
    sb_free(&t);
    tpl_free(c);
}

RK_TEST(codegen_template, repeated_output_stops_at_the_output_limit)
{
    char *mib = malloc((1 << 20) + 1);
    memset(mib, 'v', 1 << 20);
    mib[1 << 20] = 0;
    tpl_ctx *c = context_with("v", mib);
    free(mib);
    tpl_push(c, "a");
    tpl_push(c, "a");
    /* 2^7 MiB asked for; allowed: TPL_MAX_OUTPUT, the 1 MiB value once and
     * the template's length for each of 2 entries and 2 items */
    const char *t =
        "{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}{{#a}}\n{{v}}{{/a}}{{/a}}{{/a}}{{/a}}{{/a}}{{/a}}{{/a}}";
    char want[128];
    snprintf(want, sizeof want, "t.tmpl line 2: rendering stopped at %zu bytes of output",
             TPL_MAX_OUTPUT + (1 << 20) + 4 * strlen(t));
    expect_error(t, c, want);
    tpl_free(c);
}

/* A kernel's body is one value: rendered once, indented, it may be larger
 * than TPL_MAX_OUTPUT (recorder-codegen --no-loops on tracer.ten_million:
 * 280 MB). */
RK_TEST(codegen_template, a_value_larger_than_the_output_limit_goes_through_once)
{
    size_t lines = TPL_MAX_OUTPUT / 8 + 1, n = 3 * lines;
    char *body = malloc(n + 1);
    for (size_t i = 0; i < lines; i++)
        memcpy(body + 3 * i, "f;\n", 3);
    body[n - 1] = 0; /* no newline at the end */
    tpl_ctx *c = context_with("body", body);
    free(body);
    char *got = tpl_render("t.tmpl", "{\n        {{body}}\n}\n", c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    size_t len = strlen(got);
    CU_ASSERT_EQUAL(len, 11 * lines + 4);
    CU_ASSERT(len > TPL_MAX_OUTPUT);
    CU_ASSERT_NSTRING_EQUAL(got, "{\n        f;\n        f;\n", 24);
    CU_ASSERT_STRING_EQUAL(got + len - 24, "        f;\n        f;\n}\n");
    free(got);
    tpl_free(c);
}

/* Parsing is linear: on a 6 MB line of 10^6 tags, every tag looked for the
 * start of its line from where it stood (10^12 steps: over the test's
 * timeout). Half the tags are kids of the root, which doubles its room. */
RK_TEST(codegen_template, one_long_line_of_tags_parses_in_linear_time)
{
    enum { BLANKS = 1000000, TAGS = 500000 };
    tpl_ctx *c = context_with("v", "x");
    sb t = {0};
    for (int i = 0; i < BLANKS; i++)
        sb_putc(&t, ' ');
    for (int i = 0; i < TAGS; i++)
        sb_puts(&t, "{{v}}{{!}}");
    char *got = tpl_render("t.tmpl", sb_str(&t), c, err, sizeof err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(got);
    CU_ASSERT_EQUAL(strlen(got), (size_t)BLANKS + TAGS);
    CU_ASSERT_EQUAL(strspn(got, " "), (size_t)BLANKS);
    CU_ASSERT_EQUAL(strspn(got + BLANKS, "x"), (size_t)TAGS);
    free(got);
    sb_free(&t);
    tpl_free(c);
}

RK_TEST(codegen_template, spans_follow_their_values_through_indents)
{
    /* "x = 1;\ny = 2;" with its literals tagged 7 and 8, indented by 4, twice */
    sb v = {0};
    sb_puts(&v, "x = 1;\ny = ");
    sb_add_span(&v, 4, 1, 7);
    sb_puts(&v, "2");
    sb_tag(&v, v.len - 1, 8);
    sb_puts(&v, ";");
    tpl_ctx *c = tpl_new();
    tpl_set_sb(c, "body", &v);
    sb out = {0};
    sb_puts(&out, "// ");
    CU_ASSERT_EQUAL_FATAL(tpl_render_sb("t.tmpl", "{\n    {{body}}\n}\n{{body}}", c, &out, err, sizeof err),
                          0);
    CU_ASSERT_STRING_EQUAL(sb_str(&out), "// {\n    x = 1;\n    y = 2;\n}\nx = 1;\ny = 2;");
    CU_ASSERT_EQUAL_FATAL(out.nspans, 4);
    for (size_t i = 0; i < out.nspans; i++) {
        CU_ASSERT_EQUAL(out.spans[i].len, 1);
        CU_ASSERT_EQUAL(out.s[out.spans[i].at], out.spans[i].tag == 7 ? '1' : '2');
    }
    tpl_free(c);
    sb_free(&v);
    sb_free(&out);
}
