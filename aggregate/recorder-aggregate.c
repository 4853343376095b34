/* recorder-aggregate: rewrites a trace's per-rank files as aggregate files,
 * or an aggregated trace as a file per rank (--split). The bytes of every
 * rank's files are kept as they are, so both layouts read back the same.
 *   recorder-aggregate TRACE_DIR -o OUT_DIR [--files K | --split] */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recorder_format.h"

static const char *tool = "recorder-aggregate";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s TRACE_DIR -o OUT_DIR [--files K | --split]\n"
            "  -o DIR      the new trace directory (must not exist yet)\n"
            "  --files K   write K aggregate files of contiguous ranks (default 1)\n"
            "  --split     write a file per rank and part (N.rec, N.meta, N.h5store)\n",
            tool);
}

/* A part's size: the member's length, or its own file's size (0: none). */
static uint64_t part_size(const rec_part_place *at)
{
    if (at->length != UINT64_MAX)
        return at->length;
    struct stat st;
    return stat(at->path, &st) == 0 && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* Appends the part's `size` bytes to out. 0, or -1 (message printed). */
static int copy_part(const rec_part_place *at, uint64_t size, FILE *out, const char *out_name)
{
    static char buf[1 << 20];
    FILE *in = fopen(at->path, "rb");
    if (!in || fseeko(in, (off_t)(at->length == UINT64_MAX ? 0 : at->base), SEEK_SET) != 0) {
        fprintf(stderr, "%s: %s: cannot open: %s\n", tool, at->name, strerror(errno));
        if (in)
            fclose(in);
        return -1;
    }
    uint64_t done = 0;
    while (done < size) {
        size_t want = size - done < sizeof buf ? (size_t)(size - done) : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        if (got == 0 || fwrite(buf, 1, got, out) != got) {
            fprintf(stderr, "%s: %s: %s at byte %llu\n", tool, got ? out_name : at->name,
                    got ? "write failed" : "truncated", (unsigned long long)done);
            fclose(in);
            return -1;
        }
        done += got;
    }
    fclose(in);
    return 0;
}

/* Closes f; -1 (message printed) when the data did not reach the file. */
static int close_out(FILE *f, const char *path)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: %s: write failed: %s\n", tool, path, strerror(errno));
        return -1;
    }
    return 0;
}

static int write_split(const rec_parts *l, uint32_t nranks, const char *out)
{
    char path[4300];
    for (uint32_t r = 0; r < nranks; r++)
        for (unsigned k = 0; k < REC_PART_COUNT; k++) {
            rec_part_place at;
            uint64_t size = rec_parts_find(l, r, k, &at) == 0 ? part_size(&at) : 0;
            if (!size)
                continue;
            snprintf(path, sizeof path, "%s/%u.%s", out, r, rec_part_suffix(k));
            FILE *f = fopen(path, "wb");
            if (!f) {
                fprintf(stderr, "%s: %s: cannot create: %s\n", tool, path, strerror(errno));
                return -1;
            }
            int rc = copy_part(&at, size, f, path);
            if (close_out(f, path) != 0 || rc != 0)
                return -1;
        }
    return 0;
}

/* Ranks [first, first + n) into aggregate.<index>. */
static int write_aggregate(const rec_parts *l, uint32_t first, uint32_t n, uint32_t index, uint32_t count,
                           const char *out)
{
    rec_aggregate_member *m = calloc(n ? n : 1, sizeof *m);
    rec_part_place *at = calloc((size_t)(n ? n : 1) * REC_PART_COUNT, sizeof *at);
    size_t header_size = rec_aggregate_header_size(n);
    uint8_t *header = malloc(header_size);
    char path[4300];
    snprintf(path, sizeof path, "%s/aggregate.%u", out, index);
    FILE *f = m && at && header ? fopen(path, "wb") : NULL;
    int rc = f ? 0 : -1;
    if (!f)
        fprintf(stderr, "%s: %s: cannot create: %s\n", tool, path, m && at && header ? strerror(errno) : "out of memory");
    uint64_t offset = header_size;
    for (uint32_t i = 0; rc == 0 && i < n; i++) {
        m[i].rank = first + i;
        for (unsigned k = 0; k < REC_PART_COUNT; k++) {
            rec_part_place *p = &at[(size_t)i * REC_PART_COUNT + k];
            m[i].length[k] = rec_parts_find(l, first + i, k, p) == 0 ? part_size(p) : 0;
            m[i].offset[k] = m[i].length[k] ? offset : 0;
            offset += m[i].length[k];
        }
    }
    if (rc == 0) {
        rec_aggregate_header_pack(header, index, count, m, n);
        if (fwrite(header, 1, header_size, f) != header_size) {
            fprintf(stderr, "%s: %s: write failed\n", tool, path);
            rc = -1;
        }
    }
    for (uint32_t i = 0; rc == 0 && i < n; i++)
        for (unsigned k = 0; rc == 0 && k < REC_PART_COUNT; k++)
            if (m[i].length[k])
                rc = copy_part(&at[(size_t)i * REC_PART_COUNT + k], m[i].length[k], f, path);
    if (f && close_out(f, path) != 0)
        rc = -1;
    free(m);
    free(at);
    free(header);
    return rc;
}

/* 1 if name is a rank's part (N.rec ...) or an aggregate: the layout's own. */
static int is_layout_file(const char *name)
{
    if (strncmp(name, "aggregate.", 10) == 0)
        return 1;
    const char *dot = strchr(name, '.');
    if (!dot || dot == name || strspn(name, "0123456789") != (size_t)(dot - name))
        return 0;
    for (unsigned k = 0; k < REC_PART_COUNT; k++)
        if (strcmp(dot + 1, rec_part_suffix(k)) == 0)
            return 1;
    return 0;
}

/* Copies the trace's other files (recorder.meta, HDF5 input skeletons). */
static int copy_the_rest(const char *dir, const char *out)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "%s: %s: cannot list: %s\n", tool, dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char from[4300], to[4300];
        struct stat st;
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        if (is_layout_file(e->d_name) || stat(from, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        snprintf(to, sizeof to, "%s/%s", out, e->d_name);
        rec_part_place whole = {.base = 0, .length = UINT64_MAX};
        snprintf(whole.path, sizeof whole.path, "%s", from);
        snprintf(whole.name, sizeof whole.name, "%s", from);
        FILE *f = fopen(to, "wb");
        if (!f) {
            fprintf(stderr, "%s: %s: cannot create: %s\n", tool, to, strerror(errno));
            rc = -1;
            break;
        }
        rc = copy_part(&whole, (uint64_t)st.st_size, f, to);
        if (close_out(f, to) != 0)
            rc = -1;
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"output", required_argument, 0, 'o'},
                                            {"files", required_argument, 0, 'k'},
                                            {"split", no_argument, 0, 's'},
                                            {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    const char *out = NULL;
    long files = 1;
    int split = 0, opt;
    while ((opt = getopt_long(argc, argv, "o:h", options, NULL)) != -1) {
        switch (opt) {
        case 'o': out = optarg; break;
        case 'k': {
            char *end;
            files = strtol(optarg, &end, 10);
            if (*end || files < 1 || files > (1 << 24)) {
                fprintf(stderr, "%s: --files: not a number of files from 1 to %d: %s\n", tool, 1 << 24, optarg);
                return 2;
            }
            break;
        }
        case 's': split = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind != argc - 1 || !out) {
        usage(stderr);
        return 2;
    }
    const char *dir = argv[optind];
    rec_error err;
    rec_trace *t = rec_trace_open(dir, &err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    if (rec_trace_is_merged(t)) {
        fprintf(stderr, "%s: %s: a merged trace is one stream already\n", tool, dir);
        rec_trace_close(t);
        return 1;
    }
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    if (mkdir(out, 0755) != 0) {
        fprintf(stderr, "%s: %s: cannot create the directory: %s\n", tool, out, strerror(errno));
        rec_trace_close(t);
        return 1;
    }
    const rec_parts *l = rec_trace_parts(t);
    int rc = copy_the_rest(dir, out);
    if (rc == 0 && split)
        rc = write_split(l, nranks, out);
    uint32_t count = (uint32_t)(files < nranks ? files : nranks ? nranks : 1);
    for (uint32_t i = 0; rc == 0 && !split && i < count; i++) {
        uint32_t first = (uint32_t)((uint64_t)nranks * i / count), end = (uint32_t)((uint64_t)nranks * (i + 1) / count);
        rc = write_aggregate(l, first, end - first, i, count, out);
    }
    rec_trace_close(t);
    if (rc != 0)
        return 1;
    if (split)
        printf("%s: %s: %u ranks, a file per rank\n", tool, out, nranks);
    else
        printf("%s: %s: %u ranks in %u aggregate files\n", tool, out, nranks, count);
    return 0;
}
