/* prep.c: before any rank replays, the loader of rank 0 reads every rank's
 * records once (which also proves the whole trace readable, so a corrupt
 * trace stops the replay before it writes anything) and finds the inputs:
 * paths whose first event, in the ranks' common time line, shows that they
 * existed before the application touched them (a successful call that does
 * not create them, or a creation that failed with EEXIST). They are
 * pre-created under the prefix: directories as directories, files with the
 * largest size the trace shows for them before they were first created
 * (st_size of a stat, the end of a read, MPI_File_get_size), else empty;
 * text where line-oriented reads showed lines (the delimiters back where
 * they were, rf_lines), the entries a directory listing showed, and the
 * symbolic links the run read (readlink) to where they led.
 * An HDF5 input is re-created from the skeleton the tracer captured of it
 * (h5skel/), with pattern data; without one it cannot be synthesized: it is
 * reported, and the replay skips the HDF5 calls on it. */
#define _GNU_SOURCE
#include "prep.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cut.h"
#include "fs.h"
#include "order.h"
#include "recorder_facts.h"
#include "recorder_h5skel.h"
#include "source.h"
#include "summary.h"
#include "text.h"

static double at(const rec_record *r, double start, double resolution)
{
    return start + (double)r->tstart * resolution;
}

/* Every record of the rank, at every depth: --layers replays lower layers
 * too. ord (NULL: not wanted) collects what orders the ranks; seq counts
 * records as the loader numbers them. */
static int scan_rank(rf_inputs *s, rp_order_scan *ord, rec_trace *t, uint32_t rank, char *err, size_t cap)
{
    rec_error e;
    const rec_rank_meta *meta = rec_trace_rank_meta(t, rank, &e);
    double start = meta ? (double)meta->start_time_ns * 1e-9 : 0;
    double resolution = rec_trace_get_info(t)->time_resolution;
    rp_source *src = rp_source_open(t, rank, &e);
    if (!src) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    const rec_table *table = rec_trace_table(t);
    rec_record r;
    int rc;
    uint32_t seq = 0;
    while ((rc = src->ops->next(src, &r, &e)) == 1) {
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        uint32_t this_seq = seq++;
        if (!f)
            continue;
        const char *paths[REC_MAX_ARGS] = {0};
        for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++)
            if (f->args[k].kind == REC_KIND_PATH && r.args[k].i >= 0)
                paths[k] = src->ops->path(src, r.args[k].i);
        rf_inputs_add(s, f, &r, rank, at(&r, start, resolution), paths);
        if (ord)
            rp_order_note(ord, f, &r, rank, this_seq, at(&r, start, resolution),
                          start + (double)r.tend * resolution, paths);
    }
    int complete = rc == 0 && src->ops->complete(src);
    src->ops->close(src);
    if (rc < 0) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    if (!complete) {
        char file[64];
        if (rec_trace_is_merged(t))
            snprintf(file, sizeof file, "merged.rec (rank %u)", rank);
        else
            snprintf(file, sizeof file, "%u.rec", rank);
        snprintf(err, cap,
                 "%s/%s: the stream ends without its end marker (the traced program did not finish "
                 "cleanly): a merged trace cannot be cut where the first unfinished rank's stream ends (the per-rank "
                 "trace can)",
                 rec_trace_dir(t), file);
        return -1;
    }
    return 0;
}

/* A file with its size (text with the delimiters its line reads showed),
 * or a link the run found, to where it led (an absolute target re-rooted). */
static int make_input(const rp_options *opt, const rf_input *p, const rf_lines *lines, const char *full)
{
    if (p->link) {
        char key[RP_PATH_MAX], target[RP_PATH_MAX + 64];
        if (p->link[0] != '/')
            return rf_link_target_key(p->key, p->link, key, sizeof key) == 0 &&
                   rp_sys_make_link(full, p->link) == 0;
        return rf_path_normalize(p->link, key, sizeof key, RF_PATH_ROOTED) == 0 &&
               rf_path_reroot(opt->prefix, key, target, sizeof target) == 0 &&
               rp_sys_make_link(full, target) == 0;
    }
    const int64_t *at;
    size_t n = rf_lines_in(lines, p->file, 0, p->size, &at);
    if (n && !p->hdf5)
        return rp_sys_make_text(full, p->size, at, n, rf_lines_delim(lines, p->file)) == 0;
    int64_t size = p->head && p->size < (int64_t)p->head_len ? (int64_t)p->head_len : p->size;
    return rp_sys_make_file(full, size) == 0 && (!p->head || rp_sys_write_head(full, p->head, p->head_len) == 0);
}

int rp_prep(rec_trace *t, const rp_options *opt, rp_out *o, char *err, size_t cap)
{
    /* A trace cut short: every rank's records up to where the first unfinished stream ends. */
    uint64_t *limits = NULL, after = 0;
    uint32_t unfinished = 0;
    if (rp_cut(t, &limits, &unfinished, &after, err, cap) < 0)
        return -1;
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    for (uint32_t rank = 0; limits && rank < nranks; rank++)
        rp_source_limit(rank, limits[rank]);
    rf_inputs *s = rf_inputs_new(0);
    /* Only top-level calls keep an order between ranks (order.c). */
    rp_order_scan *ord = opt->layers == RP_LAYERS_TOP ? rp_order_scan_new() : NULL;
    int rc = 0;
    for (uint32_t rank = 0; rank < nranks && rc == 0; rank++)
        rc = scan_rank(s, ord, t, rank, err, cap);
    rp_edge *edges;
    size_t nedges = rp_order_edges(ord, &edges);
    rf_lines *lines = rf_inputs_lines(s);
    rf_input *in;
    size_t ninputs = rf_inputs_finish(s, &in);
    if (rc == 0 && rp_mkdirs("", opt->prefix) != 0) {
        snprintf(err, cap, "%s: cannot create the output directory: %s", opt->prefix, strerror(errno));
        rc = -1;
    }
    h5skel **skeletons = NULL;
    size_t nskeletons = 0;
    char skel_err[1024];
    if (rc == 0 && h5skel_load_dir(rec_trace_dir(t), &skeletons, &nskeletons, skel_err, sizeof skel_err) != 0) {
        snprintf(err, cap, "%s", skel_err);
        rc = -1;
    }
    if (rc == 0) {
        uint32_t nwarn = 0;
        char warnings[8][600];
        rp_out_begin(o, RP_MSG_PREP);
        rp_out_u32(o, (uint32_t)ninputs);
        for (size_t i = 0; i < ninputs; i++) {
            const rf_input *p = &in[i];
            char full[RP_PATH_MAX + 64], parent[RP_PATH_MAX + 64];
            int made =
                rf_path_reroot(opt->prefix, p->key, full, sizeof full) == 0 && rp_safe(opt->prefix, full) == 0;
            if (made && p->is_dir)
                made = rp_mkdirs(opt->prefix, full) == 0;
            else if (made) {
                rf_path_dirname(full, parent, sizeof parent);
                made = rp_mkdirs(opt->prefix, parent) == 0 && rp_sys_kind(full) != 2 &&
                       make_input(opt, p, lines, full);
            }
            if (!made && nwarn < 8)
                snprintf(warnings[nwarn++], sizeof warnings[0], "cannot pre-create the input %s under %s",
                         p->key, opt->prefix);
            /* RP_INPUT_HDF5_MADE: its skeleton made it whole; RP_INPUT_HDF5: its HDF5 calls are skipped */
            int hdf5 = p->hdf5 && !p->is_dir ? RP_INPUT_HDF5 : RP_INPUT_PLAIN;
            const h5skel *skel = hdf5 && made ? h5skel_find(skeletons, nskeletons, p->key) : NULL;
            if (skel && h5skel_make(skel, full, skel_err, sizeof skel_err) == 0)
                hdf5 = RP_INPUT_HDF5_MADE;
            else if (skel && nwarn < 8)
                snprintf(warnings[nwarn++], sizeof warnings[0], "%s", skel_err);
            rp_out_u8(o, (uint8_t)(p->link ? RP_INPUT_LINK : p->is_dir ? RP_INPUT_DIR : RP_INPUT_FILE));
            rp_out_i64(o, p->size);
            rp_out_u8(o, (uint8_t)hdf5);
            rp_out_str(o, p->key, (uint32_t)strlen(p->key));
        }
        rp_out_u32(o, nwarn);
        for (uint32_t i = 0; i < nwarn; i++)
            rp_out_str(o, warnings[i], (uint32_t)strlen(warnings[i]));
        rp_out_u32(o, (uint32_t)nedges);
        for (size_t i = 0; i < nedges; i++) {
            rp_out_u32(o, edges[i].from_rank);
            rp_out_u32(o, edges[i].from_seq);
            rp_out_u32(o, edges[i].to_rank);
            rp_out_u32(o, edges[i].to_seq);
            rp_out_u32(o, edges[i].from_thread);
            rp_out_u32(o, edges[i].to_thread);
        }
        rp_text_send(o, lines);
        rp_out_u32(o, limits ? nranks : 0);
        for (uint32_t rank = 0; limits && rank < nranks; rank++)
            rp_out_i64(o, (int64_t)limits[rank]);
        rp_out_u32(o, unfinished);
        rp_out_i64(o, (int64_t)after);
        rp_out_end(o);
    }
    free(limits);
    free(edges);
    h5skel_free_all(skeletons, nskeletons);
    rf_lines_free(lines);
    rf_inputs_free(in, ninputs);
    return rc;
}
