/* merge.c: the merge loop: which group of ranks goes next (the complete-group
 * rule, or, when none is complete, the farthest-match rule of "Automatic
 * Generation of I/O Kernels for HPC Applications"), the driver, and the
 * merged trace's metadata. Records are built in emit.c. */
#define _GNU_SOURCE
#include "emit.h"
#include "recorder_h5skel.h"
#include "rec_h5store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <time.h>

void rec_merge_options_init(rec_merge_options *o)
{
    memset(o, 0, sizeof *o);
    o->window = 200;
    o->tool = "recorder-merge";
}

static void layout_of(const rec_func_desc *f, rec_layout_view *lay)
{
    memset(lay, 0, sizeof *lay);
    lay->nargs = f->nargs;
    lay->nfields = f->nargs;
    for (unsigned a = 0; a < f->nargs; a++) {
        lay->cls[a] = (uint8_t)rec_kind_class(f->args[a].kind);
        lay->kind[a] = f->args[a].kind;
    }
    if (f->ret_kind != REC_KIND_NONE) {
        lay->kind[lay->nfields] = f->ret_kind;
        lay->cls[lay->nfields++] = (uint8_t)rec_kind_class(f->ret_kind);
        lay->kind[lay->nfields] = REC_KIND_ERRNO;
        lay->cls[lay->nfields++] = REC_CLASS_INT;
    }
    lay->own_fields = lay->used_handles = lay->created_handles = 0;
    for (unsigned i = 0; i < lay->nfields && i <= lay->nargs; i++) {
        lay->space[i] = (uint8_t)rec_kind_handle_space(lay->kind[i]);
        lay->created[i] =
            i < lay->nargs ? (f->args[i].flags & REC_ARG_CREATE) != 0 : (f->flags & REC_FN_CREATES) != 0;
        if (lay->cls[i] == REC_CLASS_PATH || (lay->space[i] && lay->cls[i] == REC_CLASS_ARRAY))
            lay->own_fields |= 1u << i;
        else if (lay->space[i] && lay->cls[i] == REC_CLASS_INT)
            *(lay->created[i] ? &lay->created_handles : &lay->used_handles) |= 1u << i;
    }
    for (unsigned i = 0; i < lay->nfields; i++)
        if (lay->cls[i] == REC_CLASS_STR || lay->cls[i] == REC_CLASS_ARRAY)
            lay->bytes_fields |= 1u << i;
    for (unsigned a = 0; a < f->nargs; a++) {
        const rec_arg_desc *d = &f->args[a];
        if (!(d->flags & REC_ARG_SIG) || (d->flags & REC_ARG_CREATE))
            continue;
        /* A collective call matches across its communicator by definition: what
         * each rank moves (counts, sizes, datatypes) may differ and stays in the
         * merged record as per-rank values. */
        if ((f->flags & REC_FN_COLLECTIVE) &&
            (d->kind == REC_KIND_MPI_DATATYPE || d->kind == REC_KIND_MPI_DATATYPE_ARRAY ||
             ((lay->cls[a] == REC_CLASS_INT || lay->cls[a] == REC_CLASS_ARRAY) && !lay->space[a])))
            continue;
        lay->sig_fields |= 1u << a;
    }
}

const rec_layout_view *layout_for(merger *m, unsigned func)
{
    if (!m->layout_ready[func]) {
        layout_of(rec_table_lookup(m->table, func), &m->layouts[func]);
        m->layout_ready[func] = 1;
    }
    return &m->layouts[func];
}

double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- what to emit next ---- */

static int by_rank(const void *a, const void *b)
{
    uint32_t x = (*(rank_state *const *)a)->rank, y = (*(rank_state *const *)b)->rank;
    return x < y ? -1 : x > y;
}

/* The ranks whose head has signature s, ascending. */
static uint32_t group_of(const merger *m, const sig_entry *s, rank_state **group)
{
    uint32_t n = 0;
    if (s->head_count == m->live) { /* every rank still running: no list to walk, nothing to sort */
        for (uint32_t i = 0; i < m->nranks; i++)
            if (m->ranks[i].count)
                group[n++] = &m->ranks[i];
        return n;
    }
    for (const rank_state *r = s->heads; r; r = r->hnext)
        group[n++] = (rank_state *)r;
    qsort(group, n, sizeof *group, by_rank); /* heads are listed newest first */
    return n;
}

/* Fills group[] with the ranks to merge now (ascending); returns how many. */
static uint32_t choose(merger *m, int paper_rule, rank_state **group, rec_merge_stats *st)
{
    sig_entry *s = NULL;
    if (paper_rule) {
        rank_state *any = NULL;
        for (uint32_t i = 0; i < m->nranks && !any; i++)
            if (m->ranks[i].count)
                any = &m->ranks[i];
        /* Every rank still running sits on the same signature. */
        uint32_t live = 0;
        for (uint32_t i = 0; i < m->nranks; i++)
            live += m->ranks[i].count != 0;
        if (any && any->head_sig->head_count == live)
            s = any->head_sig;
    } else {
        while (m->max_bucket && !m->bucket[m->max_bucket])
            m->max_bucket--;
        s = m->max_bucket ? m->bucket[m->max_bucket] : NULL;
    }
    if (s)
        return group_of(m, s, group);
    /* The paper's rule: the head whose nearest match is farthest away, with
     * the distance taken once per distinct head signature (heads that share
     * one share it). Better than the paper: a collective head waits for its
     * communicator unless every head is collective, and every head holding
     * the chosen signature goes out as one record, not one rank at a time. */
    st->fallbacks++;
    m->visit++;
    rank_state *best = NULL;
    uint64_t best_d = 0;
    int best_coll = 1;
    for (uint32_t i = 0; i < m->nranks; i++) {
        rank_state *r = &m->ranks[i];
        if (!r->count || (!paper_rule && r->head_sig->visit == m->visit))
            continue;
        r->head_sig->visit = m->visit;
        const rec_func_desc *f = rec_table_lookup(m->table, r->ring[r->head].rec->func);
        int coll = !paper_rule && (f->flags & REC_FN_COLLECTIVE) != 0;
        if (coll && !best_coll)
            continue;
        uint64_t d = r->head_sig->ranks_with == r->head_sig->head_count ? UINT64_MAX : distance(m, r);
        if (!best || (best_coll && !coll) || d > best_d) {
            best = r;
            best_d = d;
            best_coll = coll;
        }
        if (d == UINT64_MAX && !coll)
            break;
    }
    if (!best)
        return 0;
    if (paper_rule) {
        group[0] = best;
        return 1;
    }
    return group_of(m, best->head_sig, group);
}

/* ---- the driver ---- */

int make_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void merger_free(merger *m)
{
    /* last opened first: glibc unlinks a closed FILE by walking its list of
     * open ones from the newest, which in opening order costs O(ranks) each */
    for (uint32_t i = m->nranks; m->ranks && i-- > 0;) {
        rank_state *rs = &m->ranks[i];
        while (rs->count)
            pop(m, rs);
        chunk_settle(rs);
        for (unsigned k = 0; k < rs->queued; k++)
            chunk_release(rs, window_slot(m, rs, k)->rec);
        rs->queued = 0;
        sig_tab_free(rs);
        keymap_free(&rs->canon);
        keymap_free(&rs->unified);
        chunk_drop_current(rs);
        rec_cursor_close(rs->cursor);
    }
    sig_entry *s, *tmp;
    HASH_ITER(hh, m->sigs, s, tmp)
    {
        HASH_DEL(m->sigs, s);
        free(s);
    }
    merger_end_common(m);
    chunk_pool_free(&m->pool);
    free(m->ranks);
    free(m->rank_slots);
    free(m->sig_tabs);
    free(m->bucket);
}

int64_t merge_time_tolerance(const rec_merge_options *o, const rec_trace_info *info)
{
    if (!(o->time_resolution > 0) || !(info->time_resolution > 0))
        return 0;
    double ticks = o->time_resolution / info->time_resolution;
    return ticks >= 1 ? (int64_t)(ticks < 1e15 ? ticks : 1e15) : 0;
}

int write_meta(const char *out_dir, const rec_trace *t, const rec_merge_options *o, const char *in_dir,
                      uint64_t start_ns, rec_error *err)
{
    const rec_trace_info *in = rec_trace_get_info(t);
    rec_option *opts = calloc(in->noptions + 5, sizeof *opts);
    if (!opts) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    char window[32];
    snprintf(window, sizeof window, "%u", o->window);
    size_t n = 0;
    for (size_t i = 0; i < in->noptions; i++)
        opts[n++] = in->options[i];
    opts[n++] = (rec_option){"merge.source", in_dir};
    opts[n++] = (rec_option){"merge.window", window};
    opts[n++] = (rec_option){"merge.rule", o->paper_rule ? "farthest-match" : "complete-group"};
    char resolution[32];
    if (merge_time_tolerance(o, in)) { /* how exact the per-rank times are */
        snprintf(resolution, sizeof resolution, "%g", o->time_resolution);
        opts[n++] = (rec_option){"merge.time_resolution", resolution};
    }
    char block[64];
    if (o->part) { /* a part of a parallel merge: its ranks, which the merge of the parts reads back */
        snprintf(block, sizeof block, "%u-%u", o->first_rank, o->first_rank + o->rank_count - 1);
        opts[n++] = (rec_option){"merge.part", block};
    }
    rec_trace_info info = *in;
    info.flags |= REC_TRACE_MERGED;
    info.start_time_ns = start_ns;
    info.window = REC_WINDOW_DEFAULT;
    info.noptions = n;
    info.options = opts;
    int rc = rec_write_global_metadata(out_dir, &info, rec_trace_table(t), NULL, err);
    free(opts);
    return rc;
}

int carry_h5store(const char *const *dirs, unsigned n, uint32_t first, uint32_t count, const char *out_dir,
                  const char *tool, rec_error *err)
{
    rec_h5store s = {0};
    char path[4096];
    for (unsigned i = 0; i < n; i++)
        if (rec_h5store_read_ranks(dirs[i], first, count, &s, err) != 0) {
            fprintf(stderr, "%s: %s: left out of the merged trace\n", tool ? tool : "recorder-merge", err->msg);
            return 0;
        }
    snprintf(path, sizeof path, "%s/merged.h5store", out_dir);
    int rc = s.n ? rec_h5store_write(path, &s, err) : 0;
    rec_h5store_free(&s);
    return rc;
}

rec_writer *open_merged_writer(const char *out_dir, const rec_table *table, uint64_t start_ns, int part,
                               rec_error *err)
{
    if (make_dirs(out_dir) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", out_dir, strerror(errno));
        return NULL;
    }
    rec_writer_options wo;
    rec_writer_options_init(&wo);
    wo.table = table;
    wo.start_time_ns = start_ns;
    if (part) /* read once, by the next merge of the tree: compressing it cost more than it saved */
        wo.codec = REC_CODEC_NONE;
    return rec_writer_open(out_dir, REC_MERGED_STREAM, &wo, err);
}



const rec_merge_options *merge_options(const rec_merge_options *o, rec_merge_options *defaults, rec_merge_stats *st)
{
    memset(st, 0, sizeof *st);
    if (o)
        return o;
    rec_merge_options_init(defaults);
    return defaults;
}

int merger_begin(merger *m, const rec_table *table, unsigned window, uint32_t nranks, uint32_t total_ranks)
{
    *m = (merger){.table = table, .window = window ? window : 200, .nranks = nranks, .total_ranks = total_ranks};
    for (int s = 0; s < REC_SPACE_COUNT; s++)
        m->next_merged_id[s] = REC_HANDLE_DYNAMIC_BASE;
    m->layouts = calloc(REC_FUNCTION_ID_LIMIT, sizeof *m->layouts);
    m->layout_ready = calloc(REC_FUNCTION_ID_LIMIT, 1);
    return m->layouts && m->layout_ready ? 0 : -1;
}

void merger_end_common(merger *m)
{
    keymap_free(&m->merged_ids_used);
    free(m->layouts);
    free(m->layout_ready);
}

/* A rank whose stream lacked its end marker (a crash, a kill) and has just
 * given its last record: the merged records so far are where a consumer
 * that needs every rank (a kernel) stops. */
static void note_unfinished(merger *m, rank_state *const *group, uint32_t n, rec_merge_stats *st)
{
    for (uint32_t k = 0; k < n && m->unfinished_pending; k++)
        if (group[k]->unfinished && !group[k]->count) {
            group[k]->unfinished = 0; /* counted once */
            m->unfinished_pending--;
            if (!st->unfinished++)
                st->unfinished_after = st->records_out;
        }
}

int rec_merge_traces(const char *in_dir, const char *out_dir, const rec_merge_options *o, rec_merge_stats *st,
                     rec_error *err)
{
    rec_merge_options defaults;
    o = merge_options(o, &defaults, st);
    double t0 = now();
    rec_trace *t = rec_trace_open(in_dir, err);
    if (!t)
        return -1;
    if (rec_trace_is_merged(t)) {
        snprintf(err->msg, sizeof err->msg, "%s: already a merged trace", in_dir);
        rec_trace_close(t);
        return -1;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    /* A damaged recorder.meta may claim up to 2^24 ranks: the last rank's
     * stream must exist before per-rank state is allocated, so that such a
     * trace fails at once rather than after gigabytes. */
    rec_cursor *last = rec_cursor_open(t, info->nranks - 1, err);
    if (!last) {
        rec_trace_close(t);
        return -1;
    }
    rec_cursor_close(last);
    uint32_t first_rank = o->rank_count ? o->first_rank : 0, count = o->rank_count ? o->rank_count : info->nranks;
    if (first_rank >= info->nranks || count > info->nranks - first_rank) {
        snprintf(err->msg, sizeof err->msg, "%s: ranks %u to %u asked for, the trace has %u", in_dir, first_rank,
                 first_rank + count - 1, info->nranks);
        rec_trace_close(t);
        return -1;
    }
    merger m;
    int common_ok = merger_begin(&m, rec_trace_table(t), o->window, count, info->nranks) == 0;
    st->nranks = info->nranks;
    m.ranks = rank_arrays_alloc(m.nranks, sizeof *m.ranks);
    m.ring_slots = m.window + READ_AHEAD;
    size_t slots_bytes = (size_t)m.ring_slots * sizeof(wslot);
    m.rank_slots = rank_arrays_alloc(m.nranks, slots_bytes);
    m.sig_tabs = rank_arrays_alloc(m.nranks, SIG_TAB_FIRST * sizeof(rank_sig));
    m.bucket = calloc((size_t)m.nranks + 1, sizeof *m.bucket);
    rank_state **group = calloc(m.nranks, sizeof *group);
    emit_buffers b;
    int buffers_ok = emit_buffers_init(&b, m.nranks) == 0;
    b.time_tolerance = merge_time_tolerance(o, info);
    rec_writer *w = NULL;
    int rc = -1;
    if (!m.ranks || !m.rank_slots || !m.sig_tabs || !m.bucket || !common_ok || !group || !buffers_ok) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    /* Put every rank's times on the earliest rank's clock. */
    uint64_t start_ns = UINT64_MAX, total = 0;
    for (uint32_t r = 0; r < m.nranks; r++) {
        rec_error ignored;
        const rec_rank_meta *meta = rec_trace_rank_meta(t, first_rank + r, &ignored);
        uint64_t s = meta ? meta->start_time_ns : info->start_time_ns;
        m.ranks[r].tick_offset = (int64_t)s; /* the ns for now: made ticks below */
        if (s < start_ns)
            start_ns = s;
        if (meta) {
            total += meta->records;
            if (meta->records > st->max_rank_records)
                st->max_rank_records = meta->records;
        }
    }
    if (o->start_ns)
        start_ns = o->start_ns;
    for (uint32_t r = 0; r < m.nranks; r++) {
        rank_state *rs = &m.ranks[r];
        rs->rank = first_rank + r;
        double ticks = (double)((uint64_t)rs->tick_offset - start_ns) / (info->time_resolution * 1e9) + 0.5;
        /* A tiny time resolution (any in (0, 1000) s is valid) can put this
         * past int64_t, and converting such a double is undefined: saturate. */
        rs->tick_offset = ticks < 9.2e18 ? (int64_t)ticks : INT64_MAX;
        rs->pool = &m.pool;
        rs->ring = (wslot *)(void *)((char *)m.rank_slots + r * slots_bytes);
        rs->sig_tab = m.sig_tabs + (size_t)r * SIG_TAB_FIRST;
        rs->sig_cap = SIG_TAB_FIRST;
        if (!(rs->cursor = rec_cursor_open(t, rs->rank, err)))
            goto done;
    }
    if (!(w = open_merged_writer(out_dir, m.table, start_ns, o->part, err)))
        goto done;
    for (uint32_t r = 0; r < m.nranks; r++)
        if (fill(&m, &m.ranks[r], err) != 0)
            goto done;
    for (uint32_t r = 0; r < m.nranks; r++) {
        rank_state *rs = &m.ranks[r];
        m.live += rs->count != 0;
        note_unfinished(&m, &rs, 1, st); /* killed before its first full block: the cut is at the start */
    }
    double last_report = t0;
    uint64_t reported = 0;
    unsigned lockstep_wait = 0;
    for (;;) {
        uint32_t n = choose(&m, o->paper_rule, group, st);
        if (!n)
            break;
        int batch = 0;
        if (!o->paper_rule && n == m.live && !lockstep_wait) {
            if ((batch = emit_lockstep(&m, w, group, n, &b, st, err)) < 0)
                goto done;
            lockstep_wait = batch ? 0 : 4; /* the runs of alike calls broke: retry in a while */
        } else if (lockstep_wait) {
            lockstep_wait--;
        }
        if (!batch) {
            if (emit(&m, w, group, n, &b, st, err) != 0)
                goto done;
            for (uint32_t k = 0; k < n; k++) {
                prefetch_ahead(&m, group, n, k);
                pop(&m, group[k]);
                if (fill(&m, group[k], err) != 0)
                    goto done;
                m.live -= !group[k]->count;
            }
        }
        if (m.unfinished_pending) /* none in a trace that ended cleanly */
            note_unfinished(&m, group, n, st);
        if (o->progress && st->records_out >> 12 != reported) {
            reported = st->records_out >> 12;
            double tnow = now();
            if (tnow - t0 > 1.0 && tnow - last_report > 1.0) {
                fprintf(stderr, "%s: %.0f%% (%llu of %llu records), %.1f s\n", o->tool,
                        total ? 100.0 * (double)m.records_in / (double)total : 0.0,
                        (unsigned long long)m.records_in, (unsigned long long)total, tnow - t0);
                last_report = tnow;
            }
        }
    }
    for (uint32_t r = 0; r < m.nranks; r++) /* a rank without its N.meta (a crash, a kill) counts as read */
        if (m.ranks[r].head_pos > st->max_rank_records)
            st->max_rank_records = m.ranks[r].head_pos;
    rc = rec_writer_close(w, err);
    w = NULL;
    if (rc == 0)
        rc = write_meta(out_dir, t, o, in_dir, start_ns, err);
    /* The HDF5 inputs' skeletons go with the whole merged trace (replays and
     * kernels make the inputs from them); a part carries its ranks' filter data. */
    if (rc == 0 && !o->part)
        rc = h5skel_copy_dir(in_dir, out_dir, err->msg, sizeof err->msg);
    if (rc == 0)
        rc = carry_h5store(&in_dir, 1, first_rank, count, out_dir, o->tool, err);
done:
    st->records_in = m.records_in;
    st->seconds = now() - t0;
    if (w)
        rec_writer_discard(w);
    merger_free(&m);
    free(group);
    emit_buffers_free(&b);
    rec_trace_close(t);
    return rc;
}

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb, (void)type, (void)ftw;
    return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

void rec_merge_remove_dir(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int rec_merge_to_scratch(const char *in_dir, const rec_merge_options *o, char *scratch, size_t cap,
                         rec_merge_stats *stats, rec_error *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(scratch, cap, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", o && o->tool ? o->tool : "recorder-merge");
    if (!mkdtemp(scratch)) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create a scratch directory for merging: %s", scratch,
                 strerror(errno));
        scratch[0] = 0;
        return -1;
    }
    if (rec_merge_traces(in_dir, scratch, o, stats, err) != 0) {
        rec_merge_remove_dir(scratch);
        scratch[0] = 0;
        return -1;
    }
    return 0;
}
