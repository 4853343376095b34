/* mdtest_like: the POSIX metadata phases of mdtest, run twice as
 *   mdtest -n 10 -F -z 2 -b 2 -u -d OUTDIR/unique   (a private tree per rank)
 *   mdtest -n 10 -F -z 2 -b 2 -d OUTDIR/shared      (one tree, all ranks' files)
 * The tree has depth 2 and branching factor 2: mdtest_tree.0 holds
 * mdtest_tree.1 and .2, which hold .3/.4 and .5/.6 (7 directories). Each rank
 * creates 10 files, file i in directory i % 7, named file.mdtest.<rank>.<i>,
 * as mdtest's create phase does (the unique run with creat(), as mdtest's old
 * POSIX path did, the shared run with open(O_CREAT|O_WRONLY) + close, as its
 * aiori-POSIX backend does); then the stat phase (stat of every file), a
 * listing of the tree (opendir/readdir/closedir of each directory, counting
 * the entries), the removal phase (unlink) and the tree removal (rmdir, leaves
 * first). Phases are separated by MPI_Barrier, as mdtest times each phase.
 * In the shared run rank 0 makes and removes the tree (mdtest's
 * create/remove_directory_tree on rank 0) and every rank lists its own files'
 * directories only after the barrier, so every listing sees all ranks'
 * files. */
#include "corpus.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

enum { ITEMS = 10, DEPTH = 2, BRANCH = 2, DIRS = 1 + BRANCH + BRANCH * BRANCH };

/* Directory d of the tree rooted at `base`: mdtest_tree.0[/mdtest_tree.<p>]/mdtest_tree.<d>. */
static void tree_dir(char *out, const char *base, int d)
{
    int chain[DEPTH + 1], n = 0;
    for (int x = d;; x = (x - 1) / BRANCH) {
        chain[n++] = x;
        if (x == 0)
            break;
    }
    int len = snprintf(out, CORPUS_PATH_MAX, "%s", base);
    for (int i = n - 1; i >= 0; i--)
        len += snprintf(out + len, (size_t)(CORPUS_PATH_MAX - len), "/mdtest_tree.%d", chain[i]);
    if (len >= CORPUS_PATH_MAX)
        corpus_fail("path under %s is too long", base);
}

static void item_path(char *out, const char *base, int rank, int i)
{
    char dir[CORPUS_PATH_MAX];
    tree_dir(dir, base, i % DIRS);
    if (snprintf(out, CORPUS_PATH_MAX, "%s/file.mdtest.%d.%d", dir, rank, i) >= CORPUS_PATH_MAX)
        corpus_fail("path under %s is too long", dir);
}

static void make_tree(const char *base)
{
    char dir[CORPUS_PATH_MAX];
    for (int d = 0; d < DIRS; d++) { /* parents before children */
        tree_dir(dir, base, d);
        if (mkdir(dir, 0755) != 0)
            corpus_fail("mkdir %s: %s", dir, strerror(errno));
    }
}

static void remove_tree(const char *base)
{
    char dir[CORPUS_PATH_MAX];
    for (int d = DIRS - 1; d >= 0; d--) { /* children before parents */
        tree_dir(dir, base, d);
        if (rmdir(dir) != 0)
            corpus_fail("rmdir %s: %s", dir, strerror(errno));
    }
}

/* The files of directory d a listing must find: this rank's, or all ranks'. */
static int files_in(int d, int ranks)
{
    int n = 0;
    for (int i = 0; i < ITEMS; i++)
        n += i % DIRS == d;
    return n * ranks;
}

static void list_tree(const char *base, int ranks)
{
    char dir[CORPUS_PATH_MAX];
    for (int d = 0; d < DIRS; d++) {
        tree_dir(dir, base, d);
        DIR *dp = opendir(dir);
        if (!dp)
            corpus_fail("opendir %s: %s", dir, strerror(errno));
        int files = 0, subdirs = 0;
        struct dirent *e;
        while ((e = readdir(dp)) != NULL) {
            if (strncmp(e->d_name, "file.mdtest.", 12) == 0)
                files++;
            else if (strncmp(e->d_name, "mdtest_tree.", 12) == 0)
                subdirs++;
        }
        if (closedir(dp) != 0)
            corpus_fail("closedir %s: %s", dir, strerror(errno));
        int want_subdirs = d < 1 + BRANCH ? BRANCH : 0;
        if (files != files_in(d, ranks) || subdirs != want_subdirs)
            corpus_fail("%s lists %d files and %d directories, expected %d and %d", dir, files, subdirs,
                        files_in(d, ranks), want_subdirs);
    }
}

/* One mdtest run: tree, create, stat, list, remove, tree removal. */
static void mdtest(const char *base, int unique)
{
    char path[CORPUS_PATH_MAX];
    int ranks = unique ? 1 : corpus_size;
    if (unique || corpus_rank == 0)
        make_tree(base);
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < ITEMS; i++) { /* file create phase */
        item_path(path, base, corpus_rank, i);
        int fd = unique ? creat(path, 0644) : open(path, O_CREAT | O_WRONLY, 0644);
        if (fd < 0)
            corpus_fail("%s %s: %s", unique ? "creat" : "open", path, strerror(errno));
        if (close(fd) != 0)
            corpus_fail("close %s: %s", path, strerror(errno));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < ITEMS; i++) { /* file stat phase */
        struct stat st;
        item_path(path, base, corpus_rank, i);
        if (stat(path, &st) != 0)
            corpus_fail("stat %s: %s", path, strerror(errno));
        if (!S_ISREG(st.st_mode) || st.st_size != 0)
            corpus_fail("stat %s: not an empty regular file", path);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    list_tree(base, ranks);
    MPI_Barrier(MPI_COMM_WORLD);

    for (int i = 0; i < ITEMS; i++) { /* file removal phase */
        item_path(path, base, corpus_rank, i);
        if (unlink(path) != 0)
            corpus_fail("unlink %s: %s", path, strerror(errno));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (unique || corpus_rank == 0)
        remove_tree(base);
    MPI_Barrier(MPI_COMM_WORLD);
}

int main(int argc, char **argv)
{
    char top[CORPUS_PATH_MAX], base[CORPUS_PATH_MAX];
    corpus_init(&argc, &argv, "mdtest_like");

    /* -u: OUTDIR/unique/test.<rank>/ per rank, made by its rank. */
    corpus_path(top, "unique");
    if (corpus_rank == 0 && mkdir(top, 0755) != 0)
        corpus_fail("mkdir %s: %s", top, strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);
    corpus_path(base, "unique/test.%d", corpus_rank);
    if (mkdir(base, 0755) != 0)
        corpus_fail("mkdir %s: %s", base, strerror(errno));
    mdtest(base, 1);
    if (rmdir(base) != 0)
        corpus_fail("rmdir %s: %s", base, strerror(errno));

    /* The shared tree: OUTDIR/shared, made by rank 0. */
    corpus_path(base, "shared");
    if (corpus_rank == 0 && mkdir(base, 0755) != 0)
        corpus_fail("mkdir %s: %s", base, strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);
    mdtest(base, 0);
    return corpus_finish();
}
