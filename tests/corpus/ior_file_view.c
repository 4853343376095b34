/* ior_file_view: the MPI-IO backend of IOR with --mpiio.useFileView, as
 *   ior -a MPIIO -c --mpiio.useFileView -s 2 -b 256k -t 64k -w -r -o ior.dat
 * runs it (aiori-MPIIO.c): the access type is a contiguous run of the
 * transfer's long longs resized to extent 0 (MPI_Type_create_resized(contig,
 * 0, 0)), the view's etype the contiguous run and its file type a subarray
 * giving each rank its block of every segment; each transfer is
 * MPI_File_seek to the transfer's index in the view, then
 * MPI_File_write_all / read_all of one access type. The buffer must hold the
 * type's data although its extent is 0. */
#include "corpus.h"

#include <stdint.h>

enum { XFER = 64 * 1024, BLOCK = 256 * 1024, SEGMENTS = 2, TRANSFERS = BLOCK / XFER };

/* Opens the file and sets IOR's view; *contig and *access are the types it made. */
static MPI_File open_view(const char *path, int amode, MPI_Datatype *contig, MPI_Datatype *access,
                          MPI_Datatype *file_type)
{
    MPI_File fh;
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path, amode, MPI_INFO_NULL, &fh));
    MPI_CHECK(MPI_Type_contiguous(XFER / (int)sizeof(long long), MPI_LONG_LONG_INT, contig));
    MPI_CHECK(MPI_Type_create_resized(*contig, 0, 0, access));
    MPI_CHECK(MPI_Type_commit(contig));
    MPI_CHECK(MPI_Type_commit(access));
    /* each segment is a row of nranks * TRANSFERS transfers; this rank's are TRANSFERS of them */
    int sizes[2] = {1, corpus_size * TRANSFERS}, sub[2] = {1, TRANSFERS}, start[2] = {0, corpus_rank * TRANSFERS};
    MPI_CHECK(MPI_Type_create_subarray(2, sizes, sub, start, MPI_ORDER_C, *contig, file_type));
    MPI_CHECK(MPI_Type_commit(file_type));
    MPI_CHECK(MPI_File_set_view(fh, 0, *contig, *file_type, "native", MPI_INFO_NULL));
    return fh;
}

static void close_view(MPI_File *fh, MPI_Datatype *contig, MPI_Datatype *access, MPI_Datatype *file_type)
{
    MPI_CHECK(MPI_File_close(fh));
    MPI_CHECK(MPI_Type_free(file_type));
    MPI_CHECK(MPI_Type_free(access));
    MPI_CHECK(MPI_Type_free(contig));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "ior_file_view");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "ior.dat");
    uint64_t *buf = malloc(XFER), *check = malloc(XFER);
    if (!buf || !check)
        corpus_fail("out of memory");
    MPI_Datatype contig, access, file_type;

    MPI_File fh = open_view(path, MPI_MODE_CREATE | MPI_MODE_WRONLY, &contig, &access, &file_type);
    for (int i = 0; i < SEGMENTS * TRANSFERS; i++) {
        for (int e = 0; e < XFER / 8; e++)
            buf[e] = (uint64_t)corpus_rank << 32 | (uint64_t)i << 16 | (uint64_t)e;
        MPI_CHECK(MPI_File_seek(fh, i, MPI_SEEK_SET));
        MPI_CHECK(MPI_File_write_all(fh, buf, 1, access, MPI_STATUS_IGNORE));
    }
    close_view(&fh, &contig, &access, &file_type);

    fh = open_view(path, MPI_MODE_RDONLY, &contig, &access, &file_type);
    for (int i = 0; i < SEGMENTS * TRANSFERS; i++) {
        MPI_CHECK(MPI_File_seek(fh, i, MPI_SEEK_SET));
        MPI_CHECK(MPI_File_read_all(fh, check, 1, access, MPI_STATUS_IGNORE));
        for (int e = 0; e < XFER / 8; e++)
            if (check[e] != ((uint64_t)corpus_rank << 32 | (uint64_t)i << 16 | (uint64_t)e))
                corpus_fail("%s: transfer %d, element %d: read back %llx", path, i, e, (unsigned long long)check[e]);
    }
    close_view(&fh, &contig, &access, &file_type);
    free(buf);
    free(check);
    return corpus_finish();
}
