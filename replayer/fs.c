/* fs.c: re-rooting, the symlink guard and mkdir -p, on raw system calls
 * (see fs.h for why). */
#define _GNU_SOURCE
#include "fs.h"
#include "recorder_facts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef SYS_newfstatat
#define RP_SYS_FSTATAT SYS_newfstatat
#else
#define RP_SYS_FSTATAT SYS_fstatat64
#endif

ssize_t rp_sys_read(int fd, void *buf, size_t n)
{
    return (ssize_t)syscall(SYS_read, fd, buf, n);
}

ssize_t rp_sys_write(int fd, const void *buf, size_t n)
{
    return (ssize_t)syscall(SYS_write, fd, buf, n);
}

/* All n bytes, through interruptions and short transfers; 0, or -1 at an
 * error or end of file. */
static int transfer_all(int fd, char *p, size_t n, int writing)
{
    while (n) {
        ssize_t k = writing ? rp_sys_write(fd, p, n) : rp_sys_read(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int rp_sys_write_all(int fd, const void *buf, size_t n)
{
    return transfer_all(fd, (char *)buf, n, 1);
}

int rp_sys_read_all(int fd, void *buf, size_t n)
{
    return transfer_all(fd, buf, n, 0);
}

int rp_sys_close(int fd)
{
    return (int)syscall(SYS_close, fd);
}

int rp_sys_getcwd(char *buf, size_t cap)
{
    return syscall(SYS_getcwd, buf, cap) < 0 ? -1 : 0;
}

static int sys_lstat(const char *path, struct stat *st)
{
    return (int)syscall(RP_SYS_FSTATAT, AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}

int rp_sys_kind(const char *path)
{
    struct stat st;
    if (sys_lstat(path, &st) != 0)
        return 0;
    if (S_ISREG(st.st_mode))
        return 1;
    if (S_ISDIR(st.st_mode))
        return 2;
    return S_ISLNK(st.st_mode) ? 3 : 4;
}

int rp_sys_make_file(const char *path, int64_t size)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    struct stat st;
    int rc = (int)syscall(SYS_fstat, fd, &st);
    if (rc == 0 && st.st_size != (off_t)size)
        rc = (int)syscall(SYS_ftruncate, fd, (off_t)size);
    rp_sys_close(fd);
    return rc;
}

int rp_sys_write_head(const char *path, const unsigned char *bytes, size_t len)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < len) {
        long n = syscall(SYS_pwrite64, fd, bytes + done, len - done, (off_t)done);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            break;
        done += n > 0 ? (size_t)n : 0;
    }
    rp_sys_close(fd);
    return done == len ? 0 : -1;
}


int rp_sys_make_text(const char *path, int64_t size, const int64_t *at, size_t n, int delim)
{
    int fd =
        (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    static char chunk[65536];
    int rc = 0;
    size_t first = 0; /* at is ascending: each chunk gets its own delimiters */
    for (int64_t done = 0; done < size && rc == 0;) {
        int64_t len = size - done < (int64_t)sizeof chunk ? size - done : (int64_t)sizeof chunk;
        size_t last = first;
        while (last < n && at[last] < done + len)
            last++;
        rf_lines_fill(chunk, len, at + first, last - first, done, delim);
        first = last;
        rc = rp_sys_write_all(fd, chunk, (size_t)len);
        done += len;
    }
    rp_sys_close(fd);
    return rc;
}

int rp_sys_make_link(const char *path, const char *target)
{
    if (rp_sys_kind(path) != 0)
        return rp_sys_kind(path) == 3 ? 0 : -1;
    return syscall(SYS_symlinkat, target, AT_FDCWD, path) < 0 ? -1 : 0;
}

static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

/* Walks full from prefix down; a symlink restarts the walk at its
 * (normalized) destination, which must stay under prefix. */
int rp_safe(const char *prefix, const char *full)
{
    char cur[4096], rest[4096];
    if (!under(full, prefix))
        return -1;
    snprintf(cur, sizeof cur, "%s", prefix);
    snprintf(rest, sizeof rest, "%s", full + strlen(prefix));
    for (int links = 0; links < 40;) {
        const char *p = rest;
        while (*p == '/')
            p++;
        if (!*p)
            return 0;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char cand[4096];
        if (snprintf(cand, sizeof cand, "%s/%.*s", cur, (int)len, p) >= (int)sizeof cand)
            return -1;
        const char *after = p + len;
        struct stat st;
        if (sys_lstat(cand, &st) != 0)
            return 0; /* what does not exist yet is created inside cur */
        if (!S_ISLNK(st.st_mode)) {
            snprintf(cur, sizeof cur, "%s", cand);
            memmove(rest, after, strlen(after) + 1);
            continue;
        }
        char target[4096];
        long k = syscall(SYS_readlinkat, AT_FDCWD, cand, target, sizeof target - 1);
        if (k < 0)
            return -1;
        target[k] = 0;
        char joined[8300], dest[4096];
        if (target[0] == '/')
            snprintf(joined, sizeof joined, "%s%s", target, after);
        else
            snprintf(joined, sizeof joined, "%s/%s%s", cur, target, after);
        if (rf_path_normalize(joined, dest, sizeof dest, RF_PATH_ROOTED | RF_PATH_ESCAPE_FAILS) != 0 || !under(dest, prefix))
            return -1;
        snprintf(cur, sizeof cur, "%s", prefix);
        snprintf(rest, sizeof rest, "%s", dest + strlen(prefix));
        links++;
    }
    return -1; /* a loop of links */
}

int rp_mkdirs(const char *prefix, const char *dir)
{
    char tmp[4096];
    if (!under(dir, prefix) || snprintf(tmp, sizeof tmp, "%s", dir) >= (int)sizeof tmp)
        return -1;
    size_t start = strlen(prefix);
    for (size_t i = start + 1; tmp[i]; i++) {
        if (tmp[i] != '/')
            continue;
        tmp[i] = 0;
        if (syscall(SYS_mkdirat, AT_FDCWD, tmp, 0755) != 0 && errno != EEXIST)
            return -1;
        tmp[i] = '/';
    }
    if (strlen(tmp) > start && syscall(SYS_mkdirat, AT_FDCWD, tmp, 0755) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

char *rp_sys_read_text(const char *path, size_t max)
{
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *text = malloc(max + 1);
    size_t len = 0;
    ssize_t got = 0;
    while (text && len < max && (got = rp_sys_read(fd, text + len, max - len)) > 0)
        len += (size_t)got;
    int saved = errno;
    rp_sys_close(fd);
    if (!text || got < 0 || len == max) {
        free(text);
        errno = got < 0 ? saved : EFBIG;
        return NULL;
    }
    text[len] = 0;
    return text;
}
