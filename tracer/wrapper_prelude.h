/* wrapper_prelude.h: what the generated wrappers include. Internal. */
#ifndef RECORDER_WRAPPER_PRELUDE_H
#define RECORDER_WRAPPER_PRELUDE_H

#define _GNU_SOURCE
/* The wrappers define fscanf and __isoc99_fscanf (and their kin) each
 * under its own name: C99 headers would rename fscanf to __isoc99_fscanf. */
#include <features.h>
#undef __GLIBC_USE_DEPRECATED_SCANF
#define __GLIBC_USE_DEPRECATED_SCANF 1
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>
#include <wchar.h>

#include "rt.h"
#include "hooks.h"
#include "variadic.h"

/* Wrappers are the library's only exported symbols. */
#define RT_EXPORT __attribute__((visibility("default")))

/* The next definition of a symbol (libc's, HDF5's); aborts with a message
 * if there is none, as the dynamic linker would have. */
void *rt_resolve(const char *name);
/* Bytes an MPI_Status says were transferred (-1: ignored or failed). */
int64_t rt_status_bytes(const MPI_Status *status, int ok);
/* Raw handle values in a recorded array become ids (lock held). */
void rt_handle_array(rt_call *c, unsigned kind, const void *values, uint32_t n);
/* A path's id, never excluding (getcwd's result). */
int64_t rt_path_value(rt_call *c, const char *path);
/* Field `field` (an H5_ENCODED kind) becomes the bytes encoding obj, what
 * the decoder that made obj read; empty for an obj < 0 or a huge one. */
void rt_h5_encoding(rt_call *c, unsigned field, hid_t obj);
/* Field `field` (an H5_VALUE kind) becomes the n elements of type at buf by
 * their meaning (tracer/h5value.c), object references named at loc; empty
 * for a NULL buf (or a failed call), one byte for a value not kept (RECORDER_ATTR_VALUES=0,
 * past RECORDER_ATTR_VALUE_MAX). */
void rt_h5_value(rt_call *c, unsigned field, const void *buf, hid_t type, long n, hid_t loc);
/* Field `field` (kind H5_STRING_LENGTHS or H5_VLEN_LENGTHS) becomes, where ok and the memory type is a
 * variable-length string (a sequence of elements without pointers), the length of each one the
 * buffer's elements hold, from its first to the last the memory selection selects (under H5S_ALL the
 * file's, or the dataset's, as HDF5 reads it); empty otherwise (tracer/h5value.c). */
void rt_h5_lengths(rt_call *c, unsigned field, unsigned kind, int ok, hid_t dset, hid_t type, hid_t mem_space,
                   hid_t file_space, const void *buf);
/* The memory type of a reference of type t (H5R_OBJECT, H5R_DATASET_REGION), or -1. */
hid_t rt_h5_reference_type(int t);
/* An iteration's operator, called through one of the tracer's own (gen_wrappers:
 * rt_counting_<type>), which counts its calls for the OP_CALLS field. */
typedef struct rt_op_count {
    void (*op)(void);
    void *data;
    int64_t calls;
} rt_op_count;

#endif
