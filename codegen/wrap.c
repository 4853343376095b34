/* wrap.c: lines longer than the column limit broken the way clang-format
 * (the repository's .clang-format: LLVM style, 110 columns) breaks them:
 * the arguments of the outermost call or braced list are packed onto as
 * few lines as possible, continuation lines aligned one column after the
 * opening bracket. Comments and string literals are never split. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

/* The position of the bracket whose arguments get packed: the first '(' or
 * '{' whose match closes near the end of the line. */
static int find_open(const char *line, size_t n, size_t *open, size_t *close)
{
    int in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char c = line[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (c == '"') {
            in_str = 1;
            continue;
        }
        if (c != '(' && c != '{')
            continue;
        /* its match */
        int depth = 0, s = 0;
        size_t j;
        for (j = i; j < n; j++) {
            char d = line[j];
            if (s) {
                if (d == '\\')
                    j++;
                else if (d == '"')
                    s = 0;
                continue;
            }
            if (d == '"')
                s = 1;
            else if (d == '(' || d == '{' || d == '[')
                depth++;
            else if ((d == ')' || d == '}' || d == ']') && --depth == 0)
                break;
        }
        if (j < n && n - j <= 3) { /* ");" or "};" or ")" */
            *open = i;
            *close = j;
            return 0;
        }
    }
    return -1;
}

/* Splits line[open+1 .. close) at the commas of depth 1. */
static size_t split_args(const char *line, size_t open, size_t close, size_t *starts, size_t *ends,
                         size_t cap)
{
    size_t n = 0, start = open + 1;
    int depth = 0, in_str = 0;
    for (size_t i = open + 1; i <= close && n < cap; i++) {
        char c = line[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '(' || c == '{' || c == '[')
            depth++;
        else if ((c == ')' || c == '}' || c == ']') && depth > 0)
            depth--;
        else if ((c == ',' && depth == 0) || i == close) {
            while (line[start] == ' ')
                start++;
            starts[n] = start;
            ends[n++] = i;
            start = i + 1;
        }
    }
    return n;
}

/* line (n bytes, its outermost call or list at open..close) with the
 * arguments packed after the bracket; returns the line breaks it took. */
static unsigned pack(const char *line, size_t n, size_t open, size_t close, unsigned limit, sb *out)
{
    enum { MAX_ARGS = 4096 };
    size_t *starts = cg_alloc(MAX_ARGS * sizeof *starts), *ends = cg_alloc(MAX_ARGS * sizeof *ends);
    size_t nargs = split_args(line, open, close, starts, ends, MAX_ARGS);
    size_t col = open + 1, cur = col;
    unsigned breaks = 0;
    sb_putn(out, line, open + 1);
    for (size_t a = 0; a < nargs; a++) {
        size_t len = ends[a] - starts[a];
        /* what must follow on the same line: "," or the closing tail */
        size_t tail = a + 1 < nargs ? 1 : n - close;
        if (a > 0) {
            if (cur + 1 + len + tail <= limit) {
                sb_putc(out, ' ');
                cur++;
            } else {
                sb_putc(out, '\n');
                for (size_t s = 0; s < col; s++)
                    sb_putc(out, ' ');
                cur = col;
                breaks++;
            }
        }
        sb_putn(out, line + starts[a], len);
        cur += len;
        if (a + 1 < nargs) {
            sb_putc(out, ',');
            cur++;
        }
    }
    sb_putn(out, line + close, n - close);
    free(starts);
    free(ends);
    return breaks;
}

static void wrap_line(const char *line, size_t n, unsigned limit, sb *out)
{
    size_t open, close;
    if (n <= limit || find_open(line, n, &open, &close) != 0) {
        sb_putn(out, line, n);
        return;
    }
    sb aligned = {0};
    unsigned breaks = pack(line, n, open, close, limit, &aligned);
    /* "lhs = call(...);": clang-format breaks after the '=' instead when that
     * takes no more line breaks (the call then starts 4 columns in). */
    size_t indent = strspn(line, " ");
    const char *eq = strstr(line, " = ");
    if (eq && (size_t)(eq - line) < open && !memchr(line, '"', (size_t)(eq - line))) {
        sb rhs = {0};
        for (size_t s = 0; s < indent + 4; s++)
            sb_putc(&rhs, ' ');
        size_t skip = (size_t)(eq + 3 - line);
        sb_putn(&rhs, eq + 3, n - skip);
        sb moved = {0};
        unsigned b = rhs.len <= limit ? 0
                                      : pack(rhs.s, rhs.len, open - skip + indent + 4,
                                             close - skip + indent + 4, limit, &moved);
        if (1 + b <= breaks) {
            sb_putn(out, line, (size_t)(eq - line) + 2);
            sb_putc(out, '\n');
            sb_puts(out, rhs.len <= limit ? sb_str(&rhs) : sb_str(&moved));
            sb_free(&rhs);
            sb_free(&moved);
            sb_free(&aligned);
            return;
        }
        sb_free(&rhs);
        sb_free(&moved);
    }
    sb_puts(out, sb_str(&aligned));
    sb_free(&aligned);
}

char *cg_wrap_lines(const char *text, unsigned limit)
{
    sb out = {0};
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        wrap_line(p, n, limit, &out);
        if (nl)
            sb_putc(&out, '\n');
        p += n + (nl ? 1 : 0);
    }
    return sb_take(&out);
}
