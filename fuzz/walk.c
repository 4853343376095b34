/* walk.c: read a whole trace through the public reader API, as the tools
 * do, and throw the result away (fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>

#include "recorder_format.h"

/* A trace may claim up to 2^24 ranks; a fuzz input holds at most three
 * streams, and every further rank fails the same way. */
#define WALK_MAX_RANKS 4
/* Records per stream: enough for any input of 64 KiB per file. */
#define WALK_MAX_RECORDS 1000000

static const char *cursor_path(void *ctx, int64_t id)
{
    return rec_cursor_path(ctx, id);
}

/* Renders a record as recorder2text does, and touches every array. */
static void render(const rec_table *table, const rec_record *r, uint32_t rank, double res, rec_cursor *c)
{
    static char line[1 << 16];
    rec_print_record(line, sizeof line, table, r, rank, res, cursor_path, c);
    const rec_func_desc *f = rec_table_lookup(table, r->func);
    if (!f)
        return;
    int64_t elems[64];
    for (unsigned a = 0; a < f->nargs; a++)
        if (rec_kind_class(f->args[a].kind) == REC_CLASS_ARRAY)
            rec_value_array(&r->args[a], elems, 64);
}

/* FUZZ_VERBOSE=1: what was read, and the error that ended each stream. */
static void report(const char *what, uint64_t n, int rc, const rec_error *err)
{
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "%s: %llu records%s%s\n", what, (unsigned long long)n, rc < 0 ? ", then: " : "",
                rc < 0 ? err->msg : "");
}

static void walk_merged(rec_trace *t)
{
    rec_error err;
    rec_cursor *c = rec_cursor_open_merged(t, &err);
    if (!c) {
        report("merged stream", 0, -1, &err);
        return;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    rec_record r;
    rec_merge_info mi;
    uint64_t n = 0;
    int rc;
    while (n < WALK_MAX_RECORDS && (rc = rec_cursor_next_merged(c, &r, &mi, &err)) == 1) {
        n++;
        render(rec_trace_table(t), &r, 0, info->time_resolution, c);
        uint32_t index;
        for (uint32_t rank = 0; rank < info->nranks && rank < WALK_MAX_RANKS; rank++)
            if (rec_merge_info_find(&mi, rank, &index) && index >= mi.nranks)
                __builtin_trap(); /* a rank's position must lie inside the set */
    }
    report("merged stream", n, rc, &err);
    rec_cursor_close(c);
}

uint64_t fuzz_walk_trace(const char *dir, unsigned flags)
{
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    if (!t) {
        report("open", 0, -1, &err);
        return 0;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    const rec_table *table = rec_trace_table(t);
    uint64_t total = 0;
    if (rec_trace_is_merged(t))
        walk_merged(t);
    for (uint32_t rank = 0; rank < info->nranks && rank < WALK_MAX_RANKS; rank++) {
        rec_trace_rank_meta(t, rank, &err);
        char what[32];
        snprintf(what, sizeof what, "rank %u", rank);
        rec_cursor *c = rec_cursor_open(t, rank, &err);
        if (!c) {
            report(what, 0, -1, &err);
            continue;
        }
        if ((flags & FUZZ_FILTER) && rec_table_count(table))
            rec_cursor_want(c, rec_table_at(table, 0)->id);
        rec_record r;
        uint64_t n = 0;
        int rc;
        while (n < WALK_MAX_RECORDS && (rc = rec_cursor_next(c, &r, &err)) == 1) {
            render(table, &r, rank, info->time_resolution, c);
            n++;
        }
        rec_counts counts;
        rec_cursor_counts(c, &counts);
        rec_cursor_complete(c);
        rec_cursor_blocks_skipped(c);
        report(what, n, rc, &err);
        rec_cursor_close(c);
        total += n;
    }
    rec_trace_close(t);
    return total;
}
