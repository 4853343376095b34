/* bench-h5skel: what recording an HDF5 input's structure costs, and how
 * closely re-creating it gives the original back.
 *   bench-h5skel [--datasets N] [--dir DIR]
 * For a file of N datasets (default 1000, tests/h5skel/sample.c), once with
 * a size-keeping filter (fletcher32) and once with deflate: the skeleton's
 * size, the capture's time (best of 5), the re-creation's time, and how many
 * objects and contiguous data blocks keep their addresses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recorder_h5skel.h"
#include "sample.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

static int run(const char *dir, unsigned n, int deflate)
{
    char original[4096], remade[4096], err[1024];
    snprintf(original, sizeof original, "%s/bench-h5skel-original.h5", dir);
    snprintf(remade, sizeof remade, "%s/bench-h5skel-remade.h5", dir);
    if (h5skel_sample_file(original, n, deflate) != 0) {
        fprintf(stderr, "bench-h5skel: %s: cannot write the sample file\n", original);
        return -1;
    }
    h5skel *s = NULL;
    double best = 1e9;
    for (int i = 0; i < 5; i++) {
        h5skel_free(s);
        double t0 = now();
        if (h5skel_capture(original, &s, err, sizeof err) != 0) {
            fprintf(stderr, "bench-h5skel: %s\n", err);
            return -1;
        }
        best = now() - t0 < best ? now() - t0 : best;
    }
    size_t len = 0;
    free(h5skel_encode(s, &len));
    double t0 = now();
    if (h5skel_make(s, remade, err, sizeof err) != 0) {
        fprintf(stderr, "bench-h5skel: %s\n", err);
        return -1;
    }
    double make = now() - t0;
    h5skel *r = NULL;
    if (h5skel_capture(remade, &r, err, sizeof err) != 0 || r->nobjects != s->nobjects) {
        fprintf(stderr, "bench-h5skel: %s: not the same objects\n", remade);
        return -1;
    }
    size_t objects = 0, same = 0, blocks = 0, same_blocks = 0;
    for (size_t i = 0; i < s->nobjects; i++) {
        const h5skel_object *o = &s->objects[i], *m = NULL;
        for (size_t k = 0; k < r->nobjects && !m; k++) /* the same object in the re-created file */
            if (r->objects[k].kind == o->kind && !strcmp(r->objects[k].name, o->name) &&
                !strcmp(r->objects[k].other, o->other))
                m = &r->objects[k];
        objects += o->addr != 0;
        same += o->addr && m && o->addr == m->addr;
        blocks += o->data_addr >= 0;
        same_blocks += o->data_addr >= 0 && m && o->data_addr == m->data_addr;
    }
    printf("%u datasets, %s: %zu skeleton rows, skeleton %zu bytes (%.0f a dataset) of a %lld-byte file; "
           "captured in %.1f ms, re-created in %.1f ms (%lld bytes); addresses kept: %zu of %zu objects, "
           "%zu of %zu first data blocks\n",
           n, deflate ? "deflate" : "fletcher32", s->nobjects, len, (double)len / n, size_of(original), best * 1e3,
           make * 1e3, size_of(remade), same, objects, same_blocks, blocks);
    h5skel_free(r);
    h5skel_free(s);
    unlink(original);
    unlink(remade);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned n = 1000;
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    for (int i = 1; i + 1 < argc; i += 2)
        if (!strcmp(argv[i], "--datasets"))
            n = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--dir"))
            dir = argv[i + 1];
    return run(dir, n, 0) || run(dir, n, 1) ? 1 : 0;
}
