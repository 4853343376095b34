/* h5store.c: reading and writing the trace's h5store files (rec_h5store.h). */
#define _GNU_SOURCE
#include "rec_h5store.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char h5store_header[] = "recorder-kit h5store 1\n";

static int seen(const rec_h5store *s, const rec_h5store_entry *e)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->e[i].stored == e->stored && s->e[i].chunks == e->chunks && s->e[i].chunk_bytes == e->chunk_bytes &&
            !strcmp(s->e[i].filters, e->filters) && !strcmp(s->e[i].file, e->file) &&
            !strcmp(s->e[i].dataset, e->dataset) && s->e[i].rank == e->rank && s->e[i].nsizes == e->nsizes &&
            (!e->nsizes || !memcmp(s->e[i].sizes, e->sizes, e->nsizes * (e->rank + 1) * sizeof *e->sizes)))
            return 1;
    return 0;
}

static void entry_free(rec_h5store_entry *e)
{
    free(e->file), free(e->dataset), free(e->sizes);
}

/* "RANK x,..,size x,..,size ...": each chunk's coordinates and stored size. */
static int parse_sizes(const char *text, rec_h5store_entry *e)
{
    char *end;
    unsigned long rank = strtoul(text, &end, 10);
    if (end == text || rank < 1 || rank > 32)
        return -1;
    e->rank = (unsigned)rank;
    for (const char *p = end; *p == ' ';) {
        uint64_t *grown = realloc(e->sizes, (e->nsizes + 1) * (rank + 1) * sizeof *grown);
        if (!grown)
            return -1;
        e->sizes = grown;
        for (unsigned long d = 0; d <= rank; d++) {
            grown[e->nsizes * (rank + 1) + d] = strtoull(++p, &end, 10);
            if (end == p || *end != (d < rank ? ',' : *end) || (d == rank && *end && *end != ' '))
                return -1;
            p = end;
        }
        e->nsizes++;
    }
    return 0;
}

/* One line: "stored chunks chunk_bytes filters\tfile\tdataset[\tsizes]". */
static int parse(char *line, rec_h5store_entry *e)
{
    char *file = strchr(line, '\t'), *dataset = file ? strchr(file + 1, '\t') : NULL, *sizes;
    unsigned long long stored, chunks, chunk_bytes;
    memset(e, 0, sizeof *e);
    if (!dataset)
        return -1;
    *file++ = 0, *dataset++ = 0;
    if ((sizes = strchr(dataset, '\t')) != NULL)
        *sizes++ = 0;
    if (sscanf(line, "%llu %llu %llu %127s", &stored, &chunks, &chunk_bytes, e->filters) != 4 || !*dataset)
        return -1;
    e->stored = stored, e->chunks = chunks, e->chunk_bytes = chunk_bytes;
    e->file = strdup(file), e->dataset = strdup(dataset);
    if (!e->file || !e->dataset || (sizes && parse_sizes(sizes, e) != 0)) {
        entry_free(e);
        return -1;
    }
    return 0;
}

int rec_h5store_parse(const char *text, size_t len, const char *name, rec_h5store *out, rec_error *err)
{
    char *copy = strndup(text, len), *line = copy, *next;
    int rc = 0;
    for (unsigned no = 1; line && *line; no++, line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        rec_h5store_entry e;
        if (no == 1 ? strncmp(line, h5store_header, sizeof h5store_header - 2) != 0 : parse(line, &e) != 0) {
            snprintf(err->msg, sizeof err->msg, "%s: line %u: %s", name, no,
                     no == 1 ? "not an h5store file (version 1)" : "malformed entry");
            rc = -1;
            break;
        }
        if (no == 1)
            continue;
        rec_h5store_entry *grown = seen(out, &e) ? NULL : realloc(out->e, (out->n + 1) * sizeof *out->e);
        if (grown)
            out->e = grown, out->e[out->n++] = e;
        else
            entry_free(&e);
    }
    free(copy);
    return rc;
}

/* 1 when the rank (or the merged trace) has no h5store. */
static int read_part(const rec_parts *l, uint32_t rank, rec_h5store *s, rec_error *err)
{
    uint8_t *text;
    size_t len;
    int rc = rec_parts_read(l, rank, REC_PART_H5STORE, &text, &len, err);
    if (rc != 0)
        return rc;
    rec_part_place at;
    rec_parts_find(l, rank, REC_PART_H5STORE, &at);
    rc = rec_h5store_parse((const char *)text, len, at.name, s, err);
    free(text);
    return rc;
}

/* 1 if the trace has the rank's stream (past the last rank it has none). */
static int has_rank(const rec_parts *l, uint32_t rank)
{
    rec_part_place at;
    if (rec_parts_find(l, rank, REC_PART_STREAM, &at) != 0)
        return 0;
    if (at.length != UINT64_MAX)
        return 1;
    FILE *probe = fopen(at.path, "r");
    if (probe)
        fclose(probe);
    return probe != NULL;
}

int rec_h5store_read(const char *dir, rec_h5store *out, rec_error *err)
{
    memset(out, 0, sizeof *out);
    return rec_h5store_read_ranks(dir, 0, UINT32_MAX, out, err);
}

int rec_h5store_read_ranks(const char *dir, uint32_t first, uint32_t count, rec_h5store *out, rec_error *err)
{
    rec_parts *l = rec_parts_open(dir, err);
    if (!l)
        return -1;
    int rc = read_part(l, REC_MERGED_STREAM, out, err);
    uint64_t end = (uint64_t)first + count;
    for (uint64_t rank = first; rc == 1 && rank < end && rank < (1u << 24) && has_rank(l, (uint32_t)rank); rank++)
        if (read_part(l, (uint32_t)rank, out, err) < 0)
            rc = -1;
    rec_parts_close(l);
    if (rc < 0)
        rec_h5store_free(out);
    return rc < 0 ? -1 : 0;
}

int rec_h5store_write(const char *path, const rec_h5store *s, rec_error *err)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    fputs(h5store_header, out);
    for (size_t i = 0; i < s->n; i++) {
        const rec_h5store_entry *e = &s->e[i];
        fprintf(out, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %s\t%s\t%s", e->stored, e->chunks, e->chunk_bytes,
                e->filters, e->file, e->dataset);
        char *chunks = rec_h5store_chunks_text(e);
        fprintf(out, "%s%s\n", chunks ? "\t" : "", chunks ? chunks : "");
        free(chunks);
    }
    if (fclose(out) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void rec_h5store_free(rec_h5store *s)
{
    for (size_t i = 0; i < s->n; i++)
        entry_free(&s->e[i]);
    free(s->e);
    memset(s, 0, sizeof *s);
}

double rec_h5store_ratio(const rec_h5store_entry *e)
{
    return e->chunks && e->chunk_bytes ? (double)e->stored / ((double)e->chunks * (double)e->chunk_bytes) : -1;
}

/* snprintf, never stdio streams: the replayer calls it under a tracer. */
char *rec_h5store_chunks_text(const rec_h5store_entry *e)
{
    size_t n = e->nsizes * (e->rank + 1), cap = 12 + 21 * n, at;
    char *text = e->rank ? malloc(cap) : NULL;
    if (!text)
        return NULL;
    at = (size_t)snprintf(text, cap, "%u", e->rank);
    for (size_t c = 0; c < n; c++)
        at += (size_t)snprintf(text + at, cap - at, "%c%" PRIu64, c % (e->rank + 1) ? ',' : ' ', e->sizes[c]);
    return text;
}
