/* ncheader.c: what a netCDF classic file held when a run opened it. The
 * header of a CDF-1, -2 or -5 file (dimensions, variables, attributes, the
 * format variant) is a block of bytes at its start: kept in the opening
 * call's record (NC_HEADER), it lets kernels and replays write the file
 * back before the run, so the library opens and reads it as it did.
 *
 * Each rank reads the header its own open found, through the C library's
 * functions (rt_real), never the wrappers; errno stays the application's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pnetcdf.h>
#include <sys/stat.h>

#include "late.h"
#include "rt.h"
#include "runtime.h"

int64_t rt_nc_file_size(const char *path)
{
    struct stat st;
    int saved = errno;
    rt_real_resolve();
    int64_t size = path && rt_real.stat(path, &st) == 0 ? (int64_t)st.st_size : -1;
    errno = saved;
    return size;
}

void rt_nc_header(rt_call *c, unsigned field, int ncid, const char *path)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    MPI_Offset size = 0;
    if (ncid < 0 || !path || REC_NC(inq_header_size)(ncid, &size) != NC_NOERR || size <= 0 ||
        size > (MPI_Offset)RT_MAX_ENCODED)
        return;
    unsigned char *bytes = (unsigned char *)rt_array(c, field, ((size_t)size + 7) / 8);
    if (!bytes)
        return;
    int saved = errno;
    rt_real_resolve();
    int fd = rt_real.open(path, O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    while (fd >= 0 && got < (size_t)size) {
        ssize_t n = rt_real.read(fd, bytes + got, (size_t)size - got);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            break;
        got += n > 0 ? (size_t)n : 0;
    }
    if (fd >= 0)
        rt_real.close(fd);
    if (got == (size_t)size) {
        v->ptr = bytes;
        v->len = (uint32_t)size;
    }
    errno = saved;
}
