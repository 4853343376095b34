/* ohdr.c: which chunk of its object header holds each attribute of an
 * object, read from the file's bytes (HDF5 File Format Specification,
 * sections IV.A.1: object headers version 1 and 2, and IV.A.2.m: the
 * attribute message). HDF5 has no call that tells it. An attribute in the
 * first chunk was made with its object, or soon after; one in a
 * continuation chunk was made when the file had grown to that chunk's
 * address (netCDF-4 writes _NCProperties when it syncs the file, after its
 * variables): the capture makes such attributes again at that point. */
#define _GNU_SOURCE
#include "ohdr.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    MAX_CHUNKS = 4096,       /* continuation chunks followed, a cycle or a damaged file stops there */
    MAX_CHUNK = 1 << 24,     /* bytes of one chunk */
    MSG_CONTINUATION = 0x10, /* message types */
    MSG_ATTRIBUTE = 0x0c,
    META_BLOCK = 2048, /* HDF5's default metadata block (H5Pset_meta_block_size) */
};

typedef struct reader {
    int fd;
    uint64_t base;                   /* the superblock's address: file addresses count from it */
    unsigned offsets, lengths;       /* sizes of addresses and lengths, from the superblock */
    uint64_t pending[MAX_CHUNKS][2]; /* continuation chunks to read: address, length */
    size_t npending, read;
} reader;

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = n; k-- > 0;)
        v = v << 8 | p[k];
    return v;
}

/* n bytes at file address addr (relative to the base) into a new buffer, or NULL. */
static uint8_t *bytes_at(const reader *r, uint64_t addr, uint64_t n)
{
    if (!n || n > MAX_CHUNK)
        return NULL;
    uint8_t *b = malloc(n);
    if (b && pread(r->fd, b, n, (off_t)(r->base + addr)) != (ssize_t)n) {
        free(b);
        b = NULL;
    }
    return b;
}

/* An attribute message's name (its data at p, size bytes), or NULL. */
static const char *attribute_name(const uint8_t *p, size_t size, char *name, size_t cap)
{
    if (size < 8)
        return NULL;
    unsigned version = p[0], at = version == 1 ? 8 : version == 2 ? 8 : version == 3 ? 9 : 0;
    size_t len = (size_t)le(p + 2, 2);
    if (!at || !len || at + len > size || len > cap)
        return NULL;
    memcpy(name, p + at, len);
    name[len - 1] = 0;
    return name;
}

/* One message: an attribute is reported, a continuation queued. */
static void message(reader *r, unsigned type, const uint8_t *p, size_t size, uint64_t chunk, ohdr_each each,
                    void *data)
{
    char name[1024];
    if (type == MSG_CONTINUATION && size >= r->offsets + r->lengths && r->npending < MAX_CHUNKS) {
        r->pending[r->npending][0] = le(p, r->offsets);
        r->pending[r->npending][1] = le(p + r->offsets, r->lengths);
        r->npending++;
    } else if (type == MSG_ATTRIBUTE && attribute_name(p, size, name, sizeof name)) {
        each(data, name, chunk);
    }
}

/* The messages of a version 2 chunk: bytes [at, end) of b. */
static void messages_v2(reader *r, const uint8_t *b, size_t at, size_t end, int with_order, uint64_t chunk,
                        ohdr_each each, void *data)
{
    size_t head = with_order ? 6 : 4;
    while (at + head <= end) {
        unsigned type = b[at];
        size_t size = (size_t)le(b + at + 1, 2);
        at += head;
        if (at + size > end)
            return;
        message(r, type, b + at, size, chunk, each, data);
        at += size;
    }
}

/* The messages of a version 1 chunk: bytes [at, end) of b, each 8-byte aligned. */
static void messages_v1(reader *r, const uint8_t *b, size_t at, size_t end, uint64_t chunk, ohdr_each each,
                        void *data)
{
    while (at + 8 <= end) {
        unsigned type = (unsigned)le(b + at, 2);
        size_t size = (size_t)le(b + at + 2, 2);
        at += 8;
        if (at + size > end)
            return;
        message(r, type, b + at, size, chunk, each, data);
        at += size;
    }
}

/* The superblock's base and its sizes of addresses and lengths; -1 for one this does not read. */
static int superblock(reader *r, uint64_t base)
{
    uint8_t b[16];
    static const uint8_t signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    if (pread(r->fd, b, sizeof b, (off_t)base) != (ssize_t)sizeof b || memcmp(b, signature, 8) != 0)
        return -1;
    r->base = base;
    if (b[8] <= 1)
        r->offsets = b[13], r->lengths = b[14];
    else
        r->offsets = b[9], r->lengths = b[10];
    return (r->offsets == 4 || r->offsets == 8) && (r->lengths == 4 || r->lengths == 8) ? 0 : -1;
}

int ohdr_attribute_chunks(int fd, uint64_t base, uint64_t addr, ohdr_each each, void *data)
{
    reader *r = calloc(1, sizeof *r);
    if (!r)
        return -1;
    r->fd = fd;
    int rc = -1, version = 0, with_order = 0;
    uint8_t prefix[16];
    if (superblock(r, base) != 0 ||
        pread(fd, prefix, sizeof prefix, (off_t)(base + addr)) != (ssize_t)sizeof prefix)
        goto done;
    if (!memcmp(prefix, "OHDR", 4) && prefix[4] == 2) {
        version = 2;
        unsigned flags = prefix[5];
        size_t at = 6 + (flags & 0x20 ? 16 : 0) + (flags & 0x10 ? 4 : 0), width = 1u << (flags & 3);
        uint8_t *head = bytes_at(r, addr, at + width);
        uint64_t size = head ? le(head + at, (unsigned)width) : 0;
        free(head);
        at += width;
        uint8_t *b = bytes_at(r, addr, at + size);
        if (!b)
            goto done;
        with_order = (flags & 0x04) != 0;
        messages_v2(r, b, at, at + size, with_order, 0, each, data);
        free(b);
    } else if (prefix[0] == 1) {
        version = 1;
        uint64_t size = le(prefix + 8, 4);
        uint8_t *b = bytes_at(r, addr + 16, size);
        if (!b)
            goto done;
        messages_v1(r, b, 0, size, 0, each, data);
        free(b);
    } else {
        goto done;
    }
    while (r->read < r->npending) { /* continuation chunks, in the order their messages name them */
        uint64_t chunk = r->pending[r->read][0], length = r->pending[r->read][1];
        r->read++;
        uint8_t *b = bytes_at(r, chunk, length);
        if (!b)
            goto done;
        if (version == 2 && length >= 8 && !memcmp(b, "OCHK", 4))
            messages_v2(r, b, 4, length - 4, with_order, chunk, each, data);
        else if (version == 1)
            messages_v1(r, b, 0, length, chunk, each, data);
        free(b);
    }
    rc = 0;
done:
    free(r);
    return rc;
}

/* The attributes of one object, as ohdr_attribute_chunks reports them. */
typedef struct seen {
    char **names;
    uint64_t *chunks;
    size_t n, cap;
} seen;

static void remember(void *data, const char *name, uint64_t chunk)
{
    seen *s = data;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        char **names = realloc(s->names, cap * sizeof *names);
        uint64_t *chunks = names ? realloc(s->chunks, cap * sizeof *chunks) : NULL;
        if (!names || !chunks)
            abort();
        s->names = names, s->chunks = chunks, s->cap = cap;
    }
    s->names[s->n] = strdup(name);
    if (!s->names[s->n])
        abort();
    s->chunks[s->n++] = chunk;
}

static int is_object(char kind)
{
    return kind == H5SKEL_GROUP || kind == H5SKEL_DATASET || kind == H5SKEL_NAMED_TYPE;
}

void ohdr_place_late_attributes(h5skel *s, size_t first, int fd, uint64_t base, uint64_t root_addr)
{
    size_t n = s->nobjects;
    uint64_t *late = calloc(n ? n : 1, sizeof *late); /* each attribute row's continuation chunk, or 0 */
    size_t *target = malloc((n ? n : 1) * sizeof *target);
    h5skel_object *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!late || !target || !rows)
        abort();
    size_t nlate = 0;
    for (size_t i = first; i < n; i++) {
        const h5skel_object *o = &s->objects[i];
        int root = o->kind == H5SKEL_ATTRIBUTE && !strcmp(o->name, "/") &&
                   (i == first || s->objects[i - 1].kind != H5SKEL_ATTRIBUTE);
        if (!is_object(o->kind) && !root)
            continue;
        size_t from = root ? i : i + 1, end = from;
        while (end < n && s->objects[end].kind == H5SKEL_ATTRIBUTE &&
               !strcmp(s->objects[end].name, root ? "/" : o->name))
            end++;
        if (end == from)
            continue;
        seen found = {0};
        ohdr_attribute_chunks(fd, base, root ? root_addr : o->addr, remember, &found);
        for (size_t a = from; a < end; a++)
            for (size_t k = 0; k < found.n; k++)
                if (found.chunks[k] && !strcmp(found.names[k], s->objects[a].other)) {
                    late[a] = s->objects[a].addr = found.chunks[k];
                    nlate++;
                }
        for (size_t k = 0; k < found.n; k++)
            free(found.names[k]);
        free(found.names);
        free(found.chunks);
        i = end - 1;
    }
    if (nlate) {
        /* each late attribute goes right before the first object, after its own, whose header lies past
         * its chunk (n: after every object) */
        for (size_t a = first; a < n; a++) {
            target[a] = n;
            if (!late[a])
                continue;
            size_t own = a;
            while (own > first && s->objects[own].kind == H5SKEL_ATTRIBUTE)
                own--;
            for (size_t k = own + 1; k < n && target[a] == n; k++)
                if (is_object(s->objects[k].kind) && s->objects[k].addr > late[a])
                    target[a] = k;
        }
        size_t at = first;
        for (size_t k = first; k <= n; k++) {
            for (;;) { /* the late attributes due here, in the order of their chunks */
                size_t best = n;
                for (size_t a = first; a < n; a++)
                    if (late[a] && target[a] == k && (best == n || late[a] < late[best]))
                        best = a;
                if (best == n)
                    break;
                rows[at++] = s->objects[best];
                target[best] = SIZE_MAX;
            }
            if (k < n && !late[k])
                rows[at++] = s->objects[k];
        }
        memcpy(&s->objects[first], &rows[first], (n - first) * sizeof *rows);
    }
    free(rows);
    free(target);
    free(late);
}

/* Whether row k is made at a known address: an object's header, an attribute's continuation chunk. */
static int made_at(const h5skel_object *o)
{
    return is_object(o->kind) || (o->kind == H5SKEL_ATTRIBUTE && o->addr);
}

void ohdr_defer_data(h5skel *s, size_t first)
{
    size_t n = s->nobjects, nlater = 0;
    size_t *target = malloc((n ? n : 1) * sizeof *target);
    if (!target)
        abort();
    uint64_t data_end = 0; /* the end of the data of the datasets made so far */
    for (size_t d = first; d < n; d++) {
        const h5skel_object *o = &s->objects[d];
        target[d] = 0;
        if (o->kind != H5SKEL_DATASET || o->data_addr < 0)
            continue;
        /* What the file held when the dataset was made: the data before it and the metadata block of its
         * header (HDF5's default block, 2048 bytes). Headers made later from that space say nothing; one
         * beyond it, below this dataset's data, was made before the data was written. */
        uint64_t held = o->addr + META_BLOCK > data_end ? o->addr + META_BLOCK : data_end,
                 data = (uint64_t)o->data_addr;
        if (data + o->storage > data_end)
            data_end = data + o->storage;
        if (!strstr(o->about, "at most unlimited"))
            continue; /* only datasets that grow: appending writers make them before writing their records */
        size_t k = d + 1, next = 0;
        for (; k < n && !next; k++) /* the first thing made past the data */
            if (made_at(&s->objects[k]) && s->objects[k].addr > data)
                next = k;
        size_t at = next ? next : n;
        for (k = d + 1; k < at && !target[d]; k++) /* an object made below the data, past what was there */
            if (is_object(s->objects[k].kind) && s->objects[k].addr > held)
                target[d] = at;
        for (size_t e = first; e < d && !target[d]; e++) /* data written after it was made, below its own */
            if (target[e] > d && (uint64_t)s->objects[e].data_addr < data)
                target[d] = at > target[e] ? at : target[e];
        nlater += target[d] != 0;
    }
    if (nlater) {
        h5skel_object *rows = malloc((n + nlater) * sizeof *rows);
        if (!rows)
            abort();
        size_t out = 0;
        for (size_t k = 0; k <= n; k++) {
            /* the data rows due here, in the order of their data */
            for (;;) {
                size_t best = n;
                for (size_t d = first; d < n; d++)
                    if (target[d] == (k < n ? k : n) && target[d] &&
                        (best == n || s->objects[d].data_addr < s->objects[best].data_addr))
                        best = d;
                if (best == n)
                    break;
                target[best] = 0;
                const h5skel_object *o = &s->objects[best];
                h5skel_object *w = &rows[out++];
                memset(w, 0, sizeof *w);
                w->kind = H5SKEL_DATA;
                w->name = strdup(o->name);
                w->other = strdup("");
                w->about = strdup("");
                w->data_addr = o->data_addr;
                w->corder = -1; /* no link of its own */
                w->space.len =
                    o->space.len; /* the extent it grows to, when made empty along an unlimited one */
                w->space.data = malloc(o->space.len ? o->space.len : 1);
                if (!w->space.data)
                    abort();
                memcpy(w->space.data, o->space.data, o->space.len);
                w->storage = o->storage;
                w->ndims = o->ndims;
                w->nchunks = o->nchunks;
                w->chunk_size = malloc((o->nchunks ? o->nchunks : 1) * sizeof *w->chunk_size);
                w->chunk_offset = malloc((o->nchunks * o->ndims + 1) * sizeof *w->chunk_offset);
                if (!w->name || !w->other || !w->about || !w->chunk_size || !w->chunk_offset)
                    abort();
                memcpy(w->chunk_size, o->chunk_size, o->nchunks * sizeof *w->chunk_size);
                memcpy(w->chunk_offset, o->chunk_offset, o->nchunks * o->ndims * sizeof *w->chunk_offset);
            }
            if (k < n)
                rows[out++] = s->objects[k];
        }
        free(s->objects);
        s->objects = rows;
        s->nobjects = out;
    }
    free(target);
}
