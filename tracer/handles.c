/* handles.c: real handle values -> small per-rank ids.
 *
 * Predefined handles (functions/handles.def) keep their fixed ids; every
 * other handle gets the next id of its space, from REC_HANDLE_DYNAMIC_BASE,
 * when the call that creates it is recorded (or when it is first seen, for
 * handles made before tracing began). Ids follow objects, not calls: in a
 * reference-counted space (rec_space_counts_references) a creating call that
 * hands back a live handle counts one more reference to it, and the handle
 * keeps its id until its last reference is dropped. A handle created by a
 * call on an excluded path is itself excluded, so its later calls are not
 * recorded; it takes its id from a range of its own, so that the ids of the
 * traced handles are those a run without the excluded calls (a replay)
 * gives them. All functions here run with the tracer's lock held. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt.h"

#include "runtime.h"

/* Handles of one space share an id counter (fds and dirfds; all HDF5 ids). */
enum { SPACE_NONE = REC_SPACE_NONE, SPACE_FD = REC_SPACE_FD, SPACE_HDF5 = REC_SPACE_HDF5, SPACE_COUNT = REC_SPACE_COUNT };
typedef unsigned space;

static space space_of(unsigned kind)
{
    return rec_kind_handle_space(kind);
}

/* ---- an open-addressing map from (space, value) to (id, excluded) ---- */
typedef struct slot {
    uint64_t key;
    uint32_t space; /* 0: empty */
    uint32_t excluded;
    int64_t id;
    uint32_t refs; /* the references the program holds: forgotten at 0 */
    uint64_t born; /* rt_handles_made once a creating call made it */
} slot;

static slot *slots;
static size_t capacity, used;
static int64_t next_id[SPACE_COUNT];
uint64_t rt_handles_made;
/* Excluded handles' ids: never recorded (their calls are skipped), far above
 * any a rank's own handles or codegen's objects (1 << 40) reach. */
#define EXCLUDED_ID_BASE ((int64_t)1 << 48)
static int64_t next_excluded_id = EXCLUDED_ID_BASE;

static size_t hash(uint64_t key, unsigned space)
{
    uint64_t h = (key ^ ((uint64_t)space << 58)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 20);
}

static slot *find(uint64_t key, unsigned space)
{
    if (!capacity)
        return NULL;
    for (size_t i = hash(key, space) & (capacity - 1);; i = (i + 1) & (capacity - 1)) {
        slot *s = &slots[i];
        if (!s->space)
            return NULL;
        if (s->space == space && s->key == key)
            return s;
    }
}

static slot *insert(uint64_t key, unsigned space)
{
    if ((used + 1) * 2 > capacity) {
        size_t old_cap = capacity;
        slot *old = slots;
        size_t cap = old_cap ? old_cap * 2 : 1024;
        slot *grown = calloc(cap, sizeof *grown);
        if (!grown)
            return NULL;
        slots = grown;
        capacity = cap;
        used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].space) {
                slot *s = insert(old[i].key, old[i].space);
                *s = old[i];
            }
        free(old);
    }
    size_t i = hash(key, space) & (capacity - 1);
    while (slots[i].space && !(slots[i].space == space && slots[i].key == key))
        i = (i + 1) & (capacity - 1);
    if (!slots[i].space)
        used++;
    slots[i] = (slot){key, space, 0, 0, 1, 0};
    return &slots[i];
}

/* Deletion with backward shift, so probes never need tombstones. */
static void erase(slot *s)
{
    size_t i = (size_t)(s - slots);
    slots[i].space = 0;
    used--;
    for (size_t j = (i + 1) & (capacity - 1); slots[j].space; j = (j + 1) & (capacity - 1)) {
        size_t home = hash(slots[j].key, slots[j].space) & (capacity - 1);
        /* move j back to i when its home is not in (i, j] */
        if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
            slots[i] = slots[j];
            slots[j].space = 0;
            i = j;
        }
    }
}

/* ---- predefined handles ---- */
typedef struct predefined {
    unsigned kind;
    uint64_t value;
    int64_t id;
    int next; /* the next entry of the same kind, -1 at the end */
} predefined;

static predefined *known;
static size_t nknown;
static int first_of_kind[REC_KIND_LIMIT]; /* -1: no predefined handle of that kind */
static int last_of_kind[REC_KIND_LIMIT];
static uint64_t max_of_kind[REC_KIND_LIMIT]; /* no predefined value above it: skip the list */
/* Which groups of constants are loaded: POSIX's at start, MPI's and HDF5's
 * at the first call that looks one up. */
enum { KNOWN_POSIX = 1, KNOWN_MPI = 2, KNOWN_HDF5 = 4 };
static unsigned known_loaded;

/* Kept in the order of handles.def: a value two constants share (MPICH's
 * MPI_LONG_LONG is MPI_LONG_LONG_INT, an MPI_INTEGER16 it lacks is
 * MPI_DATATYPE_NULL) records as the first one's id, so a name appended
 * later never takes over a value. */
/* (kind, value) -> entry of `known`, open addressing: every call with a
 * handle asks, and a kind's list is long (86 HDF5 types, 64 MPI datatypes).
 * Lock held, or at load. */
enum { INDEX_BITS = 11, INDEX_SIZE = 1 << INDEX_BITS }; /* several times the constants */
typedef struct index_entry {
    uint64_t value;
    int32_t at; /* entry + 1; 0: empty */
    uint16_t kind;
} index_entry;
static index_entry known_index[INDEX_SIZE];

static unsigned index_slot(unsigned kind, uint64_t value)
{
    return (unsigned)(((value ^ (uint64_t)kind << 56) * 0x9e3779b97f4a7c15ull) >> (64 - INDEX_BITS));
}

static void index_add(unsigned kind, uint64_t value, int at)
{
    for (unsigned s = index_slot(kind, value), n = 0; n < INDEX_SIZE; s = (s + 1) & (INDEX_SIZE - 1), n++) {
        index_entry *e = &known_index[s];
        if (e->kind == kind && e->value == value && e->at)
            return; /* the first constant of a value keeps it */
        if (!e->at) {
            *e = (index_entry){value, at + 1, (uint16_t)kind};
            return;
        }
    }
}

static void add_known(unsigned kind, uint64_t value, int64_t id)
{
    predefined *p = realloc(known, (nknown + 1) * sizeof *p);
    if (!p)
        return;
    known = p;
    known[nknown] = (predefined){kind, value, id, -1};
    index_add(kind, value, (int)nknown);
    if (first_of_kind[kind] < 0)
        first_of_kind[kind] = (int)nknown;
    else
        known[last_of_kind[kind]].next = (int)nknown;
    last_of_kind[kind] = (int)nknown++;
    if (value > max_of_kind[kind])
        max_of_kind[kind] = value;
}

static unsigned char group_of_kind[REC_KIND_LIMIT]; /* KNOWN_*, set once at start */

static unsigned known_group(unsigned kind)
{
    const char *name = rec_kind_name(kind);
    if (space_of(kind) == SPACE_HDF5)
        return KNOWN_HDF5;
    return name && strncmp(name, "MPI_", 4) == 0 ? KNOWN_MPI : KNOWN_POSIX;
}

/* Evaluating HDF5's constants initialises the HDF5 library, and Open MPI's
 * are addresses in libmpi, absent from a program without MPI (or the
 * launcher): each group waits until the application uses its library. */
static void load_known(unsigned group)
{
    if (known_loaded & group)
        return;
    known_loaded |= group;
#define H(kind, id, expr)                                                 \
    if (group_of_kind[REC_KIND_##kind] == group)                        \
        add_known(REC_KIND_##kind, (uint64_t)(uintptr_t)(expr), id);
#define T(kind, id, expr, size, extent) H(kind, id, expr)
#include "handles.def"
#undef T
#undef H
}

void rt_handles_init(void)
{
    for (int s = 0; s < SPACE_COUNT; s++)
        next_id[s] = REC_HANDLE_DYNAMIC_BASE;
    for (unsigned k = 0; k < REC_KIND_LIMIT; k++) {
        first_of_kind[k] = -1;
        group_of_kind[k] = (unsigned char)known_group(k);
    }
    known_loaded = 0;
    load_known(KNOWN_POSIX);
}

static int lookup_known(unsigned kind, uint64_t value, int64_t *id)
{
    if (kind < REC_KIND_LIMIT && !(known_loaded & group_of_kind[kind]))
        load_known(group_of_kind[kind]);
    if (kind < REC_KIND_LIMIT && value > max_of_kind[kind] && kind != REC_KIND_DIRFD)
        return 0;
    for (unsigned s = index_slot(kind, value); known_index[s].at; s = (s + 1) & (INDEX_SIZE - 1))
        if (known_index[s].kind == kind && known_index[s].value == value) {
            *id = known[known_index[s].at - 1].id;
            return 1;
        }
    /* A DIRFD that is not AT_FDCWD is an fd. */
    if (kind == REC_KIND_DIRFD)
        return lookup_known(REC_KIND_FD, value, id);
    return 0;
}


int rt_handle_predefined(unsigned kind, uint64_t value, int64_t *id)
{
    return lookup_known(kind, value, id);
}

int64_t rt_mpi_error_class(int code)
{
    int cls;
    int64_t id;
    if (code == MPI_SUCCESS)
        return 0;
    if (PMPI_Error_class(code, &cls) != MPI_SUCCESS)
        cls = MPI_ERR_UNKNOWN;
    return lookup_known(REC_KIND_MPI_ERROR, (uint64_t)(uint32_t)cls, &id) ? id : 64 + (int64_t)cls;
}

uint64_t rt_handle_value(unsigned kind, int64_t id)
{
    int64_t ignored;
    lookup_known(kind, 0, &ignored); /* loads HDF5's constants on first use */
    for (int i = kind < REC_KIND_LIMIT ? first_of_kind[kind] : -1; i >= 0; i = known[i].next)
        if (known[i].id == id)
            return known[i].value;
    return 0;
}

/* The next id of a space, past the predefined REC_HANDLE_MORE range. */
static int64_t take_id(space sp)
{
    if (next_id[sp] == REC_HANDLE_MORE_BASE)
        next_id[sp] += REC_HANDLE_MORE_COUNT;
    return next_id[sp]++;
}

/* The id of a handle whose calls are skipped: out of the space's count. */
static int64_t take_excluded_id(void)
{
    return next_excluded_id++;
}

int64_t rt_handle_phantom(unsigned kind)
{
    space sp = space_of(kind);
    return sp == SPACE_NONE ? -1 : take_id(sp);
}

/* Handles the tracer can rebuild when the program first uses them without
 * a traced call having made them. */
static int rebuildable(unsigned kind)
{
    switch (kind) {
    case REC_KIND_MPI_COMM:
    case REC_KIND_MPI_GROUP:
    case REC_KIND_MPI_INFO:
    case REC_KIND_MPI_DATATYPE:
    case REC_KIND_MPI_DATATYPE_ARRAY:
    case REC_KIND_H5_SPACE:
    case REC_KIND_H5_TYPE:
    case REC_KIND_H5_PLIST:
    case REC_KIND_H5_LOC:
        return 1;
    default:
        return 0;
    }
}

/* An fd first seen without the call that opened it (inherited, or made by
 * pipe(), socket(), eventfd() ...): only regular files, directories and
 * block devices are file I/O; pipes and sockets are inter-process traffic. */
/* 1: a file; 0: another kind of descriptor; -1: not open at all (nothing to remember). */
static int classify_fd(int fd)
{
    struct stat st;
    int saved = errno;
    if (!rt_real.fstat) /* a call before the tracer's constructor */
        rt_real_resolve();
    int rc = rt_real.fstat(fd, &st); /* the C library's, never the wrapper */
    errno = saved;
    if (rc != 0)
        return -1;
    return S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || S_ISBLK(st.st_mode);
}

/* File descriptors are small numbers used on almost every call: a direct
 * table in front of the map (0: not cached; else id + 1, negated when the
 * fd is excluded). Kept in step with the map by remember_fd and rt_handle_forget. */
enum { FD_CACHE = 4096 };
static int64_t fd_cache[FD_CACHE];

static void remember_fd(space sp, uint64_t value, const slot *s)
{
    if (sp == SPACE_FD && value < FD_CACHE)
        fd_cache[value] = s->excluded ? -(s->id + 1) : s->id + 1;
}

/* Negative fds and hids are invalid, not handles; so is hid 0, which HDF5
 * never gives an object (H5P_DEFAULT and H5S_ALL, the kinds that take 0,
 * are predefined and found before this is asked). */
static int invalid_value(space sp, uint64_t value)
{
    return (sp == SPACE_FD && (int64_t)value < 0) || (sp == SPACE_HDF5 && (int64_t)value <= 0);
}

int64_t rt_handle(rt_call *c, unsigned kind, uint64_t value)
{
    int64_t id;
    if (kind == REC_KIND_FD && value > 2 && value < FD_CACHE && fd_cache[value]) {
        int64_t e = fd_cache[value];
        if (e < 0)
            c->skip = 1;
        return (e < 0 ? -e : e) - 1;
    }
    if (lookup_known(kind, value, &id))
        return id;
    space sp = space_of(kind);
    if (sp == SPACE_NONE)
        return (int64_t)value;
    slot *s = find(value, sp);
    if (s) {
        if (s->excluded)
            c->skip = 1;
        return s->id;
    }
    if (invalid_value(sp, value))
        return -1;
    int file = sp == SPACE_FD ? classify_fd((int)value) : 1;
    if (file < 0)
        return -1; /* a bad fd: the call fails, and the number means nothing yet */
    s = insert(value, sp);
    if (!s)
        return -1;
    s->id = file ? take_id(sp) : take_excluded_id();
    if (!file) {
        s->excluded = 1;
        c->skip = 1;
    }
    remember_fd(sp, value, s);
    id = s->id; /* rebuilding may grow the map: s moves */
    if (rebuildable(kind))
        rt_rebuild(c, kind, value, id);
    return id;
}

int64_t rt_handle_new(rt_call *c, unsigned kind, uint64_t value, int ok)
{
    if (!ok)
        return -1;
    int64_t id;
    if (lookup_known(kind, value, &id))
        return id;
    space sp = space_of(kind);
    if (sp == SPACE_NONE)
        return (int64_t)value;
    if (invalid_value(sp, value))
        return -1;
    /* dup2(fd, fd), freopen(..., stream) returning stream: the handle the
     * call was given lives on, with its id. */
    slot *old = find(value, sp);
    if (old) {
        const rec_func_desc *f = rec_function_by_id(c->rec.func);
        for (unsigned a = 0; f && a < f->nargs; a++)
            if (!(f->args[a].flags & REC_ARG_CREATE) && rec_kind_handle_space(f->args[a].kind) == sp &&
                c->raw[a] == value)
                return old->id;
        /* Made by a call this one made (ncmpi_inq_file_info's MPI_Info_dup):
         * the reference that call counted is the one handed back. */
        if (old->born > c->handles_made)
            return old->id;
        /* MPICH's MPI_Comm_group twice on one communicator, H5Iget_file_id:
         * the same live object, one more reference. */
        if (rec_space_counts_references(sp)) {
            old->refs++;
            if (old->excluded)
                c->skip = 1;
            return old->id;
        }
    }
    slot *s = insert(value, sp);
    if (!s)
        return -1;
    s->id = c->skip ? take_excluded_id() : take_id(sp);
    s->excluded = c->skip;
    __atomic_store_n(&rt_handles_made, rt_handles_made + 1, __ATOMIC_RELAXED);
    s->born = rt_handles_made;
    remember_fd(sp, value, s);
    return s->id;
}

int rt_handle_known(unsigned kind, uint64_t value, int64_t *id)
{
    if (lookup_known(kind, value, id))
        return 1;
    slot *s = space_of(kind) == SPACE_NONE ? NULL : find(value, space_of(kind));
    if (!s || s->excluded)
        return 0;
    *id = s->id;
    return 1;
}

void rt_handle_forget(unsigned kind, uint64_t value)
{
    if (space_of(kind) == SPACE_FD && value < FD_CACHE)
        fd_cache[value] = 0;
    slot *s = find(value, space_of(kind));
    if (s)
        erase(s);
}

void rt_handle_retain(unsigned kind, uint64_t value, int64_t count)
{
    slot *s = space_of(kind) == SPACE_NONE ? NULL : find(value, space_of(kind));
    if (s)
        s->refs = count > 0 ? (uint32_t)count : s->refs + 1;
}

void rt_handle_release(unsigned kind, uint64_t value, int64_t count)
{
    slot *s = space_of(kind) == SPACE_NONE ? NULL : find(value, space_of(kind));
    if (!s)
        return;
    s->refs = count >= 0 ? (uint32_t)count : s->refs ? s->refs - 1 : 0;
    if (!s->refs)
        rt_handle_forget(kind, value);
}

void rt_handle_array(rt_call *c, unsigned kind, const void *values, uint32_t n)
{
    int64_t *v = (int64_t *)values;
    for (uint32_t k = 0; k < n; k++)
        v[k] = rt_handle(c, kind, (uint64_t)v[k]);
}

int64_t rt_callback_id(uint64_t address)
{
    static uint64_t *seen; /* by id - 1 */
    static size_t nseen, cap;
    if (!address)
        return 0;
    for (size_t i = 0; i < nseen; i++)
        if (seen[i] == address)
            return (int64_t)i + 1;
    if (nseen == cap) {
        size_t grown_cap = cap ? cap * 2 : 16;
        uint64_t *grown = realloc(seen, grown_cap * sizeof *grown);
        if (!grown)
            return -1;
        seen = grown;
        cap = grown_cap;
    }
    seen[nseen++] = address;
    return (int64_t)nseen;
}

void rt_handle_release_of(unsigned kind, uint64_t value, int64_t id)
{
    slot *s = space_of(kind) == SPACE_NONE ? NULL : find(value, space_of(kind));
    if (s && s->id == id)
        rt_handle_release(kind, value, -1);
}
