/* corpus.h: the little the corpus programs share. Each program imitates how a
 * real application calls the I/O libraries; these helpers only do what every
 * one of them needs around that: the OUTDIR argument, failure messages that
 * name the program, the rank, the call and the reason, and paths under OUTDIR.
 *   mpiexec -np N <program> OUTDIR
 * (OUTDIR last, as run_kernel.sh passes it; rank 0 creates it with mkdir, as
 * mdtest and IOR create their test directory.) */
#ifndef CORPUS_H
#define CORPUS_H

#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { CORPUS_PATH_MAX = 4096 };

static const char *corpus_name = "corpus";
static int corpus_rank, corpus_size;
static const char *corpus_outdir;

/* "<program>: rank <r>: <message>" on stderr, then MPI_Abort. */
static inline _Noreturn __attribute__((format(printf, 1, 2))) void corpus_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: rank %d: ", corpus_name, corpus_rank);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* An MPI call that must return MPI_SUCCESS: names the call and MPI's reason. */
static inline void corpus_mpi_check(int err, const char *call)
{
    if (err != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(err, text, &len);
        corpus_fail("%s failed: %s", call, text);
    }
}
#define MPI_CHECK(call) corpus_mpi_check((call), #call)

/* MPI_Init, the OUTDIR argument, and OUTDIR itself (rank 0, mkdir). MPI-IO
 * calls return errors instead of aborting (MPI_File_set_errhandler default),
 * so MPI_CHECK reports them. */
static inline void corpus_start(int *argc, char ***argv, const char *name)
{
    corpus_name = name;
    MPI_Comm_rank(MPI_COMM_WORLD, &corpus_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &corpus_size);
    if (*argc != 2) {
        if (corpus_rank == 0)
            fprintf(stderr, "usage: %s OUTDIR\n", name);
        MPI_Finalize();
        exit(2);
    }
    corpus_outdir = (*argv)[1];
    if (corpus_rank == 0 && mkdir(corpus_outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", corpus_outdir, strerror(errno));
    MPI_Barrier(MPI_COMM_WORLD);
}

static inline void corpus_init(int *argc, char ***argv, const char *name)
{
    MPI_Init(argc, argv);
    corpus_start(argc, argv, name);
}

/* corpus_init with MPI_Init_thread at the level required, which MPI must give. */
static inline void corpus_init_thread(int *argc, char ***argv, const char *name, int required)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(argc, argv, required, &provided);
    corpus_start(argc, argv, name);
    if (provided < required)
        corpus_fail("MPI gives thread level %d, not %d", provided, required);
}

/* "<program> --setup OUTDIR": rank 0 makes what must exist before the
 * traced run (kernels/run_kernel.sh runs it without the tracer); 1 when
 * this was that run (MPI is finalized), 0 otherwise. */
static inline int corpus_setup(int *argc, char ***argv, void (*make)(const char *outdir))
{
    if (*argc != 3 || strcmp((*argv)[1], "--setup") != 0)
        return 0;
    MPI_Init(argc, argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        make((*argv)[2]);
    MPI_Finalize();
    return 1;
}

/* "<OUTDIR>/<formatted name>" into buf (CORPUS_PATH_MAX bytes). */
static inline __attribute__((format(printf, 2, 3))) void corpus_path(char *buf, const char *fmt, ...)
{
    char name[CORPUS_PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (snprintf(buf, CORPUS_PATH_MAX, "%s/%s", corpus_outdir, name) >= CORPUS_PATH_MAX)
        corpus_fail("path %s/%s is too long", corpus_outdir, name);
}

/* The success line and MPI_Finalize; the exit status. */
static inline int corpus_finish(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (corpus_rank == 0)
        printf("%s: OK: %d ranks\n", corpus_name, corpus_size);
    MPI_Finalize();
    return 0;
}

#endif
