/* merge_check ORIGINAL MERGED [--collectives] [--max-ratio X]
 * Checks a merged trace against the per-rank trace it came from:
 * - every rank's records, read back from the merged trace, equal the
 *   original (function, depth, every argument, return value, errno, paths by
 *   name; times up to the rank's constant clock offset);
 * - --collectives: every top-level collective call appears exactly once in
 *   the merged trace, standing for every rank;
 * - --max-ratio X: merged records <= X times the longest rank's records.
 * Prints what it checked; exit 1 on the first failure. */
#include "recorder_format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *tool = "merge_check";

static int fail(const char *what, uint32_t rank, size_t i)
{
    fprintf(stderr, "%s: rank %u, record %zu: %s\n", tool, rank, i, what);
    return 1;
}

static int same_value(unsigned cls, const rec_value *a, const rec_value *b)
{
    if (cls == REC_CLASS_STR)
        return a->len == b->len && (!a->len || memcmp(a->ptr, b->ptr, a->len) == 0);
    if (cls == REC_CLASS_ARRAY) {
        if (a->len != b->len)
            return 0;
        int64_t *x = malloc((a->len + 1) * sizeof *x), *y = malloc((a->len + 1) * sizeof *y);
        rec_value_array(a, x, a->len);
        rec_value_array(b, y, b->len);
        int same = !a->len || memcmp(x, y, a->len * sizeof *x) == 0;
        free(x);
        free(y);
        return same;
    }
    return a->i == b->i;
}

/* The ticks the merged trace's times may be off by: its stated merge.time_resolution (0: exact). */
static int64_t time_tolerance(rec_trace *b)
{
    const rec_trace_info *info = rec_trace_get_info(b);
    for (size_t i = 0; i < info->noptions; i++)
        if (!strcmp(info->options[i].key, "merge.time_resolution"))
            return (int64_t)(atof(info->options[i].value) / info->time_resolution + 0.5);
    return 0;
}

static int64_t distance(int64_t x)
{
    return x < 0 ? -x : x;
}

static int round_trip(rec_trace *a, rec_trace *b, uint64_t *longest)
{
    /* against the first record's offset, itself within the tolerance */
    int64_t tol = 2 * time_tolerance(b);
    rec_error err;
    *longest = 0;
    for (uint32_t rank = 0; rank < rec_trace_get_info(a)->nranks; rank++) {
        rec_cursor *ca = rec_cursor_open(a, rank, &err), *cb = rec_cursor_open(b, rank, &err);
        if (!ca || !cb) {
            fprintf(stderr, "%s: %s\n", tool, err.msg);
            return 1;
        }
        rec_record ra, rb;
        int64_t offset = 0;
        size_t i = 0;
        for (;; i++) {
            int ga = rec_cursor_next(ca, &ra, &err), gb = rec_cursor_next(cb, &rb, &err);
            if (ga < 0 || gb < 0) {
                fprintf(stderr, "%s: %s\n", tool, err.msg);
                return 1;
            }
            if (ga != gb)
                return fail(ga ? "the merged trace ends early" : "the merged trace has extra records", rank, i);
            if (!ga)
                break;
            if (i == 0)
                offset = (int64_t)(rb.tstart - ra.tstart);
            if (rb.func != ra.func || rb.depth != ra.depth || rb.thread != ra.thread)
                return fail("function, depth or thread differs", rank, i);
            if (distance((int64_t)(rb.tstart - ra.tstart) - offset) > tol ||
                distance((int64_t)(rb.tend - ra.tend) - offset) > tol || rb.tend < rb.tstart)
                return fail(tol ? "times differ beyond the rank's clock offset and the merge's time resolution"
                                : "times differ beyond the rank's clock offset",
                            rank, i);
            const rec_func_desc *f = rec_table_lookup(rec_trace_table(a), ra.func);
            for (unsigned k = 0; k < f->nargs; k++) {
                unsigned cls = rec_kind_class(f->args[k].kind);
                if (cls == REC_CLASS_PATH) {
                    const char *pa = rec_cursor_path(ca, ra.args[k].i), *pb = rec_cursor_path(cb, rb.args[k].i);
                    if ((pa == NULL) != (pb == NULL) || (pa && strcmp(pa, pb) != 0))
                        return fail(f->args[k].name, rank, i);
                } else if (cls != REC_CLASS_NONE && !same_value(cls, &ra.args[k], &rb.args[k])) {
                    return fail(f->args[k].name, rank, i);
                }
            }
            if (f->ret_kind != REC_KIND_NONE &&
                (!same_value(rec_kind_class(f->ret_kind), &ra.ret, &rb.ret) || ra.err != rb.err))
                return fail("return value or errno differs", rank, i);
        }
        if (i > *longest)
            *longest = i;
        rec_cursor_close(ca);
        rec_cursor_close(cb);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int collectives = 0;
    double max_ratio = 0;
    if (argc < 3) {
        fprintf(stderr, "usage: %s ORIGINAL MERGED [--collectives] [--max-ratio X]\n", tool);
        return 2;
    }
    for (int i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--collectives"))
            collectives = 1;
        else if (!strcmp(argv[i], "--max-ratio") && i + 1 < argc)
            max_ratio = atof(argv[++i]);
    }
    rec_error err;
    rec_trace *a = rec_trace_open(argv[1], &err);
    rec_trace *b = a ? rec_trace_open(argv[2], &err) : NULL;
    if (!a || !b) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    uint64_t longest;
    if (round_trip(a, b, &longest))
        return 1;
    uint32_t nranks = rec_trace_get_info(a)->nranks;
    if (time_tolerance(b))
        printf("%s: every rank's %u streams round-trip exactly, times to within %lld ticks\n", tool, nranks,
               (long long)time_tolerance(b));
    else
        printf("%s: every rank's %u streams round-trip exactly\n", tool, nranks);
    /* The merged stream itself. */
    rec_cursor *c = rec_cursor_open_merged(b, &err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    rec_record r;
    rec_merge_info mi;
    uint64_t merged = 0, coll_all = 0, coll_partial = 0;
    while (rec_cursor_next_merged(c, &r, &mi, &err) == 1) {
        merged++;
        const rec_func_desc *f = rec_table_lookup(rec_trace_table(b), r.func);
        if (r.depth == 0 && (f->flags & REC_FN_COLLECTIVE)) {
            if (mi.nranks == nranks)
                coll_all++;
            else {
                coll_partial++;
                fprintf(stderr, "%s: %s stands for %u of %u ranks\n", tool, f->name, mi.nranks, nranks);
            }
        }
    }
    rec_cursor_close(c);
    /* Rank 0's own top-level collective calls. */
    uint64_t coll_rank0 = 0;
    c = rec_cursor_open(a, 0, &err);
    while (rec_cursor_next(c, &r, &err) == 1) {
        const rec_func_desc *f = rec_table_lookup(rec_trace_table(a), r.func);
        coll_rank0 += r.depth == 0 && (f->flags & REC_FN_COLLECTIVE);
    }
    rec_cursor_close(c);
    double ratio = longest ? (double)merged / (double)longest : 0;
    printf("%s: %llu merged records, %.3f x the longest rank (%llu); top-level collectives: %llu merged over all "
           "ranks, %llu partial, rank 0 made %llu\n",
           tool, (unsigned long long)merged, ratio, (unsigned long long)longest, (unsigned long long)coll_all,
           (unsigned long long)coll_partial, (unsigned long long)coll_rank0);
    if (collectives && (coll_partial || coll_all != coll_rank0)) {
        fprintf(stderr, "%s: collective calls are not merged once over all ranks\n", tool);
        return 1;
    }
    if (max_ratio > 0 && ratio > max_ratio) {
        fprintf(stderr, "%s: %.3f x the longest rank is more than %.3f\n", tool, ratio, max_ratio);
        return 1;
    }
    rec_trace_close(a);
    rec_trace_close(b);
    return 0;
}
