/* replay_prelude.h: what the generated dispatch (replay_*.c) includes.
 * Internal. The length expressions of the function table name a few helpers
 * (comm_size, space_ndims, dset_ndims, rt_mpi_bytes, rt_h5d_bytes,
 * rt_h5a_bytes); they are defined here on the replayer's private paths
 * (PMPI_, libhdf5's own symbols), so evaluating them is never traced. */
#ifndef RECORDER_REPLAY_PRELUDE_H
#define RECORDER_REPLAY_PRELUDE_H

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

#include <hdf5.h>
#include <mpi.h>

#include "replay.h"
#include "hooks.h"

static inline long rp_maxz(long a, long b)
{
    return a > b ? a : b;
}

static inline int comm_size(MPI_Comm comm)
{
    int n = 0;
    if (comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &n) != MPI_SUCCESS)
        return 0;
    return n;
}

static inline int space_ndims(hid_t space)
{
    if (space <= 0 || rp_h5.Iis_valid(space) <= 0)
        return 0;
    int n = rp_h5.Sget_simple_extent_ndims(space);
    return n < 0 ? 0 : n;
}

static inline int dset_ndims(hid_t dset)
{
    if (dset <= 0 || rp_h5.Iis_valid(dset) <= 0)
        return 0;
    hid_t space = rp_h5.Dget_space(dset);
    if (space < 0)
        return 0;
    int n = rp_h5.Sget_simple_extent_ndims(space);
    rp_h5.Sclose(space);
    return n < 0 ? 0 : n;
}

static inline MPI_Count rt_mpi_bytes(int count, MPI_Datatype type)
{
    int size = 0;
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1;
    return (MPI_Count)count * size;
}

static inline hssize_t rp_npoints(hid_t space)
{
    return space > 0 ? rp_h5.Sget_select_npoints(space) : -1;
}

/* The same counts the tracer records: selected elements x the type's size. */
static inline hssize_t rt_h5d_bytes(hid_t dset, hid_t mem_type, hid_t mem_space, hid_t file_space)
{
    hssize_t n = -1;
    size_t size = 0;
    if (mem_type <= 0)
        return -1;
    H5E_BEGIN_TRY
    {
        n = mem_space != H5S_ALL ? rp_npoints(mem_space) : -1;
        if (n < 0 && file_space != H5S_ALL)
            n = rp_npoints(file_space);
        if (n < 0 && dset > 0) {
            hid_t space = rp_h5.Dget_space(dset);
            n = rp_npoints(space);
            if (space >= 0)
                rp_h5.Sclose(space);
        }
        size = rp_h5.Tget_size(mem_type);
    }
    H5E_END_TRY
    return n < 0 || !size ? -1 : n * (hssize_t)size;
}

static inline hssize_t rt_h5a_bytes(hid_t attr, hid_t type)
{
    hssize_t n = -1;
    size_t size = 0;
    if (attr <= 0 || type <= 0)
        return -1;
    H5E_BEGIN_TRY
    {
        hid_t space = rp_h5.Aget_space(attr);
        n = rp_npoints(space);
        if (space >= 0)
            rp_h5.Sclose(space);
        size = rp_h5.Tget_size(type);
    }
    H5E_END_TRY
    return n < 0 || !size ? -1 : n * (hssize_t)size;
}

/* H5Literate's callback: the iteration is replayed, what the application's
 * callback did is replayed from its own records. */
static inline herr_t rp_h5l_noop(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    (void)group;
    (void)name;
    (void)info;
    (void)data;
    return 0;
}

#endif
