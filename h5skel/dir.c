/* dir.c: the skeleton files of a trace directory. */
#define _GNU_SOURCE
#include "recorder_h5skel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_bytes.h"
#include "recorder_facts.h"

static int is_skeleton(const char *name)
{
    size_t n = strlen(H5SKEL_PREFIX);
    return !strncmp(name, H5SKEL_PREFIX, n) && strlen(name + n) == 16 && strspn(name + n, "0123456789abcdef") == 16;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the skeleton files of dir, sorted (malloc'ed), or -1. */
static int list(const char *dir, char ***names, size_t *n, char *err, size_t cap)
{
    *names = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d && errno == ENOENT)
        return 0; /* a trace read from memory (the fuzzers'): no skeletons */
    if (!d) {
        snprintf(err, cap, "%s: cannot list the trace directory: %s", dir, strerror(errno));
        return -1;
    }
    size_t capn = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!is_skeleton(e->d_name))
            continue;
        if (*n == capn) {
            capn = capn ? 2 * capn : 8;
            *names = realloc(*names, capn * sizeof **names);
            if (!*names)
                abort();
        }
        (*names)[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (*n)
        qsort(*names, *n, sizeof **names, by_name);
    return 0;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* The file's bytes (malloc'ed; NULL when empty), or -1 with err set. */
static int slurp(const char *path, uint8_t **data, size_t *len, char *err, size_t cap)
{
    rec_error e;
    *data = NULL;
    *len = 0;
    if (rec_read_file(path, data, len, &e) != 0) {
        snprintf(err, cap, "%s", e.msg);
        return -1;
    }
    return 0;
}

int h5skel_load_dir(const char *dir, h5skel ***out, size_t *n, char *err, size_t cap)
{
    char **names;
    size_t count;
    *out = NULL;
    *n = 0;
    if (list(dir, &names, &count, err, cap) != 0)
        return -1;
    *out = calloc(count ? count : 1, sizeof **out);
    if (!*out)
        abort();
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char path[8192];
        size_t len = 0;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *bytes;
        rc = slurp(path, &bytes, &len, err, cap);
        /* empty: a process claimed it but ended before it wrote it */
        h5skel *s = rc == 0 && len ? h5skel_decode(bytes, len, path, err, cap) : NULL;
        free(bytes);
        if (s)
            (*out)[(*n)++] = s;
        else if (len)
            rc = -1;
    }
    free_names(names, count);
    if (rc) {
        h5skel_free_all(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return rc;
}

void h5skel_free_all(h5skel **all, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h5skel_free(all[i]);
    free(all);
}

const h5skel *h5skel_find(h5skel *const *all, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++) {
        char k[8192];
        if (rf_path_normalize(all[i]->path, k, sizeof k, RF_PATH_ROOTED) == 0 && !strcmp(k, key))
            return all[i];
    }
    return NULL;
}

int h5skel_copy_dir(const char *src, const char *dst, char *err, size_t cap)
{
    char **names;
    size_t count;
    if (list(src, &names, &count, err, cap) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < count && rc == 0; i++) {
        char from[8192], to[8192];
        size_t len = 0;
        snprintf(from, sizeof from, "%s/%s", src, names[i]);
        snprintf(to, sizeof to, "%s/%s", dst, names[i]);
        uint8_t *bytes;
        rec_error e;
        rc = slurp(from, &bytes, &len, err, cap);
        if (rc == 0 && len && (rc = rec_write_file(NULL, to, bytes, len, &e)) != 0)
            snprintf(err, cap, "%s", e.msg);
        free(bytes);
    }
    free_names(names, count);
    return rc;
}
