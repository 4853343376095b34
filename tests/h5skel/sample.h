/* sample.h: a sample HDF5 input for the h5skel units and bench-h5skel. */
#ifndef H5SKEL_SAMPLE_H
#define H5SKEL_SAMPLE_H

/* Writes path: a named compound type, then ndatasets datasets, 100 a group
 * (contiguous floats; chunked, shuffled floats of unlimited length, either
 * deflated or checksummed (fletcher32: a filter that keeps sizes); every
 * tenth a compact one of the compound type), each with an attribute; a user
 * block, symbol-table sizes of its own; a hard and a soft link. 0, or -1. */
int h5skel_sample_file(const char *path, unsigned ndatasets, int deflate);

#endif
