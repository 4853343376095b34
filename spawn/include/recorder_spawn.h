/* recorder_spawn.h: what the tools that run the kit's own programs share
 * (recorder-extrap runs a kernel under mpiexec, recorder-advise --prove
 * runs recorder-replay and recorder-diff): a child run to its end with its
 * output in files, a scratch tree removed, and a program or library found
 * beside the running one (its build or install tree). */
#ifndef RECORDER_SPAWN_H
#define RECORDER_SPAWN_H

#include <stddef.h>

/* Runs argv (argv[0] searched on PATH) in dir (NULL: here), its stdout to
 * the file out and its stderr to err (NULL: with stdout; both NULL: this
 * process's). Returns the exit status, 128 + the signal that ended it, or
 * -1 when fork fails; a program that cannot start exits 127 after
 * "TOOL: PROGRAM: reason" on its stderr. */
int rs_run(const char *tool, char *const argv[], const char *dir, const char *out, const char *err);

/* Removes path and everything under it, links not followed; nothing if it is not there. */
void rs_remove_tree(const char *path);

/* The first of rel[0..n-1] (paths relative to the running program's
 * directory, "../tracer/librecorder.so") that is readable, into out: 0, or
 * -1 when none is. */
int rs_beside(char *out, size_t cap, const char *const rel[], size_t n);

/* The tracer: RECORDER_LIB, or librecorder.so of the running program's
 * build or install tree, into out: 0 if it is readable, else -1 (out holds
 * the last path tried). */
int rs_tracer(char *out, size_t cap);

#endif
