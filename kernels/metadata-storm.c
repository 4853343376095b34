/* metadata-storm: an mdtest-like POSIX metadata workload. Every rank works in
 * its own tree OUTDIR/rank.<r>/dir.<d>/ and creates many small files
 * (open/write/close), stats them (stat, access), renames every 4th, adds
 * hard links (link) and symbolic links (symlink, readlink, lstat), lists the
 * directories (opendir/readdir/closedir), truncates every 5th file, verifies
 * every file's contents and size, then unlinks everything and removes the
 * tree (rmdir), checking with access() that it is gone. */
#include "kernel_common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char SUMMARY[] =
    "mdtest-like POSIX metadata: mkdir, create, stat, rename, link, symlink, readdir, truncate, unlink, rmdir.";

typedef struct {
    int files;     /* per rank */
    int dirs;      /* per rank */
    int file_size; /* base size; file i has file_size + (i % 7) * 64 bytes */
} storm_options;

/* Which files get which treatment; fixed by the file index. */
static bool is_renamed(int i) { return i % 4 == 3; }
static bool has_hard_link(int i) { return i % 8 == 0; }
static bool has_symlink(int i) { return i % 8 == 1; }
static bool is_truncated(int i) { return i % 5 == 2; }

typedef struct {
    const storm_options *opt;
    char root[KERNEL_PATH_MAX];
    unsigned char *buf, *expected;
} storm;

static int dir_of(const storm *s, int i) { return i % s->opt->dirs; }

static size_t original_size(const storm *s, int i)
{
    return (size_t)s->opt->file_size + (size_t)(i % 7) * 64;
}

static size_t final_size(const storm *s, int i)
{
    return is_truncated(i) ? original_size(s, i) / 2 : original_size(s, i);
}

static void fill_contents(unsigned char *buf, size_t n, int i)
{
    kernel_fill_bytes(buf, n, kernel_hash((uint64_t)kernel.rank, (uint64_t)i, 0x3D), 0);
}

static void join(char *out, const char *dir, const char *fmt, int a)
{
    char name[64];
    snprintf(name, sizeof name, fmt, a);
    if (snprintf(out, KERNEL_PATH_MAX, "%s/%s", dir, name) >= KERNEL_PATH_MAX)
        kernel_fail("path under %s is too long", dir);
}

static void dir_path(const storm *s, int d, char *out)
{
    join(out, s->root, "dir.%d", d);
}

/* Path of file i under its name before (renamed = false) or after the rename. */
static void file_path(const storm *s, int i, bool after_rename, char *out)
{
    char dir[KERNEL_PATH_MAX];
    dir_path(s, dir_of(s, i), dir);
    join(out, dir, after_rename && is_renamed(i) ? "file.%d.renamed" : "file.%d", i);
}

static void sibling_path(const storm *s, int i, const char *fmt, char *out)
{
    char dir[KERNEL_PATH_MAX];
    dir_path(s, dir_of(s, i), dir);
    join(out, dir, fmt, i);
}

static void make_dir(const char *path)
{
    if (KIO(mkdir, path, 0755) != 0)
        kernel_fail_errno("mkdir %s failed", path);
}

static void expect_stat(const char *path, const struct stat *st, size_t size, const char *via)
{
    if (!S_ISREG(st->st_mode) || (size_t)st->st_size != size)
        kernel_fail("%s of %s: %lld bytes (regular=%d), expected a regular file of %zu bytes", via, path,
                    (long long)st->st_size, S_ISREG(st->st_mode) ? 1 : 0, size);
}

static void create_tree(storm *s)
{
    char path[KERNEL_PATH_MAX];
    make_dir(s->root);
    for (int d = 0; d < s->opt->dirs; d++) {
        dir_path(s, d, path);
        make_dir(path);
    }
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, false, path);
        fill_contents(s->buf, original_size(s, i), i);
        int fd = kio_open(path, O_CREAT | O_WRONLY | O_EXCL, 0644);
        kio_write_exact(fd, s->buf, original_size(s, i), path);
        kio_close(fd, path);
    }
}

static void stat_and_rename(storm *s)
{
    char path[KERNEL_PATH_MAX], renamed[KERNEL_PATH_MAX];
    struct stat st;
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, false, path);
        if (KIO(stat, path, &st) != 0)
            kernel_fail_errno("stat %s failed", path);
        expect_stat(path, &st, original_size(s, i), "stat");
        if (KIO(access, path, R_OK | W_OK) != 0)
            kernel_fail_errno("access %s failed", path);
    }
    for (int i = 0; i < s->opt->files; i++) {
        if (!is_renamed(i))
            continue;
        file_path(s, i, false, path);
        file_path(s, i, true, renamed);
        if (KIO(rename, path, renamed) != 0)
            kernel_fail_errno("rename %s failed", path);
        if (KIO(lstat, renamed, &st) != 0)
            kernel_fail_errno("lstat %s failed", renamed);
        expect_stat(renamed, &st, original_size(s, i), "lstat");
    }
}

static void make_links(storm *s)
{
    char target[KERNEL_PATH_MAX], link_path[KERNEL_PATH_MAX], got[KERNEL_PATH_MAX];
    struct stat st;
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, true, target);
        if (has_hard_link(i)) {
            sibling_path(s, i, "hardlink.%d", link_path);
            if (KIO(link, target, link_path) != 0)
                kernel_fail_errno("link %s failed", link_path);
            if (KIO(stat, link_path, &st) != 0)
                kernel_fail_errno("stat %s failed", link_path);
            if (st.st_nlink != 2)
                kernel_fail("%s has %lu links, expected 2", link_path, (unsigned long)st.st_nlink);
        }
        if (has_symlink(i)) {
            /* A relative target, as tools usually create inside one directory. */
            const char *name = strrchr(target, '/') + 1;
            sibling_path(s, i, "symlink.%d", link_path);
            if (KIO(symlink, name, link_path) != 0)
                kernel_fail_errno("symlink %s failed", link_path);
            ssize_t n = KIO(readlink, link_path, got, sizeof got - 1);
            if (n < 0)
                kernel_fail_errno("readlink %s failed", link_path);
            got[n] = '\0';
            if (strcmp(got, name) != 0)
                kernel_fail("readlink %s gave '%s', expected '%s'", link_path, got, name);
            if (KIO(lstat, link_path, &st) != 0 || !S_ISLNK(st.st_mode))
                kernel_fail("lstat %s does not show a symbolic link", link_path);
            if (KIO(stat, link_path, &st) != 0)
                kernel_fail_errno("stat through %s failed", link_path);
            expect_stat(link_path, &st, original_size(s, i), "stat through symlink");
        }
    }
}

/* Lists every directory and checks the number of entries (dot entries aside). */
static void list_directories(storm *s)
{
    char path[KERNEL_PATH_MAX];
    for (int d = 0; d < s->opt->dirs; d++) {
        int expected = 0;
        for (int i = d; i < s->opt->files; i += s->opt->dirs)
            expected += 1 + has_hard_link(i) + has_symlink(i);
        dir_path(s, d, path);
        DIR *dir = KIO(opendir, path);
        if (!dir)
            kernel_fail_errno("opendir %s failed", path);
        int found = 0;
        struct dirent *entry;
        while ((entry = KIO(readdir, dir)) != NULL)
            if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
                found++;
        if (KIO(closedir, dir) != 0)
            kernel_fail_errno("closedir %s failed", path);
        if (found != expected)
            kernel_fail("%s lists %d entries, expected %d", path, found, expected);
    }
}

static void truncate_and_verify(storm *s)
{
    char path[KERNEL_PATH_MAX];
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, true, path);
        if (is_truncated(i) && KIO(truncate, path, (off_t)final_size(s, i)) != 0)
            kernel_fail_errno("truncate %s failed", path);
    }
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, true, path);
        size_t size = final_size(s, i);
        int fd = kio_open(path, O_RDONLY, 0);
        /* Asking for one byte more than expected detects a file too long. */
        long long got = KIO_XFER(read, fd, s->buf, size + 1);
        if (got != (long long)size)
            kernel_fail("read %lld bytes from %s, expected %zu", got, path, size);
        kio_close(fd, path);
        fill_contents(s->expected, size, i);
        kernel_check_equal(s->buf, s->expected, size, 1, "rank.%d/dir.%d/file.%d", kernel.rank, dir_of(s, i), i);
    }
}

static void remove_path(const char *path)
{
    if (KIO(unlink, path) != 0)
        kernel_fail_errno("unlink %s failed", path);
}

static void remove_tree(storm *s)
{
    char path[KERNEL_PATH_MAX];
    for (int i = 0; i < s->opt->files; i++) {
        file_path(s, i, true, path);
        remove_path(path);
        if (has_hard_link(i)) {
            sibling_path(s, i, "hardlink.%d", path);
            remove_path(path);
        }
        if (has_symlink(i)) {
            sibling_path(s, i, "symlink.%d", path);
            remove_path(path);
        }
    }
    for (int d = 0; d < s->opt->dirs; d++) {
        dir_path(s, d, path);
        if (KIO(rmdir, path) != 0)
            kernel_fail_errno("rmdir %s failed", path);
    }
    if (KIO(rmdir, s->root) != 0)
        kernel_fail_errno("rmdir %s failed", s->root);
    if (KIO(access, s->root, F_OK) == 0 || errno != ENOENT)
        kernel_fail("%s still exists after removal", s->root);
}

int main(int argc, char **argv)
{
    storm_options opt = {.files = 32, .dirs = 4, .file_size = 256};
    const kernel_option options[] = {
        KOPT_INT_OPT("--files", &opt.files, 1, "small files per rank"),
        KOPT_INT_OPT("--dirs", &opt.dirs, 1, "directories per rank (files spread round-robin)"),
        KOPT_INT_OPT("--file-size", &opt.file_size, 2, "base file size in bytes (file i adds (i%7)*64)"),
    };
    kernel_init(&argc, &argv, "metadata-storm", SUMMARY, options, KOPT_COUNT(options));

    storm s = {.opt = &opt};
    kernel_path(s.root, "rank.%d", kernel.rank);
    size_t max_size = original_size(&s, 6) + 1;
    s.buf = kernel_alloc(max_size);
    s.expected = kernel_alloc(max_size);

    create_tree(&s);
    stat_and_rename(&s);
    make_links(&s);
    list_directories(&s);
    truncate_and_verify(&s);
    remove_tree(&s);

    free(s.buf);
    free(s.expected);
    return kernel_finish();
}
