/* paths.c: what a call's PATH arguments mean (which it creates, which name
 * no file it touches) and the lexical path rules every tool re-roots by. */
#define _GNU_SOURCE
#include "recorder_facts.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <hdf5.h>
#include <mpi.h>

/* H5F_ACC_* expand to "(H5check(), H5open(), value)": only the value is wanted. */
#undef H5CHECK
#undef H5OPEN
#define H5CHECK
#define H5OPEN

int rf_path_names_no_file(const rec_func_desc *f, unsigned arg)
{
    unsigned role = arg < f->nargs ? f->args[arg].role : REC_AROLE_NONE;
    return role == REC_AROLE_LINK_TARGET || role == REC_AROLE_LINK_FILE;
}

int rf_places_link(const rec_func_desc *f)
{
    int made = rec_arg_with_role(f, REC_AROLE_NEW_PATH);
    for (unsigned k = 0; made >= 0 && k < f->nargs; k++)
        if (f->args[k].kind == REC_KIND_PATH && (int)k != made)
            return 1;
    return 0;
}

int rf_path_created(const rec_func_desc *f, unsigned arg, const int64_t *ints, const char *const *strs)
{
    if (arg < f->nargs && f->args[arg].role == REC_AROLE_NEW_PATH)
        return 1;
    if (rec_arg_with_role(f, REC_AROLE_NEW_PATH) >= 0)
        return 0; /* link(), rename(): the other path exists already */
    for (unsigned k = 0; k < f->nargs; k++) {
        switch (f->args[k].kind) {
        case REC_KIND_OFLAGS:
            if (ints[k] & O_CREAT)
                return 1;
            break;
        case REC_KIND_STDIO_MODE:
            if (strs[k] && (strs[k][0] == 'w' || strs[k][0] == 'a'))
                return 1;
            break;
        case REC_KIND_MPI_AMODE:
            if (ints[k] & MPI_MODE_CREATE)
                return 1;
            break;
        case REC_KIND_H5_FACC:
            if (ints[k] & (H5F_ACC_TRUNC | H5F_ACC_EXCL))
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

int rf_record_creates(const rec_func_desc *f, const rec_record *r, unsigned arg)
{
    int64_t ints[REC_MAX_ARGS];
    const char *strs[REC_MAX_ARGS];
    char modes[REC_MAX_ARGS][8];
    for (unsigned k = 0; k < f->nargs && k < REC_MAX_ARGS; k++) {
        ints[k] = r->args[k].i;
        strs[k] = NULL;
        if (f->args[k].kind == REC_KIND_STDIO_MODE && r->args[k].ptr) {
            snprintf(modes[k], sizeof modes[k], "%.*s", (int)r->args[k].len, (const char *)r->args[k].ptr);
            strs[k] = modes[k];
        }
    }
    return rf_path_created(f, arg, ints, strs);
}

/* ROMIO's file-system prefixes ("ufs:/scratch/x" picks the driver by name).
 * They name no directory: a path's key, and a kernel's or replay's path,
 * go without them, so ROMIO picks the driver for where the path now lies. */
static const char *const romio_prefixes[] = {"ufs",   "nfs",    "lustre", "gpfs", "panfs",   "pvfs2", "pvfs",
                                             "xfs",   "testfs", "daos",   "ime",  "quobyte", "beegfs",
                                             "piofs", "pfs",    "hfs",    "sfs",  "bgl",     "bglockless",
                                             "zoidfs", "gridftp", "ftp",  "gsiftp"};

size_t rf_path_fs_prefix(const char *path)
{
    const char *colon = strchr(path, ':');
    if (!colon || colon == path)
        return 0;
    size_t n = (size_t)(colon - path);
    for (size_t i = 0; i < sizeof romio_prefixes / sizeof *romio_prefixes; i++)
        if (strlen(romio_prefixes[i]) == n && strncasecmp(path, romio_prefixes[i], n) == 0)
            return n + 1;
    return 0;
}

int rf_path_normalize(const char *in, char *out, size_t cap, unsigned flags)
{
    if (flags & RF_PATH_FS_PREFIX)
        in += rf_path_fs_prefix(in);
    if (cap < 2) {
        if (cap)
            out[0] = 0;
        return -1;
    }
    int rooted = (flags & RF_PATH_ROOTED) || in[0] == '/';
    size_t n = 0;
    if (rooted)
        out[n++] = '/';
    const size_t base = n;
    out[n] = 0;
    for (const char *p = in; *p;) {
        while (*p == '/')
            p++;
        const char *s = p;
        while (*p && *p != '/')
            p++;
        size_t len = (size_t)(p - s);
        if (len == 0 || (len == 1 && s[0] == '.'))
            continue;
        if (len == 2 && s[0] == '.' && s[1] == '.') {
            size_t last = n;
            while (last > base && out[last - 1] != '/')
                last--;
            int kept_dotdot = n - last == 2 && out[last] == '.' && out[last + 1] == '.';
            if (n > base && !kept_dotdot) { /* drop the component before it */
                n = last > base ? last - 1 : base;
                out[n] = 0;
                continue;
            }
            if (rooted) { /* ".." at the root */
                if (flags & RF_PATH_ESCAPE_FAILS)
                    return 1;
                continue;
            }
        }
        size_t sep = n > base;
        if (n + sep + len + 1 > cap) { /* cut short */
            if (sep && n + 1 < cap)
                out[n++] = '/';
            len = cap - 1 - n;
            memcpy(out + n, s, len);
            out[n + len] = 0;
            return -1;
        }
        if (sep)
            out[n++] = '/';
        memcpy(out + n, s, len);
        n += len;
        out[n] = 0;
    }
    if (n == 0) {
        out[0] = '.';
        out[1] = 0;
    }
    return 0;
}

int rf_path_reroot(const char *prefix, const char *key, char *out, size_t cap)
{
    int n = strcmp(key, "/") == 0 ? snprintf(out, cap, "%s", prefix) : snprintf(out, cap, "%s%s", prefix, key);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

static int under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

/* /dev/shm holds ordinary files in memory: programs' scratch and checkpoints. */
int rf_path_is_system(const char *key)
{
    return (under(key, "/dev") && !under(key, "/dev/shm")) || under(key, "/proc") || under(key, "/sys");
}

void rf_path_dirname(const char *path, char *out, size_t cap)
{
    snprintf(out, cap, "%s", path);
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, cap, ".");
    else if (slash == out)
        out[1] = 0;
    else
        *slash = 0;
}

int rf_link_target_key(const char *link, const char *target, char *key, size_t cap)
{
    char link_key[4096], dir[4096], joined[8192];
    if (rf_path_normalize(link, link_key, sizeof link_key, RF_PATH_ROOTED) != 0)
        return -1;
    rf_path_dirname(link_key, dir, sizeof dir);
    if (snprintf(joined, sizeof joined, "%s/%s", dir, target) >= (int)sizeof joined)
        return -1;
    return rf_path_normalize(joined, key, cap, RF_PATH_ROOTED | RF_PATH_ESCAPE_FAILS);
}

unsigned rf_path_flags(const rec_func_desc *f)
{
    return f && f->layer == REC_LAYER_MPIIO ? RF_PATH_FS_PREFIX : 0;
}
