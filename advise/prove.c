/* prove.c: recorder-advise --prove, the what-if replays of the findings'
 * sets and their measured times (prove.h). Each replay is
 *   MPIRUN -np N [env LD_PRELOAD=... RECORDER_TRACES_DIR=...] recorder-replay
 *          [--tune SET] --prefix SCRATCH/out TRACE
 * run in the scratch directory with its output there; its time is its own
 * "time: replay" line (the traced MPI_Init to the slowest rank's last call),
 * so the launcher's start-up is no part of it. */
#define _GNU_SOURCE
#include "prove.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder_analysis.h"
#include "recorder_spawn.h"

static const char *tool = "recorder-advise";

enum { UNTUNED = 0, TUNED = 1, TAIL_LINES = 5, MAX_WORDS = 64 };
static const char *const kind_name[2] = {"untuned", "tuned"};

typedef struct proof {
    int has_set;
    double *times[2];
    unsigned n[2];
    int failed_kind; /* -1: none; UNTUNED, TUNED: that series failed */
    unsigned failed_at;
    char failure[256];          /* "replay 2 of 3 exited with status 1" */
    char tail[TAIL_LINES][256]; /* the failed replay's stderr, or recorder-diff's output */
    size_t ntail;
    int applied; /* 1 yes, 0 no, -1 not checked */
    char applied_text[1024];
} proof;

struct prove {
    const advise *a;
    prove_options o;
    char scratch[PATH_MAX];
    char trace[PATH_MAX];
    char replay[PATH_MAX], diff[PATH_MAX], tracer[PATH_MAX];
    const char *command; /* the launcher command ... */
    char *words;         /* ... split in place */
    char *launcher[MAX_WORDS];
    size_t nlauncher;
    const char *preload; /* RECORDER_ADVISE_PRELOAD: libraries every replay preloads */
    proof *f;
    size_t nf;
    unsigned runs, total;
    size_t failed; /* findings whose replays failed or whose set was not seen applied */
};

/* The last lines of a file, at most TAIL_LINES, into p's tail. */
static void keep_tail(proof *p, const char *path)
{
    p->ntail = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[256];
    size_t seen = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strchr(line, '\n') && !feof(f)) { /* a long line: keep its start */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
        line[strcspn(line, "\n")] = 0;
        snprintf(p->tail[seen++ % TAIL_LINES], sizeof p->tail[0], "%s", line);
    }
    fclose(f);
    size_t n = seen < TAIL_LINES ? seen : TAIL_LINES;
    char keep[TAIL_LINES][256];
    for (size_t i = 0; i < n; i++)
        memcpy(keep[i], p->tail[(seen - n + i) % TAIL_LINES], sizeof keep[i]);
    memcpy(p->tail, keep, n * sizeof keep[0]);
    p->ntail = n;
}

static int locate(prove *p)
{
    static const char *const replay[] = {"recorder-replay", "../replayer/recorder-replay"};
    static const char *const diff[] = {"recorder-diff", "../analysis/recorder-diff"};
    if (rs_beside(p->replay, sizeof p->replay, replay, 2) != 0) {
        fprintf(stderr, "%s: --prove: recorder-replay is neither beside this program nor in its build tree\n",
                tool);
        return -1;
    }
    if (rs_beside(p->diff, sizeof p->diff, diff, 2) != 0) {
        fprintf(stderr, "%s: --prove: recorder-diff is neither beside this program nor in its build tree\n",
                tool);
        return -1;
    }
    if (rs_tracer(p->tracer, sizeof p->tracer) != 0) {
        fprintf(stderr, "%s: --prove: %s: the tracer is not readable (set RECORDER_LIB to librecorder.so)\n",
                tool, p->tracer);
        return -1;
    }
    return 0;
}

/* The launcher: --mpirun, MPIEXEC, or the build's MPI's mpiexec. */
static int split_launcher(prove *p)
{
    const char *cmd = p->o.mpirun;
    if (!cmd || !*cmd)
        cmd = getenv("MPIEXEC");
    if (!cmd || !*cmd)
        cmd = RECORDER_ADVISE_MPIEXEC;
    p->words = ra_xmalloc(strlen(cmd) + 1);
    strcpy(p->words, cmd);
    p->command = cmd;
    for (char *w = strtok(p->words, " \t"); w; w = strtok(NULL, " \t")) {
        if (p->nlauncher == MAX_WORDS) {
            fprintf(stderr, "%s: --mpirun: more than %d words: %s\n", tool, MAX_WORDS, cmd);
            return -1;
        }
        p->launcher[p->nlauncher++] = w;
    }
    if (!p->nlauncher) {
        fprintf(stderr, "%s: --mpirun: no command\n", tool);
        return -1;
    }
    return 0;
}

/* One replay: 0 with its time in *seconds, or the exit status (the proof
 * says which replay failed, as what, and keeps its stderr). traced: under
 * the tracer, its trace in SCRATCH/trace. */
static int replay_once(prove *p, proof *f, const char *set, int traced, double *seconds, const char *what,
                       const char *progress)
{
    char np[16], preload[2 * PATH_MAX + 32], traces[PATH_MAX + 32], prefix[PATH_MAX + 8], out[PATH_MAX + 16],
        err[PATH_MAX + 16];
    snprintf(np, sizeof np, "%u", p->o.np);
    snprintf(prefix, sizeof prefix, "%s/out", p->scratch);
    snprintf(out, sizeof out, "%s/replay.out", p->scratch);
    snprintf(err, sizeof err, "%s/replay.err", p->scratch);
    char *argv[MAX_WORDS + 16]; /* the launcher's words and at most 13 more */
    size_t n = 0;
    for (size_t i = 0; i < p->nlauncher; i++)
        argv[n++] = p->launcher[i];
    argv[n++] = "-np";
    argv[n++] = np;
    const char *lib = traced ? p->tracer : NULL;
    if (lib || p->preload) {
        argv[n++] = "env";
        snprintf(preload, sizeof preload, "LD_PRELOAD=%s%s%s", p->preload ? p->preload : "",
                 p->preload && lib ? ":" : "", lib ? lib : "");
        argv[n++] = preload;
    }
    if (traced) {
        snprintf(traces, sizeof traces, "RECORDER_TRACES_DIR=%s/trace", p->scratch);
        argv[n++] = traces;
    }
    argv[n++] = p->replay;
    if (set) {
        argv[n++] = "--tune";
        argv[n++] = (char *)set;
    }
    argv[n++] = "--prefix";
    argv[n++] = prefix;
    argv[n++] = p->trace;
    argv[n] = NULL;
    if (p->o.progress)
        fprintf(stderr, "%s: --prove: replay %u of %u: %s\n", tool, ++p->runs, p->total, progress);
    int status = rs_run(tool, argv, p->scratch, out, err);
    rs_remove_tree(prefix);
    if (status == 0) {
        FILE *in = fopen(out, "r");
        char line[512];
        int timed = 0;
        while (in && fgets(line, sizeof line, in)) {
            const char *at = strstr(line, "  time: replay ");
            if (at && sscanf(at, "  time: replay %lf s", seconds) == 1)
                timed = 1;
            if (traced && strstr(line, ": not applied: ")) { /* "    KEY=VALUE: not applied: ..." */
                line[strcspn(line, "\n")] = 0;
                size_t used = strlen(f->applied_text);
                snprintf(f->applied_text + used, sizeof f->applied_text - used, "%s%s",
                         used ? "; " : "no: ", line + strspn(line, " "));
            }
        }
        if (in)
            fclose(in);
        if (timed || traced)
            return 0;
        snprintf(f->failure, sizeof f->failure, "%s: no \"time: replay\" line in its output", what);
        snprintf(err, sizeof err, "%s/replay.out", p->scratch);
        status = -2;
    } else if (status < 0)
        snprintf(f->failure, sizeof f->failure, "%s: cannot start %s: %s", what, argv[0], strerror(errno));
    else
        snprintf(f->failure, sizeof f->failure, "%s exited with status %d", what, status);
    keep_tail(f, err);
    return status;
}

/* The traced tuned replay, and recorder-diff --tuned on its trace. */
static void check_applied(prove *p, proof *f, const char *set)
{
    char trace[PATH_MAX + 8], out[PATH_MAX + 16];
    snprintf(trace, sizeof trace, "%s/trace", p->scratch);
    snprintf(out, sizeof out, "%s/diff.out", p->scratch);
    double ignored;
    f->applied_text[0] = 0;
    char progress[64];
    snprintf(progress, sizeof progress, "[%zu] the traced tuned replay", (size_t)(f - p->f) + 1);
    if (replay_once(p, f, set, 1, &ignored, "the traced tuned replay", progress) != 0) {
        f->failed_kind = TUNED;
        rs_remove_tree(trace);
        return;
    }
    struct stat st;
    if (stat(trace, &st) != 0) {
        f->applied = 0;
        snprintf(f->applied_text, sizeof f->applied_text,
                 "no: the traced tuned replay left no trace (is %s the tracer? RECORDER_LIB names it)",
                 p->tracer);
        return;
    }
    char *argv[] = {p->diff, "--tuned", (char *)set, p->trace, trace, NULL};
    int status = rs_run(tool, argv, p->scratch, out, NULL);
    rs_remove_tree(trace);
    if (status == 0 && !f->applied_text[0]) {
        f->applied = 1;
        snprintf(
            f->applied_text, sizeof f->applied_text,
            "yes: recorder-diff --tuned: the traced tuned replay differs from the trace by the set alone");
        return;
    }
    f->applied = 0;
    if (status != 0) {
        size_t used = strlen(f->applied_text);
        snprintf(f->applied_text + used, sizeof f->applied_text - used,
                 "%srecorder-diff --tuned exited with status %d", used ? "; " : "no: ", status);
        keep_tail(f, out);
    }
}

static int write_set(const advise_view *v, const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "%s: %s: cannot create: %s\n", tool, path, strerror(errno));
        return -1;
    }
    for (size_t j = 0; j < v->nset; j++)
        fprintf(out, "%s\n", v->set[j]);
    if (fclose(out) != 0) {
        fprintf(stderr, "%s: %s: write failed: %s\n", tool, path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Finding i: the two series alternated, the order of each pair swapped
 * from one repeat to the next, then the check. 0, or -1 on an error of
 * this program's own (the set file). */
static int prove_finding(prove *p, size_t i)
{
    proof *f = &p->f[i];
    advise_view v;
    advise_view_at(p->a, i, &v);
    char set[PATH_MAX + 16];
    snprintf(set, sizeof set, "%s/set-%zu.txt", p->scratch, i + 1);
    if (write_set(&v, set) != 0)
        return -1;
    for (unsigned r = 0; r < p->o.repeat && f->failed_kind < 0; r++)
        for (int k = 0; k < 2 && f->failed_kind < 0; k++) {
            int kind = (int)((r + (unsigned)k) % 2);
            char what[64], progress[96];
            snprintf(what, sizeof what, "replay %u of %u", r + 1, p->o.repeat);
            snprintf(progress, sizeof progress, "[%zu] %s %s", i + 1, kind_name[kind], what);
            double t = 0;
            if (replay_once(p, f, kind == TUNED ? set : NULL, 0, &t, what, progress) != 0) {
                f->failed_kind = kind;
                f->failed_at = r + 1;
            } else
                f->times[kind][f->n[kind]++] = t;
        }
    if (f->failed_kind < 0)
        check_applied(p, f, set);
    if (f->failed_kind >= 0 || f->applied != 1)
        p->failed++;
    return 0;
}

prove *prove_run(const advise *a, const prove_options *o)
{
    prove *p = ra_xcalloc(1, sizeof *p);
    p->a = a;
    p->o = *o;
    if (!p->o.np)
        p->o.np = advise_nranks(a);
    const char *pre = getenv("RECORDER_ADVISE_PRELOAD");
    p->preload = pre && *pre ? pre : NULL;
    p->nf = advise_count(a);
    p->f = ra_xcalloc(p->nf ? p->nf : 1, sizeof *p->f);
    for (size_t i = 0; i < p->nf; i++) {
        advise_view v;
        advise_view_at(a, i, &v);
        p->f[i].has_set = v.nset > 0;
        p->f[i].failed_kind = -1;
        p->f[i].applied = -1;
        for (int k = 0; k < 2; k++)
            p->f[i].times[k] = ra_xcalloc(o->repeat, sizeof(double));
        if (v.nset)
            p->total += 2 * o->repeat + 1;
    }
    if (!realpath(o->trace, p->trace)) {
        fprintf(stderr, "%s: %s: %s\n", tool, o->trace, strerror(errno));
        prove_free(p);
        return NULL;
    }
    if (split_launcher(p) != 0 || locate(p) != 0) {
        prove_free(p);
        return NULL;
    }
    const char *tmp = o->scratch ? o->scratch : getenv("TMPDIR");
    char base[PATH_MAX];
    snprintf(p->scratch, sizeof p->scratch, "%s/recorder-advise.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(p->scratch)) {
        fprintf(stderr, "%s: %s: cannot make a scratch directory: %s\n", tool, p->scratch, strerror(errno));
        p->scratch[0] = 0;
        prove_free(p);
        return NULL;
    }
    if (realpath(p->scratch, base)) /* the replays run in it */
        snprintf(p->scratch, sizeof p->scratch, "%s", base);
    int rc = 0;
    for (size_t i = 0; i < p->nf && rc == 0; i++)
        if (p->f[i].has_set)
            rc = prove_finding(p, i);
    rs_remove_tree(p->scratch);
    p->scratch[0] = 0;
    if (rc != 0) {
        prove_free(p);
        return NULL;
    }
    return p;
}

size_t prove_failed(const prove *p)
{
    return p->failed;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *t, unsigned n)
{
    qsort(t, n, sizeof *t, by_value);
    return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static void print_header(void *ctx, FILE *out)
{
    prove *p = ctx;
    if (!p->total) {
        fprintf(out, "%s no finding with a set: nothing to replay\n", PROVE_HEADER);
        return;
    }
    fprintf(out,
            "%s %u untuned and %u tuned replay%s of each finding's set, alternated, at %u rank%s under %s; "
            "each replay's own time\n",
            PROVE_HEADER, p->o.repeat, p->o.repeat, p->o.repeat == 1 ? "" : "s", p->o.np,
            p->o.np == 1 ? "" : "s", p->command);
}

static void print_tail(const proof *f, const char *label, FILE *out)
{
    for (size_t j = 0; j < f->ntail; j++)
        fprintf(out, "    %-10s %s\n", label, f->tail[j]);
}

static void print_proof(void *ctx, size_t i, FILE *out)
{
    prove *p = ctx;
    proof *f = &p->f[i];
    if (!f->has_set)
        return;
    double med[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        const char *label = k == UNTUNED ? PROVE_UNTUNED : PROVE_TUNED;
        if (f->failed_kind == k && f->failed_at) {
            fprintf(out, "    %-10s failed: %s\n", label, f->failure);
            print_tail(f, PROVE_STDERR, out);
        } else if (!f->n[k])
            fprintf(out, "    %-10s not measured: a replay failed\n", label);
        else {
            med[k] = median(f->times[k], f->n[k]);
            fprintf(out, "    %-10s median %.3f s, min..max %.3f..%.3f s, %u replay%s\n", label, med[k],
                    f->times[k][0], f->times[k][f->n[k] - 1], f->n[k], f->n[k] == 1 ? "" : "s");
        }
    }
    if (f->failed_kind >= 0 && f->failed_at)
        fprintf(out, "    %-10s none: a replay failed\n", PROVE_RATIO);
    else if (med[UNTUNED] > 0)
        fprintf(out, "    %-10s %.3f (the tuned median over the untuned; under 1: faster)\n", PROVE_RATIO,
                med[TUNED] / med[UNTUNED]);
    else
        fprintf(out, "    %-10s none: the untuned median is 0 s\n", PROVE_RATIO);
    if (f->failed_kind >= 0 && f->failed_at)
        fprintf(out, "    %-10s not checked: a replay failed\n", PROVE_APPLIED);
    else if (f->failed_kind >= 0) {
        fprintf(out, "    %-10s not checked: %s\n", PROVE_APPLIED, f->failure);
        print_tail(f, PROVE_STDERR, out);
    } else {
        fprintf(out, "    %-10s %s\n", PROVE_APPLIED, f->applied_text);
        if (f->applied != 1)
            print_tail(f, PROVE_DIFF, out);
    }
}

advise_print_hooks prove_hooks(prove *p)
{
    return (advise_print_hooks){print_header, print_proof, p};
}

void prove_free(prove *p)
{
    if (!p)
        return;
    if (p->scratch[0])
        rs_remove_tree(p->scratch);
    for (size_t i = 0; i < p->nf; i++)
        for (int k = 0; k < 2; k++)
            free(p->f[i].times[k]);
    free(p->f);
    free(p->words);
    free(p);
}
