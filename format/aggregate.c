/* aggregate.c: where a rank's files are (rec_parts), and the aggregate
 * files' header and member table (docs/reference/format.md, section 14).
 *
 * A trace written with RECORDER_AGGREGATE holds, in place of a file per rank
 * and part (N.rec, N.meta, N.h5store), a few files aggregate.0 ...
 * aggregate.K-1; each holds the bytes those files would have, verbatim, at
 * offsets its member table gives. So every reader reads a part with the code
 * it reads the file with, from a base offset and up to a length. */
#include "meta.h"
#include "reader_fs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REC_MAGIC_AGGREGATE "RKAG"
/* rank u32, reserved u32, offset u64 x 3, length u64 x 3 */
#define MEMBER_BYTES (8 + 16 * REC_PART_COUNT)
/* index u32, count u32, members u32, reserved u32 */
#define FIXED_BYTES REC_AGGREGATE_HEAD_BYTES
/* More aggregate files or members than this is a corrupt header. */
#define AGGREGATE_LIMIT (1u << 24)

const char *rec_part_suffix(unsigned part)
{
    static const char *const suffix[REC_PART_COUNT] = {"rec", "meta", "h5store"};
    return part < REC_PART_COUNT ? suffix[part] : "";
}

size_t rec_aggregate_header_size(uint32_t nmembers)
{
    return FIXED_BYTES + (size_t)nmembers * MEMBER_BYTES + 4;
}

void rec_aggregate_header_pack(uint8_t *out, uint32_t index, uint32_t count, const rec_aggregate_member *m,
                               uint32_t n)
{
    rec_buf b = {.data = out, .cap = rec_aggregate_header_size(n)};
    rec_put_file_header(&b, REC_MAGIC_AGGREGATE);
    uint32_t fixed[4] = {index, count, n, 0};
    rec_put_bytes(&b, fixed, sizeof fixed);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t id[2] = {m[i].rank, 0};
        rec_put_bytes(&b, id, sizeof id);
        rec_put_bytes(&b, m[i].offset, sizeof m[i].offset);
        rec_put_bytes(&b, m[i].length, sizeof m[i].length);
    }
    uint32_t crc = rec_crc32(0, out, b.len);
    rec_put_bytes(&b, &crc, sizeof crc);
}

/* ---- reading ---- */

/* Checks the first REC_AGGREGATE_HEAD_BYTES; fills what they say. */
static int parse_head(const uint8_t *head, size_t n, const char *path, rec_fixed *fx, uint32_t *index,
                      uint32_t *count, uint32_t *members, rec_error *err)
{
    uint32_t major, minor;
    rec_in_init(&fx->in, head, n);
    if (rec_check_file_header(fx, REC_MAGIC_AGGREGATE, path, "aggregate", &major, &minor, err) != 0)
        return -1;
    if (n < FIXED_BYTES) {
        snprintf(err->msg, sizeof err->msg, "%s: truncated header at byte %zu", path, n);
        return -1;
    }
    *index = rec_fixed_u32(fx);
    *count = rec_fixed_u32(fx);
    *members = rec_fixed_u32(fx);
    if (*count == 0 || *index >= *count || *count > AGGREGATE_LIMIT || *members > AGGREGATE_LIMIT) {
        snprintf(err->msg, sizeof err->msg, "%s: says it is aggregate %u of %u, with %u members", path, *index,
                 *count, *members);
        return -1;
    }
    return 0;
}

size_t rec_aggregate_table_size(const uint8_t *head, size_t n)
{
    rec_fixed fx = {0};
    rec_error err;
    uint32_t index, count, members;
    if (parse_head(head, n, "", &fx, &index, &count, &members, &err) != 0)
        return 0;
    return rec_aggregate_header_size(members);
}

int rec_aggregate_parse(const uint8_t *table, size_t n, uint64_t file_size, const char *path, rec_aggregate_info *out,
                        rec_error *err)
{
    rec_fixed fx = {0};
    memset(out, 0, sizeof *out);
    if (parse_head(table, n, path, &fx, &out->index, &out->count, &out->n, err) != 0)
        return -1;
    size_t size = rec_aggregate_header_size(out->n);
    if (n < size || file_size < size) {
        snprintf(err->msg, sizeof err->msg, "%s: truncated member table (%u members)", path, out->n);
        return -1;
    }
    rec_fixed t = {.swap = fx.swap};
    rec_in_init(&t.in, table + size - 4, 4);
    if (rec_crc32(0, table, size - 4) != rec_fixed_u32(&t)) {
        snprintf(err->msg, sizeof err->msg, "%s: member table checksum mismatch", path);
        return -1;
    }
    if (!(out->members = calloc(out->n + 1, sizeof *out->members))) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
        return -1;
    }
    rec_in_init(&t.in, table + FIXED_BYTES, size - FIXED_BYTES - 4);
    for (uint32_t i = 0; i < out->n; i++) {
        rec_aggregate_member *m = &out->members[i];
        m->rank = rec_fixed_u32(&t);
        (void)rec_fixed_u32(&t);
        for (unsigned k = 0; k < REC_PART_COUNT; k++)
            m->offset[k] = rec_fixed_u64(&t);
        for (unsigned k = 0; k < REC_PART_COUNT; k++) {
            m->length[k] = rec_fixed_u64(&t);
            if (m->length[k] && (m->offset[k] > file_size || m->length[k] > file_size - m->offset[k])) {
                snprintf(err->msg, sizeof err->msg,
                         "%s: member %u (rank %u): its %s part ends past the end of the file (byte %llu)", path, i,
                         m->rank, rec_part_suffix(k), (unsigned long long)file_size);
                free(out->members);
                out->members = NULL;
                return -1;
            }
        }
    }
    return 0;
}

typedef struct placed_member {
    rec_aggregate_member m;
    uint32_t file; /* aggregate.<file> */
} placed_member;

struct rec_parts {
    char *dir;
    uint32_t count; /* aggregate files; 0: a file per rank and part */
    uint32_t n;
    placed_member *members; /* by rank */
};

static FILE *open_file(const char *path)
{
    return rec_reader_fs_hook ? rec_reader_fs_hook->open(path) : fopen(path, "rb");
}

static int by_rank(const void *a, const void *b)
{
    uint32_t x = ((const placed_member *)a)->m.rank, y = ((const placed_member *)b)->m.rank;
    return x < y ? -1 : x > y;
}

/* Reads aggregate.<index>'s member table into l. *count: the number of
 * aggregate files (as the first one says; the others must agree). 1: there
 * is no aggregate.0. */
static int load_one(rec_parts *l, uint32_t index, uint32_t *count, rec_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/aggregate.%u", l->dir, index);
    FILE *f = open_file(path);
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
        return errno == ENOENT && index == 0 ? 1 : -1;
    }
    uint8_t head[REC_AGGREGATE_HEAD_BYTES];
    size_t got = fread(head, 1, sizeof head, f), size = rec_aggregate_table_size(head, got);
    uint8_t *table = size ? malloc(size) : NULL;
    rec_aggregate_info info = {0};
    int rc = -1;
    if (size && !table)
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", path);
    else if (table && (fseeko(f, 0, SEEK_SET) != 0 || (got = fread(table, 1, size, f)) != size))
        snprintf(err->msg, sizeof err->msg, "%s: truncated member table at byte %zu", path, got);
    else if (fseeko(f, 0, SEEK_END) == 0 &&
             rec_aggregate_parse(table ? table : head, table ? size : got, (uint64_t)ftello(f), path, &info, err) == 0)
        rc = 0;
    free(table);
    fclose(f);
    if (rc != 0)
        return -1;
    if (index == 0)
        *count = info.count;
    placed_member *grown = realloc(l->members, ((size_t)l->n + info.n + 1) * sizeof *grown);
    if (info.index != index || info.count != *count || !grown) {
        if (grown)
            l->members = grown;
        snprintf(err->msg, sizeof err->msg, grown ? "%s: says it is aggregate %u of %u, expected %u of %u" : "%s: out of memory",
                 path, info.index, info.count, index, *count);
        free(info.members);
        return -1;
    }
    l->members = grown;
    for (uint32_t i = 0; i < info.n; i++)
        l->members[l->n + i] = (placed_member){info.members[i], index};
    l->n += info.n;
    free(info.members);
    return 0;
}

rec_parts *rec_parts_open(const char *dir, rec_error *err)
{
    rec_parts *l = calloc(1, sizeof *l);
    if (!l || !(l->dir = strdup(dir))) {
        free(l);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    uint32_t count = 0;
    int rc = load_one(l, 0, &count, err);
    if (rc == 1)
        return l; /* no aggregate: a file per rank and part */
    for (uint32_t i = 1; rc == 0 && i < count; i++)
        rc = load_one(l, i, &count, err);
    if (rc != 0) {
        rec_parts_close(l);
        return NULL;
    }
    l->count = count;
    qsort(l->members, l->n, sizeof *l->members, by_rank);
    for (uint32_t i = 1; i < l->n; i++)
        if (l->members[i].m.rank == l->members[i - 1].m.rank) {
            snprintf(err->msg, sizeof err->msg, "%s: rank %u is a member of both aggregate.%u and aggregate.%u", dir,
                     l->members[i].m.rank, l->members[i - 1].file, l->members[i].file);
            rec_parts_close(l);
            return NULL;
        }
    return l;
}

void rec_parts_close(rec_parts *l)
{
    if (!l)
        return;
    free(l->members);
    free(l->dir);
    free(l);
}

uint32_t rec_parts_aggregates(const rec_parts *l)
{
    return l->count;
}

static const placed_member *member_of(const rec_parts *l, uint32_t rank)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->members[mid].m.rank < rank)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < l->n && l->members[lo].m.rank == rank ? &l->members[lo] : NULL;
}

int rec_parts_find(const rec_parts *l, uint32_t rank, unsigned part, rec_part_place *out)
{
    char stem[16];
    if (rank == REC_MERGED_STREAM)
        snprintf(stem, sizeof stem, "merged");
    else
        snprintf(stem, sizeof stem, "%u", rank);
    const placed_member *p = rank == REC_MERGED_STREAM ? NULL : member_of(l, rank);
    if (!p) { /* its own file (a rank the aggregates lack kept one: see tracer.md) */
        snprintf(out->path, sizeof out->path, "%s/%s.%s", l->dir, stem, rec_part_suffix(part));
        snprintf(out->name, sizeof out->name, "%s", out->path);
        out->base = 0;
        out->length = UINT64_MAX;
        return 0;
    }
    snprintf(out->path, sizeof out->path, "%s/aggregate.%u", l->dir, p->file);
    snprintf(out->name, sizeof out->name, "%s (%s.%s)", out->path, stem, rec_part_suffix(part));
    out->base = p->m.offset[part];
    out->length = p->m.length[part];
    return out->length ? 0 : 1;
}

int rec_parts_read(const rec_parts *l, uint32_t rank, unsigned part, uint8_t **data, size_t *n, rec_error *err)
{
    rec_part_place at;
    if (rec_parts_find(l, rank, part, &at) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: no such member", at.name);
        errno = ENOENT;
        return 1;
    }
    if (at.length == UINT64_MAX) {
        if (rec_read_file(at.path, data, n, err) == 0)
            return 0;
        return errno == ENOENT ? 1 : -1;
    }
    FILE *f = open_file(at.path);
    uint8_t *buf = at.length < SIZE_MAX ? malloc(at.length) : NULL;
    int rc = -1;
    if (!f)
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", at.name, strerror(errno));
    else if (!buf)
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", at.name);
    else if (fseeko(f, (off_t)at.base, SEEK_SET) != 0 || fread(buf, 1, at.length, f) != at.length)
        snprintf(err->msg, sizeof err->msg, "%s: cannot read %llu bytes at byte %llu of the aggregate", at.name,
                 (unsigned long long)at.length, (unsigned long long)at.base);
    else
        rc = 0;
    if (f)
        fclose(f);
    if (rc != 0) {
        free(buf);
        errno = EIO;
        return -1;
    }
    *data = buf;
    *n = (size_t)at.length;
    return 0;
}
