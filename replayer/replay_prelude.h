/* replay_prelude.h: what the generated dispatch (replay_*.c) includes.
 * Internal. The length expressions of the function table name a few helpers
 * (functions/table_helpers.h); they run here on the replayer's private
 * paths (PMPI_, libhdf5's own symbols), so evaluating them is never traced. */
#ifndef RECORDER_REPLAY_PRELUDE_H
#define RECORDER_REPLAY_PRELUDE_H

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <wchar.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

#include <hdf5.h>
#include <mpi.h>
#include <pthread.h>
#include "rec_mpi_versions.h"

#include "replay.h"
#include "threads.h"
#include "hooks.h"
#include "tune.h"

static inline long rp_maxz(long a, long b)
{
    return a > b ? a : b;
}

/* The helpers the table's length expressions name, on the replayer's
 * private paths to HDF5. */
#define REC_H5(fn) rp_h5.fn
#include "table_helpers.h"
#include "scan.c.tmpl" /* scan_format(), SCAN_TO: the replay of a scan */

#endif
