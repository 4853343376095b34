/* h5value_encode.h: an HDF5 value in memory as the bytes that record it by
 * meaning (docs/reference/format.md section 8.1; read back by
 * templates/h5value.c.tmpl). Shared by the tracer and the skeleton
 * capture. Internal: not installed. */
#ifndef RECORDER_H5VALUE_ENCODE_H
#define RECORDER_H5VALUE_ENCODE_H

#include <hdf5.h>
/* A program that binds HDF5's names itself (librecorder.so links no HDF5
 * and finds the application's at run time) names its binding header. */
#ifdef H5SKEL_HDF5_BINDING
#include H5SKEL_HDF5_BINDING
#endif
#include <stddef.h>

/* n elements of type at mem, their object references named in loc's file:
 * malloc'ed bytes (*len of them), or NULL when they would pass max bytes or
 * cannot be walked (a sequence nested too deep, no memory). HDF5's error
 * reporting is silenced while it walks. */
/* Whether a value of type t is its bytes alone: no pointer (a variable-length string or sequence), no
 * reference, in it or in its members. */
int h5value_plain(hid_t t);
unsigned char *h5value_encode(hid_t type, size_t n, const void *mem, hid_t loc, size_t max, size_t *len);

#endif
