/* import.h: what the two halves of recorder-import's trace of a Darshan
 * log share: the plan (import_plan.c: each rank's calls, DXT's seen ones and
 * the inferred ones placed around them) and its writing (import_write.c:
 * the calls as the function table's records). */
#ifndef IMPORT_H
#define IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_import.h"

typedef enum ri_call {
    RI_CALL_START, /* MPI_Init */
    RI_CALL_END,   /* MPI_Finalize */
    RI_CALL_OPEN,
    RI_CALL_CLOSE,
    RI_CALL_READ,
    RI_CALL_WRITE
} ri_call;

/* One call of one rank. */
typedef struct ri_event {
    uint64_t tstart, tend; /* ticks since the job started */
    uint64_t seq;          /* order of making: ties keep it */
    uint32_t file;         /* index into ri_plan.paths */
    uint8_t call;          /* ri_call */
    uint8_t layer;         /* REC_LAYER_POSIX or REC_LAYER_MPIIO */
    uint8_t depth;         /* 1: inside the MPI-IO call of the same file */
    uint8_t collective;    /* MPI-IO: the _all twin; an open over MPI_COMM_WORLD */
    uint8_t inferred;
    int64_t handle; /* the fd or MPI_File id the open made */
    int64_t offset, length;
    int64_t flags, mode; /* opens: open(2) flags or MPI amode, and permission bits */
} ri_event;

typedef struct ri_events {
    ri_event *v;
    size_t n, cap;
} ri_events;

typedef struct ri_plan {
    uint32_t nranks;
    size_t nfiles;
    const char **paths; /* the log's names, one a file */
    ri_events *ranks;   /* nranks of them, each sorted as a tracer appends: by end, inner calls first */
    uint64_t posix_segments, mpiio_segments, inferred;
    uint64_t world_files, self_files, posix_files, skipped_files;
} ri_plan;

int ri_plan_build(const ri_darshan_log *log, double resolution, ri_plan *p, rec_error *err);
void ri_plan_free(ri_plan *p);
/* Writes the plan as the trace DIR (which must exist, empty of traces). */
int ri_plan_write(const ri_plan *p, const ri_darshan_log *log, const char *dir, double resolution,
                  ri_import_summary *sum, rec_error *err);

#endif
