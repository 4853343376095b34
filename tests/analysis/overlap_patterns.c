/* overlap_patterns: makes exactly eight overlapping accesses for
 * recorder-overlap to find, each pattern once within a rank and once across,
 * and a fifth pair that a close-to-open ordering separates. Run at 2 ranks:
 *   mpirun -np 2 overlap_patterns OUTDIR
 *
 *   A  RAR rank 0 -> rank 1  rank 0 reads [0, 4096) (lseek + read), then
 *                            rank 1 reads [2048, 6144) (pread): [2048, 4096)
 *   B  WAW rank 0 -> rank 0  rank 0 writes [0, 8192) (write), then
 *                            [4096, 12288) (lseek + write): [4096, 8192)
 *   C  RAW rank 0 -> rank 1  rank 0 writes [0, 4096) (fwrite + fflush),
 *                            then rank 1 reads [1000, 3000) (pread)
 *   D  WAR rank 1 -> rank 1  rank 1 reads [512, 1536), then writes [0, 1024)
 *                            (pread, pwrite): [512, 1024)
 *   E  nothing               rank 0 appends twice at the end (O_APPEND:
 *                            [16384, 18384)), rank 1 reads [0, 4096)
 *   G  RAR rank 1 -> rank 1  rank 1 reads [0, 2048), then [1024, 3072) (pread)
 *   H  WAW rank 0 -> rank 1  rank 0 writes [0, 4096), then rank 1 [3000, 5048)
 *   I  RAW rank 0 -> rank 0  rank 0 writes [8192, 12288), reads [9000, 10024)
 *   J  WAR rank 0 -> rank 1  rank 0 reads [12288, 16384), then rank 1 writes
 *                            [13000, 14000)
 *   F  RAW rank 0 -> rank 1, rank 0 writes [0, 4096) and closes F before
 *      separated by sessions rank 1 opens it and reads [0, 4096)
 *
 * Every file is first created by rank 0 and sized to 16 KiB with ftruncate,
 * which moves no data; all sessions but F's stay open over the accesses. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SIZE 16384

static int rank;
static const char *outdir;
static char buf[SIZE];

static void fail(const char *what)
{
    fprintf(stderr, "overlap_patterns: rank %d: %s: %s\n", rank, what, strerror(errno));
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

static const char *path(char name)
{
    static char p[10][4096];
    int i = name - 'A';
    snprintf(p[i], sizeof p[i], "%s/%c", outdir, name);
    return p[i];
}

static int open_or_fail(char name, int flags)
{
    int fd = open(path(name), flags);
    if (fd < 0)
        fail(path(name));
    return fd;
}

static void check(ssize_t got, size_t want, const char *what)
{
    if (got != (ssize_t)want)
        fail(what);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || size != 2) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 overlap_patterns OUTDIR\n");
        MPI_Finalize();
        return 2;
    }
    outdir = argv[1];
    memset(buf, 'x', sizeof buf);
    if (rank == 0) {
        if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
            fail(outdir);
        for (char f = 'A'; f <= 'J'; f++) {
            int fd = open(path(f), O_CREAT | O_TRUNC | O_WRONLY, 0644);
            if (fd < 0 || ftruncate(fd, SIZE) != 0 || close(fd) != 0)
                fail(path(f));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);

    int a = -1, b = -1, d = -1, e = -1, f = -1, c1 = -1, g = -1, h = -1, i = -1, j = -1;
    FILE *c0 = NULL;
    if (rank == 0) {
        a = open_or_fail('A', O_RDONLY);
        b = open_or_fail('B', O_RDWR);
        if (!(c0 = fopen(path('C'), "r+")))
            fail(path('C'));
        e = open_or_fail('E', O_WRONLY | O_APPEND);
        f = open_or_fail('F', O_WRONLY);
        h = open_or_fail('H', O_RDWR);
        i = open_or_fail('I', O_RDWR);
        j = open_or_fail('J', O_RDONLY);
    } else {
        g = open_or_fail('G', O_RDONLY);
        h = open_or_fail('H', O_RDWR);
        j = open_or_fail('J', O_RDWR);
        a = open_or_fail('A', O_RDONLY);
        c1 = open_or_fail('C', O_RDONLY);
        d = open_or_fail('D', O_RDWR);
        e = open_or_fail('E', O_RDONLY);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) {
        check(lseek(a, 0, SEEK_SET), 0, "lseek A");
        check(read(a, buf, 4096), 4096, "read A");
        check(write(b, buf, 8192), 8192, "write B");
        check(lseek(b, 4096, SEEK_SET), 4096, "lseek B");
        check(write(b, buf, 8192), 8192, "write B again");
        check((ssize_t)fwrite(buf, 1, 4096, c0), 4096, "fwrite C");
        if (fflush(c0) != 0)
            fail("fflush C");
        check(write(e, buf, 1000), 1000, "append E");
        check(write(e, buf, 1000), 1000, "append E again");
        check(pwrite(f, buf, 4096, 0), 4096, "pwrite F");
        check(pwrite(h, buf, 4096, 0), 4096, "pwrite H");
        check(pwrite(i, buf, 4096, 8192), 4096, "pwrite I");
        check(pread(i, buf, 1024, 9000), 1024, "pread I");
        check(pread(j, buf, 4096, 12288), 4096, "pread J");
        if (close(f) != 0)
            fail("close F");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 1) {
        check(pread(g, buf, 2048, 0), 2048, "pread G");
        check(pread(g, buf, 2048, 1024), 2048, "pread G again");
        check(pwrite(h, buf, 2048, 3000), 2048, "pwrite H");
        check(pwrite(j, buf, 1000, 13000), 1000, "pwrite J");
        check(pread(a, buf, 4096, 2048), 4096, "pread A");
        check(pread(c1, buf, 2000, 1000), 2000, "pread C");
        check(pread(d, buf, 1024, 512), 1024, "pread D");
        check(pwrite(d, buf, 1024, 0), 1024, "pwrite D");
        check(pread(e, buf, 4096, 0), 4096, "pread E");
        f = open_or_fail('F', O_RDONLY);
        check(pread(f, buf, 4096, 0), 4096, "pread F");
        if (close(f) != 0)
            fail("close F");
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) {
        if (close(a) || close(b) || fclose(c0) || close(e) || close(h) || close(i) || close(j))
            fail("close");
    } else {
        if (close(a) || close(c1) || close(d) || close(e) || close(g) || close(h) || close(j))
            fail("close");
    }
    MPI_Finalize();
    return 0;
}
