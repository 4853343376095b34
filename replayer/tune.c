/* tune.c: the replay under a tuning set (tune.h). The calls it adds go
 * through their traced names (MPI_Info_create, MPI_Info_set, H5Pcreate) or,
 * a property's setter, through the dispatch as a record of the table's
 * setter: a traced replay shows each one, and recorder-diff --tuned accepts
 * exactly those. */
#include "tune.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "recorder_tune.h"
#include "summary.h"

/* What the replay did of each override (every thread's, summed). */
enum { DONE_CHANGED, DONE_ADDED, DONE_KINDS };

static tune_set *set;
static rp_replay_fn *table;
static uint64_t (*done)[DONE_KINDS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* The lists a property's setter was called on (by recorded id), per override. */
typedef struct mark {
    int64_t plist;
    size_t o;
} mark;
static mark *marks;
static size_t nmarks, marks_cap;
static MPI_Info null_info = MPI_INFO_NULL; /* the one made for calls that passed MPI_INFO_NULL */
static int64_t made_plist[4];              /* by class: the recorded id of the list made for H5P_DEFAULT */

int rp_tune_init(const char *file, char **sets, int nsets, rp_replay_fn *dispatch, char *err, size_t cap)
{
    if (!file && nsets == 0)
        return 0;
    set = tune_set_new();
    if (!set)
        return -1;
    if (file) { /* read without the tracer's sight: a traced replay records only the replayed calls */
        char *text = rp_sys_read_text(file, 1 << 20);
        if (!text) {
            snprintf(err, cap, "%s: cannot read the tuning set: %s", file, strerror(errno));
            return -1;
        }
        int status = tune_set_parse(set, text, file, err, cap);
        free(text);
        if (status != 0)
            return -1;
    }
    for (int i = 0; i < nsets; i++)
        if (tune_set_add(set, sets[i], "--set", err, cap) != 0)
            return -1;
    done = calloc(tune_set_count(set) + 1, sizeof *done);
    table = dispatch;
    return done ? 0 : -1;
}

int rp_tune_active(void)
{
    return set && tune_set_count(set) > 0;
}

static void count(size_t o, int kind)
{
    pthread_mutex_lock(&lock);
    done[o][kind]++;
    pthread_mutex_unlock(&lock);
}

static int marked(int64_t plist, size_t o)
{
    for (size_t i = 0; i < nmarks; i++)
        if (marks[i].plist == plist && marks[i].o == o)
            return 1;
    return 0;
}

static void mark_set(int64_t plist, size_t o)
{
    pthread_mutex_lock(&lock);
    if (!marked(plist, o) && nmarks == marks_cap) {
        size_t cap = marks_cap ? 2 * marks_cap : 64;
        mark *grown = realloc(marks, cap * sizeof *grown);
        if (grown) {
            marks = grown;
            marks_cap = cap;
        }
    }
    if (!marked(plist, o) && nmarks < marks_cap)
        marks[nmarks++] = (mark){plist, o};
    pthread_mutex_unlock(&lock);
}

void rp_tune_record(rp_ctx *x, rp_rec *r)
{
    (void)x;
    const rec_func_desc *f = rec_function_by_id(r->func);
    if (!rp_tune_active() || !f)
        return;
    size_t o;
    const rec_func_desc *to = tune_call_for(set, f, &o);
    if (to != f) { /* the twin: the same arguments */
        r->func = to->id;
        count(o, DONE_CHANGED);
        return;
    }
    for (unsigned a = 1; a < f->nargs; a++) {
        int64_t v;
        if (tune_arg_value(set, f, a, &v, &o)) {
            r->args[a].i = v;
            mark_set(r->args[0].i, o);
            count(o, DONE_CHANGED);
        }
    }
}

MPI_Info rp_tune_info(rp_ctx *x, const rp_rec *r, MPI_Info info)
{
    (void)x;
    (void)r;
    for (size_t o = 0; rp_tune_active() && o < tune_set_count(set); o++) {
        const tune_override *v = tune_set_at(set, o);
        if (v->what != TUNE_HINT)
            continue;
        if (info == MPI_INFO_NULL) {
            if (null_info == MPI_INFO_NULL && MPI_Info_create(&null_info) != MPI_SUCCESS)
                return info;
            info = null_info;
        }
        char had[sizeof v->text + 1];
        int flag = 0; /* asked without the tracer's sight: a hint already set is not set again */
        if (PMPI_Info_get(info, v->name, (int)sizeof had - 1, had, &flag) != MPI_SUCCESS)
            flag = 0;
        if ((flag && !strcmp(had, v->text)) || MPI_Info_set(info, v->name, v->text) == MPI_SUCCESS)
            count(o, DONE_CHANGED);
    }
    return info;
}

/* A setter of the table, called on a list (its recorded id) through the dispatch. */
static void call_setter(rp_ctx *x, const rp_rec *at, size_t o, int64_t plist)
{
    const tune_override *v = tune_set_at(set, o);
    int64_t args[REC_MAX_ARGS];
    tune_setter_args(set, o, args);
    rp_rec *s = calloc(1, sizeof *s);
    if (!s || !table[v->setter->id]) {
        free(s);
        return;
    }
    s->func = v->setter->id;
    s->compatible = 1;
    s->tstart = at->tstart;
    s->tend = at->tstart;
    s->thread = at->thread;
    s->seq = at->seq;
    for (unsigned a = 0; a < v->setter->nargs && a < REC_MAX_ARGS; a++)
        s->args[a].i = a == 0 ? plist : args[a];
    const char *reason = x->reason;
    x->reason = NULL;
    table[v->setter->id](x, s);
    x->reason = reason;
    free(s);
}

hid_t rp_tune_plist(rp_ctx *x, const rp_rec *r, unsigned arg, hid_t plist)
{
    const rec_func_desc *f = rec_function_by_id(r->func);
    tune_class cls = tune_use_class(f, arg);
    int64_t id = r->args[arg].i;
    for (size_t o = 0; rp_tune_active() && cls && o < tune_set_count(set); o++) {
        const tune_override *v = tune_set_at(set, o);
        if (v->what != TUNE_PROP || v->cls != cls || !tune_setter_first(set, o))
            continue;
        int missing = 0;
        for (size_t p = o; p < tune_set_count(set); p++)
            missing |= tune_set_at(set, p)->setter == v->setter && !marked(id, p);
        if (!missing)
            continue;
        if (plist == H5P_DEFAULT) { /* a list of the class, made once */
            if (!made_plist[cls]) {
                hid_t made = H5Pcreate(cls == TUNE_CLASS_FAPL   ? H5P_FILE_ACCESS
                                       : cls == TUNE_CLASS_FCPL ? H5P_FILE_CREATE
                                                                : H5P_DATASET_XFER);
                if (made < 0)
                    return plist;
                made_plist[cls] = RP_HANDLE_OWN_BASE + cls;
                rp_handle_new(x, REC_KIND_H5_PLIST, made_plist[cls], (uint64_t)made, NULL);
            }
            uint64_t raw = 0;
            if (rp_handle_in(x, REC_KIND_H5_PLIST, made_plist[cls], &raw) != 0)
                return plist;
            plist = (hid_t)raw;
            id = made_plist[cls];
        }
        call_setter(x, r, o, id);
        for (size_t p = o; p < tune_set_count(set); p++)
            if (tune_set_at(set, p)->setter == v->setter && !marked(id, p)) {
                mark_set(id, p);
                count(p, DONE_ADDED);
            }
    }
    return plist;
}

char *rp_tune_summary(int rank)
{
    size_t n = tune_set_count(set);
    if (!n)
        return NULL;
    uint64_t *mine = calloc(n * DONE_KINDS, sizeof *mine), *all = calloc(n * DONE_KINDS, sizeof *all);
    for (size_t o = 0; mine && o < n; o++)
        for (int k = 0; k < DONE_KINDS; k++)
            mine[o * DONE_KINDS + k] = done[o][k];
    if (mine && all)
        PMPI_Reduce(mine, all, (int)(n * DONE_KINDS), MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    rp_report text = {0};
#define SAY(...) rp_report_add(&text, __VA_ARGS__)
    if (rank == 0 && all) {
        SAY("  tuning: %zu override%s\n", n, n == 1 ? "" : "s");
        for (size_t o = 0; o < n; o++) {
            const tune_override *v = tune_set_at(set, o);
            uint64_t changed = all[o * DONE_KINDS + DONE_CHANGED], added = all[o * DONE_KINDS + DONE_ADDED];
            SAY("    %s=%s: ", v->key, v->value);
            if (!changed && !added)
                SAY("not applied: no call of the trace it touches\n");
            else if (v->what == TUNE_HINT)
                SAY("on the info of %llu call%s\n", (unsigned long long)changed, changed == 1 ? "" : "s");
            else if (v->what == TUNE_DATA)
                SAY("%llu call%s switched\n", (unsigned long long)changed, changed == 1 ? "" : "s");
            else
                SAY("%llu %s call%s changed, %llu added on a %s\n", (unsigned long long)changed,
                    v->setter->name, changed == 1 ? "" : "s", (unsigned long long)added,
                    tune_class_name(v->cls));
        }
    }
#undef SAY
    free(mine);
    free(all);
    return text.p;
}

void rp_tune_free(void)
{
    tune_set_free(set);
    free(done);
    free(marks);
    set = NULL;
}
