/* wrap.c: lines longer than the column limit broken the way clang-format
 * (the repository's .clang-format: LLVM style, 110 columns) breaks them.
 * A statement's outermost call or braced list and, where an argument does
 * not fit, the call or list that argument ends with, have their arguments
 * packed onto as few lines as possible, aligned one column after the
 * opening bracket, or all on lines after it, 4 columns in from where the
 * call starts; the statement may also break after its '='. Among these
 * layouts the one clang-format's penalties rank first is taken: a line
 * break costs more the deeper its brackets, a first break inside a bracket
 * 15 more, and a character past the limit most of all. An argument that
 * starts after a comma on the same line is not broken inside, and after an
 * argument broken inside the next one starts a line (clang-format's rules).
 * Comments are never split, nor string literals but for a line that is
 * one (a table's entry): clang-format splits it after the last blank that
 * fits, else after the last '/' (split_literal_line). */
#include "emit.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned long long cost_t;

/* clang-format's LLVM penalties. */
enum {
    EXCESS = 1000000,      /* a character past the limit */
    FIRST_BREAK = 15,      /* the first line break inside a bracket */
    BREAK_COMMA = 1,       /* after a comma */
    BREAK_OPEN = 19,       /* after an opening bracket */
    BREAK_ASSIGN = 2,      /* after '=' */
    BREAK_NAME_STRING = 3, /* between a name and a string literal */
    PER_STRENGTH = 20,     /* each level of brackets around the break */
    MAX_ARGS = 4096
};

typedef struct wctx {
    const char *s;
    unsigned limit;
} wctx;

static int opens(char c)
{
    return c == '(' || c == '{' || c == '[';
}

static int closes(char c)
{
    return c == ')' || c == '}' || c == ']';
}

/* The index past the string or character literal that starts at i. */
static size_t skip_literal(const char *s, size_t n, size_t i)
{
    char q = s[i];
    for (i++; i < n && s[i] != q; i++)
        if (s[i] == '\\')
            i++;
    return i < n ? i + 1 : n;
}

/* The match of the bracket at open, or n. */
static size_t match(const char *s, size_t n, size_t open)
{
    int depth = 0;
    for (size_t i = open; i < n;) {
        if (s[i] == '"' || s[i] == '\'') {
            i = skip_literal(s, n, i);
            continue;
        }
        if (opens(s[i]))
            depth++;
        else if (closes(s[i]) && --depth == 0)
            return i;
        i++;
    }
    return n;
}

/* The first '(' or '{' whose match closes near the end of the line (");",
 * "};", ")"), the call or list a statement's line is broken in. */
static int find_open(const char *line, size_t n, size_t *open, size_t *close)
{
    for (size_t i = 0; i < n;) {
        if (line[i] == '"' || line[i] == '\'') {
            i = skip_literal(line, n, i);
            continue;
        }
        if (line[i] == '(' || line[i] == '{') {
            size_t j = match(line, n, i);
            if (j < n && n - j <= 3) {
                *open = i;
                *close = j;
                return 0;
            }
        }
        i++;
    }
    return -1;
}

/* The bracket that opens the group s[start, end) ends with, if it ends with one. */
static int last_group(const char *s, size_t start, size_t end, size_t *open)
{
    if (end <= start || (s[end - 1] != ')' && s[end - 1] != '}'))
        return -1;
    for (size_t i = start; i < end;) {
        if (s[i] == '"' || s[i] == '\'') {
            i = skip_literal(s, end, i);
            continue;
        }
        if (opens(s[i])) {
            size_t j = match(s, end, i);
            if (j == end - 1) {
                *open = i;
                return 0;
            }
            i = j;
        }
        i++;
    }
    return -1;
}

/* Splits line[open+1 .. close) at the commas of depth 1. */
static size_t split_args(const char *line, size_t open, size_t close, size_t *starts, size_t *ends,
                         size_t cap)
{
    size_t n = 0, start = open + 1;
    for (size_t i = open + 1; i <= close && n < cap;) {
        char c = line[i];
        if (i < close && (c == '"' || c == '\'')) {
            i = skip_literal(line, close, i);
            continue;
        }
        if (i < close && opens(c)) {
            i = match(line, close, i) + 1;
            continue;
        }
        if (c == ',' || i == close) {
            while (start < i && line[start] == ' ')
                start++;
            starts[n] = start;
            ends[n++] = i;
            start = i + 1;
        }
        i++;
    }
    return n;
}

static cost_t excess(const wctx *c, size_t col)
{
    return col > c->limit ? (cost_t)(col - c->limit) * EXCESS : 0;
}

static void newline(sb *out, size_t col)
{
    sb_putc(out, '\n');
    for (size_t s = 0; s < col; s++)
        sb_putc(out, ' ');
}

static cost_t group(const wctx *c, size_t open, size_t close, size_t col, size_t lastspace, unsigned strength,
                    size_t after, sb *out, size_t *end);

/* The length of the identifier at s[i] followed by one space and a string literal ("ROOT \"..."), or 0. */
static size_t name_before_string(const char *s, size_t start, size_t end)
{
    size_t i = start;
    while (i < end && (s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
                       (i > start && s[i] >= '0' && s[i] <= '9')))
        i++;
    return i > start && i + 1 < end && s[i] == ' ' && s[i + 1] == '"' ? i - start : 0;
}

/* One level of brackets being packed. clang-format keeps two: the
 * bracket's, broken after the bracket (or inside its only argument), and,
 * with two arguments or more, their list's, broken at a comma or inside an
 * argument; the first break of each costs FIRST_BREAK more. */
typedef struct level {
    size_t indent;    /* the column its continuation lines start at */
    size_t lastspace; /* clang-format's LastSpace: a nested call broken after its bracket indents 4 from it */
    unsigned strength;
    int list; /* two arguments or more */
    int open_broken, list_broken;
} level;

static cost_t break_cost(level *l, unsigned penalty, int after_open)
{
    int *broken = after_open || !l->list ? &l->open_broken : &l->list_broken;
    cost_t cost = (*broken ? 0 : FIRST_BREAK) + penalty + PER_STRENGTH * l->strength;
    *broken = 1;
    return cost;
}

/* The argument s[start, end) from column col, after columns of text to
 * follow it on its last line: whole, broken inside the call or list it
 * ends with, or between a name and the string literal it starts with
 * (ROOT "..."), whichever costs less. *broke says whether it took a line
 * break, after which clang-format breaks before the next argument. */
static cost_t argument(const wctx *c, level *l, size_t start, size_t end, size_t col, size_t after, sb *out,
                       size_t *end_col, int *broke)
{
    size_t len = end - start, open, name = name_before_string(c->s, start, end), inner_end = 0;
    cost_t flat = excess(c, col + len + after), best = flat;
    sb inner = {0}, split = {0};
    level ls = *l;
    if (flat && last_group(c->s, start, end, &open) == 0) {
        size_t head = open + 1 - start;
        sb_putn(&inner, c->s + start, head);
        cost_t g = excess(c, col + head) + group(c, open, end - 1, col + head, l->lastspace, l->strength + 1,
                                                 after, &inner, &inner_end);
        if (memchr(inner.s, '\n', inner.len) && g < best)
            best = g;
    }
    cost_t b = flat;
    if (flat && name) {
        sb_putn(&split, c->s + start, name);
        newline(&split, l->indent);
        sb_putn(&split, c->s + start + name + 1, len - name - 1);
        b = break_cost(&ls, BREAK_NAME_STRING, 0) + excess(c, col + name) +
            excess(c, l->indent + len - name - 1 + after);
    }
    *broke = best < flat || b < flat;
    if (b < best) {
        best = b;
        *l = ls;
        sb_append(out, &split);
        *end_col = l->indent + len - name - 1;
    } else if (best < flat) {
        sb_append(out, &inner);
        *end_col = inner_end;
    } else {
        sb_putn(out, c->s + start, len);
        *end_col = col + len;
    }
    sb_free(&inner);
    sb_free(&split);
    return best;
}

/* The arguments of open..close and the closing bracket, the first at
 * column first (its line already started), the others packed. */
static cost_t pack(const wctx *c, level *l, size_t open, size_t close, size_t first, size_t after, sb *out,
                   size_t *end_col)
{
    size_t *starts = cg_alloc(MAX_ARGS * sizeof *starts), *ends = cg_alloc(MAX_ARGS * sizeof *ends);
    size_t nargs = close > open + 1 ? split_args(c->s, open, close, starts, ends, MAX_ARGS) : 0;
    size_t cur = first;
    cost_t cost = 0;
    int was_broken = 0;
    l->list = nargs > 1;
    if (l->list) /* the list's level starts at its first argument */
        l->lastspace = first;
    for (size_t a = 0; a < nargs; a++) {
        size_t len = ends[a] - starts[a];
        size_t tail = a + 1 < nargs ? 1 : 1 + after; /* "," or the closing bracket and what follows it */
        if (a > 0) {
            if (!was_broken && cur + 1 + len + tail <= c->limit) {
                sb_putc(out, ' ');
                cur++;
            } else {
                newline(out, l->indent);
                cost += break_cost(l, BREAK_COMMA, 0);
                cur = l->indent;
            }
            l->lastspace = cur; /* an argument after a comma or a line break */
        }
        cost += argument(c, l, starts[a], ends[a], cur, tail, out, &cur, &was_broken);
        if (a + 1 < nargs) {
            sb_putc(out, ',');
            cur++;
        }
    }
    sb_putc(out, c->s[close]);
    *end_col = cur + 1;
    free(starts);
    free(ends);
    return cost;
}

/* The arguments of open..close, the bracket written, its next column col,
 * either after it or all on lines 4 columns in from lastspace (the
 * enclosing level's), whichever costs less; strength: their brackets' depth + 1. */
static cost_t group(const wctx *c, size_t open, size_t close, size_t col, size_t lastspace, unsigned strength,
                    size_t after, sb *out, size_t *end)
{
    sb aligned = {0}, below = {0};
    size_t end_a, end_b = 0;
    level la = {col, lastspace, strength, 0, 0, 0}, lb = {lastspace + 4, lastspace + 4, strength, 0, 0, 0};
    cost_t a = pack(c, &la, open, close, col, after, &aligned, &end_a);
    cost_t b = EXCESS * (cost_t)c->limit;
    if (close > open + 1 && a > 0) {
        newline(&below, lb.indent);
        b = break_cost(&lb, BREAK_OPEN, 1) + pack(c, &lb, open, close, lb.indent, after, &below, &end_b);
    }
    int take_b = b < a;
    sb_append(out, take_b ? &below : &aligned);
    *end = take_b ? end_b : end_a;
    sb_free(&aligned);
    sb_free(&below);
    return take_b ? b : a;
}

/* A line that is a string literal and closing punctuation (a table's
 * entry), too long: the literal split as clang-format splits one, after the
 * last blank that fits, else after the last '/', else at the limit, its
 * parts on lines of the line's indent. 0 where the line is of another form. */
static int split_literal_line(const char *line, size_t n, unsigned limit, sb *out)
{
    size_t q = strspn(line, " ");
    if (q >= n || line[q] != '"' || q + 16 > limit)
        return 0;
    size_t end = skip_literal(line, n, q);
    if (end > n || line[end - 1] != '"' || end == q + 1 || strspn(line + end, ",;)}") != n - end)
        return 0;
    const char *text = line + q + 1;
    size_t len = end - q - 2, tail = n - end;
    while (q + 2 + len + tail > limit) {
        size_t max = limit - q - 2, k = 0, slash = 0; /* content columns a part may take */
        for (size_t i = 0; i < max && i + 1 < len; i++) {
            if (text[i] == ' ')
                k = i + 1;
            if (text[i] == '/')
                slash = i + 1;
        }
        if (!k)
            k = slash;
        if (!k || k >= len) {
            k = max < len ? max : len;
            if (k > 1 && text[k - 1] == '\\') /* never inside an escape */
                k--;
        }
        if (k >= len)
            break;
        sb_putn(out, line, q + 1);
        sb_putn(out, text, k);
        sb_puts(out, "\"\n");
        text += k, len -= k;
    }
    sb_putn(out, line, q + 1);
    sb_putn(out, text, len);
    sb_putn(out, line + end - 1, tail + 1);
    return 1;
}

static void wrap_line(const char *line, size_t n, unsigned limit, sb *out)
{
    size_t open, close, end;
    if (n > limit && split_literal_line(line, n, limit, out))
        return;
    if (n <= limit || find_open(line, n, &open, &close) != 0) {
        sb_putn(out, line, n);
        return;
    }
    wctx c = {line, limit};
    size_t indent = strspn(line, " "), after = n - close - 1;
    sb kept = {0};
    sb_putn(&kept, line, open + 1);
    cost_t cost = excess(&c, open + 1) + group(&c, open, close, open + 1, indent, 2, after, &kept, &end);
    sb_putn(&kept, line + close + 1, after);
    /* "lhs = call(...);" may break after the '=' instead, the call 4 columns in */
    const char *eq = strstr(line, " = ");
    size_t skip = eq ? (size_t)(eq + 3 - line) : 0;
    if (eq && skip <= open && !memchr(line, '"', skip)) {
        sb moved = {0};
        sb_putn(&moved, line, skip - 1);
        newline(&moved, indent + 4);
        size_t col = indent + 4 + (open + 1 - skip);
        sb_putn(&moved, line + skip, open + 1 - skip);
        cost_t m = FIRST_BREAK + BREAK_ASSIGN + PER_STRENGTH;
        if (indent + 4 + n - skip > limit)
            m += excess(&c, col) + group(&c, open, close, col, indent + 4, 2, after, &moved, &end);
        else
            sb_putn(&moved, line + open + 1, close - open);
        sb_putn(&moved, line + close + 1, after);
        if (m < cost) {
            sb_free(&kept);
            kept = moved;
        } else {
            sb_free(&moved);
        }
    }
    sb_append(out, &kept);
    sb_free(&kept);
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
