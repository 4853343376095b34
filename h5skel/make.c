/* make.c: re-creating an input from its skeleton, with the very code the
 * kernels embed (h5_make_input.c, compiled into recorder-codegen as a
 * template): recorder-replay and the kernels make the same file. */
#define _GNU_SOURCE
#include "recorder_h5skel.h"

#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h5fill.c.tmpl"  /* first: the generator h5_make_input.c fills filtered chunks with */
#include "h5value.c.tmpl" /* and h5_value(), which makes attributes' recorded values again */
#include "h5_make_input.c"

int h5skel_make(const h5skel *s, const char *path, char *err, size_t cap)
{
    if (!s->nobjects || s->objects[0].kind != H5SKEL_FILE) {
        snprintf(err, cap, "%s: the skeleton of %s has no file row", path, s->path);
        return -1;
    }
    struct h5_object *rows = calloc(s->nobjects, sizeof *rows);
    char **hex = calloc(5 * s->nobjects, sizeof *hex);
    if (!rows || !hex)
        abort();
    for (size_t i = 0; i < s->nobjects; i++) {
        const h5skel_object *o = &s->objects[i];
        char **h = &hex[5 * i];
        h[0] = h5skel_hex(&o->type);
        h[1] = h5skel_hex(&o->space);
        h[2] = h5skel_hex(&o->plist);
        h[3] = h5skel_hex(&o->value);
        h[4] = h5skel_chunks_text(o);
        rows[i] = (struct h5_object){o->kind, o->name, o->other, h[0], h[1], h[2], h[3], h[4], o->corder + 1};
    }
    int rc = make_h5_input(path, rows, s->nobjects);
    for (size_t i = 0; i < 5 * s->nobjects; i++)
        free(hex[i]);
    free(hex);
    free(rows);
    if (rc)
        snprintf(err, cap, "%s: cannot re-create the HDF5 input %s: HDF5 refused one of its objects", path, s->path);
    return rc;
}
