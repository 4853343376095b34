/* pnc_threads: PnetCDF called from threads of the program's own, as
 * PnetCDF's pthread example and ensemble codes that run one member a thread
 * do.
 *   mpiexec -np N pnc_threads OUTDIR
 * MPI_THREAD_MULTIPLE. Each rank starts THREADS threads; thread t of rank r
 * (id = r * THREADS + t) creates OUTDIR/member.<id>.nc on MPI_COMM_SELF
 * (CDF-2, an MPI_Info hint), defines time (unlimited) and x, a record
 * variable field(time, x) and a fixed-size grid(y, x), with attributes,
 * writes records 0 and 2 of field (ncmpi_put_vara_int_all) and all of grid
 * (ncmpi_put_var_double_all) and closes it. Thread 0 of each rank then
 * joins an MPI_Barrier; the threads meet at a pthread barrier, and each
 * opens the file of the next id (across ranks), reads its first record and
 * grid back and checks them. */
#include "corpus_threads.h"

#include <pnetcdf.h>

enum { THREADS = 3, NX = 6, NY = 4 };

static pthread_barrier_t written;

/* A PnetCDF built without thread safety (Debian's) keeps its open files in a list of its own that
 * concurrent creates, opens and closes would corrupt: the threads take turns in it, as a program
 * must (the mutex is not traced; kernels and replays take turns of their own). */
static pthread_mutex_t library_turn = PTHREAD_MUTEX_INITIALIZER;

static int take_turn(void)
{
#if !(defined(PNETCDF_THREAD_SAFE) && PNETCDF_THREAD_SAFE)
    pthread_mutex_lock(&library_turn);
#endif
    return 0;
}

static int give_turn(int err)
{
#if !(defined(PNETCDF_THREAD_SAFE) && PNETCDF_THREAD_SAFE)
    pthread_mutex_unlock(&library_turn);
#endif
    return err;
}

static void pnc_check(int err, const char *call, const char *file)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed on %s: %s", call, file, ncmpi_strerror(err));
}
#define PNC(call) pnc_check((take_turn(), give_turn(call)), #call, path)

static void *member(void *arg)
{
    int id = (int)(intptr_t)arg, ncid, dims[2], field, grid;
    char path[CORPUS_PATH_MAX];
    int ibuf[NX], iback[NX];
    double dbuf[NY * NX], dback[NY * NX];
    for (int x = 0; x < NX; x++)
        ibuf[x] = id * 100 + x;
    for (int k = 0; k < NY * NX; k++)
        dbuf[k] = id + k * 0.5;
    corpus_path(path, "member.%d.nc", id);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "nc_var_align_size", "1");
    PNC(ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_OFFSET, info, &ncid));
    MPI_Info_free(&info);
    PNC(ncmpi_put_att_int(ncid, NC_GLOBAL, "member", NC_INT, 1, &id));
    PNC(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]));
    PNC(ncmpi_def_dim(ncid, "x", NX, &dims[1]));
    PNC(ncmpi_def_var(ncid, "field", NC_INT, 2, dims, &field));
    PNC(ncmpi_put_att_text(ncid, field, "units", 1, "K"));
    PNC(ncmpi_def_dim(ncid, "y", NY, &dims[0]));
    PNC(ncmpi_def_var(ncid, "grid", NC_DOUBLE, 2, dims, &grid));
    PNC(ncmpi_enddef(ncid));
    MPI_Offset start[2] = {0, 0}, count[2] = {1, NX};
    PNC(ncmpi_put_vara_int_all(ncid, field, start, count, ibuf));
    start[0] = 2;
    PNC(ncmpi_put_vara_int_all(ncid, field, start, count, ibuf));
    PNC(ncmpi_put_var_double_all(ncid, grid, dbuf));
    PNC(ncmpi_close(ncid));
    if (id % THREADS == 0)
        MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank's members are written */
    corpus_barrier_wait(&written);
    int next = (id + 1) % (corpus_size * THREADS);
    corpus_path(path, "member.%d.nc", next);
    PNC(ncmpi_open(MPI_COMM_SELF, path, NC_NOWRITE, MPI_INFO_NULL, &ncid));
    PNC(ncmpi_inq_varid(ncid, "field", &field));
    PNC(ncmpi_inq_varid(ncid, "grid", &grid));
    start[0] = 0;
    PNC(ncmpi_get_vara_int_all(ncid, field, start, count, iback));
    PNC(ncmpi_get_var_double_all(ncid, grid, dback));
    PNC(ncmpi_close(ncid));
    for (int x = 0; x < NX; x++)
        if (iback[x] != next * 100 + x)
            corpus_fail("%s: field[0][%d] is %d, not what member %d wrote", path, x, iback[x], next);
    for (int k = 0; k < NY * NX; k++)
        if (dback[k] != next + k * 0.5)
            corpus_fail("%s: grid[%d] is %g, not what member %d wrote", path, k, dback[k], next);
    return NULL;
}

int main(int argc, char **argv)
{
    corpus_init_thread(&argc, &argv, "pnc_threads", MPI_THREAD_MULTIPLE);
    corpus_run_threads(THREADS, member, &written);
    return corpus_finish();
}
