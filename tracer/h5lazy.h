/* h5lazy.h: the tracer reaches HDF5 late, by name. Internal.
 *
 * librecorder.so does not link HDF5. Every HDF5 function or variable the
 * tracer names (h5lazy_names.h, generated from the HDF5 headers) is a macro
 * that, at its first use, looks the symbol up in the HDF5 the application
 * itself uses -- the one the static shim registered, the next one in the
 * global scope, or one loaded RTLD_LOCAL (a Python extension's) -- and keeps
 * it for later uses at that spot. So a program that never calls HDF5 never
 * loads it (6 ms and a dozen libraries per process), and the tracer's own
 * queries (selection sizes, datatype names) reach the very library whose ids
 * it was given, never a second copy.
 *
 * A translation unit that defines HDF5 functions (the generated wrappers)
 * defines RT_WRAPPER_UNIT: it gets the binding macros but not the names,
 * and reaches HDF5 through REC_H5(fn) and H5E_BEGIN_TRY alone. */
#ifndef RECORDER_H5LAZY_H
#define RECORDER_H5LAZY_H

#include <hdf5.h>

/* The symbol for a binding macro: stored in *site once found; until then a
 * stand-in (a function that fails, a variable holding H5I_INVALID_HID), so
 * a use before HDF5 is loaded fails like a call on a bad id, never crashes. */
void *rt_h5_bind(void **site, const char *name, int variable);

static inline void *rt_h5_at(void **site, const char *name, int variable)
{
    void *p = __atomic_load_n(site, __ATOMIC_RELAXED);
    return __builtin_expect(p != 0, 1) ? p : rt_h5_bind(site, name, variable);
}

/* Each use is its own site, so no list of names is kept by hand. Inside the
 * expansion `name` is not expanded again: __typeof__ sees the declaration. */
#define RT_H5_FN(name)                                                                                       \
    (*({                                                                                                     \
        static void *rt_h5_site_;                                                                            \
        (__typeof__(&name))rt_h5_at(&rt_h5_site_, #name, 0);                                                 \
    }))
#define RT_H5_VAR(name)                                                                                      \
    (*({                                                                                                     \
        static void *rt_h5_site_;                                                                            \
        (__typeof__(&name))rt_h5_at(&rt_h5_site_, #name, 1);                                                 \
    }))

/* table_helpers.h's HDF5 calls. */
#define REC_H5(fn) RT_H5_FN(H5##fn)

/* HDF5's own H5E_BEGIN_TRY names the H5E functions directly; this one keeps
 * the same automatic error handler state in a struct (h5lazy.c). */
typedef struct rt_h5_quiet {
    unsigned is_v2;
    void *func;
    void *data;
} rt_h5_quiet;
void rt_h5_quiet_begin(rt_h5_quiet *saved);
void rt_h5_quiet_end(const rt_h5_quiet *saved);
#undef H5E_BEGIN_TRY
#undef H5E_END_TRY
#define H5E_BEGIN_TRY                                                                                        \
    {                                                                                                        \
        rt_h5_quiet rt_h5_quiet_saved_;                                                                      \
        rt_h5_quiet_begin(&rt_h5_quiet_saved_);
#define H5E_END_TRY                                                                                          \
    rt_h5_quiet_end(&rt_h5_quiet_saved_);                                                                    \
    }

#ifndef RT_WRAPPER_UNIT
#include "h5lazy_names.h"
#endif

#endif
