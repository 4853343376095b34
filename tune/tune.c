/* tune.c: tuning sets, read and asked (recorder_tune.h). The knobs and what
 * they touch are functions/tuning.def's rows; values are checked against
 * the kind of each (an HDF5 enumeration by its constants' names). */
#include "recorder_tune.h"

#include <hdf5.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { V_SWITCH, V_COUNT, V_STRING, V_BOOL, V_FRACTION, V_LIBVER, V_FSPACE, V_XFER, V_DATA };

/* One row of tuning.def: a knob (TUNE_HINT, TUNE_DATA, TUNE_PROP) or what a call means to a set. */
enum { ROW_KNOB, ROW_INFO, ROW_USE, ROW_TWIN };
typedef struct row {
    int row;
    tune_what what;        /* a knob's */
    const char *name;      /* a knob's name; a call's function (ROW_TWIN: the independent one) */
    const char *setter;    /* TUNE_PROP's; ROW_TWIN: the collective function */
    const char *arg;       /* TUNE_PROP's, TUNE_INFO's and TUNE_USE's argument */
    const char *def, *doc; /* TUNE_PROP's default; a knob's meaning */
    int values;
    tune_class cls; /* TUNE_PROP's and TUNE_USE's */
} row;

static const row rows[] = {
#define TUNE_INFO(f, a) {ROW_INFO, 0, #f, NULL, #a, NULL, NULL, 0, TUNE_CLASS_NONE},
#define TUNE_USE(f, a, c) {ROW_USE, 0, #f, NULL, #a, NULL, NULL, 0, TUNE_CLASS_##c},
#define TUNE_TWIN(a, b) {ROW_TWIN, 0, #a, #b, NULL, NULL, NULL, 0, TUNE_CLASS_NONE},
#define TUNE_DATA(k, doc) {ROW_KNOB, TUNE_DATA, #k, NULL, NULL, NULL, doc, V_DATA, TUNE_CLASS_NONE},
#define TUNE_HINT(k, v, doc) {ROW_KNOB, TUNE_HINT, #k, NULL, NULL, NULL, doc, V_##v, TUNE_CLASS_NONE},
#define TUNE_PROP(k, f, a, c, v, d, doc) {ROW_KNOB, TUNE_PROP, #k, #f, #a, #d, doc, V_##v, TUNE_CLASS_##c},
#include "tuning.def"
#include "tuning_end.h"
};
enum { NROWS = sizeof rows / sizeof rows[0] };
typedef row knob;

/* The words of the enumerated values, with the constants the trace records. */
typedef struct word {
    int values;
    const char *word;
    int64_t value;
} word;
static const word words[] = {
    {V_SWITCH, "enable", 0},
    {V_SWITCH, "disable", 0},
    {V_SWITCH, "automatic", 0},
    {V_BOOL, "true", 1},
    {V_BOOL, "false", 0},
    {V_BOOL, "1", 1},
    {V_BOOL, "0", 0},
    {V_LIBVER, "earliest", H5F_LIBVER_EARLIEST},
    {V_LIBVER, "v18", H5F_LIBVER_V18},
#if H5_VERSION_GE(1, 10, 0)
    {V_LIBVER, "v110", H5F_LIBVER_V110},
#endif
#if H5_VERSION_GE(1, 12, 0)
    {V_LIBVER, "v112", H5F_LIBVER_V112},
#endif
#if H5_VERSION_GE(1, 14, 0)
    {V_LIBVER, "v114", H5F_LIBVER_V114},
#endif
    {V_LIBVER, "latest", H5F_LIBVER_LATEST},
    {V_FSPACE, "fsm_aggr", H5F_FSPACE_STRATEGY_FSM_AGGR},
    {V_FSPACE, "page", H5F_FSPACE_STRATEGY_PAGE},
    {V_FSPACE, "aggr", H5F_FSPACE_STRATEGY_AGGR},
    {V_FSPACE, "none", H5F_FSPACE_STRATEGY_NONE},
    {V_XFER, "independent", H5FD_MPIO_INDEPENDENT},
    {V_XFER, "collective", H5FD_MPIO_COLLECTIVE},
    {V_DATA, "independent", 0},
    {V_DATA, "collective", 1},
};

struct tune_set {
    tune_override *o;
    size_t n, cap;
};

tune_set *tune_set_new(void)
{
    return calloc(1, sizeof(tune_set));
}

void tune_set_free(tune_set *s)
{
    if (s)
        free(s->o);
    free(s);
}

size_t tune_set_count(const tune_set *s)
{
    return s ? s->n : 0;
}

const tune_override *tune_set_at(const tune_set *s, size_t i)
{
    return s && i < s->n ? &s->o[i] : NULL;
}

static const char *layer_of(const knob *k)
{
    return k->what == TUNE_PROP ? "hdf5" : "mpiio";
}

/* "enable, disable or automatic": the words of a kind. */
static void list_words(int values, char *out, size_t cap)
{
    size_t n = 0, count = 0, seen = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        count += words[i].values == values;
    for (size_t i = 0; i < sizeof words / sizeof words[0] && n < cap; i++)
        if (words[i].values == values) {
            seen++;
            n += (size_t)snprintf(out + n, cap - n, "%s%s",
                                  seen == 1       ? ""
                                  : seen == count ? " or "
                                                  : ", ",
                                  words[i].word);
        }
}

/* "1048576", "1M", "4k": a non-negative integer; -1 if not one. */
static int parse_count(const char *v, int64_t *out)
{
    char *end;
    if (v[0] < '0' || v[0] > '9')
        return -1;
    unsigned long long n = strtoull(v, &end, 10);
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K')
        shift = 10;
    else if (*end == 'm' || *end == 'M')
        shift = 20;
    else if (*end == 'g' || *end == 'G')
        shift = 30;
    if (shift)
        end++;
    if (*end || n > (UINT64_MAX >> 1 >> shift))
        return -1;
    *out = (int64_t)(n << shift);
    return 0;
}

/* The value of v for a knob: 0 with o's number and text, else -1 with why. */
static int parse_value(const knob *k, const char *v, tune_override *o, char *why, size_t cap)
{
    snprintf(o->text, sizeof o->text, "%s", v);
    switch (k->values) {
    case V_COUNT:
        if (parse_count(v, &o->number) == 0) {
            snprintf(o->text, sizeof o->text, "%lld", (long long)o->number);
            return 0;
        }
        snprintf(why, cap, "not a byte count or number (digits, with K, M or G for 2^10, 2^20, 2^30)");
        return -1;
    case V_STRING:
        if (v[0] && !strpbrk(v, " \t,"))
            return 0;
        snprintf(why, cap, "not a word (no spaces or commas)");
        return -1;
    case V_FRACTION: {
        char *end;
        double d = strtod(v, &end);
        if (v[0] && !*end && d >= 0 && d <= 1) {
            memcpy(&o->number, &d, sizeof d);
            return 0;
        }
        snprintf(why, cap, "not a number from 0 to 1");
        return -1;
    }
    default:
        for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
            if (words[i].values == k->values && strcmp(words[i].word, v) == 0) {
                o->number = words[i].value;
                return 0;
            }
        char list[256];
        list_words(k->values, list, sizeof list);
        snprintf(why, cap, "not %s", list);
        return -1;
    }
}

static const rec_func_desc *function_named(const char *name)
{
    return name ? rec_function_by_name(name) : NULL;
}

static int arg_named(const rec_func_desc *f, const char *name)
{
    for (unsigned a = 0; f && a < f->nargs; a++)
        if (strcmp(f->args[a].name, name) == 0)
            return (int)a;
    return -1;
}

int tune_set_add(tune_set *s, const char *text, const char *where, char *err, size_t cap)
{
    char assignment[512]; /* without the blanks around the key and the value */
    size_t n = 0;
    for (const char *p = text; *p && n + 1 < sizeof assignment; p++)
        if ((*p != ' ' && *p != '\t') ||
            (n && assignment[n - 1] != '=' && p[strspn(p, " \t")] != '=' && p[strspn(p, " \t")]))
            assignment[n++] = *p;
    assignment[n] = 0;
    const char *dot = strchr(assignment, '.'), *eq = strchr(assignment, '=');
    if (!dot || !eq || dot > eq || dot == assignment || eq == dot + 1 || !eq[1]) {
        snprintf(err, cap, "%s: expected LAYER.KEY=VALUE: %s", where, assignment);
        return -1;
    }
    size_t layer_len = (size_t)(dot - assignment), key_len = (size_t)(eq - dot - 1);
    if (!((layer_len == 5 && !strncmp(assignment, "mpiio", 5)) ||
          (layer_len == 4 && !strncmp(assignment, "hdf5", 4)))) {
        snprintf(err, cap, "%s: unknown layer %.*s in %s (the layers: mpiio, hdf5)", where, (int)layer_len,
                 assignment, assignment);
        return -1;
    }
    const knob *k = NULL;
    for (size_t i = 0; i < NROWS && !k; i++)
        if (rows[i].row == ROW_KNOB && strlen(rows[i].name) == key_len &&
            !strncmp(rows[i].name, dot + 1, key_len) && strlen(layer_of(&rows[i])) == layer_len &&
            !strncmp(layer_of(&rows[i]), assignment, layer_len))
            k = &rows[i];
    if (!k) {
        char list[2048];
        size_t n = 0;
        list[0] = 0;
        for (size_t i = 0; i < NROWS && n < sizeof list; i++)
            if (rows[i].row == ROW_KNOB && strlen(layer_of(&rows[i])) == layer_len &&
                !strncmp(layer_of(&rows[i]), assignment, layer_len))
                n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", rows[i].name);
        snprintf(err, cap, "%s: unknown key %.*s (%.*s's keys: %s)", where, (int)(eq - assignment),
                 assignment, (int)layer_len, assignment, list);
        return -1;
    }
    tune_override o;
    memset(&o, 0, sizeof o);
    o.what = k->what;
    o.name = k->name;
    o.cls = k->cls;
    snprintf(o.key, sizeof o.key, "%s.%s", layer_of(k), k->name);
    snprintf(o.where, sizeof o.where, "%s", where);
    if (strlen(eq + 1) >= sizeof o.value) {
        snprintf(err, cap, "%s: %s: the value is too long", where, o.key);
        return -1;
    }
    snprintf(o.value, sizeof o.value, "%s", eq + 1);
    char why[512];
    if (parse_value(k, o.value, &o, why, sizeof why) != 0) {
        snprintf(err, cap, "%s: %s=%s: %s", where, o.key, o.value, why);
        return -1;
    }
    if (k->what == TUNE_PROP) {
        o.setter = function_named(k->setter);
        o.arg = arg_named(o.setter, k->arg);
    }
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->o[i].key, o.key)) { /* a later one wins */
            s->o[i] = o;
            return 0;
        }
    if (s->n == s->cap) {
        size_t cap2 = s->cap ? 2 * s->cap : 16;
        tune_override *grown = realloc(s->o, cap2 * sizeof *grown);
        if (!grown) {
            snprintf(err, cap, "%s: out of memory", where);
            return -1;
        }
        s->o = grown;
        s->cap = cap2;
    }
    s->o[s->n++] = o;
    return 0;
}

int tune_set_parse(tune_set *s, const char *text, const char *name, char *err, size_t cap)
{
    char line[1024], where[320];
    unsigned n = 1;
    for (const char *p = text; *p; n++) {
        size_t len = strcspn(p, "\n");
        if (len >= sizeof line) {
            snprintf(err, cap, "%s:%u: the line is too long", name, n);
            return -1;
        }
        memcpy(line, p, len);
        line[len] = 0;
        p += len + (p[len] == '\n');
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *b = line, *e = line + strlen(line);
        while (*b == ' ' || *b == '\t')
            b++;
        while (e > b && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
            *--e = 0;
        if (!*b)
            continue;
        snprintf(where, sizeof where, "%s:%u", name, n);
        if (tune_set_add(s, b, where, err, cap) != 0)
            return -1;
    }
    return 0;
}

int tune_set_read(tune_set *s, const char *path, char *err, size_t cap)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, cap, "%s: cannot open the tuning set: %s", path, strerror(errno));
        return -1;
    }
    char *text = NULL;
    size_t len = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, in)) > 0) {
        char *grown = realloc(text, len + got + 1);
        if (!grown)
            break;
        text = grown;
        memcpy(text + len, chunk, got);
        len += got;
        text[len] = 0;
    }
    int failed = ferror(in);
    fclose(in);
    int status = failed ? -1 : tune_set_parse(s, text ? text : "", path, err, cap);
    if (failed)
        snprintf(err, cap, "%s: cannot read the tuning set", path);
    free(text);
    return status;
}

/* ---- the table's answers ---- */

int tune_info_arg(const rec_func_desc *f)
{
    for (size_t i = 0; f && i < NROWS; i++)
        if (rows[i].row == ROW_INFO && !strcmp(rows[i].name, f->name))
            return arg_named(f, rows[i].arg);
    return -1;
}

tune_class tune_use_class(const rec_func_desc *f, unsigned arg)
{
    for (size_t i = 0; f && arg < f->nargs && i < NROWS; i++)
        if (rows[i].row == ROW_USE && !strcmp(rows[i].name, f->name) &&
            !strcmp(rows[i].arg, f->args[arg].name))
            return rows[i].cls;
    return TUNE_CLASS_NONE;
}

const rec_func_desc *tune_twin(const rec_func_desc *f, int *is_collective)
{
    for (size_t i = 0; f && i < NROWS; i++) {
        if (rows[i].row != ROW_TWIN)
            continue;
        if (!strcmp(rows[i].name, f->name)) {
            *is_collective = 0;
            return rec_function_by_name(rows[i].setter);
        }
        if (!strcmp(rows[i].setter, f->name)) {
            *is_collective = 1;
            return rec_function_by_name(rows[i].name);
        }
    }
    return NULL;
}

const char *tune_class_name(tune_class cls)
{
    return cls == TUNE_CLASS_FAPL   ? "fapl"
           : cls == TUNE_CLASS_FCPL ? "fcpl"
           : cls == TUNE_CLASS_DXPL ? "dxpl"
                                    : "";
}

const char *tune_class_constant(tune_class cls)
{
    return cls == TUNE_CLASS_FAPL   ? "H5P_FILE_ACCESS"
           : cls == TUNE_CLASS_FCPL ? "H5P_FILE_CREATE"
           : cls == TUNE_CLASS_DXPL ? "H5P_DATASET_XFER"
                                    : "";
}

const rec_func_desc *tune_call_for(const tune_set *s, const rec_func_desc *f, size_t *o)
{
    int coll = 0;
    const rec_func_desc *twin = tune_twin(f, &coll);
    for (size_t i = 0; twin && s && i < s->n; i++)
        if (s->o[i].what == TUNE_DATA && s->o[i].number != coll) {
            *o = i;
            return twin;
        }
    return f;
}

int tune_arg_value(const tune_set *s, const rec_func_desc *f, unsigned arg, int64_t *value, size_t *o)
{
    for (size_t i = 0; s && f && i < s->n; i++)
        if (s->o[i].what == TUNE_PROP && s->o[i].setter && !strcmp(s->o[i].setter->name, f->name) &&
            s->o[i].arg == (int)arg) {
            *value = s->o[i].number;
            *o = i;
            return 1;
        }
    return 0;
}

void tune_setter_args(const tune_set *s, size_t o, int64_t args[REC_MAX_ARGS])
{
    memset(args, 0, REC_MAX_ARGS * sizeof args[0]);
    const rec_func_desc *f = s->o[o].setter;
    for (size_t i = 0; f && i < NROWS; i++) { /* the defaults of the setter's knobs */
        if (rows[i].row != ROW_KNOB || rows[i].what != TUNE_PROP || strcmp(rows[i].setter, f->name))
            continue;
        tune_override d;
        char why[256];
        int a = arg_named(f, rows[i].arg);
        if (a > 0 && a < REC_MAX_ARGS && parse_value(&rows[i], rows[i].def, &d, why, sizeof why) == 0)
            args[a] = d.number;
    }
    for (unsigned a = 1; f && a < f->nargs && a < REC_MAX_ARGS; a++) {
        int64_t v;
        size_t which;
        if (tune_arg_value(s, f, a, &v, &which))
            args[a] = v;
    }
}

int tune_setter_first(const tune_set *s, size_t o)
{
    for (size_t i = 0; i < o; i++)
        if (s->o[i].what == TUNE_PROP && s->o[i].setter == s->o[o].setter)
            return 0;
    return s->o[o].what == TUNE_PROP;
}
