/* rebuild.c: a handle the program uses without a traced call having made it
 * (made before tracing began, inside an untraced call or a layer turned off,
 * or a predefined handle the table does not name) is rebuilt in the trace:
 * right before its first use the tracer writes, marked as rebuilt
 * (rec_record.synthetic), the table's own calls that make an equal handle
 * -- a communicator from its members' world ranks, a group likewise, a
 * datatype from its type map (MPI_Type_get_envelope/contents, recursively),
 * an info object from its keys, an HDF5 dataspace from its extent and
 * selection, an HDF5 datatype from its class and size, a property list
 * from its class. Which functions make them, and where each argument goes,
 * the table says: a function by its sole role (rec_function_with_sole), a
 * datatype's constructor by its combiner (rec_combiners.h) with each
 * argument's place in the contents (rec_arg_contents), arguments by role,
 * by kind or as the subject (functions/README.md). Replays and generated
 * kernels then make them like any call, and nothing that follows is lost
 * for want of the handle. The intermediate handles (a world group) get ids
 * of their own that no real value has. Runs with the tracer's lock held,
 * inside a call (busy). */
#define _GNU_SOURCE
#include <hdf5.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "rec_combiners.h"
#include "rt.h"
#include "runtime.h"

enum { MAX_TYPE_DEPTH = 8, MAX_SELECTION_BLOCKS = 1024 };

/* ---- a rebuilt call: the table's function of a sole role (or a
 * combiner's constructor), its arguments found by role, kind or as the
 * subject (functions/README.md) ---- */

typedef struct call {
    const rec_func_desc *f;
    rec_record r;
} call;

/* Every field zero but what the caller sets; it succeeded. */
static call call_of(const rt_call *c, const rec_func_desc *f)
{
    call k;
    memset(&k, 0, sizeof k);
    k.f = f;
    k.r.func = f ? f->id : 0;
    k.r.depth = c->rec.depth;
    k.r.thread = c->rec.thread;
    k.r.tstart = k.r.tend = c->rec.tstart;
    k.r.synthetic = 1;
    return k;
}

static call sole_call(const rt_call *c, unsigned sole)
{
    return call_of(c, rec_function_with_sole(sole));
}

static void append(const call *k)
{
    if (k->f)
        rt_append_synthetic(&k->r);
}

static void set_at(call *k, int arg, int64_t v)
{
    if (arg >= 0)
        k->r.args[arg].i = v;
}

static void set_role(call *k, unsigned role, int64_t v)
{
    set_at(k, k->f ? rec_arg_with_role(k->f, role) : -1, v);
}

/* The one IN argument of this kind (a class, an operator, a tag). */
static void set_kind(call *k, unsigned kind, int64_t v)
{
    set_at(k, k->f ? rec_arg_with_kind(k->f, kind, REC_ARG_IN) : -1, v);
}

static void set_subject(call *k, int64_t v)
{
    set_at(k, k->f && k->f->nargs > REC_ARG_SUBJECT ? REC_ARG_SUBJECT : -1, v);
}

/* The handle the call makes: its NEW argument, or its return value. */
static void set_made(call *k, int64_t id)
{
    for (unsigned a = 0; k->f && a < k->f->nargs; a++)
        if (k->f->args[a].flags & REC_ARG_CREATE) {
            k->r.args[a].i = id;
            return;
        }
    k->r.ret.i = id;
}

/* An array argument, and the argument its length names (n, rank), if any. */
static void set_array(call *k, int arg, const int64_t *v, size_t n)
{
    if (arg < 0)
        return;
    k->r.args[arg].ptr = v;
    k->r.args[arg].len = (uint32_t)n;
    k->r.args[arg].encoded = 0;
    set_at(k, rec_arg_length(k->f, (unsigned)arg), (int64_t)n);
}

static void set_array_role(call *k, unsigned role, const int64_t *v, size_t n)
{
    set_array(k, k->f ? rec_arg_with_role(k->f, role) : -1, v, n);
}

static void set_string_role(call *k, unsigned role, const char *s)
{
    int arg = k->f ? rec_arg_with_role(k->f, role) : -1;
    if (arg >= 0) {
        k->r.args[arg].ptr = s;
        k->r.args[arg].len = (uint32_t)strlen(s);
    }
}

static int64_t predefined_id(unsigned kind, uint64_t value)
{
    int64_t id;
    return rt_handle_predefined(kind, value, &id) ? id : -1;
}

/* ---- MPI: groups and communicators, by their members' world ranks ---- */

/* The members' ranks in MPI_COMM_WORLD, or NULL. */
static int64_t *world_ranks(MPI_Group g, int *n)
{
    MPI_Group world;
    if (PMPI_Group_size(g, n) != MPI_SUCCESS || *n <= 0 || PMPI_Comm_group(MPI_COMM_WORLD, &world) != MPI_SUCCESS)
        return NULL;
    int *in = malloc(2 * (size_t)*n * sizeof *in);
    int64_t *out = malloc((size_t)*n * sizeof *out);
    int ok = in && out;
    for (int i = 0; ok && i < *n; i++)
        in[i] = i;
    ok = ok && PMPI_Group_translate_ranks(g, *n, in, world, in + *n) == MPI_SUCCESS;
    for (int i = 0; ok && i < *n; i++) {
        ok = in[*n + i] != MPI_UNDEFINED;
        out[i] = in[*n + i];
    }
    PMPI_Group_free(&world);
    free(in);
    if (!ok)
        free(out);
    return ok ? out : NULL;
}

/* The world's group, then the group of the members, as group `id`. */
static int64_t write_group(rt_call *c, const int64_t *ranks, int n, int64_t id, int64_t *world_group)
{
    int64_t world = predefined_id(REC_KIND_MPI_COMM, (uint64_t)(uintptr_t)MPI_COMM_WORLD);
    *world_group = rt_handle_phantom(REC_KIND_MPI_GROUP);
    call k = sole_call(c, REC_SOLE_COMM_GROUP);
    set_kind(&k, REC_KIND_MPI_COMM, world);
    set_made(&k, *world_group);
    append(&k);
    k = sole_call(c, REC_SOLE_GROUP_OF_RANKS);
    set_role(&k, REC_AROLE_GROUP, *world_group);
    set_array_role(&k, REC_AROLE_RANKS, ranks, (size_t)n);
    set_made(&k, id);
    append(&k);
    return world;
}

static void free_group(rt_call *c, int64_t id)
{
    call k = sole_call(c, REC_SOLE_FREES_GROUP);
    set_subject(&k, id);
    append(&k);
}

static void rebuild_group(rt_call *c, MPI_Group g, int64_t id)
{
    int n;
    int64_t *ranks = world_ranks(g, &n), world_group;
    if (!ranks)
        return;
    write_group(c, ranks, n, id, &world_group);
    free_group(c, world_group);
    free(ranks);
}

/* The members make it together (the call is collective over them alone),
 * with a tag their set decides, so that two communicators rebuilt in
 * another order by overlapping members do not match up. */
static void rebuild_comm(rt_call *c, MPI_Comm comm, int64_t id)
{
    int inter = 1, n;
    MPI_Group g;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter || PMPI_Comm_group(comm, &g) != MPI_SUCCESS)
        return;
    int64_t *ranks = world_ranks(g, &n);
    PMPI_Group_free(&g);
    if (!ranks)
        return;
    uint64_t tag = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        tag = (tag ^ (uint64_t)ranks[i]) * 1099511628211ull;
    int64_t world_group, group = rt_handle_phantom(REC_KIND_MPI_GROUP);
    int64_t world = write_group(c, ranks, n, group, &world_group);
    call k = sole_call(c, REC_SOLE_COMM_OF_GROUP);
    set_kind(&k, REC_KIND_MPI_COMM, world);
    set_role(&k, REC_AROLE_GROUP, group);
    set_kind(&k, REC_KIND_MPI_TAG, (int64_t)(tag % 32000) + 1);
    set_made(&k, id);
    append(&k);
    free_group(c, group);
    free_group(c, world_group);
    free(ranks);
}

/* ---- MPI: info objects, by their keys ---- */

static void rebuild_info(rt_call *c, MPI_Info info, int64_t id)
{
    int nkeys = 0;
    if (PMPI_Info_get_nkeys(info, &nkeys) != MPI_SUCCESS)
        return;
    call k = sole_call(c, REC_SOLE_EMPTY_INFO);
    set_made(&k, id);
    append(&k);
    for (int i = 0; i < nkeys; i++) {
        char key[MPI_MAX_INFO_KEY + 1], value[1024];
        int flag = 0;
        if (PMPI_Info_get_nthkey(info, i, key) != MPI_SUCCESS ||
            PMPI_Info_get(info, key, (int)sizeof value - 1, value, &flag) != MPI_SUCCESS || !flag)
            continue;
        k = sole_call(c, REC_SOLE_SETS_INFO_KEY);
        set_subject(&k, id);
        set_string_role(&k, REC_AROLE_INFO_KEY, key);
        set_string_role(&k, REC_AROLE_INFO_VALUE, value);
        append(&k);
    }
}

/* ---- MPI: datatypes, by the constructor of their combiner ---- */

/* What MPI_Type_get_contents returns, the datatypes as handle ids. */
typedef struct contents {
    size_t n[REC_CONTENTS_TYPES + 1]; /* elements of each array (REC_CONTENTS_*) */
    const int *ints;
    const MPI_Aint *aints;
    const int64_t *types;
} contents;

static int64_t element(const contents *x, unsigned array, size_t e)
{
    return array == REC_CONTENTS_INTS ? x->ints[e] : array == REC_CONTENTS_AINTS ? (int64_t)x->aints[e] : x->types[e];
}

/* n: the argument the constructor's arrays' length names (count, ndims),
 * from the contents; 0 for a constructor without arrays. */
static int64_t contents_n(const rec_func_desc *f, const contents *x)
{
    for (unsigned a = 0; a < f->nargs; a++) {
        int len = rec_arg_contents(f, a).each ? rec_arg_length(f, a) : -1;
        if (len >= 0) {
            rec_contents s = rec_arg_contents(f, (unsigned)len);
            return s.array == REC_CONTENTS_INTS && s.base < x->n[s.array] ? x->ints[s.base] : -1;
        }
    }
    return 0;
}

/* Constructor f's call that makes type `id` of these contents, each
 * argument where the table says it comes from. 0 if they do not fit. */
static int write_constructor(rt_call *c, const rec_func_desc *f, const contents *x, int64_t id)
{
    int64_t n = contents_n(f, x);
    size_t room = x->n[REC_CONTENTS_INTS] + x->n[REC_CONTENTS_AINTS] + x->n[REC_CONTENTS_TYPES], used = 0;
    int64_t *v = malloc((room + 1) * sizeof *v);
    call k = call_of(c, f);
    int ok = v && n >= 0;
    for (unsigned a = 0; ok && a < f->nargs; a++) {
        rec_contents s = rec_arg_contents(f, a);
        size_t at = s.base + s.step * (size_t)n, len = s.each ? (size_t)n : 1;
        if (s.array == REC_CONTENTS_NONE)
            continue;
        ok = at + len <= x->n[s.array] && used + len <= room;
        for (size_t e = 0; ok && e < len; e++) /* named constants (an order, distributions) canonical */
            v[used + e] = rt_mpi_constant(f->args[a].kind, element(x, s.array, at + e));
        if (ok && s.each)
            set_array(&k, (int)a, v + used, len);
        else if (ok)
            k.r.args[a].i = v[used];
        used += len;
    }
    set_made(&k, id);
    if (ok)
        append(&k);
    free(v);
    return ok;
}

static const rec_func_desc *constructor(int combiner)
{
    return rec_function_by_id(rec_combiner_function(combiner));
}

/* t's combiner (NAMED if MPI cannot tell) and, if the classic query can
 * describe t, its envelope: an MPI-4 library fails that query on a type
 * with large counts, fatally under the default error handler. */
static int envelope(MPI_Datatype t, int *ni, int *na, int *nt, int *combiner)
{
    *combiner = MPI_COMBINER_NAMED;
#if MPI_VERSION >= 4
    MPI_Count n[4];
    if (PMPI_Type_get_envelope_c(t, &n[0], &n[1], &n[2], &n[3], combiner) != MPI_SUCCESS || n[2] > 0)
        return 0;
#endif
    return PMPI_Type_get_envelope(t, ni, na, nt, combiner) == MPI_SUCCESS;
}

static int64_t rebuild_type(rt_call *c, MPI_Datatype t, int64_t id, int depth);

/* A member type MPI_Type_get_contents returned: predefined, or rebuilt and
 * freed unless MPI says it is predefined (freeing one is fatal). */
static int64_t member_type(rt_call *c, MPI_Datatype t, int depth)
{
    int64_t id = predefined_id(REC_KIND_MPI_DATATYPE, (uint64_t)(uintptr_t)t);
    if (id >= 0)
        return id;
    id = rebuild_type(c, t, rt_handle_phantom(REC_KIND_MPI_DATATYPE), depth + 1);
    int ni, na, nt, combiner;
    envelope(t, &ni, &na, &nt, &combiner);
    if (combiner != MPI_COMBINER_NAMED && combiner != MPI_COMBINER_F90_REAL &&
        combiner != MPI_COMBINER_F90_COMPLEX && combiner != MPI_COMBINER_F90_INTEGER)
        PMPI_Type_free(&t);
    return id;
}

/* What MPI cannot describe (a large-count type in an MPI-4.0 library, an
 * unnamed predefined type) or the table cannot construct: as many bytes,
 * resized to its lower bound and extent -- the contents MPI would give for
 * a contiguous type of bytes, then for its resized type. */
static int64_t rebuild_by_size(rt_call *c, MPI_Datatype t, int64_t id)
{
    int size = 0;
    MPI_Aint bounds[2] = {0, 0};
    if (PMPI_Type_size(t, &size) != MPI_SUCCESS || PMPI_Type_get_extent(t, &bounds[0], &bounds[1]) != MPI_SUCCESS)
        return -1;
    int64_t byte = predefined_id(REC_KIND_MPI_DATATYPE, (uint64_t)(uintptr_t)MPI_BYTE);
    int64_t bytes = rt_handle_phantom(REC_KIND_MPI_DATATYPE);
    contents of_bytes = {{0, 1, 0, 1}, &size, NULL, &byte}, resized = {{0, 0, 2, 1}, NULL, bounds, &bytes};
    write_constructor(c, constructor(MPI_COMBINER_CONTIGUOUS), &of_bytes, bytes);
    write_constructor(c, constructor(MPI_COMBINER_RESIZED), &resized, id);
    return id;
}

/* The table's constructor of its combiner, from its contents: member types
 * first (recursively), then the constructor, then the commit. */
static int64_t rebuild_type(rt_call *c, MPI_Datatype t, int64_t id, int depth)
{
    int ni, na, nt, combiner;
    if (depth > MAX_TYPE_DEPTH || !envelope(t, &ni, &na, &nt, &combiner))
        return rebuild_by_size(c, t, id);
    const rec_func_desc *f = constructor(combiner); /* none: named, Fortran and MPI-1 integer forms */
    int *ints = f ? malloc(((size_t)ni + 1) * sizeof *ints) : NULL;
    MPI_Aint *aints = ints ? malloc(((size_t)na + 1) * sizeof *aints) : NULL;
    MPI_Datatype *types = aints ? malloc(((size_t)nt + 1) * sizeof *types) : NULL;
    int64_t *tids = types ? malloc(((size_t)nt + 1) * sizeof *tids) : NULL;
    if (!tids || PMPI_Type_get_contents(t, ni, na, nt, ints, aints, types) != MPI_SUCCESS) {
        free(ints), free(aints), free(types), free(tids);
        return rebuild_by_size(c, t, id);
    }
    for (int e = 0; e < nt; e++)
        tids[e] = member_type(c, types[e], depth);
    contents x = {{0, (size_t)ni, (size_t)na, (size_t)nt}, ints, aints, tids};
    int ok = write_constructor(c, f, &x, id);
    free(ints), free(aints), free(types), free(tids);
    if (!ok)
        return rebuild_by_size(c, t, id);
    call k = sole_call(c, REC_SOLE_COMMITS_TYPE);
    set_subject(&k, id);
    append(&k);
    return id;
}

/* ---- HDF5: dataspaces, datatypes, property lists ---- */

static void rebuild_space(rt_call *c, hid_t space, int64_t id)
{
    H5S_class_t cls = H5Sget_simple_extent_type(space);
    call k;
    if (cls != H5S_SIMPLE) {
        k = sole_call(c, REC_SOLE_SPACE_OF_CLASS);
        set_kind(&k, REC_KIND_H5_SCLASS, cls);
        set_made(&k, id);
        append(&k);
        return;
    }
    int rank = H5Sget_simple_extent_ndims(space);
    hsize_t dims[H5S_MAX_RANK], maxdims[H5S_MAX_RANK];
    if (rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space, dims, maxdims) < 0)
        return;
    int64_t d[2 * H5S_MAX_RANK];
    for (int k = 0; k < rank; k++)
        d[k] = (int64_t)dims[k], d[rank + k] = (int64_t)maxdims[k];
    k = sole_call(c, REC_SOLE_SIMPLE_SPACE);
    set_array_role(&k, REC_AROLE_DIMS, d, (size_t)rank);
    set_array_role(&k, REC_AROLE_MAXDIMS, d + rank, (size_t)rank);
    set_made(&k, id);
    append(&k);
    H5S_sel_type sel = H5Sget_select_type(space);
    hssize_t nblocks = sel == H5S_SEL_HYPERSLABS ? H5Sget_select_hyper_nblocks(space) : 0;
    if (sel == H5S_SEL_NONE || (sel == H5S_SEL_HYPERSLABS && nblocks == 0)) {
        k = sole_call(c, REC_SOLE_SELECTS_NONE);
        set_subject(&k, id);
        append(&k);
    } else if (sel == H5S_SEL_HYPERSLABS && nblocks > 0 && nblocks <= MAX_SELECTION_BLOCKS) {
        hsize_t *b = malloc((size_t)nblocks * 2 * (size_t)rank * sizeof *b);
        if (b && H5Sget_select_hyper_blocklist(space, 0, (hsize_t)nblocks, b) >= 0)
            for (hssize_t i = 0; i < nblocks; i++) { /* each block: start, then its far corner */
                int64_t start[H5S_MAX_RANK], ones[H5S_MAX_RANK], block[H5S_MAX_RANK];
                for (int j = 0; j < rank; j++) {
                    start[j] = (int64_t)b[(2 * i) * rank + j];
                    block[j] = (int64_t)b[(2 * i + 1) * rank + j] - start[j] + 1;
                    ones[j] = 1;
                }
                k = sole_call(c, REC_SOLE_SELECTS_HYPERSLAB);
                set_subject(&k, id);
                set_kind(&k, REC_KIND_H5_SELOP, i ? H5S_SELECT_OR : H5S_SELECT_SET);
                set_array_role(&k, REC_AROLE_STARTS, start, (size_t)rank);
                set_array_role(&k, REC_AROLE_STRIDE, ones, (size_t)rank);
                set_array_role(&k, REC_AROLE_COUNT, ones, (size_t)rank);
                set_array_role(&k, REC_AROLE_BLOCK, block, (size_t)rank);
                append(&k);
            }
        free(b);
    } else if (sel == H5S_SEL_POINTS) {
        hssize_t npoints = H5Sget_select_elem_npoints(space);
        hsize_t *p = npoints > 0 ? malloc((size_t)npoints * (size_t)rank * sizeof *p) : NULL;
        int64_t *coord = p ? malloc((size_t)npoints * (size_t)rank * sizeof *coord) : NULL;
        if (coord && H5Sget_select_elem_pointlist(space, 0, (hsize_t)npoints, p) >= 0) {
            for (hssize_t i = 0; i < npoints * rank; i++)
                coord[i] = (int64_t)p[i];
            k = sole_call(c, REC_SOLE_SELECTS_POINTS);
            set_subject(&k, id);
            set_kind(&k, REC_KIND_H5_SELOP, H5S_SELECT_SET);
            set_role(&k, REC_AROLE_COUNT, npoints);
            set_array_role(&k, REC_AROLE_COORDS, coord, (size_t)(npoints * rank));
            append(&k);
        }
        free(p);
        free(coord);
    }
}

/* A predefined type the table names that equals it, or -1. */
static int64_t equal_predefined(hid_t type)
{
    for (size_t i = 0; i < rec_predefined_handle_count; i++) {
        const rec_handle_desc *h = &rec_predefined_handles[i];
        if (h->kind != REC_KIND_H5_TYPE)
            continue;
        hid_t known = rt_handle_value(REC_KIND_H5_TYPE, h->id);
        if (known > 0 && H5Tequal(type, known) > 0)
            return h->id;
    }
    return -1;
}

static void copy_type(rt_call *c, int64_t from, int64_t id)
{
    call k = sole_call(c, REC_SOLE_COPIES_H5_TYPE);
    set_role(&k, REC_AROLE_OLDTYPE, from);
    set_made(&k, id);
    append(&k);
}

/* An equal predefined type's copy; else a string, or an opaque type, of its size. */
static void rebuild_h5_type(rt_call *c, hid_t type, int64_t id)
{
    int64_t same = equal_predefined(type);
    if (same >= 0) {
        copy_type(c, same, id);
        return;
    }
    size_t size = H5Tget_size(type);
    call k;
    if (H5Tget_class(type) == H5T_STRING) {
        copy_type(c, predefined_id(REC_KIND_H5_TYPE, (uint64_t)H5T_C_S1), id);
        k = sole_call(c, REC_SOLE_SETS_H5_TYPE_SIZE);
        set_subject(&k, id);
        set_role(&k, REC_AROLE_TYPE_SIZE, (int64_t)size);
        append(&k);
        return;
    }
    k = sole_call(c, REC_SOLE_H5_TYPE_OF_CLASS);
    set_kind(&k, REC_KIND_H5_TCLASS, H5T_OPAQUE);
    set_role(&k, REC_AROLE_TYPE_SIZE, (int64_t)(size ? size : 1));
    set_made(&k, id);
    append(&k);
}

/* A new list of its class: the class is what decides which calls take it. */
static void rebuild_plist(rt_call *c, hid_t plist, int64_t id)
{
    hid_t cls = H5Pget_class(plist);
    int64_t cls_id = -1;
    for (size_t i = 0; cls > 0 && cls_id < 0 && i < rec_predefined_handle_count; i++) {
        const rec_handle_desc *h = &rec_predefined_handles[i];
        hid_t known = h->kind == REC_KIND_H5_PLIST_CLASS ? (hid_t)rt_handle_value(h->kind, h->id) : 0;
        if (known > 0 && H5Pequal(cls, known) > 0)
            cls_id = h->id;
    }
    if (cls > 0)
        H5Pclose_class(cls);
    if (cls_id < 0)
        return;
    call k = sole_call(c, REC_SOLE_PLIST_OF_CLASS);
    set_kind(&k, REC_KIND_H5_PLIST_CLASS, cls_id);
    set_made(&k, id);
    append(&k);
}

/* ---- HDF5: a group or dataset HDF5 opened for an operator ---- */

/* H5Literate_by_name, H5Aiterate_by_name, ... open the object they iterate
 * and hand its id to the program's operator, which opens what it visits
 * through it. The object is reopened by its path from a location of its
 * file the trace has, and closed, rebuilt too, when the call that ran the
 * operator returns, as HDF5 closes it then: a kernel's or replay's file
 * then closes with nothing left open. */
enum { MAX_SCOPED = 16, MAX_OBJECT_PATH = 4096 };
static struct {
    uint64_t value;
    int64_t id;
    uint32_t level; /* the open-call depth of the call that ran the operator, plus one */
    uint32_t thread;
} scoped[MAX_SCOPED];
unsigned rt_nscoped;

static void rebuild_object(rt_call *c, hid_t obj, int64_t id)
{
    static char path[MAX_OBJECT_PATH];
    /* Used inside another traced call: an operator's, closed when that call returns. Else
     * (made out of sight before) it stays open, as the program's handles do. */
    int scope = (c->outer_nest >> 8) > 0;
    ssize_t n = H5Iget_name(obj, path, sizeof path);
    if (n <= 0 || (size_t)n >= sizeof path || path[0] != '/' || (scope && rt_nscoped == MAX_SCOPED))
        return;
    /* The file's own id: H5Iget_file_id adds a reference to the one the program opened it with. */
    hid_t file = H5Iget_file_id(obj);
    int64_t file_id;
    int known = file >= 0 && rt_handle_known(REC_KIND_H5_LOC, (uint64_t)file, &file_id);
    if (file >= 0)
        H5Idec_ref(file);
    if (!known)
        return;
    call k = sole_call(c, REC_SOLE_OPENS_H5_OBJECT);
    set_kind(&k, REC_KIND_H5_LOC, file_id);
    int name = k.f ? rec_arg_with_kind(k.f, REC_KIND_STRING, REC_ARG_IN) : -1;
    if (name >= 0) {
        k.r.args[name].ptr = path;
        k.r.args[name].len = (uint32_t)n;
    }
    set_kind(&k, REC_KIND_H5_PLIST, predefined_id(REC_KIND_H5_PLIST, (uint64_t)H5P_DEFAULT));
    set_made(&k, id);
    append(&k);
    if (!scope)
        return;
    scoped[rt_nscoped].value = (uint64_t)obj;
    scoped[rt_nscoped].id = id;
    scoped[rt_nscoped].level = (c->outer_nest >> 8) + 1;
    scoped[rt_nscoped].thread = c->rec.thread;
    rt_nscoped++;
}

void rt_close_scoped(rt_call *c)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < rt_nscoped; i++) {
        /* c returns to depth outer_nest: an operator it ran has returned */
        if (scoped[i].thread != c->rec.thread || scoped[i].level <= (c->outer_nest >> 8) + 1) {
            scoped[kept++] = scoped[i];
            continue;
        }
        call k = sole_call(c, REC_SOLE_CLOSES_H5_OBJECT);
        k.r.tstart = k.r.tend = c->rec.tend;
        k.r.depth = c->rec.depth; /* beside c: under the netCDF call that made it, if any */
        set_subject(&k, scoped[i].id);
        if (rt_can_append())
            append(&k);
        rt_handle_forget(REC_KIND_H5_LOC, scoped[i].value);
    }
    rt_nscoped = kept;
}

void rt_rebuild(rt_call *c, unsigned kind, uint64_t value, int64_t id)
{
    if (!rt_can_append() || c->skip)
        return;
    /* A handle made out of sight that the call frees (MPI_Type_free of a type
     * MPI_Type_get_contents handed back): gone when its id is taken, and asking
     * MPI about it then is an error MPI may treat as fatal. */
    const rec_func_desc *f = rec_function_by_id(c->rec.func);
    if (f && (f->flags & REC_FN_DESTROYS))
        return;
    switch (kind) {
    case REC_KIND_MPI_COMM:
        rebuild_comm(c, (MPI_Comm)(uintptr_t)value, id);
        break;
    case REC_KIND_MPI_GROUP:
        rebuild_group(c, (MPI_Group)(uintptr_t)value, id);
        break;
    case REC_KIND_MPI_INFO:
        rebuild_info(c, (MPI_Info)(uintptr_t)value, id);
        break;
    case REC_KIND_MPI_DATATYPE:
    case REC_KIND_MPI_DATATYPE_ARRAY:
        rebuild_type(c, (MPI_Datatype)(uintptr_t)value, id, 0);
        break;
    case REC_KIND_H5_SPACE:
    case REC_KIND_H5_TYPE:
    case REC_KIND_H5_PLIST:
    case REC_KIND_H5_LOC: {
        hid_t h = (hid_t)value;
        H5E_BEGIN_TRY
        {
            switch (H5Iget_type(h)) {
            case H5I_DATASPACE:
                rebuild_space(c, h, id);
                break;
            case H5I_DATATYPE:
                rebuild_h5_type(c, h, id);
                break;
            case H5I_GENPROP_LST:
                rebuild_plist(c, h, id);
                break;
            case H5I_GROUP:
            case H5I_DATASET:
                rebuild_object(c, h, id);
                break;
            default: /* files and attributes: not yet */
                break;
            }
        }
        H5E_END_TRY
        break;
    }
    default:
        break;
    }
}
