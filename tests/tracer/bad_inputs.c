/* bad_inputs: calls the traced POSIX/stdio API with bad and edge inputs and
 * logs what each call returned, so that an untraced and a traced run can be
 * compared line by line (tracer.same_results_on_bad_inputs).
 *
 *   bad_inputs RESULTS SCRATCH_DIR COUNTS [--known-bugs]
 *
 * RESULTS gets one line per call, "name ret errno" (errno is cleared before
 * every call, so a traced call that leaves errno different on success shows
 * up too). COUNTS gets "name calls" per function, the two output files' own
 * open() calls included. Both files are opened before the first test call and
 * written with plain write() from memory at the end, so the program's own
 * I/O barely shows in the trace. SCRATCH_DIR must exist and be empty.
 *
 * Returned fds are printed relative to the RESULTS fd: a tracer keeps its
 * trace file open, so absolute fd numbers legitimately differ by one. For
 * that to hold, no inherited fd may be open above 2 (run_bad_inputs.sh
 * closes them).
 *
 * Nothing here passes NULL where glibc itself would crash untraced (fopen's
 * mode, readdir, fclose, opendir ...). --known-bugs adds calls that the
 * untraced program survives but the traced one does not (tracer bugs, not
 * fixed here: the default run leaves them out so that the test guards
 * everything else). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

static char results[1 << 17];
static size_t results_len;
static int fd_base; /* the RESULTS fd: fds are printed relative to it */

typedef struct counter {
    const char *name;
    unsigned n;
} counter;
static counter counters[160];
static size_t ncounters;

static void count(const char *name)
{
    for (size_t i = 0; i < ncounters; i++)
        if (strcmp(counters[i].name, name) == 0) {
            counters[i].n++;
            return;
        }
    if (ncounters < sizeof counters / sizeof *counters)
        counters[ncounters++] = (counter){name, 1};
}

static void put(const char *name, long long ret, int err)
{
    count(name);
    int n = snprintf(results + results_len, sizeof results - results_len, "%s %lld %d\n", name, ret, err);
    if (n > 0 && (size_t)n < sizeof results - results_len)
        results_len += (size_t)n;
}

/* errno is read right after the call, before anything else can touch it. */
#define CALL(name, expr)                                                                                     \
    do {                                                                                                     \
        errno = 0;                                                                                           \
        long long r_ = (long long)(expr);                                                                    \
        int e_ = errno;                                                                                      \
        put(#name, r_, e_);                                                                                  \
    } while (0)
/* Calls that return the lowest free fd: printed relative to fd_base. */
#define CALL_FD(name, expr)                                                                                  \
    do {                                                                                                     \
        errno = 0;                                                                                           \
        long long r_ = (long long)(expr);                                                                    \
        int e_ = errno;                                                                                      \
        put(#name, r_ >= 0 ? 1000 + r_ - fd_base : r_, e_);                                                  \
    } while (0)
/* Calls that return a pointer: 1 for a usable one, 0 for NULL, -1 for MAP_FAILED. */
#define CALL_PTR(name, expr)                                                                                 \
    do {                                                                                                     \
        errno = 0;                                                                                           \
        void *p_ = (void *)(expr);                                                                           \
        int e_ = errno;                                                                                      \
        put(#name, p_ == MAP_FAILED ? -1 : p_ != NULL, e_);                                                  \
    } while (0)

static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* ---- the calls ---- */

static char buf[4096];
/* Bad arguments go through volatiles so the compiler neither warns about nor
 * optimises around the NULLs and counts that the tests pass on purpose. */
static void *volatile nil;
static volatile int minus_one = -1, over_iov_max = IOV_MAX + 1, far_too_many = 1 << 20;
#define NIL ((void *)nil)
static char longpath[PATH_MAX + 64];

static void fds_and_data(void)
{
    int fd = -1, ro = -1, wo = -1, dfd = -1, closed = -1, dup_fd = -1;
    CALL_FD(open, fd = open("file", O_RDWR | O_CREAT | O_TRUNC, 0644));
    CALL(write, write(fd, "0123456789", 10));
    CALL(close, close(fd));
    CALL_FD(open, ro = open("file", O_RDONLY));
    CALL_FD(open, wo = open("file", O_WRONLY));
    CALL_FD(open, dfd = open("dir", O_RDONLY | O_DIRECTORY));
    CALL_FD(open, closed = open("file", O_RDONLY));
    CALL(close, close(closed));

    /* open failures */
    CALL_FD(open, open(NIL, O_RDONLY));
    CALL_FD(open, open("", O_RDONLY));
    CALL_FD(open, open("missing", O_RDONLY));
    CALL_FD(open, open("missing/sub", O_RDONLY));
    CALL_FD(open, open("file", O_CREAT | O_EXCL | O_WRONLY, 0644));
    CALL_FD(open, open("dir", O_WRONLY));
    CALL_FD(open, open("file/sub", O_RDONLY));
    CALL_FD(open, open("file", O_RDONLY | O_DIRECTORY));
    CALL_FD(open, open(longpath, O_RDONLY));
    CALL_FD(open, open("file", O_RDONLY | O_CREAT | O_EXCL | O_DIRECTORY, 0644));
    CALL_FD(open, open("link/x", O_RDONLY));
    CALL_FD(open, open("link", O_RDONLY | O_NOFOLLOW));
    CALL_FD(open64, open64("missing", O_RDONLY));
    CALL_FD(openat, openat(12345, "file", O_RDONLY));
    CALL_FD(openat, openat(ro, "file", O_RDONLY));
    CALL_FD(openat, openat(-1, "file", O_RDONLY));
    CALL_FD(openat, openat(dfd, "missing", O_RDONLY));
    CALL_FD(creat, creat("dir", 0644));
    CALL_FD(creat, creat("", 0644));

    /* data calls on bad fds */
    CALL(read, read(-1, buf, 10));
    CALL(read, read(12345, buf, 10));
    CALL(read, read(closed, buf, 10));
    CALL(read, read(wo, buf, 10));
    CALL(read, read(dfd, buf, 10));
    CALL(read, read(ro, buf, 0));
    CALL(read, read(ro, NULL, 0));
    CALL(read, read(ro, NIL, 10));
    CALL(write, write(-1, "x", 1));
    CALL(write, write(12345, "x", 1));
    CALL(write, write(closed, "x", 1));
    CALL(write, write(ro, "x", 1));
    CALL(write, write(dfd, "x", 1));
    CALL(write, write(wo, "x", 0));
    CALL(write, write(wo, NULL, 0));
    CALL(write, write(wo, NIL, 10));
    CALL(pread, pread(ro, buf, 4, -1));
    CALL(pread, pread(ro, buf, 4, 100));
    CALL(pread, pread(ro, buf, 0, 0));
    CALL(pread, pread(wo, buf, 4, 0));
    CALL(pread, pread(-1, buf, 4, 0));
    CALL(pread, pread(dfd, buf, 4, 0));
    CALL(pwrite, pwrite(wo, "ab", 2, -1));
    CALL(pwrite, pwrite(wo, "ab", 0, 0));
    CALL(pwrite, pwrite(ro, "ab", 2, 0));
    CALL(pwrite, pwrite(12345, "ab", 2, 0));
    CALL(pread64, pread64(ro, buf, 4, -5));
    CALL(pwrite64, pwrite64(wo, "ab", 2, -5));

    /* vectors */
    struct iovec iov[2] = {{buf, 4}, {buf + 4, 4}};
    struct iovec huge[2] = {{buf, SSIZE_MAX}, {buf, SSIZE_MAX}};
    struct iovec nullbase[1] = {{NULL, 4}};
    static struct iovec many[IOV_MAX + 8];
    for (size_t i = 0; i < sizeof many / sizeof *many; i++)
        many[i] = (struct iovec){buf, 1};
    CALL(readv, readv(ro, iov, 0));
    CALL(readv, readv(ro, NULL, 0));
    CALL(readv, readv(ro, iov, minus_one));
    CALL(readv, readv(-1, iov, 2));
    CALL(readv, readv(wo, iov, 2));
    CALL(readv, readv(ro, nullbase, 1));
    CALL(readv, readv(ro, many, over_iov_max));
    CALL(writev, writev(wo, iov, 0));
    CALL(writev, writev(wo, NULL, 0));
    CALL(writev, writev(wo, iov, minus_one));
    CALL(writev, writev(12345, iov, 2));
    CALL(writev, writev(ro, iov, 2));
    CALL(writev, writev(wo, huge, 2));
    CALL(writev, writev(wo, many, over_iov_max));
    CALL(preadv, preadv(ro, iov, 2, -1));
    CALL(pwritev, pwritev(wo, iov, 2, -1));
    CALL(pwritev, pwritev(wo, iov, 0, 0));

    /* seeking, syncing, sizes */
    CALL(lseek, lseek(ro, 0, 99));
    CALL(lseek, lseek(ro, -1, SEEK_SET));
    CALL(lseek, lseek(ro, -100, SEEK_END));
    CALL(lseek, lseek(-1, 0, SEEK_SET));
    CALL(lseek, lseek(closed, 0, SEEK_SET));
    CALL(lseek, lseek(ro, 3, SEEK_SET));
    CALL(lseek, lseek(ro, 0, SEEK_CUR));
    CALL(lseek64, lseek64(ro, 0, 42));
    CALL(fsync, fsync(-1));
    CALL(fsync, fsync(12345));
    CALL(fdatasync, fdatasync(closed));
    CALL(ftruncate, ftruncate(ro, 0));
    CALL(ftruncate, ftruncate(wo, -1));
    CALL(ftruncate, ftruncate(dfd, 0));
    CALL(ftruncate, ftruncate(-1, 0));
    CALL(truncate, truncate("missing", 0));
    CALL(truncate, truncate("file", -1));
    CALL(truncate, truncate("dir", 0));
    CALL(truncate, truncate(NIL, 0));
    CALL(truncate, truncate("", 0));

    /* duplicating, fcntl */
    CALL_FD(dup, dup(-1));
    CALL_FD(dup, dup(12345));
    CALL_FD(dup, dup(closed));
    CALL_FD(dup, dup_fd = dup(ro));
    CALL(close, close(dup_fd));
    CALL(dup2, dup2(-1, 100));
    CALL(dup2, dup2(12345, 100));
    CALL(dup2, dup2(ro, -1));
    CALL(dup2, dup2(ro, 999999));
    CALL_FD(dup2, dup2(ro, ro));
    CALL(dup2, dup2(closed, ro));
    CALL(dup3, dup3(ro, ro, 0));
    CALL(dup3, dup3(ro, 101, 12345));
    CALL(dup3, dup3(-1, 101, 0));
    CALL(fcntl, fcntl(ro, 9999));
    CALL(fcntl, fcntl(-1, F_GETFL));
    CALL(fcntl, fcntl(12345, F_GETFD));
    CALL(fcntl, fcntl(ro, F_GETFL));
    CALL(fcntl, fcntl(ro, F_SETFD, FD_CLOEXEC));
    CALL(fcntl, fcntl(ro, F_GETFD));
    CALL(fcntl, fcntl(ro, F_GETLK, NULL));
    CALL(fcntl, fcntl(ro, F_DUPFD, -1));
    CALL_FD(fcntl, dup_fd = fcntl(ro, F_DUPFD, 0));
    CALL(close, close(dup_fd));

    /* mappings */
    void *map = MAP_FAILED;
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_READ, MAP_SHARED, -1, 0));
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_READ, MAP_SHARED, 12345, 0));
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_READ, MAP_SHARED, closed, 0));
    CALL_PTR(mmap, mmap(NULL, 0, PROT_READ, MAP_SHARED, ro, 0));
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 1));
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_WRITE, MAP_SHARED, ro, 0));
    CALL_PTR(mmap, mmap(NULL, 4096, PROT_READ, MAP_SHARED, wo, 0));
    CALL_PTR(mmap, map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0));
    CALL(msync, msync((char *)map + 1, 4096, MS_SYNC));
    CALL(msync, msync(map, 4096, 12345));
    CALL(munmap, munmap((char *)map + 1, 4096));
    CALL(munmap, munmap(map, 0));
    CALL(munmap, munmap(map, 4096));

    /* fds end */
    CALL(close, close(-1));
    CALL(close, close(12345));
    CALL(close, close(closed));
    CALL(close, close(dfd));
    CALL(close, close(wo));
    CALL(close, close(ro));
    CALL(close, close(ro));
}

static void metadata(void)
{
    struct stat st;
    struct statx stx;
    CALL(stat, stat(NIL, &st));
    CALL(stat, stat("", &st));
    CALL(stat, stat("missing", &st));
    CALL(stat, stat("file/sub", &st));
    CALL(stat, stat(longpath, &st));
    CALL(stat, stat("file", NIL));
    CALL(stat, stat("file", &st));
    CALL(lstat, lstat("", &st));
    CALL(lstat, lstat("missing", &st));
    CALL(lstat, lstat("link/x", &st));
    CALL(fstat, fstat(-1, &st));
    CALL(fstat, fstat(12345, &st));
    CALL(fstatat, fstatat(12345, "file", &st, 0));
    CALL(fstatat, fstatat(AT_FDCWD, "", &st, 0));
    CALL(fstatat, fstatat(AT_FDCWD, "file", &st, 0x7fff0000));
    CALL(statx, statx(AT_FDCWD, "", 0, STATX_BASIC_STATS, &stx));
    CALL(statx, statx(AT_FDCWD, "missing", 0, STATX_BASIC_STATS, &stx));
    CALL(statx, statx(12345, "file", 0, STATX_BASIC_STATS, &stx));
    CALL(access, access(NIL, F_OK));
    CALL(access, access("", F_OK));
    CALL(access, access("missing", F_OK));
    CALL(access, access("file", 12345));
    CALL(access, access("file/sub", R_OK));
    CALL(access, access("file", X_OK));
    CALL(faccessat, faccessat(12345, "file", F_OK, 0));
    CALL(faccessat, faccessat(AT_FDCWD, "file", F_OK, 0x7fff0000));
    CALL(mkdir, mkdir(NIL, 0755));
    CALL(mkdir, mkdir("", 0755));
    CALL(mkdir, mkdir("dir", 0755));
    CALL(mkdir, mkdir("file", 0755));
    CALL(mkdir, mkdir("missing/sub", 0755));
    CALL(mkdir, mkdir("file/sub", 0755));
    CALL(mkdirat, mkdirat(12345, "newdir", 0755));
    CALL(rmdir, rmdir(NIL));
    CALL(rmdir, rmdir(""));
    CALL(rmdir, rmdir("missing"));
    CALL(rmdir, rmdir("file"));
    CALL(rmdir, rmdir("dir"));
    CALL(rmdir, rmdir("."));
    CALL(unlink, unlink(NIL));
    CALL(unlink, unlink(""));
    CALL(unlink, unlink("missing"));
    CALL(unlink, unlink("dir"));
    CALL(unlink, unlink("file/sub"));
    CALL(unlinkat, unlinkat(AT_FDCWD, "file", AT_REMOVEDIR));
    CALL(unlinkat, unlinkat(AT_FDCWD, "file", 12345));
    CALL(unlinkat, unlinkat(12345, "file", 0));
    CALL(remove, remove("missing"));
    CALL(remove, remove(""));
    CALL(rename, rename(NIL, "x"));
    CALL(rename, rename("missing", "x"));
    CALL(rename, rename("", "x"));
    CALL(rename, rename("file", ""));
    CALL(rename, rename("dir", "file"));
    CALL(rename, rename("file", "dir"));
    CALL(rename, rename("dir", "dir/sub"));
    CALL(renameat, renameat(12345, "file", AT_FDCWD, "x"));
    CALL(link, link("missing", "x"));
    CALL(link, link("file", "link"));
    CALL(link, link("dir", "dirlink"));
    CALL(link, link("", "x"));
    CALL(linkat, linkat(12345, "file", AT_FDCWD, "x", 0));
    CALL(symlink, symlink("file", "link"));
    CALL(symlink, symlink("", "x"));
    CALL(symlink, symlink("file", ""));
    CALL(symlink, symlink(NIL, "x"));
    CALL(symlinkat, symlinkat("file", 12345, "x"));
    CALL(readlink, readlink("file", buf, sizeof buf));
    CALL(readlink, readlink("missing", buf, sizeof buf));
    CALL(readlink, readlink("", buf, sizeof buf));
    CALL(readlink, readlink("link", buf, 0));
    CALL(readlink, readlink("link", buf, 2));
    CALL(readlink, readlink("link", buf, sizeof buf));
    CALL(readlink, readlink(NIL, buf, sizeof buf));
    CALL(readlinkat, readlinkat(12345, "link", buf, sizeof buf));
    CALL(chmod, chmod(NIL, 0644));
    CALL(chmod, chmod("", 0644));
    CALL(chmod, chmod("missing", 0644));
    CALL(chmod, chmod("file/sub", 0644));
    CALL(fchmod, fchmod(-1, 0644));
    CALL(fchmod, fchmod(12345, 0644));
    CALL(fchmodat, fchmodat(AT_FDCWD, "file", 0644, 0x7fff0000));
    CALL(chown, chown("missing", (uid_t)-1, (gid_t)-1));
    CALL(fchown, fchown(-1, (uid_t)-1, (gid_t)-1));
    CALL(utime, utime("missing", NULL));
    CALL(utimes, utimes("missing", NULL));
    CALL(utimensat, utimensat(12345, "file", NULL, 0));
    CALL(utimensat, utimensat(AT_FDCWD, "file", NULL, 0x7fff0000));
    CALL(umask, umask(022));
    CALL(umask, umask(022));
    CALL(chdir, chdir(NIL));
    CALL(chdir, chdir(""));
    CALL(chdir, chdir("missing"));
    CALL(chdir, chdir("file"));
    CALL(fchdir, fchdir(-1));
    CALL(fchdir, fchdir(12345));
    CALL_PTR(getcwd, getcwd(buf, 0));
    CALL_PTR(getcwd, getcwd(buf, 1));
    char *cwd = NULL;
    CALL_PTR(getcwd, cwd = getcwd(NULL, 0));
    free(cwd);
}

static void directories(void)
{
    DIR *d = NULL;
    int fd = -1;
    CALL_PTR(opendir, opendir("file"));
    CALL_PTR(opendir, opendir("missing"));
    CALL_PTR(opendir, opendir(""));
    CALL_PTR(opendir, opendir(longpath));
    CALL_PTR(fdopendir, fdopendir(-1));
    CALL_PTR(fdopendir, fdopendir(12345));
    CALL_FD(open, fd = open("file", O_RDONLY));
    CALL_PTR(fdopendir, fdopendir(fd));
    CALL(close, close(fd));
    CALL(closedir, closedir(NIL));
    CALL_PTR(opendir, d = opendir("dir"));
    int entries = 0;
    for (;;) {
        struct dirent *e;
        CALL_PTR(readdir, e = readdir(d));
        if (!e || ++entries > 8)
            break;
    }
    CALL_PTR(readdir, readdir(d));
    CALL(closedir, closedir(d));
}

static void streams(void)
{
    FILE *r = NULL, *w = NULL, *f = NULL;
    int fd = -1;
    CALL_PTR(fopen, fopen(NIL, "r"));
    CALL_PTR(fopen, fopen("", "r"));
    CALL_PTR(fopen, fopen("missing", "r"));
    CALL_PTR(fopen, fopen("dir", "w"));
    CALL_PTR(fopen, fopen("file/sub", "r"));
    CALL_PTR(fopen, fopen("file", "z"));
    CALL_PTR(fopen, fopen("file", ""));
    CALL_PTR(fopen, fopen(longpath, "r"));
    CALL_PTR(fopen64, fopen64("missing", "r"));
    CALL_PTR(fdopen, fdopen(-1, "r"));
    CALL_PTR(fdopen, fdopen(12345, "r"));
    CALL_FD(open, fd = open("file", O_RDONLY));
    CALL_PTR(fdopen, fdopen(fd, "w"));
    CALL_PTR(fdopen, fdopen(fd, "q"));
    CALL(close, close(fd));
    CALL_PTR(fopen, r = fopen("file", "r"));
    CALL_PTR(fopen, w = fopen("stream-out", "w"));
    CALL(fseek, fseek(r, 0, 99));
    CALL(fseek, fseek(r, -10, SEEK_SET));
    CALL(fseek, fseek(r, 2, SEEK_SET));
    CALL(ftell, ftell(r));
    CALL(fseeko, fseeko(r, -1, SEEK_SET));
    CALL(fseeko, fseeko(r, 0, 1234));
    CALL(ftello, ftello(r));
    CALL(fseeko64, fseeko64(r, -1, SEEK_CUR));
    CALL(ftello64, ftello64(r));
    CALL(fread, fread(buf, 0, 10, r));
    CALL(fread, fread(buf, 10, 0, r));
    CALL(fread, fread(buf, 1, 4, r));
    CALL(fread, fread(buf, 1, 4, w));
    CALL(fwrite, fwrite("abc", 0, 3, w));
    CALL(fwrite, fwrite("abc", 1, 3, r));
    CALL(fwrite, fwrite("abc", 1, 3, w));
    CALL_PTR(fgets, fgets(buf, 0, r));
    CALL_PTR(fgets, fgets(buf, 1, r));
    CALL_PTR(fgets, fgets(buf, 10, w));
    CALL_PTR(fgets, fgets(buf, sizeof buf, r));
    CALL_PTR(fgets, fgets(buf, sizeof buf, r));
    CALL(fgetc, fgetc(r));
    CALL(fgetc, fgetc(w));
    CALL(fputc, fputc('x', r));
    CALL(fputc, fputc('x', w));
    CALL(fputs, fputs("xy", r));
    CALL(fputs, fputs("", w));
    CALL(fprintf, fprintf(r, "%d", 42));
    CALL(fprintf, fprintf(w, "%s", ""));
    CALL(fprintf, fprintf(w, "%d\n", 42));
    CALL(fflush, fflush(r));
    CALL(fflush, fflush(w));
    CALL(fflush, fflush(NULL));
    errno = 0;
    rewind(r);
    put("rewind", 0, errno);
    CALL(ftell, ftell(r));
    CALL(fclose, fclose(w));
    CALL(fclose, fclose(r));
    /* after fclose: more calls, new streams reuse the freed FILE memory */
    CALL_PTR(fopen, f = fopen("stream-out", "r"));
    CALL(fread, fread(buf, 1, sizeof buf, f));
    CALL(fgetc, fgetc(f));
    CALL_PTR(freopen, freopen(NIL, "r", f));
    CALL(fclose, fclose(f));
    CALL_PTR(fopen, f = fopen("stream-out", "a"));
    CALL_PTR(freopen, freopen("missing", "r", f)); /* fails and closes f: f is gone */
}

/* Calls that crash the traced program but not the untraced one. */
static void known_bugs(void)
{
    int fd = -1;
    struct iovec one[1] = {{buf, 1}};
    CALL_FD(open, fd = open("file", O_RDONLY));
    /* iovcnt above IOV_MAX with a short array: libc says EINVAL, the
     * tracer reads iovcnt iovecs to record their lengths. */
    CALL(readv, readv(fd, one, far_too_many));
    CALL(writev, writev(fd, one, far_too_many));
    CALL(close, close(fd));
}

int main(int argc, char **argv)
{
    if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "--known-bugs") != 0)) {
        fprintf(stderr, "usage: %s RESULTS SCRATCH_DIR COUNTS [--known-bugs]\n", argv[0]);
        return 2;
    }
    int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int counts_out = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || counts_out < 0) {
        perror("bad_inputs: cannot create the output files");
        return 1;
    }
    count("open");
    count("open");
    fd_base = out;
    memset(longpath, 'a', sizeof longpath - 1);

    CALL(chdir, chdir(argv[2]));
    CALL(mkdir, mkdir("dir", 0755));
    int inner = -1;
    CALL_FD(creat, inner = creat("dir/inner", 0644));
    CALL(close, close(inner));
    CALL(symlink, symlink("file", "link"));

    fds_and_data();
    metadata();
    directories();
    streams();
    if (argc == 5)
        known_bugs();

    /* the final write() and close() of both output files */
    count("write");
    count("write");
    count("close");
    count("close");
    char line[64];
    size_t counts_len = 0;
    static char counts_text[sizeof counters / sizeof *counters * 48];
    for (size_t i = 0; i < ncounters; i++) {
        int n = snprintf(line, sizeof line, "%s %u\n", counters[i].name, counters[i].n);
        memcpy(counts_text + counts_len, line, (size_t)n);
        counts_len += (size_t)n;
    }
    if (write_all(out, results, results_len) != 0 || write_all(counts_out, counts_text, counts_len) != 0 ||
        close(out) != 0 || close(counts_out) != 0) {
        perror("bad_inputs: writing the results");
        return 1;
    }
    return 0;
}
