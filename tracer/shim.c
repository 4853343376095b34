/* shim.c: the part of librecorder-h5wrap.a that is not generated. An
 * application linked with HDF5 statically (Debian's plain h5pcc) calls its
 * own copy of HDF5 directly, out of a preloaded library's reach. Linked with
 * recorder-cc, its H5* calls go to __wrap_H5* here, which pass them to the
 * preloaded tracer's H5* after telling it which __real_H5* to call. */
#include <dlfcn.h>

#include "shim_prelude.h"

void *shim_target(const char *name, void *real)
{
    static int registered;
    void (*reg)(const char *, void *) = (void (*)(const char *, void *))dlsym(RTLD_DEFAULT, "recorder_register_real");
    if (!reg)
        return real; /* the tracer is not loaded: plain HDF5 */
    if (!registered) {
        /* All at once: the tracer's own HDF5 queries (selection sizes) must
         * reach the application's copy of HDF5 too. */
        shim_register_all(reg);
        /* the untraced functions the tracer calls itself (its queries, its
         * error-report switch: UT entries of the table's untraced list), */
#define U(name, reason)
#define UP(prefix, reason)
#define UT(name, reason) reg(#name, (void *)name);
#include "untraced_hdf5.def"
#undef U
#undef UP
#undef UT
        /* the function that initialises this copy, which every predefined
         * id's macro calls (H5OPEN), */
        reg("H5open", (void *)H5open);
        /* and the predefined ids of its types and property lists, which the
         * tracer reads as the application's copy set them */
#define RT_H5_GLOBAL(name) reg(#name, (void *)&name);
#include "late_hdf5_globals.h"
#undef RT_H5_GLOBAL
        registered = 1;
    }
    void *traced = dlsym(RTLD_DEFAULT, name);
    return traced ? traced : real;
}
