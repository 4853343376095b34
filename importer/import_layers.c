/* import_layers.c: what Darshan's upper-layer modules (H5F and H5D, HDF5;
 * PNETCDF_FILE and PNETCDF_VAR, PnetCDF) counted, file by file, for the
 * trace's metadata (RECORDER_IMPORT_UPPER_LAYERS). A file's record sums
 * its records of every rank (Darshan keeps either one reduced to rank -1
 * or one a rank); its datasets and variables are the H5D and PNETCDF_VAR
 * records that name it as their file (H5D 1 names none: those whose name
 * is the file's path, a colon, then the dataset's). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "import.h"

/* Whether record r is its id's first in the module. */
static int first_of(const ri_darshan_module *mod, size_t r)
{
    for (size_t q = 0; q < r; q++)
        if (mod->records[q].id == mod->records[r].id)
            return 0;
    return 1;
}

typedef struct sums {
    long long v[8];
} sums;

/* The sum over the records of id (or, with by_file, of the records whose
 * file is id) of the named counters; how many distinct records. */
static size_t sum_of(const ri_darshan_log *log, unsigned m, uint64_t id, int by_file, const char *const *names,
                     size_t n, sums *out)
{
    const ri_darshan_module *mod = &log->modules[m];
    int idx[8];
    for (size_t k = 0; k < n; k++) {
        int f;
        idx[k] = ri_darshan_counter_index(m, names[k], &f);
        if (f)
            idx[k] = -1;
    }
    memset(out, 0, sizeof *out);
    const char *path = by_file ? ri_darshan_name_of(log, id) : NULL;
    size_t plen = path ? strlen(path) : 0;
    size_t distinct = 0;
    for (size_t r = 0; r < mod->nrecords; r++) {
        const ri_darshan_record *x = &mod->records[r];
        int mine = !by_file ? x->id == id : x->file_id == id;
        if (by_file && !mine && x->file_id == 0 && path) { /* H5D 1: by the name */
            const char *name = ri_darshan_name_of(log, x->id);
            mine = name && strncmp(name, path, plen) == 0 && name[plen] == ':';
        }
        if (!mine)
            continue;
        distinct += first_of(mod, r);
        for (size_t k = 0; k < n; k++)
            if (idx[k] >= 0 && x->counters[idx[k]] > 0)
                out->v[k] += x->counters[idx[k]];
    }
    return distinct;
}

static const char *const h5f_names[] = {"H5F_OPENS", "H5F_FLUSHES"};
static const char *const h5d_names[] = {"H5D_OPENS",        "H5D_WRITES", "H5D_BYTES_WRITTEN",
                                        "H5D_READS",        "H5D_BYTES_READ",
                                        "H5D_USE_MPIIO_COLLECTIVE"};
static const char *const pncf_names[] = {"PNETCDF_FILE_CREATES", "PNETCDF_FILE_OPENS"};
static const char *const pncv_names[] = {"PNETCDF_VAR_COLL_WRITES",  "PNETCDF_VAR_INDEP_WRITES",
                                         "PNETCDF_VAR_BYTES_WRITTEN", "PNETCDF_VAR_COLL_READS",
                                         "PNETCDF_VAR_INDEP_READS",   "PNETCDF_VAR_BYTES_READ",
                                         "PNETCDF_VAR_NB_WRITES",     "PNETCDF_VAR_NB_READS"};
#define N_(a) (sizeof(a) / sizeof((a)[0]))

static size_t add(char *out, size_t cap, size_t len, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static size_t add(char *out, size_t cap, size_t len, const char *fmt, ...)
{
    if (len >= cap)
        return len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out + len, cap - len, fmt, ap);
    va_end(ap);
    return n < 0 ? len : len + (size_t)n;
}

/* One file's entry: its layer's file record summed, and its members'. */
static size_t one_file(const ri_darshan_log *log, int hdf5, uint64_t id, const char *sep, char *out, size_t cap,
                       size_t len)
{
    sums f, m;
    sum_of(log, hdf5 ? RI_DARSHAN_H5F : RI_DARSHAN_PNETCDF_FILE, id, 0, hdf5 ? h5f_names : pncf_names,
           hdf5 ? N_(h5f_names) : N_(pncf_names), &f);
    size_t n = sum_of(log, hdf5 ? RI_DARSHAN_H5D : RI_DARSHAN_PNETCDF_VAR, id, 1, hdf5 ? h5d_names : pncv_names,
                      hdf5 ? N_(h5d_names) : N_(pncv_names), &m);
    const char *path = ri_darshan_name_of(log, id);
    const long long *x = m.v;
    if (hdf5)
        return add(out, cap, len,
                   "%sHDF5 %s: %lld opens, %zu datasets (%lld opens, %lld writes of %lld bytes, %lld reads of "
                   "%lld bytes%s)",
                   sep, path ? path : "?", f.v[0], n, x[0], x[1], x[2], x[3], x[4],
                   x[5] ? ", MPI-IO collective" : "");
    return add(out, cap, len,
               "%sPnetCDF %s: %lld creates, %lld opens, %zu variables (%lld collective and %lld independent "
               "writes of %lld bytes, %lld collective and %lld independent reads of %lld bytes, %lld and %lld "
               "non-blocking)",
               sep, path ? path : "?", f.v[0], f.v[1], n, x[0], x[1], x[2], x[3], x[4],
               x[5], x[6], x[7]);
}

size_t ri_upper_layers(const ri_darshan_log *log, char *out, size_t cap)
{
    size_t len = 0, files = 0, of[2] = {0, 0};
    out[0] = 0;
    for (int hdf5 = 1; hdf5 >= 0; hdf5--) {
        const ri_darshan_module *mod = &log->modules[hdf5 ? RI_DARSHAN_H5F : RI_DARSHAN_PNETCDF_FILE];
        for (size_t r = 0; r < mod->nrecords; r++)
            if (first_of(mod, r)) {
                len = one_file(log, hdf5, mod->records[r].id, files++ ? "; " : "", out, cap, len);
                of[hdf5]++;
            }
    }
    if (of[1]) /* import_upper.c */
        len = add(out, cap, len, "; HDF5 calls placed, the MPI-IO and POSIX ones Darshan saw nested beneath");
    if (of[0]) /* import_upper_pnc.c */
        len = add(out, cap, len, "; PnetCDF calls placed, the MPI-IO and POSIX ones Darshan saw nested beneath");
    if (len >= cap && cap > 4)
        memcpy(out + cap - 4, "...", 4);
    return files;
}
