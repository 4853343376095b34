/* h5input.c: the structure of the HDF5 files a run reads but did not create
 * (its inputs), captured once for all the run's processes: the process that
 * creates the skeleton file (O_EXCL) in the trace directory first walks the
 * file (h5skel/capture.c, with a read-only open of its own) and writes it;
 * the others see the file there and go on. Called from the wrappers of
 * functions with the role OPENS_H5_FILE right before the real call, while
 * tracing is suspended for this thread, so none of the tracer's own calls is
 * recorded: once HDF5 holds the file open for writing, it refuses a second
 * open in the same process (its lock, or its shared file with other lock
 * settings), and it has written to it. On any failure nothing is recorded;
 * the application's return value, errno and HDF5 error stack stay as the
 * real call leaves them. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_bytes.h"
#include "recorder_h5skel.h"
#include "rt.h"
#include "runtime.h"


static int warned;

static rec_error failure; /* why the last capture failed */

int rt_h5_input_opening(const char *path)
{
    struct stat st;
    if (!path || rt_real.stat(path, &st) != 0)
        return 0; /* none yet: it will be made in this run */
    /* File systems stamp times at the coarse clock's tick: a file stamped
     * in the tick tracing started in may have been made by this run, whose
     * trace then has its making. (A margin of 20 ms, before, took the input
     * that `./h5_write; ./h5_read` hands on for one made in the run.) */
    uint64_t changed = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
    if (changed >= rt_start_tick_ns())
        return 0;
    const char *dir = rt_trace_dir_now();
    if (!dir)
        return 0;
    char name[64], file[PATH_MAX + 64];
    h5skel_file_name(path, name, sizeof name);
    snprintf(file, sizeof file, "%s/%s", dir, name);
    int fd = rt_real.open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return 0; /* another process has it (or the directory is gone) */
    rt_real.close(fd);
    h5skel *s = NULL;
    size_t len = 0;
    uint8_t *bytes = NULL;
    rec_io io = {rt_real.open, rt_real.write, rt_real.close};
    int rc = h5skel_capture(path, &s, failure.msg, sizeof failure.msg);
    if (rc == 0 && !(bytes = h5skel_encode(s, &len))) {
        snprintf(failure.msg, sizeof failure.msg, "%s: out of memory", path);
        rc = -1;
    }
    if (rc == 0)
        rc = rec_write_file(&io, file, bytes, len, &failure);
    if (rc != 0)
        rt_real.unlink(file);
    free(bytes);
    h5skel_free(s);
    return rc == 0 ? 0 : -1;
}

void rt_h5_input_opened(int state)
{
    /* only now: a file the application cannot open either is no input */
    if (state < 0 && !warned++)
        rt_warn("recorder: cannot record the structure of the HDF5 input %s: replays and kernels will skip it",
                failure.msg);
}
