/* h5value.c: an HDF5 value a call writes (H5Awrite's buffer, a fill value,
 * an enum member's value), recorded by its meaning (h5skel/h5value_encode.c:
 * strings and sequences by their contents, object references by the paths
 * of their objects), which the kernels and recorder-replay read back
 * (templates/h5value.c.tmpl). Called after the call succeeded, so every
 * byte walked is one HDF5 has just read. */
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
