/* advise.c: the collector and the findings of recorder-advise (advise.h). */
#include "advise.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_tune.h"

/* What a rank did to a file, as bits of a per-file rank map. */
enum {
    R_MPIIO_OPEN = 1u << 0, /* opened it through MPI-IO, at any depth */
    R_HDF5_OPEN = 1u << 1,  /* created or opened it through HDF5 */
    R_HDF5_WRITE = 1u << 2, /* wrote it through HDF5 */
    R_INDEP = 1u << 3,      /* an independent MPI-IO data call with a collective twin, by the application */
    R_ACCESS = 1u << 4,     /* a data call by the application */
};

typedef struct file_stat {
    unsigned layer;                /* the highest layer of the application's data calls on it */
    uint64_t reads, writes;        /* the application's data calls (depth 0) */
    uint64_t small;                /* of them, under ADVISE_SMALL_BYTES */
    ra_map sizes;                  /* bytes -> calls, for the median */
    uint64_t indep, indep_bytes;   /* independent MPI-IO data calls with a twin (depth 0) */
    uint64_t coll_below;           /* collective MPI-IO data calls beneath another layer */
    ra_map ranks;                  /* rank -> R_* bits */
    uint64_t max_opens, max_seeks; /* the most of one rank */
    uint32_t opens_rank, seeks_rank;
    uint32_t opens_over, seeks_over; /* ranks at or over ADVISE_LOOP_CALLS */
} file_stat;

typedef struct finding {
    char title[96];
    int file; /* -1: the trace's */
    char evidence[512];
    char threshold[256];
    char advice[512];
    char set[ADVISE_SET_MAX][64]; /* LAYER.KEY=VALUE */
    size_t nset;
} finding;

struct advise {
    ra_trace *t;
    file_stat *files;
    size_t nfiles;
    uint64_t *rank_bytes; /* the application's data bytes per rank */
    uint32_t nranks;
    uint32_t walked_first, walked_last;
    int walked;
    ra_map opens, seeks; /* this rank's, per file */
    /* the setters of the knobs, from the function table by way of tune/ */
    const rec_func_desc *align_setter, *md_read_setter, *md_write_setter;
    int align_set, md_read_set, md_write_set; /* the trace called them */
    finding *found;
    size_t nfound;
    char combined[64][64];
    size_t ncombined;
};

/* The setter of a knob, as tune/ reads it from functions/tuning.def. */
static const rec_func_desc *setter_of(const char *assignment)
{
    char err[256];
    tune_set *s = tune_set_new();
    const rec_func_desc *f = NULL;
    if (tune_set_add(s, assignment, "recorder-advise", err, sizeof err) == 0 && tune_set_count(s) == 1)
        f = tune_set_at(s, 0)->setter;
    tune_set_free(s);
    return f;
}

advise *advise_new(ra_trace *t)
{
    advise *a = ra_xcalloc(1, sizeof *a);
    a->t = t;
    a->nranks = ra_trace_nranks(t);
    a->rank_bytes = ra_xcalloc(a->nranks, sizeof *a->rank_bytes);
    a->align_setter = setter_of("hdf5.alignment=1M");
    a->md_read_setter = setter_of("hdf5.coll_metadata_read=true");
    a->md_write_setter = setter_of("hdf5.coll_metadata_write=true");
    return a;
}

void advise_free(advise *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->nfiles; i++) {
        ra_map_free(&a->files[i].sizes);
        ra_map_free(&a->files[i].ranks);
    }
    free(a->files);
    free(a->rank_bytes);
    ra_map_free(&a->opens);
    ra_map_free(&a->seeks);
    free(a->found);
    free(a);
}

static file_stat *file_of(advise *a, int file)
{
    if ((size_t)file >= a->nfiles) {
        size_t n = (size_t)file + 16;
        a->files = ra_xrealloc(a->files, n * sizeof *a->files);
        memset(a->files + a->nfiles, 0, (n - a->nfiles) * sizeof *a->files);
        a->nfiles = n;
    }
    return &a->files[file];
}

static void mark(file_stat *f, uint32_t rank, unsigned bits)
{
    int fresh;
    *ra_map_insert(&f->ranks, rank, &fresh) |= bits;
}

static int same(const rec_func_desc *f, const rec_func_desc *setter)
{
    return setter && f && f->name && !strcmp(f->name, setter->name);
}

static int begin_rank(void *ctx, ra_trace *t, uint32_t rank)
{
    (void)t;
    advise *a = ctx;
    ra_map_free(&a->opens);
    ra_map_free(&a->seeks);
    if (!a->walked)
        a->walked_first = rank;
    a->walked = 1;
    a->walked_last = rank;
    return 0;
}

static int on_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    (void)t;
    advise *a = ctx;
    const rec_func_desc *f = ev->func;
    if (!f || ev->failed)
        return 0;
    if (same(f, a->align_setter))
        a->align_set = 1;
    if (same(f, a->md_read_setter))
        a->md_read_set = 1;
    if (same(f, a->md_write_setter))
        a->md_write_set = 1;
    if (ev->file < 0 || ev->console)
        return 0;
    file_stat *fs = file_of(a, ev->file);
    int fresh;
    if (ev->op == RA_OP_OPEN) {
        if (ev->layer == REC_LAYER_MPIIO)
            mark(fs, ev->rank, R_MPIIO_OPEN);
        if (ev->layer == REC_LAYER_HDF5)
            mark(fs, ev->rank, R_HDF5_OPEN);
        if (ev->depth == 0)
            ++*ra_map_insert(&a->opens, (uint64_t)ev->file, &fresh);
    }
    if (ev->depth == 0 && (f->roles & REC_ROLE_SEEKS))
        ++*ra_map_insert(&a->seeks, (uint64_t)ev->file, &fresh);
    if (ev->op != RA_OP_READ && ev->op != RA_OP_WRITE)
        return 0;
    if (ev->layer == REC_LAYER_HDF5 && ev->op == RA_OP_WRITE)
        mark(fs, ev->rank, R_HDF5_WRITE);
    int collective = (f->flags & REC_FN_COLLECTIVE) != 0;
    if (ev->depth > 0) {
        if (ev->layer == REC_LAYER_MPIIO && collective)
            fs->coll_below++;
        return 0;
    }
    /* the application's own data call */
    if (ev->layer > fs->layer || (fs->reads + fs->writes) == 0)
        fs->layer = ev->layer;
    if (ev->op == RA_OP_READ)
        fs->reads++;
    else
        fs->writes++;
    if (ev->bytes < ADVISE_SMALL_BYTES)
        fs->small++;
    ++*ra_map_insert(&fs->sizes, (uint64_t)(ev->bytes > 0 ? ev->bytes : 0), &fresh);
    mark(fs, ev->rank, R_ACCESS);
    if (ev->rank < a->nranks && ev->bytes > 0)
        a->rank_bytes[ev->rank] += (uint64_t)ev->bytes;
    int is_coll = 0;
    if (ev->layer == REC_LAYER_MPIIO && !collective && tune_twin(f, &is_coll) && !is_coll) {
        fs->indep++;
        fs->indep_bytes += ev->bytes > 0 ? (uint64_t)ev->bytes : 0;
        mark(fs, ev->rank, R_INDEP);
    }
    return 0;
}

/* A rank's opens and seeks per file into the files' most and ranks over. */
static int end_rank(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    (void)t, (void)w;
    advise *a = ctx;
    for (int kind = 0; kind < 2; kind++) {
        ra_map *m = kind ? &a->seeks : &a->opens;
        for (size_t i = 0; i < m->cap; i++) {
            if (m->keys[i] == RA_MAP_EMPTY)
                continue;
            file_stat *fs = file_of(a, (int)m->keys[i]);
            uint64_t n = m->vals[i];
            uint64_t *most = kind ? &fs->max_seeks : &fs->max_opens;
            uint32_t *who = kind ? &fs->seeks_rank : &fs->opens_rank;
            uint32_t *over = kind ? &fs->seeks_over : &fs->opens_over;
            if (n > *most)
                *most = n, *who = rank;
            if (n >= ADVISE_LOOP_CALLS)
                (*over)++;
        }
    }
    return 0;
}

ra_visitor advise_visitor(advise *a)
{
    ra_visitor v = {a, begin_rank, on_event, end_rank};
    return v;
}

/* ---- the findings ---- */

static uint32_t ranks_with(const file_stat *fs, unsigned bits)
{
    uint32_t n = 0;
    for (size_t i = 0; i < fs->ranks.cap; i++)
        if (fs->ranks.keys[i] != RA_MAP_EMPTY && (fs->ranks.vals[i] & bits) == bits)
            n++;
    return n;
}

static uint64_t median_bytes(const file_stat *fs)
{
    uint64_t total = fs->reads + fs->writes, below = 0, best = 0;
    /* the smallest size with at least half the calls at or under it */
    for (;;) {
        uint64_t next = UINT64_MAX, calls = 0;
        for (size_t i = 0; i < fs->sizes.cap; i++)
            if (fs->sizes.keys[i] != RA_MAP_EMPTY && fs->sizes.keys[i] >= best && fs->sizes.keys[i] < next)
                next = fs->sizes.keys[i], calls = fs->sizes.vals[i];
        if (next == UINT64_MAX)
            return best;
        below += calls;
        if (2 * below >= total)
            return next;
        best = next + 1;
    }
}

static void fmt(char *buf, size_t cap, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(buf, cap, f, ap);
    va_end(ap);
}

static finding *add_finding(advise *a, const char *title, int file)
{
    a->found = ra_xrealloc(a->found, (a->nfound + 1) * sizeof *a->found);
    finding *g = &a->found[a->nfound++];
    memset(g, 0, sizeof *g);
    snprintf(g->title, sizeof g->title, "%s", title);
    g->file = file;
    return g;
}

static void suggest(finding *g, const char *line)
{
    if (g->nset < sizeof g->set / sizeof g->set[0])
        snprintf(g->set[g->nset++], sizeof g->set[0], "%s", line);
}

static void small_accesses(advise *a, int file, file_stat *fs)
{
    uint64_t calls = fs->reads + fs->writes;
    uint64_t median = median_bytes(fs);
    if (calls < ADVISE_SMALL_MIN_CALLS || median >= ADVISE_SMALL_BYTES)
        return;
    finding *g = add_finding(a, "small accesses", file);
    char m[16];
    fmt(g->evidence, sizeof g->evidence,
        "%" PRIu64 " %s data calls by %u ranks (%" PRIu64 " writes, %" PRIu64 " reads), median %s, %" PRIu64
        " (%.0f%%) under 64 KiB",
        calls, rec_layer_name(fs->layer), ranks_with(fs, R_ACCESS), fs->writes, fs->reads,
        ra_human_bytes((double)median, m, sizeof m), fs->small, 100.0 * (double)fs->small / (double)calls);
    fmt(g->threshold, sizeof g->threshold,
        "at least %d data calls of the application on a file, their median under 64 KiB",
        ADVISE_SMALL_MIN_CALLS);
    uint32_t sharing = ranks_with(fs, R_MPIIO_OPEN);
    if (sharing < ADVISE_SHARED_RANKS || (fs->layer != REC_LAYER_MPIIO && fs->layer != REC_LAYER_HDF5)) {
        fmt(g->advice, sizeof g->advice,
            "the file is not shared by %d or more ranks through MPI-IO, so collective buffering does not "
            "apply: "
            "larger accesses (buffering in the application) would help; no tuning set",
            ADVISE_SHARED_RANKS);
        return;
    }
    if (fs->layer == REC_LAYER_MPIIO) {
        fmt(g->advice, sizeof g->advice,
            "%u ranks share the file through MPI-IO: collective buffering (MPI-IO) gathers their small "
            "pieces "
            "into large contiguous accesses by a few aggregators%s",
            sharing, fs->indep ? "; it needs collective data calls (MPI-IO)" : "");
        if (fs->indep)
            suggest(g, "mpiio.data=collective");
    } else {
        fmt(g->advice, sizeof g->advice,
            "%u ranks share the file through HDF5 on MPI-IO: collective buffering (MPI-IO hints, through the "
            "fapl) "
            "gathers their small pieces into large contiguous accesses%s",
            sharing, fs->coll_below ? "" : "; it needs collective transfers (HDF5 dxpl)");
        if (!fs->coll_below)
            suggest(g, "hdf5.transfer=collective");
    }
    if (fs->writes)
        suggest(g, "mpiio.romio_cb_write=enable");
    if (fs->reads)
        suggest(g, "mpiio.romio_cb_read=enable");
}

static void independent_shared(advise *a, int file, file_stat *fs)
{
    uint32_t ranks = ranks_with(fs, R_INDEP);
    if (ranks < ADVISE_SHARED_RANKS)
        return;
    finding *g = add_finding(a, "independent I/O to a shared file", file);
    char b[16];
    fmt(g->evidence, sizeof g->evidence,
        "%" PRIu64 " independent MPI-IO data calls by %u ranks, %s, each with a collective twin", fs->indep,
        ranks, ra_human_bytes((double)fs->indep_bytes, b, sizeof b));
    fmt(g->threshold, sizeof g->threshold,
        "independent MPI-IO data calls of the application from %d or more ranks on one file",
        ADVISE_SHARED_RANKS);
    fmt(g->advice, sizeof g->advice,
        "collective data calls (MPI-IO) let the library merge the ranks' accesses and order them on the "
        "file");
    suggest(g, "mpiio.data=collective");
}

static void hdf5_alignment(advise *a, int file, file_stat *fs)
{
    uint32_t writers = ranks_with(fs, R_HDF5_WRITE);
    if (a->align_set || writers < ADVISE_SHARED_RANKS)
        return;
    finding *g = add_finding(a, "HDF5 default alignment on a parallel file", file);
    fmt(g->evidence, sizeof g->evidence,
        "datasets written by %u ranks; no %s call in the trace: objects at any byte", writers,
        a->align_setter ? a->align_setter->name : "alignment setter");
    fmt(g->threshold, sizeof g->threshold,
        "an HDF5 file written by %d or more ranks, its alignment never set", ADVISE_SHARED_RANKS);
    fmt(g->advice, sizeof g->advice,
        "aligning objects to 1 MiB (HDF5 fapl) starts each dataset on a file system block or stripe, so no "
        "two "
        "ranks' writes share one");
    suggest(g, "hdf5.alignment=1M");
}

static void collective_metadata(advise *a, int file, file_stat *fs)
{
    uint32_t openers = ranks_with(fs, R_HDF5_OPEN);
    if ((a->md_read_set && a->md_write_set) || openers < ADVISE_MD_RANKS)
        return;
    finding *g = add_finding(a, "HDF5 collective metadata off", file);
    fmt(g->evidence, sizeof g->evidence, "opened by %u ranks; no %s%s%s call in the trace", openers,
        a->md_read_set ? "" : a->md_read_setter->name, a->md_read_set || a->md_write_set ? "" : " or ",
        a->md_write_set ? "" : a->md_write_setter->name);
    fmt(g->threshold, sizeof g->threshold,
        "an HDF5 file opened by %d or more ranks, collective metadata not set", ADVISE_MD_RANKS);
    fmt(g->advice, sizeof g->advice,
        "collective metadata (HDF5 fapl): one rank reads the metadata and broadcasts it, and metadata is "
        "written collectively, instead of every rank reading it on its own");
    if (!a->md_read_set)
        suggest(g, "hdf5.coll_metadata_read=true");
    if (!a->md_write_set)
        suggest(g, "hdf5.coll_metadata_write=true");
}

static void loops(advise *a, int file, file_stat *fs)
{
    for (int kind = 0; kind < 2; kind++) {
        uint64_t most = kind ? fs->max_seeks : fs->max_opens;
        if (most < ADVISE_LOOP_CALLS)
            continue;
        finding *g = add_finding(a, kind ? "seeks in a loop" : "opens in a loop", file);
        fmt(g->evidence, sizeof g->evidence,
            "%" PRIu64 " %s of the file by rank %u; %u ranks with %d or more", most, kind ? "seeks" : "opens",
            kind ? fs->seeks_rank : fs->opens_rank, kind ? fs->seeks_over : fs->opens_over,
            ADVISE_LOOP_CALLS);
        fmt(g->threshold, sizeof g->threshold, "%d or more %s of one file by one rank", ADVISE_LOOP_CALLS,
            kind ? "seeks (calls that set the position)" : "opens");
        fmt(g->advice, sizeof g->advice, "%s; no tuning set",
            kind ? "explicit offsets (pread, pwrite, MPI_File_*_at) or one larger access instead of a seek "
                   "each time"
                 : "the file kept open across the loop: each open costs the file system a metadata request");
    }
}

static void imbalance(advise *a)
{
    if (!a->walked || a->walked_last == a->walked_first)
        return;
    uint32_t n = a->walked_last - a->walked_first + 1, lo = a->walked_first, hi = a->walked_first;
    double total = 0;
    for (uint32_t r = a->walked_first; r <= a->walked_last; r++) {
        total += (double)a->rank_bytes[r];
        if (a->rank_bytes[r] < a->rank_bytes[lo])
            lo = r;
        if (a->rank_bytes[r] > a->rank_bytes[hi])
            hi = r;
    }
    double mean = total / n;
    if (total <= 0 || (double)a->rank_bytes[hi] < ADVISE_IMBALANCE * mean)
        return;
    uint32_t idle = 0;
    for (uint32_t r = a->walked_first; r <= a->walked_last; r++)
        idle += a->rank_bytes[r] == 0;
    finding *g = add_finding(a, "unbalanced bytes per rank", -1);
    char b1[16], b2[16], b3[16];
    fmt(g->evidence, sizeof g->evidence,
        "the most: rank %u, %s; the least: rank %u, %s; the mean of %u ranks: %s; %u ranks move none", hi,
        ra_human_bytes((double)a->rank_bytes[hi], b1, sizeof b1), lo,
        ra_human_bytes((double)a->rank_bytes[lo], b2, sizeof b2), n, ra_human_bytes(mean, b3, sizeof b3),
        idle);
    fmt(g->threshold, sizeof g->threshold,
        "the most bytes of a rank's data calls %.1f times the mean or more", ADVISE_IMBALANCE);
    fmt(g->advice, sizeof g->advice,
        "the slowest rank sets the time: share the data out more evenly (the application's decomposition), "
        "or let aggregators do it with collective I/O; no tuning set");
}

int advise_finish(advise *a, char *err, size_t cap)
{
    for (size_t i = 0; i < a->nfiles; i++)
        small_accesses(a, (int)i, &a->files[i]);
    for (size_t i = 0; i < a->nfiles; i++)
        independent_shared(a, (int)i, &a->files[i]);
    for (size_t i = 0; i < a->nfiles; i++)
        hdf5_alignment(a, (int)i, &a->files[i]);
    for (size_t i = 0; i < a->nfiles; i++)
        collective_metadata(a, (int)i, &a->files[i]);
    imbalance(a);
    for (size_t i = 0; i < a->nfiles; i++)
        loops(a, (int)i, &a->files[i]);
    /* every line through tune/'s parser; the combined set a key once */
    tune_set *check = tune_set_new();
    int rc = 0;
    for (size_t i = 0; i < a->nfound && rc == 0; i++) {
        for (size_t j = 0; j < a->found[i].nset && rc == 0; j++) {
            const char *line = a->found[i].set[j];
            if (tune_set_add(check, line, "recorder-advise", err, cap) != 0) {
                rc = -1;
                break;
            }
            size_t k = 0;
            while (k < a->ncombined && strcmp(a->combined[k], line))
                k++;
            if (k == a->ncombined && a->ncombined < sizeof a->combined / sizeof a->combined[0])
                snprintf(a->combined[a->ncombined++], sizeof a->combined[0], "%s", line);
        }
    }
    tune_set_free(check);
    return rc;
}

size_t advise_count(const advise *a)
{
    return a->nfound;
}
size_t advise_set_count(const advise *a)
{
    return a->ncombined;
}

uint32_t advise_nranks(const advise *a)
{
    return a->nranks;
}

void advise_view_at(const advise *a, size_t i, advise_view *v)
{
    const finding *g = &a->found[i];
    memset(v, 0, sizeof *v);
    v->title = g->title;
    v->path = g->file >= 0 ? ra_file_path(a->t, g->file) : NULL;
    v->evidence = g->evidence;
    v->threshold = g->threshold;
    v->advice = g->advice;
    for (size_t j = 0; j < g->nset; j++)
        v->set[v->nset++] = g->set[j];
}

void advise_print(const advise *a, FILE *out, const char *trace, const advise_print_hooks *hooks)
{
    fprintf(out, "recorder-advise: %s: %u ranks, %zu finding%s\n", trace, a->nranks, a->nfound,
            a->nfound == 1 ? "" : "s");
    if (hooks && hooks->header)
        hooks->header(hooks->ctx, out);
    for (size_t i = 0; i < a->nfound; i++) {
        const finding *g = &a->found[i];
        fprintf(out, "\n[%zu] %s", i + 1, g->title);
        if (g->file >= 0)
            fprintf(out, ": %s", ra_file_path(a->t, g->file));
        fprintf(out, "\n    evidence:  %s\n    threshold: %s\n    advice:    %s\n", g->evidence, g->threshold,
                g->advice);
        for (size_t j = 0; j < g->nset; j++)
            fprintf(out, "    set:       %s\n", g->set[j]);
        if (hooks && hooks->after)
            hooks->after(hooks->ctx, i, out);
    }
    if (a->ncombined) {
        fprintf(out,
                "\ncombined tuning set (%zu line%s; --set-file FILE writes it, recorder-replay --tune FILE "
                "tries it):\n",
                a->ncombined, a->ncombined == 1 ? "" : "s");
        for (size_t k = 0; k < a->ncombined; k++)
            fprintf(out, "    %s\n", a->combined[k]);
    }
}

void advise_write_set(const advise *a, FILE *out, const char *trace)
{
    fprintf(out, "# recorder-advise %s: %zu finding%s\n", trace, a->nfound, a->nfound == 1 ? "" : "s");
    for (size_t i = 0; i < a->nfound; i++)
        if (a->found[i].nset)
            fprintf(out, "#   [%zu] %s\n", i + 1, a->found[i].title);
    for (size_t k = 0; k < a->ncombined; k++)
        fprintf(out, "%s\n", a->combined[k]);
}
