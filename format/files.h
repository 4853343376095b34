/* files.h: the reader's stream files, kept within the process's limit on
 * open files. Internal.
 *
 * A merge of 65,536 ranks reads 65,536 streams at once, past any usual
 * `ulimit -n`. Each cursor's file is opened when it is first read and stays
 * open while the number open is within the budget; past it, the least
 * recently read one is closed ("parked") and reopened at its next read (the
 * cursor seeks to its offset before every block anyway). Past the budget,
 * cursors must be read from one thread at a time. */
#ifndef REC_FILES_H
#define REC_FILES_H

#include <stdio.h>

typedef struct rec_stream_file {
    FILE *file;       /* NULL: not open, or parked */
    const char *path; /* the cursor's, for reopening */
    struct rec_stream_file *prev, *next; /* most recently read first */
} rec_stream_file;

/* The open stream, opening or reopening it (and parking another one when
 * the budget is full); NULL with errno set when it cannot be opened. */
FILE *rec_stream_file_use(rec_stream_file *f);
void rec_stream_file_close(rec_stream_file *f);

#endif
