/* import_build.h: the state import_plan.c builds a plan in, and what
 * import_sessions.c, which places each file's calls, asks of it. */
#ifndef IMPORT_BUILD_H
#define IMPORT_BUILD_H

#include "import.h"

/* The calls a plan holds at most, every rank's; of them made from
 * counters alone (each costs its sizes, offsets and script first). */
#define RI_MAX_CALLS ((uint64_t)1 << 24)
#define RI_MAX_STAT_CALLS ((uint64_t)1 << 22)

typedef struct ri_access {
    uint32_t rank;
    uint8_t layer, write;
    int64_t offset, length;
    uint64_t tstart, tend;
    uint8_t collective; /* MPI-IO: an _all call (import_collective.c) */
} ri_access;

typedef struct file_state {
    uint64_t id;
    const char *path;
    ri_access *acc; /* every access of every rank, by rank then start */
    size_t nacc, cap;
    int has_mpiio;
} file_state;

typedef struct records {
    const ri_darshan_record **v; /* by id, then rank */
    size_t n;
} records;

/* Counter indices the plan reads (ri_darshan_counter_index). */
typedef struct counters {
    int opens, filenos, dups, mode, open_start, close_end, seeks, fsyncs, fdsyncs; /* POSIX */
    int indep_opens, coll_opens, mpi_mode, mpi_open_start, mpi_close_end, mpi_syncs;
    int indep_reads, indep_writes, coll_reads, coll_writes, split_reads, split_writes, nb_reads, nb_writes;
} counters;

typedef struct builder {
    const ri_darshan_log *log;
    double res;
    ri_plan *p;
    rec_error *err;
    file_state *files; /* by id */
    size_t nfiles;
    records posix, mpiio;
    counters c;
    int64_t *next_fd, *next_mpifile; /* per rank: the next id an open makes */
    uint64_t seq;
    ri_access *scratch;
    size_t scratch_cap;
    records stdio;            /* STDIO's records, by id then rank */
    int64_t *next_stream;     /* per rank: the next FILE* id an fopen makes */
    int stat_only;            /* the log has no DXT: every file from its counters */
    uint64_t stat_calls;      /* calls the counters asked for so far */
} builder;

int ri_fail(builder *b, const char *what);
uint64_t ri_ticks(const builder *b, double seconds);
/* The record of the file (id) of this rank (-1: the reduced one), or NULL. */
const ri_darshan_record *ri_find_record(const records *r, uint64_t id, int64_t rank);
/* The records of the file of ranks of their own, in rank order: how many, from *first. */
size_t ri_own_records(const records *r, uint64_t id, const ri_darshan_record ***first);
/* A counter of a record; -1 for no record or no such counter. */
int64_t ri_counter(const ri_darshan_record *r, int index);
double ri_fcounter(const ri_darshan_record *r, int index);
/* A new call of the rank, zeroed but for its order, file, call and layer. */
ri_event *ri_add_event(builder *b, uint32_t rank, const file_state *f, ri_call call, int layer);
/* What an open asks for a session that reads, writes or both: an MPI
 * amode, open(2) flags, and the flags of an amode (import_sessions.c). */
int64_t ri_amode_of(int reads, int writes);
int64_t ri_oflags_of(int reads, int writes);
int64_t ri_oflags_of_amode(int64_t amode);
/* Marks which of the file's MPI-IO accesses were collective, over
 * MPI_COMM_WORLD (world) or each rank's MPI_COMM_SELF (import_collective.c). */
int ri_mark_collective(builder *b, file_state *f, int world);
/* A module's records by id, then rank (ri_by_id_rank: of two record
 * pointers); -1 out of memory. */
int ri_index_records(const ri_darshan_module *m, records *out);
int ri_by_id_rank(const void *x, const void *y);
/* The file of a record id, or NULL (import_plan.c). */
file_state *ri_find_file(builder *b, uint64_t id);
/* Places the HDF5 calls of every file Darshan's H5F module kept, the
 * file's calls nested beneath them (import_upper.c). */
int ri_plan_upper(builder *b);
/* The same of the PnetCDF calls of every file Darshan's PNETCDF_FILE module kept (import_upper_pnc.c). */
int ri_plan_upper_pnc(builder *b);
/* The seeks the MPI library made below an MPI-IO file's calls (its POSIX
 * record's POSIX_SEEKS): Darshan counts no MPI-IO call of them; ROMIO makes
 * them for MPI_File_get_size: to the end and back (two), or, after an
 * access that left it no file position (collective buffering), to the end
 * alone. So each rank's are made MPI_File_get_size calls holding them, two
 * a call (an odd one alone in the last), which a kernel's MPI library
 * answers alike: before the close of the rank's last session when it
 * accessed the file, else after its first open (import_sessions.c,
 * stat_plan.c). ri_get_size_at makes
 * an MPI_File_get_size at tick t (*parent: what its seeks name as their
 * parent); ri_seek_in_get_size makes k an lseek of fd inside it. */
int ri_get_size_at(builder *b, uint32_t rank, const file_state *f, uint64_t t, int64_t mpifile, uint64_t *parent);
void ri_seek_in_get_size(ri_event *k, uint64_t t, uint64_t parent, int to_end, int64_t fd);
/* Places the file's calls on every rank that made some (import_sessions.c). */
int ri_plan_file(builder *b, file_state *f);

#endif
