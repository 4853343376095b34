/* h5value_encode.c: an HDF5 value in memory (an attribute's, a fill value,
 * an enum member's), by its meaning: the bytes of its memory image, with
 * what holds pointers or file addresses taken out of it and recorded as
 * what they mean -- a variable-length string as its bytes, a
 * variable-length sequence as its elements, an object reference as the
 * path of the object it names. The layout is the one the kernels,
 * recorder-replay and h5skel_make read back (templates/h5value.c.tmpl,
 * docs/reference/format.md section 8.1):
 *   value := u32 image_len, image, u32 npatches, patch...
 *   patch := u32 offset, u8 's' u32 len bytes (0xffffffff: NULL)
 *                      | u8 'v' u32 count value
 *                      | u8 'r' u32 len path
 * (little-endian). The tracer records the values calls write with it, the
 * skeleton capture the values of an input's attributes. */
#include "h5value_encode.h"

#include <stdlib.h>
#include <string.h>

/* Nested sequences deeper than this are not walked (a cyclic or corrupt value). */
#define H5V_MAX_DEPTH 8
/* The longest object path a reference is recorded by. */
#define H5V_MAX_PATH 4096

typedef struct h5v_out {
    unsigned char *p;
    size_t len, cap, max;
    int over;  /* past max, or out of memory: nothing is recorded */
    hid_t loc; /* where references are resolved */
} h5v_out;

static void put(h5v_out *o, const void *bytes, size_t n)
{
    if (o->over)
        return;
    if (o->len + n > o->max) {
        o->over = 1;
        return;
    }
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->len + n)
            cap *= 2;
        unsigned char *grown = realloc(o->p, cap);
        if (!grown) {
            o->over = 1;
            return;
        }
        o->p = grown, o->cap = cap;
    }
    if (n)
        memcpy(o->p + o->len, bytes, n);
    o->len += n;
}

static void put_u32(h5v_out *o, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    put(o, b, 4);
}

static void set_u32(h5v_out *o, size_t at, uint32_t v)
{
    if (o->over)
        return;
    for (int k = 0; k < 4; k++)
        o->p[at + k] = (unsigned char)(v >> (8 * k));
}

/* Whether a value of type t is its bytes alone (h5value_encode.h). */
int h5value_plain(hid_t t)
{
    H5T_class_t cls = H5Tget_class(t);
    if (cls == H5T_STRING)
        return H5Tis_variable_str(t) <= 0;
    if (cls == H5T_VLEN || cls == H5T_REFERENCE)
        return 0;
    int ok = 1;
    if (cls == H5T_COMPOUND) {
        int n = H5Tget_nmembers(t);
        for (int i = 0; ok && i < n; i++) {
            hid_t m = H5Tget_member_type(t, (unsigned)i);
            ok = m < 0 || h5value_plain(m);
            if (m >= 0)
                H5Tclose(m);
        }
    } else if (cls == H5T_ARRAY) {
        hid_t s = H5Tget_super(t);
        ok = s < 0 || h5value_plain(s);
        if (s >= 0)
            H5Tclose(s);
    }
    return ok;
}

static void value(h5v_out *o, hid_t t, size_t n, const unsigned char *mem, int depth);

/* A patch's head; the image slot it stands for becomes zeros. */
static void patch(h5v_out *o, size_t image_at, size_t offset, char kind, size_t slot, uint32_t *npatches)
{
    put_u32(o, (uint32_t)offset);
    put(o, &kind, 1);
    if (!o->over)
        memset(o->p + image_at + offset, 0, slot);
    ++*npatches;
}

/* The parts of one element at mem (offset bytes into the image) that are no bytes. */
static void walk(h5v_out *o, hid_t t, const unsigned char *mem, size_t image_at, size_t offset,
                 uint32_t *npatches, int depth)
{
    if (o->over || h5value_plain(t))
        return;
    H5T_class_t cls = H5Tget_class(t);
    if (cls == H5T_STRING) {
        const char *s;
        memcpy(&s, mem, sizeof s);
        patch(o, image_at, offset, 's', sizeof s, npatches);
        size_t len = s ? strlen(s) : 0;
        put_u32(o, s ? (uint32_t)len : UINT32_MAX);
        put(o, s, len);
    } else if (cls == H5T_VLEN) {
        hvl_t v;
        memcpy(&v, mem, sizeof v);
        patch(o, image_at, offset, 'v', sizeof v, npatches);
        put_u32(o, (uint32_t)v.len);
        hid_t base = H5Tget_super(t);
        if (base >= 0 && depth < H5V_MAX_DEPTH && (v.p || !v.len))
            value(o, base, v.len, v.p, depth + 1);
        else
            o->over = 1;
        if (base >= 0)
            H5Tclose(base);
    } else if (cls == H5T_REFERENCE) {
        if (H5Tequal(t, H5T_STD_REF_OBJ) <= 0)
            return; /* a region reference: its bytes (an address in this file) */
        char name[H5V_MAX_PATH];
        ssize_t len = H5Rget_name(o->loc, H5R_OBJECT, mem, name, sizeof name);
        patch(o, image_at, offset, 'r', sizeof(hobj_ref_t), npatches);
        if (len < 0 || (size_t)len >= sizeof name)
            len = 0; /* unnamed: the reader names the root group */
        put_u32(o, (uint32_t)len);
        put(o, name, (size_t)len);
    } else if (cls == H5T_COMPOUND) {
        int n = H5Tget_nmembers(t);
        for (int i = 0; i < n; i++) {
            hid_t m = H5Tget_member_type(t, (unsigned)i);
            size_t at = H5Tget_member_offset(t, (unsigned)i);
            if (m >= 0)
                walk(o, m, mem + at, image_at, offset + at, npatches, depth);
            if (m >= 0)
                H5Tclose(m);
        }
    } else if (cls == H5T_ARRAY) {
        hid_t s = H5Tget_super(t);
        int ndims = H5Tget_array_ndims(t);
        hsize_t dims[H5S_MAX_RANK], count = 1;
        if (s >= 0 && ndims > 0 && ndims <= H5S_MAX_RANK && H5Tget_array_dims2(t, dims) >= 0) {
            size_t size = H5Tget_size(s);
            for (int d = 0; d < ndims; d++)
                count *= dims[d];
            for (hsize_t k = 0; k < count && !o->over; k++)
                walk(o, s, mem + k * size, image_at, offset + k * size, npatches, depth);
        }
        if (s >= 0)
            H5Tclose(s);
    }
}

/* n elements of type t at mem: their image, then what in it is no bytes. */
static void value(h5v_out *o, hid_t t, size_t n, const unsigned char *mem, int depth)
{
    size_t size = H5Tget_size(t);
    if (!size || (n && size > (o->max - o->len) / n)) {
        o->over = 1;
        return;
    }
    put_u32(o, (uint32_t)(n * size));
    size_t image_at = o->len;
    put(o, mem, n * size);
    size_t count_at = o->len;
    put_u32(o, 0);
    uint32_t npatches = 0;
    if (!h5value_plain(t))
        for (size_t k = 0; k < n && !o->over; k++)
            walk(o, t, mem + k * size, image_at, k * size, &npatches, depth);
    set_u32(o, count_at, npatches);
}

unsigned char *h5value_encode(hid_t type, size_t n, const void *mem, hid_t loc, size_t max, size_t *len)
{
    h5v_out o = {.max = max, .loc = loc};
    H5E_BEGIN_TRY
    {
        value(&o, type, n, mem, 0);
    }
    H5E_END_TRY
    if (o.over || o.len > UINT32_MAX) {
        free(o.p);
        return NULL;
    }
    if (!o.p && !(o.p = malloc(1)))
        return NULL;
    *len = o.len;
    return o.p;
}
