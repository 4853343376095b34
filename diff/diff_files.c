/* diff_files.c: per-file operation and byte counts. Each side attributes
 * its top-level I/O calls to files, by the paths they name or by the handle
 * they act on (a handle belongs to the file it was opened from, or to the
 * file of the handle it was derived from: a dataset to its HDF5 file, a
 * FILE* from fdopen to its fd's file). A's files are keyed by their mapped
 * names, so both sides' counts of one file land in one entry. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

struct diff_file {
    char *key;     /* the file's name as B names it */
    char *name[2]; /* as each side named it first */
    int64_t count[2][DIFF_NCOUNTERS];
    uint32_t ranks; /* totals: ranks that touched it */
    UT_hash_handle hh;
};

struct diff_handle {
    uint64_t key; /* id space << 56 | id */
    diff_file *file;
    int by_path; /* opened from the file's name (its close counts as a close) */
    uint32_t refs; /* the references its creates and INC_REF took: forgotten at none */
    UT_hash_handle hh;
};

static const char *const counter_names[DIFF_NCOUNTERS] = {
    "opens", "closes", "reads", "writes", "metadata ops", "other calls", "bytes read", "bytes written"};

static uint64_t handle_key(unsigned kind, int64_t id)
{
    return ((uint64_t)rec_kind_handle_space(kind) << 56) ^ ((uint64_t)id & ((1ull << 56) - 1));
}

static diff_file *file_entry(diff_file **table, const char *key)
{
    diff_file *e;
    HASH_FIND_STR(*table, key, e);
    if (e)
        return e;
    e = calloc(1, sizeof *e);
    if (!e || !(e->key = strdup(key))) {
        free(e);
        return NULL;
    }
    HASH_ADD_KEYPTR(hh, *table, e->key, strlen(e->key), e);
    return e;
}

/* The file a path names, in B's namespace. */
static diff_file *file_of_path(diff_ctx *ctx, diff_side *s, const char *path)
{
    char norm[DIFF_PATH_MAX], key[DIFF_PATH_MAX];
    rf_path_normalize(path, norm, sizeof norm, 0);
    if (s->which == 0)
        diff_path_map(&ctx->paths, norm, key, sizeof key);
    else
        snprintf(key, sizeof key, "%s", norm);
    diff_file *e = file_entry(&ctx->rank_files, key);
    if (e && !e->name[s->which])
        e->name[s->which] = strdup(path);
    return e;
}

static struct diff_handle *find_handle(diff_side *s, unsigned kind, int64_t id)
{
    uint64_t key = handle_key(kind, id);
    struct diff_handle *h;
    HASH_FIND(hh, s->handles, &key, sizeof key, h);
    return h;
}

static void bind_handle(diff_side *s, unsigned kind, int64_t id, diff_file *file, int by_path)
{
    if (!rec_handle_is_dynamic(id) || !file)
        return; /* predefined, or the call failed */
    struct diff_handle *h = find_handle(s, kind, id);
    if (h) { /* the same object handed back (ids follow objects): one more reference */
        h->refs++;
        return;
    }
    if (!(h = calloc(1, sizeof *h)))
        return;
    h->key = handle_key(kind, id);
    HASH_ADD(hh, s->handles, key, sizeof h->key, h);
    h->file = file;
    h->by_path = by_path;
    h->refs = 1;
}

void diff_handles_clear(diff_side *s)
{
    struct diff_handle *h, *tmp;
    HASH_ITER(hh, s->handles, h, tmp) {
        HASH_DEL(s->handles, h);
        free(h);
    }
}

/* Where a call's counts go: nowhere when the side only tracks handles. */
static int64_t *counts_of(const diff_side *s, diff_file *file)
{
    static int64_t discarded[DIFF_NCOUNTERS];
    return s->counting ? file->count[s->which] : discarded;
}

const char *diff_full_path(diff_side *s, const rec_func_desc *f, const rec_record *r, unsigned field, char *buf,
                           size_t cap)
{
    const char *p = diff_side_path(s, field == f->nargs ? r->ret.i : r->args[field].i);
    if (p && (rf_path_flags(f) & RF_PATH_FS_PREFIX))
        p += rf_path_fs_prefix(p); /* ROMIO's "ufs:" names no directory */
    if (!p || p[0] == '/' || field >= f->nargs)
        return p;
    for (int k = (int)field - 1; k >= 0; k--) {
        if (f->args[k].kind != REC_KIND_DIRFD)
            continue;
        int64_t dirfd = r->args[k].i;
        struct diff_handle *h = rec_handle_is_dynamic(dirfd) ? find_handle(s, REC_KIND_DIRFD, dirfd) : NULL;
        if (h && h->file && h->file->name[s->which]) {
            snprintf(buf, cap, "%s/%s", h->file->name[s->which], p);
            return buf;
        }
        break;
    }
    return p;
}

void diff_files_account(diff_ctx *ctx, diff_side *s, const rec_func_desc *f, const rec_record *r)
{
    int64_t *count;
    diff_file *by_path = NULL, *by_handle = NULL;
    struct diff_handle *operand = NULL;
    for (unsigned a = 0; a < f->nargs; a++) {
        unsigned kind = f->args[a].kind;
        if (kind == REC_KIND_PATH && !diff_field_is_link_target(f, a)) {
            char joined[DIFF_PATH_MAX];
            const char *path = diff_full_path(s, f, r, a, joined, sizeof joined);
            diff_file *file = path ? file_of_path(ctx, s, path) : NULL;
            if (!file)
                continue;
            if (!by_path)
                by_path = file;
            else if (file != by_path) /* rename, link: the second name gets a metadata op too */
                counts_of(s, file)[(f->flags & REC_FN_META) ? DIFF_META : DIFF_OTHER]++;
        } else if (!by_handle && rec_kind_handle_space(kind) && !(f->args[a].flags & REC_ARG_CREATE) &&
                   rec_kind_class(kind) == REC_CLASS_INT) {
            struct diff_handle *h = find_handle(s, kind, r->args[a].i);
            if (h) {
                by_handle = h->file;
                operand = a == 0 ? h : NULL;
            }
        }
    }
    diff_file *file = by_path ? by_path : by_handle;
    int creates = (f->flags & REC_FN_CREATES) != 0;
    if (file) {
        count = counts_of(s, file);
        int64_t bytes = diff_bytes_moved(f, r);
        if (by_path && creates)
            count[DIFF_OPENS]++;
        else if ((f->flags & REC_FN_DESTROYS) && operand && operand->by_path)
            count[DIFF_CLOSES]++;
        else if (f->flags & REC_FN_READ)
            count[DIFF_READS]++, count[DIFF_BYTES_READ] += bytes;
        else if (f->flags & REC_FN_WRITE)
            count[DIFF_WRITES]++, count[DIFF_BYTES_WRITTEN] += bytes;
        else if (f->flags & REC_FN_META)
            count[DIFF_META]++;
        else
            count[DIFF_OTHER]++;
    }
    /* New handles belong to the file they came from. */
    if (creates && f->ret_kind != REC_KIND_NONE && rec_kind_handle_space(f->ret_kind))
        bind_handle(s, f->ret_kind, r->ret.i, file, by_path != NULL);
    for (unsigned a = 0; a < f->nargs; a++)
        if ((f->args[a].flags & REC_ARG_CREATE) && rec_kind_handle_space(f->args[a].kind) &&
            rec_kind_class(f->args[a].kind) == REC_CLASS_INT)
            bind_handle(s, f->args[a].kind, r->args[a].i, file, by_path != NULL);
    /* A handle whose last reference is released is forgotten: ids are never
     * reused within a rank. H5Iinc_ref adds a reference, H5Idec_ref drops one. */
    int change = rec_func_reference_change(f);
    if (change) {
        struct diff_handle *h = find_handle(s, f->args[REC_ARG_SUBJECT].kind, r->args[REC_ARG_SUBJECT].i);
        if (h && change > 0)
            h->refs++;
        else if (h && --h->refs == 0) {
            HASH_DEL(s->handles, h);
            free(h);
        }
    }
}

/* "opens differ: 3 (A) vs 2 (B); bytes written differ: ..." for one file,
 * or "opens=1, writes=4, ..." for the side that alone has it (only >= 0). */
static int describe_counts(const diff_file *e, int only, char *out, size_t cap)
{
    size_t n = 0;
    int differ = 0;
    out[0] = 0;
    for (int c = 0; c < DIFF_NCOUNTERS; c++) {
        if (e->count[0][c] == e->count[1][c])
            continue;
        if (n < cap && only >= 0)
            n += (size_t)snprintf(out + n, cap - n, "%s%s=%lld", differ ? ", " : "", counter_names[c],
                                  (long long)e->count[only][c]);
        else if (n < cap)
            n += (size_t)snprintf(out + n, cap - n, "%s%s differ: %lld (A) vs %lld (B)", differ ? "; " : "",
                                  counter_names[c], (long long)e->count[0][c], (long long)e->count[1][c]);
        differ = 1;
    }
    return differ;
}

static void report_file(diff_ctx *ctx, const char *where, const diff_file *e)
{
    char counts[2048], line[DIFF_PATH_MAX + 2600];
    int only = !e->name[1] ? 0 : !e->name[0] ? 1 : -1;
    if (!describe_counts(e, only, counts, sizeof counts))
        return;
    const char *shown = e->name[0] ? e->name[0] : e->name[1] ? e->name[1] : e->key;
    if (only >= 0)
        snprintf(line, sizeof line, "%s: file \"%s\" only in %s (%s)", where, shown, only ? "B" : "A", counts);
    else
        snprintf(line, sizeof line, "%s: file \"%s\": %s", where, shown, counts);
    diff_report(ctx, line, NULL);
}

static void free_table(diff_file **table)
{
    diff_file *e, *tmp;
    HASH_ITER(hh, *table, e, tmp) {
        HASH_DEL(*table, e);
        free(e->key);
        free(e->name[0]);
        free(e->name[1]);
        free(e);
    }
}

void diff_files_end_rank(diff_ctx *ctx, uint32_t rank)
{
    char where[64];
    snprintf(where, sizeof where, "rank %u", rank);
    diff_file *e, *tmp;
    HASH_ITER(hh, ctx->rank_files, e, tmp) {
        report_file(ctx, where, e);
        diff_file *t = file_entry(&ctx->total_files, e->key);
        if (!t)
            continue;
        for (int side = 0; side < 2; side++) {
            if (!t->name[side] && e->name[side])
                t->name[side] = strdup(e->name[side]);
            for (int c = 0; c < DIFF_NCOUNTERS; c++)
                t->count[side][c] += e->count[side][c];
        }
        t->ranks++;
    }
    free_table(&ctx->rank_files);
    diff_handles_clear(&ctx->side[0]);
    diff_handles_clear(&ctx->side[1]);
}

/* Totals over all ranks tell a volume change from work moved between
 * ranks; a file only one rank touched was reported with that rank. */
void diff_files_end(diff_ctx *ctx)
{
    diff_file *e, *tmp;
    HASH_ITER(hh, ctx->total_files, e, tmp) {
        if (e->ranks > 1)
            report_file(ctx, "all ranks", e);
    }
}

size_t diff_files_count(const diff_ctx *ctx)
{
    return HASH_COUNT(ctx->total_files);
}

void diff_files_free(diff_ctx *ctx)
{
    free_table(&ctx->rank_files);
    free_table(&ctx->total_files);
}
