/* meta.c: file headers, recorder.meta and N.meta. Layouts: docs/reference/format.md. */
#include "meta.h"
#include "reader_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/* ---- fixed-width fields ---- */

uint16_t rec_fixed_u16(rec_fixed *f)
{
    uint16_t v;
    rec_get_bytes(&f->in, &v, sizeof v);
    return f->swap ? __builtin_bswap16(v) : v;
}

uint32_t rec_fixed_u32(rec_fixed *f)
{
    uint32_t v;
    rec_get_bytes(&f->in, &v, sizeof v);
    return f->swap ? __builtin_bswap32(v) : v;
}

uint64_t rec_fixed_u64(rec_fixed *f)
{
    uint64_t v;
    rec_get_bytes(&f->in, &v, sizeof v);
    return f->swap ? __builtin_bswap64(v) : v;
}

void rec_put_file_header(rec_buf *b, const char magic[4])
{
    uint32_t bom = REC_BOM;
    uint16_t major = REC_FORMAT_VERSION_MAJOR, minor = REC_FORMAT_VERSION_MINOR;
    rec_put_bytes(b, magic, 4);
    rec_put_bytes(b, &bom, sizeof bom);
    rec_put_bytes(b, &major, sizeof major);
    rec_put_bytes(b, &minor, sizeof minor);
}

int rec_check_file_header(rec_fixed *f, const char magic[4], const char *path, const char *what,
                          uint32_t *major, uint32_t *minor, rec_error *err)
{
    char got[4];
    if (rec_in_left(&f->in) < REC_FILE_HEADER_SIZE) {
        snprintf(err->msg, sizeof err->msg, "%s: truncated header at byte %zu (file of %zu bytes)", path,
                 rec_in_left(&f->in), rec_in_left(&f->in));
        return -1;
    }
    rec_get_bytes(&f->in, got, 4);
    if (memcmp(got, magic, 4) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: bad magic at byte 0: not a %s file", path, what);
        return -1;
    }
    uint32_t bom;
    rec_get_bytes(&f->in, &bom, sizeof bom);
    if (bom == REC_BOM_SWAPPED)
        f->swap = 1;
    else if (bom != REC_BOM) {
        snprintf(err->msg, sizeof err->msg, "%s: bad byte-order mark at byte 4", path);
        return -1;
    }
    *major = rec_fixed_u16(f);
    *minor = rec_fixed_u16(f);
    if (*major != REC_FORMAT_VERSION_MAJOR) {
        snprintf(err->msg, sizeof err->msg, "%s: unknown format version %u.%u at byte 8 (this reader: %d.x)", path,
                 *major, *minor, REC_FORMAT_VERSION_MAJOR);
        return -1;
    }
    return 0;
}

/* ---- files ---- */

const rec_reader_fs *rec_reader_fs_hook;

int rec_write_file(const rec_io *io, const char *path, const void *data, size_t n, rec_error *err)
{
    int (*open_fn)(const char *, int, ...) = io && io->open ? io->open : open;
    ssize_t (*write_fn)(int, const void *, size_t) = io && io->write ? io->write : write;
    int (*close_fn)(int) = io && io->close ? io->close : close;
    int fd = open_fn(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    const uint8_t *p = data;
    while (n) {
        ssize_t w = write_fn(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err->msg, sizeof err->msg, "%s: write failed: %s", path, w < 0 ? strerror(errno) : "no progress");
            close_fn(fd);
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    if (close_fn(fd) != 0) {
        snprintf(err->msg, sizeof err->msg, "%s: close failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int rec_read_file(const char *path, uint8_t **data, size_t *n, rec_error *err)
{
    FILE *f = rec_reader_fs_hook ? rec_reader_fs_hook->open(path) : fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    rec_buf b = {0};
    uint8_t chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        rec_put_bytes(&b, chunk, got);
    int failed = ferror(f);
    fclose(f);
    if (failed || b.oom) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, failed ? "read error" : "out of memory");
        rec_buf_free(&b);
        return -1;
    }
    *data = b.data;
    *n = b.len;
    return 0;
}

/* ---- recorder.meta ---- */

static void put_crc(rec_buf *b)
{
    uint32_t crc = rec_crc32(0, b->data, b->len);
    rec_put_bytes(b, &crc, sizeof crc);
}

/* The body (everything between the header and the CRC) is stored after a
 * codec byte and its raw size, zstd-compressed when that is smaller: the
 * function table makes it tens of KB, more than a short trace's records. */
static void encode_global_body(rec_buf *b, const rec_trace_info *info, const rec_table *table);

void rec_meta_encode_global(rec_buf *b, const rec_trace_info *info, const rec_table *table)
{
    rec_buf body = {0};
    encode_global_body(&body, info, table);
    rec_put_file_header(b, REC_MAGIC_GLOBAL);
    uint8_t codec = REC_CODEC_NONE;
    uint32_t raw = (uint32_t)body.len;
    size_t bound = ZSTD_compressBound(body.len);
    uint8_t *packed = body.oom ? NULL : malloc(bound);
    size_t z = packed ? ZSTD_compress(packed, bound, body.data, body.len, 3) : 0;
    int use_zstd = packed && !ZSTD_isError(z) && z < body.len;
    if (use_zstd)
        codec = REC_CODEC_ZSTD;
    rec_put_u8(b, codec);
    rec_put_bytes(b, &raw, sizeof raw);
    rec_put_bytes(b, use_zstd ? packed : body.data, use_zstd ? z : body.len);
    if (body.oom)
        b->oom = 1;
    free(packed);
    rec_buf_free(&body);
    put_crc(b);
}

static void encode_global_body(rec_buf *b, const rec_trace_info *info, const rec_table *table)
{
    double res = info->time_resolution;
    rec_put_bytes(b, &res, sizeof res);
    rec_put_varint(b, info->start_time_ns);
    rec_put_varint(b, info->nranks);
    rec_put_varint(b, info->window);
    rec_put_varint(b, info->flags);
    rec_put_varint(b, info->noptions);
    for (size_t i = 0; i < info->noptions; i++) {
        rec_put_cstr(b, info->options[i].key);
        rec_put_cstr(b, info->options[i].value);
    }
    size_t nf = rec_table_count(table);
    rec_put_varint(b, nf);
    for (size_t i = 0; i < nf; i++) {
        const rec_func_desc *f = rec_table_at(table, i);
        rec_put_varint(b, f->id);
        rec_put_cstr(b, f->name);
        rec_put_varint(b, f->layer);
        rec_put_varint(b, f->ret_kind);
        rec_put_varint(b, f->fail);
        rec_put_varint(b, f->flags);
        rec_put_cstr(b, f->ret_ctype);
        rec_put_varint(b, f->nargs);
        for (unsigned a = 0; a < f->nargs; a++) {
            rec_put_cstr(b, f->args[a].name);
            rec_put_cstr(b, f->args[a].ctype);
            rec_put_varint(b, f->args[a].kind);
            rec_put_varint(b, f->args[a].flags);
            rec_put_cstr(b, f->args[a].len);
        }
    }
}

static char *dup_str(rec_in *in)
{
    uint32_t len = 0;
    const uint8_t *s = rec_get_str(in, &len);
    if (!s)
        return NULL;
    char *copy = malloc((size_t)len + 1);
    if (!copy) {
        rec_in_fail(in, "out of memory");
        return NULL;
    }
    memcpy(copy, s, len);
    copy[len] = 0;
    return copy;
}

/* Checks the CRC in the last 4 bytes; returns the payload length or -1. */
static long check_crc(const uint8_t *data, size_t n, int swap, const char *path, rec_error *err)
{
    if (n < REC_FILE_HEADER_SIZE + 4) {
        snprintf(err->msg, sizeof err->msg, "%s: truncated: %zu bytes", path, n);
        return -1;
    }
    uint32_t stored;
    memcpy(&stored, data + n - 4, 4);
    if (swap)
        stored = __builtin_bswap32(stored);
    if (stored != rec_crc32(0, data, n - 4)) {
        snprintf(err->msg, sizeof err->msg, "%s: checksum mismatch at byte %zu: the file is corrupt or truncated",
                 path, n - 4);
        return -1;
    }
    return (long)(n - 4);
}

static int parse_failed(rec_in *in, const char *path, rec_error *err)
{
    snprintf(err->msg, sizeof err->msg, "%s: %s at byte %zu", path, in->failure, in->failure_at);
    return -1;
}

static int parse_global_body(rec_fixed *fp, const char *path, rec_global *g, rec_error *err);

int rec_meta_parse_global(const void *data, size_t n, const char *path, rec_global *g, rec_error *err)
{
    memset(g, 0, sizeof *g);
    rec_fixed f = {0};
    rec_in_init(&f.in, data, n);
    if (rec_check_file_header(&f, REC_MAGIC_GLOBAL, path, "recorder.meta", &g->info.version_major,
                              &g->info.version_minor, err) != 0)
        return -1;
    long payload = check_crc(data, n, f.swap, path, err);
    if (payload < 0)
        return -1;
    f.in.end = f.in.start + payload;
    uint8_t codec = rec_get_u8(&f.in);
    uint32_t raw = rec_fixed_u32(&f);
    size_t body_at = (size_t)(f.in.p - f.in.start);
    uint8_t *unpacked = NULL;
    if (f.in.failure || codec > REC_CODEC_ZSTD || raw > (64u << 20)) {
        snprintf(err->msg, sizeof err->msg, "%s: bad codec or size at byte %d", path, REC_FILE_HEADER_SIZE);
        return -1;
    }
    if (codec == REC_CODEC_ZSTD) {
        unpacked = malloc(raw ? raw : 1);
        size_t got = unpacked ? ZSTD_decompress(unpacked, raw, f.in.p, rec_in_left(&f.in)) : 0;
        if (!unpacked || ZSTD_isError(got) || got != raw) {
            free(unpacked);
            snprintf(err->msg, sizeof err->msg, "%s: cannot decompress the body at byte %zu", path, body_at);
            return -1;
        }
        rec_in_init(&f.in, unpacked, raw);
    } else if (rec_in_left(&f.in) != raw) {
        snprintf(err->msg, sizeof err->msg, "%s: body of %zu bytes, %u expected, at byte %zu", path,
                 rec_in_left(&f.in), raw, body_at);
        return -1;
    }
    int rc = parse_global_body(&f, path, g, err);
    free(unpacked);
    return rc;
}

/* Byte offsets in messages are the body's own when it was compressed. */
static int parse_global_body(rec_fixed *fp, const char *path, rec_global *g, rec_error *err)
{
    rec_fixed f = *fp;
    rec_in *in = &f.in;
    uint64_t res_bits = rec_fixed_u64(&f);
    memcpy(&g->info.time_resolution, &res_bits, sizeof res_bits);
    g->info.start_time_ns = rec_get_varint(in);
    uint64_t nranks = rec_get_varint(in);
    uint64_t window = rec_get_varint(in);
    g->info.flags = (uint32_t)rec_get_varint(in);
    uint64_t nopt = rec_get_varint(in);
    if (!in->failure && (nranks == 0 || nranks > (1u << 24)))
        rec_in_fail(in, "implausible number of ranks");
    if (!in->failure && window > REC_WINDOW_MAX)
        rec_in_fail(in, "window larger than 64");
    if (!in->failure && !(g->info.time_resolution > 0 && g->info.time_resolution < 1e3))
        rec_in_fail(in, "implausible time resolution");
    if (!in->failure && nopt > rec_in_left(in) / 2)
        rec_in_fail(in, "option count runs past the end");
    g->info.nranks = (uint32_t)nranks;
    g->info.window = (uint32_t)window;
    if (!in->failure) {
        g->options = calloc(nopt ? nopt : 1, sizeof *g->options);
        g->info.noptions = nopt;
        g->info.options = g->options;
        for (uint64_t i = 0; i < nopt && !in->failure; i++) {
            g->options[i].key = dup_str(in);
            g->options[i].value = dup_str(in);
        }
    }
    uint64_t nf = rec_get_varint(in);
    if (!in->failure && nf > rec_in_left(in) / 8)
        rec_in_fail(in, "function count runs past the end");
    if (!in->failure) {
        g->funcs = calloc(nf ? nf : 1, sizeof *g->funcs);
        g->nfuncs = nf;
    }
    for (uint64_t i = 0; i < nf && !in->failure; i++) {
        rec_func_desc *fd = &g->funcs[i];
        fd->id = (uint16_t)rec_get_varint(in);
        fd->name = dup_str(in);
        fd->layer = (uint8_t)rec_get_varint(in);
        fd->ret_kind = (uint8_t)rec_get_varint(in);
        fd->fail = (uint8_t)rec_get_varint(in);
        fd->flags = (uint16_t)rec_get_varint(in);
        fd->ret_ctype = dup_str(in);
        uint64_t nargs = rec_get_varint(in);
        if (in->failure)
            break;
        if (nargs > REC_MAX_ARGS) {
            rec_in_fail(in, "function with too many arguments");
            break;
        }
        if (fd->ret_kind >= REC_KIND_LIMIT || fd->layer >= REC_LAYER_COUNT) {
            rec_in_fail(in, "unknown return kind or layer");
            break;
        }
        rec_arg_desc *args = calloc(nargs + 1, sizeof *args);
        fd->args = args;
        fd->nargs = (uint8_t)nargs;
        for (uint64_t a = 0; a < nargs && !in->failure; a++) {
            args[a].name = dup_str(in);
            args[a].ctype = dup_str(in);
            uint64_t kind = rec_get_varint(in);
            if (kind >= REC_KIND_LIMIT && !in->failure)
                rec_in_fail(in, "unknown argument kind (written by a newer version?)");
            args[a].kind = (uint8_t)kind;
            args[a].flags = (uint8_t)rec_get_varint(in);
            args[a].len = dup_str(in);
        }
        if (!in->failure)
            rec_func_adopt_roles(fd, args);
    }
    if (!in->failure && in->p != in->end)
        rec_in_fail(in, "unexpected bytes after the function table");
    if (in->failure) {
        parse_failed(in, path, err);
        rec_global_free(g);
        return -1;
    }
    rec_error table_err;
    g->table = rec_table_new(g->funcs, g->nfuncs, &table_err);
    if (!g->table) {
        snprintf(err->msg, sizeof err->msg, "%s: %s", path, table_err.msg);
        rec_global_free(g);
        return -1;
    }
    return 0;
}

void rec_global_free(rec_global *g)
{
    for (size_t i = 0; i < g->info.noptions && g->options; i++) {
        free((char *)g->options[i].key);
        free((char *)g->options[i].value);
    }
    free(g->options);
    for (size_t i = 0; i < g->nfuncs && g->funcs; i++) {
        rec_func_desc *f = &g->funcs[i];
        free((char *)f->name);
        free((char *)f->ret_ctype);
        for (unsigned a = 0; f->args && a < f->nargs; a++) {
            free((char *)f->args[a].name);
            free((char *)f->args[a].ctype);
            free((char *)f->args[a].len);
        }
        free((rec_arg_desc *)f->args);
    }
    free(g->funcs);
    rec_table_free(g->table);
    memset(g, 0, sizeof *g);
}

/* ---- N.meta ---- */

void rec_meta_encode_rank(rec_buf *b, const rec_rank_summary *s)
{
    rec_put_file_header(b, REC_MAGIC_RANK_META);
    rec_put_bytes(b, &s->rank, sizeof s->rank);
    rec_put_varint(b, s->start_time_ns);
    rec_put_varint(b, s->records);
    rec_put_varint(b, s->blocks);
    rec_put_varint(b, s->stored_bytes);
    rec_put_varint(b, s->raw_bytes);
    rec_put_varint(b, s->first_tstart);
    rec_put_varint(b, s->last_tend);
    rec_put_varint(b, s->npaths);
    for (size_t i = 0; i < s->npaths; i++)
        rec_put_cstr(b, s->paths[i]);
    size_t used = 0;
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
        used += s->per_func[id].records != 0;
    rec_put_varint(b, used);
    for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++) {
        const rec_counts *c = &s->per_func[id];
        if (!c->records)
            continue;
        rec_put_varint(b, id);
        rec_put_varint(b, c->records);
        rec_put_varint(b, c->compressed_records);
        rec_put_varint(b, c->fields);
        rec_put_varint(b, c->elided_fields);
    }
    put_crc(b);
}

int rec_meta_parse_rank(const void *data, size_t n, const char *path, rec_rank_meta *m, rec_error *err)
{
    memset(m, 0, sizeof *m);
    rec_fixed f = {0};
    rec_in_init(&f.in, data, n);
    uint32_t major, minor;
    if (rec_check_file_header(&f, REC_MAGIC_RANK_META, path, "per-rank metadata", &major, &minor, err) != 0)
        return -1;
    long payload = check_crc(data, n, f.swap, path, err);
    if (payload < 0)
        return -1;
    f.in.end = f.in.start + payload;
    rec_in *in = &f.in;
    m->rank = rec_fixed_u32(&f);
    m->start_time_ns = rec_get_varint(in);
    m->records = rec_get_varint(in);
    m->blocks = rec_get_varint(in);
    m->stored_bytes = rec_get_varint(in);
    m->raw_bytes = rec_get_varint(in);
    m->first_tstart = rec_get_varint(in);
    m->last_tend = rec_get_varint(in);
    uint64_t npaths = rec_get_varint(in);
    if (!in->failure && npaths > rec_in_left(in))
        rec_in_fail(in, "path count runs past the end");
    if (!in->failure) {
        m->paths = calloc(npaths ? npaths : 1, sizeof *m->paths);
        m->npaths = npaths;
        for (uint64_t i = 0; i < npaths && !in->failure; i++)
            m->paths[i] = dup_str(in);
    }
    uint64_t nfuncs = rec_get_varint(in);
    if (!in->failure && nfuncs > rec_in_left(in) / 5)
        rec_in_fail(in, "function count runs past the end");
    if (!in->failure) {
        m->funcs = calloc(nfuncs ? nfuncs : 1, sizeof *m->funcs);
        m->nfuncs = nfuncs;
        for (uint64_t i = 0; i < nfuncs && !in->failure; i++) {
            m->funcs[i].func = (uint16_t)rec_get_varint(in);
            m->funcs[i].counts.records = rec_get_varint(in);
            m->funcs[i].counts.compressed_records = rec_get_varint(in);
            m->funcs[i].counts.fields = rec_get_varint(in);
            m->funcs[i].counts.elided_fields = rec_get_varint(in);
        }
    }
    if (!in->failure && in->p != in->end)
        rec_in_fail(in, "unexpected bytes after the counters");
    if (in->failure) {
        parse_failed(in, path, err);
        rec_rank_meta_free(m);
        return -1;
    }
    m->complete = 1;
    return 0;
}

void rec_rank_meta_free(rec_rank_meta *m)
{
    for (size_t i = 0; m->paths && i < m->npaths; i++)
        free(m->paths[i]);
    free(m->paths);
    free(m->funcs);
    memset(m, 0, sizeof *m);
}

int rec_rank_peek(const void *data, size_t n, uint64_t *records)
{
    rec_rank_meta m;
    rec_error err;
    if (rec_meta_parse_rank(data, n, "RANK.meta", &m, &err) != 0)
        return -1;
    *records = m.records;
    rec_rank_meta_free(&m);
    return 0;
}

int rec_global_peek(const void *data, size_t n, uint32_t *nranks, uint64_t *start_time_ns)
{
    rec_global g;
    rec_error err;
    int rc = rec_meta_parse_global(data, n, "recorder.meta", &g, &err);
    if (rc == 0) {
        *nranks = g.info.nranks;
        *start_time_ns = g.info.start_time_ns;
    }
    rec_global_free(&g);
    return rc;
}
