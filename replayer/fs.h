/* fs.h: path re-rooting and the replayer's own file system work. Internal.
 *
 * The re-rooting rule, shared with generated kernels and recorder-diff
 * (facts/include/recorder_facts.h): "/a/b/c" -> PREFIX/a/b/c, "x/y" -> PREFIX/x/y,
 * "." and ".." resolved lexically with ".." clamped at the root; /dev,
 * /proc and /sys are never touched. Everything here uses raw system calls, so a replay running under
 * the tracer never records the replayer's bookkeeping as application I/O. */
#ifndef RECORDER_REPLAY_FS_H
#define RECORDER_REPLAY_FS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* 0 when no existing component of full (a path under prefix) is a symbolic
 * link that leads outside prefix; -1 otherwise. */
int rp_safe(const char *prefix, const char *full);
/* mkdir -p of dir, creating nothing above prefix (prefix itself included). */
int rp_mkdirs(const char *prefix, const char *dir);

/* Raw system calls. */
ssize_t rp_sys_read(int fd, void *buf, size_t n);
ssize_t rp_sys_write(int fd, const void *buf, size_t n);
int rp_sys_write_all(int fd, const void *buf, size_t n);
int rp_sys_read_all(int fd, void *buf, size_t n); /* 0, or -1 at EOF/error */
int rp_sys_close(int fd);
int rp_sys_getcwd(char *buf, size_t cap);
/* Creates (or resizes) a regular file of this size; 0 on success. */
int rp_sys_make_file(const char *path, int64_t size);
/* Writes len bytes at the start of the existing file path (an input's netCDF header). */
int rp_sys_write_head(const char *path, const unsigned char *bytes, size_t len);
/* A file of size bytes of text: the pattern with delim at each of at[0..n)
 * (rf_lines_fill). 0, or -1. */
int rp_sys_make_text(const char *path, int64_t size, const int64_t *at, size_t n, int delim);
/* A symbolic link to target, unless something is at path. 0, or -1. */
int rp_sys_make_link(const char *path, const char *target);
/* A file's text, NUL-terminated (malloc'ed), of at most max bytes; NULL with errno. */
char *rp_sys_read_text(const char *path, size_t max);
/* 1 file, 2 directory, 3 symlink, 4 other, 0 missing. */
int rp_sys_kind(const char *path);

#endif
