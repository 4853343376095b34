/* ga_reductions: reductions of the program's own functions, as Global Arrays
 * (NWChem) makes them: MPI_Op_create with a commutative absolute maximum over
 * doubles (ga_dgop's "absmax") and a non-commutative "first non-zero" over
 * ints and doubles, MPI_Allreduce and MPI_Reduce with them on MPI_DOUBLE,
 * MPI_INT and a derived contiguous type (a block of 4 doubles), a second op of
 * the same function, each step's result written with MPI-IO and rank 0's log
 * with POSIX write, then MPI_Op_free. Every result is checked, so a tracer
 * that changed a reduction fails the run.
 *   mpiexec -np N ga_reductions OUTDIR
 * Three MPI_Op_create calls per rank, two distinct functions, and under MPI-4
 * an MPI_Op_create_c of a third. Built with
 * GA_UNTRACED_OPS (ga_reductions_untraced), it makes and frees them through
 * MPI's profiling entry points, as a library the tracer does not see would:
 * the trace has reductions whose making it does not know. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "corpus.h"

#ifdef GA_UNTRACED_OPS
#define OP_CREATE PMPI_Op_create
#define OP_CREATE_C PMPI_Op_create_c
#define OP_FREE PMPI_Op_free
#else
#define OP_CREATE MPI_Op_create
#define OP_CREATE_C MPI_Op_create_c
#define OP_FREE MPI_Op_free
#endif

enum { STEPS = 3, N = 8, BLOCK = 4 };

/* inout[i] = the larger magnitude, for MPI_DOUBLE or blocks of BLOCK doubles. */
static void absmax(void *in, void *inout, int *len, MPI_Datatype *type)
{
    int per = *type == MPI_DOUBLE ? 1 : BLOCK;
    const double *a = in;
    double *b = inout;
    for (int i = 0; i < *len * per; i++)
        if (fabs(a[i]) > fabs(b[i]))
            b[i] = fabs(a[i]);
        else
            b[i] = fabs(b[i]);
}

#if MPI_VERSION >= 4
/* absmax with MPI-4's large count, for MPI_Op_create_c. */
static void absmax_c(void *in, void *inout, MPI_Count *len, MPI_Datatype *type)
{
    int n = (int)*len;
    absmax(in, inout, &n, type);
}
#endif

/* inout[i] = in[i] unless it is zero: the lowest rank's non-zero value (MPI applies it in rank order). */
static void first_nonzero(void *in, void *inout, int *len, MPI_Datatype *type)
{
    if (*type == MPI_INT) {
        const int *a = in;
        int *b = inout;
        for (int i = 0; i < *len; i++)
            b[i] = a[i] ? a[i] : b[i];
    } else {
        const double *a = in;
        double *b = inout;
        for (int i = 0; i < *len; i++)
            b[i] = a[i] != 0 ? a[i] : b[i];
    }
}

static double value(int rank, int step, int i)
{
    return (rank % 2 ? -1.0 : 1.0) * (rank + 1) * (i + 1) + step;
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "ga_reductions");
    int rank = corpus_rank, size = corpus_size;
    MPI_Op absmax_op, first_op, absmax_again;
    MPI_CHECK(OP_CREATE(absmax, 1, &absmax_op));
    MPI_CHECK(OP_CREATE(first_nonzero, 0, &first_op));
    MPI_CHECK(OP_CREATE(absmax, 1, &absmax_again)); /* GA makes one per use: the same function */
#if MPI_VERSION >= 4
    MPI_Op absmax_large; /* a fourth, of a large-count function, where MPI has them */
    MPI_CHECK(OP_CREATE_C(absmax_c, 1, &absmax_large));
#else
    MPI_Op absmax_large = absmax_again;
#endif
    MPI_Datatype block;
    MPI_CHECK(MPI_Type_contiguous(BLOCK, MPI_DOUBLE, &block));
    MPI_CHECK(MPI_Type_commit(&block));

    char path[CORPUS_PATH_MAX];
    corpus_path(path, "reductions.dat");
    MPI_File fh;
    MPI_CHECK(MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    int log = -1;
    if (rank == 0) {
        corpus_path(path, "reductions.log");
        if ((log = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644)) < 0)
            corpus_fail("open %s: %s", path, strerror(errno));
    }
    double d[N], dmax[N], blocks[2 * BLOCK], bmax[2 * BLOCK], dfirst[N];
    int ints[N], ifirst[N];
    for (int step = 0; step < STEPS; step++) {
        for (int i = 0; i < N; i++) {
            d[i] = value(rank, step, i);
            ints[i] = rank == 0 && i % 2 ? 0 : (rank + 1) * 10 + i; /* rank 0's zeros come from rank 1 */
        }
        for (int i = 0; i < 2 * BLOCK; i++)
            blocks[i] = value(rank, step, i) * 0.5;
        MPI_CHECK(MPI_Allreduce(d, dmax, N, MPI_DOUBLE, absmax_op, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Allreduce(blocks, bmax, 2, block, absmax_op, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Reduce(ints, ifirst, N, MPI_INT, first_op, 0, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Reduce(d, dfirst, N, MPI_DOUBLE, first_op, 0, MPI_COMM_WORLD));
        MPI_CHECK(MPI_Allreduce(MPI_IN_PLACE, d, N, MPI_DOUBLE, absmax_again, MPI_COMM_WORLD));
        double large[N];
        MPI_CHECK(MPI_Allreduce(dmax, large, N, MPI_DOUBLE, absmax_large, MPI_COMM_WORLD));
        for (int i = 0; i < N; i++) {
            double want = 0;
            for (int r = 0; r < size; r++)
                want = fmax(want, fabs(value(r, step, i)));
            if (dmax[i] != want || d[i] != want || large[i] != want)
                corpus_fail("step %d: absmax[%d] is %g, %g and %g, not %g", step, i, dmax[i], d[i], large[i], want);
            if (i < 2 * BLOCK && bmax[i] != want * 0.5)
                corpus_fail("step %d: block absmax[%d] is %g, not %g", step, i, bmax[i], want * 0.5);
            int want_int = i % 2 && size > 1 ? 20 + i : 10 + i;
            if (rank == 0 && (ifirst[i] != want_int || dfirst[i] != value(0, step, i)))
                corpus_fail("step %d: first non-zero [%d] is %d and %g, not %d and %g", step, i, ifirst[i],
                            dfirst[i], want_int, value(0, step, i));
        }
        /* Each rank's share of the step's result, then rank 0's log line. */
        MPI_Offset at = ((MPI_Offset)step * size + rank) * (MPI_Offset)sizeof dmax;
        MPI_CHECK(MPI_File_write_at_all(fh, at, dmax, N, MPI_DOUBLE, MPI_STATUS_IGNORE));
        if (rank == 0) {
            char line[128];
            int n =
                snprintf(line, sizeof line, "step %d: absmax[0] %g first[1] %d\n", step, dmax[0], ifirst[1]);
            if (write(log, line, (size_t)n) != n)
                corpus_fail("write %s: %s", path, strerror(errno));
        }
    }
    MPI_CHECK(MPI_File_close(&fh));
    if (rank == 0 && close(log) != 0)
        corpus_fail("close %s: %s", path, strerror(errno));
    MPI_CHECK(MPI_Type_free(&block));
#if MPI_VERSION >= 4
    MPI_CHECK(OP_FREE(&absmax_large));
#endif
    MPI_CHECK(OP_FREE(&absmax_again));
    MPI_CHECK(OP_FREE(&first_op));
    MPI_CHECK(OP_FREE(&absmax_op));
    return corpus_finish();
}
