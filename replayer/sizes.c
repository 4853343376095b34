/* sizes.c: how big a replayed call's data is, computed at replay time from
 * the real handles, and the few argument values hooks.h asks for. HDF5 is
 * queried through libhdf5's own symbols (rp_h5), never through names a
 * preloaded tracer interposes, so these queries never show in a trace. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"

rp_h5_fns rp_h5;

int rp_h5_init(char *err, size_t cap)
{
    Dl_info info;
    /* H5open is never wrapped, so its address is libhdf5's own. */
    if (!dladdr((void *)H5open, &info) || !info.dli_fname) {
        snprintf(err, cap, "cannot find the HDF5 library");
        return -1;
    }
    void *lib = dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (!lib) {
        snprintf(err, cap, "%s: %s", info.dli_fname, dlerror());
        return -1;
    }
#define LOAD(field, name)                                                                                    \
    if (!(*(void **)&rp_h5.field = dlsym(lib, #name))) {                                                     \
        snprintf(err, cap, "%s: no symbol %s", info.dli_fname, #name);                                       \
        return -1;                                                                                           \
    }
    LOAD(Iis_valid, H5Iis_valid)
    LOAD(Sget_select_npoints, H5Sget_select_npoints)
    LOAD(Sget_simple_extent_npoints, H5Sget_simple_extent_npoints)
    LOAD(Sget_simple_extent_ndims, H5Sget_simple_extent_ndims)
    LOAD(Sclose, H5Sclose)
    LOAD(Dget_space, H5Dget_space)
    LOAD(Dget_type, H5Dget_type)
    LOAD(Dget_create_plist, H5Dget_create_plist)
    LOAD(Aget_space, H5Aget_space)
    LOAD(Tget_size, H5Tget_size)
    LOAD(Tget_class, H5Tget_class)
    LOAD(Tis_variable_str, H5Tis_variable_str)
    LOAD(Tclose, H5Tclose)
    LOAD(Pget_chunk, H5Pget_chunk)
    LOAD(Pclose, H5Pclose)
    LOAD(Pget_mdc_config, H5Pget_mdc_config)
    LOAD(Fget_mdc_config, H5Fget_mdc_config)
#undef LOAD
    return 0;
}

size_t rp_mpi_span(MPI_Datatype t)
{
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    if (t == MPI_DATATYPE_NULL || PMPI_Type_get_extent(t, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(t, &true_lb, &true_extent) != MPI_SUCCESS)
        return 1;
    MPI_Aint span = extent > true_lb + true_extent ? extent : true_lb + true_extent;
    return span > 0 ? (size_t)span : 1;
}

void rp_mpi_as_bytes(rp_ctx *x, const rp_rec *r, size_t per_count, int *count, MPI_Datatype *type)
{
    MPI_Aint true_lb = 0, true_extent = 0;
    int size = 0;
    if (*count < 0 || *type == MPI_DATATYPE_NULL || *type == MPI_BYTE ||
        PMPI_Type_get_true_extent(*type, &true_lb, &true_extent) != MPI_SUCCESS ||
        PMPI_Type_size(*type, &size) != MPI_SUCCESS || size < 0)
        return;
    size_t span = rp_mpi_span(*type), elems = (size_t)*count * per_count;
    if (elems < 1)
        elems = 1;
    int too_big = span > (RP_BUFFER_LIMIT - 64) / elems, below = *count > 0 && true_lb < 0;
    if (!too_big && !below)
        return; /* the buffer can be given */
    long long bytes = (long long)size * *count;
    if (bytes > INT_MAX || (size_t)bytes > (RP_BUFFER_LIMIT - 64) / (per_count ? per_count : 1))
        return; /* the data does not fit either: skipped */
    x->stats.as_bytes++;
    if (x->opt.verbose) {
        const rec_func_desc *f = rec_function_by_id(r->func);
        size_t spans;
        if (__builtin_mul_overflow(span, (size_t)(*count > 1 ? *count : 1), &spans))
            spans = SIZE_MAX;
        char why[96];
        if (too_big)
            snprintf(why, sizeof why, "spans %zu bytes", spans);
        else
            snprintf(why, sizeof why, "reaches %lld bytes below its buffer", -(long long)true_lb);
        rp_say(2,
               "recorder-replay: rank %d: record %u: %s: memory datatype %s for %lld bytes of data: issued "
               "as %lld MPI_BYTE\n",
               x->rank, r->seq, f ? f->name : "?", why, bytes, bytes);
    }
    *count = (int)bytes;
    *type = MPI_BYTE;
}

static hssize_t extent_points(hid_t space)
{
    return space > 0 ? rp_h5.Sget_simple_extent_npoints(space) : -1;
}

size_t rp_h5d_span(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space)
{
    hssize_t n = -1;
    size_t size = 0;
    H5E_BEGIN_TRY
    {
        if (mem_space != H5S_ALL)
            n = extent_points(mem_space);
        else if (file_space != H5S_ALL)
            n = extent_points(file_space);
        else if (dset > 0) {
            hid_t space = rp_h5.Dget_space(dset);
            n = extent_points(space);
            if (space >= 0)
                rp_h5.Sclose(space);
        }
        size = mem_type > 0 ? rp_h5.Tget_size(mem_type) : 0;
    }
    H5E_END_TRY
    return n > 0 && size ? (size_t)n * size : 1;
}

size_t rp_h5a_span(hid_t attr, hid_t type)
{
    hssize_t n = -1;
    size_t size = 0;
    H5E_BEGIN_TRY
    {
        hid_t space = attr > 0 ? rp_h5.Aget_space(attr) : -1;
        n = extent_points(space);
        if (space >= 0)
            rp_h5.Sclose(space);
        size = type > 0 ? rp_h5.Tget_size(type) : 0;
    }
    H5E_END_TRY
    return n > 0 && size ? (size_t)n * size : 1;
}

/* A chunk's bytes (twice over: a filtered chunk may come out larger). */
size_t rp_h5_chunk_bytes(hid_t dset)
{
    size_t bytes = 1;
    H5E_BEGIN_TRY
    {
        hid_t dcpl = rp_h5.Dget_create_plist(dset), type = rp_h5.Dget_type(dset);
        hsize_t dims[32];
        int n = dcpl >= 0 ? rp_h5.Pget_chunk(dcpl, 32, dims) : -1;
        size_t size = type >= 0 ? rp_h5.Tget_size(type) : 0;
        if (n > 0 && size) {
            bytes = size;
            for (int k = 0; k < n; k++)
                bytes *= dims[k];
        }
        if (dcpl >= 0)
            rp_h5.Pclose(dcpl);
        if (type >= 0)
            rp_h5.Tclose(type);
    }
    H5E_END_TRY
    return 2 * bytes + 4096;
}

/* Variable-length strings are pointers in memory: each element of data
 * written points to a valid string; variable-length sequences are empty. */
void *rp_h5_buffer(rp_ctx *x, int in, size_t bytes, hid_t type)
{
    unsigned char *buf = rp_scratch(x, in, bytes);
    if (!buf || !in || type <= 0)
        return buf;
    static char text[] = "recorder-replay";
    htri_t vstr = -1;
    H5T_class_t cls = H5T_NO_CLASS;
    H5E_BEGIN_TRY
    {
        vstr = rp_h5.Tis_variable_str(type);
        cls = rp_h5.Tget_class(type);
    }
    H5E_END_TRY
    if (vstr > 0) {
        char **p = (char **)buf;
        for (size_t k = 0; k < bytes / sizeof *p; k++)
            p[k] = text;
        x->wfilled = 0; /* the pattern is gone */
        x->wnl_set = 0;
    } else if (cls == H5T_VLEN) {
        memset(buf, 0, bytes);
        x->wfilled = 0;
        x->wnl_set = 0;
    }
    return buf;
}

/* rp_nc_vlens' values are hvl_t, as HDF5 lays them out. */
_Static_assert(sizeof(rp_nc_vlen) == sizeof(hvl_t) && offsetof(rp_nc_vlen, p) == offsetof(hvl_t, p),
               "rp_nc_vlen is no hvl_t");

void *rp_h5_vlens(rp_ctx *x, void *buf, const rp_value *strings, const rp_value *seqs)
{
    void *made = strings->len ? (void *)rp_nc_strings(x, strings)
                 : seqs->len  ? (void *)rp_nc_vlens(x, seqs)
                              : NULL;
    return made ? made : buf;
}

void rp_h5_reclaim(hid_t dset, hid_t type, hid_t mem_space, hid_t file_space, void *buf)
{
    if (!buf || type <= 0)
        return;
    H5E_BEGIN_TRY
    {
        if (rp_h5.Tis_variable_str(type) > 0 || rp_h5.Tget_class(type) == H5T_VLEN ||
            H5Tdetect_class(type, H5T_VLEN) > 0) {
            int own = mem_space == H5S_ALL && file_space == H5S_ALL;
            hid_t space = mem_space != H5S_ALL ? mem_space : file_space != H5S_ALL ? file_space : rp_h5.Dget_space(dset);
            if (space >= 0)
                H5Dvlen_reclaim(type, space, H5P_DEFAULT, buf);
            if (own && space >= 0)
                rp_h5.Sclose(space);
        }
    }
    H5E_END_TRY
}

/* Enum members need distinct values: 0, 1, 2 ... in the base type's size. */
void *rp_h5_enum_value(rp_ctx *x, hid_t type)
{
    size_t size = 0;
    H5E_BEGIN_TRY
    {
        size = rp_h5.Tget_size(type);
    }
    H5E_END_TRY
    unsigned char *v = rp_alloc(x, size > 8 ? size : 8);
    long long n = x->enum_counter++;
    memcpy(v, &n, size < sizeof n ? size : sizeof n);
    return v;
}

void *rp_h5_mdc_config(rp_ctx *x, hid_t obj, int is_file)
{
    H5AC_cache_config_t *c = rp_alloc(x, sizeof *c);
    c->version = H5AC__CURR_CACHE_CONFIG_VERSION;
    if (obj >= 0) {
        H5E_BEGIN_TRY
        {
            if (is_file)
                rp_h5.Fget_mdc_config(obj, c);
            else
                rp_h5.Pget_mdc_config(obj, c);
        }
        H5E_END_TRY
    }
    return c;
}

/* fcntl's third argument: the tracer records integers only. Lock requests
 * (their range and type are not recorded) become a query or an unlock of
 * the whole file, so the replay never holds a lock the trace cannot say it
 * released; other pointer arguments point to zeroed storage. */
long rp_fcntl_arg(rp_ctx *x, int cmd, long recorded)
{
    switch (cmd) {
    case F_DUPFD:
    case F_DUPFD_CLOEXEC:
    case F_SETFD:
    case F_SETFL:
    case F_SETOWN:
    case F_SETSIG:
    case F_SETLEASE:
    case F_NOTIFY:
    case F_SETPIPE_SZ:
        return recorded;
    case F_GETLK:
    case F_SETLK:
    case F_SETLKW:
    case F_OFD_GETLK:
    case F_OFD_SETLK:
    case F_OFD_SETLKW: {
        struct flock *lock = rp_alloc(x, sizeof *lock);
        lock->l_type = cmd == F_GETLK || cmd == F_OFD_GETLK ? F_WRLCK : F_UNLCK;
        lock->l_whence = SEEK_SET;
        return (long)(uintptr_t)lock;
    }
    case F_GETOWN_EX:
    case F_SETOWN_EX:
    case F_GET_RW_HINT:
    case F_SET_RW_HINT:
    case F_GET_FILE_RW_HINT:
    case F_SET_FILE_RW_HINT:
        return (long)(uintptr_t)rp_alloc(x, 256);
    default:
        return 0;
    }
}
