/* stat_group.h: one Darshan record's calls over the ranks it counts (a
 * record reduced to rank -1: every rank; else its own rank), made from its
 * counters alone: stat_group.c deals its sizes and offsets to the ranks
 * and writes each rank's script of calls; stat_plan.c nests and times
 * them and makes them the plan's events. */
#ifndef STAT_GROUP_H
#define STAT_GROUP_H

#include "import_stat.h"
#include "import_view.h"

/* One call of a rank's script. */
typedef struct sop {
    uint8_t call, kind, collective, stdio;
    uint8_t win; /* RI_WIN_* it is timed in; RI_WIN_COUNT: none */
    uint32_t session, run;
    int64_t offset, length, flags;
    int reads, writes; /* opens: what the session does */
    int64_t parent;    /* nested: the top call it is inside */
    uint64_t t0, t1;
} sop;

typedef struct sops {
    sop *v;
    size_t n, cap;
} sops;

typedef struct group {
    ri_view v;
    uint32_t nranks, rank; /* nranks 1: the record of rank `rank`; else every rank */
    int world;             /* MPI-IO over MPI_COMM_WORLD: collective calls alike on every rank */
    unsigned how;          /* RI_SIZES_* */
    int layout[2];         /* RI_LAYOUT_* of the reads and the writes */
    int64_t *sizes[2], *offsets[2]; /* dealt: rank 0's accesses, then rank 1's, ... */
    size_t *first[2];               /* per rank index: where its accesses start */
    /* per rank index: sessions, runs, the kind of the first run */
    int64_t *sessions, *runs;
    int first_kind;
} group;

/* Solves the group's sizes, deals them, lays out their offsets (to the
 * counters of `like` for offsets when given: an MPI-IO record takes its
 * file's POSIX record's). 0, or -1 out of memory. */
int ri_group_make(group *g, const ri_view *like);
void ri_group_free(group *g);
/* Rank index i's script: stats, then each session's open, its runs' accesses
 * (seeks before some, syncs and flushes after the write runs), its close. */
int ri_group_script(const group *g, uint32_t i, sops *out);

int ri_sops_push(sops *s, const sop *o);

#endif
