/* ga_groups: process groups the way Global Arrays (NWChem) builds them, then
 * MPI-IO on the communicators made from them.
 *   ga_groups OUTDIR
 * Every rank dups MPI_COMM_WORLD and asks for its group twice (GA's default
 * group and its world group: MPICH hands back the same handle both times, a
 * second reference to one group), takes the even ranks out of the first
 * (MPI_Group_incl, checked with MPI_Group_translate_ranks against the
 * second), frees the first, and goes on with the second, still live: the odd
 * ranks (MPI_Group_excl), then frees it too. The even and the odd ranks each
 * get a communicator (MPI_Comm_create, twice), on which they write a file of
 * rank-numbered blocks collectively (OUTDIR/even.dat, OUTDIR/odd.dat), ask its
 * group twice (MPI_File_get_group, MPI_Comm_group: one group again), read the
 * blocks back and check them. */
#include "corpus.h"

#include <stdint.h>

enum { BLOCK = 4096 }; /* bytes per rank */

static void fill(unsigned char *buf, int rank)
{
    for (int i = 0; i < BLOCK; i++)
        buf[i] = (unsigned char)(rank * 31 + i);
}

/* The file of one side's communicator: each member's block at its rank in it. */
static void side_io(MPI_Comm side, const char *name)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "%s", name);
    int me;
    MPI_CHECK(MPI_Comm_rank(side, &me));
    static unsigned char out[BLOCK], in[BLOCK];
    fill(out, corpus_rank);
    MPI_File fh;
    MPI_CHECK(MPI_File_open(side, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    MPI_Group of_file, of_comm;
    MPI_CHECK(MPI_File_get_group(fh, &of_file));
    MPI_CHECK(MPI_Comm_group(side, &of_comm));
    int same;
    MPI_CHECK(MPI_Group_compare(of_file, of_comm, &same));
    if (same != MPI_IDENT)
        corpus_fail("%s: the file's group is not its communicator's (MPI_Group_compare: %d)", path, same);
    MPI_CHECK(MPI_Group_free(&of_file));
    MPI_CHECK(MPI_Group_free(&of_comm));
    MPI_CHECK(MPI_File_write_at_all(fh, (MPI_Offset)me * BLOCK, out, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_File_close(&fh));
    MPI_CHECK(MPI_File_open(side, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_CHECK(MPI_File_read_at_all(fh, (MPI_Offset)me * BLOCK, in, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_File_close(&fh));
    if (memcmp(in, out, BLOCK) != 0)
        corpus_fail("%s: block %d reads back different", path, me);
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "ga_groups");
    MPI_Comm ga_comm;
    MPI_CHECK(MPI_Comm_dup(MPI_COMM_WORLD, &ga_comm));
    MPI_Group ga_group, world_group;
    MPI_CHECK(MPI_Comm_group(ga_comm, &ga_group));
    MPI_CHECK(MPI_Comm_group(ga_comm, &world_group));

    int neven = (corpus_size + 1) / 2, evens[64], index[64], translated[64];
    if (neven > 64)
        corpus_fail("at most 128 ranks, not %d", corpus_size);
    for (int k = 0; k < neven; k++) {
        evens[k] = 2 * k;
        index[k] = k;
    }
    MPI_Group even_group, odd_group;
    MPI_CHECK(MPI_Group_incl(ga_group, neven, evens, &even_group));
    MPI_CHECK(MPI_Group_translate_ranks(even_group, neven, index, world_group, translated));
    for (int k = 0; k < neven; k++)
        if (translated[k] != evens[k])
            corpus_fail("even rank %d translates to world rank %d, not %d", k, translated[k], evens[k]);
    /* GA frees its default group while the world group, the same group, lives on. */
    MPI_CHECK(MPI_Group_free(&ga_group));
    MPI_CHECK(MPI_Group_excl(world_group, neven, evens, &odd_group));
    MPI_CHECK(MPI_Group_free(&world_group));

    MPI_Comm even_comm, odd_comm;
    MPI_CHECK(MPI_Comm_create(ga_comm, even_group, &even_comm));
    MPI_CHECK(MPI_Comm_create(ga_comm, odd_group, &odd_comm));
    MPI_CHECK(MPI_Group_free(&even_group));
    MPI_CHECK(MPI_Group_free(&odd_group));
    if ((even_comm == MPI_COMM_NULL) != (corpus_rank % 2 == 1) ||
        (odd_comm == MPI_COMM_NULL) != (corpus_rank % 2 == 0))
        corpus_fail("MPI_Comm_create gave rank %d the wrong side", corpus_rank);
    MPI_Comm side = corpus_rank % 2 ? odd_comm : even_comm;
    side_io(side, corpus_rank % 2 ? "odd.dat" : "even.dat");
    MPI_CHECK(MPI_Comm_free(&side));
    MPI_CHECK(MPI_Comm_free(&ga_comm));
    return corpus_finish();
}
