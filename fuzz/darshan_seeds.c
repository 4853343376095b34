/* darshan_seeds: the seeds of fuzz_darshan from a Darshan log.
 *   fuzz-darshan-seeds LOG OUTDIR
 * writes OUTDIR/NAME.log (the log as it is, flags 0) and OUTDIR/NAME.parts
 * (its job, name and module regions uncompressed, as fuzz_darshan.c's
 * parts of a 3.41 log: flags 0x41), NAME being LOG's file name. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "darshan_make.h"

static int write_file(const char *dir, const char *name, const char *suffix, const dm_buf *b)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/%s.%s", dir, name, suffix);
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(b->data, 1, b->len, fp) != b->len || fclose(fp) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

static void part(dm_buf *out, unsigned slot, unsigned version, const dm_buf *b)
{
    if (!b->len)
        return;
    size_t len = b->len > 65535 ? 65535 : b->len;
    uint8_t head[4] = {(uint8_t)slot, (uint8_t)version, (uint8_t)(len & 0xff), (uint8_t)(len >> 8)};
    dm_put(out, head, 4);
    dm_put(out, b->data, len);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz-darshan-seeds LOG OUTDIR\n");
        return 2;
    }
    rec_error err;
    ri_darshan_log *log = ri_darshan_open(argv[1], &err);
    if (!log) {
        fprintf(stderr, "fuzz-darshan-seeds: %s\n", err.msg);
        return 1;
    }
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", argv[1]);
    const char *name = basename(copy);
    FILE *fp = fopen(argv[1], "rb");
    dm_buf raw = {0}, parts = {0};
    uint8_t zero = 0, flags = 0x41;
    dm_put(&raw, &zero, 1);
    char chunk[65536];
    size_t got;
    while (fp && (got = fread(chunk, 1, sizeof chunk, fp)) > 0)
        dm_put(&raw, chunk, got);
    if (fp)
        fclose(fp);
    dm_log l;
    dm_of_log(log, 0, &l);
    dm_put(&parts, &flags, 1);
    part(&parts, 0, 0, &l.job);
    part(&parts, 1, 0, &l.names);
    for (unsigned m = 0; m < RI_DARSHAN_MAX_MODULES; m++)
        part(&parts, 2 + m, l.versions[m], &l.modules[m]);
    int rc = write_file(argv[2], name, "log", &raw) || write_file(argv[2], name, "parts", &parts);
    dm_release(&l);
    dm_free(&raw);
    dm_free(&parts);
    ri_darshan_free(log);
    return rc ? 1 : 0;
}
