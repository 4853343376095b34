/* cut.c: each rank's records up to where the first unfinished stream ends
 * (see cut.h), counted over the merged trace's rank sets. */
#include "cut.h"

#include <stdio.h>
#include <stdlib.h>

#include "recorder_merge.h"

/* Whether every rank closed its stream (its N.meta says so). */
static int whole(rec_trace *t, uint32_t nranks)
{
    for (uint32_t r = 0; r < nranks; r++) {
        rec_error e;
        const rec_rank_meta *m = rec_trace_rank_meta(t, r, &e);
        if (!m || !m->complete)
            return 0;
    }
    return 1;
}

/* Adds one to the count of every rank of the merged record's set. */
static void count_members(const rec_merge_info *mi, uint64_t *limits, uint32_t nranks)
{
    if (!mi->nranges) { /* every rank */
        for (uint32_t r = 0; r < nranks; r++)
            limits[r]++;
        return;
    }
    for (uint32_t g = 0; g < mi->nranges; g++)
        for (uint32_t j = 0; j < mi->ranges[g].count; j++) {
            uint64_t rank = mi->ranges[g].first + (uint64_t)j * mi->ranges[g].stride;
            if (rank < nranks)
                limits[rank]++;
        }
}

int rp_cut(rec_trace *t, uint64_t **limits, uint32_t *unfinished, uint64_t *after, char *err, size_t cap)
{
    *limits = NULL;
    *unfinished = 0;
    *after = 0;
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    if (rec_trace_is_merged(t) || whole(t, nranks))
        return 0;
    rec_merge_options mo;
    rec_merge_options_init(&mo);
    mo.tool = "recorder-replay";
    rec_merge_stats st = {0};
    char scratch[4096];
    rec_error e;
    if (rec_merge_to_scratch(rec_trace_dir(t), &mo, scratch, sizeof scratch, &st, &e) != 0) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    int rc = 0;
    if (st.unfinished) {
        rec_trace *merged = rec_trace_open(scratch, &e);
        rec_cursor *c = merged ? rec_cursor_open_merged(merged, &e) : NULL;
        uint64_t *l = c ? calloc(nranks ? nranks : 1, sizeof *l) : NULL;
        rc = l ? 1 : -1;
        if (c)
            rec_cursor_sets_only(c);
        rec_record r;
        rec_merge_info mi;
        for (uint64_t k = 0; rc == 1 && k < st.unfinished_after; k++) {
            int got = rec_cursor_next_merged(c, &r, &mi, &e);
            if (got < 0)
                rc = -1;
            if (got <= 0)
                break;
            count_members(&mi, l, nranks);
        }
        if (rc < 0) {
            snprintf(err, cap, "%s", c || merged ? e.msg : "out of memory");
            free(l);
        } else {
            *limits = l;
            *unfinished = st.unfinished;
            *after = st.unfinished_after;
        }
        if (c)
            rec_cursor_close(c);
        if (merged)
            rec_trace_close(merged);
    }
    rec_merge_remove_dir(scratch);
    return rc;
}
