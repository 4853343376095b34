/* recorder_codegen.h: recorder-codegen, a trace -> a compact SPMD C I/O
 * kernel (section III-C of "Automatic Generation of I/O Kernels for HPC
 * Applications"). The kernel makes, rank by rank, the top-level I/O calls of
 * the traced application with the same arguments,
 * re-rooted under its output directory (with rec_codegen_options.layer, the
 * calls of a layer beneath, the layers above looked through):
 *   recorder-codegen TRACE_DIR > kernel.c
 *   h5pcc -shlib kernel.c -o kernel && mpirun -np N ./kernel [OUTDIR]
 * A per-rank trace is merged first (in a scratch directory). */
#ifndef RECORDER_CODEGEN_H
#define RECORDER_CODEGEN_H

#include "recorder_format.h"

/* Elastic kernels: how the largest run's values depend on the rank, for the others. */
typedef struct rec_codegen_hints rec_codegen_hints;

#define REC_CODEGEN_TOP (-1)

typedef struct rec_codegen_options {
    int loops;             /* fold repeated call sequences into loops (default 1) */
    unsigned window;       /* the merge window when the trace must be merged (0: the merger's default) */
    const char *templates; /* a directory of .tmpl files replacing the built-in ones (NULL: built in) */
    const char *program;   /* the kernel's name in its messages (default "kernel") */
    int elastic;           /* for rec_codegen_elastic: no rank-count check, literal block strides */
    const char *root;      /* elastic: the ROOT directory to use ("": none; NULL: the kernel chooses) */
    rec_codegen_hints *hints; /* elastic: recorded by the largest run, followed by the others */
    unsigned long long max_values; /* per-rank values the model may hold, 8 bytes each (0: a quarter of
                                      the memory's worth); past it, an error instead of exhausting memory */
    int layer; /* REC_CODEGEN_TOP (the default): the calls the application made; a REC_LAYER_*: the calls
                  at that layer or below and MPI's that no such call made (the layers above looked through) */
} rec_codegen_options;

void rec_codegen_options_init(rec_codegen_options *o);
/* Generates the kernel for the trace in trace_dir: 0 and *kernel (malloc'd
 * C source), or -1 with err naming the file and the reason. */
int rec_codegen(const char *trace_dir, const rec_codegen_options *o, char **kernel, rec_error *err);

/* One kernel that runs at any number of ranks, from traces of one application
 * at 3 to 16 different rank counts (recorder-codegen --elastic): the traces'
 * kernels must agree but for integer literals, each of which is modelled
 * exactly in the rank count (a + b*n, n/k, a + k/n, a grid dimension).
 * -1 with err naming the value no model fits. */
int rec_codegen_elastic(const char *const *trace_dirs, unsigned ntraces, const rec_codegen_options *o, char **kernel,
                        rec_error *err);

#endif
