/* recorder-diff A B: the fidelity checker (docs/user/recorder-diff.md).
 * Exit 0 when trace B does the same I/O as trace A, 1 listing the first
 * differences, 2 on errors (unreadable trace, bad usage).
 *
 * What is compared
 *
 * 1. The number of ranks.
 * 2. Per rank, the sequence of top-level I/O calls, position by position.
 *    A record belongs to it when it is at depth 0 (the application called
 *    it), on the main thread, not on the console (stdin/stdout/stderr fds
 *    and FILE*s) nor on /dev, /proc and /sys (which kernels and replays
 *    never touch: rf_special_call), and either in the POSIX, MPI-IO or HDF5 layer or an MPI
 *    call that shapes I/O: one that creates, changes or frees a
 *    communicator, group, datatype or info object (MPI_Comm_split,
 *    MPI_Type_create_subarray, MPI_Type_commit, MPI_Info_set, ...: I/O calls
 *    take them) or that completes a request a nonblocking MPI-IO call
 *    started (MPI_Wait*, MPI_Test* on such a request). Communication
 *    (MPI_Bcast, MPI_Allreduce, ...), barriers and queries (MPI_Comm_rank,
 *    MPI_Get_count, ...) move no file data and an I/O kernel may drop them,
 *    so they are left out; --all-mpi keeps every MPI call.
 * 3. Per call, the function name and every recorded field by its kind:
 *    - handles (fds, FILE*, DIR*, MPI and HDF5 objects) by their per-rank id:
 *      a faithful run creates them in the same order. --ignore-handles
 *      accepts any two ids the application created (>= 64) but still
 *      compares predefined ones (H5P_DEFAULT, MPI_COMM_WORLD, AT_FDCWD, ...);
 *    - paths after the path mapping (below), both lexically normalized
 *      ("a//b/./c/../d/" is "a/b/d", ".." clamped at "/"); a path relative
 *      to a directory fd (openat & co.) is first joined to the path that fd
 *      was opened with, as the replayer does;
 *    - every other integer exactly: sizes, counts, offsets, flags, modes,
 *      selections (hsize arrays), collective modes (H5FD_MPIO_*), stat
 *      st_size, bytes in MPI_Status (a replay moves the same bytes), derived
 *      byte counts, floating values (by their bits); strings and arrays
 *      element by element; the return value and errno.
 *    Never compared: times, thread ids (records carry no addresses or buffer
 *    contents). Exceptions (the table's roles), for values the environment
 *    decides rather than the application:
 *    - readdir's entries: the file system's order differs between runs
 *      (ext4 hash order), so the names one DIR stream returned are compared
 *      as a multiset when it is closed (or at the end of the rank); the
 *      number of readdir calls is still compared position by position;
 *    - getcwd's result: the process's working directory, which a replay or
 *      a kernel does not share; only errno is compared;
 *    - symlink targets (symlink, symlinkat, readlink's buffer): an absolute
 *      target must be re-rooted with the tree, a relative one may also stay
 *      as written (it resolves from the link's directory); readlink's
 *      return value, H5Fget_name's name and its length likewise: under a
 *      mapping the length is only compared for failure. Limitation: lstat's
 *      st_size of a symlink whose absolute target was re-rooted differs.
 *    After the first call whose function differs, the rank's sequences are
 *    out of step: the rest of that rank is only counted.
 *    --threads adds the calls of the threads the program started (a
 *    top-level pthread_create; not an MPI library's own), as one sequence per thread id
 *    (threads interleave differently in every run). Thread ids count the
 *    threads in the order they were started (or, started out of the
 *    tracer's sight, first made a traced call), so threads started by
 *    racing threads may be numbered differently in two runs. Handles
 *    pair up by the call that created them on each side.
 * 4. Per rank and per file (named after the mapping), the calls of step 2
 *    on it (every thread's with --threads) by category (opens by name,
 *    closes of those opens, reads, writes, metadata ops, other calls) and
 *    the bytes read and written (POSIX/stdio: the return value, fread/fwrite:
 *    times the item size; MPI-IO and HDF5: the DERIVED bytes argument). A
 *    call is a file's by the paths it names or by the handle it acts on (a
 *    handle belongs to the file it was opened from, or to its parent
 *    handle's: a dataset to its HDF5 file). When per-rank counts differ, the
 *    totals over all ranks of files several ranks touched are compared too,
 *    which tells a volume change from work moved between ranks.
 *    --counters-only compares only these (and the rank count): the weaker
 *    check, blind to order, offsets and arguments.
 *
 * Paths. A's names are mapped to B's: with --map OLD=NEW (repeatable; the
 * longest matching OLD wins; an empty OLD re-roots every path under NEW the
 * way recorder-replay --prefix and generated kernels do), or else inferred
 * from the first pair of corresponding paths that differ (same function at
 * the same position, rank 0 first): if B's is P + "/" + A's (leading '/'
 * dropped), every path is re-rooted under P; otherwise the two differ in
 * their heads ("/x/out1/f" vs "/x/out2/f": "/x/out1" -> "/x/out2") and that
 * prefix maps. The inferred mapping is printed: if that first pair is a
 * genuine difference rather than a re-rooting, the mapping hides it there
 * and later paths differ instead; --map or --no-map then say what is meant.
 * --no-map compares raw names.
 *
 * Output: one line per difference (the first --max, default 10), naming the
 * rank and the call's position (1-based, in the sequence above), followed
 * by both calls as recorder2text prints them; then a summary line. The two
 * traces are walked rank by rank with one cursor each, in lockstep: memory
 * grows with the number of files and of live handles, not with records. */
#include "diff.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [OPTIONS] A B\n"
            "Checks that trace B does the same I/O as trace A: rank by rank, the same top-level\n"
            "I/O calls with the same arguments, and the same per-file operation and byte counts.\n"
            "Exit status: 0 equivalent, 1 different (the first differences are listed), 2 error.\n"
            "  --map OLD=NEW     A's OLD and what lies below it is B's NEW (repeatable);\n"
            "                    --map =DIR: B re-roots every path under DIR (as replays do).\n"
            "                    Without --map the mapping is inferred and printed\n"
            "  --no-map          compare paths as recorded\n"
            "  --counters-only   compare only per-rank, per-file operation and byte counts\n"
            "  --all-mpi         also compare MPI calls that do not shape I/O (communication,\n"
            "                    barriers, queries)\n"
            "  --threads         also compare calls of threads other than the main one\n"
            "  --ignore-handles  accept any two application-created handle ids\n"
            "  --max N           list at most N differences (default 10, 0: all)\n"
            "  --tuned FILE      B ran under this tuning set (docs/user/tuning.md): accept exactly\n"
            "                    the differences it explains, report an override B does not show\n"
            "  --set L.K=V       one override more of that set (repeatable; wins over the file's)\n"
            "       %s --darshan [--counters LIST] [--map OLD=NEW | --no-map] LOG TRACE\n"
            "Compares the counters of a Darshan log (POSIX, MPI-IO, STDIO) with those Darshan would\n"
            "keep of the traced run: one line per differing counter, exit 0 when all are equal.\n"
            "  --counters LIST   compare only these counters (comma-separated; patterns: POSIX_SIZE_*)\n",
            DIFF_TOOL, DIFF_TOOL);
}

void diff_report(diff_ctx *ctx, const char *line, const char *detail)
{
    if (ctx->stopped)
        return;
    fputs(line, stdout);
    fputc('\n', stdout);
    if (detail)
        fputs(detail, stdout);
    ctx->differences++;
    if (ctx->opt.max_diffs && ctx->differences >= ctx->opt.max_diffs)
        ctx->stopped = 1;
}

static void fail(const rec_error *err)
{
    fprintf(stderr, "%s: %s\n", DIFF_TOOL, err->msg);
    exit(2);
}

/* "  A: LAYER call(...) = ret\n  B: ...\n" */
static void both_calls(diff_ctx *ctx, const rec_record *ra, const rec_record *rb, char *out, size_t cap)
{
    static char ta[16384], tb[16384];
    snprintf(out, cap, "  A: %s\n  B: %s\n", diff_call_text(&ctx->side[0], ra, ta, sizeof ta),
             diff_call_text(&ctx->side[1], rb, tb, sizeof tb));
}

static void open_sides(diff_ctx *ctx, uint32_t rank, int tracking, int counting, int64_t thread)
{
    rec_error err;
    for (int s = 0; s < 2; s++) {
        ctx->side[s].counting = counting;
        ctx->side[s].tracking = tracking;
        ctx->side[s].thread = thread;
        if (diff_side_open(ctx, &ctx->side[s], rank, &err) != 0)
            fail(&err);
    }
}

static void close_sides(diff_ctx *ctx)
{
    for (int s = 0; s < 2; s++)
        diff_side_close(&ctx->side[s]);
}

/* The first pair of corresponding paths that differ, or 0. */
static int first_differing_paths(diff_ctx *ctx, const rec_func_desc *fa, const rec_record *ra,
                                 const rec_record *rb, char *a, char *b)
{
    for (unsigned k = 0; k <= fa->nargs; k++) {
        unsigned kind = k == fa->nargs ? fa->ret_kind : fa->args[k].kind;
        if (kind != REC_KIND_PATH || diff_field_is_link_target(fa, k) || diff_field_ignored(fa, k))
            continue;
        const rec_value *va = k == fa->nargs ? &ra->ret : &ra->args[k];
        const rec_value *vb = k == fa->nargs ? &rb->ret : &rb->args[k];
        const char *pa = diff_side_path(&ctx->side[0], va->i), *pb = diff_side_path(&ctx->side[1], vb->i);
        if (!pa || !pb)
            continue;
        rf_path_normalize(pa, a, DIFF_PATH_MAX, rf_path_flags(fa));
        rf_path_normalize(pb, b, DIFF_PATH_MAX, rf_path_flags(fa));
        if (strcmp(a, b))
            return 1;
    }
    return 0;
}

/* Walks the ranks (rank 0 first) in lockstep until corresponding calls name
 * different paths, and infers the mapping from that pair. A rank that
 * names paths and agrees on all of them settles it: no mapping. */
static int infer_mapping_on(diff_ctx *ctx, uint32_t nranks, uint32_t thread);

/* With --threads, a program whose main thread names no path (its threads do
 * the I/O) is told by its first thread that does, on rank 0. */
static int by_id(const void *a, const void *b);

static void infer_mapping(diff_ctx *ctx, uint32_t nranks)
{
    if (infer_mapping_on(ctx, nranks, 0) || !ctx->opt.threads || !nranks)
        return;
    ctx->nthreads = 0;
    open_sides(ctx, 0, 0, 0, -1);
    rec_record r;
    const rec_func_desc *f;
    rec_error err;
    int got;
    while ((got = diff_side_next(ctx, &ctx->side[0], &r, &f, &err)) == 1)
        ;
    close_sides(ctx);
    if (got < 0)
        fail(&err);
    uint32_t threads[DIFF_MAX_THREADS];
    size_t n = ctx->nthreads;
    memcpy(threads, ctx->threads, n * sizeof *threads);
    qsort(threads, n, sizeof *threads, by_id);
    for (size_t t = 0; t < n; t++)
        if (threads[t] != 0 && threads[t] < DIFF_MAX_STARTED && ctx->started[threads[t]] &&
            infer_mapping_on(ctx, 1, threads[t]))
            return;
}

/* 1 when the calls of the thread settled the mapping (or that none is needed). */
static int infer_mapping_on(diff_ctx *ctx, uint32_t nranks, uint32_t thread)
{
    char a[DIFF_PATH_MAX], b[DIFF_PATH_MAX];
    for (uint32_t rank = 0; rank < nranks; rank++) {
        open_sides(ctx, rank, 0, 0, thread);
        int saw_paths = 0, found = 0;
        rec_record ra, rb;
        const rec_func_desc *fa, *fb;
        rec_error err;
        for (;;) {
            int ga = diff_side_next(ctx, &ctx->side[0], &ra, &fa, &err);
            if (ga < 0)
                fail(&err);
            int gb = ga ? diff_side_next(ctx, &ctx->side[1], &rb, &fb, &err) : 0;
            if (gb < 0)
                fail(&err);
            if (!ga || !gb || strcmp(fa->name, fb->name))
                break;
            for (unsigned k = 0; k < fa->nargs; k++)
                saw_paths |= fa->args[k].kind == REC_KIND_PATH;
            if ((found = first_differing_paths(ctx, fa, &ra, &rb, a, b)))
                break;
        }
        close_sides(ctx);
        if (found) {
            if (diff_paths_infer(&ctx->paths, a, b) == 0) {
                char how[2 * DIFF_PATH_MAX + 64];
                diff_paths_describe(&ctx->paths, how, sizeof how);
                printf("%s: paths: %s (inferred from rank %u: \"%s\" vs \"%s\")\n", DIFF_TOOL, how, rank, a, b);
            }
            return 1;
        }
        if (saw_paths)
            return 1;
    }
    return 0;
}

static void warn_incomplete(diff_ctx *ctx, uint32_t rank)
{
    for (int s = 0; s < 2; s++)
        if (!rec_cursor_complete(ctx->side[s].cursor))
            fprintf(stderr, "%s: warning: %s/%u.rec: the rank did not close its trace (crash or kill?): "
                            "compared up to its last complete block\n",
                    DIFF_TOOL, rec_trace_dir(ctx->side[s].trace), rank);
}

/* One thread's top-level calls on one rank, both sides in lockstep. */
/* The same call: one function, or an MPI-4 large-count function and its
 * int form (X_c, X), which a replay on an MPI without MPI-4 calls in its
 * place; their arguments sit alike. */
static int same_function(const rec_func_desc *a, const rec_func_desc *b)
{
    if (!strcmp(a->name, b->name))
        return 1;
    /* each side's descriptors are its trace's table's: the twins are told by name */
    const rec_func_desc *ta = rec_func_int_twin(a), *tb = rec_func_int_twin(b);
    return (ta && !strcmp(ta->name, b->name)) || (tb && !strcmp(tb->name, a->name));
}

static void compare_sequence(diff_ctx *ctx, uint32_t rank, int64_t thread, int counting)
{
    static char msg[4 * DIFF_PATH_MAX], line[4 * DIFF_PATH_MAX + 96], detail[40000];
    static char extra[16400];
    char where[64];
    if (thread > 0)
        snprintf(where, sizeof where, "rank %u, thread %lld", rank, (long long)thread);
    else
        snprintf(where, sizeof where, "rank %u", rank);
    open_sides(ctx, rank, 1, counting, thread);
    int more[2] = {1, 1}, in_step = !ctx->opt.counters_only;
    uint64_t position = 0, extra_at = 0;
    rec_record r[2];
    const rec_func_desc *f[2];
    rec_error err;
    extra[0] = 0;
    while ((more[0] || more[1]) && !ctx->stopped) {
        int got[2] = {0, 0};
        for (int s = 0; s < 2; s++) {
            if (!more[s])
                continue;
            got[s] = diff_side_next(ctx, &ctx->side[s], &r[s], &f[s], &err);
            if (got[s] < 0)
                fail(&err);
            more[s] = got[s];
        }
        if (ctx->tuned && got[0])
            f[0] = diff_tuned_expect(ctx, f[0], &r[0]);
        /* B's calls the tuning set adds, passed over while they do not match A's */
        while (ctx->tuned && in_step && got[1] && (!got[0] || !same_function(f[0], f[1])) &&
               diff_tuned_added(ctx, f[1], &r[1])) {
            ctx->side[1].calls--;
            if ((got[1] = more[1] = diff_side_next(ctx, &ctx->side[1], &r[1], &f[1], &err)) < 0)
                fail(&err);
        }
        if (!got[0] && !got[1])
            break;
        position++;
        if (!in_step)
            continue;
        if (!got[0] || !got[1]) {
            /* One side ran out: its count line will say so, with the first extra call. */
            int s = got[0] ? 0 : 1;
            char text[16384];
            snprintf(extra, sizeof extra, "  %s: first extra call %llu: %s\n", ctx->side[s].label,
                     (unsigned long long)position, diff_call_text(&ctx->side[s], &r[s], text, sizeof text));
            extra_at = position;
            in_step = 0;
            continue;
        }
        if (!same_function(f[0], f[1])) {
            snprintf(line, sizeof line, "%s, call %llu: A has %s(...), B has %s(...)", where,
                     (unsigned long long)position, f[0]->name, f[1]->name);
            both_calls(ctx, &r[0], &r[1], detail, sizeof detail);
            diff_report(ctx, line, detail);
            in_step = 0;
            continue;
        }
        int differ = diff_compare_call(ctx, f[0], &r[0], f[1], &r[1], msg, sizeof msg);
        if (!differ && ctx->tuned)
            diff_tuned_matched(ctx);
        if (differ) {
            snprintf(line, sizeof line, "%s, call %llu: %s", where, (unsigned long long)position, msg);
            both_calls(ctx, &r[0], &r[1], detail, sizeof detail);
            if (!diff_race_defer(ctx, f[0], &r[0], &r[1], line, detail))
                diff_report(ctx, line, detail);
        }
    }
    if (diff_dirs_finish(ctx, msg, sizeof msg)) { /* frees the streams' names even after --max */
        snprintf(line, sizeof line, "%s: %s", where, msg);
        diff_report(ctx, line, NULL);
    }
    if (!ctx->opt.counters_only && ctx->side[0].calls != ctx->side[1].calls) {
        snprintf(line, sizeof line, "%s: A has %llu top-level I/O calls, B has %llu", where,
                 (unsigned long long)ctx->side[0].calls, (unsigned long long)ctx->side[1].calls);
        diff_report(ctx, line, extra_at ? extra : NULL);
    }
    if (!ctx->stopped && thread <= 0)
        warn_incomplete(ctx, rank);
    ctx->calls += ctx->side[0].calls;
    close_sides(ctx);
}

static int by_id(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* With --threads, each thread's calls form their own sequence (threads
 * interleave differently in every run), compared thread id by thread id;
 * the per-file counts then come from a separate pass over all of them. */
static void compare_rank(diff_ctx *ctx, uint32_t rank)
{
    if (!ctx->opt.threads) {
        compare_sequence(ctx, rank, 0, 1);
    } else {
        ctx->nthreads = 0;
        memset(ctx->started, 0, sizeof ctx->started);
        open_sides(ctx, rank, 1, 1, -1);
        rec_record r;
        const rec_func_desc *f;
        rec_error err;
        for (int s = 0; s < 2; s++) {
            int got;
            while ((got = diff_side_next(ctx, &ctx->side[s], &r, &f, &err)) == 1)
                ;
            if (got < 0)
                fail(&err);
        }
        close_sides(ctx);
        size_t kept = 0; /* the main thread and the threads the program started: not an MPI library's own */
        for (size_t t = 0; t < ctx->nthreads; t++)
            if (ctx->threads[t] == 0 || (ctx->threads[t] < DIFF_MAX_STARTED && ctx->started[ctx->threads[t]]))
                ctx->threads[kept++] = ctx->threads[t];
        ctx->nthreads = kept;
        qsort(ctx->threads, ctx->nthreads, sizeof ctx->threads[0], by_id);
        for (size_t t = 0; t < ctx->nthreads && !ctx->stopped; t++)
            compare_sequence(ctx, rank, ctx->threads[t], 0);
    }
    diff_handles_end_rank(ctx);
    if (ctx->tuned)
        diff_tuned_end_rank(ctx);
    if (!ctx->stopped)
        diff_files_end_rank(ctx, rank);
}

static int parse_max(const char *s, uint64_t *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end || s[0] == '-')
        return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    enum { OPT_MAP = 256, OPT_NO_MAP, OPT_COUNTERS, OPT_ALL_MPI, OPT_THREADS, OPT_IGNORE_HANDLES, OPT_MAX,
           OPT_DARSHAN, OPT_DARSHAN_COUNTERS, OPT_TUNED, OPT_SET };
    static const struct option options[] = {{"map", required_argument, 0, OPT_MAP},
                                            {"no-map", no_argument, 0, OPT_NO_MAP},
                                            {"counters-only", no_argument, 0, OPT_COUNTERS},
                                            {"all-mpi", no_argument, 0, OPT_ALL_MPI},
                                            {"threads", no_argument, 0, OPT_THREADS},
                                            {"ignore-handles", no_argument, 0, OPT_IGNORE_HANDLES},
                                            {"max", required_argument, 0, OPT_MAX},
                                            {"darshan", no_argument, 0, OPT_DARSHAN},
                                            {"counters", required_argument, 0, OPT_DARSHAN_COUNTERS},
                                            {"tuned", required_argument, 0, OPT_TUNED},
                                            {"set", required_argument, 0, OPT_SET},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    static diff_ctx ctx;
    ctx.opt.max_diffs = 10;
    int opt, darshan = 0;
    const char *counters = NULL, *tuned = NULL;
    static char **sets; /* static: the early returns below leave it to the exit */
    sets = calloc((size_t)argc + 1, sizeof *sets);
    int nsets = 0;
    while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        switch (opt) {
        case OPT_MAP: {
            char *eq = strchr(optarg, '=');
            if (eq)
                *eq = 0;
            if (!eq || diff_paths_add(&ctx.paths, optarg, eq + 1) != 0) {
                fprintf(stderr, "%s: --map: expected OLD=NEW with a non-empty NEW: %s\n", DIFF_TOOL, optarg);
                return 2;
            }
            ctx.opt.explicit_map = 1;
            break;
        }
        case OPT_NO_MAP: ctx.opt.no_map = 1; break;
        case OPT_COUNTERS: ctx.opt.counters_only = 1; break;
        case OPT_ALL_MPI: ctx.opt.all_mpi = 1; break;
        case OPT_THREADS: ctx.opt.threads = 1; break;
        case OPT_IGNORE_HANDLES: ctx.opt.ignore_handles = 1; break;
        case OPT_MAX:
            if (parse_max(optarg, &ctx.opt.max_diffs) != 0) {
                fprintf(stderr, "%s: --max: not a count: %s\n", DIFF_TOOL, optarg);
                return 2;
            }
            break;
        case OPT_DARSHAN: darshan = 1; break;
        case OPT_DARSHAN_COUNTERS: counters = optarg; break;
        case OPT_TUNED: tuned = optarg; break;
        case OPT_SET:
            if (sets)
                sets[nsets++] = optarg;
            break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 2) {
        usage(stderr);
        return 2;
    }
    if (ctx.opt.no_map && ctx.opt.explicit_map) {
        fprintf(stderr, "%s: --map and --no-map exclude each other\n", DIFF_TOOL);
        return 2;
    }
    if (counters && !darshan) {
        fprintf(stderr, "%s: --counters is --darshan's: it lists the Darshan counters to compare\n", DIFF_TOOL);
        return 2;
    }
    if ((tuned || nsets) && darshan) {
        fprintf(stderr, "%s: --tuned and --set compare two traces: not with --darshan\n", DIFF_TOOL);
        return 2;
    }
    if ((tuned || nsets) && diff_tuned_init(&ctx, tuned, sets, nsets) != 0)
        return 2;
    free(sets);
    if (darshan) {
        int status = diff_darshan_main(&ctx, argv[optind], argv[optind + 1], counters);
        diff_paths_free(&ctx.paths);
        return status;
    }
    rec_error err;
    for (int s = 0; s < 2; s++) {
        diff_side *side = &ctx.side[s];
        side->which = s;
        side->label = s ? "B" : "A";
        if (!(side->trace = rec_trace_open(argv[optind + s], &err)))
            fail(&err);
        side->table = rec_trace_table(side->trace);
        side->nranks = rec_trace_get_info(side->trace)->nranks;
    }
    uint32_t nranks = ctx.side[0].nranks < ctx.side[1].nranks ? ctx.side[0].nranks : ctx.side[1].nranks;
    if (ctx.side[0].nranks != ctx.side[1].nranks) {
        char line[128];
        snprintf(line, sizeof line, "A has %u ranks, B has %u", ctx.side[0].nranks, ctx.side[1].nranks);
        diff_report(&ctx, line, NULL);
    }
    if (!ctx.opt.no_map && !ctx.opt.explicit_map)
        infer_mapping(&ctx, nranks);
    for (uint32_t rank = 0; rank < nranks && !ctx.stopped; rank++)
        compare_rank(&ctx, rank);
    diff_races_settle(&ctx);
    if (!ctx.stopped)
        diff_files_end(&ctx);
    if (ctx.tuned && !ctx.stopped)
        diff_tuned_finish(&ctx);
    if (ctx.differences == 0)
        printf("%s: equivalent%s: %u rank%s, %llu top-level I/O calls, %zu files\n", DIFF_TOOL,
               ctx.opt.counters_only ? " (per-file counters only)" : "", nranks, nranks == 1 ? "" : "s",
               (unsigned long long)ctx.calls, diff_files_count(&ctx));
    else if (ctx.stopped)
        printf("%s: not equivalent: stopped after the first %llu differences (--max)\n", DIFF_TOOL,
               (unsigned long long)ctx.differences);
    else
        printf("%s: not equivalent: %llu difference%s\n", DIFF_TOOL, (unsigned long long)ctx.differences,
               ctx.differences == 1 ? "" : "s");
    int status = ctx.differences ? 1 : 0;
    if (fflush(stdout) != 0) {
        fprintf(stderr, "%s: writing to stdout failed\n", DIFF_TOOL);
        status = 2;
    }
    diff_files_free(&ctx);
    diff_paths_free(&ctx.paths);
    diff_tuned_free(&ctx);
    for (int s = 0; s < 2; s++)
        rec_trace_close(ctx.side[s].trace);
    return status;
}
