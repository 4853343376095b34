/* ra_overlap.c: overlapping accesses (Alg. 2 of "Recorder 2.0: Efficient
 * Parallel I/O Tracing and Analysis") across all ranks and files: for each
 * pair of ranks (r1, r2, possibly equal) and file, which of RAR, WAW, RAW and
 * WAR occur, with the overlapping bytes of a first example.
 *
 * Which accesses count, by default (each is an option):
 *  - data calls on one layer (POSIX unless told otherwise), with a known
 *    byte range; accesses through non-contiguous MPI-IO views, whose range
 *    the model only approximates, are left out;
 *  - made for a data call of the application: accesses below a top-level
 *    call that moves no data (H5Fclose flushing metadata, ROMIO's
 *    read-modify-write of whole regions while doing so) are the library's
 *    business, not the application's access pattern;
 *  - not separated by close-to-open, for pairs with a write: a pair whose
 *    earlier access's session (open .. close of the handle it used) ended
 *    before the later access's session began is ordered by the file
 *    system's session semantics and is not reported (a file written, closed,
 *    then reopened and read back has no RAW). Reads of the same bytes are
 *    reported whatever the sessions (RAR involves no consistency question,
 *    and it would otherwise depend on how the ranks happened to interleave).
 *
 * Consecutive accesses of a rank to a file that continue each other
 * (same kind, same session, each starting where the last ended, nothing else
 * on that file in between) are coalesced into one interval whose times run
 * from the first access's start to the last one's; the time at which an
 * interval touched a byte is interpolated over it. The sort (N log N) and
 * the sweep are Alg. 2: the sweep compares an interval only with the
 * earlier ones that still overlap its start. */
#include "ra_tools.h"

#include <math.h>
#include <string.h>

const char *const ra_pattern_names[RA_PATTERNS] = {"RAR", "WAW", "RAW", "WAR"};

typedef struct pending {
    ra_interval iv;
    uint32_t thread;
} pending;

typedef struct session_times {
    double open, close;
} session_times;

struct ra_overlap {
    ra_trace *t;
    ra_overlap_opts o;
    ra_ivstore *store;
    ra_map sess_index; /* rank << 32 | session -> index into sess */
    session_times *sess;
    size_t nsess, capsess;
    /* the rank being walked */
    pending *pend;
    size_t npend, cappend;
    ra_map runs; /* file -> index into run */
    ra_interval *run;
    size_t nrun, caprun;
    /* counters */
    uint64_t accesses, unknown_offset, inexact, skipped_meta, coalesced;
    /* the sweep */
    int32_t cur_file;
    ra_interval *active;
    size_t nactive, capactive;
    ra_map hit_index; /* this file's r1 << 26 | r2 << 2 | pattern -> index into hits */
    ra_overlap_hit *hits;
    size_t nhits, caphits;
    int finished, failed;
};

ra_overlap *ra_overlap_new(ra_trace *t, const ra_overlap_opts *o)
{
    ra_overlap *ov = ra_xcalloc(1, sizeof *ov);
    ov->t = t;
    ov->o = *o;
    ov->store = ra_ivstore_new(o->memory ? o->memory : (size_t)256 << 20);
    ov->cur_file = -1;
    return ov;
}

void ra_overlap_free(ra_overlap *ov)
{
    if (!ov)
        return;
    ra_ivstore_free(ov->store);
    ra_map_free(&ov->sess_index);
    ra_map_free(&ov->runs);
    ra_map_free(&ov->hit_index);
    free(ov->sess);
    free(ov->pend);
    free(ov->run);
    free(ov->active);
    free(ov->hits);
    free(ov);
}

static session_times *session(ra_overlap *ov, uint32_t rank, uint64_t sid, int create)
{
    uint64_t key = (uint64_t)rank << 32 | (sid & 0xffffffffu);
    if (!create) {
        uint64_t *v = ra_map_find(&ov->sess_index, key);
        return v ? &ov->sess[*v] : NULL;
    }
    int fresh;
    uint64_t *v = ra_map_insert(&ov->sess_index, key, &fresh);
    if (fresh) {
        if (ov->nsess == ov->capsess)
            ov->sess =
                ra_xrealloc(ov->sess, (ov->capsess = ov->capsess ? 2 * ov->capsess : 64) * sizeof *ov->sess);
        ov->sess[ov->nsess] = (session_times){-INFINITY, INFINITY};
        *v = ov->nsess++;
    }
    return &ov->sess[*v];
}

static int overlap_begin_rank(void *ctx, ra_trace *t, uint32_t rank)
{
    ra_overlap *ov = ctx;
    (void)t;
    (void)rank;
    ov->npend = 0;
    ov->nrun = 0;
    ra_map_free(&ov->runs);
    return 0;
}

static void add_run(ra_overlap *ov, const ra_interval *iv)
{
    int fresh;
    uint64_t *slot = ra_map_insert(&ov->runs, (uint64_t)iv->file, &fresh);
    if (!fresh) {
        ra_interval *r = &ov->run[*slot];
        if (r->write == iv->write && r->sid == iv->sid && r->oe == iv->os) {
            r->oe = iv->oe;
            r->t1 = iv->t0;
            ov->coalesced++;
            return;
        }
        ra_ivstore_add(ov->store, r);
        *r = *iv;
        return;
    }
    if (ov->nrun == ov->caprun)
        ov->run = ra_xrealloc(ov->run, (ov->caprun = ov->caprun ? 2 * ov->caprun : 64) * sizeof *ov->run);
    ov->run[ov->nrun] = *iv;
    *slot = ov->nrun++;
}

/* A top-level call ended: the accesses below it (and itself) are settled. */
static void settle(ra_overlap *ov, uint32_t thread, int accept)
{
    size_t keep = 0;
    for (size_t i = 0; i < ov->npend; i++) {
        if (ov->pend[i].thread != thread) {
            ov->pend[keep++] = ov->pend[i];
            continue;
        }
        if (accept)
            add_run(ov, &ov->pend[i].iv);
        else
            ov->skipped_meta++;
    }
    ov->npend = keep;
}

static int overlap_event(void *ctx, ra_trace *t, const ra_event *ev)
{
    ra_overlap *ov = ctx;
    (void)t;
    if (ev->session && ev->op == RA_OP_OPEN)
        session(ov, ev->rank, ev->session, 1)->open = ev->gstart;
    else if (ev->session && ev->op == RA_OP_CLOSE && ev->session_end)
        session(ov, ev->rank, ev->session, 1)->close = ev->gend;
    if ((ev->op == RA_OP_READ || ev->op == RA_OP_WRITE) && ev->layer == ov->o.layer && !ev->failed &&
        ev->bytes > 0 && ev->file >= 0 && !ev->console) {
        ov->accesses++;
        if (ev->offset < 0) {
            ov->unknown_offset++;
        } else if (!ev->offset_exact && !ov->o.inexact) {
            ov->inexact++;
        } else {
            if (ov->npend == ov->cappend)
                ov->pend = ra_xrealloc(ov->pend,
                                       (ov->cappend = ov->cappend ? 2 * ov->cappend : 64) * sizeof *ov->pend);
            pending *p = &ov->pend[ov->npend++];
            p->thread = ev->thread;
            p->iv = (ra_interval){ev->offset, ev->offset + ev->bytes, ev->gstart, ev->gstart,
                                  ev->rank,   (uint32_t)ev->session,  ev->file,   ev->op == RA_OP_WRITE};
        }
    }
    if (ev->depth == 0)
        settle(ov, ev->thread, ov->o.metadata || (ev->func->flags & REC_FN_DATA));
    return 0;
}

static int overlap_end_rank(void *ctx, ra_trace *t, ra_rank *w, uint32_t rank)
{
    ra_overlap *ov = ctx;
    (void)t;
    (void)w;
    (void)rank;
    ov->skipped_meta += ov->npend; /* no top-level call ever came: the stream ended inside one */
    ov->npend = 0;
    for (size_t i = 0; i < ov->nrun; i++)
        ra_ivstore_add(ov->store, &ov->run[i]);
    ov->nrun = 0;
    ra_map_free(&ov->runs);
    return 0;
}

ra_visitor ra_overlap_visitor(ra_overlap *ov)
{
    return (ra_visitor){ov, overlap_begin_rank, overlap_event, overlap_end_rank};
}

/* ---- the sweep ---- */

static double time_at(const ra_interval *iv, int64_t x)
{
    if (iv->t1 <= iv->t0 || iv->oe <= iv->os)
        return iv->t0;
    return iv->t0 + (iv->t1 - iv->t0) * (double)(x - iv->os) / (double)(iv->oe - iv->os);
}

/* The earlier access's session closed before the later one's opened. */
static int separated(ra_overlap *ov, const ra_interval *e, const ra_interval *l)
{
    if (!e->sid || !l->sid || (e->rank == l->rank && e->sid == l->sid))
        return 0;
    session_times *se = session(ov, e->rank, e->sid, 0), *sl = session(ov, l->rank, l->sid, 0);
    return se && sl && se->close <= sl->open;
}

static void classify(ra_overlap *ov, const ra_interval *a, const ra_interval *b, int64_t lo, int64_t hi)
{
    double ta = time_at(a, lo), tb = time_at(b, lo);
    int a_first = ta < tb || (ta == tb && (a->rank < b->rank || (a->rank == b->rank && a->t0 <= b->t0)));
    const ra_interval *e = a_first ? a : b, *l = a_first ? b : a;
    unsigned pattern = e->write ? (l->write ? RA_WAW : RA_RAW) : (l->write ? RA_WAR : RA_RAR);
    if (pattern != RA_RAR && !ov->o.all_sessions && separated(ov, e, l))
        return;
    int fresh;
    uint64_t *slot =
        ra_map_insert(&ov->hit_index, (uint64_t)e->rank << 26 | (uint64_t)l->rank << 2 | pattern, &fresh);
    if (!fresh)
        return;
    if (ov->nhits == ov->caphits)
        ov->hits =
            ra_xrealloc(ov->hits, (ov->caphits = ov->caphits ? 2 * ov->caphits : 64) * sizeof *ov->hits);
    ov->hits[ov->nhits] = (ra_overlap_hit){e->file, e->rank, l->rank, (uint8_t)pattern, lo, hi};
    *slot = ov->nhits++;
}

static void sweep(void *ctx, const ra_interval *iv)
{
    ra_overlap *ov = ctx;
    if (iv->file != ov->cur_file) {
        ov->nactive = 0;
        ra_map_free(&ov->hit_index);
        ov->cur_file = iv->file;
    }
    size_t keep = 0;
    for (size_t i = 0; i < ov->nactive; i++) {
        const ra_interval *a = &ov->active[i];
        if (a->oe <= iv->os)
            continue; /* ends before this one starts, and before every later one */
        classify(ov, a, iv, iv->os, a->oe < iv->oe ? a->oe : iv->oe);
        ov->active[keep++] = *a;
    }
    ov->nactive = keep;
    if (ov->nactive == ov->capactive)
        ov->active = ra_xrealloc(ov->active, (ov->capactive = ov->capactive ? 2 * ov->capactive : 64) *
                                                 sizeof *ov->active);
    ov->active[ov->nactive++] = *iv;
}

static ra_trace *hit_trace;

static int hit_order(const void *a, const void *b)
{
    const ra_overlap_hit *x = a, *y = b;
    if (x->file != y->file) {
        int c = strcmp(ra_file_path(hit_trace, x->file), ra_file_path(hit_trace, y->file));
        if (c)
            return c;
    }
    if (x->r1 != y->r1)
        return x->r1 < y->r1 ? -1 : 1;
    if (x->r2 != y->r2)
        return x->r2 < y->r2 ? -1 : 1;
    return (int)x->pattern - (int)y->pattern;
}

int ra_overlap_finish(ra_overlap *ov, const ra_overlap_hit **hits, size_t *nhits)
{
    if (!ov->finished) {
        ov->finished = 1;
        if (ra_ivstore_drain(ov->store, sweep, ov) != 0)
            ov->failed = 1;
        hit_trace = ov->t;
        if (ov->nhits) /* qsort(NULL, 0, ...) is undefined (UBSan) */
            qsort(ov->hits, ov->nhits, sizeof *ov->hits, hit_order);
    }
    if (hits)
        *hits = ov->hits;
    if (nhits)
        *nhits = ov->nhits;
    return ov->failed ? -1 : 0;
}

void ra_overlap_print(ra_overlap *ov, FILE *out)
{
    ra_overlap_finish(ov, NULL, NULL);
    if (!ov->nhits)
        fputs("no overlapping accesses\n", out);
    for (size_t i = 0; i < ov->nhits; i++) {
        const ra_overlap_hit *h = &ov->hits[i];
        fprintf(out, "%s rank %u -> rank %u file ", ra_pattern_names[h->pattern], h->r1, h->r2);
        ra_print_quoted(out, ra_file_path(ov->t, h->file));
        fprintf(out, " bytes [%lld, %lld)\n", (long long)h->lo, (long long)h->hi);
    }
}

void ra_overlap_notes(ra_overlap *ov, const char *tool, FILE *out)
{
    fprintf(out, "%s: %llu %s accesses, %zu intervals after coalescing %llu contiguous ones (%zu spills)\n",
            tool, (unsigned long long)ov->accesses, rec_layer_name(ov->o.layer), ra_ivstore_count(ov->store),
            (unsigned long long)ov->coalesced, ra_ivstore_spills(ov->store));
    if (ov->skipped_meta)
        fprintf(out,
                "%s: %llu accesses made for top-level calls that move no data (library metadata) not "
                "checked (--metadata checks them)\n",
                tool, (unsigned long long)ov->skipped_meta);
    if (ov->unknown_offset)
        fprintf(out,
                "%s: %llu accesses with unknown offsets (shared file pointer, untracked position) not "
                "checked\n",
                tool, (unsigned long long)ov->unknown_offset);
    if (ov->inexact)
        fprintf(out,
                "%s: %llu accesses through non-contiguous MPI-IO views not checked (--inexact checks them "
                "as contiguous ranges)\n",
                tool, (unsigned long long)ov->inexact);
}
