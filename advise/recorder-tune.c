/* recorder-tune: a search over tuning sets by running them. Each candidate
 * of a space (KEY = V1 | V2 ..., one key a line) is replayed as
 * recorder-advise --prove replays a finding's set (prove.h): alternated with
 * the untuned replay, K times each, then once under the tracer with
 * recorder-diff --tuned checking that the set alone changed. The whole grid
 * when it fits the budget, else a coordinate search: from the first value
 * of every key, each key's other values in turn, keeping the best. Prints a
 * table and writes the best set (docs/user/recorder-tune.md).
 * A value "traced" leaves its key as the trace has it.
 *   recorder-tune --space FILE [--budget N] [--search grid|coordinate]
 *                 [--repeat K] [--np N] [--mpirun CMD] [--scratch DIR]
 *                 [--best FILE] [--progress] TRACE_DIR */
#include "prove.h"
#include "ra_tools.h"
#include "recorder_format.h"
#include "recorder_tune.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *tool = "recorder-tune";

enum { MAX_KEYS = 16, MAX_VALUES = 16, LINE_MAX_ = 512 };
/* The value that leaves a key as the trace has it: the key is left out of the set. */
#define TRACED "traced"

typedef struct space {
    char key[MAX_KEYS][128];
    char value[MAX_KEYS][MAX_VALUES][128];
    unsigned nvalues[MAX_KEYS];
    unsigned nkeys;
} space;

typedef struct tried {
    unsigned pick[MAX_KEYS]; /* the value of each key */
    long index;              /* its prove set */
    int ok;                  /* measured and seen applied */
    double ratio;            /* tuned median over untuned */
} tried;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s --space FILE [options] TRACE_DIR\n"
            "  --space FILE     the candidates: KEY = V1 | V2 | ..., one key a line (# comments);\n"
            "                   each KEY=V a tuning set line (recorder-tuning(5)); the value\n"
            "                   traced leaves the key as the trace has it\n"
            "  --budget N       candidates to run at the most (default 16)\n"
            "  --search MODE    grid (every combination) or coordinate (each key in turn from\n"
            "                   the first values); default: grid when it fits the budget\n"
            "  --repeat K       replays of each kind per candidate (default 3)\n"
            "  --np N           ranks of the replays (default: the trace's)\n"
            "  --mpirun CMD     the launcher, words split on blanks (default: $MPIEXEC, or\n"
            "                   %s)\n"
            "  --scratch DIR    the replays write under a scratch directory made in DIR and\n"
            "                   removed after (default: $TMPDIR, or /tmp)\n"
            "  --best FILE      where the best set goes (default: recorder-tune.set)\n"
            "  --progress       a line on stderr per replay\n",
            tool, RECORDER_ADVISE_MPIEXEC);
}

static char *trim(char *s)
{
    s += strspn(s, " \t");
    size_t n = strlen(s);
    while (n && strchr(" \t\r\n", s[n - 1]))
        s[--n] = 0;
    return s;
}

/* Reads the space, every KEY=VALUE checked by the tuning sets' parser: 0, or 2 after the reason. */
static int read_space(const char *path, space *sp)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
        return 2;
    }
    char line[LINE_MAX_], err[512], where[LINE_MAX_ + 32];
    unsigned lineno = 0;
    int rc = 0;
    tune_set *check = tune_set_new();
    memset(sp, 0, sizeof *sp);
    while (rc == 0 && fgets(line, sizeof line, in)) {
        lineno++;
        line[strcspn(line, "#")] = 0;
        char *text = trim(line), *eq = strchr(text, '=');
        if (!*text)
            continue;
        snprintf(where, sizeof where, "%s:%u", path, lineno);
        if (!eq) {
            fprintf(stderr, "%s: %s: %s: not KEY = V1 | V2 ...\n", tool, where, text);
            rc = 2;
            break;
        }
        *eq = 0;
        const char *key = trim(text);
        if (sp->nkeys == MAX_KEYS || strlen(key) >= sizeof sp->key[0]) {
            fprintf(stderr, "%s: %s: more than %d keys, or a key too long\n", tool, where, MAX_KEYS);
            rc = 2;
            break;
        }
        unsigned k = sp->nkeys++;
        snprintf(sp->key[k], sizeof sp->key[k], "%s", key);
        for (char *v = strtok(eq + 1, "|"); v && rc == 0; v = strtok(NULL, "|")) {
            char assignment[300];
            v = trim(v);
            if (!*v || sp->nvalues[k] == MAX_VALUES || strlen(v) >= sizeof sp->value[0][0]) {
                fprintf(stderr, "%s: %s: %s: an empty value, more than %d, or one too long\n", tool, where,
                        key, MAX_VALUES);
                rc = 2;
                break;
            }
            snprintf(assignment, sizeof assignment, "%s=%s", key, v);
            if (strcmp(v, TRACED) && tune_set_add(check, assignment, where, err, sizeof err) != 0) {
                fprintf(stderr, "%s: %s\n", tool, err);
                rc = 2;
                break;
            }
            snprintf(sp->value[k][sp->nvalues[k]++], sizeof sp->value[0][0], "%s", v);
        }
        if (rc == 0 && !sp->nvalues[k]) {
            fprintf(stderr, "%s: %s: %s: no value\n", tool, where, key);
            rc = 2;
        }
    }
    fclose(in);
    tune_set_free(check);
    if (rc == 0 && !sp->nkeys) {
        fprintf(stderr, "%s: %s: no key to tune\n", tool, path);
        rc = 2;
    }
    return rc;
}

/* Runs the candidate of pick[] (its lines KEY=VALUE): -1 on an error of this program's own. */
static int try_pick(prove *p, const space *sp, const unsigned *pick, tried *t)
{
    char lines[MAX_KEYS][300];
    const char *set[MAX_KEYS];
    size_t n = 0;
    for (unsigned k = 0; k < sp->nkeys; k++) {
        t->pick[k] = pick[k];
        if (strcmp(sp->value[k][pick[k]], TRACED)) {
            snprintf(lines[n], sizeof lines[n], "%s=%s", sp->key[k], sp->value[k][pick[k]]);
            set[n] = lines[n];
            n++;
        }
    }
    if (!n) { /* the trace's own settings: the baseline, ratio 1 by definition */
        t->index = -1;
        t->ok = 1;
        t->ratio = 1;
        return 0;
    }
    t->index = prove_set(p, set, n);
    if (t->index < 0)
        return -1;
    prove_figures fig;
    t->ok = prove_figures_of(p, (size_t)t->index, &fig) == 0 && fig.applied == 1 && fig.median[0] > 0;
    t->ratio = t->ok ? fig.median[1] / fig.median[0] : 0;
    return 0;
}

/* The bytes the trace's calls moved, per layer (every depth: a replay moves
 * the same): the table's bandwidth columns. 0, or -1 after the reason. */
static int layer_bytes(const char *dir, int64_t bytes[REC_LAYER_COUNT])
{
    rec_error err;
    ra_trace *t = ra_trace_open(dir, &err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return -1;
    }
    ra_summary s;
    ra_summary_init(&s, t, 0);
    ra_progress pr;
    ra_progress_init(&pr, tool, 0);
    uint32_t n = ra_trace_nranks(t), *ranks = ra_xmalloc((n ? n : 1) * sizeof *ranks);
    for (uint32_t r = 0; r < n; r++)
        ranks[r] = r;
    int rc = ra_summary_walk(&s, ranks, n, &pr, &err);
    free(ranks);
    if (rc != 0)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    const rec_table *table = rec_trace_table(ra_trace_rec(t));
    memset(bytes, 0, REC_LAYER_COUNT * sizeof *bytes);
    for (size_t i = 0; rc == 0 && i < s.nrows; i++) {
        const rec_func_desc *f = rec_table_lookup(table, s.rows[i].func);
        if (f && f->layer < REC_LAYER_COUNT && s.rows[i].bytes > 0)
            bytes[f->layer] += s.rows[i].bytes;
    }
    ra_summary_free(&s);
    ra_trace_close(t);
    return rc;
}

static void print_rates(const int64_t bytes[REC_LAYER_COUNT], double seconds, FILE *out)
{
    for (unsigned i = 0; i < REC_LAYER_COUNT; i++) {
        unsigned layer = rec_layers_top_down[i];
        if (bytes[layer] && seconds > 0)
            fprintf(out, " %9.1f", (double)bytes[layer] / seconds / 1048576.0);
        else if (bytes[layer])
            fprintf(out, " %9s", "-");
    }
}

static void print_row(prove *p, const space *sp, const tried *t, unsigned n, const int64_t *bytes, FILE *out)
{
    prove_figures fig;
    int measured = t->index >= 0 && prove_figures_of(p, (size_t)t->index, &fig) == 0;
    fprintf(out, "%3u  ", n);
    if (t->index < 0)
        fprintf(out, "%6.3f  %-22s  %-22s  %-7s", 1.0, "the trace's settings", "-", "-");
    else if (measured)
        fprintf(out, "%6.3f  %7.3f (%.3f..%.3f)  %7.3f (%.3f..%.3f)  %-7s", fig.median[1] / fig.median[0],
                fig.median[1], fig.min[1], fig.max[1], fig.median[0], fig.min[0], fig.max[0],
                fig.applied == 1 ? "yes" : "no");
    else
        fprintf(out, "%6s  %-22s  %-22s  %-7s", "-", "failed", "-", "-");
    print_rates(bytes, measured ? fig.median[1] : 0, out);
    for (unsigned k = 0; k < sp->nkeys; k++)
        fprintf(out, " %s=%s", sp->key[k], sp->value[k][t->pick[k]]);
    fputc('\n', out);
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"space", required_argument, 0, 's'},   {"budget", required_argument, 0, 'b'},
        {"search", required_argument, 0, 'm'},  {"repeat", required_argument, 0, 'k'},
        {"np", required_argument, 0, 'n'},      {"mpirun", required_argument, 0, 'r'},
        {"scratch", required_argument, 0, 'd'}, {"best", required_argument, 0, 'o'},
        {"progress", no_argument, 0, 'p'},      {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *space_file = NULL, *search = NULL, *best_file = "recorder-tune.set";
    long budget = 16, repeat = 3, np = 0;
    prove_options o = {.tool = tool};
    int c;
    while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        long *count = c == 'b' ? &budget : c == 'k' ? &repeat : c == 'n' ? &np : NULL;
        if (count) {
            char *end;
            errno = 0;
            *count = strtol(optarg, &end, 10);
            if (errno || *end || !*optarg || *count < 1 || *count > 100000) {
                fprintf(stderr, "%s: --%s: %s: not a whole number from 1 to 100000\n", tool,
                        c == 'b' ? "budget" : c == 'k' ? "repeat" : "np", optarg);
                return 2;
            }
            continue;
        }
        switch (c) {
        case 's': space_file = optarg; break;
        case 'm': search = optarg; break;
        case 'r': o.mpirun = optarg; break;
        case 'd': o.scratch = optarg; break;
        case 'o': best_file = optarg; break;
        case 'p': o.progress = 1; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (optind + 1 != argc || !space_file) {
        fprintf(stderr, "%s: %s\n", tool, !space_file ? "--space FILE is needed" : "one TRACE_DIR is needed");
        usage(stderr);
        return 2;
    }
    if (search && strcmp(search, "grid") && strcmp(search, "coordinate")) {
        fprintf(stderr, "%s: --search: %s: not grid or coordinate\n", tool, search);
        return 2;
    }
    space sp;
    int rc = read_space(space_file, &sp);
    if (rc)
        return rc;
    unsigned long grid = 1;
    for (unsigned k = 0; k < sp.nkeys; k++)
        grid = grid * sp.nvalues[k] > 1000000 ? 1000001 : grid * sp.nvalues[k];
    int coordinate = search ? !strcmp(search, "coordinate") : grid > (unsigned long)budget;
    if (!coordinate && grid > (unsigned long)budget) {
        fprintf(stderr, "%s: the grid has %lu candidates, more than --budget %ld: raise it or --search coordinate\n",
                tool, grid, budget);
        return 2;
    }

    rec_error err;
    rec_trace *t = rec_trace_open(argv[optind], &err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    unsigned nranks = rec_trace_get_info(t)->nranks;
    rec_trace_close(t);
    int64_t bytes[REC_LAYER_COUNT];
    if (layer_bytes(argv[optind], bytes) != 0)
        return 1;
    o.trace = argv[optind];
    o.repeat = (unsigned)repeat;
    o.np = (unsigned)np;
    prove *p = prove_open(&o, nranks);
    if (!p)
        return 1;
    tried *done = calloc((size_t)budget, sizeof *done);
    unsigned n = 0, pick[MAX_KEYS] = {0}, best = 0;
    if (!coordinate) { /* every combination, the last key fastest */
        for (unsigned long g = 0; g < grid && rc == 0; g++, n++) {
            unsigned long rest = g;
            for (int k = (int)sp.nkeys - 1; k >= 0; k--) {
                pick[k] = (unsigned)(rest % sp.nvalues[k]);
                rest /= sp.nvalues[k];
            }
            rc = try_pick(p, &sp, pick, &done[n]);
        }
    } else { /* the first values, then each key's others with the rest at the best so far */
        rc = try_pick(p, &sp, pick, &done[n++]);
        for (unsigned k = 0; k < sp.nkeys && rc == 0 && n < budget; k++)
            for (unsigned v = 1; v < sp.nvalues[k] && rc == 0 && n < budget; v++) {
                memcpy(pick, done[best].pick, sizeof pick);
                pick[k] = v;
                rc = try_pick(p, &sp, pick, &done[n]);
                if (done[n].ok && (!done[best].ok || done[n].ratio < done[best].ratio))
                    best = n;
                n++;
            }
    }
    for (unsigned i = 0; i < n; i++)
        if (done[i].ok && (!done[best].ok || done[i].ratio < done[best].ratio))
            best = i;
    if (rc == 0) {
        printf("%s: %s at %u rank%s: %s search, %u candidate%s of %lu (budget %ld), %ld replay%s of each kind\n",
               tool, argv[optind], np ? (unsigned)np : nranks, (np ? np : nranks) == 1 ? "" : "s",
               coordinate ? "coordinate" : "grid", n, n == 1 ? "" : "s", grid, budget, repeat,
               repeat == 1 ? "" : "s");
        printf("  MiB/s: the trace's bytes per layer (");
        for (unsigned i = 0, any = 0; i < REC_LAYER_COUNT; i++)
            if (bytes[rec_layers_top_down[i]])
                printf("%s%s %lld", any++ ? ", " : "", rec_layer_name(rec_layers_top_down[i]),
                       (long long)bytes[rec_layers_top_down[i]]);
        printf(") over the tuned median\n");
        printf("  #   ratio  tuned s (min..max)      untuned s (min..max)    applied");
        for (unsigned i = 0; i < REC_LAYER_COUNT; i++)
            if (bytes[rec_layers_top_down[i]])
                printf(" %9.9s", rec_layer_name(rec_layers_top_down[i]));
        printf(" set\n");
        for (unsigned i = 0; i < n; i++)
            print_row(p, &sp, &done[i], i + 1, bytes, stdout);
    }
    int failed = 0;
    for (unsigned i = 0; i < n; i++)
        failed += !done[i].ok;
    if (rc == 0 && done[best].ok) {
        FILE *out = fopen(best_file, "w");
        for (unsigned k = 0; out && k < sp.nkeys; k++)
            if (strcmp(sp.value[k][done[best].pick[k]], TRACED))
                fprintf(out, "%s=%s\n", sp.key[k], sp.value[k][done[best].pick[k]]);
        if (!out || fclose(out) != 0) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", tool, best_file, strerror(errno));
            rc = 1;
        } else if (done[best].index < 0)
            printf("best: #%u, the trace's own settings (no candidate was faster): %s, empty\n", best + 1,
                   best_file);
        else
            printf("best: #%u, ratio %.3f (the tuned median over the untuned; under 1: faster): %s\n", best + 1,
                   done[best].ratio, best_file);
    } else if (rc == 0)
        printf("best: none: no candidate was measured and seen applied\n");
    for (unsigned i = 0; rc == 0 && i < n; i++)
        if (!done[i].ok && done[i].index >= 0) {
            printf("[%u]\n", i + 1);
            prove_print(p, (size_t)done[i].index, stdout);
        }
    free(done);
    prove_free(p);
    return rc ? 1 : failed ? 1 : 0;
}
