/* diff_darshan.c: the counters Darshan (3.5) would keep of a run of the
 * traced program, counted over the trace's records: every depth (Darshan
 * sees each libc call, so POSIX counts the calls MPI-IO makes too; MPI-IO
 * counts the MPI-IO calls HDF5 makes) and every thread. What Darshan counts
 * of a function is the table's (rec_func_darshan, functions/darshan.def);
 * how it counts is darshan-posix.c's POSIX_RECORD_OPEN, _READ, _WRITE,
 * darshan-mpiio.c's MPIIO_RECORD_OPEN, _READ, _WRITE and darshan-stdio.c's
 * STDIO_RECORD_OPEN, _READ, _WRITE, redone here: a record per file (by its
 * path) and rank, its handles bound to it while they live, one position per
 * record (not per handle: a reopen resets it, as Darshan's does), and the
 * last bytes read and written that tell consecutive and sequential
 * accesses. */
#include "diff_darshan.h"

#include <stdlib.h>
#include <string.h>

static const char *const bins[10] = {"0_100", "100_1K", "1K_10K",   "10K_100K", "100K_1M",
                                     "1M_4M", "4M_10M", "10M_100M", "100M_1G",  "1G_PLUS"};

/* Our counter indices, per module. */
enum {
    P_OPENS,
    P_READS,
    P_WRITES,
    P_SEEKS,
    P_STATS,
    P_FSYNCS,
    P_FDSYNCS,
    P_BYTES_READ,
    P_BYTES_WRITTEN,
    P_MAX_BYTE_READ,
    P_MAX_BYTE_WRITTEN,
    P_CONSEC_READS,
    P_CONSEC_WRITES,
    P_SEQ_READS,
    P_SEQ_WRITES,
    P_RW_SWITCHES,
    P_SIZE_READ,
    P_SIZE_WRITE = P_SIZE_READ + 10,
    P_ACCESS = P_SIZE_WRITE + 10,
    P_N = P_ACCESS + 8
};
enum {
    M_INDEP_OPENS,
    M_COLL_OPENS,
    M_INDEP_READS,
    M_INDEP_WRITES,
    M_COLL_READS,
    M_COLL_WRITES,
    M_SPLIT_READS,
    M_SPLIT_WRITES,
    M_NB_READS,
    M_NB_WRITES,
    M_SYNCS,
    M_BYTES_READ,
    M_BYTES_WRITTEN,
    M_RW_SWITCHES,
    M_SIZE_READ,
    M_SIZE_WRITE = M_SIZE_READ + 10,
    M_ACCESS = M_SIZE_WRITE + 10,
    M_N = M_ACCESS + 8
};
enum {
    S_OPENS,
    S_READS,
    S_WRITES,
    S_SEEKS,
    S_FLUSHES,
    S_BYTES_READ,
    S_BYTES_WRITTEN,
    S_MAX_BYTE_READ,
    S_MAX_BYTE_WRITTEN,
    S_N
};

static dd_module modules[DD_NMODULES];

static void add(dd_module *m, const char *name, int how)
{
    m->c[m->n].name = name;
    m->c[m->n++].how = how;
}

static void add_bins(dd_module *m, const char *fmt)
{
    for (int b = 0; b < 10; b++) {
        char name[64];
        snprintf(name, sizeof name, fmt, bins[b]);
        add(m, strdup(name), DD_SUM);
    }
}

static void add_access(dd_module *m, const char *prefix)
{
    char name[64];
    m->access = (int)m->n;
    for (int k = 1; k <= 4; k++) {
        snprintf(name, sizeof name, "%s_ACCESS%d_ACCESS", prefix, k);
        add(m, strdup(name), DD_ACCESS);
    }
    for (int k = 1; k <= 4; k++) {
        snprintf(name, sizeof name, "%s_ACCESS%d_COUNT", prefix, k);
        add(m, strdup(name), DD_ACCESS_COUNT);
    }
}

const dd_module *dd_module_of(int module)
{
    if (!modules[DD_POSIX].n) {
        dd_module *p = &modules[DD_POSIX], *m = &modules[DD_MPIIO], *s = &modules[DD_STDIO];
        static const char *const pn[] = {
            "POSIX_OPENS",         "POSIX_READS",         "POSIX_WRITES",           "POSIX_SEEKS",
            "POSIX_STATS",         "POSIX_FSYNCS",        "POSIX_FDSYNCS",          "POSIX_BYTES_READ",
            "POSIX_BYTES_WRITTEN", "POSIX_MAX_BYTE_READ", "POSIX_MAX_BYTE_WRITTEN", "POSIX_CONSEC_READS",
            "POSIX_CONSEC_WRITES", "POSIX_SEQ_READS",     "POSIX_SEQ_WRITES",       "POSIX_RW_SWITCHES"};
        *p = (dd_module){.name = "POSIX", .darshan = RI_DARSHAN_POSIX, .access = -1};
        for (unsigned i = 0; i < sizeof pn / sizeof pn[0]; i++)
            add(p, pn[i], i == P_MAX_BYTE_READ || i == P_MAX_BYTE_WRITTEN ? DD_MAX : DD_SUM);
        add_bins(p, "POSIX_SIZE_READ_%s");
        add_bins(p, "POSIX_SIZE_WRITE_%s");
        add_access(p, "POSIX");
        static const char *const mn[] = {"MPIIO_INDEP_OPENS",   "MPIIO_COLL_OPENS",   "MPIIO_INDEP_READS",
                                         "MPIIO_INDEP_WRITES",  "MPIIO_COLL_READS",   "MPIIO_COLL_WRITES",
                                         "MPIIO_SPLIT_READS",   "MPIIO_SPLIT_WRITES", "MPIIO_NB_READS",
                                         "MPIIO_NB_WRITES",     "MPIIO_SYNCS",        "MPIIO_BYTES_READ",
                                         "MPIIO_BYTES_WRITTEN", "MPIIO_RW_SWITCHES"};
        *m = (dd_module){.name = "MPI-IO", .darshan = RI_DARSHAN_MPIIO, .access = -1};
        for (unsigned i = 0; i < sizeof mn / sizeof mn[0]; i++)
            add(m, mn[i], DD_SUM);
        add_bins(m, "MPIIO_SIZE_READ_AGG_%s");
        add_bins(m, "MPIIO_SIZE_WRITE_AGG_%s");
        add_access(m, "MPIIO");
        static const char *const sn[] = {
            "STDIO_OPENS",         "STDIO_READS",         "STDIO_WRITES",
            "STDIO_SEEKS",         "STDIO_FLUSHES",       "STDIO_BYTES_READ",
            "STDIO_BYTES_WRITTEN", "STDIO_MAX_BYTE_READ", "STDIO_MAX_BYTE_WRITTEN"};
        *s = (dd_module){.name = "STDIO", .darshan = RI_DARSHAN_STDIO, .access = -1};
        for (unsigned i = 0; i < sizeof sn / sizeof sn[0]; i++)
            add(s, sn[i], i == S_MAX_BYTE_READ || i == S_MAX_BYTE_WRITTEN ? DD_MAX : DD_SUM);
    }
    return module >= 0 && module < DD_NMODULES ? &modules[module] : NULL;
}

/* DARSHAN_BUCKET_INC's bin of a size. */
static int bin_of(int64_t v)
{
    static const int64_t below[9] = {101,     1025,     10241,     102401,    1048577,
                                     4194305, 10485761, 104857601, 1073741825};
    int b = 0;
    while (b < 9 && v >= below[b])
        b++;
    return b;
}

void dd_common_update(int64_t *vals, int64_t *cnts, int64_t val, int64_t count, int add_flag)
{
    int64_t tv[4] = {0}, tc[4] = {0};
    int64_t total = count;
    int i, n = 0;
    if (val == 0)
        return;
    for (i = 0; i < 4; i++)
        if (add_flag && vals[i] == val) {
            total += cnts[i];
            break;
        }
    for (i = 0; i < 4; i++) {
        if (cnts[i] > total || (cnts[i] == total && vals[i] > val)) {
            tv[n] = vals[i];
            tc[n++] = cnts[i];
        } else
            break;
    }
    if (n == 4)
        return;
    tv[n] = val;
    tc[n++] = total;
    while (n != 4 && i < 4) {
        if (vals[i] != val) {
            tv[n] = vals[i];
            tc[n++] = cnts[i];
        }
        i++;
    }
    memcpy(vals, tv, sizeof tv);
    memcpy(cnts, tc, sizeof tc);
}

/* darshan_track_common_val_counters, then the update: one access of size v. */
static void common_access(dd_record *rec, int access, int64_t v)
{
    int k;
    for (k = 0; k < rec->ncv && rec->cv_val[k] != v; k++)
        ;
    if (k == rec->ncv) {
        if (rec->ncv == DD_COMMON_MAX)
            return;
        rec->cv_val[rec->ncv] = v;
        rec->cv_freq[rec->ncv++] = 0;
    }
    rec->cv_freq[k]++;
    dd_common_update(&rec->c[access], &rec->c[access + 4], v, rec->cv_freq[k], 0);
}

void dd_reduce(int module, dd_record *const *ranks, uint32_t n, dd_record *out)
{
    const dd_module *m = dd_module_of(module);
    memset(out, 0, sizeof *out);
    int first = 1;
    for (uint32_t r = 0; r < n; r++) {
        const dd_record *in = ranks[r];
        if (!in)
            continue;
        for (unsigned c = 0; c < m->n; c++) {
            if (m->c[c].how == DD_SUM)
                out->c[c] += in->c[c];
            else if (m->c[c].how == DD_MAX && (first || in->c[c] > out->c[c]))
                out->c[c] = in->c[c];
        }
        first = 0;
        if (m->access < 0)
            continue;
        /* darshan's reduction op: duplicates collapsed, then both sets added */
        int64_t iv[4], ic[4], ov[4], oc[4], tv[4] = {0}, tc[4] = {0};
        memcpy(iv, &in->c[m->access], sizeof iv);
        memcpy(ic, &in->c[m->access + 4], sizeof ic);
        memcpy(ov, &out->c[m->access], sizeof ov);
        memcpy(oc, &out->c[m->access + 4], sizeof oc);
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++)
                if (iv[j] == ov[k]) {
                    ic[j] += oc[k];
                    ov[k] = oc[k] = 0;
                }
        for (int j = 0; j < 4; j++)
            dd_common_update(tv, tc, iv[j], ic[j], 1);
        for (int j = 0; j < 4; j++)
            dd_common_update(tv, tc, ov[j], oc[j], 1);
        memcpy(&out->c[m->access], tv, sizeof tv);
        memcpy(&out->c[m->access + 4], tc, sizeof tc);
    }
}

/* ---- one rank's walk ---- */

typedef struct dd_handle {
    uint64_t key; /* space << 56 | id */
    dd_record *rec;
    dd_file *file;
    UT_hash_handle hh;
} dd_handle;

typedef struct dd_walk {
    dd_trace *t;
    rec_cursor *cursor;
    uint32_t rank;
    dd_handle *handles;
    uint8_t what[65536]; /* REC_DARSHAN_* + 1 of each function id, 0: not asked yet */
} dd_walk;

static uint64_t handle_key(unsigned kind, int64_t id)
{
    return ((uint64_t)rec_kind_handle_space(kind) << 56) ^ ((uint64_t)id & ((1ull << 56) - 1));
}

static dd_handle *find_handle(dd_walk *w, unsigned kind, int64_t id)
{
    uint64_t key = handle_key(kind, id);
    dd_handle *h;
    HASH_FIND(hh, w->handles, &key, sizeof key, h);
    return h;
}

static void bind(dd_walk *w, unsigned kind, int64_t id, dd_file *file, dd_record *rec)
{
    if (!rec_handle_is_dynamic(id) || !rec)
        return;
    dd_handle *h = find_handle(w, kind, id);
    if (!h) {
        if (!(h = calloc(1, sizeof *h)))
            return;
        h->key = handle_key(kind, id);
        HASH_ADD(hh, w->handles, key, sizeof h->key, h);
    }
    h->rec = rec;
    h->file = file;
}

static void unbind(dd_walk *w, unsigned kind, int64_t id)
{
    dd_handle *h = find_handle(w, kind, id);
    if (h) {
        HASH_DEL(w->handles, h);
        free(h);
    }
}

/* The record of a module's file (by its normalized path) on the walk's rank, made if new. */
static dd_file *file_of(dd_walk *w, int module, const char *path, dd_record **rec)
{
    char norm[DIFF_PATH_MAX], key[DIFF_PATH_MAX + 4];
    rf_path_normalize(path, norm, sizeof norm, 0);
    snprintf(key, sizeof key, "%d:%s", module, norm);
    dd_file *f;
    HASH_FIND_STR(w->t->files, key, f);
    if (!f) {
        if (!(f = calloc(1, sizeof *f)) || !(f->key = strdup(key)) ||
            !(f->rank = calloc(w->t->nranks, sizeof *f->rank))) {
            if (f)
                free(f->key);
            free(f);
            *rec = NULL;
            return NULL;
        }
        f->module = module;
        f->path = f->key + 2;
        HASH_ADD_KEYPTR(hh, w->t->files, f->key, strlen(f->key), f);
    }
    if (!f->rank[w->rank])
        f->rank[w->rank] = calloc(1, sizeof **f->rank);
    *rec = f->rank[w->rank];
    return *rec ? f : NULL;
}

static int arg_of(const rec_func_desc *f, unsigned kind)
{
    return rec_arg_with_kind(f, kind, REC_ARG_IN);
}

static dd_record *rec_of_arg(dd_walk *w, const rec_func_desc *f, const rec_record *r, unsigned kind,
                             dd_file **file)
{
    int a = arg_of(f, kind);
    dd_handle *h = a >= 0 ? find_handle(w, kind, r->args[a].i) : NULL;
    if (file)
        *file = h ? h->file : NULL;
    return h ? h->rec : NULL;
}

/* The path a call names, joined to its directory fd's when relative (openat). */
static const char *path_of(dd_walk *w, const rec_func_desc *f, const rec_record *r, char *buf, size_t cap)
{
    int a = arg_of(f, REC_KIND_PATH);
    const char *p = a >= 0 ? rec_cursor_path(w->cursor, r->args[a].i) : NULL;
    if (!p || p[0] == '/')
        return p;
    int d = arg_of(f, REC_KIND_DIRFD);
    dd_handle *h = d >= 0 ? find_handle(w, REC_KIND_FD, r->args[d].i) : NULL;
    if (h && h->file) {
        snprintf(buf, cap, "%s/%s", h->file->path, p);
        return buf;
    }
    return p;
}

/* Bytes a stdio call moved as Darshan counts them: items times their size
 * (fread, fwrite), the string's length (fputs), a derived size (putw,
 * fscanf), or the returned size (fgetc, fgets, fprintf). */
static int64_t stdio_bytes(const rec_func_desc *f, const rec_record *r)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if ((f->args[a].flags & REC_ARG_DERIVED) && f->args[a].kind == REC_KIND_SIZE)
            return r->args[a].i > 0 ? r->args[a].i : 0;
    if (f->ret_kind == REC_KIND_COUNT) {
        int s = arg_of(f, REC_KIND_SIZE);
        return s >= 0 && r->ret.i > 0 ? r->ret.i * r->args[s].i : 0;
    }
    int len = arg_of(f, REC_KIND_STRLEN);
    if (len >= 0)
        return r->args[len].i;
    return r->ret.i > 0 ? r->ret.i : 0;
}

static void posix_access(dd_record *rec, int write, int64_t this_offset, int64_t n)
{
    int64_t *last = write ? &rec->last_byte_written : &rec->last_byte_read;
    if (this_offset > *last)
        rec->c[write ? P_SEQ_WRITES : P_SEQ_READS]++;
    if (this_offset == *last + 1)
        rec->c[write ? P_CONSEC_WRITES : P_CONSEC_READS]++;
    *last = this_offset + n - 1;
    rec->offset = this_offset + n;
    int max = write ? P_MAX_BYTE_WRITTEN : P_MAX_BYTE_READ;
    if (rec->c[max] < this_offset + n - 1)
        rec->c[max] = this_offset + n - 1;
    rec->c[write ? P_BYTES_WRITTEN : P_BYTES_READ] += n;
    rec->c[write ? P_WRITES : P_READS]++;
    rec->c[(write ? P_SIZE_WRITE : P_SIZE_READ) + bin_of(n)]++;
    common_access(rec, P_ACCESS, n);
    if (rec->last_io == (write ? 1 : 2))
        rec->c[P_RW_SWITCHES]++;
    rec->last_io = write ? 2 : 1;
}

static void mpiio_access(dd_record *rec, unsigned what, int write, int64_t n)
{
    static const int counter[2][4] = {{M_INDEP_READS, M_COLL_READS, M_SPLIT_READS, M_NB_READS},
                                      {M_INDEP_WRITES, M_COLL_WRITES, M_SPLIT_WRITES, M_NB_WRITES}};
    rec->c[(write ? M_SIZE_WRITE : M_SIZE_READ) + bin_of(n)]++;
    common_access(rec, M_ACCESS, n);
    rec->c[write ? M_BYTES_WRITTEN : M_BYTES_READ] += n;
    rec->c[counter[write][what - REC_DARSHAN_MPIIO_INDEP]]++;
    if (rec->last_io == (write ? 1 : 2))
        rec->c[M_RW_SWITCHES]++;
    rec->last_io = write ? 2 : 1;
}

static void stdio_access(dd_record *rec, int write, int flush, int64_t n)
{
    int64_t this_offset = rec->offset;
    rec->offset = this_offset + n;
    int max = write ? S_MAX_BYTE_WRITTEN : S_MAX_BYTE_READ;
    if (rec->c[max] < this_offset + n - 1)
        rec->c[max] = this_offset + n - 1;
    rec->c[write ? S_BYTES_WRITTEN : S_BYTES_READ] += n;
    rec->c[flush ? S_FLUSHES : write ? S_WRITES : S_READS]++;
}

/* An open of the path the call names, making a handle (of kind made,
 * returned): the record's position and last bytes reset. */
static void opened(dd_walk *w, const rec_func_desc *f, const rec_record *r, int module, int counter,
                   unsigned made)
{
    char buf[DIFF_PATH_MAX];
    const char *path = path_of(w, f, r, buf, sizeof buf);
    dd_record *rec;
    dd_file *file = path ? file_of(w, module, path, &rec) : NULL;
    if (!file)
        return;
    rec->offset = rec->last_byte_read = rec->last_byte_written = 0;
    rec->c[counter]++;
    bind(w, made, r->ret.i, file, rec);
}

/* A handle (of kind made, returned) of the file another handle (of kind
 * from) is of: dup's, fileno's and fdopen's; its record the same one, or
 * that file's record of another module. An open that resets nothing. */
static void reopened(dd_walk *w, const rec_func_desc *f, const rec_record *r, unsigned from, int module,
                     int counter, unsigned made)
{
    dd_file *file;
    dd_record *rec = rec_of_arg(w, f, r, from, &file);
    if (rec && file && module >= 0)
        file = file_of(w, module, file->path, &rec);
    if (rec && file) {
        rec->c[counter]++;
        bind(w, made, r->ret.i, file, rec);
    }
}

static void count_call(dd_walk *w, const rec_func_desc *f, const rec_record *r, unsigned what)
{
    char buf[DIFF_PATH_MAX];
    const char *path;
    dd_record *rec = NULL;
    dd_file *file = NULL;
    int write = (f->flags & REC_FN_WRITE) != 0;
    if (!rf_succeeded(f, r) || r->err != 0)
        return; /* Darshan counts the calls that succeeded */
    switch (what) {
    case REC_DARSHAN_POSIX_OPEN:
        opened(w, f, r, DD_POSIX, P_OPENS, REC_KIND_FD);
        return;
    case REC_DARSHAN_POSIX_DUP:
        reopened(w, f, r, REC_KIND_FD, -1, P_OPENS, REC_KIND_FD);
        return;
    case REC_DARSHAN_POSIX_FILENO:
        reopened(w, f, r, REC_KIND_FILE_STREAM, DD_POSIX, P_OPENS, REC_KIND_FD);
        return;
    case REC_DARSHAN_POSIX_READ:
    case REC_DARSHAN_POSIX_WRITE: {
        if (r->ret.i < 0 || !(rec = rec_of_arg(w, f, r, REC_KIND_FD, NULL)))
            return;
        int at = arg_of(f, REC_KIND_OFFSET);
        posix_access(rec, what == REC_DARSHAN_POSIX_WRITE, at >= 0 ? r->args[at].i : rec->offset, r->ret.i);
        return;
    }
    case REC_DARSHAN_POSIX_SEEK:
        if (r->ret.i >= 0 && (rec = rec_of_arg(w, f, r, REC_KIND_FD, NULL))) {
            rec->offset = r->ret.i;
            rec->c[P_SEEKS]++;
        }
        return;
    case REC_DARSHAN_POSIX_STAT:
        if ((path = path_of(w, f, r, buf, sizeof buf)))
            file_of(w, DD_POSIX, path, &rec);
        else
            rec = rec_of_arg(w, f, r, REC_KIND_FD, NULL);
        if (rec)
            rec->c[P_STATS]++;
        return;
    case REC_DARSHAN_POSIX_FSYNC:
    case REC_DARSHAN_POSIX_FDSYNC:
        if ((rec = rec_of_arg(w, f, r, REC_KIND_FD, NULL)))
            rec->c[what == REC_DARSHAN_POSIX_FSYNC ? P_FSYNCS : P_FDSYNCS]++;
        return;
    case REC_DARSHAN_STDIO_OPEN:
        opened(w, f, r, DD_STDIO, S_OPENS, REC_KIND_FILE_STREAM);
        return;
    case REC_DARSHAN_STDIO_FDOPEN:
        reopened(w, f, r, REC_KIND_FD, DD_STDIO, S_OPENS, REC_KIND_FILE_STREAM);
        return;
    case REC_DARSHAN_STDIO_READ:
    case REC_DARSHAN_STDIO_WRITE: {
        if (!(rec = rec_of_arg(w, f, r, REC_KIND_FILE_STREAM, NULL)))
            return;
        if (f->ret_kind == REC_KIND_COUNT && r->ret.i <= 0)
            return; /* fread, fwrite: counted when they moved an item */
        stdio_access(rec, what == REC_DARSHAN_STDIO_WRITE, 0, stdio_bytes(f, r));
        return;
    }
    case REC_DARSHAN_STDIO_SEEK: {
        if (!(rec = rec_of_arg(w, f, r, REC_KIND_FILE_STREAM, NULL)))
            return;
        int at = arg_of(f, REC_KIND_OFFSET), wh = arg_of(f, REC_KIND_WHENCE);
        int64_t whence = wh >= 0 ? r->args[wh].i : 0, off = at >= 0 ? r->args[at].i : 0;
        /* Darshan asks ftell; SEEK_END's position is the file's size, which the trace does not keep: the
         * largest byte written or read past */
        if (whence == 1)
            rec->offset += off;
        else if (whence == 2)
            rec->offset = (rec->c[S_MAX_BYTE_WRITTEN] > rec->c[S_MAX_BYTE_READ] ? rec->c[S_MAX_BYTE_WRITTEN]
                                                                                : rec->c[S_MAX_BYTE_READ]) +
                          1 + off;
        else
            rec->offset = off;
        rec->c[S_SEEKS]++;
        return;
    }
    case REC_DARSHAN_STDIO_FLUSH:
        if ((rec = rec_of_arg(w, f, r, REC_KIND_FILE_STREAM, NULL)))
            stdio_access(rec, 1, 1, 0);
        return;
    case REC_DARSHAN_MPIIO_OPEN: {
        int c = arg_of(f, REC_KIND_MPI_COMM), fh = rec_arg_with_kind(f, REC_KIND_MPI_FILE, REC_ARG_OUT);
        if (fh < 0 || !(path = path_of(w, f, r, buf, sizeof buf)))
            return;
        path += rf_path_fs_prefix(path);
        if (!(file = file_of(w, DD_MPIIO, path, &rec)))
            return;
        /* MPI_COMM_SELF, or any communicator of a run of one rank: one rank */
        const char *comm = c >= 0 ? rec_predefined_handle_name(REC_KIND_MPI_COMM, r->args[c].i) : NULL;
        int one = w->t->nranks == 1 || (comm && strcmp(comm, "MPI_COMM_SELF") == 0);
        rec->c[one ? M_INDEP_OPENS : M_COLL_OPENS]++;
        bind(w, REC_KIND_MPI_FILE, r->args[fh].i, file, rec);
        return;
    }
    case REC_DARSHAN_MPIIO_INDEP:
    case REC_DARSHAN_MPIIO_COLL:
    case REC_DARSHAN_MPIIO_SPLIT:
    case REC_DARSHAN_MPIIO_NB:
        if ((rec = rec_of_arg(w, f, r, REC_KIND_MPI_FILE, NULL)))
            mpiio_access(rec, what, write, diff_bytes_moved(f, r));
        return;
    case REC_DARSHAN_MPIIO_SYNC:
        if ((rec = rec_of_arg(w, f, r, REC_KIND_MPI_FILE, NULL)))
            rec->c[M_SYNCS]++;
        return;
    default:
        return;
    }
}

/* A handle a call releases (close, fclose, MPI_File_close) leaves its record. */
static void released(dd_walk *w, const rec_func_desc *f, const rec_record *r)
{
    if (!(f->flags & REC_FN_DESTROYS) || !f->nargs)
        return;
    unsigned kind = f->args[REC_ARG_SUBJECT].kind;
    if (kind == REC_KIND_FD || kind == REC_KIND_FILE_STREAM || kind == REC_KIND_MPI_FILE)
        unbind(w, kind, r->args[REC_ARG_SUBJECT].i);
}

int dd_count_trace(rec_trace *t, dd_trace *out, rec_error *err)
{
    const rec_table *table = rec_trace_table(t);
    out->nranks = rec_trace_get_info(t)->nranks;
    dd_walk *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", rec_trace_dir(t));
        return -1;
    }
    w->t = out;
    int rc = 0;
    for (uint32_t rank = 0; rank < out->nranks && rc == 0; rank++) {
        if (!(w->cursor = rec_cursor_open(t, rank, err))) {
            rc = -1;
            break;
        }
        w->rank = rank;
        rec_record r;
        while ((rc = rec_cursor_next(w->cursor, &r, err)) == 1) {
            const rec_func_desc *f = rec_table_lookup(table, r.func);
            if (!f) {
                snprintf(err->msg, sizeof err->msg,
                         "%s/%u.rec: record of function id %u, which its table lacks", rec_trace_dir(t), rank,
                         r.func);
                rc = -1;
                break;
            }
            if (!w->what[r.func])
                w->what[r.func] = (uint8_t)(rec_func_darshan(f) + 1);
            if (w->what[r.func] > 1)
                count_call(w, f, &r, w->what[r.func] - 1u);
            released(w, f, &r);
        }
        if (!rec_cursor_complete(w->cursor))
            fprintf(stderr,
                    "%s: warning: %s/%u.rec: the rank did not close its trace (crash or kill?): "
                    "counted up to its last complete block\n",
                    DIFF_TOOL, rec_trace_dir(t), rank);
        rec_cursor_close(w->cursor);
        dd_handle *h, *tmp;
        HASH_ITER(hh, w->handles, h, tmp)
        {
            HASH_DEL(w->handles, h);
            free(h);
        }
        w->cursor = NULL;
    }
    free(w);
    return rc < 0 ? -1 : 0;
}

void dd_trace_free(dd_trace *t)
{
    dd_file *f, *tmp;
    HASH_ITER(hh, t->files, f, tmp)
    {
        HASH_DEL(t->files, f);
        for (uint32_t r = 0; r < t->nranks; r++)
            free(f->rank[r]);
        free(f->rank);
        free(f->key);
        free(f);
    }
}
