/* n-to-m: N ranks write M = ceil(N/G) files, the aggregation pattern of
 * codes that funnel output through I/O leaders (e.g. ADIOS-style
 * aggregation or PIO-like I/O tasks). Ranks are grouped with MPI_Comm_split
 * (G consecutive ranks per group); each group gathers its members' data on
 * the group leader, which writes group.<g> with POSIX write (one call per
 * member block), then reads the file back and verifies every block. Only
 * the leaders touch the file system.
 *
 * Groups: the group size G is fixed (--group-size), so M = N/G grows with N
 * and rank r writes to group.<r/G> and leads when r % G == 0; or, with
 * --files M, the number of files is fixed and G = N/M (N must be a multiple
 * of M).
 * --scaling weak (default): --size bytes per rank; M = ceil(N/G), the last
 * group being smaller when G does not divide N (the historical behaviour).
 * --scaling strong: --total-size bytes in all, total/N per rank; every group
 * must be full (N % G == 0) and N must divide the total, so each file holds
 * G blocks of total/N bytes. */
#include "kernel_common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static const char SUMMARY[] =
    "N-to-M: groups gather to a leader (MPI_Comm_split + MPI_Gather) that writes one POSIX file per group.";

typedef struct {
    int group_size;
    int size; /* bytes contributed by each rank */
    int files; /* 0: --group-size decides; else fixed number of files (G = N/files) */
    const char *scaling;
    int total_size; /* strong scaling: bytes contributed by all ranks together */
} n_to_m_options;

/* Each rank's contribution is its own byte stream, so the leader can
 * regenerate any member's block from its world rank. */
static uint64_t member_stream(int world_rank)
{
    return kernel_hash((uint64_t)world_rank, 0x2A, 0);
}

int main(int argc, char **argv)
{
    /* 786432 = 2^18 x 3: divisible by every N in {1, 2, 3, 4, 6, 8, 12, 16}. */
    n_to_m_options opt = {.group_size = 2, .size = 65536, .files = 0, .scaling = "weak", .total_size = 786432};
    const kernel_option options[] = {
        KOPT_SCALING_OPT(&opt.scaling),
        KOPT_INT_OPT("--group-size", &opt.group_size, 1,
                     "ranks per group, one file per group (weak: last group may be smaller; strong: must divide N)"),
        KOPT_INT_OPT("--files", &opt.files, 0,
                     "if > 0: fixed number of files instead of --group-size, group size N/files (must divide N)"),
        KOPT_WEAK_INT_OPT("--size", &opt.size, 1, "weak: bytes each rank contributes"),
        KOPT_STRONG_INT_OPT("--total-size", &opt.total_size, 1,
                            "strong: bytes all ranks contribute together (N must divide it)"),
    };
    kernel_init(&argc, &argv, "n-to-m", SUMMARY, options, KOPT_COUNT(options));
    const kernel_scaling scaling = kernel_parse_scaling(opt.scaling);
    if (opt.files > 0) {
        if (kernel_option_given("--group-size"))
            kernel_usage_error("give --group-size or --files, not both");
        if (kernel.nprocs % opt.files != 0) {
            if (scaling == KERNEL_SCALING_STRONG)
                kernel_scaling_error("N=%d ranks cannot be split evenly into --files %d groups (N must be a "
                                     "multiple of --files)",
                                     kernel.nprocs, opt.files);
            kernel_usage_error("N=%d ranks cannot be split evenly into --files %d groups (N must be a multiple "
                               "of --files)",
                               kernel.nprocs, opt.files);
        }
        opt.group_size = kernel.nprocs / opt.files;
    }
    if (scaling == KERNEL_SCALING_STRONG) {
        if (kernel.nprocs % opt.group_size != 0)
            kernel_scaling_error("N=%d ranks cannot be split into full groups of --group-size %d (N must be a "
                                 "multiple of the group size)",
                                 kernel.nprocs, opt.group_size);
        opt.size = kernel_strong_share("--total-size", opt.total_size);
    }

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
