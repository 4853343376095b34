/* tune.h: a tuning set applied to the replay (recorder-replay --tune FILE,
 * --set LAYER.KEY=VALUE; tune/include/recorder_tune.h, docs/user/tuning.md).
 * Internal. What each override touches is the function table's
 * (functions/tuning.def); the replay
 *   - calls a data call's twin (mpiio.data), and passes a setter the set's
 *     value of the argument a property names (rp_tune_record, before the
 *     dispatch);
 *   - sets the set's hints on the MPI_Info a TUNE_INFO call passes (one it
 *     makes for MPI_INFO_NULL): rp_tune_info, called by the dispatch;
 *   - calls the setters of the set's properties the trace never called on
 *     the list a TUNE_USE call passes (one it makes for H5P_DEFAULT):
 *     rp_tune_plist, called by the dispatch;
 * and counts what it did, for the summary (rp_tune_summary). */
#ifndef RECORDER_REPLAY_TUNE_H
#define RECORDER_REPLAY_TUNE_H

#include <hdf5.h>
#include <mpi.h>

#include "replay.h"

/* The set of the command line (file: --tune's or NULL; sets: the --set
 * values); 0, or -1 with the message in err. */
int rp_tune_init(const char *file, char **sets, int nsets, rp_replay_fn *dispatch, char *err, size_t cap);
int rp_tune_active(void);
/* Before the dispatch of a record. */
void rp_tune_record(rp_ctx *x, rp_rec *r);
MPI_Info rp_tune_info(rp_ctx *x, const rp_rec *r, MPI_Info info);
hid_t rp_tune_plist(rp_ctx *x, const rp_rec *r, unsigned arg, hid_t plist);
/* Every rank's counts, summed; on rank 0 the summary's lines (malloc'ed, or NULL). */
char *rp_tune_summary(int rank);
void rp_tune_free(void);

#endif
