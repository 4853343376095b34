/* n-to-m: N ranks write M = ceil(N/G) files, the aggregation pattern of
 * codes that funnel output through I/O leaders (e.g. ADIOS-style
 * aggregation or PIO-like I/O tasks). Ranks are grouped with MPI_Comm_split
 * (G consecutive ranks per group); each group gathers its members' data on
 * the group leader, which writes group.<g> with POSIX write (one call per
 * member block), then reads the file back and verifies every block. Only
 * the leaders touch the file system. */
#include "kernel_common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct {
    int group_size;
    int size; /* bytes contributed by each rank */
} n_to_m_options;

/* Each rank's contribution is its own byte stream, so the leader can
 * regenerate any member's block from its world rank. */
static uint64_t member_stream(int world_rank)
{
    return kernel_hash((uint64_t)world_rank, 0x2A, 0);
}

int main(int argc, char **argv)
{
    n_to_m_options opt = {.group_size = 2, .size = 65536};
    const kernel_option options[] = {
        KOPT_INT_OPT("--group-size", &opt.group_size, 1, "ranks per group (one file per group)"),
        KOPT_INT_OPT("--size", &opt.size, 1, "bytes each rank contributes"),
    };
    kernel_init(&argc, &argv, "n-to-m",
                "N-to-M: groups gather to a leader (MPI_Comm_split + MPI_Gather) that writes one POSIX file per group.",
                options, sizeof options / sizeof options[0]);

    const int group = kernel.rank / opt.group_size;
    MPI_Comm group_comm;
    MPI_Comm_split(MPI_COMM_WORLD, group, kernel.rank, &group_comm);
    int group_rank, members;
    MPI_Comm_rank(group_comm, &group_rank);
    MPI_Comm_size(group_comm, &members);
    const bool leader = group_rank == 0;
    const size_t block = (size_t)opt.size;

    unsigned char *mine = kernel_alloc(block);
    kernel_fill_bytes(mine, block, member_stream(kernel.rank), 0);
    unsigned char *gathered = leader ? kernel_alloc(block * (size_t)members) : NULL;
    MPI_Gather(mine, opt.size, MPI_BYTE, gathered, opt.size, MPI_BYTE, 0, group_comm);

    if (leader) {
        char path[KERNEL_PATH_MAX];
        kernel_path(path, "group.%d", group);
        int fd = kio_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        for (int m = 0; m < members; m++)
            kio_write_exact(fd, gathered + (size_t)m * block, block, path);
        kio_close(fd, path);

        unsigned char *expected = kernel_alloc(block);
        fd = kio_open(path, O_RDONLY, 0);
        for (int m = 0; m < members; m++) {
            /* Group members are consecutive world ranks, the leader first. */
            int member_world_rank = kernel.rank + m;
            kio_read_exact(fd, gathered, block, path);
            kernel_fill_bytes(expected, block, member_stream(member_world_rank), 0);
            kernel_check_equal(gathered, expected, block, 1, "group.%d block of rank %d", group,
                               member_world_rank);
        }
        kio_close(fd, path);
        free(expected);
        free(gathered);
    }
    free(mine);
    MPI_Comm_free(&group_comm);
    return kernel_finish();
}
