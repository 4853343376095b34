/* pwrite_blocks.h: the file the tracer's victim programs write (victim,
 * mpi_victim, mpi_no_finalize), so that their tests know every record. */
#ifndef PWRITE_BLOCKS_H
#define PWRITE_BLOCKS_H

/* Creates (or truncates) `path` and makes n pwrite calls of 64 bytes to it,
 * block k filled with 'a' + k % 26 at offset k x 64. Returns the file, still
 * open, or -1 if it cannot be opened, after saying why on stderr
 * ("<program>: <path>: <reason>"); *short_writes counts the calls that wrote
 * less than 64 bytes. */
int pwrite_blocks(const char *program, const char *path, long n, long *short_writes);

/* The same for an MPI rank's file, DIR/rank-<rank>.dat. */
int pwrite_rank_blocks(const char *program, const char *dir, int rank, long n, long *short_writes);

#endif
