/* dir_tree: a POSIX reader of a directory tree made before the run, the way
 * archivers, indexers and input-deck readers walk their input.
 *   mpiexec -np N dir_tree --setup OUTDIR   (untraced: makes OUTDIR/tree)
 *   mpiexec -np N dir_tree OUTDIR
 * The setup (rank 0) makes tree/ with nested directories a/b/c, files of
 * various sizes (0 to 70000 bytes), two empty notes (*.skip) the walk only
 * counts (the listing is all the trace shows of them),
 * a symbolic link to a file (link_file -> a/one.dat) and one to a directory
 * (link_dir -> a/b). In the run rank 0 walks the tree: opendir/readdir/
 * closedir, lstat of every entry, readlink of the links, stat through them,
 * open/read/close of every regular file but the notes, checking what it
 * finds against what the setup made; the other ranks each read one file,
 * one of them through link_file, another through link_dir. */
#include "corpus.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

typedef struct tree_file {
    const char *path;
    int size;
} tree_file;

static const char *const tree_dirs[] = {"tree", "tree/a", "tree/a/b", "tree/a/b/c", "tree/empty"};
static const tree_file tree_files[] = {
    {"tree/top.dat", 1000},      {"tree/a/one.dat", 4096},       {"tree/a/b/two.dat", 123},
    {"tree/a/b/c/three.dat", 0}, {"tree/a/b/c/four.dat", 70000}, {"tree/notes.skip", 0},
    {"tree/a/b/more.skip", 0},
};
static const struct {
    const char *path, *target;
} tree_links[] = {{"tree/link_file", "a/one.dat"}, {"tree/link_dir", "a/b"}};
enum { NDIRS = 5, NFILES = 7, NLINKS = 2, NSKIPPED = 2 };

static void make_tree(const char *outdir)
{
    char path[CORPUS_PATH_MAX];
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    for (int i = 0; i < NDIRS; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, tree_dirs[i]);
        if (mkdir(path, 0755) != 0)
            corpus_fail("mkdir %s: %s", path, strerror(errno));
    }
    static char data[70000];
    memset(data, 'x', sizeof data);
    for (int i = 0; i < NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, tree_files[i].path);
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0 || write(fd, data, (size_t)tree_files[i].size) != tree_files[i].size || close(fd) != 0)
            corpus_fail("writing %s: %s", path, strerror(errno));
    }
    for (int i = 0; i < NLINKS; i++) {
        snprintf(path, sizeof path, "%s/%s", outdir, tree_links[i].path);
        if (symlink(tree_links[i].target, path) != 0)
            corpus_fail("symlink %s: %s", path, strerror(errno));
    }
}

/* The bytes a read to the end finds. */
static long read_all(const char *path)
{
    static char buf[16384];
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    long total = 0;
    ssize_t got;
    while ((got = read(fd, buf, sizeof buf)) > 0)
        total += got;
    if (got < 0 || close(fd) != 0)
        corpus_fail("reading %s: %s", path, strerror(errno));
    return total;
}

typedef struct walk_counts {
    int dirs, files, links, skipped;
    long bytes;
} walk_counts;

static void walk(const char *dir, walk_counts *n)
{
    DIR *d = opendir(dir);
    if (!d)
        corpus_fail("opendir %s: %s", dir, strerror(errno));
    n->dirs++;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[CORPUS_PATH_MAX], target[CORPUS_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".skip")) {
            n->skipped++; /* listed, never opened */
            continue;
        }
        struct stat st;
        if (lstat(path, &st) != 0)
            corpus_fail("lstat %s: %s", path, strerror(errno));
        if (S_ISLNK(st.st_mode)) {
            ssize_t k = readlink(path, target, sizeof target - 1);
            if (k <= 0 || k != st.st_size)
                corpus_fail("readlink %s: %zd bytes, lstat said %lld", path, k, (long long)st.st_size);
            if (stat(path, &st) != 0)
                corpus_fail("stat %s: %s", path, strerror(errno));
            n->links++;
        } else if (S_ISDIR(st.st_mode)) {
            walk(path, n);
        } else {
            long got = read_all(path);
            if (got != st.st_size)
                corpus_fail("%s: read %ld bytes, lstat said %lld", path, got, (long long)st.st_size);
            n->files++;
            n->bytes += got;
        }
    }
    if (closedir(d) != 0)
        corpus_fail("closedir %s: %s", dir, strerror(errno));
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_tree))
        return 0;
    corpus_init(&argc, &argv, "dir_tree");
    char path[CORPUS_PATH_MAX];
    if (corpus_rank == 0) {
        walk_counts n = {0};
        corpus_path(path, "tree");
        walk(path, &n);
        long bytes = 0;
        for (int i = 0; i < NFILES - NSKIPPED; i++)
            bytes += tree_files[i].size;
        if (n.dirs != NDIRS || n.files != NFILES - NSKIPPED || n.links != NLINKS || n.skipped != NSKIPPED ||
            n.bytes != bytes)
            corpus_fail(
                "the walk found %d directories, %d files (%ld bytes), %d links, %d notes; expected %d, "
                "%d (%ld), %d, %d",
                n.dirs, n.files, n.bytes, n.links, n.skipped, NDIRS, NFILES - NSKIPPED, bytes, NLINKS,
                NSKIPPED);
    } else {
        static const char *const reads[] = {"tree/link_file", "tree/link_dir/two.dat", "tree/a/b/c/four.dat"};
        static const long sizes[] = {4096, 123, 70000};
        int i = (corpus_rank - 1) % 3;
        corpus_path(path, "%s", reads[i]);
        long got = read_all(path);
        if (got != sizes[i])
            corpus_fail("%s: read %ld bytes, expected %ld", path, got, sizes[i]);
    }
    return corpus_finish();
}
