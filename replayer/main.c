/* recorder-replay: replays a trace's I/O under MPI.
 *
 *   mpirun -np N recorder-replay [--prefix DIR] [--timing asap|faithful|SCALE]
 *                                [--layers top|posix|mpiio|hdf5] [--strict] [-v] TRACE_DIR
 *
 * Each rank replays its own records in trace order (ScalaIOReplay, section
 * 3.3 of "ScalaIOExtrap: Elastic I/O Tracing and Extrapolation"), re-creating
 * every handle from the calls that made it, with every path re-rooted under
 * the prefix. The trace is read by a loader
 * process (loader.c); the replay itself is the generated dispatch (one
 * function per table entry, replay_*.c) driven by select.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fs.h"
#include "loader.h"
#include "order.h"
#include "recorder_facts.h"
#include "select.h"
#include "summary.h"
#include "text.h"
#include "tune.h"
#include "threads.h"
#include "wire.h"

static rp_replay_fn dispatch[REC_FUNCTION_ID_LIMIT];
static rp_ctx ctx;
static pid_t loader_pid = -1;
static int has_init; /* the trace has an MPI_Init record to anchor the clocks */
static uint64_t last_tend;

static const char usage[] =
    "usage: mpirun -np N recorder-replay [--prefix DIR] [--timing asap|faithful|SCALE]\n"
    "                                    [--layers top|posix|mpiio|hdf5] [--tune FILE] [--set "
    "LAYER.KEY=VALUE]...\n"
    "                                    [--strict] [-v] TRACE_DIR\n"
    "  --prefix DIR   every path is re-rooted under DIR (default ./replay-output)\n"
    "  --timing T     asap (default): no gaps; faithful: the traced gaps between calls;\n"
    "                 a number: the traced gaps times that number\n"
    "  --layers L     top (default): the application's own calls; posix, mpiio or hdf5:\n"
    "                 that layer's calls at every depth (with the MPI calls that order them)\n"
    "  --tune FILE    apply a tuning set: LAYER.KEY=VALUE a line (docs/user/tuning.md)\n"
    "  --set L.K=V    one override more (repeatable; wins over --tune's)\n"
    "  --strict       exit 1 when a call succeeds or fails differently from the trace\n"
    "  -v             report every skipped or differing call on stderr\n";

/* Before MPI_Init only the launcher knows the rank: say things once. */
static int launcher_rank0(void)
{
    const char *v = getenv("PMI_RANK");
    if (!v)
        v = getenv("OMPI_COMM_WORLD_RANK");
    return !v || !strcmp(v, "0");
}

#define say_once(...) (launcher_rank0() ? rp_say(2, __VA_ARGS__) : (void)0)

static const char *tune_file;
static char **tune_sets;
static int ntune_sets;

static int parse(int argc, char **argv, rp_options *o)
{
    const char *prefix = "replay-output";
    o->layers = RP_LAYERS_TOP;
    o->scale = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--prefix") && v) {
            prefix = v;
            i++;
        } else if (!strcmp(a, "--timing") && v) {
            char *end;
            if (!strcmp(v, "asap"))
                o->scale = 0;
            else if (!strcmp(v, "faithful"))
                o->scale = 1;
            else if ((o->scale = strtod(v, &end)) < 0 || *end || end == v) {
                say_once("recorder-replay: --timing %s: not asap, faithful or a non-negative number\n", v);
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--layers") && v) {
            if (!strcmp(v, "top"))
                o->layers = RP_LAYERS_TOP;
            else if (!strcmp(v, "posix"))
                o->layers = REC_LAYER_POSIX;
            else if (!strcmp(v, "mpiio") || !strcmp(v, "mpi-io"))
                o->layers = REC_LAYER_MPIIO;
            else if (!strcmp(v, "hdf5"))
                o->layers = REC_LAYER_HDF5;
            else {
                say_once("recorder-replay: --layers %s: not top, posix, mpiio or hdf5\n", v);
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--tune") && v) {
            tune_file = argv[++i];
        } else if (!strcmp(a, "--set") && v) {
            if (!tune_sets)
                tune_sets = calloc((size_t)argc, sizeof *tune_sets);
            if (!tune_sets)
                return -1;
            tune_sets[ntune_sets++] = argv[++i];
        } else if (!strcmp(a, "--strict")) {
            o->strict = 1;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            o->verbose = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            rp_say(1, "%s", usage);
            exit(0);
        } else if (a[0] == '-' || o->trace_dir) {
            say_once("recorder-replay: %s: unexpected argument\n%s", a, usage);
            return -1;
        } else {
            o->trace_dir = a;
        }
    }
    if (!o->trace_dir) {
        say_once("recorder-replay: no trace directory given\n%s", usage);
        return -1;
    }
    char cwd[RP_PATH_MAX], joined[2 * RP_PATH_MAX + 2];
    if (prefix[0] != '/' && rp_sys_getcwd(cwd, sizeof cwd) != 0) {
        say_once("recorder-replay: cannot tell the working directory: %s\n", strerror(errno));
        return -1;
    }
    snprintf(joined, sizeof joined, "%s%s%s", prefix[0] == '/' ? "" : cwd, prefix[0] == '/' ? "" : "/",
             prefix);
    if (rf_path_normalize(joined, o->prefix, sizeof o->prefix, RF_PATH_ROOTED) != 0 || strlen(o->prefix) > RP_PATH_MAX / 2) {
        say_once("recorder-replay: --prefix %s: path too long\n", prefix);
        return -1;
    }
    if (!strcmp(o->prefix, "/")) {
        say_once("recorder-replay: --prefix %s: the root would re-root nothing; name a directory\n", prefix);
        return -1;
    }
    return 0;
}

static void stop_loader(void)
{
    if (loader_pid > 0) {
        kill(loader_pid, SIGTERM);
        waitpid(loader_pid, NULL, 0);
        loader_pid = -1;
    }
}

/* After MPI_Init: every rank stops here together. */
static void quit(int code, const char *msg)
{
    if (msg && *msg)
        rp_say(2, "%s\n", msg);
    stop_loader();
    MPI_Finalize();
    exit(code);
}

static void fatal(const char *msg)
{
    rp_say(2, "recorder-replay: rank %d: %s\n", ctx.rank, msg);
    stop_loader();
    PMPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static void anchor(uint64_t ticks)
{
    ctx.anchor_ticks = ticks;
    ctx.anchor_now = rp_now();
    ctx.anchored = 1;
}

static void emit(void *arg, rp_rec *r, int action)
{
    rp_ctx *x = arg;
    const rec_func_desc *f = rec_function_by_id(r->func);
    if (action != RP_ISSUE && f && rec_func_sole(f) == REC_SOLE_STARTS_THREAD)
        rp_thread_not_started(f, r, "of a thread a library started inside a call (which starts it again)");
    if (action == RP_COVERED)
        return;
    rp_order_wait(r->thread, r->seq);
    if (action == RP_OUTSIDE) {
        x->stats.filtered[f ? f->layer : 0]++;
    } else {
        rp_arena_reset(x);
        x->reason = NULL;
        rp_text_note(x, r);
        if (f && r->compatible)
            rp_tune_record(x, r); /* the set's twin and setter values */
        if (!f || !dispatch[r->func])
            x->reason = "a function this build does not know";
        else if (!r->compatible)
            x->reason = "the trace describes this function differently from this build's table";
        if (x->reason)
            rp_skip(x, r);
        else
            dispatch[r->func](x, r);
    }
    rp_order_done(r->thread, r->seq);
}

/* MPI_Init and MPI_Finalize are the replayer's own: they only set the clocks (the main thread's). */
static int handle_opaque(rp_ctx *x, rp_rec *r)
{
    const rec_func_desc *f = rec_function_by_id(r->func);
    if (!f || !(f->flags & REC_FN_OPAQUE) || !r->compatible || r->depth)
        return 0;
    if (x != &ctx) {
        /* nothing to time on another thread */
    } else if (f->roles & REC_ROLE_ENDS_MPI) {
        rp_begin(&ctx, r); /* the computing before it, in faithful mode */
        if (ctx.anchored && r->tstart > ctx.anchor_ticks)
            ctx.orig_end = (double)(r->tstart - ctx.anchor_ticks) * ctx.resolution;
    } else if (!ctx.anchored) {
        anchor(r->tend);
    }
    x->stats.replayed[f->layer]++;
    return 1;
}

/* The edges that order the ranks (order.h), as rank 0's loader found them. */
static rp_edge *edges;
static uint32_t nedges;
/* The delimiters the trace's line reads showed (text.h), as rank 0's loader found them. */
static char *text_blob;
static uint64_t text_len;
/* A trace cut short (cut.h): each rank's records up to the cut, the ranks
 * whose streams lack their end marker, and the merged records kept. */
static uint64_t *cut_limits;
static uint32_t cut_unfinished;
static uint64_t cut_after;

static void read_prep(rp_in *in, rp_prep_report *prep, char **unsynth, uint32_t *unsynth_len, char *err,
                      size_t cap)
{
    rp_msg m;
    if (!rp_in_next(in, &m)) {
        snprintf(err, cap, "recorder-replay: the trace loader stopped before it prepared the inputs");
        return;
    }
    if (m.type == RP_MSG_ERROR) {
        char *s = rp_msg_str(&m);
        snprintf(err, cap, "%s", s ? s : "recorder-replay: the trace cannot be read");
        free(s);
        free(m.data);
        return;
    }
    size_t n = rp_msg_u32(&m), used = 0;
    prep->inputs = calloc(n ? n : 1, sizeof *prep->inputs);
    for (size_t i = 0; i < n && !m.bad; i++) {
        rp_input *p = &prep->inputs[prep->ninputs++];
        uint8_t kind = rp_msg_u8(&m);
        p->is_dir = kind == RP_INPUT_DIR;
        p->link = kind == RP_INPUT_LINK;
        p->size = rp_msg_i64(&m);
        p->hdf5 = rp_msg_u8(&m);
        p->key = rp_msg_str(&m);
        if (p->hdf5 == RP_INPUT_HDF5 && !p->is_dir && p->key) {
            size_t k = strlen(p->key) + 1;
            char *grown = realloc(*unsynth, used + k);
            if (grown) {
                memcpy(grown + used, p->key, k);
                *unsynth = grown;
                used += k;
            }
        }
    }
    prep->nwarnings = rp_msg_u32(&m);
    prep->warnings = calloc(prep->nwarnings + 1, sizeof *prep->warnings);
    for (size_t i = 0; i < prep->nwarnings && !m.bad; i++)
        prep->warnings[i] = rp_msg_str(&m);
    nedges = rp_msg_u32(&m);
    edges = calloc(nedges ? nedges : 1, sizeof *edges);
    if (!edges)
        nedges = 0;
    for (uint32_t i = 0; i < nedges && !m.bad; i++) { /* one read a statement: in order */
        edges[i].from_rank = rp_msg_u32(&m);
        edges[i].from_seq = rp_msg_u32(&m);
        edges[i].to_rank = rp_msg_u32(&m);
        edges[i].to_seq = rp_msg_u32(&m);
        edges[i].from_thread = rp_msg_u32(&m);
        edges[i].to_thread = rp_msg_u32(&m);
    }
    rp_text_receive(&m, &text_blob, &text_len);
    uint32_t nlimits = rp_msg_u32(&m);
    if (nlimits && !m.bad && nlimits == (uint32_t)ctx.nranks && (cut_limits = calloc(nlimits, sizeof *cut_limits)))
        for (uint32_t r = 0; r < nlimits && !m.bad; r++)
            cut_limits[r] = (uint64_t)rp_msg_i64(&m);
    else if (nlimits)
        m.bad = 1;
    cut_unfinished = rp_msg_u32(&m);
    cut_after = (uint64_t)rp_msg_i64(&m);
    if (m.bad || m.type != RP_MSG_PREP)
        snprintf(err, cap, "recorder-replay: garbled message from the trace loader");
    *unsynth_len = (uint32_t)used;
    free(m.data);
}

/* Every record, as the stream passes it (threads.c: one reader at a time). */
static void on_read(const rp_rec *r)
{
    if (!ctx.anchored && !has_init)
        anchor(r->tstart);
    if (r->tend > last_tend)
        last_tend = r->tend;
}

/* The records of one thread, through call-tree selection, to the dispatch. */
static void run_thread(rp_ctx *x, uint32_t thread)
{
    rp_select *sel = rp_select_new(ctx.opt.layers);
    if (!sel)
        fatal("out of memory");
    for (rp_rec *r; (r = rp_thread_next(thread));) {
        if (handle_opaque(x, r)) {
            free(r);
            continue;
        }
        rp_select_push(sel, r, emit, x);
    }
    rp_select_flush(sel, emit, x);
    rp_select_free(sel);
}

/* The stream of this rank's records: the main thread's here, the others' on threads of their own. */
static void replay(rp_in *in)
{
    static const rp_threads_hooks hooks = {on_read, run_thread, fatal};
    rp_threads_init(in, &hooks, &ctx);
    run_thread(&ctx, 0);
    rp_threads_finish(&ctx);
    if (ctx.anchored && ctx.orig_end == 0 && last_tend > ctx.anchor_ticks)
        ctx.orig_end = (double)(last_tend - ctx.anchor_ticks) * ctx.resolution;
}

/* The other ranks wait for rank 0's loader without polling: where ranks
 * outnumber cores, a rank spinning in a collective takes the CPU that
 * pre-creating the inputs needs. */
static void wait_quietly(void)
{
    MPI_Request request;
    int done = 0;
    PMPI_Ibarrier(MPI_COMM_WORLD, &request);
    while (PMPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && !done)
        nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
}

int main(int argc, char **argv)
{
    rp_options *o = &ctx.opt;
    if (parse(argc, argv, o) != 0)
        return 2;
    char tune_err[1024];
    if (rp_tune_init(tune_file, tune_sets, ntune_sets, dispatch, tune_err, sizeof tune_err) != 0) {
        say_once("recorder-replay: %s\n", tune_err);
        return 2;
    }
    rp_register_posix(dispatch);
    rp_register_mpi(dispatch);
    rp_register_mpiio(dispatch);
    rp_register_hdf5(dispatch);
#ifdef RECORDER_HAVE_PNETCDF
    rp_register_pnetcdf(dispatch);
#endif
#ifdef RECORDER_HAVE_NETCDF
    rp_register_netcdf(dispatch);
#endif
    /* The loader: forked before MPI_Init, talking over two pipes. */
    int up[2], down[2];
    if (pipe2(up, O_CLOEXEC) != 0 || pipe2(down, O_CLOEXEC) != 0) {
        rp_say(2, "recorder-replay: pipe: %s\n", strerror(errno));
        return 1;
    }
    loader_pid = fork();
    if (loader_pid < 0) {
        rp_say(2, "recorder-replay: fork: %s\n", strerror(errno));
        return 1;
    }
    if (loader_pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        rp_sys_close(up[0]);
        rp_sys_close(down[1]);
        signal(SIGPIPE, SIG_IGN);
        _exit(rp_loader_main(o, up[1], down[0]));
    }
    rp_sys_close(up[1]);
    rp_sys_close(down[0]);
    static rp_in in;
    rp_in_init(&in, up[0]);
    rp_msg hello;
    char err[1400] = "";
    uint32_t nranks = 0, init_func = 0;
    int64_t required = 0;
    int ok = rp_in_next(&in, &hello) && hello.type == RP_MSG_HELLO;
    if (ok) {
        ok = rp_msg_u8(&hello);
        char *msg = rp_msg_str(&hello);
        snprintf(err, sizeof err, "%s", msg ? msg : "");
        free(msg);
        nranks = rp_msg_u32(&hello);
        ctx.resolution = rp_msg_f64(&hello);
        init_func = rp_msg_u32(&hello);
        required = rp_msg_i64(&hello);
        free(hello.data);
    } else {
        snprintf(err, sizeof err, "recorder-replay: %s: the trace loader failed", o->trace_dir);
    }
    /* MPI as the application started it (the tracer records this MPI_Init). */
    const rec_func_desc *init = rec_function_by_id(init_func);
    has_init = init != NULL;
    int provided;
    if (ok && init && rec_arg_with_kind(init, REC_KIND_MPI_THREAD_LEVEL, REC_ARG_IN) >= 0)
        MPI_Init_thread(&argc, &argv, (int)required, &provided);
    else
        MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &ctx.rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &ctx.nranks);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int all_ok = 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        quit(1, ok ? (ctx.rank == 0 ? "recorder-replay: another rank cannot read the trace" : NULL)
                   : (ctx.rank == 0 ? err : NULL));
    if ((int)nranks != ctx.nranks) {
        snprintf(err, sizeof err,
                 "recorder-replay: %s: the trace has %u rank%s but the replay runs on %d: run it "
                 "with mpirun -np %u",
                 o->trace_dir, nranks, nranks == 1 ? "" : "s", ctx.nranks, nranks);
        quit(1, ctx.rank == 0 ? err : NULL);
    }
    char h5err[512];
    int h5ok = rp_h5_init(h5err, sizeof h5err) == 0;
    if (!h5ok)
        quit(1, h5err);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL); /* failures are counted, not printed */
    rp_handles_init();
    /* Rank 0's loader checks the whole trace and pre-creates the inputs. */
    uint32_t rank = (uint32_t)ctx.rank;
    uint8_t prep_here = ctx.rank == 0;
    if (rp_sys_write_all(down[1], &rank, sizeof rank) != 0 || rp_sys_write_all(down[1], &prep_here, 1) != 0)
        fatal("cannot talk to the trace loader");
    rp_prep_report prep = {0};
    char *unsynth = NULL;
    uint32_t unsynth_len = 0;
    err[0] = 0;
    if (ctx.rank == 0)
        read_prep(&in, &prep, &unsynth, &unsynth_len, err, sizeof err);
    wait_quietly();
    int prep_ok = err[0] == 0;
    PMPI_Bcast(&prep_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!prep_ok)
        quit(1, ctx.rank == 0 ? err : NULL);
    PMPI_Bcast(&unsynth_len, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (ctx.rank != 0)
        unsynth = calloc(unsynth_len + 1, 1);
    PMPI_Bcast(unsynth, (int)unsynth_len, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (uint32_t at = 0; at < unsynth_len; at += (uint32_t)strlen(unsynth + at) + 1)
        rp_unsynth_add(&ctx, unsynth + at);
    free(unsynth);
    /* Every rank gets the edges: rank 0's loader found them. */
    PMPI_Bcast(&nedges, 1, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    if (ctx.rank != 0)
        edges = calloc(nedges ? nedges : 1, sizeof *edges);
    if (!edges)
        fatal("out of memory");
    PMPI_Bcast(edges, (int)(nedges * RP_EDGE_WORDS), MPI_UINT32_T, 0, MPI_COMM_WORLD);
    rp_order_init(edges, nedges, ctx.rank);
    free(edges);
    /* and the delimiters (bounded by what one broadcast carries) */
    PMPI_Bcast(&text_len, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (text_len > INT32_MAX)
        text_len = 0;
    if (text_len) {
        if (ctx.rank != 0)
            text_blob = malloc(text_len);
        if (!text_blob)
            fatal("out of memory");
        PMPI_Bcast(text_blob, (int)text_len, MPI_CHAR, 0, MPI_COMM_WORLD);
        rp_text_init(text_blob, text_len);
    }
    free(text_blob);
    /* Each rank's loader streams its records up to the cut, if the trace was cut short. */
    int cut = cut_limits != NULL;
    PMPI_Bcast(&cut, 1, MPI_INT, 0, MPI_COMM_WORLD);
    uint64_t limit = UINT64_MAX;
    if (cut)
        PMPI_Scatter(cut_limits, 1, MPI_UINT64_T, &limit, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    free(cut_limits);
    if (rp_sys_write_all(down[1], &limit, sizeof limit) != 0)
        fatal("cannot talk to the trace loader");

    replay(&in);
    rp_order_free();
    rp_text_free();
    ctx.stats.ordered = rp_order_waits();

    double replay_time = ctx.anchored ? rp_now() - ctx.anchor_now : 0;
    char *text = NULL;
    uint64_t mismatched = 0;
    rp_summary(&ctx, replay_time, ctx.rank == 0 ? &prep : NULL, &text, &mismatched);
    char *tuned = rp_tune_summary(ctx.rank);
    for (size_t i = 0; i < prep.ninputs; i++)
        free(prep.inputs[i].key);
    for (size_t i = 0; i < prep.nwarnings; i++)
        free(prep.warnings[i]);
    free(prep.inputs);
    free(prep.warnings);
    MPI_Finalize();
    if (text)
        rp_say(1, "%s%s", text, tuned ? tuned : "");
    free(tuned);
    rp_tune_free();
    if (text && cut)
        rp_say(1,
               "  cut short: %u rank%s never closed %s trace (a crash or kill): every rank stopped where the first "
               "of those ends (merged record %llu)\n",
               cut_unfinished, cut_unfinished == 1 ? "" : "s", cut_unfinished == 1 ? "its" : "their",
               (unsigned long long)cut_after);
    free(text);
    rp_sys_close(up[0]);
    rp_sys_close(down[1]);
    waitpid(loader_pid, NULL, 0);
    return o->strict && mismatched ? 1 : 0;
}
