/* prove.h: recorder-advise --prove (docs/user/recorder-advise.md): for each
 * finding with a suggested set, the untuned replay of the trace and the
 * what-if replay under the set (recorder-replay --tune), alternated, K times
 * each at the traced rank count under mpirun, in a scratch output root
 * removed after; then one more tuned replay under the tracer, whose trace
 * recorder-diff --tuned checks against the original: the set applied, and
 * nothing else changed. Its lines go beside each finding of the report, in a
 * stable format that proved_read() reads back (recorder-report --prove). */
#ifndef RECORDER_ADVISE_PROVE_H
#define RECORDER_ADVISE_PROVE_H

#include "advise.h"

/* The labels of the lines --prove adds, as the report prints them. */
#define PROVE_HEADER "prove:"
#define PROVE_UNTUNED "untuned:"
#define PROVE_TUNED "tuned:"
#define PROVE_RATIO "ratio:"
#define PROVE_APPLIED "applied:"
#define PROVE_STDERR "stderr:"
#define PROVE_DIFF "diff:"

typedef struct prove_options {
    const char *trace;   /* the trace directory, as given */
    unsigned repeat;     /* replays of each kind per finding */
    unsigned np;         /* ranks; 0: the trace's */
    const char *mpirun;  /* the launcher, words split on blanks; NULL: MPIEXEC, or the build's MPI's */
    const char *scratch; /* where the scratch directory goes; NULL: TMPDIR, or /tmp */
    int progress;        /* a line on stderr per replay */
} prove_options;

typedef struct prove prove;

/* Runs every finding's replays. NULL after "recorder-advise: ...: reason"
 * when nothing could run (no scratch directory, no recorder-replay); a
 * replay that fails is a result, reported beside its finding. */
prove *prove_run(const advise *a, const prove_options *o);
/* The findings whose replays failed or whose tuned replay's trace did not
 * show the set applied. */
size_t prove_failed(const prove *p);
/* The hooks that print the results into advise_print's report. */
advise_print_hooks prove_hooks(prove *p);
void prove_free(prove *p);

/* ---- a --prove report read back ---- */
typedef struct proved_finding {
    char heading[1024];                                       /* "TITLE" or "TITLE: PATH", as after "[N] " */
    char untuned[512], tuned[512], ratio[256], applied[1024]; /* after the labels; "" if absent */
} proved_finding;

typedef struct proved {
    unsigned nranks;
    size_t n; /* findings */
    proved_finding *f;
} proved;

/* Reads a report of recorder-advise --prove: 0, or -1 with err saying why
 * (no such file, not a --prove report). */
int proved_read(const char *path, proved *out, char *err, size_t cap);
void proved_free(proved *p);

#endif
