/* recorder-h5skel: what a trace recorded of the HDF5 files its run read but
 * did not create (docs/user/recorder-h5skel.md).
 *   recorder-h5skel TRACE_DIR             one line per object of each input
 *   recorder-h5skel TRACE_DIR PATH OUT    re-creates the input PATH as OUT
 *   recorder-h5skel --capture FILE        the skeleton of any HDF5 file
 *   recorder-h5skel --remake FILE OUT     FILE's skeleton made as OUT, as kernels make it */
#define _GNU_SOURCE
#include "recorder_h5skel.h"

#include <stdio.h>
#include <string.h>

#include "recorder_facts.h"

static void print(const h5skel *s)
{
    char name[64];
    h5skel_file_name(s->path, name, sizeof name);
    size_t chunks = 0;
    for (size_t i = 0; i < s->nobjects; i++)
        chunks += s->objects[i].nchunks;
    printf("%s: %s: %zu objects, %zu chunk sizes, a %llu-byte file, captured in %.3f ms\n", name, s->path,
           s->nobjects, chunks, (unsigned long long)s->file_size, (double)s->capture_ns / 1e6);
    for (size_t i = 0; i < s->nobjects; i++) {
        const h5skel_object *o = &s->objects[i];
        printf("  %c %s%s%s", o->kind, o->name, o->other[0] ? " -> " : "", o->other);
        if (o->addr)
            printf(" @%llu", (unsigned long long)o->addr);
        if (o->data_addr >= 0)
            printf(" data @%lld", (long long)o->data_addr);
        printf(": %s", o->about);
        if (o->kind == H5SKEL_DATASET)
            printf(", %llu bytes stored", (unsigned long long)o->storage);
        if (o->nchunks)
            printf(" in %llu chunks", (unsigned long long)o->nchunks);
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    h5skel **all;
    size_t n;
    char err[1024];
    if ((argc == 3 && !strcmp(argv[1], "--capture")) || (argc == 4 && !strcmp(argv[1], "--remake"))) {
        h5skel *s;
        if (h5skel_capture(argv[2], &s, err, sizeof err) != 0 ||
            (argc == 4 && h5skel_make(s, argv[3], err, sizeof err) != 0)) {
            fprintf(stderr, "recorder-h5skel: %s\n", err);
            return 1;
        }
        if (argc == 3)
            print(s);
        h5skel_free(s);
        return 0;
    }
    static const char usage[] =
        "usage: recorder-h5skel TRACE_DIR [PATH OUT]\n"
        "       recorder-h5skel --capture FILE\n"
        "       recorder-h5skel --remake FILE OUT\n"
        "  TRACE_DIR            each HDF5 input's skeleton, an object a line\n"
        "  TRACE_DIR PATH OUT   makes the input PATH (as the run named it) as OUT\n"
        "  --capture FILE       the skeleton of any HDF5 file, as the tracer takes it\n"
        "  --remake FILE OUT    makes OUT from FILE's skeleton, as kernels and replays do\n";
    if (argc == 2 && !strcmp(argv[1], "--help")) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc != 2 && argc != 4) {
        fputs(usage, stderr);
        return 2;
    }
    if (h5skel_load_dir(argv[1], &all, &n, err, sizeof err) != 0) {
        fprintf(stderr, "recorder-h5skel: %s\n", err);
        return 1;
    }
    int rc = 0;
    if (argc == 2) {
        for (size_t i = 0; i < n; i++)
            print(all[i]);
        if (!n)
            printf("%s: no HDF5 input skeleton\n", argv[1]);
    } else {
        char key[8192];
        const h5skel *s = rf_path_normalize(argv[2], key, sizeof key, RF_PATH_ROOTED) == 0
                              ? h5skel_find(all, n, key)
                              : NULL;
        if (!s) {
            fprintf(stderr, "recorder-h5skel: %s: no skeleton of %s\n", argv[1], argv[2]);
            rc = 1;
        } else if (h5skel_make(s, argv[3], err, sizeof err) != 0) {
            fprintf(stderr, "recorder-h5skel: %s\n", err);
            rc = 1;
        }
    }
    h5skel_free_all(all, n);
    return rc;
}
