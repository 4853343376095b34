/* spawn.c: a child run to its end, a scratch tree removed, a file found
 * beside the running program (recorder_spawn.h). */
#define _GNU_SOURCE
#include "recorder_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int rs_run(const char *tool, char *const argv[], const char *dir, const char *out, const char *err)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int o = out ? open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : STDOUT_FILENO;
        int e = err ? open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644) : out ? o : STDERR_FILENO;
        if (o < 0 || e < 0 || dup2(o, STDOUT_FILENO) < 0 || dup2(e, STDERR_FILENO) < 0 ||
            (dir && chdir(dir) != 0))
            _exit(127);
        execvp(argv[0], argv);
        fprintf(stderr, "%s: %s: %s\n", tool, argv[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    return remove(path);
}

void rs_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) == 0)
        nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int rs_beside(char *out, size_t cap, const char *const rel[], size_t n)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return -1;
    self[len] = 0;
    char *slash = strrchr(self, '/');
    if (slash)
        *slash = 0;
    for (size_t i = 0; i < n; i++) {
        snprintf(out, cap, "%s/%s", self, rel[i]);
        if (access(out, R_OK) == 0)
            return 0;
    }
    return -1;
}

int rs_tracer(char *out, size_t cap)
{
    static const char *const rel[] = {"../tracer/librecorder.so", "../lib/librecorder.so",
                                      "../lib/x86_64-linux-gnu/librecorder.so", "../lib64/librecorder.so"};
    const char *env = getenv("RECORDER_LIB");
    if (env && *env) {
        snprintf(out, cap, "%s", env);
        return access(out, R_OK);
    }
    return rs_beside(out, cap, rel, sizeof rel / sizeof rel[0]);
}
