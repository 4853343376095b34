/* ra_trace.c: a trace opened for analysis: the reader's trace, the function
 * plans, the file table shared by all ranks and the ranks' time offsets; and
 * ra_walk, which feeds the events of many ranks to a visitor. */
#include "ra_internal.h"

#include <math.h>
#include <string.h>

ra_trace *ra_trace_open(const char *dir, rec_error *err)
{
    rec_trace *rt = rec_trace_open(dir, err);
    if (!rt)
        return NULL;
    ra_trace *t = ra_xcalloc(1, sizeof *t);
    t->rt = rt;
    t->table = rec_trace_table(rt);
    const rec_trace_info *info = rec_trace_get_info(rt);
    t->nranks = info->nranks;
    t->resolution = info->time_resolution;
    t->plans = ra_plans_build(t->table);
    t->rank_offset = ra_xmalloc(t->nranks * sizeof *t->rank_offset);
    t->rank_records = ra_xcalloc(t->nranks, sizeof *t->rank_records);
    for (uint32_t r = 0; r < t->nranks; r++)
        t->rank_offset[r] = NAN;
    /* The terminal streams get the first file ids, always. */
    ra_file_intern(t, RA_PATH_STDIN);
    ra_file_intern(t, RA_PATH_STDOUT);
    ra_file_intern(t, RA_PATH_STDERR);
    return t;
}

void ra_trace_close(ra_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->npaths; i++)
        free(t->paths[i]);
    free(t->paths);
    free(t->path_next);
    ra_map_free(&t->path_index);
    free(t->plans);
    free(t->rank_offset);
    free(t->rank_records);
    rec_trace_close(t->rt);
    free(t);
}

rec_trace *ra_trace_rec(ra_trace *t)
{
    return t->rt;
}
uint32_t ra_trace_nranks(const ra_trace *t)
{
    return t->nranks;
}
double ra_trace_resolution(const ra_trace *t)
{
    return t->resolution;
}

/* The common time line starts at the earliest rank's tick 0, so that every
 * time is >= 0 and a merged trace (whose ranks the merger rebased to that
 * start) and its per-rank original give the same times. Ranks without N.meta
 * are taken to start with the trace. */
static void load_rank_metas(ra_trace *t)
{
    uint64_t start = rec_trace_get_info(t->rt)->start_time_ns, first = start;
    uint64_t *starts = ra_xmalloc(t->nranks * sizeof *starts);
    for (uint32_t r = 0; r < t->nranks; r++) {
        rec_error err;
        const rec_rank_meta *m = rec_trace_rank_meta(t->rt, r, &err);
        starts[r] = m ? m->start_time_ns : start;
        t->rank_records[r] = m ? m->records : 0;
        if (starts[r] < first)
            first = starts[r];
    }
    /* In whole ticks, rounded as recorder-merge rounds them: an offset 50 ns
     * off reordered events of two ranks that close, and overlap picked
     * another range on the merged trace than on its per-rank original. */
    double resolution = rec_trace_get_info(t->rt)->time_resolution;
    for (uint32_t r = 0; r < t->nranks; r++) {
        double ticks = floor((double)(starts[r] - first) / (resolution * 1e9) + 0.5);
        t->rank_offset[r] = resolution > 0 ? ticks * resolution : (double)(starts[r] - first) * 1e-9;
    }
    free(starts);
}

double ra_rank_time_offset(ra_trace *t, uint32_t rank)
{
    if (rank >= t->nranks)
        return 0.0;
    if (isnan(t->rank_offset[rank]))
        load_rank_metas(t);
    return t->rank_offset[rank];
}

uint64_t ra_rank_record_count(ra_trace *t, uint32_t rank)
{
    if (rank >= t->nranks)
        return 0;
    if (isnan(t->rank_offset[rank]))
        load_rank_metas(t);
    return t->rank_records[rank];
}

/* ---- files ---- */

static uint64_t hash_path(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h == RA_MAP_EMPTY ? 0 : h;
}

size_t ra_file_count(const ra_trace *t)
{
    return t->npaths;
}

const char *ra_file_path(const ra_trace *t, int file)
{
    return file >= 0 && (size_t)file < t->npaths ? t->paths[file] : NULL;
}

int ra_file_intern(ra_trace *t, const char *path)
{
    uint64_t h = hash_path(path);
    int fresh;
    uint64_t *slot = ra_map_insert(&t->path_index, h, &fresh);
    if (!fresh)
        for (int i = (int)*slot - 1; i >= 0; i = t->path_next[i])
            if (!strcmp(t->paths[i], path))
                return i;
    if (t->npaths == t->cap_paths) {
        t->cap_paths = t->cap_paths ? t->cap_paths * 2 : 64;
        t->paths = ra_xrealloc(t->paths, t->cap_paths * sizeof *t->paths);
        t->path_next = ra_xrealloc(t->path_next, t->cap_paths * sizeof *t->path_next);
    }
    int id = (int)t->npaths++;
    t->paths[id] = ra_xstrdup(path);
    t->path_next[id] = fresh ? -1 : (int)*slot - 1; /* chain the older paths of this hash */
    *slot = (uint64_t)id + 1;
    return id;
}

/* ---- walking ---- */

int ra_walk(ra_trace *t, const uint32_t *ranks, size_t n, unsigned flags, const ra_visitor *v, ra_progress *p,
            rec_error *err)
{
    size_t count = ranks ? n : t->nranks;
    for (size_t i = 0; i < count; i++) {
        uint32_t rank = ranks ? ranks[i] : (uint32_t)i;
        if (v->begin_rank && v->begin_rank(v->ctx, t, rank) != 0) {
            snprintf(err->msg, sizeof err->msg, "stopped at rank %u", rank);
            return -1;
        }
        ra_rank *w = ra_rank_open(t, rank, flags, err);
        if (!w)
            return -1;
        ra_event ev;
        int rc;
        while ((rc = ra_rank_next(w, &ev, err)) == 1) {
            ra_progress_tick(p, rank, t->nranks);
            if (v->event && v->event(v->ctx, t, &ev) != 0) {
                snprintf(err->msg, sizeof err->msg, "stopped at rank %u record %llu", rank,
                         (unsigned long long)ev.index);
                rc = -1;
                break;
            }
        }
        if (rc == 0 && v->end_rank && v->end_rank(v->ctx, t, w, rank) != 0) {
            snprintf(err->msg, sizeof err->msg, "stopped at the end of rank %u", rank);
            rc = -1;
        }
        ra_rank_close(w);
        if (rc < 0)
            return -1;
    }
    return 0;
}
