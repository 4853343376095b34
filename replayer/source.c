/* source.c: the record source over the format's cursor (see source.h). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>

static int cursor_next(rp_source *s, rec_record *r, rec_error *err)
{
    return rec_cursor_next(s->impl, r, err);
}

static const char *cursor_path(rp_source *s, int64_t id)
{
    return rec_cursor_path(s->impl, id);
}

static int cursor_complete(rp_source *s)
{
    return rec_cursor_complete(s->impl);
}

static void cursor_close(rp_source *s)
{
    rec_cursor_close(s->impl);
    free(s);
}

static const rp_source_ops cursor_ops = {cursor_next, cursor_path, cursor_complete, cursor_close};

rp_source *rp_source_open(rec_trace *t, uint32_t rank, rec_error *err)
{
    rec_cursor *c = rec_cursor_open(t, rank, err);
    if (!c)
        return NULL;
    rp_source *s = malloc(sizeof *s);
    if (!s) {
        rec_cursor_close(c);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    s->ops = &cursor_ops;
    s->impl = c;
    return s;
}

const char *rp_source_path_cb(void *ctx, int64_t id)
{
    rp_source *s = ctx;
    return s->ops->path(s, id);
}
