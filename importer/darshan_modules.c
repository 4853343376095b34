/* darshan_modules.c: the records of Darshan's POSIX, MPI-IO, STDIO, H5F,
 * H5D, PNETCDF_FILE and PNETCDF_VAR modules, every version of them, and
 * the segments of DXT_POSIX and DXT_MPIIO.
 *
 * A counter record is the record id and rank (int64 each), then the
 * module's integer counters, then its floating-point ones, 8 bytes each
 * (H5D 2 and PNETCDF_VAR: the file's record id between the rank and the
 * counters).
 * Older module versions lack some of today's counters (POSIX 3 the
 * fileno, dup and rename counters, POSIX 2 and MPI-IO 2 the first close
 * and last open times, STDIO 1 the fdopens) and POSIX 1 held four stdio
 * counters more: each version is described by the counters it lacks, which
 * read -1 as darshan-util sets them (RENAMED_FROM 0), and POSIX 1's records
 * of streams are left out as darshan-util does. A DXT record is the record
 * id and rank, a shared flag, a 64-byte host name, the write and read
 * counts, then that many 32-byte segments, writes first (DXT_MPIIO 1 had
 * no offsets). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan_counters.h"
#include "darshan_counters_hl.h"
#include "darshan_internal.h"

#define NAME_(n) #n,
static const char *const posix_names[] = {RI_POSIX_COUNTERS(NAME_)};
static const char *const posix_fnames[] = {RI_POSIX_F_COUNTERS(NAME_)};
static const char *const mpiio_names[] = {RI_MPIIO_COUNTERS(NAME_)};
static const char *const mpiio_fnames[] = {RI_MPIIO_F_COUNTERS(NAME_)};
static const char *const stdio_names[] = {RI_STDIO_COUNTERS(NAME_)};
static const char *const stdio_fnames[] = {RI_STDIO_F_COUNTERS(NAME_)};
static const char *const h5f_names[] = {RI_H5F_COUNTERS(NAME_)};
static const char *const h5f_fnames[] = {RI_H5F_F_COUNTERS(NAME_)};
static const char *const h5d_names[] = {RI_H5D_COUNTERS(NAME_)};
static const char *const h5d_fnames[] = {RI_H5D_F_COUNTERS(NAME_)};
static const char *const pncf_names[] = {RI_PNETCDF_FILE_COUNTERS(NAME_)};
static const char *const pncf_fnames[] = {RI_PNETCDF_FILE_F_COUNTERS(NAME_)};
static const char *const pncv_names[] = {RI_PNETCDF_VAR_COUNTERS(NAME_)};
static const char *const pncv_fnames[] = {RI_PNETCDF_VAR_F_COUNTERS(NAME_)};
#undef NAME_
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const char *const module_names[RI_DARSHAN_KNOWN_MODULES] = {
    "NULL",  "POSIX",     "MPI-IO",    "H5F",   "H5D",  "PNETCDF_FILE", "PNETCDF_VAR", "BG/Q", "LUSTRE",
    "STDIO", "DXT_POSIX", "DXT_MPIIO", "MDHIM", "APXC", "APMPI",        "HEATMAP",     "DFS",  "DAOS"};

const char *ri_darshan_module_name(unsigned module)
{
    return module < RI_DARSHAN_KNOWN_MODULES ? module_names[module] : NULL;
}

typedef struct counter_names {
    const char *const *ints, *const *floats;
    unsigned nints, nfloats;
} counter_names;

#define NAMES_(i, f) (counter_names){i, f, COUNT_OF(i), COUNT_OF(f)}

static int names_of(unsigned module, counter_names *out)
{
    switch (module) {
    case RI_DARSHAN_H5F:
        *out = NAMES_(h5f_names, h5f_fnames);
        return 0;
    case RI_DARSHAN_H5D:
        *out = NAMES_(h5d_names, h5d_fnames);
        return 0;
    case RI_DARSHAN_PNETCDF_FILE:
        *out = NAMES_(pncf_names, pncf_fnames);
        return 0;
    case RI_DARSHAN_PNETCDF_VAR:
        *out = NAMES_(pncv_names, pncv_fnames);
        return 0;
    case RI_DARSHAN_POSIX:
        *out = (counter_names){posix_names, posix_fnames, COUNT_OF(posix_names), COUNT_OF(posix_fnames)};
        return 0;
    case RI_DARSHAN_MPIIO:
        *out = (counter_names){mpiio_names, mpiio_fnames, COUNT_OF(mpiio_names), COUNT_OF(mpiio_fnames)};
        return 0;
    case RI_DARSHAN_STDIO:
        *out = (counter_names){stdio_names, stdio_fnames, COUNT_OF(stdio_names), COUNT_OF(stdio_fnames)};
        return 0;
    default:
        return -1;
    }
}

int ri_darshan_counter_index(unsigned module, const char *name, int *is_float)
{
    counter_names c;
    if (names_of(module, &c) != 0)
        return -1;
    for (unsigned i = 0; i < c.nints; i++)
        if (strcmp(c.ints[i], name) == 0) {
            *is_float = 0;
            return (int)i;
        }
    for (unsigned i = 0; i < c.nfloats; i++)
        if (strcmp(c.floats[i], name) == 0) {
            *is_float = 1;
            return (int)i;
        }
    return -1;
}

const char *ri_darshan_counter_name(unsigned module, unsigned index, int is_float)
{
    counter_names c;
    if (names_of(module, &c) != 0)
        return NULL;
    if (is_float)
        return index < c.nfloats ? c.floats[index] : NULL;
    return index < c.nints ? c.ints[index] : NULL;
}

/* ---- counter modules: one layout a version ---- */

enum { MAX_MISSING = 10, NO_COUNTER = -1, MAX_INTS = 128, MAX_FLOATS = 32 };

typedef struct layout {
    unsigned module, version;
    /* today's counters this version lacks, in increasing order */
    signed char missing_ints[MAX_MISSING], missing_floats[MAX_MISSING];
    unsigned extra_at, extra; /* `extra` stored integers from `extra_at` today's layout lacks */
    unsigned file_id;         /* 1: the record id of the file follows the rank (H5D 2, PNETCDF_VAR) */
} layout;

/* POSIX: 1 FILENOS, 2 DUPS, 10 RENAME_SOURCES, 11 RENAME_TARGETS, 12
 * RENAMED_FROM; floats 3 CLOSE_START_TIMESTAMP, 4 OPEN_END_TIMESTAMP.
 * STDIO: 1 FDOPENS. H5F: 1 FLUSHES, 2 USE_MPIIO; floats 1
 * CLOSE_START_TIMESTAMP, 2 OPEN_END_TIMESTAMP, 4 META_TIME. H5D 1: no file
 * record id (it reads 0, as darshan-util sets it). PNETCDF_FILE 1 and 2:
 * INDEP_OPENS and COLL_OPENS where today's CREATES and OPENS are, their
 * sum today's OPENS (as darshan-util adds them), 0 CREATES and 2 REDEFS to
 * 8 WAIT_FAILURES missing; floats 2 WAIT_START, 5 WAIT_END, 6 META_TIME, 7
 * WAIT_TIME, and in 1 also 1 CLOSE_START and 3 OPEN_END. */
static const layout layouts[] = {
    {RI_DARSHAN_POSIX, 4, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_POSIX, 3, {1, 2, 10, 11, 12, -1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_POSIX, 2, {1, 2, 10, 11, 12, -1}, {3, 4, -1}, 0, 0, 0},
    {RI_DARSHAN_POSIX, 1, {1, 2, 10, 11, 12, -1}, {3, 4, -1}, 6, 4, 0},
    {RI_DARSHAN_MPIIO, 3, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_MPIIO, 2, {-1}, {3, 4, -1}, 0, 0, 0},
    {RI_DARSHAN_MPIIO, 1, {-1}, {3, 4, -1}, 0, 0, 0},
    {RI_DARSHAN_STDIO, 2, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_STDIO, 1, {1, -1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_H5F, 3, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_H5F, 2, {1, 2, -1}, {4, -1}, 0, 0, 0},
    {RI_DARSHAN_H5F, 1, {1, 2, -1}, {1, 2, 4, -1}, 0, 0, 0},
    {RI_DARSHAN_H5D, 2, {-1}, {-1}, 0, 0, 1},
    {RI_DARSHAN_H5D, 1, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_PNETCDF_FILE, 3, {-1}, {-1}, 0, 0, 0},
    {RI_DARSHAN_PNETCDF_FILE, 2, {0, 2, 3, 4, 5, 6, 7, 8, -1}, {2, 5, 6, 7, -1}, 0, 1, 0},
    {RI_DARSHAN_PNETCDF_FILE, 1, {0, 2, 3, 4, 5, 6, 7, 8, -1}, {1, 2, 3, 5, 6, 7, -1}, 0, 1, 0},
    {RI_DARSHAN_PNETCDF_VAR, 1, {-1}, {-1}, 0, 0, 1},
};
enum { PNCF_OPENS_INDEX = 1 };
enum { POSIX_RENAMED_FROM_INDEX = 12 };

/* Where each stored counter goes in today's layout (NO_COUNTER: dropped). */
static unsigned stored_map(const signed char *missing, unsigned current, unsigned extra_at, unsigned extra,
                           int *map)
{
    unsigned n = 0, m = 0;
    for (unsigned i = 0; i < current; i++) {
        if (m < MAX_MISSING && missing[m] == (signed char)i) {
            m++;
            continue;
        }
        if (extra && n == extra_at)
            for (unsigned e = 0; e < extra; e++)
                map[n++] = NO_COUNTER;
        map[n++] = (int)i;
    }
    return n;
}

static int read_counter_module(ri_darshan_log *log, unsigned id, const uint8_t *b, size_t n, rec_error *err)
{
    ri_darshan_module *mod = &log->modules[id];
    const char *name = module_names[id];
    const layout *lay = NULL;
    unsigned newest = 0;
    for (size_t i = 0; i < COUNT_OF(layouts); i++) {
        if (layouts[i].module != id)
            continue;
        if (layouts[i].version > newest)
            newest = layouts[i].version;
        if (layouts[i].version == mod->version)
            lay = &layouts[i];
    }
    if (!lay)
        return dl_fail(log, err, "the %s module's version %u is none this reader knows (1 to %u)", name,
                       mod->version, newest);
    counter_names c = {0};
    names_of(id, &c);
    int int_map[MAX_INTS], float_map[MAX_FLOATS];
    unsigned nint = stored_map(lay->missing_ints, c.nints, lay->extra_at, lay->extra, int_map);
    unsigned nfloat = stored_map(lay->missing_floats, c.nfloats, 0, 0, float_map);
    size_t head = 16 + 8 * (size_t)lay->file_id;
    size_t size = head + 8 * (size_t)(nint + nfloat);
    if (n % size != 0)
        return dl_fail(log, err,
                       "corrupt %s region: %zu bytes are not whole %zu-byte records (module version %u)",
                       name, n, size, mod->version);
    size_t count = n / size;
    mod->ncounters = c.nints;
    mod->nfcounters = c.nfloats;
    mod->records = dl_alloc(log, (count ? count : 1) * sizeof *mod->records);
    int64_t *ints = dl_alloc(log, (count ? count : 1) * c.nints * sizeof *ints);
    double *floats = dl_alloc(log, (count ? count : 1) * c.nfloats * sizeof *floats);
    if (!mod->records || !ints || !floats)
        return dl_fail(log, err, "out of memory");
    size_t kept = 0;
    for (size_t r = 0; r < count; r++) {
        const uint8_t *p = b + r * size;
        if (id == RI_DARSHAN_POSIX && lay->extra && (int64_t)dl_u64(log, p + 16 + 8 * lay->extra_at) > 0)
            continue; /* POSIX 1 counted a stream here: no POSIX record of it survives */
        ri_darshan_record *rec = &mod->records[kept];
        int64_t *ci = ints + kept * c.nints;
        double *cf = floats + kept * c.nfloats;
        for (unsigned i = 0; i < c.nints; i++)
            ci[i] = -1;
        for (unsigned i = 0; i < c.nfloats; i++)
            cf[i] = -1;
        if (id == RI_DARSHAN_POSIX && lay->version < 4)
            ci[POSIX_RENAMED_FROM_INDEX] = 0;
        rec->id = dl_u64(log, p);
        rec->rank = (int64_t)dl_u64(log, p + 8);
        rec->file_id = lay->file_id ? dl_u64(log, p + 16) : 0;
        for (unsigned i = 0; i < nint; i++)
            if (int_map[i] != NO_COUNTER)
                ci[int_map[i]] = (int64_t)dl_u64(log, p + head + 8 * i);
        for (unsigned i = 0; i < nfloat; i++)
            cf[float_map[i]] = dl_f64(log, p + head + 8 * (nint + i));
        if (id == RI_DARSHAN_PNETCDF_FILE && lay->extra) /* INDEP_OPENS + COLL_OPENS */
            ci[PNCF_OPENS_INDEX] += (int64_t)dl_u64(log, p + head);
        rec->counters = ci;
        rec->fcounters = cf;
        if (rec->rank < -1 || rec->rank >= log->nprocs)
            return dl_fail(log, err, "corrupt %s region: record %zu is of rank %lld, the job had %lld", name,
                           r, (long long)rec->rank, (long long)log->nprocs);
        kept++;
    }
    mod->nrecords = kept;
    return 0;
}

/* ---- DXT ---- */

enum { DXT_RECORD = 16 + 8 + 64 + 8 + 8, DXT_SEGMENT = 32 };

static int read_dxt_module(ri_darshan_log *log, unsigned id, const uint8_t *b, size_t n, rec_error *err)
{
    ri_darshan_module *mod = &log->modules[id];
    const char *name = module_names[id];
    unsigned newest = id == RI_DARSHAN_DXT_POSIX ? 1 : 2;
    if (mod->version < 1 || mod->version > newest)
        return dl_fail(log, err, "the %s module's version %u is none this reader knows (1 to %u)", name,
                       mod->version, newest);
    /* Two passes: count the records, then decode them. */
    size_t count = 0, segments = 0;
    for (size_t at = 0; at < n;) {
        if (n - at < DXT_RECORD)
            return dl_fail(log, err, "corrupt %s region: %zu bytes at byte %zu of %zu, too few for a record",
                           name, n - at, at, n);
        uint64_t w = dl_u64(log, b + at + 88), r = dl_u64(log, b + at + 96);
        uint64_t left = (n - at - DXT_RECORD) / DXT_SEGMENT;
        if (w > left || r > left - w)
            return dl_fail(log, err,
                           "corrupt %s region: the record at byte %zu claims %lld writes and %lld reads, "
                           "%llu segments remain",
                           name, at, (long long)w, (long long)r, (unsigned long long)left);
        at += DXT_RECORD + (size_t)(w + r) * DXT_SEGMENT;
        segments += (size_t)(w + r);
        count++;
    }
    mod->dxt = dl_alloc(log, (count ? count : 1) * sizeof *mod->dxt);
    ri_darshan_segment *segs = dl_alloc(log, (segments ? segments : 1) * sizeof *segs);
    if (!mod->dxt || !segs)
        return dl_fail(log, err, "out of memory");
    size_t at = 0;
    for (size_t k = 0; k < count; k++) {
        ri_darshan_dxt *d = &mod->dxt[k];
        const uint8_t *p = b + at;
        d->id = dl_u64(log, p);
        d->rank = (int64_t)dl_u64(log, p + 8);
        d->shared = (int64_t)dl_u64(log, p + 16);
        memcpy(d->hostname, p + 24, 64);
        d->hostname[64] = 0;
        d->nwrites = dl_u64(log, p + 88);
        d->nreads = dl_u64(log, p + 96);
        if (d->rank < 0 || d->rank >= log->nprocs)
            return dl_fail(log, err,
                           "corrupt %s region: the record at byte %zu is of rank %lld, the job had %lld",
                           name, at, (long long)d->rank, (long long)log->nprocs);
        d->writes = segs;
        d->reads = segs + d->nwrites;
        for (uint64_t s = 0; s < d->nwrites + d->nreads; s++) {
            const uint8_t *q = p + DXT_RECORD + s * DXT_SEGMENT;
            segs[s].offset = id == RI_DARSHAN_DXT_MPIIO && mod->version == 1 ? -1 : (int64_t)dl_u64(log, q);
            segs[s].length = (int64_t)dl_u64(log, q + 8);
            segs[s].start = dl_f64(log, q + 16);
            segs[s].end = dl_f64(log, q + 24);
        }
        segs += d->nwrites + d->nreads;
        at += DXT_RECORD + (size_t)(d->nwrites + d->nreads) * DXT_SEGMENT;
    }
    mod->nrecords = count;
    return 0;
}

int dl_read_modules(ri_darshan_log *log, const uint8_t *file, size_t size, rec_error *err)
{
    static const unsigned decoded[] = {RI_DARSHAN_POSIX,        RI_DARSHAN_MPIIO,       RI_DARSHAN_STDIO,
                                       RI_DARSHAN_H5F,          RI_DARSHAN_H5D,         RI_DARSHAN_PNETCDF_FILE,
                                       RI_DARSHAN_PNETCDF_VAR,  RI_DARSHAN_DXT_POSIX,   RI_DARSHAN_DXT_MPIIO};
    for (size_t i = 0; i < COUNT_OF(decoded); i++) {
        unsigned m = decoded[i];
        if (log->modules[m].region.length == 0)
            continue;
        char what[64];
        snprintf(what, sizeof what, "%s module", module_names[m]);
        uint8_t *b;
        size_t n;
        if (dl_region_bytes(log, file, size, log->modules[m].region, what, &b, &n, err) != 0)
            return -1;
        int rc = m == RI_DARSHAN_DXT_POSIX || m == RI_DARSHAN_DXT_MPIIO
                     ? read_dxt_module(log, m, b, n, err)
                     : read_counter_module(log, m, b, n, err);
        if (rc != 0)
            return -1;
    }
    return 0;
}
