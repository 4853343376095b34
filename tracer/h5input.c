/* h5input.c: the structure of the HDF5 files a run reads but did not create
 * (its inputs), captured once for all the run's processes: the process that
 * creates the skeleton file (O_EXCL) in the trace directory first walks the
 * file (h5skel/capture.c, with a read-only open of its own) and writes it;
 * the others see the file there and go on. Called from the wrappers of
 * functions with the role OPENS_H5_FILE, after the real call succeeded and
 * while tracing is suspended for this thread, so none of the tracer's own
 * calls is recorded. On any failure nothing is recorded; the application's
 * return value, errno and HDF5 error stack stay as the real call left them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "meta.h"
#include "recorder_h5skel.h"
#include "rt.h"
#include "runtime.h"


/* A file changed this long before tracing started, or later, was made (or
 * changed) in the run: file systems stamp times at a clock tick's precision. */
#define MADE_IN_RUN_MARGIN_NS 20000000ull

static int warned;

void rt_h5_input_opened(const char *path)
{
    const char *dir = rt_trace_dir();
    if (!path || !dir)
        return;
    struct stat st;
    if (rt_real.stat(path, &st) != 0)
        return;
    uint64_t changed = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
    if (changed + MADE_IN_RUN_MARGIN_NS >= rt_start_wall_ns())
        return; /* made in this run: the trace has its making */
    char name[64], file[PATH_MAX + 64];
    h5skel_file_name(path, name, sizeof name);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    int fd = rt_real.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return; /* another process has it (or the directory is gone) */
    rt_real.close(fd);
    rec_error err;
    h5skel *s = NULL;
    size_t len = 0;
    uint8_t *bytes = NULL;
    rec_io io = {rt_real.open, rt_real.write, rt_real.close};
    int rc = h5skel_capture(path, &s, err.msg, sizeof err.msg);
    if (rc == 0 && !(bytes = h5skel_encode(s, &len))) {
        snprintf(err.msg, sizeof err.msg, "%s: out of memory", path);
        rc = -1;
    }
    if (rc == 0)
        rc = rec_write_file(&io, file, bytes, len, &err);
    if (rc != 0) {
        rt_real.unlink(file);
        if (!warned++)
            rt_warn("recorder: cannot record the structure of the HDF5 input %s: replays and kernels will "
                    "skip it",
                    err.msg);
    }
    free(bytes);
    h5skel_free(s);
}
