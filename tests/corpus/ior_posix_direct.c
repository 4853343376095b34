/* ior_posix_direct: the POSIX backend of IOR (aiori-POSIX.c) with direct I/O,
 * file per process, as
 *   ior -a POSIX --posix.odirect -F -e -s 2 -b 256k -t 64k -w -r -o ior.dat
 * runs it: each rank opens OUTDIR/ior.dat.0000000<rank> with
 * O_CREAT|O_WRONLY|O_DIRECT, and per transfer lseek + write from a buffer
 * aligned to the page, as O_DIRECT demands (an unaligned one fails with
 * EINVAL); fsync (-e), close; then reopens it O_RDONLY|O_DIRECT and reads it
 * back the same way, comparing. A file system without O_DIRECT (tmpfs)
 * refuses the open with EINVAL: the program then says so and exits with 77,
 * which the tests count as skipped. */
#define _GNU_SOURCE
#include "corpus.h"

#include <fcntl.h>
#include <unistd.h>

enum { XFER = 64 * 1024, BLOCK = 256 * 1024, SEGMENTS = 2, TRANSFERS = BLOCK / XFER, ALIGN = 4096 };

static int open_direct(const char *path, int flags)
{
    int fd = open(path, flags | O_DIRECT, 0664);
    if (fd < 0 && errno == EINVAL) {
        if (corpus_rank == 0)
            printf("ior_posix_direct: %s: the file system refuses O_DIRECT: skipped\n", path);
        MPI_Finalize();
        exit(77);
    }
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    return fd;
}

/* Transfer t of segment s of this rank's own file. */
static off_t offset_of(int s, int t)
{
    return (off_t)s * BLOCK + (off_t)t * XFER;
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "ior_posix_direct");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "ior.dat.%08d", corpus_rank);
    unsigned char *buf, *check;
    if (posix_memalign((void **)&buf, ALIGN, XFER) != 0 || posix_memalign((void **)&check, ALIGN, XFER) != 0)
        corpus_fail("posix_memalign: out of memory");
    for (int b = 0; b < XFER; b++)
        buf[b] = (unsigned char)(corpus_rank + b);

    int fd = open_direct(path, O_CREAT | O_WRONLY);
    for (int s = 0; s < SEGMENTS; s++)
        for (int t = 0; t < TRANSFERS; t++)
            if (lseek(fd, offset_of(s, t), SEEK_SET) < 0 || write(fd, buf, XFER) != XFER)
                corpus_fail("write %s: %s", path, strerror(errno));
    if (fsync(fd) != 0 || close(fd) != 0)
        corpus_fail("fsync/close %s: %s", path, strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);

    fd = open_direct(path, O_RDONLY);
    for (int s = 0; s < SEGMENTS; s++)
        for (int t = 0; t < TRANSFERS; t++) {
            if (lseek(fd, offset_of(s, t), SEEK_SET) < 0 || read(fd, check, XFER) != XFER)
                corpus_fail("read %s: %s", path, strerror(errno));
            if (memcmp(check, buf, XFER) != 0)
                corpus_fail("%s: segment %d, transfer %d: the data read back differ", path, s, t);
        }
    if (close(fd) != 0)
        corpus_fail("close %s: %s", path, strerror(errno));
    free(buf);
    free(check);
    return corpus_finish();
}
