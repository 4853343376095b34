/* threaded_files: a process that does its I/O from threads of its own, as
 * PnetCDF's pthread example and threaded checkpoint writers do.
 *   threaded_files OUTDIR
 * MPI_THREAD_MULTIPLE. Each rank starts THREADS threads; thread t of rank r
 * (id = r * THREADS + t) writes OUTDIR/part.<id> with POSIX (open, three
 * pwrites, close) and OUTDIR/mpiio.<id> with MPI-IO on MPI_COMM_SELF; thread
 * 0 of each rank then joins an MPI_Barrier; the threads meet at a
 * pthread_barrier_wait, and each reads back the POSIX file of the next id
 * (round robin across ranks, as the PnetCDF example does) and checks its
 * bytes. Before them the main thread writes a line a rank to OUTDIR/index
 * (MPI-IO, collective); after, it joins them and writes OUTDIR/summary.<rank>. */
#include "corpus_threads.h"

#include <fcntl.h>
#include <unistd.h>

enum { THREADS = 3, BLOCK = 4096, BLOCKS = 3 };

static pthread_barrier_t written;

static void fill(char *buf, int id, int block)
{
    for (int b = 0; b < BLOCK; b++)
        buf[b] = (char)('a' + (id * 7 + block * 3 + b) % 26);
}

static void *thread_main(void *arg)
{
    int id = (int)(intptr_t)arg;
    char path[CORPUS_PATH_MAX], buf[BLOCK], want[BLOCK];
    corpus_path(path, "part.%d", id);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    for (int k = 0; k < BLOCKS; k++) {
        fill(buf, id, k);
        if (pwrite(fd, buf, BLOCK, (off_t)k * BLOCK) != BLOCK)
            corpus_fail("pwrite %s: %s", path, strerror(errno));
    }
    close(fd);
    corpus_path(path, "mpiio.%d", id);
    MPI_File fh;
    MPI_CHECK(MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    fill(buf, id, 0);
    MPI_CHECK(MPI_File_write_at(fh, 0, buf, BLOCK, MPI_BYTE, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_File_close(&fh));
    if (id % THREADS == 0)
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank's files are written */
    corpus_barrier_wait(&written);
    int next = (id + 1) % (corpus_size * THREADS);
    corpus_path(path, "part.%d", next);
    fd = open(path, O_RDONLY);
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    for (int k = 0; k < BLOCKS; k++) {
        fill(want, next, k);
        if (read(fd, buf, BLOCK) != BLOCK || memcmp(buf, want, BLOCK) != 0)
            corpus_fail("%s: block %d is not what thread %d wrote", path, k, next);
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    corpus_init_thread(&argc, &argv, "threaded_files", MPI_THREAD_MULTIPLE);
    /* The main thread opens MPI-IO first, as codes set up before their threads: MPICH's ROMIO makes
     * its own state at the first open, which threads opening at once would race for. */
    char index[CORPUS_PATH_MAX], line[64];
    corpus_path(index, "index");
    MPI_File fh;
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, index, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    int len = snprintf(line, sizeof line, "rank %4d: %d threads\n", corpus_rank, THREADS);
    MPI_CHECK(MPI_File_write_at_all(fh, (MPI_Offset)corpus_rank * len, line, len, MPI_CHAR, MPI_STATUS_IGNORE));
    MPI_CHECK(MPI_File_close(&fh));
    corpus_run_threads(THREADS, thread_main, &written);
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "summary.%d", corpus_rank);
    FILE *f = fopen(path, "w");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    fprintf(f, "rank %d: %d threads wrote %d bytes each\n", corpus_rank, THREADS, BLOCK * BLOCKS);
    fclose(f);
    return corpus_finish();
}
