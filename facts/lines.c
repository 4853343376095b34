/* lines.c: where the delimiters of a file lay, from what its line-oriented
 * reads returned (see rf_lines_note), and the text that puts them back. */
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct line_file {
    int64_t *at; /* sorted, distinct once finished */
    size_t n, cap;
    int delim;
    char *key; /* the path, when known */
} line_file;

typedef struct key_entry {
    UT_hash_handle hh;
    uint32_t file;
    char key[];
} key_entry;

struct rf_lines {
    line_file *file;
    size_t nfiles;
    key_entry *keys;
};

static void *grow(void *p, size_t n, size_t size)
{
    p = realloc(p, n * size);
    if (!p) {
        fprintf(stderr, "recorder: out of memory\n");
        abort();
    }
    return p;
}

rf_lines *rf_lines_new(void)
{
    rf_lines *l = calloc(1, sizeof *l);
    if (!l) {
        fprintf(stderr, "recorder: out of memory\n");
        abort();
    }
    return l;
}

void rf_lines_free(rf_lines *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->nfiles; i++) {
        free(l->file[i].at);
        free(l->file[i].key);
    }
    key_entry *k, *tmp;
    HASH_ITER(hh, l->keys, k, tmp)
    {
        HASH_DEL(l->keys, k);
        free(k);
    }
    free(l->file);
    free(l);
}

static line_file *file_of(rf_lines *l, uint32_t file)
{
    if (file >= l->nfiles) {
        size_t n = (size_t)file + 1 > 2 * l->nfiles ? (size_t)file + 1 : 2 * l->nfiles;
        l->file = grow(l->file, n, sizeof *l->file);
        memset(l->file + l->nfiles, 0, (n - l->nfiles) * sizeof *l->file);
        for (size_t i = l->nfiles; i < n; i++)
            l->file[i].delim = -1;
        l->nfiles = n;
    }
    return &l->file[file];
}

void rf_lines_note(rf_lines *l, uint32_t file, int64_t offset, int64_t got, int64_t limit, int delim)
{
    /* a read that filled its buffer stopped at the limit, wherever the line ends */
    if (got <= 0 || offset < 0 || (limit > 0 && got >= limit - 1))
        return;
    line_file *f = file_of(l, file);
    if (f->delim < 0)
        f->delim = delim;
    if (delim != f->delim) /* one delimiter a file: text split two ways is not rebuilt */
        return;
    int64_t at = offset + got - 1;
    if (f->n && f->at[f->n - 1] == at)
        return;
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->at = grow(f->at, f->cap, sizeof *f->at);
    }
    f->at[f->n++] = at;
}

static int by_value(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

void rf_lines_finish(rf_lines *l)
{
    for (size_t i = 0; i < l->nfiles; i++) {
        line_file *f = &l->file[i];
        if (f->n > 1) /* never qsort a NULL array */
            qsort(f->at, f->n, sizeof *f->at, by_value);
        size_t kept = 0;
        for (size_t k = 0; k < f->n; k++)
            if (!kept || f->at[k] != f->at[kept - 1])
                f->at[kept++] = f->at[k];
        f->n = kept;
    }
}

void rf_lines_set_key(rf_lines *l, uint32_t file, const char *key)
{
    line_file *f = file_of(l, file);
    if (f->key)
        return;
    size_t n = strlen(key) + 1;
    f->key = grow(NULL, n, 1);
    memcpy(f->key, key, n);
    key_entry *k = grow(NULL, 1, sizeof *k + n);
    k->file = file;
    memcpy(k->key, key, n);
    HASH_ADD_STR(l->keys, key, k);
}

int rf_lines_find(const rf_lines *l, const char *key, uint32_t *file)
{
    key_entry *k = NULL;
    if (l)
        HASH_FIND_STR(l->keys, key, k);
    if (k)
        *file = k->file;
    return k != NULL;
}

size_t rf_lines_count(const rf_lines *l)
{
    return l ? l->nfiles : 0;
}

const char *rf_lines_key(const rf_lines *l, uint32_t file)
{
    return l && file < l->nfiles ? l->file[file].key : NULL;
}

int rf_lines_delim(const rf_lines *l, uint32_t file)
{
    return l && file < l->nfiles && l->file[file].n ? l->file[file].delim : -1;
}

size_t rf_lines_in(const rf_lines *l, uint32_t file, int64_t offset, int64_t n, const int64_t **at)
{
    *at = NULL;
    if (!l || file >= l->nfiles || n <= 0)
        return 0;
    const line_file *f = &l->file[file];
    size_t lo = 0, hi = f->n; /* the first mark at or after offset */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->at[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < f->n && f->at[end] < offset + n)
        end++;
    *at = f->at + lo;
    return end - lo;
}

rf_line_shape rf_lines_shape(const int64_t *at, size_t n, int64_t offset, int64_t len)
{
    rf_line_shape s = {RF_LINES_NONE, 0, 0};
    if (!n)
        return s;
    s.first = at[0] - offset;
    if (n == 1 && s.first == len - 1) {
        s.kind = RF_LINES_TRAILING;
        s.period = len;
        return s;
    }
    s.period = n > 1 ? at[1] - at[0] : len;
    for (size_t k = 1; k < n; k++)
        if (at[k] - at[k - 1] != s.period)
            return (rf_line_shape){RF_LINES_IRREGULAR, s.first, 0};
    /* regular when the lines go on to the end: no mark missing before len */
    s.kind =
        s.first < s.period && at[n - 1] - offset + s.period >= len ? RF_LINES_REGULAR : RF_LINES_IRREGULAR;
    return s;
}

size_t rf_lines_lengths(const int64_t *at, size_t n, int64_t offset, int64_t *out, size_t cap)
{
    int64_t prev = offset - 1;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k < cap)
            out[k] = at[i] - prev;
        k++;
        prev = at[i];
    }
    return k;
}

void rf_lines_fill(char *buf, int64_t n, const int64_t *at, size_t nat, int64_t offset, int delim)
{
    for (int64_t b = 0; b < n; b++)
        buf[b] = (char)('a' + b % 26);
    for (size_t i = 0; i < nat; i++)
        if (at[i] >= offset && at[i] < offset + n)
            buf[at[i] - offset] = (char)delim;
}
