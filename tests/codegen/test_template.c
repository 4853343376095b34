/* Unit tests of recorder-codegen's template engine: substitution, sections
 * over lists and flags, inverted sections, standalone tag lines, the
 * indentation of multi-line values, lookups through parent contexts, and
 * errors that name the template and the line. */
#include "rk_test.h"
#include "template.h"

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

RK_TEST(codegen_template, substitutes_values)
{
    tpl_ctx *c = tpl_new();
    tpl_set(c, "name", "H5Dwrite");
    tpl_setf(c, "n", "%d", 42);
    expect("{{name}}(x, {{n}}); {{ name }}", c, "H5Dwrite(x, 42); H5Dwrite");
    tpl_set(c, "name", "H5Dread"); /* replaced, not added */
    expect("{{name}}", c, "H5Dread");
    expect("no tags at all\n", c, "no tags at all\n");
    tpl_free(c);
}

RK_TEST(codegen_template, sections_repeat_over_lists)
{
    tpl_ctx *c = tpl_new();
    tpl_set(c, "sep", ";");
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
    tpl_ctx *c = tpl_new();
    tpl_set(c, "body", "f();\n\ng();\nh();");
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
