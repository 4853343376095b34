/* h5value.c: an HDF5 value a call writes (H5Awrite's buffer, a fill value,
 * an enum member's value), recorded by its meaning (h5skel/h5value_encode.c:
 * strings and sequences by their contents, object references by the paths
 * of their objects), which the kernels and recorder-replay read back
 * (templates/h5value.c.tmpl); and of the variable-length strings and
 * sequences an H5Dwrite writes, their lengths alone (H5_STRING_LENGTHS,
 * H5_VLEN_LENGTHS). Called after the call succeeded, so every byte walked
 * is one HDF5 has just read. */
#include "wrapper_prelude.h" /* first: it sets _GNU_SOURCE */

#include <stdlib.h>

#include "h5value_encode.h"
#include "runtime.h"

void rt_h5_value(rt_call *c, unsigned field, const void *buf, hid_t type, long n, hid_t loc)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    const rt_config *cfg = rt_active_config;
    static const unsigned char unrecorded = 0;
    if (!buf)
        return;           /* none: a NULL pointer (an undefined fill value), or the call failed */
    v->ptr = &unrecorded; /* one byte, shorter than any value: a value the trace does not keep */
    v->len = REC_H5_VALUE_UNKEPT;
    if (type <= 0 || n < 0 || !cfg || !cfg->attr_values || c->nheap >= REC_MAX_FIELDS)
        return;
    size_t len = 0;
    unsigned char *bytes = h5value_encode(type, (size_t)n, buf, loc, cfg->attr_value_max, &len);
    if (!bytes)
        return;
    if (len > UINT32_MAX) {
        free(bytes);
        return;
    }
    c->heap[c->nheap++] = (int64_t *)(void *)bytes; /* freed when the call ends */
    v->ptr = bytes;
    v->len = (uint32_t)len;
}

hid_t rt_h5_reference_type(int t)
{
    return t == H5R_OBJECT           ? H5T_STD_REF_OBJ
           : t == H5R_DATASET_REGION ? H5T_STD_REF_DSETREG
                                     : H5I_INVALID_HID;
}

/* The most elements a lengths field records: a buffer past them records none. */
#define RT_H5_LENGTHS_MAX (1L << 24)

/* A walk over the elements a memory selection selects: first the last one's index, then each one's
 * length, at its index (after the base type's size, for sequences). */
typedef struct rt_h5_walk {
    const unsigned char *base;
    size_t size; /* an element's: the memory type's */
    int strings; /* char * elements; else hvl_t */
    int64_t *v;  /* NULL: finding the last */
    long first, last;
} rt_h5_walk;

static herr_t rt_h5_length_of(void *elem, hid_t type, unsigned ndim, const hsize_t *point, void *data)
{
    (void)type, (void)ndim, (void)point;
    rt_h5_walk *w = data;
    long at = (long)(((const unsigned char *)elem - w->base) / w->size);
    if (!w->v) {
        w->last = at > w->last ? at : w->last;
    } else if (at <= w->last && w->strings) {
        const char *s;
        memcpy(&s, elem, sizeof s);
        w->v[w->first + at] = s ? (int64_t)strlen(s) : -1;
    } else if (at <= w->last) {
        hvl_t h;
        memcpy(&h, elem, sizeof h);
        w->v[w->first + at] = (int64_t)h.len;
    }
    return 0;
}

/* The size of an element of a sequence type's base, where its elements hold no pointers (0 otherwise). */
static int64_t rt_h5_vlen_base_size(hid_t type)
{
    int64_t size = 0;
    if (H5Tget_class(type) != H5T_VLEN)
        return 0;
    hid_t base = H5Tget_super(type);
    if (base >= 0 && h5value_plain(base))
        size = (int64_t)H5Tget_size(base);
    if (base >= 0)
        H5Tclose(base);
    return size;
}

void rt_h5_lengths(rt_call *c, unsigned field, unsigned kind, int ok, hid_t dset, hid_t type, hid_t mem_space,
                   hid_t file_space, const void *buf)
{
    rec_value *v = &c->rec.args[field];
    v->ptr = NULL;
    v->len = 0;
    v->encoded = 0;
    if (!ok || !buf || type <= 0)
        return;
    int strings = kind == REC_KIND_H5_STRING_LENGTHS;
    /* the call succeeded: its memory type is valid, and asking its class reports no error */
    if (H5Tget_class(type) != (strings ? H5T_STRING : H5T_VLEN))
        return;
    H5E_BEGIN_TRY
    {
        int64_t base_size = strings ? 0 : rt_h5_vlen_base_size(type);
        int fits = strings ? H5Tis_variable_str(type) > 0 : base_size > 0;
        /* the selection HDF5 reads the buffer by: the memory space's, else the file space's, else all */
        int own = mem_space == H5S_ALL && file_space == H5S_ALL;
        hid_t space = !fits                   ? -1
                      : mem_space != H5S_ALL  ? mem_space
                      : file_space != H5S_ALL ? file_space
                                              : H5Dget_space(dset);
        size_t size = H5Tget_size(type);
        rt_h5_walk w = {buf, size, strings, NULL, strings ? 0 : 1, -1};
        if (fits && space >= 0 && size && H5Diterate((void *)buf, type, space, rt_h5_length_of, &w) >= 0 &&
            w.last >= 0 && w.last < RT_H5_LENGTHS_MAX) {
            size_t n = (size_t)(w.first + w.last + 1);
            int64_t *a = rt_array(c, field, n);
            for (size_t k = 0; a && k < n; k++)
                a[k] = strings ? -1 : 0;
            if (a && !strings)
                a[0] = base_size;
            w.v = a;
            if (a && H5Diterate((void *)buf, type, space, rt_h5_length_of, &w) >= 0) {
                v->ptr = a;
                v->len = (uint32_t)n;
            }
        }
        if (own && space >= 0)
            H5Sclose(space);
    }
    H5E_END_TRY
}
