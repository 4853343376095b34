/* diff_tuned.c: recorder-diff --tuned FILE (and --set LAYER.KEY=VALUE): B is
 * a replay (or kernel) of A run under a tuning set (tune/include/recorder_tune.h).
 * Exactly the differences the set explains are accepted:
 *   - A's call is compared as the set makes it: an mpiio.data override's twin
 *     (MPI_File_write_at as MPI_File_write_at_all), a property's setter with
 *     the set's value of its argument;
 *   - B's calls the set adds are passed over: MPI_Info_set of a hint to the
 *     set's value, MPI_Info_create (the info made for MPI_INFO_NULL), the
 *     setter of a property with the set's values, H5Pcreate of a class one
 *     of the set's properties belongs to (the list made for H5P_DEFAULT);
 *   - a call that carries hints (or uses a list of a class) may pass, where A
 *     passed MPI_INFO_NULL (H5P_DEFAULT), one of those B made;
 *   - handles pair up by the call that made them (B's additions shift ids).
 * Every other difference is reported as without --tuned, and an override no
 * call of B shows (no call of A it touches matched) is one more difference. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "recorder_tune.h"

enum { MAX_ADDED = 64, MAX_PENDING = 8 };

struct diff_tuned {
    tune_set *set;
    uint64_t *seen;              /* by override: calls of B that show it */
    size_t pending[MAX_PENDING]; /* the overrides A's current call was changed by */
    size_t npending;
    struct {
        unsigned space;
        int64_t id;
    } added[MAX_ADDED]; /* this rank: handles B's passed-over calls made */
    size_t nadded;
};

int diff_tuned_init(diff_ctx *ctx, const char *file, char **sets, int nsets)
{
    char err[1024];
    diff_tuned *t = calloc(1, sizeof *t);
    if (!t || !(t->set = tune_set_new()) || (file && tune_set_read(t->set, file, err, sizeof err) != 0)) {
        fprintf(stderr, "%s: %s\n", DIFF_TOOL, t && t->set ? err : "out of memory");
        goto fail;
    }
    for (int i = 0; i < nsets; i++)
        if (tune_set_add(t->set, sets[i], "--set", err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", DIFF_TOOL, err);
            goto fail;
        }
    if (!(t->seen = calloc(tune_set_count(t->set) + 1, sizeof *t->seen)))
        goto fail;
    ctx->tuned = t;
    return 0;
fail:
    if (t)
        tune_set_free(t->set);
    free(t);
    return -1;
}

static void pend(diff_tuned *t, size_t o)
{
    if (t->npending < MAX_PENDING)
        t->pending[t->npending++] = o;
}

const rec_func_desc *diff_tuned_expect(diff_ctx *ctx, const rec_func_desc *f, rec_record *r)
{
    diff_tuned *t = ctx->tuned;
    t->npending = 0;
    size_t o;
    const rec_func_desc *to = tune_call_for(t->set, f, &o);
    if (to != f) {
        pend(t, o);
        r->func = to->id;
        return to;
    }
    for (unsigned a = 1; a < f->nargs; a++) {
        int64_t v;
        if (tune_arg_value(t->set, f, a, &v, &o)) {
            r->args[a].i = v;
            pend(t, o);
        }
    }
    /* A hint A itself set to the set's value: B needs none added. */
    int key = rec_arg_with_role(f, REC_AROLE_INFO_KEY), value = rec_arg_with_role(f, REC_AROLE_INFO_VALUE);
    for (size_t i = 0;
         rec_func_sole(f) == REC_SOLE_SETS_INFO_KEY && key >= 0 && value >= 0 && i < tune_set_count(t->set);
         i++) {
        const tune_override *v = tune_set_at(t->set, i);
        if (v->what == TUNE_HINT && r->args[key].len == strlen(v->name) &&
            !memcmp(r->args[key].ptr, v->name, r->args[key].len) && r->args[value].len == strlen(v->text) &&
            !memcmp(r->args[value].ptr, v->text, r->args[value].len))
            pend(t, i);
    }
    return f;
}

void diff_tuned_matched(diff_ctx *ctx)
{
    for (size_t i = 0; i < ctx->tuned->npending; i++)
        ctx->tuned->seen[ctx->tuned->pending[i]]++;
    ctx->tuned->npending = 0;
}

static void made(diff_tuned *t, unsigned kind, int64_t id)
{
    if (t->nadded < MAX_ADDED && rec_handle_is_dynamic(id))
        t->added[t->nadded++].space = rec_kind_handle_space(kind), t->added[t->nadded - 1].id = id;
}

static int str_is(const rec_value *v, const char *s)
{
    return v->len == strlen(s) && !memcmp(v->ptr, s, v->len);
}

int diff_tuned_added(diff_ctx *ctx, const rec_func_desc *f, const rec_record *r)
{
    diff_tuned *t = ctx->tuned;
    unsigned sole = rec_func_sole(f);
    int hints = 0, key = rec_arg_with_role(f, REC_AROLE_INFO_KEY),
        value = rec_arg_with_role(f, REC_AROLE_INFO_VALUE);
    for (size_t o = 0; o < tune_set_count(t->set); o++) {
        const tune_override *v = tune_set_at(t->set, o);
        hints |= v->what == TUNE_HINT;
        if (v->what == TUNE_HINT && sole == REC_SOLE_SETS_INFO_KEY && key >= 0 && value >= 0 &&
            str_is(&r->args[key], v->name) && str_is(&r->args[value], v->text)) {
            t->seen[o]++;
            return 1;
        }
        if (v->what == TUNE_PROP && sole == REC_SOLE_PLIST_OF_CLASS) {
            int cls = rec_arg_with_kind(f, REC_KIND_H5_PLIST_CLASS, REC_ARG_IN);
            const char *name =
                cls >= 0 ? rec_predefined_handle_name(REC_KIND_H5_PLIST_CLASS, r->args[cls].i) : NULL;
            if (name && !strcmp(name, tune_class_constant(v->cls))) {
                made(t, f->ret_kind, r->ret.i);
                return 1;
            }
        }
    }
    if (hints && sole == REC_SOLE_EMPTY_INFO) {
        int info = rec_arg_with_kind(f, REC_KIND_MPI_INFO, REC_ARG_OUT);
        if (info >= 0)
            made(t, REC_KIND_MPI_INFO, r->args[info].i);
        return info >= 0;
    }
    /* A setter with the set's value of each argument the set names. */
    int named = 0, all = 1;
    size_t which[REC_MAX_ARGS];
    for (unsigned a = 1; a < f->nargs; a++) {
        int64_t v;
        size_t o;
        if (tune_arg_value(t->set, f, a, &v, &o)) {
            all &= r->args[a].i == v;
            which[named++] = o;
        }
    }
    for (int i = 0; named && all && i < named; i++)
        t->seen[which[i]]++;
    return named && all;
}

int diff_tuned_same_handle(diff_ctx *ctx, const rec_func_desc *f, unsigned field, int64_t a, int64_t b)
{
    diff_tuned *t = ctx->tuned;
    if (field >= f->nargs || rec_handle_is_dynamic(a) ||
        !(tune_info_arg(f) == (int)field || tune_use_class(f, field) != TUNE_CLASS_NONE))
        return 0;
    unsigned space = rec_kind_handle_space(f->args[field].kind);
    const char *none = rec_predefined_handle_name(f->args[field].kind, a);
    if (!none || (strcmp(none, "MPI_INFO_NULL") && strcmp(none, "H5P_DEFAULT")))
        return 0;
    for (size_t i = 0; i < t->nadded; i++)
        if (t->added[i].space == space && t->added[i].id == b)
            return 1;
    return 0;
}

void diff_tuned_end_rank(diff_ctx *ctx)
{
    ctx->tuned->nadded = 0;
}

void diff_tuned_finish(diff_ctx *ctx)
{
    diff_tuned *t = ctx->tuned;
    for (size_t o = 0; o < tune_set_count(t->set); o++) {
        const tune_override *v = tune_set_at(t->set, o);
        char line[1024];
        if (t->seen[o]) {
            printf("%s: tuned: %s=%s: %llu call%s of B\n", DIFF_TOOL, v->key, v->value,
                   (unsigned long long)t->seen[o], t->seen[o] == 1 ? "" : "s");
            continue;
        }
        snprintf(line, sizeof line, "tuning: %s=%s (%s) was not applied: no call of B shows it", v->key,
                 v->value, v->where);
        diff_report(ctx, line, NULL);
    }
}

void diff_tuned_free(diff_ctx *ctx)
{
    if (ctx->tuned) {
        tune_set_free(ctx->tuned->set);
        free(ctx->tuned->seen);
    }
    free(ctx->tuned);
    ctx->tuned = NULL;
}
