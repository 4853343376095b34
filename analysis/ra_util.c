/* ra_util.c: the small things every analysis needs: a hash map, progress on
 * stderr, and escaping for CSV, JSON and HTML output. */
#include "ra_internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void *ra_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "recorder-analysis: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

void *ra_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "recorder-analysis: out of memory (%zu x %zu bytes)\n", n, size);
        abort();
    }
    return p;
}

void *ra_xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "recorder-analysis: out of memory (%zu bytes)\n", n);
        abort();
    }
    return p;
}

char *ra_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(ra_xmalloc(n), s, n);
}

/* ---- map ---- */

static inline size_t slot_of(uint64_t key, size_t cap)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (size_t)key & (cap - 1);
}

uint64_t *ra_map_find(const ra_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return &m->vals[i];
        if (m->keys[i] == RA_MAP_EMPTY)
            return NULL;
    }
}

static void map_grow(ra_map *m)
{
    size_t old_cap = m->cap;
    uint64_t *old_keys = m->keys, *old_vals = m->vals;
    m->cap = old_cap ? old_cap * 2 : 16;
    m->keys = ra_xmalloc(m->cap * sizeof *m->keys);
    m->vals = ra_xmalloc(m->cap * sizeof *m->vals);
    memset(m->keys, 0xff, m->cap * sizeof *m->keys);
    for (size_t i = 0; i < old_cap; i++) {
        if (old_keys[i] == RA_MAP_EMPTY)
            continue;
        size_t j = slot_of(old_keys[i], m->cap);
        while (m->keys[j] != RA_MAP_EMPTY)
            j = (j + 1) & (m->cap - 1);
        m->keys[j] = old_keys[i];
        m->vals[j] = old_vals[i];
    }
    free(old_keys);
    free(old_vals);
}

uint64_t *ra_map_insert(ra_map *m, uint64_t key, int *fresh)
{
    if ((m->count + 1) * 4 > m->cap * 3)
        map_grow(m);
    size_t i = slot_of(key, m->cap);
    while (m->keys[i] != RA_MAP_EMPTY) {
        if (m->keys[i] == key) {
            if (fresh)
                *fresh = 0;
            return &m->vals[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key;
    m->vals[i] = 0;
    m->count++;
    if (fresh)
        *fresh = 1;
    return &m->vals[i];
}

/* Linear probing deletes by shifting the rest of the cluster back. */
int ra_map_remove(ra_map *m, uint64_t key, uint64_t *old)
{
    uint64_t *v = ra_map_find(m, key);
    if (!v)
        return 0;
    size_t i = (size_t)(v - m->vals), mask = m->cap - 1;
    if (old)
        *old = *v;
    for (size_t j = (i + 1) & mask; m->keys[j] != RA_MAP_EMPTY; j = (j + 1) & mask) {
        size_t home = slot_of(m->keys[j], m->cap);
        /* j's entry may move to i if its home is not in (i, j] cyclically. */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->keys[i] = RA_MAP_EMPTY;
    m->count--;
    return 1;
}

void ra_map_free(ra_map *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- progress ---- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define PROGRESS_CHECK_EVERY (1u << 16)

void ra_progress_init(ra_progress *p, const char *tool, int forced)
{
    memset(p, 0, sizeof *p);
    p->tool = tool;
    p->tty = isatty(STDERR_FILENO);
    p->enabled = forced || p->tty;
    p->start = p->last = now_seconds();
    p->next_check = p->enabled ? PROGRESS_CHECK_EVERY : UINT64_MAX;
}

void ra_progress_update(ra_progress *p, uint32_t rank, uint32_t nranks)
{
    p->next_check = p->records + PROGRESS_CHECK_EVERY;
    double t = now_seconds();
    if (t - p->start < 1.0 || t - p->last < 1.0)
        return;
    p->last = t;
    p->shown = 1;
    fprintf(stderr, "%s%s: rank %u/%u (%.1f M records)...%s", p->tty ? "\r" : "", p->tool, rank + 1, nranks,
            (double)p->records / 1e6, p->tty ? "\033[K" : "\n");
    fflush(stderr);
}

void ra_progress_done(ra_progress *p)
{
    if (p && p->shown && p->tty)
        fputs("\r\033[K", stderr);
}

/* ---- MPI datatypes ---- */

/* ---- text ---- */

const char *ra_human_bytes(double bytes, char *buf, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    unsigned u = 0;
    while (bytes >= 1024.0 && u + 1 < sizeof units / sizeof *units) {
        bytes /= 1024.0;
        u++;
    }
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

/* Length of the valid UTF-8 sequence at s (1..4), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || n > left || (n == 2 && c < 0xc2))
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return n;
}

void ra_json_string(FILE *out, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    putc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc((int)c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            putc((int)c, out);
            i++;
        } else {
            size_t n = utf8_len(u + i, len - i);
            if (n) {
                fwrite(u + i, 1, n, out);
                i += n;
            } else { /* not UTF-8: show the byte as its Latin-1 character */
                fprintf(out, "\\u%04x", c);
                i++;
            }
        }
    }
    putc('"', out);
}

void ra_html_text(FILE *out, const char *s)
{
    for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
        switch (*u) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        case '\'':
            fputs("&#39;", out);
            break;
        default:
            if (*u < 0x20 && *u != '\n' && *u != '\t') {
                fprintf(out, "&#%u;", 0x2400 + *u); /* control pictures: visible, harmless */
            } else if (*u >= 0x80) {
                size_t n = utf8_len(u, strlen((const char *)u));
                if (n) {
                    fwrite(u, 1, n, out);
                    u += n - 1;
                } else {
                    fprintf(out, "&#%u;", *u); /* not UTF-8: its Latin-1 character */
                }
            } else {
                putc(*u, out);
            }
        }
    }
}

void ra_csv_field(FILE *out, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}
