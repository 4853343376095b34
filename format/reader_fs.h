/* reader_fs.h: where the reader gets its files. Internal, for tests only.
 *
 * The reader opens recorder.meta, N.meta and N.rec with fopen and checks
 * the trace directory with stat. A test may route both through this hook
 * to serve a trace from memory: the fuzz targets do, several times faster
 * than through the file system. NULL (the default): the file system. */
#ifndef REC_READER_FS_H
#define REC_READER_FS_H

#include <stdio.h>

typedef struct rec_reader_fs {
    /* As fopen(path, "rb"): a stream, or NULL with errno set (ENOENT ...). */
    FILE *(*open)(const char *path);
    /* 1 if path is a directory, 0 if it is something else, -1 (errno) if missing. */
    int (*is_dir)(const char *path);
} rec_reader_fs;

extern const rec_reader_fs *rec_reader_fs_hook;

/* How many stream files the reader keeps open at once (files.h); 0 (the
 * default): the process's limit on open files, less 256. Tests set it low. */
extern unsigned rec_reader_file_budget;

#endif
