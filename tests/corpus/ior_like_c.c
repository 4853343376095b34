/* ior_like_c: the MPI-IO backend of IOR (aiori-MPIIO.c) as built against an
 * MPI-4 library such as MPICH 4, running a two-test script like
 *   ior -a MPIIO -c -e -V -s 2 -b 256k -t 64k -w -r -W -o ior-collective.dat
 *   ior -a MPIIO -e -N <n/2> -s 2 -b 256k -t 64k -w -r -o ior-independent.dat
 * Per test, as ior.c does: the test communicator comes from
 * MPI_Comm_group -> MPI_Group_range_incl({0, numTasks-1, 1}) ->
 * MPI_Comm_create (ranks beyond -N get MPI_COMM_NULL and only wait at the
 * barriers); hints from IOR_HINT__MPI__* go into an MPI_Info passed to
 * MPI_File_open, and -H shows the hints in effect (MPI_File_get_info on every
 * rank, printed by rank 0). As MPIIO_Xfer does, the access functions are
 * picked once and called through function pointers; with MPI_VERSION >= 4
 * they are the large-count twins (MPI_File_write_at_all_c, ..., counts as
 * MPI_Count). The file is segmented: segment s, rank r, transfer t is at
 * s*N*block + r*block + t*xfer.
 *  test 1 (-c -e -V -W): write with write_at_all_c, MPI_File_sync (-e), close;
 *    the size check (MPIIO_GetFileSize: open, MPI_File_get_size, close); read
 *    back through a file view (-V: etype a contiguous transfer type, filetype
 *    a vector of a rank's blocks) with read_at_all_c, offsets in etypes, and
 *    compare (-W).
 *  test 2 (-e, independent, half the ranks): write_at_c, sync, close; reopen,
 *    read_at_c and compare. */
#include "corpus.h"

#include <stdint.h>

enum { XFER = 64 * 1024, BLOCK = 256 * 1024, SEGMENTS = 2, TRANSFERS = BLOCK / XFER };

/* MPIIO_Xfer's access functions. The write prototypes take const void *: the
 * pointer types differ only there, as IOR's own casts acknowledge. */
#if MPI_VERSION >= 4
typedef MPI_Count ior_count;
typedef int (*ior_access_at)(MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Status *);
#define IOR_WRITE_AT_ALL ((ior_access_at)MPI_File_write_at_all_c)
#define IOR_WRITE_AT ((ior_access_at)MPI_File_write_at_c)
#define IOR_READ_AT_ALL MPI_File_read_at_all_c
#define IOR_READ_AT MPI_File_read_at_c
#else
typedef int ior_count;
typedef int (*ior_access_at)(MPI_File, MPI_Offset, void *, int, MPI_Datatype, MPI_Status *);
#define IOR_WRITE_AT_ALL ((ior_access_at)MPI_File_write_at_all)
#define IOR_WRITE_AT ((ior_access_at)MPI_File_write_at)
#define IOR_READ_AT_ALL MPI_File_read_at_all
#define IOR_READ_AT MPI_File_read_at
#endif

typedef struct {
    const char *file;
    int num_tasks;  /* -N */
    int collective; /* -c */
    int file_view;  /* -V */
} ior_test;

/* IOR's buffer signature: 64-bit words that encode the file offset and the test. */
static void fill(uint64_t *buf, MPI_Offset offset, int test)
{
    for (size_t i = 0; i < XFER / sizeof(uint64_t); i++)
        buf[i] = ((uint64_t)test << 56) | (uint64_t)(offset / 8 + (MPI_Offset)i);
}

static void check(const uint64_t *buf, MPI_Offset offset, int test, const char *file)
{
    for (size_t i = 0; i < XFER / sizeof(uint64_t); i++)
        if (buf[i] != (((uint64_t)test << 56) | (uint64_t)(offset / 8 + (MPI_Offset)i)))
            corpus_fail("%s: data check (-W) failed at offset %lld", file,
                        (long long)(offset + (MPI_Offset)(i * sizeof(uint64_t))));
}

static MPI_Offset transfer_offset(int ntasks, int rank, int segment, int transfer)
{
    return ((MPI_Offset)segment * ntasks + rank) * BLOCK + (MPI_Offset)transfer * XFER;
}

/* ior.c: the test communicator, ranks 0..num_tasks-1 of MPI_COMM_WORLD. */
static MPI_Comm test_comm(int num_tasks)
{
    MPI_Group world_group, test_group;
    int range[1][3] = {{0, num_tasks - 1, 1}};
    MPI_Comm comm;
    MPI_CHECK(MPI_Comm_group(MPI_COMM_WORLD, &world_group));
    MPI_CHECK(MPI_Group_range_incl(world_group, 1, range, &test_group));
    MPI_CHECK(MPI_Comm_create(MPI_COMM_WORLD, test_group, &comm));
    MPI_CHECK(MPI_Group_free(&world_group));
    MPI_CHECK(MPI_Group_free(&test_group));
    return comm;
}

/* IOR_HINT__MPI__romio_cb_write=enable and friends. */
static MPI_Info hints(void)
{
    MPI_Info info;
    MPI_CHECK(MPI_Info_create(&info));
    MPI_CHECK(MPI_Info_set(info, "romio_cb_write", "enable"));
    MPI_CHECK(MPI_Info_set(info, "romio_cb_read", "enable"));
    MPI_CHECK(MPI_Info_set(info, "cb_buffer_size", "1048576"));
    return info;
}

/* -H: the hints the file was opened with, as ShowHints prints them. */
static void show_hints(MPI_File fh, MPI_Comm comm)
{
    MPI_Info used;
    int rank, nkeys;
    MPI_CHECK(MPI_File_get_info(fh, &used));
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) {
        MPI_CHECK(MPI_Info_get_nkeys(used, &nkeys));
        for (int i = 0; i < nkeys; i++) {
            char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
            int found = 0;
            MPI_CHECK(MPI_Info_get_nthkey(used, i, key));
            MPI_CHECK(MPI_Info_get(used, key, MPI_MAX_INFO_VAL, value, &found));
            if (found && strcmp(key, "romio_cb_write") == 0)
                printf("ior_like_c: hint %s = %s\n", key, value);
        }
    }
    MPI_CHECK(MPI_Info_free(&used));
}

static void write_file(const ior_test *t, MPI_Comm comm, int rank, int number, uint64_t *buf)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "%s", t->file);
    MPI_Info info = hints();
    MPI_File fh;
    MPI_CHECK(MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, info, &fh));
    MPI_CHECK(MPI_Info_free(&info));
    show_hints(fh, comm);
    ior_access_at access = t->collective ? IOR_WRITE_AT_ALL : IOR_WRITE_AT;
    for (int s = 0; s < SEGMENTS; s++)
        for (int x = 0; x < TRANSFERS; x++) {
            MPI_Offset offset = transfer_offset(t->num_tasks, rank, s, x);
            fill(buf, offset, number);
            MPI_CHECK(access(fh, offset, buf, (ior_count)XFER, MPI_BYTE, MPI_STATUS_IGNORE));
        }
    MPI_CHECK(MPI_File_sync(fh)); /* -e */
    MPI_CHECK(MPI_File_close(&fh));
}

/* MPIIO_GetFileSize: a separate open of the shared file. */
static void check_size(const ior_test *t, MPI_Comm comm)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "%s", t->file);
    MPI_File fh;
    MPI_Offset size = 0;
    MPI_CHECK(MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh));
    MPI_CHECK(MPI_File_get_size(fh, &size));
    MPI_CHECK(MPI_File_close(&fh));
    MPI_Offset want = (MPI_Offset)SEGMENTS * t->num_tasks * BLOCK;
    if (size != want)
        corpus_fail("%s: %lld bytes after the write phase, expected %lld", path, (long long)size,
                    (long long)want);
}

static void read_file(const ior_test *t, MPI_Comm comm, int rank, int number, uint64_t *buf)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "%s", t->file);
    MPI_Info info = hints();
    MPI_File fh;
    MPI_CHECK(MPI_File_open(comm, path, MPI_MODE_RDONLY, info, &fh));
    MPI_CHECK(MPI_Info_free(&info));
    MPI_Datatype transfer_type = MPI_DATATYPE_NULL, file_type = MPI_DATATYPE_NULL;
    if (t->file_view) {
        /* -V: every access is one transfer_type; the view shows this rank its blocks only. */
        MPI_CHECK(MPI_Type_contiguous(XFER / (int)sizeof(long long), MPI_LONG_LONG_INT, &transfer_type));
        MPI_CHECK(MPI_Type_commit(&transfer_type));
        MPI_CHECK(MPI_Type_vector(SEGMENTS, TRANSFERS, t->num_tasks * TRANSFERS, transfer_type, &file_type));
        MPI_CHECK(MPI_Type_commit(&file_type));
        MPI_CHECK(MPI_File_set_view(fh, (MPI_Offset)rank * BLOCK, transfer_type, file_type, "native",
                                    MPI_INFO_NULL));
    }
    ior_access_at access = t->collective ? IOR_READ_AT_ALL : IOR_READ_AT;
    for (int s = 0; s < SEGMENTS; s++)
        for (int x = 0; x < TRANSFERS; x++) {
            MPI_Offset offset = transfer_offset(t->num_tasks, rank, s, x);
            memset(buf, 0, XFER);
            if (t->file_view)
                MPI_CHECK(
                    access(fh, (MPI_Offset)s * TRANSFERS + x, buf, 1, transfer_type, MPI_STATUS_IGNORE));
            else
                MPI_CHECK(access(fh, offset, buf, (ior_count)XFER, MPI_BYTE, MPI_STATUS_IGNORE));
            check(buf, offset, number, path);
        }
    MPI_CHECK(MPI_File_close(&fh));
    if (t->file_view) {
        MPI_CHECK(MPI_Type_free(&file_type));
        MPI_CHECK(MPI_Type_free(&transfer_type));
    }
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "ior_like_c");
    const ior_test tests[] = {
        {"ior-collective.dat", corpus_size, 1, 1},
        {"ior-independent.dat", (corpus_size + 1) / 2, 0, 0},
    };
    uint64_t *buf = malloc(XFER);
    if (!buf)
        corpus_fail("out of memory");
    for (int n = 0; n < 2; n++) {
        const ior_test *t = &tests[n];
        MPI_Comm comm = test_comm(t->num_tasks);
        MPI_Barrier(MPI_COMM_WORLD);
        if (comm != MPI_COMM_NULL) {
            int rank;
            MPI_Comm_rank(comm, &rank);
            write_file(t, comm, rank, n, buf);
            MPI_Barrier(comm);
            if (t->collective)
                check_size(t, comm);
            read_file(t, comm, rank, n, buf);
            MPI_CHECK(MPI_Comm_free(&comm));
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
    return corpus_finish();
}
