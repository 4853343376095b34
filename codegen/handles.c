/* handles.c: handle ids -> the objects that created them. A kernel does
 * not replay raw ids: each handle a call created becomes a variable, and
 * every later use names that variable. After this pass a handle field holds
 * CG_HOBJ_BASE + the object's index; predefined handles
 * (rec_handle_is_predefined) keep their id, and ids no top-level call created
 * (a library made them) stay as they are. */
#include "cg.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct hkey {
    uint32_t space;
    int64_t id;
} hkey;

typedef struct hmap {
    UT_hash_handle hh;
    hkey k;
    uint32_t obj;
} hmap;

static hmap *find(hmap *map, unsigned kind, int64_t id)
{
    hkey k;
    memset(&k, 0, sizeof k);
    k.space = rec_kind_handle_space(kind);
    k.id = id;
    hmap *e = NULL;
    HASH_FIND(hh, map, &k, sizeof k, e);
    return e;
}

static int64_t resolve(cg_model *m, hmap *map, unsigned kind, int64_t id, uint32_t user)
{
    if (!rec_handle_is_dynamic(id) || id >= CG_HOBJ_BASE)
        return id;
    hmap *e = find(map, kind, id);
    if (!e)
        return id;
    m->hobjs[e->obj].last_use = user;
    return CG_HOBJ_BASE + e->obj;
}

static unsigned element_kind(unsigned kind)
{
    return kind == REC_KIND_MPI_DATATYPE_ARRAY  ? REC_KIND_MPI_DATATYPE
           : kind == REC_KIND_MPI_REQUEST_ARRAY ? REC_KIND_MPI_REQUEST
                                                : 0;
}

void cg_resolve_handles(cg_model *m)
{
    hmap *map = NULL;
    size_t cap = 0;
    for (uint32_t i = 0; i < m->ninsts; i++) {
        cg_inst *in = &m->insts[i];
        for (unsigned field = 0; field < in->nf; field++) {
            unsigned kind = cg_field_kind(in->f, field);
            if (cg_field_role(in->f, field) != CG_ROLE_VALUE)
                continue;
            int64_t *v = cg_inst_values(in, field);
            if (cg_is_handle_kind(kind)) {
                for (uint32_t k = 0; k < in->nr; k++)
                    v[k] = resolve(m, map, kind, v[k], i);
            } else if (element_kind(kind)) {
                for (uint32_t k = 0; k < in->nr; k++) {
                    uint32_t n;
                    const int64_t *a = cg_arr(m, v[k], &n);
                    int64_t *copy = cg_alloc((n + 1) * sizeof *copy);
                    for (uint32_t e = 0; e < n; e++)
                        copy[e] = resolve(m, map, element_kind(kind), a[e], i);
                    v[k] = cg_arr_id(m, copy, n);
                    free(copy);
                }
            }
        }
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
                    if (m->nhobjs == cap) {
                        cap = cap ? 2 * cap : 256;
                        m->hobjs = cg_realloc(m->hobjs, cap * sizeof *m->hobjs);
                    }
                    obj = (uint32_t)m->nhobjs++;
                    m->hobjs[obj] = (cg_hobj){
                        .creator = i, .field = (uint16_t)field, .kind = (uint8_t)kind, .last_use = i};
                }
                hmap *e = find(map, kind, v[k]);
                if (!e) {
                    e = cg_calloc(1, sizeof *e);
                    e->k.space = rec_kind_handle_space(kind);
                    e->k.id = v[k];
                    HASH_ADD(hh, map, k, sizeof e->k, e);
                }
                e->obj = obj;
                v[k] = CG_HOBJ_BASE + obj;
            }
        }
    }
    hmap *e, *tmp;
    HASH_ITER(hh, map, e, tmp)
    {
        HASH_DEL(map, e);
        free(e);
    }
}
