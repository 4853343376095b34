/* aggregate.c: writing the trace as a few aggregate files instead of three
 * files per rank (RECORDER_AGGREGATE; docs/reference/format.md, section 14).
 *
 * At 100,000 ranks a file per rank is 100,000 creates at once on the parallel
 * file system, at MPI_Finalize. Here each rank writes its files into a stage
 * directory of its own (node-local: TMPDIR, RECORDER_STAGE_DIR), and before
 * MPI finalizes, the ranks of a group (a node, or a block of ranks) copy them
 * into one file through MPI-IO, each at the offset its group leader gave it:
 * one create per group. The files' bytes are kept verbatim, so a reader reads
 * a member as it reads the file. Everything here goes through PMPI and the
 * real C library, so none of it shows in the trace; a failure anywhere makes
 * every rank fall back to a file per rank, never to a lost trace. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt.h"
#include "runtime.h"


/* Copying goes this many bytes at a time, through one buffer (untouched,
 * it costs no memory). */
enum { COPY_CHUNK = 1 << 20 };
static char copy_buf[COPY_CHUNK];

static void part_path(char *out, size_t cap, const char *dir, uint32_t rank, unsigned part)
{
    snprintf(out, cap, "%s/%u.%s", dir, rank, rec_part_suffix(part));
}

int rt_aggregate_begin(const rt_config *c, int rank, int size, char *stage, size_t cap)
{
    int mode = c->aggregate == RT_AGGREGATE_AUTO ? (size >= RT_AGGREGATE_AUTO_RANKS ? RT_AGGREGATE_NODE : 0)
                                                  : c->aggregate;
    if (mode == RT_AGGREGATE_OFF)
        return 0;
    /* The pid keeps two jobs on one node apart, the rank two ranks of a job. */
    snprintf(stage, cap, "%s/recorder-stage-%ld-%d", c->stage_dir, (long)getpid(), rank);
    int ok = rt_real.mkdir(stage, 0700) == 0 || errno == EEXIST, why = errno;
    /* One warning, from the first rank that failed, not one per rank. */
    int mine[2] = {ok ? INT_MAX : rank, !ok}, first[2] = {0, 0};
    PMPI_Allreduce(&mine[0], &first[0], 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    PMPI_Allreduce(&mine[1], &first[1], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (first[0] == rank)
        rt_warn("recorder: %s: cannot create the stage directory: %s (%d rank%s failed): a file per rank instead",
                stage, strerror(why), first[1], first[1] > 1 ? "s" : "");
    if (first[1] && ok)
        rt_real.rmdir(stage);
    return first[1] == 0;
}

static uint64_t file_size(const char *path)
{
    struct stat st;
    return rt_real.stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* Copies the staged file into the aggregate at `at`; 0 or -1. */
static int copy_in(MPI_File fh, const char *path, uint64_t at, uint64_t length, char *buf)
{
    int fd = rt_real.open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t done = 0;
    while (done < length) {
        size_t want = length - done < COPY_CHUNK ? (size_t)(length - done) : COPY_CHUNK;
        ssize_t got = rt_real.read(fd, buf, want);
        if (got <= 0)
            break;
        MPI_Status st;
        if (PMPI_File_write_at(fh, (MPI_Offset)(at + done), buf, (int)got, MPI_BYTE, &st) != MPI_SUCCESS)
            break;
        done += (uint64_t)got;
    }
    rt_real.close(fd);
    return done == length ? 0 : -1;
}

/* Copies a staged file to DIR as the rank's own; 0 or -1. */
static int copy_out(const char *from, const char *to, char *buf)
{
    int in = rt_real.open(from, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return errno == ENOENT ? 0 : -1;
    int out = rt_real.open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc = out < 0 ? -1 : 0;
    for (ssize_t got; rc == 0 && (got = rt_real.read(in, buf, COPY_CHUNK)) != 0;) {
        if (got < 0)
            rc = -1;
        for (ssize_t put = 0; rc == 0 && put < got;) {
            ssize_t w = rt_real.write(out, buf + put, (size_t)(got - put));
            if (w <= 0)
                rc = -1;
            else
                put += w;
        }
    }
    if (out >= 0 && rt_real.close(out) != 0)
        rc = -1;
    rt_real.close(in);
    return rc;
}

static void remove_stage(const char *stage, uint32_t rank)
{
    char path[PATH_MAX + 32];
    for (unsigned k = 0; k < REC_PART_COUNT; k++) {
        part_path(path, sizeof path, stage, rank, k);
        rt_real.unlink(path);
    }
    rt_real.rmdir(stage);
}

void rt_aggregate_salvage(const char *stage, const char *dir, uint32_t rank)
{
    char from[PATH_MAX + 32], to[PATH_MAX + 32];
    int rc = 0;
    for (unsigned k = 0; rc == 0 && k < REC_PART_COUNT; k++) {
        part_path(from, sizeof from, stage, rank, k);
        part_path(to, sizeof to, dir, rank, k);
        rc = copy_out(from, to, copy_buf);
    }
    if (rc == 0)
        remove_stage(stage, rank);
    else
        rt_warn("recorder: %s: cannot move rank %u's files into %s: %s; they stay there", stage, rank, dir,
                strerror(errno));
}

/* The group of ranks that share an aggregate, and its index. */
static MPI_Comm group_of(const rt_config *c, int rank, int size)
{
    MPI_Comm g = MPI_COMM_NULL;
    int mode = c->aggregate == RT_AGGREGATE_AUTO ? RT_AGGREGATE_NODE : c->aggregate;
    if (mode == RT_AGGREGATE_NODE)
        PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &g);
    else /* K blocks of contiguous ranks, as even as they divide */
        PMPI_Comm_split(MPI_COMM_WORLD, (int)((int64_t)rank * (mode < size ? mode : size) / size), rank, &g);
    return g;
}

/* One group's aggregate: 0, or -1 when this rank's part failed. */
static int write_group(MPI_Comm g, const char *stage, const char *dir, uint32_t rank, int index, int count,
                       char *name, size_t name_cap)
{
    int grank, gsize;
    PMPI_Comm_rank(g, &grank);
    PMPI_Comm_size(g, &gsize);
    /* rank, then the length of each part */
    uint64_t mine[1 + REC_PART_COUNT] = {rank}, offsets[REC_PART_COUNT] = {0};
    char path[PATH_MAX + 32];
    for (unsigned k = 0; k < REC_PART_COUNT; k++) {
        part_path(path, sizeof path, stage, rank, k);
        mine[1 + k] = file_size(path);
    }
    uint64_t *all = grank == 0 ? calloc((size_t)gsize, sizeof mine) : NULL;
    uint64_t *all_offsets = grank == 0 ? calloc((size_t)gsize, sizeof offsets) : NULL;
    rec_aggregate_member *members = grank == 0 ? calloc((size_t)gsize, sizeof *members) : NULL;
    size_t header_size = rec_aggregate_header_size((uint32_t)gsize);
    uint8_t *header = grank == 0 ? malloc(header_size) : NULL;
    /* The leader's index (numbered by the leaders' ranks, in order) and whether it has its tables. */
    int ok = 0, leader[2] = {index, grank != 0 || (all && all_offsets && members && header)};
    PMPI_Bcast(leader, 2, MPI_INT, 0, g);
    index = leader[0];
    if (!leader[1])
        goto out;
    PMPI_Gather(mine, 1 + REC_PART_COUNT, MPI_UINT64_T, all, 1 + REC_PART_COUNT, MPI_UINT64_T, 0, g);
    if (grank == 0) {
        uint64_t at = header_size;
        for (int i = 0; i < gsize; i++) {
            members[i].rank = (uint32_t)all[i * (1 + REC_PART_COUNT)];
            for (unsigned k = 0; k < REC_PART_COUNT; k++) {
                members[i].length[k] = all[i * (1 + REC_PART_COUNT) + 1 + k];
                members[i].offset[k] = members[i].length[k] ? at : 0;
                all_offsets[(size_t)i * REC_PART_COUNT + k] = members[i].offset[k];
                at += members[i].length[k];
            }
        }
        rec_aggregate_header_pack(header, (uint32_t)index, (uint32_t)count, members, (uint32_t)gsize);
    }
    PMPI_Scatter(all_offsets, REC_PART_COUNT, MPI_UINT64_T, offsets, REC_PART_COUNT, MPI_UINT64_T, 0, g);
    snprintf(name, name_cap, "%s/aggregate.%d", dir, index);
    MPI_File fh;
    if (PMPI_File_open(g, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        goto out;
    ok = 1; /* the file is new: rank 0 removed those of an earlier run at MPI_Init (rt_aggregate_clear) */
    if (grank == 0) {
        MPI_Status st;
        ok = ok && PMPI_File_write_at(fh, 0, header, (int)header_size, MPI_BYTE, &st) == MPI_SUCCESS;
    }
    for (unsigned k = 0; ok && k < REC_PART_COUNT; k++) {
        part_path(path, sizeof path, stage, rank, k);
        ok = !mine[1 + k] || copy_in(fh, path, offsets[k], mine[1 + k], copy_buf) == 0;
    }
    if (PMPI_File_close(&fh) != MPI_SUCCESS)
        ok = 0;
out:
    free(all);
    free(all_offsets);
    free(members);
    free(header);
    return ok ? 0 : -1;
}

void rt_aggregate_finish(const rt_config *c, const char *stage, const char *dir, int rank, int size)
{
    char name[PATH_MAX + 32] = "";
    MPI_Comm g = group_of(c, rank, size);
    int grank = 1, leader, index = 0, count = 0, ok = 0, all_ok = 0;
    if (g != MPI_COMM_NULL)
        PMPI_Comm_rank(g, &grank);
    leader = grank == 0;
    /* Aggregates are numbered by their leaders' ranks, in order. */
    PMPI_Exscan(&leader, &index, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        index = 0;
    PMPI_Allreduce(&leader, &count, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (g != MPI_COMM_NULL)
        ok = write_group(g, stage, dir, (uint32_t)rank, index, count, name, sizeof name) == 0;
    PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all_ok) {
        remove_stage(stage, (uint32_t)rank);
    } else {
        if (!ok)
            rt_warn("recorder: %s: cannot write rank %d's files into it%s; the trace keeps a file per rank",
                    name[0] ? name : dir, rank, g == MPI_COMM_NULL ? " (no group)" : "");
        if (leader && name[0])
            rt_real.unlink(name);
        PMPI_Barrier(MPI_COMM_WORLD); /* no aggregate is left when the ranks' own files appear */
        rt_aggregate_salvage(stage, dir, (uint32_t)rank);
    }
    if (g != MPI_COMM_NULL)
        PMPI_Comm_free(&g);
}

void rt_aggregate_clear(const char *dir)
{
    char path[PATH_MAX + 32];
    for (unsigned k = 0;; k++) {
        snprintf(path, sizeof path, "%s/aggregate.%u", dir, k);
        if (rt_real.unlink(path) != 0)
            return;
    }
}
