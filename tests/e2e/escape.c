/* escape: a program whose files all lie outside its working directory, so
 * that a kernel generated from its trace, or a replay of it, shows whether
 * it keeps every path under its own OUTDIR (or prefix).
 *   mpirun -np N escape SENTINEL CLIMB [--renamed-link]
 * SENTINEL is an absolute directory, CLIMB a relative path from the working
 * directory to the same directory ("../../../sentinel"). Each rank writes
 * there through a ".." chain, a chain that climbs past "/", absolute paths,
 * symbolic links made in the working directory (an absolute target and a
 * relative one, both pointing at SENTINEL), and renames, links, unlinks and
 * makes directories there; it also writes /dev/null and reads
 * /proc/self/stat. Rank 0 unlinks SENTINEL/victim, which must exist.
 * --renamed-link does only this instead: a relative link made in a
 * subdirectory, pointing at ./x, is renamed into the working directory,
 * where it points at ../../x (which must exist), and written through; only
 * a kernel that checks links when it uses them can see that one lead out.
 * Every call is checked: a failure ends the run with a message. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH 8192

static int rank;

static void check(int ok, const char *what, const char *path)
{
    if (!ok) {
        fprintf(stderr, "escape: rank %d: %s %s failed: %s\n", rank, what, path, strerror(errno));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Writes n bytes to a new file at path, with open, write and close. */
static void write_file(const char *path, size_t n)
{
    static const char data[256] = "escape";
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    check(fd >= 0, "open", path);
    check(write(fd, data, n) == (ssize_t)n, "write", path);
    check(close(fd) == 0, "close", path);
}

/* A link that leads out only once renamed: deep.R/d/up -> ../../x is ./x,
 * up.R -> ../../x is two levels above the working directory. */
static void renamed_link(void)
{
    char p[PATH], q[PATH];
    snprintf(p, sizeof p, "deep.%d", rank);
    check(mkdir(p, 0755) == 0, "mkdir", p);
    snprintf(p, sizeof p, "deep.%d/d", rank);
    check(mkdir(p, 0755) == 0, "mkdir", p);
    snprintf(p, sizeof p, "deep.%d/d/up", rank);
    check(symlink("../../x", p) == 0, "symlink", p);
    snprintf(q, sizeof q, "up.%d", rank);
    check(rename(p, q) == 0, "rename", p);
    snprintf(p, sizeof p, "up.%d/through_renamed.%d", rank, rank);
    write_file(p, 180);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 3 || argc > 4 || argv[1][0] != '/' || (argc == 4 && strcmp(argv[3], "--renamed-link"))) {
        fprintf(stderr,
                "usage: escape SENTINEL CLIMB [--renamed-link] (SENTINEL absolute, CLIMB relative to it)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const char *abs = argv[1], *climb = argv[2];
    char p[PATH], q[PATH], past_root[PATH];
    if (argc == 4) {
        renamed_link();
        MPI_Finalize();
        return 0;
    }
    /* a ".." chain far longer than the working directory is deep: "/" stops it */
    int n = 0;
    for (int i = 0; i < 40; i++)
        n += snprintf(past_root + n, sizeof past_root - n, "../");
    snprintf(past_root + n, sizeof past_root - n, "%s", abs + 1);

    snprintf(p, sizeof p, "%s/climb.%d", climb, rank);
    write_file(p, 100);
    snprintf(p, sizeof p, "%s/past_root.%d", past_root, rank);
    write_file(p, 110);
    snprintf(p, sizeof p, "%s/absolute.%d", abs, rank);
    write_file(p, 120);
    snprintf(p, sizeof p, "%s/stream.%d", abs, rank);
    FILE *f = fopen(p, "w");
    check(f != NULL, "fopen", p);
    check(fwrite("stream", 1, 6, f) == 6, "fwrite", p);
    check(fclose(f) == 0, "fclose", p);

    snprintf(p, sizeof p, "%s/dir.%d", climb, rank);
    check(mkdir(p, 0755) == 0, "mkdir", p);
    snprintf(p, sizeof p, "%s/dir.%d/inner", abs, rank);
    check(mkdir(p, 0755) == 0, "mkdir", p);
    snprintf(p, sizeof p, "%s/moved.%d", abs, rank);
    write_file(p, 130);
    snprintf(q, sizeof q, "%s/moved.%d.done", climb, rank);
    check(rename(p, q) == 0, "rename", p);
    snprintf(p, sizeof p, "%s/hard.%d", climb, rank);
    snprintf(q, sizeof q, "%s/absolute.%d", abs, rank);
    check(link(q, p) == 0, "link", p);
    snprintf(p, sizeof p, "%s/gone.%d", abs, rank);
    write_file(p, 140);
    check(unlink(p) == 0, "unlink", p);
    if (rank == 0) {
        snprintf(p, sizeof p, "%s/victim", climb);
        check(unlink(p) == 0, "unlink", p);
    }

    /* links in the working directory that lead out of it */
    snprintf(p, sizeof p, "out_abs.%d", rank);
    check(symlink(abs, p) == 0, "symlink", p);
    snprintf(p, sizeof p, "out_abs.%d/through_abs.%d", rank, rank);
    write_file(p, 150);
    snprintf(p, sizeof p, "out_rel.%d", rank);
    check(symlink(climb, p) == 0, "symlink", p);
    snprintf(p, sizeof p, "out_rel.%d/through_rel.%d", rank, rank);
    write_file(p, 160);
    /* a relative link that stays inside, which a kernel may keep as it is */
    snprintf(p, sizeof p, "here.%d", rank);
    check(mkdir(p, 0755) == 0, "mkdir", p);
    snprintf(p, sizeof p, "in_rel.%d", rank);
    snprintf(q, sizeof q, "here.%d", rank);
    check(symlink(q, p) == 0, "symlink", p);
    snprintf(p, sizeof p, "in_rel.%d/through_in.%d", rank, rank);
    write_file(p, 170);

    /* special files: written and read, never to be touched by a kernel or replay */
    int fd = open("/dev/null", O_WRONLY);
    check(fd >= 0, "open", "/dev/null");
    check(write(fd, "null", 4) == 4 && close(fd) == 0, "write", "/dev/null");
    char buf[512];
    fd = open("/proc/self/stat", O_RDONLY);
    check(fd >= 0, "open", "/proc/self/stat");
    check(read(fd, buf, sizeof buf) > 0 && close(fd) == 0, "read", "/proc/self/stat");
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
