/* diff_darshan_cmp.c: recorder-diff --darshan LOG TRACE. The log is read
 * with the importer's reader (recorder_import.h); each record of its POSIX,
 * MPI-IO and STDIO modules (but the console's, <STDIN>, <STDOUT> and
 * <STDERR>) is compared, counter by counter, with what Darshan would have
 * kept of the trace's run (diff_darshan.c): a record of rank R with the
 * trace's rank R, a record of rank -1 (Darshan reduced a file every rank
 * opened to one) with the trace's ranks reduced the same way. The log's
 * paths are mapped to the trace's (--map, or inferred from the first log
 * path the trace names under another root). Times, and counters a trace
 * cannot tell (alignment, strides, ranks' speeds), are not compared. */
#include "diff_darshan.h"
#include "recorder_import.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int module_of(unsigned darshan)
{
    return darshan == RI_DARSHAN_POSIX   ? DD_POSIX
           : darshan == RI_DARSHAN_MPIIO ? DD_MPIIO
           : darshan == RI_DARSHAN_STDIO ? DD_STDIO
                                         : -1;
}

static int console(const char *path)
{
    return path[0] == '<';
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The trace's file of a module whose path ends in this tail: the one with
 * the shortest path, NULL if none. */
static dd_file *by_tail(dd_trace *t, int module, const char *tail, int whole_components)
{
    dd_file *f, *tmp, *best = NULL;
    size_t n = strlen(tail);
    HASH_ITER(hh, t->files, f, tmp)
    {
        size_t m = strlen(f->path);
        if (f->module != module || m < n || strcmp(f->path + m - n, tail))
            continue;
        if (whole_components && m > n && f->path[m - n - 1] != '/' && tail[0] != '/')
            continue;
        if (!best || m < strlen(best->path))
            best = f;
    }
    return best;
}

static dd_file *find_file(dd_trace *t, int module, const char *path)
{
    char key[DIFF_PATH_MAX + 4];
    snprintf(key, sizeof key, "%d:%s", module, path);
    dd_file *f;
    HASH_FIND_STR(t->files, key, f);
    return f;
}

/* The mapping from the log's paths to the trace's: none when the trace
 * names a log path as it is; else from the first log path (in the log's
 * order) the trace names under another root (its whole path below a
 * directory) or with another head (the same file name). */
static void infer(const ri_darshan_log *log, dd_trace *t, diff_paths *paths)
{
    for (int pass = 0; pass < 3; pass++)
        for (unsigned mod = 0; mod < RI_DARSHAN_MAX_MODULES; mod++) {
            int module = module_of(mod);
            const ri_darshan_module *m = &log->modules[mod];
            for (size_t i = 0; module >= 0 && i < m->nrecords; i++) {
                const char *name = ri_darshan_name_of(log, m->records[i].id);
                char norm[DIFF_PATH_MAX];
                if (!name || console(name))
                    continue;
                rf_path_normalize(name, norm, sizeof norm, 0);
                dd_file *f = pass == 0   ? find_file(t, module, norm)
                             : pass == 1 ? by_tail(t, module, norm, 1)
                                         : by_tail(t, module, base_name(norm), 1);
                if (!f)
                    continue;
                if (pass == 0)
                    return;
                if (diff_paths_infer(paths, norm, f->path) == 0) {
                    char how[2 * DIFF_PATH_MAX + 64];
                    diff_paths_describe(paths, how, sizeof how);
                    printf("%s: paths: %s (inferred from the log's \"%s\" and the trace's \"%s\")\n",
                           DIFF_TOOL, how, norm, f->path);
                    return;
                }
            }
        }
}

/* --counters: comma-separated names or fnmatch patterns (POSIX_SIZE_*). */
static int wanted(const char *list, const char *name)
{
    if (!list)
        return 1;
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        if (fnmatch(tok, name, 0) == 0)
            return 1;
    return 0;
}

static int check_counters(const char *list)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int hit = 0;
        for (int mod = 0; mod < DD_NMODULES && !hit; mod++) {
            const dd_module *m = dd_module_of(mod);
            for (unsigned c = 0; c < m->n && !hit; c++)
                hit = fnmatch(tok, m->c[c].name, 0) == 0;
        }
        if (!hit) {
            fprintf(stderr,
                    "%s: --counters: %s names none of the counters --darshan compares "
                    "(docs/user/recorder-diff.md lists them)\n",
                    DIFF_TOOL, tok);
            return -1;
        }
    }
    return 0;
}

int diff_darshan_main(diff_ctx *ctx, const char *log_path, const char *trace_dir, const char *counters)
{
    rec_error err;
    if (counters && check_counters(counters) != 0)
        return 2;
    ri_darshan_log *log = ri_darshan_open(log_path, &err);
    if (!log) {
        fprintf(stderr, "%s: %s\n", DIFF_TOOL, err.msg);
        return 2;
    }
    rec_trace *trace = rec_trace_open(trace_dir, &err);
    if (!trace) {
        fprintf(stderr, "%s: %s\n", DIFF_TOOL, err.msg);
        ri_darshan_free(log);
        return 2;
    }
    dd_trace t = {0};
    if (dd_count_trace(trace, &t, &err) != 0) {
        fprintf(stderr, "%s: %s\n", DIFF_TOOL, err.msg);
        rec_trace_close(trace);
        ri_darshan_free(log);
        return 2;
    }
    if (log->nprocs != (int64_t)t.nranks)
        printf("%s: darshan: the log's job ran %lld ranks, the trace %u\n", DIFF_TOOL, (long long)log->nprocs,
               t.nranks);
    if (!ctx->opt.no_map && !ctx->opt.explicit_map)
        infer(log, &t, &ctx->paths);
    uint64_t compared = 0, equal = 0, files = 0, shared = 0;
    int status_diff = log->nprocs != (int64_t)t.nranks;
    for (unsigned mod = 0; mod < RI_DARSHAN_MAX_MODULES; mod++) {
        int module = module_of(mod);
        const ri_darshan_module *lm = &log->modules[mod];
        if (module < 0 || !lm->nrecords)
            continue;
        const dd_module *m = dd_module_of(module);
        if (lm->partial)
            printf("%s: darshan: warning: the log's %s module ran out of memory: it lacks records\n",
                   DIFF_TOOL, m->name);
        for (size_t i = 0; i < lm->nrecords; i++) {
            const ri_darshan_record *lr = &lm->records[i];
            const char *name = ri_darshan_name_of(log, lr->id);
            char norm[DIFF_PATH_MAX], mapped[DIFF_PATH_MAX];
            if (!name || console(name))
                continue;
            rf_path_normalize(name, norm, sizeof norm, 0);
            diff_path_map(&ctx->paths, norm, mapped, sizeof mapped);
            dd_file *f = find_file(&t, module, mapped);
            dd_record mine = {0};
            if (f) {
                f->matched = 1;
                if (lr->rank < 0)
                    dd_reduce(module, f->rank, t.nranks, &mine);
                else if ((uint64_t)lr->rank < t.nranks && f->rank[lr->rank])
                    mine = *f->rank[lr->rank];
            }
            files++;
            shared += lr->rank < 0;
            char who[64];
            if (lr->rank < 0)
                snprintf(who, sizeof who, "rank -1 (the trace's %u ranks reduced)", t.nranks);
            else
                snprintf(who, sizeof who, "rank %lld", (long long)lr->rank);
            for (unsigned c = 0; c < m->n; c++) {
                int is_float = 0;
                int at = ri_darshan_counter_index(m->darshan, m->c[c].name, &is_float);
                if (at < 0 || is_float || (unsigned)at >= lm->ncounters || !wanted(counters, m->c[c].name))
                    continue;
                int64_t theirs = lr->counters[at];
                if (theirs == -1 && m->c[c].how != DD_MAX)
                    continue; /* the log's module version lacks it */
                compared++;
                if (theirs == mine.c[c]) {
                    equal++;
                    continue;
                }
                printf("%s: darshan: %s %s, %s: %s: log %lld, trace %lld\n", DIFF_TOOL, m->name, name, who,
                       m->c[c].name, (long long)theirs, (long long)mine.c[c]);
            }
        }
    }
    /* Files the trace's run would have given Darshan records of that the log lacks. */
    dd_file *f, *tmp;
    uint64_t unmatched = 0;
    HASH_ITER(hh, t.files, f, tmp)
    {
        if (!f->matched)
            unmatched++;
    }
    if (shared)
        printf(
            "%s: darshan: %llu rank -1 record%s (a file every rank opened) compared with the trace's ranks "
            "reduced as Darshan reduces them: counts summed, MAX_BYTE_* the largest, the ACCESS sizes "
            "merged\n",
            DIFF_TOOL, (unsigned long long)shared, shared == 1 ? "" : "s");
    if (unmatched)
        printf("%s: darshan: note: %llu file%s of the trace %s no record in the log (not compared)\n",
               DIFF_TOOL, (unsigned long long)unmatched, unmatched == 1 ? "" : "s",
               unmatched == 1 ? "has" : "have");
    printf("%s: darshan: %llu of %llu counters equal, %llu files\n", DIFF_TOOL, (unsigned long long)equal,
           (unsigned long long)compared, (unsigned long long)files);
    int status = equal == compared && !status_diff ? 0 : 1;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "%s: writing to stdout failed\n", DIFF_TOOL);
        status = 2;
    }
    dd_trace_free(&t);
    rec_trace_close(trace);
    ri_darshan_free(log);
    return status;
}
