/* predefined_handles: every predefined handle the MPI and HDF5 libraries
 * export is known to the table (functions/handles.def) by its value, the
 * way the tracer looks handles up (tracer/handles.c, load_known): a handle
 * it does not know gets a made-up id and a rebuild, never its own name.
 *   predefined_handles mpi            MPI's constants, listed below from
 *                                     the standard and this mpi.h
 *   predefined_handles hdf5 SYMBOL... HDF5's id globals by symbol (H5T_*_g,
 *                                     H5P_CLS_*_ID_g, H5P_LST_*_ID_g), read
 *                                     with dlsym once HDF5 is open
 * Prints each one missing with the kind and constant to add; exits 1 if any.
 * MPI_Win, MPI_Message and MPI_Session constants are not checked: no traced
 * function takes one (the table has no kind for them). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include "rec_mpi_versions.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder_functions.h"

typedef struct known {
    unsigned kind;
    uint64_t value;
} known;

static known table[1024];
static size_t ntable;

/* The (kind, value) pairs the tracer loads, from the same expansion. */
static void load_table(void)
{
#define H(kind, id, expr)                                                                                    \
    if (ntable < sizeof table / sizeof table[0])                                                             \
        table[ntable++] = (known){REC_KIND_##kind, (uint64_t)(uintptr_t)(expr)};
#define T(kind, id, expr, size, extent) H(kind, id, expr)
#include "handles.def"
#undef T
#undef H
}

static int checked, missing;

static void check(unsigned kind, uint64_t value, const char *name)
{
    checked++;
    for (size_t i = 0; i < ntable; i++)
        if (table[i].kind == kind && table[i].value == value)
            return;
    printf("predefined_handles: functions/handles.def does not know %s (kind %s)\n", name,
           rec_kind_name(kind));
    missing++;
}

#define CHECK(kind, constant) check(REC_KIND_##kind, (uint64_t)(uintptr_t)(constant), #constant)

static void check_mpi(void)
{
    CHECK(MPI_COMM, MPI_COMM_NULL);
    CHECK(MPI_COMM, MPI_COMM_WORLD);
    CHECK(MPI_COMM, MPI_COMM_SELF);
    CHECK(MPI_GROUP, MPI_GROUP_NULL);
    CHECK(MPI_GROUP, MPI_GROUP_EMPTY);
    CHECK(MPI_INFO, MPI_INFO_NULL);
    CHECK(MPI_INFO, MPI_INFO_ENV);
    CHECK(MPI_REQUEST, MPI_REQUEST_NULL);
    CHECK(MPI_FILE, MPI_FILE_NULL);
    CHECK(MPI_ERRHANDLER, MPI_ERRHANDLER_NULL);
    CHECK(MPI_ERRHANDLER, MPI_ERRORS_ARE_FATAL);
    CHECK(MPI_ERRHANDLER, MPI_ERRORS_RETURN);
#if REC_HAVE_MPI4
    CHECK(MPI_ERRHANDLER, MPI_ERRORS_ABORT);
#endif
    CHECK(MPI_OP, MPI_OP_NULL);
    CHECK(MPI_OP, MPI_MAX);
    CHECK(MPI_OP, MPI_MIN);
    CHECK(MPI_OP, MPI_SUM);
    CHECK(MPI_OP, MPI_PROD);
    CHECK(MPI_OP, MPI_LAND);
    CHECK(MPI_OP, MPI_BAND);
    CHECK(MPI_OP, MPI_LOR);
    CHECK(MPI_OP, MPI_BOR);
    CHECK(MPI_OP, MPI_LXOR);
    CHECK(MPI_OP, MPI_BXOR);
    CHECK(MPI_OP, MPI_MINLOC);
    CHECK(MPI_OP, MPI_MAXLOC);
    CHECK(MPI_OP, MPI_REPLACE);
    CHECK(MPI_OP, MPI_NO_OP);
    /* C types */
    CHECK(MPI_DATATYPE, MPI_DATATYPE_NULL);
    CHECK(MPI_DATATYPE, MPI_CHAR);
    CHECK(MPI_DATATYPE, MPI_SIGNED_CHAR);
    CHECK(MPI_DATATYPE, MPI_UNSIGNED_CHAR);
    CHECK(MPI_DATATYPE, MPI_BYTE);
    CHECK(MPI_DATATYPE, MPI_WCHAR);
    CHECK(MPI_DATATYPE, MPI_SHORT);
    CHECK(MPI_DATATYPE, MPI_UNSIGNED_SHORT);
    CHECK(MPI_DATATYPE, MPI_INT);
    CHECK(MPI_DATATYPE, MPI_UNSIGNED);
    CHECK(MPI_DATATYPE, MPI_LONG);
    CHECK(MPI_DATATYPE, MPI_UNSIGNED_LONG);
    CHECK(MPI_DATATYPE, MPI_FLOAT);
    CHECK(MPI_DATATYPE, MPI_DOUBLE);
    CHECK(MPI_DATATYPE, MPI_LONG_DOUBLE);
    CHECK(MPI_DATATYPE, MPI_LONG_LONG_INT);
    CHECK(MPI_DATATYPE, MPI_UNSIGNED_LONG_LONG);
    CHECK(MPI_DATATYPE, MPI_LONG_LONG);
    CHECK(MPI_DATATYPE, MPI_PACKED);
    CHECK(MPI_DATATYPE, MPI_FLOAT_INT);
    CHECK(MPI_DATATYPE, MPI_DOUBLE_INT);
    CHECK(MPI_DATATYPE, MPI_LONG_INT);
    CHECK(MPI_DATATYPE, MPI_SHORT_INT);
    CHECK(MPI_DATATYPE, MPI_2INT);
    CHECK(MPI_DATATYPE, MPI_LONG_DOUBLE_INT);
    CHECK(MPI_DATATYPE, MPI_INT8_T);
    CHECK(MPI_DATATYPE, MPI_INT16_T);
    CHECK(MPI_DATATYPE, MPI_INT32_T);
    CHECK(MPI_DATATYPE, MPI_INT64_T);
    CHECK(MPI_DATATYPE, MPI_UINT8_T);
    CHECK(MPI_DATATYPE, MPI_UINT16_T);
    CHECK(MPI_DATATYPE, MPI_UINT32_T);
    CHECK(MPI_DATATYPE, MPI_UINT64_T);
    CHECK(MPI_DATATYPE, MPI_C_BOOL);
    CHECK(MPI_DATATYPE, MPI_C_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_C_FLOAT_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_C_DOUBLE_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_C_LONG_DOUBLE_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_AINT);
    CHECK(MPI_DATATYPE, MPI_OFFSET);
    CHECK(MPI_DATATYPE, MPI_COUNT);
    /* markers MPI-3.0 removed; an MPI may still define them */
#if REC_HAVE_MPI1
    CHECK(MPI_DATATYPE, MPI_LB);
    CHECK(MPI_DATATYPE, MPI_UB);
#endif
    /* C++ types, which the C header names too */
#ifdef MPI_CXX_BOOL
    CHECK(MPI_DATATYPE, MPI_CXX_BOOL);
    CHECK(MPI_DATATYPE, MPI_CXX_FLOAT_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_CXX_DOUBLE_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_CXX_LONG_DOUBLE_COMPLEX);
#endif
    /* Fortran types, which the C header names too */
    CHECK(MPI_DATATYPE, MPI_CHARACTER);
    CHECK(MPI_DATATYPE, MPI_LOGICAL);
    CHECK(MPI_DATATYPE, MPI_INTEGER);
    CHECK(MPI_DATATYPE, MPI_REAL);
    CHECK(MPI_DATATYPE, MPI_DOUBLE_PRECISION);
    CHECK(MPI_DATATYPE, MPI_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_DOUBLE_COMPLEX);
    CHECK(MPI_DATATYPE, MPI_2INTEGER);
    CHECK(MPI_DATATYPE, MPI_2REAL);
    CHECK(MPI_DATATYPE, MPI_2DOUBLE_PRECISION);
    CHECK(MPI_DATATYPE, MPI_INTEGER1);
    CHECK(MPI_DATATYPE, MPI_INTEGER2);
    CHECK(MPI_DATATYPE, MPI_INTEGER4);
    CHECK(MPI_DATATYPE, MPI_INTEGER8);
    CHECK(MPI_DATATYPE, MPI_REAL4);
    CHECK(MPI_DATATYPE, MPI_REAL8);
    CHECK(MPI_DATATYPE, MPI_REAL16);
    CHECK(MPI_DATATYPE, MPI_COMPLEX8);
    CHECK(MPI_DATATYPE, MPI_COMPLEX16);
    CHECK(MPI_DATATYPE, MPI_COMPLEX32);
    /* optional Fortran types (MPICH makes a missing one MPI_DATATYPE_NULL) */
#ifdef MPI_INTEGER16
    CHECK(MPI_DATATYPE, MPI_INTEGER16);
#endif
#ifdef MPI_REAL2
    CHECK(MPI_DATATYPE, MPI_REAL2);
#endif
#ifdef MPI_COMPLEX4
    CHECK(MPI_DATATYPE, MPI_COMPLEX4);
#endif
#ifdef MPI_2COMPLEX
    CHECK(MPI_DATATYPE, MPI_2COMPLEX);
    CHECK(MPI_DATATYPE, MPI_2DOUBLE_COMPLEX);
#endif
}

/* An HDF5 global's kind, and the constant naming it: H5T_X_g is H5T_X,
 * H5P_CLS_X_ID_g is H5P_X (a class), H5P_LST_X_ID_g is H5P_X_DEFAULT. */
static int hdf5_symbol(const char *sym, unsigned *kind, char *name, size_t cap)
{
    size_t n = strlen(sym);
    if (n > 13 && strncmp(sym, "H5P_CLS_", 8) == 0 && strcmp(sym + n - 5, "_ID_g") == 0) {
        *kind = REC_KIND_H5_PLIST_CLASS;
        snprintf(name, cap, "H5P_%.*s", (int)(n - 13), sym + 8);
    } else if (n > 13 && strncmp(sym, "H5P_LST_", 8) == 0 && strcmp(sym + n - 5, "_ID_g") == 0) {
        *kind = REC_KIND_H5_PLIST;
        snprintf(name, cap, "H5P_%.*s_DEFAULT", (int)(n - 13), sym + 8);
    } else if (n > 6 && strncmp(sym, "H5T_", 4) == 0 && strcmp(sym + n - 2, "_g") == 0) {
        *kind = REC_KIND_H5_TYPE;
        snprintf(name, cap, "%.*s", (int)(n - 2), sym);
    } else {
        return -1;
    }
    return 0;
}

static void check_hdf5(int n, char **syms)
{
    if (H5open() < 0) {
        fprintf(stderr, "predefined_handles: H5open failed\n");
        exit(2);
    }
    for (int i = 0; i < n; i++) {
        unsigned kind;
        char name[256];
        const hid_t *id = dlsym(RTLD_DEFAULT, syms[i]);
        if (hdf5_symbol(syms[i], &kind, name, sizeof name) != 0 || !id) {
            fprintf(stderr, "predefined_handles: %s: not an HDF5 id global this libhdf5 exports\n", syms[i]);
            exit(2);
        }
        check(kind, (uint64_t)(uintptr_t)*id, name);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "mpi") != 0 && strcmp(argv[1], "hdf5") != 0)) {
        fprintf(stderr, "usage: predefined_handles mpi | hdf5 SYMBOL...\n");
        return 2;
    }
    load_table();
    if (strcmp(argv[1], "mpi") == 0)
        check_mpi();
    else
        check_hdf5(argc - 2, argv + 2);
    printf("predefined_handles: %s: %d constants checked against %zu table entries, %d unknown\n", argv[1],
           checked, ntable, missing);
    return missing ? 1 : 0;
}
