/* fuzz_template: recorder-codegen's template engine (codegen/template.c).
 * Input: a context, a NUL byte, then the template text:
 *
 *   input   := context '\0' text
 *   context := line*, one construct a line ('\n'):
 *     key=value   sets a string (the escapes \n and \\ in value)
 *     key?        a flag, on   (tpl_flag)       key!  the same, off
 *     key[        pushes an item on the list key and enters it
 *     ]           leaves the item (ignored at the top)
 *
 * The text is rendered with the context (tpl_render); then, chosen by the
 * text's length, one of the built-in templates is rendered with the same
 * context, as recorder-codegen does with a context of its own. Oracles:
 * text without "{{" renders to itself; an error names the template.
 * Without a NUL byte the whole input is the text, with an empty context. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "template.h"

static const char *const builtin[] = {"kernel.c.tmpl",   "header.tmpl",   "loop.tmpl",       "guard.tmpl",
                                      "section.tmpl",    "table.tmpl",    "call_posix.tmpl", "call_mpi.tmpl",
                                      "call_mpiio.tmpl", "call_hdf5.tmpl"};

static char *copy(const uint8_t *p, size_t n)
{
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

/* Builds the context tree from the spec (NUL-free, NUL-terminated). */
static void build(tpl_ctx *root, char *spec)
{
    enum { MAX_DEPTH = 32 };
    tpl_ctx *stack[MAX_DEPTH];
    int depth = 0;
    stack[0] = root;
    for (char *line = spec, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        size_t n = strlen(line);
        if (n == 0)
            continue;
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = 0;
            char *v = eq + 1, *w = v;
            for (char *r = v; *r; r++) {
                if (*r == '\\' && (r[1] == 'n' || r[1] == '\\')) {
                    *w++ = r[1] == 'n' ? '\n' : '\\';
                    r++;
                } else {
                    *w++ = *r;
                }
            }
            *w = 0;
            tpl_set(stack[depth], line, v);
        } else if (!strcmp(line, "]")) {
            if (depth > 0)
                depth--;
        } else if (line[n - 1] == '?' || line[n - 1] == '!') {
            int on = line[n - 1] == '?';
            line[n - 1] = 0;
            tpl_flag(stack[depth], line, on);
        } else if (line[n - 1] == '[') {
            line[n - 1] = 0;
            tpl_ctx *item = tpl_push(stack[depth], line);
            if (depth + 1 < MAX_DEPTH)
                stack[++depth] = item;
        }
    }
}

static void check_render(const char *name, const char *text, const tpl_ctx *c)
{
    char err[512] = "";
    char *out = tpl_render(name, text, c, err, sizeof err);
    if (!out && strncmp(err, name, strlen(name))) {
        fprintf(stderr, "fuzz_template: the error \"%s\" does not name %s\n", err, name);
        abort();
    }
    if (!strstr(text, "{{") && (!out || strcmp(out, text))) {
        fprintf(stderr, "fuzz_template: text without tags did not render to itself (%s)\n",
                out ? "changed" : err);
        abort();
    }
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "%s: %s\n", name, out ? "rendered" : err);
    free(out);
}

/* ASan's strstr checks the whole haystack at each call: the parser's
 * search for the next tag would cost a template's length per tag. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "intercept_strstr=0";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t speclen = nul ? (size_t)(nul - data) : 0;
    const uint8_t *text = nul ? nul + 1 : data;
    char *spec = copy(data, speclen), *tmpl = copy(text, size - (size_t)(text - data));
    tpl_ctx *c = tpl_new();
    build(c, spec);
    check_render("fuzz.tmpl", tmpl, c);
    char err[256];
    const char *bname = builtin[strlen(tmpl) % (sizeof builtin / sizeof *builtin)];
    char *bt = cg_template(NULL, bname, err, sizeof err);
    if (!bt) {
        fprintf(stderr, "fuzz_template: %s\n", err);
        abort();
    }
    check_render(bname, bt, c);
    free(bt);
    tpl_free(c);
    free(spec);
    free(tmpl);
    return 0;
}
