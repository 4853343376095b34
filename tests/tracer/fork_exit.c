/* fork_exit: processes that fork, and that end without any goodbye call
 * (tracer.fork_child_untraced, tracer.exit_completes_trace).
 *
 *   fork_exit fork DIR N   the parent pwrites N blocks to DIR/parent.dat,
 *                          forks two children (one ends with _exit(0), one
 *                          with exit(0), both after I/O on DIR/child-*.dat),
 *                          waits for them, then pwrites N more blocks
 *   fork_exit exit DIR N   N pwrites to DIR/exit.dat, then exit(0) from a
 *                          nested function with the file still open
 *   fork_exit exec DIR N   as fork, but the child execs /bin/true (it
 *                          inherits LD_PRELOAD and RECORDER_TRACES_DIR)
 *
 * On stdout: "parent_pwrite K" (pwrite calls made by the traced process
 * itself) and "ok 1" when every call did what it should. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static long parent_pwrites, errors;

static int open_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        fprintf(stderr, "fork_exit: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return fd;
}

static void pwrites(int fd, long from, long n, long *counter)
{
    char block[64];
    for (long k = from; k < from + n; k++) {
        memset(block, (int)('a' + k % 26), sizeof block);
        if (pwrite(fd, block, sizeof block, (off_t)k * 64) != (ssize_t)sizeof block)
            errors++;
        if (counter)
            (*counter)++;
    }
}

/* The child: its own I/O (never traced), then _exit or exit. */
static void child(const char *dir, const char *name, int use_exit)
{
    int fd = open_in(dir, name);
    pwrites(fd, 0, 5000, NULL);
    struct stat st;
    int ok = fstat(fd, &st) == 0 && st.st_size == 5000 * 64 && fsync(fd) == 0 && close(fd) == 0 && !errors;
    if (use_exit)
        exit(ok ? 0 : 3);
    _exit(ok ? 0 : 3);
}

static void wait_ok(pid_t pid)
{
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "fork_exit: child %ld failed (status %#x)\n", (long)pid, status);
        errors++;
    }
}

static void report(void)
{
    printf("parent_pwrite %ld\nok %d\n", parent_pwrites, errors == 0);
    fflush(stdout);
}

/* exit() through a volatile pointer: the compiler cannot tell this never returns. */
static void (*volatile exit_fn)(int) = exit;

static void leave_from_deep_inside(int depth)
{
    if (depth > 0) {
        leave_from_deep_inside(depth - 1);
        return;
    }
    report();
    exit_fn(errors ? 1 : 0);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s fork|exit|exec DIR N\n", argv[0]);
        return 2;
    }
    const char *mode = argv[1], *dir = argv[2];
    long n = atol(argv[3]);
    if (strcmp(mode, "exit") == 0) {
        int fd = open_in(dir, "exit.dat");
        pwrites(fd, 0, n, &parent_pwrites);
        leave_from_deep_inside(5); /* fd stays open: nothing is closed on purpose */
    }
    int fd = open_in(dir, "parent.dat");
    pwrites(fd, 0, n, &parent_pwrites);
    fflush(stdout);
    if (strcmp(mode, "fork") == 0) {
        pid_t a = fork();
        if (a == 0)
            child(dir, "child-_exit.dat", 0);
        pid_t b = fork();
        if (b == 0)
            child(dir, "child-exit.dat", 1);
        if (a < 0 || b < 0) {
            perror("fork_exit: fork");
            return 1;
        }
        wait_ok(a);
        wait_ok(b);
    } else if (strcmp(mode, "exec") == 0) {
        pid_t a = fork();
        if (a == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        if (a < 0) {
            perror("fork_exit: fork");
            return 1;
        }
        wait_ok(a);
    } else {
        fprintf(stderr, "fork_exit: unknown mode %s\n", mode);
        return 2;
    }
    pwrites(fd, n, n, &parent_pwrites);
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size != 2 * n * 64)
        errors++;
    if (close(fd) != 0)
        errors++;
    report();
    return errors ? 1 : 0;
}
