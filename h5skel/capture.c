/* capture.c: the structure of an HDF5 file, read through a read-only open
 * of our own. The tracer calls this right after an application opened a
 * file it did not create: never with the application's handle, whose
 * driver may be MPI-IO with collective metadata reads (a walk by one rank
 * would hang the others), but with the sec2 driver on a fresh access
 * property list, without file locks (another process may hold the file
 * open for writing; this open only reads). HDF5's own encodings of every
 * type, dataspace and property list (H5Tencode, H5Sencode, H5Pencode) keep
 * what the file says exactly, compound types and filters included. */
#define _GNU_SOURCE
#include "recorder_h5skel.h"
#include "h5value_encode.h"
#include "ohdr.h"

#include <hdf5.h>
/* A program that binds HDF5's names itself (librecorder.so links no HDF5
 * and finds the application's at run time) names its binding header. */
#ifdef H5SKEL_HDF5_BINDING
#include H5SKEL_HDF5_BINDING
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Chunk sizes are listed up to this many chunks per dataset: HDF5 1.10
 * finds the n-th chunk by walking its index, so listing costs n^2. */
enum { MAX_LISTED_CHUNKS = 4096, MAX_OBJECTS = 1 << 20 };

typedef struct found {
    char *name;
    uint64_t addr;
    H5O_type_t type;
} found;

typedef struct walk {
    hid_t file;
    found *objs;
    size_t nobjs, capobjs;
    h5skel *s;
    size_t cap;
    const char *current; /* the object whose attributes are read */
    char err[512];
} walk;

static char *dup_str(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        abort();
    return d;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 64;
    p = realloc(p, *cap * size);
    if (!p)
        abort();
    return p;
}

static __attribute__((format(printf, 2, 3))) void fail(walk *w, const char *fmt, ...)
{
    if (w->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
}

static h5skel_object *add_row(walk *w, char kind, const char *name, const char *other)
{
    w->s->objects = grow(w->s->objects, &w->cap, w->s->nobjects, sizeof *w->s->objects);
    h5skel_object *o = &w->s->objects[w->s->nobjects++];
    memset(o, 0, sizeof *o);
    o->kind = kind;
    o->name = dup_str(name);
    o->other = dup_str(other);
    o->data_addr = -1;
    H5L_info_t link;
    int linked = kind == H5SKEL_GROUP || kind == H5SKEL_NAMED_TYPE || kind == H5SKEL_DATASET ||
                 kind == H5SKEL_HARD_LINK || kind == H5SKEL_SOFT_LINK;
    o->corder = linked && H5Lget_info(w->file, name, &link, H5P_DEFAULT) >= 0 && link.corder_valid ? link.corder : -1;
    return o;
}

/* H5Tencode, H5Sencode and H5Pencode share this form in HDF5 1.10. */
typedef herr_t (*encoder)(hid_t, void *, size_t *);

static int encode(walk *w, hid_t obj, encoder fn, h5skel_bytes *out, const char *what, const char *name)
{
    size_t n = 0;
    if (obj < 0 || fn(obj, NULL, &n) < 0 || !n || !(out->data = malloc(n)) || fn(obj, out->data, &n) < 0) {
        fail(w, "cannot encode the %s of %s", what, name);
        return -1;
    }
    out->len = n;
    return 0;
}

static herr_t tencode(hid_t t, void *buf, size_t *n)
{
    return H5Tencode(t, buf, n);
}

static herr_t sencode(hid_t s, void *buf, size_t *n)
{
    return H5Sencode(s, buf, n);
}

static herr_t pencode(hid_t p, void *buf, size_t *n)
{
    return H5Pencode(p, buf, n);
}

/* ---- what people read: "8-byte float, 100 x 64, chunked 10 x 64, deflate 6" ---- */

static size_t say(char *s, size_t cap, size_t at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static size_t say(char *s, size_t cap, size_t at, const char *fmt, ...)
{
    if (at >= cap)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s + at, cap - at, fmt, ap);
    va_end(ap);
    return n < 0 ? at : at + (size_t)n;
}

static size_t say_type(char *s, size_t cap, size_t at, hid_t type)
{
    static const char *const names[] = {"integer",  "float",           "time",     "string",
                                        "bitfield", "opaque",          "compound", "reference",
                                        "enum",     "variable-length", "array"};
    H5T_class_t c = H5Tget_class(type);
    const char *name = c >= 0 && (size_t)c < sizeof names / sizeof names[0] ? names[c] : "unknown";
    if (c == H5T_STRING && H5Tis_variable_str(type) > 0)
        return say(s, cap, at, "variable-length string");
    if (c == H5T_COMPOUND)
        return say(s, cap, at, "%zu-byte compound of %d members", H5Tget_size(type), H5Tget_nmembers(type));
    return say(s, cap, at, "%zu-byte %s", H5Tget_size(type), name);
}

static size_t say_space(char *s, size_t cap, size_t at, hid_t space)
{
    hsize_t dims[H5S_MAX_RANK], maxdims[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_dims(space, dims, maxdims);
    if (H5Sget_simple_extent_type(space) == H5S_NULL)
        return say(s, cap, at, ", no data");
    if (rank <= 0)
        return say(s, cap, at, ", scalar");
    int same = 1;
    for (int d = 0; d < rank; d++) {
        at = say(s, cap, at, "%s%llu", d ? " x " : ", ", (unsigned long long)dims[d]);
        same &= maxdims[d] == dims[d];
    }
    for (int d = 0; d < rank && !same; d++) {
        if (maxdims[d] == H5S_UNLIMITED)
            at = say(s, cap, at, "%sunlimited", d ? " x " : " (at most ");
        else
            at = say(s, cap, at, "%s%llu", d ? " x " : " (at most ", (unsigned long long)maxdims[d]);
    }
    return same ? at : say(s, cap, at, ")");
}

static size_t say_layout(char *s, size_t cap, size_t at, hid_t dcpl)
{
    H5D_layout_t layout = H5Pget_layout(dcpl);
    if (layout == H5D_COMPACT)
        return say(s, cap, at, ", compact");
    if (layout != H5D_CHUNKED)
        return say(s, cap, at, ", contiguous");
    hsize_t chunk[H5S_MAX_RANK];
    int rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, chunk);
    for (int d = 0; d < rank; d++)
        at = say(s, cap, at, "%s%llu", d ? " x " : ", chunked ", (unsigned long long)chunk[d]);
    int nfilters = H5Pget_nfilters(dcpl);
    for (int i = 0; i < nfilters; i++) {
        unsigned flags, config, values[8];
        size_t nvalues = 8;
        char name[64] = "";
        H5Z_filter_t id =
            H5Pget_filter2(dcpl, (unsigned)i, &flags, &nvalues, values, sizeof name, name, &config);
        at = say(s, cap, at, ", %s", name[0] ? name : "filter");
        if (id == H5Z_FILTER_DEFLATE && nvalues)
            at = say(s, cap, at, " %u", values[0]);
        else if (!name[0])
            at = say(s, cap, at, " %d", (int)id);
    }
    return at;
}

/* ---- the walk ---- */

static herr_t on_object(hid_t loc, const char *name, const H5O_info_t *info, void *data)
{
    (void)loc;
    walk *w = data;
    if (w->nobjs >= MAX_OBJECTS) {
        fail(w, "more than %d objects", MAX_OBJECTS);
        return -1;
    }
    w->objs = grow(w->objs, &w->capobjs, w->nobjs, sizeof *w->objs);
    char path[8192];
    snprintf(path, sizeof path, "/%s", strcmp(name, ".") ? name : "");
    w->objs[w->nobjs++] = (found){dup_str(path), info->addr, info->type};
    return 0;
}

static const found *by_addr(const walk *w, uint64_t addr)
{
    for (size_t i = 0; i < w->nobjs; i++)
        if (w->objs[i].addr == addr)
            return &w->objs[i];
    return NULL;
}

/* A link: a hard link to an object of another name, or a soft link. */
typedef struct link {
    char *name, *target; /* target: the soft link's, else NULL */
    uint64_t addr;
} link;

typedef struct links {
    walk *w;
    link *all;
    size_t n, cap;
} links;

static herr_t on_link(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
    links *l = data;
    char path[8192], target[8192] = "";
    snprintf(path, sizeof path, "/%s", name);
    if (info->type == H5L_TYPE_HARD) {
        const found *f = by_addr(l->w, info->u.address);
        if (!f || !strcmp(f->name, path))
            return 0;
    } else if (info->type == H5L_TYPE_SOFT) {
        if (info->u.val_size >= sizeof target ||
            H5Lget_val(group, name, target, sizeof target, H5P_DEFAULT) < 0) {
            fail(l->w, "cannot read the soft link %s", path);
            return -1;
        }
    } else
        return 0; /* external and user-defined links name other files: left out */
    l->all = grow(l->all, &l->cap, l->n, sizeof *l->all);
    l->all[l->n++] = (link){dup_str(path), info->type == H5L_TYPE_SOFT ? dup_str(target) : NULL,
                            info->type == H5L_TYPE_HARD ? info->u.address : 0};
    return 0;
}

/* The address of the group holding the link path, or 0. */
static uint64_t parent_addr(const walk *w, const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t n = slash && slash != path ? (size_t)(slash - path) : 1;
    for (size_t i = 0; i < w->nobjs; i++)
        if (strlen(w->objs[i].name) == n && !strncmp(w->objs[i].name, path, n))
            return w->objs[i].addr;
    return 0;
}

/* An object of several names was made under the one whose group was made
 * last before it (its link went in right after it): that name makes it,
 * the others link to it. Groups keep their first name (their members' names
 * start with it). */
static void choose_names(walk *w, links *l)
{
    for (size_t i = 0; i < l->n; i++) {
        found *f = l->all[i].target ? NULL : (found *)by_addr(w, l->all[i].addr);
        if (!f || f->type == H5O_TYPE_GROUP)
            continue;
        uint64_t mine = parent_addr(w, f->name), theirs = parent_addr(w, l->all[i].name);
        if (theirs > mine && theirs < f->addr) {
            char *was = f->name;
            f->name = l->all[i].name;
            l->all[i].name = was;
        }
    }
}

static void link_rows(walk *w, links *l)
{
    for (size_t i = 0; i < l->n; i++) {
        const found *f = l->all[i].target ? NULL : by_addr(w, l->all[i].addr);
        if (l->all[i].target)
            add_row(w, H5SKEL_SOFT_LINK, l->all[i].name, l->all[i].target)->about = dup_str("");
        else if (f)
            add_row(w, H5SKEL_HARD_LINK, l->all[i].name, f->name)->about = dup_str("");
        free(l->all[i].name);
        free(l->all[i].target);
    }
    free(l->all);
}

/* An attribute's value by its meaning (h5value_encode.c): strings and
 * sequences by their contents, object references by their objects' paths,
 * which a re-created file resolves to its own objects; none past
 * H5SKEL_MAX_VALUE bytes. */
static void value_by_meaning(h5skel_object *o, hid_t attr, hid_t type, hid_t space, size_t points,
                             size_t size)
{
    unsigned char *mem = calloc(points, size);
    if (!mem || H5Aread(attr, type, mem) < 0) {
        free(mem);
        return;
    }
    size_t len = 0;
    o->value.data = h5value_encode(type, points, mem, attr, H5SKEL_MAX_VALUE, &len);
    o->value.len = o->value.data ? len : 0;
    /* what HDF5 allocated for the value's sequences and strings */
    if (H5Tdetect_class(type, H5T_VLEN) > 0 || H5Tdetect_class(type, H5T_STRING) > 0)
        H5Dvlen_reclaim(type, space, H5P_DEFAULT, mem);
    free(mem);
}

static herr_t on_attribute(hid_t obj, const char *name, const H5A_info_t *ainfo, void *data)
{
    (void)ainfo;
    walk *w = data;
    hid_t attr = H5Aopen(obj, name, H5P_DEFAULT);
    hid_t type = H5Aget_type(attr), space = H5Aget_space(attr);
    h5skel_object *o = add_row(w, H5SKEL_ATTRIBUTE, w->current, name);
    int rc = encode(w, type, tencode, &o->type, "type of attribute", name) |
             encode(w, space, sencode, &o->space, "dataspace of attribute", name);
    char about[512];
    say_space(about, sizeof about, say_type(about, sizeof about, 0, type), space);
    o->about = dup_str(about);
    hssize_t points = H5Sget_simple_extent_npoints(space);
    size_t size = H5Tget_size(type);
    if (rc == 0 && points > 0 && size && (size_t)points <= H5SKEL_MAX_VALUE / size)
        value_by_meaning(o, attr, type, space, (size_t)points, size);
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(attr);
    return rc == 0 ? 0 : -1;
}

static void chunks(walk *w, h5skel_object *o, hid_t dset, hid_t space, int ndims)
{
#if H5_VERSION_GE(1, 10, 5) /* the chunk queries */
    hsize_t n = 0;
    if (H5Dget_num_chunks(dset, space, &n) < 0 || n > MAX_LISTED_CHUNKS || ndims <= 0)
        return;
    o->ndims = (uint32_t)ndims;
    o->chunk_size = calloc(n ? n : 1, sizeof *o->chunk_size);
    o->chunk_offset = calloc(n ? n * (size_t)ndims : 1, sizeof *o->chunk_offset);
    if (!o->chunk_size || !o->chunk_offset)
        abort();
    for (hsize_t i = 0; i < n; i++) {
        hsize_t offset[H5S_MAX_RANK], size = 0;
        unsigned mask = 0;
        haddr_t addr;
        if (H5Dget_chunk_info(dset, space, i, offset, &mask, &addr, &size) < 0) {
            fail(w, "cannot read chunk %llu of %s", (unsigned long long)i, o->name);
            return;
        }
        o->chunk_size[i] = size;
        if (addr != HADDR_UNDEF && (o->data_addr < 0 || (int64_t)addr < o->data_addr))
            o->data_addr = (int64_t)addr;
        for (int d = 0; d < ndims; d++)
            o->chunk_offset[i * (size_t)ndims + (size_t)d] = offset[d];
    }
    o->nchunks = n;
#else
    (void)w, (void)o, (void)dset, (void)space, (void)ndims;
#endif
}

static int dataset(walk *w, const found *f)
{
    hid_t dset = H5Dopen2(w->file, f->name, H5P_DEFAULT);
    hid_t type = H5Dget_type(dset), space = H5Dget_space(dset), dcpl = H5Dget_create_plist(dset);
    h5skel_object *o = add_row(w, H5SKEL_DATASET, f->name, "");
    o->addr = f->addr;
    int rc = 0;
    if (H5Tcommitted(type) > 0) {
        H5O_info_t info;
        const found *named = H5Oget_info2(type, &info, H5O_INFO_BASIC) >= 0 ? by_addr(w, info.addr) : NULL;
        if (named) {
            free(o->other);
            o->other = dup_str(named->name);
        } else
            rc = -1;
    }
    if (rc == 0 && !o->other[0])
        rc = encode(w, type, tencode, &o->type, "datatype", f->name);
    rc |= encode(w, space, sencode, &o->space, "dataspace", f->name) |
          encode(w, dcpl, pencode, &o->plist, "creation properties", f->name);
    char about[1024];
    size_t at = say_type(about, sizeof about, 0, type);
    say_layout(about, sizeof about, say_space(about, sizeof about, at, space), dcpl);
    o->about = dup_str(about);
    o->storage = H5Dget_storage_size(dset);
    haddr_t data = H5Dget_offset(dset);
    o->data_addr = data == HADDR_UNDEF ? -1 : (int64_t)data;
    if (H5Pget_layout(dcpl) == H5D_CHUNKED) /* data_addr: its first chunk's */
        chunks(w, o, dset, space, H5Sget_simple_extent_ndims(space));
    w->current = f->name;
    if (rc == 0 && H5Aiterate2(dset, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, on_attribute, w) < 0)
        rc = -1;
    H5Pclose(dcpl);
    H5Sclose(space);
    H5Tclose(type);
    H5Dclose(dset);
    if (rc)
        fail(w, "cannot read the dataset %s", f->name);
    return rc;
}

static int object(walk *w, const found *f)
{
    if (f->type == H5O_TYPE_DATASET)
        return dataset(w, f);
    int is_group = f->type == H5O_TYPE_GROUP, root = !strcmp(f->name, "/");
    if (!is_group && f->type != H5O_TYPE_NAMED_DATATYPE) {
        fail(w, "%s is an object of unknown type", f->name);
        return -1;
    }
    hid_t obj = is_group ? H5Gopen2(w->file, f->name, H5P_DEFAULT) : H5Topen2(w->file, f->name, H5P_DEFAULT);
    int rc = obj < 0;
    if (!root) { /* the root group comes with the file */
        h5skel_object *o = add_row(w, is_group ? H5SKEL_GROUP : H5SKEL_NAMED_TYPE, f->name, "");
        o->addr = f->addr;
        if (is_group) {
            hid_t gcpl = H5Gget_create_plist(obj);
            rc |= encode(w, gcpl, pencode, &o->plist, "creation properties", f->name);
            H5Pclose(gcpl);
            o->about = dup_str("");
        } else {
            rc |= encode(w, obj, tencode, &o->type, "datatype", f->name);
            char about[256];
            say_type(about, sizeof about, 0, obj);
            o->about = dup_str(about);
        }
    }
    w->current = f->name;
    if (rc == 0 && H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_NATIVE, NULL, on_attribute, w) < 0)
        rc = -1;
    if (obj >= 0)
        (is_group ? H5Gclose : H5Tclose)(obj);
    if (rc)
        fail(w, "cannot read %s", f->name);
    return rc;
}

/* An object and its attributes: rows [at, at + n); its place in the
 * making order: before the data-writing dataset `before`, then by `sub`. */
typedef struct unit {
    uint64_t data, header; /* data: its first data block's address, or UINT64_MAX */
    size_t before;
    uint64_t sub;
    size_t at, n;
} unit;

static int by_data(const void *a, const void *b)
{
    const unit *x = *(unit *const *)a, *y = *(unit *const *)b;
    return x->data != y->data ? (x->data < y->data ? -1 : 1) : (x->at < y->at ? -1 : x->at > y->at);
}

static int by_place(const void *a, const void *b)
{
    const unit *x = a, *y = b;
    if (x->before != y->before)
        return x->before < y->before ? -1 : 1;
    return x->sub != y->sub ? (x->sub < y->sub ? -1 : 1) : (x->at < y->at ? -1 : x->at > y->at);
}

static int siblings(const char *a, const char *b)
{
    const char *x = strrchr(a, '/'), *y = strrchr(b, '/');
    return x - a == y - b && !strncmp(a, b, (size_t)(x - a));
}

/* The order the objects were most likely made in. A dataset's data goes to
 * the end of the file when it is written, right after the dataset is made,
 * so datasets with data are made in the order of their data; their headers
 * may sit in holes of the metadata space, made later than their addresses
 * tell. Anything else (groups, named types, datasets without data) is made
 * after every one of those datasets whose data lies below its header and
 * before the first whose header lies above it; between the two, where
 * addresses cannot tell (metadata is taken from blocks set aside before the
 * data that follows them), before the first sibling of a greater name, as
 * writers that number their datasets make them. Rows from `first` on. */
static void by_making(h5skel *s, size_t first)
{
    size_t n = s->nobjects, nunits = 0, ndata = 0;
    unit *u = malloc((n ? n : 1) * sizeof *u), **data = malloc((n ? n : 1) * sizeof *data);
    uint64_t *highest = malloc((n ? n : 1) * sizeof *highest);
    h5skel_object *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!u || !data || !highest || !rows)
        abort();
    for (size_t i = first; i < n; i++) {
        const h5skel_object *o = &s->objects[i];
        if (o->kind == H5SKEL_ATTRIBUTE && nunits && u[nunits - 1].at + u[nunits - 1].n == i) {
            u[nunits - 1].n++;
            continue;
        }
        int has_data = o->kind == H5SKEL_DATASET && o->data_addr >= 0;
        u[nunits++] = (unit){has_data ? (uint64_t)o->data_addr : UINT64_MAX, o->addr, 0, 0, i, 1};
    }
    for (size_t k = 0; k < nunits; k++)
        if (u[k].data != UINT64_MAX)
            data[ndata++] = &u[k];
    qsort(data, ndata, sizeof *data, by_data);
    for (size_t p = 0; p < ndata; p++) { /* each one's place, and the highest header so far */
        data[p]->before = p;
        data[p]->sub = UINT64_MAX;
        highest[p] = p && highest[p - 1] > data[p]->header ? highest[p - 1] : data[p]->header;
    }
    for (size_t k = 0; k < nunits; k++) {
        if (u[k].data != UINT64_MAX)
            continue;
        size_t lo = 0, hi = ndata; /* the first place whose highest header is above this one's */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (highest[mid] > u[k].header)
                hi = mid;
            else
                lo = mid + 1;
        }
        size_t after = 0; /* the first place whose data lies above this one's header */
        for (hi = lo; after < hi;) {
            size_t mid = (after + hi) / 2;
            if (data[mid]->data > u[k].header)
                hi = mid;
            else
                after = mid + 1;
        }
        const char *name = s->objects[u[k].at].name;
        for (; after < lo; after++) {
            const char *other = s->objects[data[after]->at].name;
            if (siblings(name, other) && strcmp(other, name) > 0)
                break;
        }
        u[k].before = after;
        u[k].sub = u[k].header;
    }
    qsort(u, nunits, sizeof *u, by_place);
    size_t at = first;
    for (size_t k = 0; k < nunits; k++) {
        memcpy(&rows[at], &s->objects[u[k].at], u[k].n * sizeof *rows);
        at += u[k].n;
    }
    memcpy(&s->objects[first], &rows[first], (n - first) * sizeof *rows);
    free(rows);
    free(highest);
    free(data);
    free(u);
}

/* A group made in a hole the file's free space left (below the data of a
 * dataset made before it) was made later than its address tells: it goes
 * right before the first object inside it, as a writer makes a group when
 * it starts filling it. Rows from `first` on: objects, each with its
 * attributes after it. */
static void defer_groups(h5skel *s, size_t first)
{
    size_t n = s->nobjects;
    h5skel_object *tmp = malloc((n ? n : 1) * sizeof *tmp);
    if (!tmp)
        abort();
    for (size_t g = first; g < n; g++) {
        h5skel_object *grp = &s->objects[g];
        if (grp->kind != H5SKEL_GROUP)
            continue;
        int hole = 0;
        for (size_t d = first; d < g && !hole; d++)
            hole = s->objects[d].kind == H5SKEL_DATASET && s->objects[d].data_addr > (int64_t)grp->addr;
        size_t end = g + 1, len = strlen(grp->name), to = n;
        while (end < n && s->objects[end].kind == H5SKEL_ATTRIBUTE)
            end++;
        for (size_t k = end; k < n && to == n && hole; k++)
            if (s->objects[k].kind != H5SKEL_ATTRIBUTE && !strncmp(s->objects[k].name, grp->name, len) &&
                s->objects[k].name[len] == '/')
                to = k;
        if (to == n || to == end)
            continue;
        /* rows [g, end) move to just before row `to` */
        size_t unit = end - g;
        memcpy(tmp, &s->objects[g], unit * sizeof *tmp);
        memmove(&s->objects[g], &s->objects[end], (to - end) * sizeof *tmp);
        memcpy(&s->objects[to - unit], tmp, unit * sizeof *tmp);
        g--; /* the row now at g is another one */
    }
    free(tmp);
}

static int by_address(const void *a, const void *b)
{
    const found *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The root group's creation properties, which the file's creation property
 * list sets but H5Fget_create_plist does not return (HDF5 1.10): creation
 * order tracked and indexed, for links and attributes, their phase changes
 * the link storage estimates, and whether its header records times (netCDF-4
 * turns them off: 16 bytes of the header). Copied into fcpl, so the
 * re-created file's root group tracks what the original's did (netCDF-4
 * iterates its links in creation order) and has its size. 1: "creation
 * order" is tracked for something. */
static int root_group_into(hid_t file, hid_t fcpl)
{
    hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
    hid_t gcpl = root < 0 ? H5I_INVALID_HID : H5Gget_create_plist(root);
    unsigned links = 0, attrs = 0, max_compact, min_dense, est_num, est_name;
    size_t heap;
    hbool_t times;
    if (gcpl >= 0) {
        H5F_info2_t info; /* version 1 headers (superblocks 0 and 1) say nothing of times */
        if (H5Fget_info2(file, &info) >= 0 && info.super.version >= 2 &&
            H5Pget_obj_track_times(gcpl, &times) >= 0)
            H5Pset_obj_track_times(fcpl, times);
        if (H5Pget_link_creation_order(gcpl, &links) >= 0)
            H5Pset_link_creation_order(fcpl, links);
        if (H5Pget_attr_creation_order(gcpl, &attrs) >= 0)
            H5Pset_attr_creation_order(fcpl, attrs);
        if (H5Pget_link_phase_change(gcpl, &max_compact, &min_dense) >= 0)
            H5Pset_link_phase_change(fcpl, max_compact, min_dense);
        if (H5Pget_attr_phase_change(gcpl, &max_compact, &min_dense) >= 0)
            H5Pset_attr_phase_change(fcpl, max_compact, min_dense);
        if (H5Pget_est_link_info(gcpl, &est_num, &est_name) >= 0)
            H5Pset_est_link_info(fcpl, est_num, est_name);
        if (H5Pget_local_heap_size_hint(gcpl, &heap) >= 0)
            H5Pset_local_heap_size_hint(fcpl, heap);
        H5Pclose(gcpl);
    }
    if (root >= 0)
        H5Gclose(root);
    return (links | attrs) != 0;
}

static int file_row(walk *w)
{
    H5F_info2_t info;
    hid_t fcpl = H5Fget_create_plist(w->file);
    int in_order = fcpl >= 0 && root_group_into(w->file, fcpl);
    h5skel_object *o = add_row(w, H5SKEL_FILE, "/", "");
    int rc = (H5Fget_info2(w->file, &info) < 0) |
             encode(w, fcpl, pencode, &o->plist, "creation properties", "the file");
    H5Pclose(fcpl);
    uint8_t version = (uint8_t)info.super.version;
    o->value.data = malloc(1);
    if (!o->value.data)
        abort();
    o->value.data[0] = version;
    o->value.len = 1;
    hsize_t userblock = 0;
    hid_t again = H5Fget_create_plist(w->file);
    H5Pget_userblock(again, &userblock);
    H5Pclose(again);
    char about[256];
    snprintf(about, sizeof about, "superblock version %u, %llu-byte user block%s", version,
             (unsigned long long)userblock, in_order ? ", root group in creation order" : "");
    o->about = dup_str(about);
    hsize_t size = 0;
    H5Fget_filesize(w->file, &size);
    w->s->file_size = size;
    return rc ? -1 : 0;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Attributes made after their object's header filled up, where they were
 * made (ohdr.c), read through this capture's own sec2 descriptor. */
static void place_late_attributes(walk *w, size_t first)
{
    int *fd = NULL;
    hid_t fcpl = H5Fget_create_plist(w->file);
    hsize_t base = 0;
    H5O_info_t root;
    if (fcpl >= 0 && H5Pget_userblock(fcpl, &base) >= 0 &&
        H5Fget_vfd_handle(w->file, H5P_DEFAULT, (void **)&fd) >= 0 && fd &&
        H5Oget_info_by_name2(w->file, "/", &root, H5O_INFO_BASIC, H5P_DEFAULT) >= 0)
        ohdr_place_late_attributes(w->s, first, *fd, base, root.addr);
    if (fcpl >= 0)
        H5Pclose(fcpl);
}

static int walk_file(walk *w)
{
    if (file_row(w) != 0)
        return -1;
    if (H5Ovisit2(w->file, H5_INDEX_NAME, H5_ITER_INC, on_object, w, H5O_INFO_BASIC) < 0) {
        fail(w, "cannot visit its objects");
        return -1;
    }
    links l = {.w = w};
    if (H5Lvisit(w->file, H5_INDEX_NAME, H5_ITER_INC, on_link, &l) < 0) {
        fail(w, "cannot visit its links");
        link_rows(w, &l);
        return -1;
    }
    choose_names(w, &l);
    /* Re-created in this order, objects get their addresses back where HDF5 allows. */
    qsort(w->objs, w->nobjs, sizeof *w->objs, by_address);
    int rc = 0;
    size_t first = w->s->nobjects;
    for (size_t i = 0; i < w->nobjs && rc == 0; i++)
        rc = object(w, &w->objs[i]);
    if (rc == 0) {
        by_making(w->s, first);
        defer_groups(w->s, first);
        place_late_attributes(w, first);
        ohdr_defer_data(w->s, first);
        w->cap = w->s->nobjects; /* it made the array anew, of just that many rows */
    }
    link_rows(w, &l);
    return rc;
}

int h5skel_capture(const char *path, h5skel **out, char *err, size_t cap)
{
    uint64_t t0 = now_ns();
    *out = NULL;
    walk w;
    memset(&w, 0, sizeof w);
    w.s = calloc(1, sizeof *w.s);
    if (!w.s)
        abort();
    w.s->path = dup_str(path);
    H5E_auto2_t saved_fn;
    void *saved_data;
    H5Eget_auto2(H5E_DEFAULT, &saved_fn, &saved_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
#if H5_VERSION_GE(1, 10, 7)
    int unlocked = H5Pset_file_locking(fapl, 0, 1) >= 0; /* a writer's lock does not stop this read */
#else
    int unlocked = 1; /* the shared lock of a read-only open: refused while a writer holds the file */
#endif
    if (fapl < 0 || H5Pset_fapl_sec2(fapl) < 0 || !unlocked)
        fail(&w, "cannot make a file access property list");
    else if ((w.file = H5Fopen(path, H5F_ACC_RDONLY, fapl)) < 0)
        fail(&w, "cannot open it read-only");
    else {
        walk_file(&w);
        H5Fclose(w.file);
    }
    if (fapl >= 0)
        H5Pclose(fapl);
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, saved_fn, saved_data);
    for (size_t i = 0; i < w.nobjs; i++)
        free(w.objs[i].name);
    free(w.objs);
    if (w.err[0]) {
        snprintf(err, cap, "%s: %s", path, w.err);
        h5skel_free(w.s);
        return -1;
    }
    w.s->capture_ns = now_ns() - t0;
    *out = w.s;
    return 0;
}
