/* trace_mutate: copies a trace, every rank and its global metadata, changing
 * one thing, so tests can check that recorder-diff notices exactly that.
 *
 *   trace_mutate IN OUT [--rank R --func NAME --nth N] MUTATION...
 *
 * The call to change is the Nth (1-based) record of NAME that rank R's
 * application made itself (depth 0, main thread). Mutations:
 *   --set FIELD=INT        set an integer field (argument name, "return", "errno")
 *   --set-path FIELD=PATH  name another path in a PATH argument
 *   --set-str FIELD=STR    set a string field (a name, readdir's entry, ...)
 *   --replace NAME         make it a call of NAME (same argument kinds)
 *   --drop                 leave it out
 *   --swap                 write it after the record that follows it
 * and for the whole trace:
 *   --reroot DIR           re-root every path under DIR as recorder-replay
 *                          --prefix does ("/a/b" -> "DIR/a/b", "x" -> "DIR/x")
 *   --ranks N              keep the first N ranks only
 * Prints the selected call before the change. Exit 0, or 1 with a message. */
#include "recorder_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_SETS 8

typedef struct mutation {
    long rank, nth;
    const char *func, *replace, *reroot;
    int drop, swap;
    long ranks;
    size_t nsets;
    const char *set_field[MAX_SETS], *set_value[MAX_SETS];
    char set_how[MAX_SETS]; /* i: integer, p: path, s: string */
} mutation;

static void die(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "trace_mutate: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    exit(1);
}

static const char *cursor_path(void *ctx, int64_t id)
{
    return rec_cursor_path(ctx, id);
}

static const rec_func_desc *by_name(const rec_table *t, const char *name)
{
    for (size_t i = 0; i < rec_table_count(t); i++)
        if (!strcmp(rec_table_at(t, i)->name, name))
            return rec_table_at(t, i);
    die("%s is not in the trace's function table%s", name, "");
    return NULL;
}

/* The field of f called name: its argument index, nargs for the return value, -1 for errno. */
static int field_index(const rec_func_desc *f, const char *name)
{
    if (!strcmp(name, "return"))
        return f->nargs;
    if (!strcmp(name, "errno"))
        return -1;
    for (unsigned a = 0; a < f->nargs; a++)
        if (!strcmp(f->args[a].name, name))
            return (int)a;
    die("%s has no field %s", f->name, name);
    return 0;
}

static void apply(const mutation *m, const rec_table *table, const rec_func_desc *f, rec_record *r,
                  char paths[][4096])
{
    for (size_t i = 0; i < m->nsets; i++) {
        int k = field_index(f, m->set_field[i]);
        rec_value *v = k < 0 ? NULL : (unsigned)k == f->nargs ? &r->ret : &r->args[k];
        unsigned kind = k < 0 ? REC_KIND_ERRNO : (unsigned)k == f->nargs ? f->ret_kind : f->args[k].kind;
        if (m->set_how[i] == 'p') {
            if (kind != REC_KIND_PATH)
                die("%s of %s is not a path", m->set_field[i], f->name);
            snprintf(paths[k], 4096, "%s", m->set_value[i]);
        } else if (m->set_how[i] == 's') {
            if (!v || rec_kind_class(kind) != REC_CLASS_STR)
                die("%s of %s is not a string", m->set_field[i], f->name);
            v->ptr = m->set_value[i];
            v->len = (uint32_t)strlen(m->set_value[i]);
        } else if (!v) {
            r->err = strtoll(m->set_value[i], NULL, 10);
        } else {
            v->i = strtoll(m->set_value[i], NULL, 10);
        }
    }
    if (m->replace) {
        const rec_func_desc *g = by_name(table, m->replace);
        int same = g->nargs == f->nargs && g->ret_kind == f->ret_kind;
        for (unsigned a = 0; same && a < f->nargs; a++)
            same = g->args[a].kind == f->args[a].kind;
        if (!same)
            die("%s and %s take different arguments", f->name, g->name);
        r->func = g->id;
    }
}

/* Rewrites the PATH fields of r with the writer's ids for their (new) names. */
static void define_paths(rec_writer *w, const rec_func_desc *f, rec_record *r, char paths[][4096])
{
    for (unsigned k = 0; k <= f->nargs; k++) {
        unsigned kind = k == f->nargs ? f->ret_kind : f->args[k].kind;
        if (kind != REC_KIND_PATH)
            continue;
        rec_value *v = k == f->nargs ? &r->ret : &r->args[k];
        v->i = paths[k][0] ? rec_writer_path_id(w, paths[k]) : -1;
    }
}

static void fill_paths(const mutation *m, rec_cursor *c, const rec_func_desc *f, const rec_record *r,
                       char paths[][4096])
{
    for (unsigned k = 0; k <= f->nargs; k++) {
        paths[k][0] = 0;
        unsigned kind = k == f->nargs ? f->ret_kind : f->args[k].kind;
        if (kind != REC_KIND_PATH)
            continue;
        const char *p = rec_cursor_path(c, k == f->nargs ? r->ret.i : r->args[k].i);
        if (!p)
            continue;
        if (m->reroot) {
            while (*p == '/')
                p++;
            snprintf(paths[k], 4096, "%s/%s", m->reroot, p);
        } else {
            snprintf(paths[k], 4096, "%s", p);
        }
    }
}

/* A copy of r that no longer points into the cursor's block (for --swap). */
static void hold(const rec_func_desc *f, const rec_record *r, rec_record *held)
{
    static char strings[REC_MAX_FIELDS][4096];
    static int64_t arrays[REC_MAX_FIELDS][1024];
    *held = *r;
    for (unsigned k = 0; k <= f->nargs; k++) {
        unsigned kind = k == f->nargs ? f->ret_kind : f->args[k].kind;
        rec_value *v = k == f->nargs ? &held->ret : &held->args[k];
        if (rec_kind_class(kind) == REC_CLASS_STR) {
            v->len = v->len < sizeof strings[k] ? v->len : (uint32_t)sizeof strings[k];
            memcpy(strings[k], v->ptr, v->len);
            v->ptr = strings[k];
        } else if (rec_kind_class(kind) == REC_CLASS_ARRAY) {
            v->len = (uint32_t)rec_value_array(v, arrays[k], 1024);
            v->ptr = arrays[k];
            v->encoded = 0;
        }
    }
}

static void copy_rank(const mutation *m, rec_trace *t, const char *out, uint32_t rank)
{
    rec_error err;
    const rec_table *table = rec_trace_table(t);
    const rec_trace_info *info = rec_trace_get_info(t);
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.table = table;
    o.window = info->window;
    const rec_rank_meta *meta = rec_trace_rank_meta(t, rank, &err);
    o.start_time_ns = meta ? meta->start_time_ns : info->start_time_ns;
    rec_writer *w = rec_writer_open(out, rank, &o, &err);
    rec_cursor *c = w ? rec_cursor_open(t, rank, &err) : NULL;
    if (!c)
        die("%s%s", err.msg, "");
    static char paths[REC_MAX_FIELDS][4096], held_paths[REC_MAX_FIELDS][4096];
    rec_record held;
    int holding = 0;
    static char text[16384];
    rec_record r;
    long seen = 0;
    int rc;
    while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        fill_paths(m, c, f, &r, paths);
        if (m->func && rank == (uint32_t)m->rank && r.depth == 0 && r.thread == 0 && !strcmp(f->name, m->func) &&
            ++seen == m->nth) {
            rec_print_record(text, sizeof text, table, &r, rank, info->time_resolution, cursor_path, c);
            printf("trace_mutate: rank %u: %s #%ld: %s\n", rank, m->func, m->nth, text);
            if (m->drop)
                continue;
            apply(m, table, f, &r, paths);
            if (m->swap) {
                hold(rec_table_lookup(table, r.func), &r, &held);
                memcpy(held_paths, paths, sizeof paths);
                holding = 1;
                continue;
            }
        }
        define_paths(w, rec_table_lookup(table, r.func), &r, paths);
        if (rec_writer_append(w, &r, &err) != 0)
            die("%s%s", err.msg, "");
        if (holding) {
            define_paths(w, rec_table_lookup(table, held.func), &held, held_paths);
            if (rec_writer_append(w, &held, &err) != 0)
                die("%s%s", err.msg, "");
            holding = 0;
        }
    }
    if (rc < 0)
        die("%s%s", err.msg, "");
    if (m->func && rank == (uint32_t)m->rank && seen < m->nth) {
        char count[64];
        snprintf(count, sizeof count, "%ld", seen);
        die("the selected rank makes only %s top-level calls of %s", count, m->func);
    }
    rec_cursor_close(c);
    if (rec_writer_close(w, &err) != 0)
        die("%s%s", err.msg, "");
}

int main(int argc, char **argv)
{
    mutation m = {.rank = 0, .nth = 1, .ranks = -1};
    if (argc < 3)
        die("usage: trace_mutate IN OUT [--rank R --func NAME --nth N] MUTATION...%s%s", "", "");
    for (int i = 3; i < argc; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(opt, "--drop") || !strcmp(opt, "--swap")) {
            *(opt[2] == 'd' ? &m.drop : &m.swap) = 1;
            continue;
        }
        if (!val)
            die("%s needs a value%s", opt, "");
        i++;
        if (!strcmp(opt, "--rank"))
            m.rank = strtol(val, NULL, 10);
        else if (!strcmp(opt, "--func"))
            m.func = val;
        else if (!strcmp(opt, "--nth"))
            m.nth = strtol(val, NULL, 10);
        else if (!strcmp(opt, "--replace"))
            m.replace = val;
        else if (!strcmp(opt, "--reroot"))
            m.reroot = val;
        else if (!strcmp(opt, "--ranks"))
            m.ranks = strtol(val, NULL, 10);
        else if ((!strcmp(opt, "--set") || !strcmp(opt, "--set-path") || !strcmp(opt, "--set-str")) &&
                 m.nsets < MAX_SETS && strchr(val, '=')) {
            char *field = strdup(val), *eq = strchr(field, '=');
            *eq = 0;
            m.set_field[m.nsets] = field;
            m.set_value[m.nsets] = eq + 1;
            m.set_how[m.nsets++] = opt[5] == 0 ? 'i' : opt[6] == 'p' ? 'p' : 's';
        } else
            die("unknown or malformed option %s %s", opt, val);
    }
    rec_error err;
    rec_trace *t = rec_trace_open(argv[1], &err);
    if (!t)
        die("%s%s", err.msg, "");
    rec_trace_info info = *rec_trace_get_info(t);
    if (m.ranks > 0 && (uint32_t)m.ranks < info.nranks)
        info.nranks = (uint32_t)m.ranks;
    if (mkdir(argv[2], 0755) != 0 && errno != EEXIST)
        die("%s: cannot create: %s", argv[2], strerror(errno));
    if (rec_write_global_metadata(argv[2], &info, rec_trace_table(t), NULL, &err) != 0)
        die("%s%s", err.msg, "");
    for (uint32_t rank = 0; rank < info.nranks; rank++)
        copy_rank(&m, t, argv[2], rank);
    rec_trace_close(t);
    return 0;
}
