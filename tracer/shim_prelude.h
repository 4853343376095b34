/* shim_prelude.h: what the generated static-HDF5 shim includes. Internal. */
#ifndef RECORDER_SHIM_PRELUDE_H
#define RECORDER_SHIM_PRELUDE_H

#define _GNU_SOURCE
#include <hdf5.h>
#include <mpi.h>

/* The function to call for NAME: librecorder.so's wrapper when the tracer
 * is preloaded (told to finish with `real`), else `real` itself. */
void *shim_target(const char *name, void *real);
void shim_register_all(void (*reg)(const char *, void *));

#endif
