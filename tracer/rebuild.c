/* rebuild.c: a handle the program uses without a traced call having made it
 * (made before tracing began, inside an untraced call or a layer turned off,
 * or a predefined handle the table does not name) is rebuilt in the trace:
 * right before its first use the tracer writes, marked as rebuilt
 * (rec_record.synthetic), the table's own calls that make an equal handle
 * -- a communicator from its members' world ranks, a group likewise, a
 * datatype from its type map (MPI_Type_get_envelope/contents, recursively),
 * an info object from its keys, an HDF5 dataspace from its extent and
 * selection, an HDF5 datatype from its class and members, a property list
 * from its class. Replays and generated kernels then make them like any
 * call, and nothing that follows is lost for want of the handle. The
 * intermediate handles (a world group) get ids of their own that no real
 * value has. Runs with the tracer's lock held, inside a call (busy). */
#define _GNU_SOURCE
#include <hdf5.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "rec_function_ids.h"
#include "rt.h"
#include "runtime.h"

enum { MAX_TYPE_DEPTH = 8, MAX_SELECTION_BLOCKS = 1024 };

/* A rebuilt call: every field zero but what the caller sets; it succeeded. */
static rec_record call_of(const rt_call *c, unsigned func)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    r.func = (uint16_t)func;
    r.depth = c->rec.depth;
    r.thread = c->rec.thread;
    r.tstart = r.tend = c->rec.tstart;
    r.synthetic = 1;
    return r;
}

static void array_arg(rec_record *r, unsigned arg, const int64_t *v, size_t n)
{
    r->args[arg].ptr = v;
    r->args[arg].len = (uint32_t)n;
    r->args[arg].encoded = 0;
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

/* MPI_Comm_group(MPI_COMM_WORLD) then MPI_Group_incl of the members, as group `id`. */
static int64_t write_group(rt_call *c, const int64_t *ranks, int n, int64_t id, int64_t *world_group)
{
    int64_t world = predefined_id(REC_KIND_MPI_COMM, (uint64_t)(uintptr_t)MPI_COMM_WORLD);
    *world_group = rt_handle_phantom(REC_KIND_MPI_GROUP);
    rec_record r = call_of(c, REC_ID_MPI_Comm_group);
    r.args[REC_ARG_MPI_Comm_group_comm].i = world;
    r.args[REC_ARG_MPI_Comm_group_group].i = *world_group;
    rt_append_synthetic(&r);
    r = call_of(c, REC_ID_MPI_Group_incl);
    r.args[REC_ARG_MPI_Group_incl_group].i = *world_group;
    r.args[REC_ARG_MPI_Group_incl_n].i = n;
    array_arg(&r, REC_ARG_MPI_Group_incl_ranks, ranks, (size_t)n);
    r.args[REC_ARG_MPI_Group_incl_newgroup].i = id;
    rt_append_synthetic(&r);
    return world;
}

static void free_group(rt_call *c, int64_t id)
{
    rec_record r = call_of(c, REC_ID_MPI_Group_free);
    r.args[REC_ARG_MPI_Group_free_group].i = id;
    rt_append_synthetic(&r);
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

/* The members make it together (MPI_Comm_create_group is collective over
 * them alone), with a tag their set decides, so that two communicators
 * rebuilt in another order by overlapping members do not match up. */
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
    rec_record r = call_of(c, REC_ID_MPI_Comm_create_group);
    r.args[REC_ARG_MPI_Comm_create_group_comm].i = world;
    r.args[REC_ARG_MPI_Comm_create_group_group].i = group;
    r.args[REC_ARG_MPI_Comm_create_group_tag].i = (int64_t)(tag % 32000) + 1;
    r.args[REC_ARG_MPI_Comm_create_group_newcomm].i = id;
    rt_append_synthetic(&r);
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
    rec_record r = call_of(c, REC_ID_MPI_Info_create);
    r.args[REC_ARG_MPI_Info_create_info].i = id;
    rt_append_synthetic(&r);
    for (int k = 0; k < nkeys; k++) {
        char key[MPI_MAX_INFO_KEY + 1], value[1024];
        int flag = 0;
        if (PMPI_Info_get_nthkey(info, k, key) != MPI_SUCCESS ||
            PMPI_Info_get(info, key, (int)sizeof value - 1, value, &flag) != MPI_SUCCESS || !flag)
            continue;
        r = call_of(c, REC_ID_MPI_Info_set);
        r.args[REC_ARG_MPI_Info_set_info].i = id;
        r.args[REC_ARG_MPI_Info_set_key].ptr = key;
        r.args[REC_ARG_MPI_Info_set_key].len = (uint32_t)strlen(key);
        r.args[REC_ARG_MPI_Info_set_value].ptr = value;
        r.args[REC_ARG_MPI_Info_set_value].len = (uint32_t)strlen(value);
        rt_append_synthetic(&r);
    }
}

/* ---- MPI: datatypes, from the constructor calls MPI reports ---- */

static int64_t rebuild_type(rt_call *c, MPI_Datatype t, int64_t id, int depth);

/* A member type MPI_Type_get_contents returned: predefined, or rebuilt (and freed). */
static int64_t member_type(rt_call *c, MPI_Datatype t, int depth)
{
    int64_t id = predefined_id(REC_KIND_MPI_DATATYPE, (uint64_t)(uintptr_t)t);
    if (id >= 0)
        return id;
    id = rebuild_type(c, t, rt_handle_phantom(REC_KIND_MPI_DATATYPE), depth + 1);
    PMPI_Type_free(&t);
    return id;
}

/* What MPI cannot describe (a large-count type in an MPI-4.0 library, an
 * unnamed predefined type): as many bytes, with its lower bound and extent. */
static int64_t rebuild_by_size(rt_call *c, MPI_Datatype t, int64_t id)
{
    int size = 0;
    MPI_Aint lb = 0, extent = 0;
    if (PMPI_Type_size(t, &size) != MPI_SUCCESS || PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS)
        return -1;
    int64_t bytes = rt_handle_phantom(REC_KIND_MPI_DATATYPE);
    rec_record r = call_of(c, REC_ID_MPI_Type_contiguous);
    r.args[REC_ARG_MPI_Type_contiguous_count].i = size;
    r.args[REC_ARG_MPI_Type_contiguous_oldtype].i = predefined_id(REC_KIND_MPI_DATATYPE, (uint64_t)(uintptr_t)MPI_BYTE);
    r.args[REC_ARG_MPI_Type_contiguous_newtype].i = bytes;
    rt_append_synthetic(&r);
    r = call_of(c, REC_ID_MPI_Type_create_resized);
    r.args[REC_ARG_MPI_Type_create_resized_oldtype].i = bytes;
    r.args[REC_ARG_MPI_Type_create_resized_lb].i = lb;
    r.args[REC_ARG_MPI_Type_create_resized_extent].i = extent;
    r.args[REC_ARG_MPI_Type_create_resized_newtype].i = id;
    rt_append_synthetic(&r);
    return id;
}

/* The constructor of the table for a combiner, and how MPI_Type_get_contents
 * lays out its integers (ints) and addresses (aints), per the MPI standard. */
static int64_t rebuild_type(rt_call *c, MPI_Datatype t, int64_t id, int depth)
{
    int ni, na, nt, combiner;
    if (depth > MAX_TYPE_DEPTH || PMPI_Type_get_envelope(t, &ni, &na, &nt, &combiner) != MPI_SUCCESS ||
        combiner == MPI_COMBINER_NAMED)
        return rebuild_by_size(c, t, id);
    int *ints = malloc(((size_t)ni + 1) * sizeof *ints);
    MPI_Aint *aints = malloc(((size_t)na + 1) * sizeof *aints);
    MPI_Datatype *types = malloc(((size_t)nt + 1) * sizeof *types);
    int64_t *v = malloc(((size_t)ni + (size_t)na + (size_t)nt + 1) * sizeof *v);
    if (!ints || !aints || !types || !v || PMPI_Type_get_contents(t, ni, na, nt, ints, aints, types) != MPI_SUCCESS) {
        free(ints), free(aints), free(types), free(v);
        return rebuild_by_size(c, t, id);
    }
    int64_t tids[64];
    for (int k = 0; k < nt && k < 64; k++)
        tids[k] = member_type(c, types[k], depth);
    rec_record r;
    int known = 1, n = ni > 0 ? ints[0] : 0;
    switch (combiner) {
    case MPI_COMBINER_DUP:
        r = call_of(c, REC_ID_MPI_Type_dup);
        r.args[REC_ARG_MPI_Type_dup_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_dup_newtype].i = id;
        break;
    case MPI_COMBINER_CONTIGUOUS:
        r = call_of(c, REC_ID_MPI_Type_contiguous);
        r.args[REC_ARG_MPI_Type_contiguous_count].i = ints[0];
        r.args[REC_ARG_MPI_Type_contiguous_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_contiguous_newtype].i = id;
        break;
    case MPI_COMBINER_VECTOR:
        r = call_of(c, REC_ID_MPI_Type_vector);
        r.args[REC_ARG_MPI_Type_vector_count].i = ints[0];
        r.args[REC_ARG_MPI_Type_vector_blocklength].i = ints[1];
        r.args[REC_ARG_MPI_Type_vector_stride].i = ints[2];
        r.args[REC_ARG_MPI_Type_vector_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_vector_newtype].i = id;
        break;
    case MPI_COMBINER_HVECTOR:
        r = call_of(c, REC_ID_MPI_Type_create_hvector);
        r.args[REC_ARG_MPI_Type_create_hvector_count].i = ints[0];
        r.args[REC_ARG_MPI_Type_create_hvector_blocklength].i = ints[1];
        r.args[REC_ARG_MPI_Type_create_hvector_stride].i = aints[0];
        r.args[REC_ARG_MPI_Type_create_hvector_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_hvector_newtype].i = id;
        break;
    case MPI_COMBINER_INDEXED:
        r = call_of(c, REC_ID_MPI_Type_indexed);
        for (int k = 0; k < 2 * n; k++)
            v[k] = ints[1 + k];
        r.args[REC_ARG_MPI_Type_indexed_count].i = n;
        array_arg(&r, REC_ARG_MPI_Type_indexed_array_of_blocklengths, v, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_indexed_array_of_displacements, v + n, (size_t)n);
        r.args[REC_ARG_MPI_Type_indexed_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_indexed_newtype].i = id;
        break;
    case MPI_COMBINER_HINDEXED:
        r = call_of(c, REC_ID_MPI_Type_create_hindexed);
        for (int k = 0; k < n; k++)
            v[k] = ints[1 + k], v[n + k] = aints[k];
        r.args[REC_ARG_MPI_Type_create_hindexed_count].i = n;
        array_arg(&r, REC_ARG_MPI_Type_create_hindexed_array_of_blocklengths, v, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_create_hindexed_array_of_displacements, v + n, (size_t)n);
        r.args[REC_ARG_MPI_Type_create_hindexed_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_hindexed_newtype].i = id;
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        r = call_of(c, REC_ID_MPI_Type_create_indexed_block);
        for (int k = 0; k < n; k++)
            v[k] = ints[2 + k];
        r.args[REC_ARG_MPI_Type_create_indexed_block_count].i = n;
        r.args[REC_ARG_MPI_Type_create_indexed_block_blocklength].i = ints[1];
        array_arg(&r, REC_ARG_MPI_Type_create_indexed_block_array_of_displacements, v, (size_t)n);
        r.args[REC_ARG_MPI_Type_create_indexed_block_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_indexed_block_newtype].i = id;
        break;
    case MPI_COMBINER_HINDEXED_BLOCK:
        r = call_of(c, REC_ID_MPI_Type_create_hindexed_block);
        for (int k = 0; k < n; k++)
            v[k] = aints[k];
        r.args[REC_ARG_MPI_Type_create_hindexed_block_count].i = n;
        r.args[REC_ARG_MPI_Type_create_hindexed_block_blocklength].i = ints[1];
        array_arg(&r, REC_ARG_MPI_Type_create_hindexed_block_array_of_displacements, v, (size_t)n);
        r.args[REC_ARG_MPI_Type_create_hindexed_block_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_hindexed_block_newtype].i = id;
        break;
    case MPI_COMBINER_STRUCT:
        r = call_of(c, REC_ID_MPI_Type_create_struct);
        for (int k = 0; k < n && k < 64; k++)
            v[k] = ints[1 + k], v[n + k] = aints[k], v[2 * n + k] = tids[k];
        known = n <= 64;
        r.args[REC_ARG_MPI_Type_create_struct_count].i = n;
        array_arg(&r, REC_ARG_MPI_Type_create_struct_array_of_blocklengths, v, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_create_struct_array_of_displacements, v + n, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_create_struct_array_of_types, v + 2 * n, (size_t)n);
        r.args[REC_ARG_MPI_Type_create_struct_newtype].i = id;
        break;
    case MPI_COMBINER_SUBARRAY:
        r = call_of(c, REC_ID_MPI_Type_create_subarray);
        for (int k = 0; k < 3 * n; k++)
            v[k] = ints[1 + k];
        r.args[REC_ARG_MPI_Type_create_subarray_ndims].i = n;
        array_arg(&r, REC_ARG_MPI_Type_create_subarray_array_of_sizes, v, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_create_subarray_array_of_subsizes, v + n, (size_t)n);
        array_arg(&r, REC_ARG_MPI_Type_create_subarray_array_of_starts, v + 2 * n, (size_t)n);
        r.args[REC_ARG_MPI_Type_create_subarray_order].i = ints[1 + 3 * n];
        r.args[REC_ARG_MPI_Type_create_subarray_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_subarray_newtype].i = id;
        break;
    case MPI_COMBINER_RESIZED:
        r = call_of(c, REC_ID_MPI_Type_create_resized);
        r.args[REC_ARG_MPI_Type_create_resized_oldtype].i = tids[0];
        r.args[REC_ARG_MPI_Type_create_resized_lb].i = aints[0];
        r.args[REC_ARG_MPI_Type_create_resized_extent].i = aints[1];
        r.args[REC_ARG_MPI_Type_create_resized_newtype].i = id;
        break;
    default: /* darray, Fortran and MPI-1 integer forms: by size */
        known = 0;
        break;
    }
    if (known)
        rt_append_synthetic(&r);
    free(ints), free(aints), free(types), free(v);
    if (!known)
        return rebuild_by_size(c, t, id);
    r = call_of(c, REC_ID_MPI_Type_commit);
    r.args[REC_ARG_MPI_Type_commit_datatype].i = id;
    rt_append_synthetic(&r);
    return id;
}

/* ---- HDF5: dataspaces, datatypes, property lists ---- */

static void rebuild_space(rt_call *c, hid_t space, int64_t id)
{
    H5S_class_t cls = H5Sget_simple_extent_type(space);
    rec_record r;
    if (cls != H5S_SIMPLE) {
        r = call_of(c, REC_ID_H5Screate);
        r.args[REC_ARG_H5Screate_type].i = cls;
        r.ret.i = id;
        rt_append_synthetic(&r);
        return;
    }
    int rank = H5Sget_simple_extent_ndims(space);
    hsize_t dims[H5S_MAX_RANK], maxdims[H5S_MAX_RANK];
    if (rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(space, dims, maxdims) < 0)
        return;
    int64_t d[2 * H5S_MAX_RANK];
    for (int k = 0; k < rank; k++)
        d[k] = (int64_t)dims[k], d[rank + k] = (int64_t)maxdims[k];
    r = call_of(c, REC_ID_H5Screate_simple);
    r.args[REC_ARG_H5Screate_simple_rank].i = rank;
    array_arg(&r, REC_ARG_H5Screate_simple_dims, d, (size_t)rank);
    array_arg(&r, REC_ARG_H5Screate_simple_maxdims, d + rank, (size_t)rank);
    r.ret.i = id;
    rt_append_synthetic(&r);
    H5S_sel_type sel = H5Sget_select_type(space);
    hssize_t nblocks = sel == H5S_SEL_HYPERSLABS ? H5Sget_select_hyper_nblocks(space) : 0;
    if (sel == H5S_SEL_NONE || (sel == H5S_SEL_HYPERSLABS && nblocks == 0)) {
        r = call_of(c, REC_ID_H5Sselect_none);
        r.args[REC_ARG_H5Sselect_none_spaceid].i = id;
        rt_append_synthetic(&r);
    } else if (sel == H5S_SEL_HYPERSLABS && nblocks > 0 && nblocks <= MAX_SELECTION_BLOCKS) {
        hsize_t *b = malloc((size_t)nblocks * 2 * (size_t)rank * sizeof *b);
        if (b && H5Sget_select_hyper_blocklist(space, 0, (hsize_t)nblocks, b) >= 0)
            for (hssize_t k = 0; k < nblocks; k++) { /* each block: start, then its far corner */
                int64_t start[H5S_MAX_RANK], ones[H5S_MAX_RANK], block[H5S_MAX_RANK];
                for (int j = 0; j < rank; j++) {
                    start[j] = (int64_t)b[(2 * k) * rank + j];
                    block[j] = (int64_t)b[(2 * k + 1) * rank + j] - start[j] + 1;
                    ones[j] = 1;
                }
                r = call_of(c, REC_ID_H5Sselect_hyperslab);
                r.args[REC_ARG_H5Sselect_hyperslab_space_id].i = id;
                r.args[REC_ARG_H5Sselect_hyperslab_op].i = k ? H5S_SELECT_OR : H5S_SELECT_SET;
                array_arg(&r, REC_ARG_H5Sselect_hyperslab_start, start, (size_t)rank);
                array_arg(&r, REC_ARG_H5Sselect_hyperslab_stride, ones, (size_t)rank);
                array_arg(&r, REC_ARG_H5Sselect_hyperslab_count, ones, (size_t)rank);
                array_arg(&r, REC_ARG_H5Sselect_hyperslab_block, block, (size_t)rank);
                rt_append_synthetic(&r);
            }
        free(b);
    } else if (sel == H5S_SEL_POINTS) {
        hssize_t npoints = H5Sget_select_elem_npoints(space);
        hsize_t *p = npoints > 0 ? malloc((size_t)npoints * (size_t)rank * sizeof *p) : NULL;
        int64_t *coord = p ? malloc((size_t)npoints * (size_t)rank * sizeof *coord) : NULL;
        if (coord && H5Sget_select_elem_pointlist(space, 0, (hsize_t)npoints, p) >= 0) {
            for (hssize_t k = 0; k < npoints * rank; k++)
                coord[k] = (int64_t)p[k];
            r = call_of(c, REC_ID_H5Sselect_elements);
            r.args[REC_ARG_H5Sselect_elements_space_id].i = id;
            r.args[REC_ARG_H5Sselect_elements_op].i = H5S_SELECT_SET;
            r.args[REC_ARG_H5Sselect_elements_num_elem].i = npoints;
            array_arg(&r, REC_ARG_H5Sselect_elements_coord, coord, (size_t)(npoints * rank));
            rt_append_synthetic(&r);
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
    rec_record r = call_of(c, REC_ID_H5Tcopy);
    r.args[REC_ARG_H5Tcopy_type_id].i = from;
    r.ret.i = id;
    rt_append_synthetic(&r);
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
    rec_record r;
    if (H5Tget_class(type) == H5T_STRING) {
        copy_type(c, predefined_id(REC_KIND_H5_TYPE, (uint64_t)H5T_C_S1), id);
        r = call_of(c, REC_ID_H5Tset_size);
        r.args[REC_ARG_H5Tset_size_type_id].i = id;
        r.args[REC_ARG_H5Tset_size_size].i = (int64_t)size;
        rt_append_synthetic(&r);
        return;
    }
    r = call_of(c, REC_ID_H5Tcreate);
    r.args[REC_ARG_H5Tcreate_type].i = H5T_OPAQUE;
    r.args[REC_ARG_H5Tcreate_size].i = (int64_t)(size ? size : 1);
    r.ret.i = id;
    rt_append_synthetic(&r);
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
    rec_record r = call_of(c, REC_ID_H5Pcreate);
    r.args[REC_ARG_H5Pcreate_cls_id].i = cls_id;
    r.ret.i = id;
    rt_append_synthetic(&r);
}

void rt_rebuild(rt_call *c, unsigned kind, uint64_t value, int64_t id)
{
    if (!rt_can_append() || c->skip)
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
            default: /* files, groups, datasets and attributes: not yet */
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
