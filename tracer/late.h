/* late.h: the tracer reaches MPI and HDF5 late, by name. Internal.
 *
 * librecorder.so links neither library. Every MPI (PMPI_, Open MPI's ompi_)
 * and HDF5 function or variable the tracer names is a macro (late_mpi.h,
 * late_hdf5.h, generated from the headers by gen_late) that, at its first
 * use, looks the symbol up in the library the application itself uses --
 * the one the static-HDF5 shim registered, the next one in the global scope,
 * or one loaded RTLD_LOCAL (a Python extension's) -- and keeps it for later
 * uses at that spot. So a program that calls neither library never loads
 * them (MPI and HDF5 with their dependencies cost a process about 10 ms to
 * load), and the tracer's own queries (selection sizes, datatype names)
 * reach the very library whose ids it was given, never a second copy.
 *
 * A translation unit that defines HDF5 functions (the generated wrappers)
 * defines RT_WRAPPER_UNIT: it gets no HDF5 names, and reaches HDF5 through
 * REC_H5(fn) and H5E_BEGIN_TRY alone. No unit defines a PMPI_ function. */
#ifndef RECORDER_LATE_H
#define RECORDER_LATE_H

#include <hdf5.h>
#include <mpi.h>

/* The symbol for a binding macro, stored in *site: the library's, or where
 * no loaded library has it a stand-in (a function that fails, a variable
 * holding -1), so that such a use fails like a call on a bad handle and
 * never crashes. */
void *rt_late_bind(void **site, const char *name, int variable);

static inline void *rt_late_at(void **site, const char *name, int variable)
{
    void *p = __atomic_load_n(site, __ATOMIC_RELAXED);
    return __builtin_expect(p != 0, 1) ? p : rt_late_bind(site, name, variable);
}

/* Each use is its own site, so no list of names is kept by hand. Inside the
 * expansion `name` is not expanded again: __typeof__ sees the declaration. */
#define RT_LATE_FN(name)                                                                                     \
    (*({                                                                                                     \
        static void *rt_late_site_;                                                                          \
        (__typeof__(&name))rt_late_at(&rt_late_site_, #name, 0);                                             \
    }))
#define RT_LATE_VAR(name)                                                                                    \
    (*({                                                                                                     \
        static void *rt_late_site_;                                                                          \
        (__typeof__(&name))rt_late_at(&rt_late_site_, #name, 1);                                             \
    }))

/* table_helpers.h's HDF5 calls. */
#define REC_H5(fn) RT_LATE_FN(H5##fn)
/* table_helpers.h's PnetCDF queries, of the library the application loaded. */
#define REC_NC(fn) RT_LATE_FN(ncmpi_##fn)
/* table_helpers.h's netCDF-C queries, of the library the application loaded. */
#define REC_NCC(fn) RT_LATE_FN(nc_##fn)

/* HDF5's own H5E_BEGIN_TRY names the H5E functions directly; this one keeps
 * the same automatic error handler state in a struct (symbols.c). */
typedef struct rt_h5_quiet {
    unsigned is_v2;
    void *func;
    void *data;
} rt_h5_quiet;
void rt_h5_quiet_begin(rt_h5_quiet *saved);
void rt_h5_quiet_end(const rt_h5_quiet *saved);
/* A failed HDF5 call leaves its error stack to the application (H5Eprint2,
 * H5Eget_num, H5Ewalk2), and each HDF5 call the tracer makes after it
 * (bytes, selections, handles) would clear it: kept aside after a failure,
 * put back before the wrapper returns (only failures pay). */
hid_t rt_h5_errors_keep(void);
void rt_h5_errors_restore(hid_t kept);
#undef H5E_BEGIN_TRY
#undef H5E_END_TRY
#define H5E_BEGIN_TRY                                                                                        \
    {                                                                                                        \
        rt_h5_quiet rt_h5_quiet_saved_;                                                                      \
        rt_h5_quiet_begin(&rt_h5_quiet_saved_);
#define H5E_END_TRY                                                                                          \
    rt_h5_quiet_end(&rt_h5_quiet_saved_);                                                                    \
    }

#include "late_mpi.h"
#ifndef RT_WRAPPER_UNIT
#include "late_hdf5.h"
#endif

#endif
