/* container.c: a fuzz input <-> the files of a trace directory (fuzz.h). */
#define _GNU_SOURCE
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rec_bytes.h"     /* rec_crc32: the format's own CRC */
#include "reader_fs.h" /* the reader's files from memory */

const char *const fuzz_file_names[FUZZ_NFILES] = {"recorder.meta", "0.rec",       "0.meta", "1.rec",
                                                  "1.meta",        "merged.rec", "merged.meta", "2.rec"};

static char scratch[PATH_MAX];

void fuzz_clear_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[PATH_MAX];
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

void fuzz_remove_scratch(void)
{
    if (!scratch[0])
        return;
    char sub[PATH_MAX + 8];
    snprintf(sub, sizeof sub, "%s/out", scratch);
    fuzz_clear_dir(sub);
    rmdir(sub);
    snprintf(sub, sizeof sub, "%s/in", scratch);
    fuzz_clear_dir(sub);
    rmdir(sub);
    fuzz_clear_dir(scratch); /* the codegen target's kernel.c and compile.txt */
    rmdir(scratch);
}

const char *fuzz_scratch_dir(void)
{
    if (scratch[0])
        return scratch;
    struct stat st;
    const char *base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : getenv("TMPDIR");
    snprintf(scratch, sizeof scratch, "%s/recorder-fuzz-%ld", base ? base : "/tmp", (long)getpid());
    if (mkdir(scratch, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "fuzz: cannot create %s: %s\n", scratch, strerror(errno));
        abort();
    }
    atexit(fuzz_remove_scratch);
    return scratch;
}

/* ---- checksum repair ---- */

static uint32_t load32(const uint8_t *p, int swap)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return swap ? __builtin_bswap32(v) : v;
}

static void store32(uint8_t *p, uint32_t v, int swap)
{
    if (swap)
        v = __builtin_bswap32(v);
    memcpy(p, &v, 4);
}

/* The byte-order mark decides how fixed-width fields are stored. */
static int swapped(const uint8_t *file, size_t n)
{
    return n >= 8 && load32(file + 4, 0) == 0x04030201u;
}

/* recorder.meta and N.meta: a CRC-32 of everything before the last 4 bytes. */
static void fix_meta(uint8_t *file, size_t n)
{
    if (n < 16)
        return;
    store32(file + n - 4, rec_crc32(0, file, n - 4), swapped(file, n));
}

/* N.rec: after the 16-byte file header, 80-byte block headers each followed
 * by stored_size payload bytes (docs/reference/format.md, section 5.1). */
static void fix_stream(uint8_t *file, size_t n)
{
    int swap = swapped(file, n);
    size_t at = 16;
    while (at + 80 <= n) {
        uint8_t *h = file + at;
        uint32_t stored = load32(h + 8, swap);
        if (memcmp(h, "RKBL", 4) == 0 && stored <= n - at - 80)
            store32(h + 40, rec_crc32(0, h + 80, stored), swap);
        store32(h + 76, rec_crc32(0, h, 76), swap);
        if (stored > n - at - 80)
            break;
        at += 80 + (size_t)stored;
    }
}

static int write_file(const char *path, const uint8_t *data, size_t n)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        data += w;
        n -= (size_t)w;
    }
    return close(fd);
}

/* Splits the container into files[] (repaired copies with FUZZ_FIX_CRC).
 * Returns the flags byte, or -1 for an empty input. */
static uint8_t repaired[FUZZ_NFILES][1u << 16];

static int split(const uint8_t *data, size_t size, const uint8_t *file[FUZZ_NFILES], size_t len[FUZZ_NFILES])
{
    if (size == 0)
        return -1;
    uint8_t flags = data[0];
    memset(file, 0, FUZZ_NFILES * sizeof *file);
    memset(len, 0, FUZZ_NFILES * sizeof *len);
    size_t at = 1;
    while (at < size) {
        unsigned name = data[at++] % FUZZ_NFILES;
        size_t n = 0;
        if (at < size)
            n = data[at++];
        if (at < size)
            n |= (size_t)data[at++] << 8;
        if (n > size - at)
            n = size - at;
        file[name] = data + at;
        len[name] = n;
        at += n;
    }
    for (unsigned i = 0; i < FUZZ_NFILES && (flags & FUZZ_FIX_CRC); i++) {
        if (!file[i])
            continue;
        memcpy(repaired[i], file[i], len[i]);
        if (strstr(fuzz_file_names[i], ".rec"))
            fix_stream(repaired[i], len[i]);
        else
            fix_meta(repaired[i], len[i]);
        file[i] = repaired[i];
    }
    return flags;
}

int fuzz_unpack(const uint8_t *data, size_t size, const char *dir)
{
    const uint8_t *file[FUZZ_NFILES];
    size_t len[FUZZ_NFILES];
    int flags = split(data, size, file, len);
    if (flags < 0)
        return -1;
    mkdir(dir, 0700);
    fuzz_clear_dir(dir);
    char path[PATH_MAX];
    for (unsigned i = 0; i < FUZZ_NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, fuzz_file_names[i]);
        if (file[i] && write_file(path, file[i], len[i]) != 0)
            return -1;
    }
    return flags;
}

/* ---- the same files, served from memory (format/reader_fs.h) ---- */

static const uint8_t *mounted[FUZZ_NFILES];
static size_t mounted_len[FUZZ_NFILES];

typedef struct memfile {
    const uint8_t *data;
    size_t len;
    off64_t pos;
} memfile;

static ssize_t mem_read(void *cookie, char *buf, size_t n)
{
    memfile *m = cookie;
    if (m->pos >= (off64_t)m->len)
        return 0;
    size_t left = m->len - (size_t)m->pos;
    if (n > left)
        n = left;
    memcpy(buf, m->data + m->pos, n);
    m->pos += (off64_t)n;
    return (ssize_t)n;
}

/* As on a real file, a position past the end is allowed and reads nothing. */
static int mem_seek(void *cookie, off64_t *offset, int whence)
{
    memfile *m = cookie;
    off64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->pos : (off64_t)m->len;
    if (*offset < -base) {
        errno = EINVAL;
        return -1;
    }
    m->pos = base + *offset;
    *offset = m->pos;
    return 0;
}

static int mem_close(void *cookie)
{
    free(cookie);
    return 0;
}

static FILE *mem_open(const char *path)
{
    size_t dirlen = strlen(FUZZ_MEMORY_DIR);
    if (strncmp(path, FUZZ_MEMORY_DIR, dirlen) != 0 || path[dirlen] != '/')
        return fopen(path, "rb");
    for (unsigned i = 0; i < FUZZ_NFILES; i++) {
        if (!mounted[i] || strcmp(path + dirlen + 1, fuzz_file_names[i]) != 0)
            continue;
        memfile *m = malloc(sizeof *m);
        if (!m)
            return NULL;
        *m = (memfile){mounted[i], mounted_len[i], 0};
        FILE *f = fopencookie(m, "rb", (cookie_io_functions_t){mem_read, NULL, mem_seek, mem_close});
        if (!f)
            free(m);
        return f;
    }
    errno = ENOENT;
    return NULL;
}

static int mem_is_dir(const char *path)
{
    if (strcmp(path, FUZZ_MEMORY_DIR) == 0)
        return 1;
    struct stat st;
    return stat(path, &st) != 0 ? -1 : S_ISDIR(st.st_mode);
}

static const rec_reader_fs memory_fs = {mem_open, mem_is_dir};

int fuzz_mount(const uint8_t *data, size_t size)
{
    int flags = split(data, size, mounted, mounted_len);
    rec_reader_fs_hook = flags < 0 ? NULL : &memory_fs;
    return flags;
}

/* ---- packing (seed_tool) ---- */

static int read_all(const char *path, uint8_t **data, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    *data = buf;
    *n = len;
    return 0;
}

size_t fuzz_pack(const char *dir, uint8_t flags, uint8_t **out)
{
    size_t cap = 1, len = 0;
    uint8_t *buf = malloc(cap);
    if (!buf)
        return 0;
    buf[len++] = flags;
    char path[PATH_MAX];
    for (unsigned i = 0; i < FUZZ_NFILES; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, fuzz_file_names[i]);
        uint8_t *data;
        size_t n;
        if (read_all(path, &data, &n) != 0)
            continue;
        if (n > 0xffff) {
            fprintf(stderr, "fuzz_pack: %s: %zu bytes, more than a container entry holds (65535)\n", path, n);
            free(data);
            free(buf);
            return 0;
        }
        uint8_t *grown = realloc(buf, cap = len + 3 + n);
        if (!grown) {
            free(data);
            free(buf);
            return 0;
        }
        buf = grown;
        buf[len++] = (uint8_t)i;
        buf[len++] = (uint8_t)(n & 0xff);
        buf[len++] = (uint8_t)(n >> 8);
        memcpy(buf + len, data, n);
        len += n;
        free(data);
    }
    *out = buf;
    return len;
}
