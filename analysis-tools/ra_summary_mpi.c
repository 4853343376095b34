/* ra_summary_mpi.c: recorder-summary under mpirun. The ranks of the trace are
 * dealt round-robin to the MPI processes; each summarises its share, then
 * process 0 gathers the packed rows and prints. */
#include "ra_tools.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int ra_mpi_wanted(int forced)
{
    return forced || getenv("PMI_RANK") || getenv("PMIX_RANK") || getenv("OMPI_COMM_WORLD_RANK");
}

int ra_mpi_init(int *argc, char ***argv, int *me, int *size)
{
    if (MPI_Init(argc, argv) != MPI_SUCCESS)
        return -1;
    MPI_Comm_rank(MPI_COMM_WORLD, me);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return 0;
}

void ra_mpi_finalize(void)
{
    MPI_Finalize();
}

int ra_mpi_reduce_summary(ra_summary *s, const uint32_t *mine, size_t n, int failed)
{
    int me, size, any_failed = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any_failed)
        return 1;
    char *buf = NULL;
    size_t len = me ? ra_summary_pack(s, mine, n, &buf) : 0;
    /* Sizes first (as 64-bit: a big trace's rows can exceed 2 GiB in total),
     * then each process's buffer in turn: one message per process keeps
     * counts within int. */
    unsigned long long mylen = len;
    unsigned long long *lens = me ? NULL : ra_xcalloc((size_t)size, sizeof *lens);
    MPI_Gather(&mylen, 1, MPI_UNSIGNED_LONG_LONG, lens, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    int bad = 0;
    if (me) {
        for (size_t off = 0; off < len;) {
            int chunk = len - off > (1u << 30) ? 1 << 30 : (int)(len - off);
            MPI_Send(buf + off, chunk, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
            off += (size_t)chunk;
        }
    } else {
        for (int p = 1; p < size; p++) {
            char *in = ra_xmalloc((size_t)lens[p]);
            for (size_t off = 0; off < lens[p];) {
                int chunk = lens[p] - off > (1u << 30) ? 1 << 30 : (int)(lens[p] - off);
                MPI_Recv(in + off, chunk, MPI_BYTE, p, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                off += (size_t)chunk;
            }
            if (ra_summary_unpack(s, in, (size_t)lens[p]) != 0) {
                fprintf(stderr, "recorder-summary: malformed results from process %d\n", p);
                bad = 1;
            }
            free(in);
        }
    }
    free(buf);
    free(lens);
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return bad;
}
