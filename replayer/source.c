/* source.c: the record source over the format's cursor (see source.h). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct cursor_source {
    rec_cursor *c;
    uint64_t left; /* records it may still give (UINT64_MAX: all) */
} cursor_source;

/* Per rank, the records a source gives at most (rp_source_limit). */
static uint64_t *limits;
static uint32_t nlimits;

static int cursor_next(rp_source *s, rec_record *r, rec_error *err)
{
    cursor_source *cs = s->impl;
    if (!cs->left)
        return 0;
    cs->left -= cs->left != UINT64_MAX;
    return rec_cursor_next(cs->c, r, err);
}

static const char *cursor_path(rp_source *s, int64_t id)
{
    return rec_cursor_path(((cursor_source *)s->impl)->c, id);
}

/* A stream cut where the trace of another rank ends counts as finished. */
static int cursor_complete(rp_source *s)
{
    cursor_source *cs = s->impl;
    return cs->left != UINT64_MAX || rec_cursor_complete(cs->c);
}

static void cursor_close(rp_source *s)
{
    rec_cursor_close(((cursor_source *)s->impl)->c);
    free(s->impl);
    free(s);
}

static const rp_source_ops cursor_ops = {cursor_next, cursor_path, cursor_complete, cursor_close};

void rp_source_limit(uint32_t rank, uint64_t records)
{
    if (rank >= nlimits) {
        uint64_t *grown = realloc(limits, ((size_t)rank + 1) * sizeof *limits);
        if (!grown)
            return;
        for (uint32_t r = nlimits; r <= rank; r++)
            grown[r] = UINT64_MAX;
        limits = grown;
        nlimits = rank + 1;
    }
    limits[rank] = records;
}

rp_source *rp_source_open(rec_trace *t, uint32_t rank, rec_error *err)
{
    rec_cursor *c = rec_cursor_open(t, rank, err);
    if (!c)
        return NULL;
    rp_source *s = malloc(sizeof *s);
    cursor_source *cs = malloc(sizeof *cs);
    if (!s || !cs) {
        free(s);
        free(cs);
        rec_cursor_close(c);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    cs->c = c;
    cs->left = rank < nlimits ? limits[rank] : UINT64_MAX;
    s->ops = &cursor_ops;
    s->impl = cs;
    return s;
}

const char *rp_source_path_cb(void *ctx, int64_t id)
{
    rp_source *s = ctx;
    return s->ops->path(s, id);
}
