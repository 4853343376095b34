/* handles.c: handle ids -> the objects that created them. A kernel does
 * not replay raw ids: each handle a call created becomes a variable, and
 * every later use names that variable. After this pass a handle field holds
 * CG_HOBJ_BASE + the object's index; predefined handles
 * (rec_handle_is_predefined) keep their id, and ids no top-level call created
 * (a library made them) stay as they are. Ids are per rank: one id may be
 * different objects on different ranks (the even ranks' communicator and the
 * odd ranks'). An id a creating call hands back while it is live (the
 * tracer's ids follow reference-counted objects: MPICH's MPI_Comm_group
 * twice) is one more reference, its own variable, since another MPI may make
 * another handle: calls use the first reference's variable, a destroying
 * call frees the latest one's. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct hkey {
    uint32_t space, rank;
    int64_t id;
} hkey;

/* One reference to an id: the object whose variable holds it, and how many
 * references that variable stands for (H5Iinc_ref adds one to it). */
typedef struct href {
    uint32_t obj, count;
} href;

typedef struct hmap {
    UT_hash_handle hh;
    hkey k;
    href *refs; /* oldest first; the last one stays after its release (a stale use names it) */
    uint32_t nrefs, cap;
} hmap;

static hmap *find(hmap *map, unsigned kind, uint32_t rank, int64_t id)
{
    hkey k;
    memset(&k, 0, sizeof k);
    k.space = rec_kind_handle_space(kind);
    k.rank = rank;
    k.id = id;
    hmap *e = NULL;
    HASH_FIND(hh, map, &k, sizeof k, e);
    return e;
}

/* The object a use of the id names (latest: the one a release frees). */
static int64_t resolve(cg_model *m, hmap *e, int64_t id, uint32_t user, int latest)
{
    if (!e)
        return id;
    uint32_t obj = latest ? e->refs[e->nrefs - 1].obj : e->refs[0].obj;
    m->hobjs[obj].last_use = user;
    if (m->insts[m->hobjs[obj].creator].thread != m->insts[user].thread)
        m->hobjs[obj].shared = 1; /* a variable every thread sees */
    return CG_HOBJ_BASE + obj;
}

static hmap *find_value(hmap *map, unsigned kind, uint32_t rank, int64_t id)
{
    return rec_handle_is_dynamic(id) && id < CG_HOBJ_BASE ? find(map, kind, rank, id) : NULL;
}

/* The subject's references after a call added (+1) or dropped (-1) one. */
static void count_reference(hmap *e, int change)
{
    if (!e)
        return;
    href *top = &e->refs[e->nrefs - 1];
    if (change > 0)
        top->count++;
    else if (top->count && !--top->count && e->nrefs > 1)
        e->nrefs--;
}

/* A created object as one more reference to the id (live: its last
 * reference still counted, in a reference-counted space), or as its only one. */
static void add_reference(hmap *e, uint32_t obj)
{
    int live = e->nrefs && e->refs[e->nrefs - 1].count && rec_space_counts_references(e->k.space);
    if (!live)
        e->nrefs = 0;
    if (e->nrefs == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 2;
        e->refs = cg_realloc(e->refs, e->cap * sizeof *e->refs);
    }
    e->refs[e->nrefs++] = (href){obj, 1};
}

static unsigned element_kind(unsigned kind)
{
    return rec_kind_is_handle_array(kind) ? rec_kind_element(kind) : 0;
}

/* The handles a call names, as objects. */
static void resolve_uses(cg_model *m, hmap *map, uint32_t i)
{
    cg_inst *in = &m->insts[i];
    const uint32_t *ranks = m->ranksets[in->rs].ranks;
    int change = rec_func_reference_change(in->f);
    for (unsigned field = 0; field < in->nf; field++) {
        unsigned kind = cg_field_kind(in->f, field);
        if (cg_field_role(in->f, field) != CG_ROLE_VALUE)
            continue;
        int64_t *v = cg_inst_values(in, field);
        int subject = field == REC_ARG_SUBJECT && change;
        if (cg_is_handle_kind(kind)) {
            for (uint32_t k = 0; k < in->nr; k++) {
                hmap *e = find_value(map, kind, ranks[k], v[k]);
                v[k] = resolve(m, e, v[k], i, subject && change < 0);
                if (subject)
                    count_reference(e, change);
            }
        } else if (element_kind(kind)) {
            for (uint32_t k = 0; k < in->nr; k++) {
                uint32_t n;
                const int64_t *a = cg_arr(m, v[k], &n);
                int64_t *copy = cg_alloc((n + 1) * sizeof *copy);
                for (uint32_t x = 0; x < n; x++)
                    copy[x] = resolve(m, find_value(map, element_kind(kind), ranks[k], a[x]), a[x], i, 0);
                v[k] = cg_arr_id(m, copy, n);
                free(copy);
            }
        }
    }
}

/* The handles a call creates: one object per call, whatever its ranks. */
static void add_creations(cg_model *m, hmap **map, uint32_t i, size_t *cap)
{
    cg_inst *in = &m->insts[i];
    const uint32_t *ranks = m->ranksets[in->rs].ranks;
    for (unsigned field = 0; field < in->nf; field++) {
        if (cg_field_role(in->f, field) != CG_ROLE_CREATE)
            continue;
        unsigned kind = cg_field_kind(in->f, field);
        int64_t *v = cg_inst_values(in, field);
        uint32_t obj = UINT32_MAX;
        for (uint32_t k = 0; k < in->nr; k++) {
            if (!rec_handle_is_dynamic(v[k]) || v[k] >= CG_HOBJ_BASE)
                continue; /* the call failed on this rank */
            if (obj == UINT32_MAX) {
                if (m->nhobjs == *cap) {
                    *cap = *cap ? 2 * *cap : 256;
                    m->hobjs = cg_realloc(m->hobjs, *cap * sizeof *m->hobjs);
                }
                obj = (uint32_t)m->nhobjs++;
                m->hobjs[obj] =
                    (cg_hobj){.creator = i, .field = (uint16_t)field, .kind = (uint8_t)kind, .last_use = i};
            }
            hmap *e = find(*map, kind, ranks[k], v[k]);
            if (!e) {
                e = cg_calloc(1, sizeof *e);
                e->k.space = rec_kind_handle_space(kind);
                e->k.rank = ranks[k];
                e->k.id = v[k];
                HASH_ADD(hh, *map, k, sizeof e->k, e);
            }
            add_reference(e, obj);
            v[k] = CG_HOBJ_BASE + obj;
        }
    }
}

void cg_resolve_handles(cg_model *m)
{
    hmap *map = NULL;
    size_t cap = 0;
    for (uint32_t i = 0; i < m->ninsts; i++) {
        resolve_uses(m, map, i);
        add_creations(m, &map, i, &cap);
    }
    hmap *e, *tmp;
    HASH_ITER(hh, map, e, tmp)
    {
        HASH_DEL(map, e);
        free(e->refs);
        free(e);
    }
}
