/* remerge.c: SPMD instances from per-rank runs, and instance shapes.
 *
 * The merger keeps a record per rank when the ranks' significant arguments
 * differ: GCRM's uneven slabs come out as "rank 3 selects, rank 3 creates a
 * space, rank 2 selects, ...". Where a run of such records is, for every
 * rank it covers, the same sequence of call shapes, the run is one SPMD
 * sequence whose values depend on the rank: position j of the new sequence
 * holds every rank's j-th call. Each rank keeps its own order, so the
 * kernel still makes each rank's calls in the traced order. */
#include "cg.h"
#include "recorder_facts.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

/* The structure of rank k's call: what a loop or an SPMD merge must share. */
static uint64_t rank_shape(const cg_model *m, const cg_inst *in, uint32_t k)
{
    uint64_t h = mix(mix(0, in->f->id), in->thread); /* a thread's calls are a sequence of their own */
    for (unsigned field = 0; field < in->nf; field++) {
        cg_role role = cg_field_role(in->f, field);
        if (role == CG_ROLE_NONE || role == CG_ROLE_CREATE)
            continue;
        unsigned kind = cg_field_kind(in->f, field);
        int64_t v = cg_inst_values(in, field)[k];
        rec_class cls = rec_kind_class(kind);
        if (role == CG_ROLE_OUTLEN) {
            h = mix(h, v == 0);
        } else if (cg_is_handle_kind(kind)) {
            h = mix(h, rec_handle_is_dynamic(v));
        } else if (cls == REC_CLASS_STR || cls == REC_CLASS_PATH) {
            h = mix(h, v < 0);
        } else if (cls == REC_CLASS_ARRAY) {
            uint32_t n;
            const int64_t *a = cg_arr(m, v, &n);
            h = mix(h, n);
            if (rec_kind_is_handle_array(kind))
                for (uint32_t e = 0; e < n; e++)
                    h = mix(h, rec_handle_is_dynamic(a[e]));
        }
        h = mix(h, field);
    }
    return h;
}

uint64_t cg_inst_shape(const cg_model *m, const cg_inst *in, int with_ranks)
{
    uint64_t h = mix(1, in->f->id);
    if (with_ranks)
        h = mix(h, in->rs);
    for (uint32_t k = 0; k < in->nr; k++)
        h = mix(h, rank_shape(m, in, k));
    return h;
}

/* The longest window [s, e) that is one SPMD sequence over the ranks it
 * covers; 0 when none changes anything. count[] is all zeros on entry and
 * on return; the cost is the window's calls, never the trace's rank count
 * (a 1 KB trace may claim 2^24 ranks). */
static size_t spmd_window(const cg_model *m, const cg_inst *in, size_t s, size_t end, uint32_t *count,
                          uint64_t *ref, size_t *len)
{
    enum { MAX_WINDOW = 1024 };
    uint32_t covered = 0, maxc = 0, at_max = 0; /* at_max: the covered ranks whose count is maxc */
    size_t best = 0, done = s;
    for (size_t e = s; e < end && e - s < MAX_WINDOW; e++) {
        const cg_inst *x = &in[e];
        const cg_rankset *rs = &m->ranksets[x->rs];
        int bad = 0;
        for (uint32_t k = 0; k < x->nr && !bad; k++) {
            uint32_t r = rs->ranks[k], pos = count[r]++;
            if (pos == 0)
                covered++;
            uint64_t shape = rank_shape(m, x, k);
            if (pos >= maxc) {
                ref[pos] = shape;
                maxc = pos + 1;
                at_max = 1;
            } else if (ref[pos] != shape) {
                bad = 1;
            } else if (pos + 1 == maxc) {
                at_max++;
            }
        }
        done = e + 1;
        if (bad)
            break;
        if (covered > 1 && at_max == covered) {
            best = e + 1;
            *len = maxc;
        }
    }
    for (size_t e = s; e < done; e++)
        for (uint32_t k = 0; k < in[e].nr; k++)
            count[m->ranksets[in[e].rs].ranks[k]] = 0;
    if (!best)
        return 0;
    /* Only worth it when some call does not already cover every rank of the window. */
    for (size_t e = s; e < best; e++)
        if (in[e].nr != covered)
            return best;
    return 0;
}

/* Builds the merged calls of window [s, e) (len positions) into out. */
static void merge_window(cg_model *m, const cg_inst *in, size_t s, size_t e, size_t len, cg_inst *out,
                         uint32_t *count)
{
    uint32_t nranks = m->nranks;
    uint32_t *ranks = cg_alloc(nranks * sizeof *ranks), nr = 0;
    memset(count, 0, nranks * sizeof *count);
    for (size_t x = s; x < e; x++)
        for (uint32_t k = 0; k < in[x].nr; k++)
            count[m->ranksets[in[x].rs].ranks[k]] = 1;
    for (uint32_t r = 0; r < nranks; r++)
        if (count[r])
            ranks[nr++] = r;
    uint32_t rs = cg_rankset_id(m, ranks, nr);
    const cg_rankset *set = &m->ranksets[rs];
    for (size_t j = 0; j < len; j++)
        out[j] = (cg_inst){.f = NULL, .rs = rs, .nr = nr, .v = NULL, .spans = NULL};
    memset(count, 0, nranks * sizeof *count);
    for (size_t x = s; x < e; x++) {
        const cg_inst *src = &in[x];
        const cg_rankset *srs = &m->ranksets[src->rs];
        for (uint32_t k = 0; k < src->nr; k++) {
            uint32_t r = srs->ranks[k], j = count[r]++;
            cg_inst *dst = &out[j];
            if (!dst->v) {
                dst->f = src->f;
                dst->nf = src->nf;
                dst->thread = src->thread;
                dst->v = cg_calloc((size_t)dst->nf * nr, sizeof *dst->v);
                if (src->spans) { /* ranks the window leaves out keep an unknown place */
                    dst->spans = cg_alloc(nr * sizeof *dst->spans);
                    for (uint32_t q = 0; q < nr; q++)
                        dst->spans[q].file = UINT32_MAX;
                }
            }
            uint32_t kk = 0;
            while (set->ranks[kk] != r)
                kk++;
            for (unsigned field = 0; field < src->nf; field++)
                dst->v[(size_t)field * nr + kk] = src->v[(size_t)field * src->nr + k];
            if (src->spans && dst->spans)
                dst->spans[kk] = src->spans[k];
        }
    }
    for (size_t x = s; x < e; x++)
        for (uint32_t k = 0; k < in[x].nr; k++)
            count[m->ranksets[in[x].rs].ranks[k]] = 0;
    free(ranks);
}

static int all_ranks(const cg_model *m, const cg_inst *in)
{
    return in->nr == m->nranks;
}

void cg_remerge(cg_model *m)
{
    if (m->nranks < 2)
        return;
    cg_inst *out = cg_alloc((m->ninsts + 1) * sizeof *out);
    size_t nout = 0;
    uint32_t *count = cg_calloc(m->nranks, sizeof *count);
    uint64_t *ref = cg_alloc((m->ninsts + 1) * sizeof *ref);
    for (size_t i = 0; i < m->ninsts;) {
        if (all_ranks(m, &m->insts[i])) {
            out[nout++] = m->insts[i++];
            continue;
        }
        size_t j = i;
        int one_set = 1; /* a run of one rank set (rank 0 writing a log) has nothing to join */
        while (j < m->ninsts && !all_ranks(m, &m->insts[j])) {
            one_set &= m->insts[j].rs == m->insts[i].rs;
            j++;
        }
        if (one_set) {
            while (i < j)
                out[nout++] = m->insts[i++];
            continue;
        }
        for (size_t s = i; s < j;) {
            size_t len = 0, e = spmd_window(m, m->insts, s, j, count, ref, &len);
            if (!e) {
                out[nout++] = m->insts[s++];
                continue;
            }
            merge_window(m, m->insts, s, e, len, out + nout, count);
            for (size_t x = s; x < e; x++) {
                free(m->insts[x].v);
                free(m->insts[x].spans);
            }
            nout += len;
            m->remerged_groups++;
            s = e;
        }
        i = j;
    }
    free(m->insts);
    m->insts = out;
    m->ninsts = nout;
    m->capinsts = m->ninsts + 1;
    free(count);
    free(ref);
}
