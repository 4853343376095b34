/* h5value.c: the values replayed calls write to HDF5 (attributes, fill
 * values, enum members), made from what the trace recorded of them with the
 * code the kernels embed (templates/h5value.c.tmpl); and where replayed
 * iterations stop, as the traced ones did (OP_CALLS). */
#define _GNU_SOURCE
#include "h5value.c.tmpl"
#include "replay.h"

const void *rp_h5_value(const rp_value *v, hid_t loc)
{
    return v->len > REC_H5_VALUE_UNKEPT ? h5_value(v->s, v->len, loc) : NULL;
}

void *rp_op_stop(rp_ctx *x, int64_t calls, int64_t ret)
{
    rp_op_stop_at *s = rp_alloc(x, sizeof *s);
    *s = (rp_op_stop_at){0, ret ? calls : 0, ret};
    return s;
}
