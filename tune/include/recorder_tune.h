/* recorder_tune.h: tuning sets (docs/user/tuning.md). A set is a list of
 * overrides LAYER.KEY=VALUE -- an MPI-IO hint (mpiio.cb_nodes=2), the form
 * of the data calls (mpiio.data=collective), an HDF5 property
 * (hdf5.alignment=1M) -- read from a file (one a line, # comments) or from
 * --set arguments; a later override of a key replaces an earlier one.
 * What each knob touches is the function table's (functions/tuning.def):
 * the calls whose MPI_Info carries hints, the setter and argument of an
 * HDF5 property and the class of list it takes, the calls that use a list
 * of a class, the independent and collective twins. The replay, recorder-diff
 * --tuned and (later) kernels and recorder-tune apply a set through these
 * questions, so each agrees with the others on what a set changes. */
#ifndef RECORDER_TUNE_H
#define RECORDER_TUNE_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_functions.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tune_what {
    TUNE_HINT, /* mpiio.KEY: an info hint */
    TUNE_DATA, /* mpiio.data: independent or collective data calls */
    TUNE_PROP  /* hdf5.KEY: a property's setter argument */
} tune_what;

/* The classes of property list a setter takes and a call uses. */
typedef enum tune_class { TUNE_CLASS_NONE, TUNE_CLASS_FAPL, TUNE_CLASS_FCPL, TUNE_CLASS_DXPL } tune_class;

typedef struct tune_override {
    tune_what what;
    char key[64];     /* as written: "mpiio.cb_nodes" */
    const char *name; /* the knob's name: "cb_nodes" (the hint's key) */
    char value[256];  /* as written: "2", "enable", "1M" */
    char text[64];    /* a hint's value as it is set ("2097152" of "2M"); else the value */
    int64_t number;   /* a property's value as the trace records its argument (a FRACTION: its IEEE bits);
                         TUNE_DATA: 1 collective, 0 independent */
    const rec_func_desc *setter; /* TUNE_PROP: the setter (its first argument the list) */
    int arg;                     /* TUNE_PROP: the setter's argument it sets */
    tune_class cls;              /* TUNE_PROP: the class of list the setter takes */
    char where[320];             /* "FILE:LINE" or "--set" */
} tune_override;

typedef struct tune_set tune_set;

tune_set *tune_set_new(void);
void tune_set_free(tune_set *s);
/* Adds "LAYER.KEY=VALUE" (where: "--set", "FILE:LINE"). 0, or -1 with the
 * reason in err: "WHERE: unknown key mpiio.foo (mpiio: a hint of ...)". */
int tune_set_add(tune_set *s, const char *assignment, const char *where, char *err, size_t cap);
/* Adds every line of a file (blank lines and # comments skipped; errors name "PATH:LINE"). */
int tune_set_read(tune_set *s, const char *path, char *err, size_t cap);
/* The same of a file's text the caller read (name: its path, for the errors). */
int tune_set_parse(tune_set *s, const char *text, const char *name, char *err, size_t cap);
size_t tune_set_count(const tune_set *s);
const tune_override *tune_set_at(const tune_set *s, size_t i);

/* ---- what the function table says each knob touches ---- */
/* The position of f's MPI_Info argument that carries hints (TUNE_INFO), or -1. */
int tune_info_arg(const rec_func_desc *f);
/* The class of list argument `arg` of f is used as (TUNE_USE), NONE if none. */
tune_class tune_use_class(const rec_func_desc *f, unsigned arg);
/* f's twin (TUNE_TWIN) and whether f is the collective one; NULL if none. */
const rec_func_desc *tune_twin(const rec_func_desc *f, int *is_collective);
const char *tune_class_name(tune_class cls); /* "fapl", "fcpl", "dxpl" */
/* The HDF5 class constant of a list class, as handles.def names it ("H5P_FILE_ACCESS"). */
const char *tune_class_constant(tune_class cls);

/* ---- what a set does to a call ---- */
/* The function to call for f under the set: its twin when an mpiio.data
 * override asks for the other form (*o: that override's index), else f. */
const rec_func_desc *tune_call_for(const tune_set *s, const rec_func_desc *f, size_t *o);
/* Whether an override sets argument `arg` of f (a setter): 1 with the value
 * and the override's index, else 0. */
int tune_arg_value(const tune_set *s, const rec_func_desc *f, unsigned arg, int64_t *value, size_t *o);
/* The arguments of the setter of override `o` as an added call passes them,
 * by position (the list, argument 0, left 0): the set's values for the
 * setter's knobs, the knobs' defaults for the others. */
void tune_setter_args(const tune_set *s, size_t o, int64_t args[REC_MAX_ARGS]);
/* Whether override `o` is the first of the set with its setter (an added
 * call sets all of that setter's knobs at once). */
int tune_setter_first(const tune_set *s, size_t o);

#ifdef __cplusplus
}
#endif
#endif
