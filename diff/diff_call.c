/* diff_call.c: are two corresponding calls the same call? Every recorded
 * argument, the return value and errno are compared by their kind (see the
 * comment at the top of diff_main.c); the table's roles mark the exceptions. */
#include "diff.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

/* ---- rules ---- */

/* How a field is compared beyond its kind: the table's roles say. */
typedef enum diff_rule {
    DIFF_RULE_KIND = 0,    /* compared by its kind (the default) */
    DIFF_RULE_IGNORE,      /* not compared: the working directory, as a replay or a kernel runs elsewhere */
    DIFF_RULE_DIR_ENTRY,   /* a directory entry: compared as a multiset per DIR stream, the order of
                              entries being the file system's (hash order on ext4), not the application's */
    DIFF_RULE_LINK_TARGET, /* a symlink's target: re-rooted when absolute (it must move with the tree), as
                              written or re-rooted when relative (it resolves from the link's directory) */
    DIFF_RULE_FILE_NAME,   /* a string holding a file's name as it was opened: compared after the mapping */
    DIFF_RULE_NAME_LENGTH  /* the length of such a name: under a mapping only success is compared */
} diff_rule;

/* Field index nargs is the return value. */
static diff_rule rule_of(const rec_func_desc *f, unsigned field)
{
    if (field == f->nargs)
        return (f->roles & REC_ROLE_DIR_ENTRY)     ? DIFF_RULE_DIR_ENTRY
               : (f->roles & REC_ROLE_WORKING_DIR) ? DIFF_RULE_IGNORE
               : (f->roles & REC_ROLE_NAME_LENGTH) ? DIFF_RULE_NAME_LENGTH
               : rec_func_sole(f) == REC_SOLE_WAITS_AT_BARRIER ? DIFF_RULE_IGNORE /* the library's pick */
                                                   : DIFF_RULE_KIND;
    if (field > f->nargs)
        return DIFF_RULE_KIND;
    switch (f->args[field].role) {
    case REC_AROLE_LINK_TARGET:
        return DIFF_RULE_LINK_TARGET;
    case REC_AROLE_FILE_NAME:
        return DIFF_RULE_FILE_NAME;
    default:
        return DIFF_RULE_KIND;
    }
}

int diff_field_is_link_target(const rec_func_desc *f, unsigned field)
{
    return rule_of(f, field) == DIFF_RULE_LINK_TARGET;
}

int diff_field_ignored(const rec_func_desc *f, unsigned field)
{
    return rule_of(f, field) == DIFF_RULE_IGNORE;
}

/* ---- readdir: the names read from one DIR stream, as two multisets ---- */

struct diff_dirset {
    int64_t handle; /* A's DIR stream */
    char **names[2];
    size_t count[2], cap[2];
    UT_hash_handle hh;
};

static void dirset_add(diff_ctx *ctx, int64_t handle, int side, const rec_value *v)
{
    struct diff_dirset *d;
    HASH_FIND(hh, ctx->dirs, &handle, sizeof handle, d);
    if (!d) {
        if (!(d = calloc(1, sizeof *d)))
            return;
        d->handle = handle;
        HASH_ADD(hh, ctx->dirs, handle, sizeof d->handle, d);
    }
    if (d->count[side] == d->cap[side]) {
        size_t cap = d->cap[side] ? 2 * d->cap[side] : 16;
        char **grown = realloc(d->names[side], cap * sizeof *grown);
        if (!grown)
            return;
        d->names[side] = grown;
        d->cap[side] = cap;
    }
    char *name = malloc((size_t)v->len + 1);
    if (!name)
        return;
    memcpy(name, v->ptr, v->len);
    name[v->len] = 0;
    d->names[side][d->count[side]++] = name;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* 1 with a description when the two sides read different names. */
static int dirset_check(struct diff_dirset *d, char *out, size_t cap)
{
    for (int side = 0; side < 2; side++)
        qsort(d->names[side], d->count[side], sizeof(char *), by_name);
    size_t i = 0, j = 0;
    while (i < d->count[0] || j < d->count[1]) {
        int c = i == d->count[0] ? 1 : j == d->count[1] ? -1 : strcmp(d->names[0][i], d->names[1][j]);
        if (c) {
            snprintf(out, cap, "the entries readdir returned differ (compared as a set): \"%s\" only in %s",
                     c < 0 ? d->names[0][i] : d->names[1][j], c < 0 ? "A" : "B");
            return 1;
        }
        i++, j++;
    }
    return 0;
}

static void dirset_free(diff_ctx *ctx, struct diff_dirset *d)
{
    HASH_DEL(ctx->dirs, d);
    for (int side = 0; side < 2; side++) {
        for (size_t k = 0; k < d->count[side]; k++)
            free(d->names[side][k]);
        free(d->names[side]);
    }
    free(d);
}

int diff_dirs_finish(diff_ctx *ctx, char *msg, size_t cap)
{
    int differ = 0;
    struct diff_dirset *d, *tmp;
    HASH_ITER(hh, ctx->dirs, d, tmp) {
        char what[DIFF_PATH_MAX];
        if (!differ && dirset_check(d, what, sizeof what)) {
            snprintf(msg, cap, "DIR#%lld (never closed): %s", (long long)d->handle, what);
            differ = 1;
        }
        dirset_free(ctx, d);
    }
    return differ;
}

/* ---- fields ---- */

typedef struct builder {
    char *p;
    size_t cap, len;
    int fields;
} builder;

static void add(builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(builder *b, const char *fmt, ...)
{
    if (b->len >= b->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
    if (b->len >= b->cap)
        b->len = b->cap - 1;
}

static const char *path_of(void *side, int64_t id)
{
    return diff_side_path(side, id);
}

static void show(diff_ctx *ctx, int side, unsigned kind, const rec_value *v, char *out, size_t cap)
{
    rec_print_value(out, cap, kind, v, path_of, &ctx->side[side]);
}

static void differs(diff_ctx *ctx, builder *b, const char *field, unsigned kind, const rec_value *va,
                    const rec_value *vb, const char *expected)
{
    char sa[2048], sb[2048];
    show(ctx, 0, kind, va, sa, sizeof sa);
    show(ctx, 1, kind, vb, sb, sizeof sb);
    add(b, "%s%s differs: %s (A) vs %s (B)", b->fields++ ? "; " : "", field, sa, sb);
    if (expected)
        add(b, ", expected \"%s\"", expected);
}

static int same_handle(const diff_ctx *ctx, int64_t a, int64_t b)
{
    return a == b || (ctx->opt.ignore_handles && rec_handle_is_dynamic(a) && rec_handle_is_dynamic(b));
}

/* With --threads, handles are numbered in the order the threads happened
 * to create them, which differs from run to run: each handle a call creates
 * on A pairs with the one the same call creates on B, and later uses
 * compare through the pair. */
typedef struct diff_handle {
    UT_hash_handle hh;
    struct {
        uint32_t space;
        int64_t a;
    } key;
    int64_t b;
} diff_handle;

static diff_handle *handle_pair(const diff_ctx *ctx, unsigned space, int64_t a)
{
    diff_handle probe, *h = NULL;
    memset(&probe.key, 0, sizeof probe.key);
    probe.key.space = space;
    probe.key.a = a;
    HASH_FIND(hh, ctx->handles, &probe.key, sizeof probe.key, h);
    return h;
}

/* Whether field's handles pair up (made by the call: they do, and are paired). */
static int same_created(diff_ctx *ctx, const rec_func_desc *f, unsigned field, unsigned kind, int64_t a, int64_t b)
{
    unsigned space = rec_kind_handle_space(kind);
    int creates = field == f->nargs ? (f->flags & REC_FN_CREATES) != 0 : (f->args[field].flags & REC_ARG_CREATE) != 0;
    diff_handle *h = handle_pair(ctx, space, a);
    if (!creates || !rec_handle_is_dynamic(a) || !rec_handle_is_dynamic(b))
        return h ? h->b == b : same_handle(ctx, a, b);
    if (!h && (h = calloc(1, sizeof *h)) != NULL) {
        h->key.space = space;
        h->key.a = a;
        HASH_ADD(hh, ctx->handles, key, sizeof h->key, h);
    }
    if (h)
        h->b = b;
    return 1;
}

void diff_handles_end_rank(diff_ctx *ctx)
{
    diff_handle *h, *tmp;
    HASH_ITER(hh, ctx->handles, h, tmp)
    {
        HASH_DEL(ctx->handles, h);
        free(h);
    }
}

static int same_array(const diff_ctx *ctx, unsigned kind, const rec_value *va, const rec_value *vb)
{
    if (va->len != vb->len)
        return 0;
    int64_t small_a[64], small_b[64];
    int64_t *xa = va->len <= 64 ? small_a : malloc(va->len * sizeof *xa);
    int64_t *xb = vb->len <= 64 ? small_b : malloc(vb->len * sizeof *xb);
    int same = xa && xb;
    if (same) {
        rec_value_array(va, xa, va->len);
        rec_value_array(vb, xb, vb->len);
        int handles = rec_kind_handle_space(kind) != 0;
        for (uint32_t k = 0; k < va->len && same; k++)
            same = handles ? same_handle(ctx, xa[k], xb[k]) : xa[k] == xb[k];
    }
    if (xa != small_a)
        free(xa);
    if (xb != small_b)
        free(xb);
    return same;
}

/* A string value as a C string (strings are not NUL-terminated). */
static const char *cstr(const rec_value *v, char *buf, size_t cap)
{
    size_t n = v->len < cap - 1 ? v->len : cap - 1;
    if (n)
        memcpy(buf, v->ptr, n);
    buf[n] = 0;
    return buf;
}

/* Names: B's must be A's after the mapping; a relative link target may also
 * stay as written. Sets *expected when the mapping changed A's name. */
static int same_name(diff_ctx *ctx, const char *a, const char *b, int link_target, char *expected, size_t cap)
{
    char na[DIFF_PATH_MAX], nb[DIFF_PATH_MAX];
    rf_path_normalize(a, na, sizeof na, 0);
    rf_path_normalize(b, nb, sizeof nb, 0);
    diff_path_map(&ctx->paths, na, expected, cap);
    if (!strcmp(expected, nb) || (link_target && a[0] != '/' && !strcmp(na, nb)))
        return 1;
    if (!strcmp(expected, na))
        expected[0] = 0; /* the mapping left it alone: nothing to add */
    return 0;
}

static void compare_field(diff_ctx *ctx, builder *b, const rec_func_desc *f, unsigned field, const rec_record *ra,
                          const rec_record *rb)
{
    const rec_value *va = field == f->nargs ? &ra->ret : &ra->args[field];
    const rec_value *vb = field == f->nargs ? &rb->ret : &rb->args[field];
    int is_ret = field == f->nargs;
    unsigned kind = is_ret ? f->ret_kind : f->args[field].kind;
    const char *name = is_ret ? "return value" : f->args[field].name;
    diff_rule rule = rule_of(f, field);
    rec_class cls = rec_kind_class(kind);
    if (rule == DIFF_RULE_IGNORE || rule == DIFF_RULE_DIR_ENTRY || cls == REC_CLASS_NONE ||
        kind == REC_KIND_THREAD_ID || kind == REC_KIND_BUFFER_ARRAY) /* where buffers lie: memory, not I/O */
        return;
    /* a size A's call reports that A inferred (recorder-import's MPI_File_get_size): B's is the file's then */
    if (ra->inferred && (f->roles & REC_ROLE_REPORTS_SIZE) && !is_ret && (f->args[field].flags & REC_ARG_OUT))
        return;
    char expected[DIFF_PATH_MAX];
    switch (cls) {
    case REC_CLASS_PATH: {
        char ja[DIFF_PATH_MAX], jb[DIFF_PATH_MAX];
        const char *pa = diff_full_path(&ctx->side[0], f, ra, field, ja, sizeof ja);
        const char *pb = diff_full_path(&ctx->side[1], f, rb, field, jb, sizeof jb);
        if (!pa || !pb) {
            if (pa || pb)
                differs(ctx, b, name, kind, va, vb, NULL);
            return;
        }
        if (!same_name(ctx, pa, pb, rule == DIFF_RULE_LINK_TARGET, expected, sizeof expected))
            differs(ctx, b, name, kind, va, vb, expected[0] ? expected : NULL);
        return;
    }
    case REC_CLASS_STR: {
        if (rule == DIFF_RULE_LINK_TARGET || rule == DIFF_RULE_FILE_NAME) {
            char sa[DIFF_PATH_MAX], sb[DIFF_PATH_MAX];
            cstr(va, sa, sizeof sa);
            cstr(vb, sb, sizeof sb);
            if ((!*sa && !*sb) ||
                (*sa && same_name(ctx, sa, sb, rule == DIFF_RULE_LINK_TARGET, expected, sizeof expected)))
                return;
            differs(ctx, b, name, kind, va, vb, *sa && expected[0] ? expected : NULL);
            return;
        }
        if (va->len != vb->len || (va->len && memcmp(va->ptr, vb->ptr, va->len)))
            differs(ctx, b, name, kind, va, vb, NULL);
        return;
    }
    case REC_CLASS_ARRAY:
        if (!same_array(ctx, kind, va, vb))
            differs(ctx, b, name, kind, va, vb, NULL);
        return;
    default:
        break;
    }
    if (rec_kind_handle_space(kind) && ctx->tuned && diff_tuned_same_handle(ctx, f, field, va->i, vb->i))
        return;
    if (rec_kind_handle_space(kind) && (ctx->opt.threads || ctx->tuned)
            ? same_created(ctx, f, field, kind, va->i, vb->i)
        : rec_kind_handle_space(kind) ? same_handle(ctx, va->i, vb->i)
                                      : va->i == vb->i)
        return;
    /* A name's length changes with the mapping; its sign still says whether it failed. */
    if (rule == DIFF_RULE_NAME_LENGTH && ctx->paths.active && (va->i < 0) == (vb->i < 0))
        return;
    differs(ctx, b, name, kind, va, vb, NULL);
}

/* A stdio read that failed on both sides: at the end of a file the C
 * library leaves errno as it was, so what it holds is the program's
 * history (MPI's start-up, a failed mkdir), not the call's. */
static int stale_errno(const rec_func_desc *f, const rec_record *ra, const rec_record *rb)
{
    if (!(f->flags & REC_FN_READ) || rec_arg_with_kind(f, REC_KIND_FILE_STREAM, REC_ARG_IN) < 0)
        return 0;
    return rf_ret_status(f, ra->ret.i) == 0 && rf_ret_status(f, rb->ret.i) == 0;
}

/* The DIR stream argument of readdir or closedir. */
static int dir_stream_arg(const rec_func_desc *f)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (f->args[a].kind == REC_KIND_DIR_STREAM)
            return (int)a;
    return -1;
}

int diff_compare_call(diff_ctx *ctx, const rec_func_desc *fa, const rec_record *ra, const rec_func_desc *fb,
                      const rec_record *rb, char *msg, size_t cap)
{
    builder b = {msg, cap, 0, 0};
    msg[0] = 0;
    add(&b, "%s: ", fa->name);
    int same_shape = fa->nargs == fb->nargs && fa->ret_kind == fb->ret_kind;
    for (unsigned a = 0; same_shape && a < fa->nargs; a++)
        same_shape = fa->args[a].kind == fb->args[a].kind;
    if (!same_shape) {
        add(&b, "the two traces' function tables declare it differently");
        return 1;
    }
    for (unsigned a = 0; a < fa->nargs; a++)
        compare_field(ctx, &b, fa, a, ra, rb);
    if (fa->ret_kind != REC_KIND_NONE)
        compare_field(ctx, &b, fa, fa->nargs, ra, rb);
    if (ra->err != rb->err && !stale_errno(fa, ra, rb)) {
        rec_value ea = {.i = ra->err}, eb = {.i = rb->err};
        differs(ctx, &b, "errno", REC_KIND_ERRNO, &ea, &eb, NULL);
    }
    int dir = dir_stream_arg(fa);
    if (dir >= 0 && rule_of(fa, fa->nargs) == DIFF_RULE_DIR_ENTRY) {
        dirset_add(ctx, ra->args[dir].i, 0, &ra->ret);
        dirset_add(ctx, ra->args[dir].i, 1, &rb->ret);
    } else if (dir == REC_ARG_SUBJECT && (fa->flags & REC_FN_DESTROYS)) {
        /* Closing the stream settles what was read from it. */
        struct diff_dirset *d;
        int64_t handle = ra->args[REC_ARG_SUBJECT].i;
        HASH_FIND(hh, ctx->dirs, &handle, sizeof handle, d);
        char what[DIFF_PATH_MAX];
        if (d && dirset_check(d, what, sizeof what))
            add(&b, "%s%s", b.fields++ ? "; " : "", what);
        if (d)
            dirset_free(ctx, d);
    }
    return b.fields > 0;
}
