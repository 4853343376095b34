/* symbols.c: where the tracer finds the real functions it wraps and the MPI
 * and HDF5 functions it calls itself.
 *
 * In order: what the static-HDF5 shim registered (an application's own copy
 * of HDF5, which exports nothing), the next definition after librecorder.so
 * in the global scope (RTLD_NEXT), then every loaded object in turn -- a
 * library dlopen'ed RTLD_LOCAL, as Python loads h5py's HDF5, is in no global
 * scope, yet its callers' H5* calls reach our wrappers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt.h"
#include "runtime.h"

/* Real functions handed over by the static-HDF5 shim (librecorder-h5wrap.a). */
enum { MAX_REGISTERED = 1024 };
static struct {
    const char *name;
    void *fn;
} registered[MAX_REGISTERED];
static int nregistered;

__attribute__((visibility("default"))) void recorder_register_real(const char *name, void *fn);
void recorder_register_real(const char *name, void *fn)
{
    if (nregistered < MAX_REGISTERED) {
        registered[nregistered].name = name;
        registered[nregistered].fn = fn;
        __atomic_store_n(&nregistered, nregistered + 1, __ATOMIC_RELEASE);
    }
}

static void *find_registered(const char *name)
{
    int n = __atomic_load_n(&nregistered, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++)
        if (strcmp(registered[i].name, name) == 0)
            return registered[i].fn;
    return NULL;
}

/* ---- loaded objects outside the global scope ---- */

enum { MAX_OBJECTS = 512, NAMES_BYTES = 64 * 1024 };

typedef struct {
    uintptr_t own_base;
    unsigned n;
    size_t used;
    const char *name[MAX_OBJECTS];
    char bytes[NAMES_BYTES];
} object_list;

static uintptr_t own_base(void)
{
    Dl_info self;
    return dladdr((void *)own_base, &self) ? (uintptr_t)self.dli_fbase : 0;
}

/* Names only: dlopen must not run under dl_iterate_phdr's lock. */
static int list_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    object_list *list = data;
    const char *name = info->dlpi_name;
    if (!name || !*name || list->n == MAX_OBJECTS)
        return 0;
    size_t len = strlen(name) + 1;
    if (list->used + len > NAMES_BYTES)
        return 0;
    memcpy(list->bytes + list->used, name, len);
    list->name[list->n++] = list->bytes + list->used;
    list->used += len;
    return 0;
}

static int defined_by_us(void *p, uintptr_t base)
{
    Dl_info where;
    return dladdr(p, &where) && (uintptr_t)where.dli_fbase == base;
}

static void *last_provider; /* the handle that answered last: HDF5's symbols come from one library */

static void *find_loaded(const char *name)
{
    void *handle = __atomic_load_n(&last_provider, __ATOMIC_ACQUIRE);
    if (handle) {
        void *p = dlsym(handle, name);
        if (p)
            return p;
    }
    object_list *list = calloc(1, sizeof *list);
    if (!list)
        return NULL;
    list->own_base = own_base();
    dl_iterate_phdr(list_object, list);
    void *found = NULL;
    for (unsigned i = 0; i < list->n && !found; i++) {
        void *h = dlopen(list->name[i], RTLD_LAZY | RTLD_NOLOAD);
        if (!h)
            continue;
        void *p = dlsym(h, name);
        if (p && !defined_by_us(p, list->own_base)) {
            found = p;
            __atomic_store_n(&last_provider, h, __ATOMIC_RELEASE); /* kept open: it stays loaded anyway */
        } else {
            dlclose(h);
        }
    }
    free(list);
    return found;
}

void *rt_resolve(const char *name)
{
    void *fn = find_registered(name);
    if (!fn)
        fn = dlsym(RTLD_NEXT, name);
    if (!fn)
        fn = find_loaded(name);
    if (!fn) {
        char msg[256];
        int n = snprintf(msg, sizeof msg, "recorder: %s: symbol not found after librecorder.so\n", name);
        if (write(2, msg, (size_t)n) < 0) { /* nothing more to do */
        }
        abort();
    }
    return fn;
}

/* ---- MPI and HDF5, by name (late.h) ---- */

static void *late_symbol(const char *name, int variable)
{
    void *p = find_registered(name);
    /* A variable may live in the executable (a copy relocation), before
     * librecorder.so: the first definition is the one the library itself
     * uses. We define no such variable, only functions. */
    if (!p)
        p = dlsym(variable ? RTLD_DEFAULT : RTLD_NEXT, name);
    if (!p)
        p = find_loaded(name);
    return p;
}

/* Called through a pointer of the missing function's own type: -1 is a
 * failure to every HDF5 function (negative) and every MPI one (not
 * MPI_SUCCESS) the tracer calls. */
static long absent_function(void)
{
    return -1;
}
static int64_t absent_variable = -1;

void *rt_late_bind(void **site, const char *name, int variable)
{
    void *p = late_symbol(name, variable);
    if (p) {
        __atomic_store_n(site, p, __ATOMIC_RELAXED);
        return p;
    }
    static int warned;
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        rt_warn("recorder: %s is in no loaded library: the tracer's calls of it fail", name);
    /* Kept too: the tracer names a library only inside calls to it, so one
     * not found then will not be found later, and searching every loaded
     * object again at each call would cost far more than the call. */
    p = variable ? (void *)&absent_variable : (void *)absent_function;
    __atomic_store_n(site, p, __ATOMIC_RELAXED);
    return p;
}

void rt_h5_quiet_begin(rt_h5_quiet *saved)
{
    saved->func = saved->data = NULL;
    saved->is_v2 = 1;
#ifndef H5_NO_DEPRECATED_SYMBOLS
    (void)H5Eauto_is_v2(H5E_DEFAULT, &saved->is_v2);
    if (!saved->is_v2) { /* the application installed a version-1 handler */
        H5E_auto1_t func = NULL;
        (void)H5Eget_auto1(&func, &saved->data);
        saved->func = (void *)func;
        (void)H5Eset_auto1(NULL, NULL);
        return;
    }
#endif
    H5E_auto2_t func = NULL;
    (void)H5Eget_auto2(H5E_DEFAULT, &func, &saved->data);
    saved->func = (void *)func;
    (void)H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

void rt_h5_quiet_end(const rt_h5_quiet *saved)
{
#ifndef H5_NO_DEPRECATED_SYMBOLS
    if (!saved->is_v2) {
        (void)H5Eset_auto1((H5E_auto1_t)saved->func, saved->data);
        return;
    }
#endif
    (void)H5Eset_auto2(H5E_DEFAULT, (H5E_auto2_t)saved->func, saved->data);
}

hid_t rt_h5_errors_keep(void)
{
    return H5Eget_current_stack(); /* a copy; the current stack is cleared */
}

void rt_h5_errors_restore(hid_t kept)
{
    (void)H5Eset_current_stack(kept); /* and the copy is released */
}
