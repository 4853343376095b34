/* posix_mix: one call of most POSIX and stdio functions of the table that
 * the kernels do not make, so their generated replay is exercised too.
 *   mpirun -np N posix_mix OUTDIR
 * Each rank works in OUTDIR/rank.<r>/ and leaves a few files there; every
 * call is checked and a failure ends the program with a message. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

static int rank;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "posix_mix: rank %d: %s failed: %s\n", rank, what, strerror(errno));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static int say(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

static void path(char *out, const char *dir, const char *name)
{
    snprintf(out, 4096, "%s/%s", dir, name);
}

static void descriptors(const char *dir)
{
    char p[4096], buf[3][100], back[300];
    path(p, dir, "vectors.dat");
    int fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
    check(fd >= 0, "open");
    struct iovec iov[3];
    for (int i = 0; i < 3; i++) {
        memset(buf[i], 'a' + i, sizeof buf[i]);
        iov[i] = (struct iovec){buf[i], (size_t)(50 + 25 * i)};
    }
    check(writev(fd, iov, 3) == 225, "writev");
    check(lseek64(fd, 0, SEEK_SET) == 0, "lseek64");
    check(readv(fd, iov, 2) == 125, "readv");
    check(pwrite64(fd, back, 100, 1000) == 100, "pwrite64");
    check(pread64(fd, back, 300, 900) == 200, "pread64");
    check(fsync(fd) == 0 && fdatasync(fd) == 0, "fsync");
    check(ftruncate(fd, 4096) == 0, "ftruncate");
    struct stat st;
    check(fstat(fd, &st) == 0 && st.st_size == 4096, "fstat");
    check(fcntl(fd, F_GETFL) >= 0, "fcntl F_GETFL");
    struct flock lock = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 100};
    check(fcntl(fd, F_SETLK, &lock) == 0, "fcntl F_SETLK");
    lock.l_type = F_UNLCK;
    check(fcntl(fd, F_SETLK, &lock) == 0, "fcntl F_SETLK unlock");
    void *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    check(map != MAP_FAILED, "mmap");
    memset(map, 'm', 10);
    check(msync(map, 4096, MS_SYNC) == 0, "msync");
    check(munmap(map, 4096) == 0, "munmap");
    int copy = dup(fd);
    check(copy >= 0, "dup");
    check(write(copy, "dup", 3) == 3, "write on the dup");
    check(close(copy) == 0 && close(fd) == 0, "close");
}

static void at_calls(const char *dir)
{
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    check(dfd >= 0, "open O_DIRECTORY");
    check(mkdirat(dfd, "sub", 0755) == 0, "mkdirat");
    int fd = openat(dfd, "sub/at.dat", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    check(fd >= 0, "openat");
    check(write(fd, "0123456789", 10) == 10 && close(fd) == 0, "write");
    struct stat st;
    check(fstatat(dfd, "sub/at.dat", &st, 0) == 0 && st.st_size == 10, "fstatat");
    struct statx stx;
    check(statx(dfd, "sub/at.dat", 0, STATX_SIZE, &stx) == 0 && stx.stx_size == 10, "statx");
    check(faccessat(dfd, "sub/at.dat", R_OK, 0) == 0, "faccessat");
    check(renameat(dfd, "sub/at.dat", dfd, "sub/at.renamed") == 0, "renameat");
    check(unlinkat(dfd, "sub/at.renamed", 0) == 0, "unlinkat");
    check(unlinkat(dfd, "sub", AT_REMOVEDIR) == 0, "unlinkat dir");
    check(close(dfd) == 0, "close dir");
}

static void streams(const char *dir)
{
    char p[4096], line[64];
    path(p, dir, "stream.txt");
    FILE *f = fopen(p, "w+");
    check(f != NULL, "fopen");
    check(fwrite("header\n", 1, 7, f) == 7, "fwrite");
    check(fputs("second line\n", f) >= 0, "fputs");
    check(fputc('x', f) == 'x', "fputc");
    check(fprintf(f, "\nrank %d of many\n", rank) > 0, "fprintf");
    check(say(f, "%s %d\n", "vfprintf", 42) > 0, "vfprintf");
    check(fflush(f) == 0, "fflush");
    long end = ftell(f);
    check(end > 0, "ftell");
    rewind(f);
    check(fgets(line, sizeof line, f) != NULL, "fgets");
    check(fgetc(f) == 's', "fgetc");
    check(fseek(f, 0, SEEK_SET) == 0, "fseek");
    check(fread(line, 1, 10, f) == 10, "fread");
    check(fclose(f) == 0, "fclose");
    int fd = open(p, O_RDONLY);
    check(fd >= 0, "open");
    FILE *g = fdopen(fd, "r");
    check(g != NULL, "fdopen");
    check(fseeko(g, 7, SEEK_SET) == 0 && ftello(g) == 7, "fseeko");
    check(fclose(g) == 0, "fclose fdopen");
}

static void names(const char *dir)
{
    char p[4096], q[4096], got[4096];
    path(p, dir, "names.dat");
    int fd = creat(p, 0600);
    check(fd >= 0 && write(fd, "names", 5) == 5 && close(fd) == 0, "creat");
    check(chmod(p, 0644) == 0, "chmod");
    check(utime(p, NULL) == 0 && utimes(p, NULL) == 0, "utime");
    check(truncate(p, 3) == 0, "truncate");
    struct stat st;
    check(stat(p, &st) == 0 && st.st_size == 3, "stat");
    check(access(p, F_OK) == 0, "access");
    path(q, dir, "names.hard");
    check(link(p, q) == 0, "link");
    path(q, dir, "names.soft");
    check(symlink("names.dat", q) == 0, "symlink");
    ssize_t n = readlink(q, got, sizeof got - 1);
    check(n == 9, "readlink");
    check(lstat(q, &st) == 0 && S_ISLNK(st.st_mode), "lstat");
    check(stat(q, &st) == 0 && st.st_size == 3, "stat through the link");
    check(unlink(q) == 0, "unlink");
    path(q, dir, "names.moved");
    check(rename(p, q) == 0, "rename");
    check(remove(q) == 0, "remove");
    DIR *d = opendir(dir);
    check(d != NULL, "opendir");
    int entries = 0;
    while (readdir(d))
        entries++;
    check(entries >= 4 && closedir(d) == 0, "readdir");
    umask(umask(022));
    check(getcwd(got, sizeof got) != NULL, "getcwd");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 2) {
        fprintf(stderr, "usage: posix_mix OUTDIR\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    char dir[4096];
    if (rank == 0)
        check(mkdir(argv[1], 0755) == 0 || errno == EEXIST, "mkdir OUTDIR");
    MPI_Barrier(MPI_COMM_WORLD);
    snprintf(dir, sizeof dir, "%s/rank.%d", argv[1], rank);
    check(mkdir(dir, 0755) == 0, "mkdir");
    descriptors(dir);
    at_calls(dir);
    streams(dir);
    names(dir);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("posix_mix: OK\n");
    MPI_Finalize();
    return 0;
}
