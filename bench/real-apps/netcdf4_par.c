/* netcdf4_par: a netCDF-4 program written the way climate and weather
 * codes write and read through parallel netCDF (bench/real-apps/run.sh,
 * cases netcdf4-write and netcdf4-read; built by build.sh against Debian's
 * libnetcdf-mpi-dev, an Open MPI build).
 *   mpirun -np N netcdf4_par write FILE   dimensions time (unlimited), lat,
 *                                         lon; variables T(time, lat, lon)
 *                                         and P(time, lat, lon), blocks of
 *                                         rows per rank, collective access,
 *                                         3 records; global and variable
 *                                         attributes
 *   mpirun -np N netcdf4_par read FILE    opens a file the write made,
 *                                         reads each rank's block of every
 *                                         record back and checks it */
#include <mpi.h>
#include <netcdf.h>
#include <netcdf_par.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RECORDS = 3, LAT = 16, LON = 32 };

static int rank, nranks;

static void check(int status, const char *what)
{
    if (status != NC_NOERR) {
        fprintf(stderr, "netcdf4_par: rank %d: %s: %s\n", rank, what, nc_strerror(status));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static float value(int record, size_t lat, size_t lon, int var)
{
    return (float)(var * 1000 + record * 100) + (float)lat + (float)lon / 100.0f;
}

static void write_file(const char *path, size_t first, size_t rows)
{
    int ncid, dims[3], vars[2];
    check(nc_create_par(path, NC_NETCDF4 | NC_CLOBBER, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid), "nc_create_par");
    check(nc_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]), "nc_def_dim time");
    check(nc_def_dim(ncid, "lat", LAT, &dims[1]), "nc_def_dim lat");
    check(nc_def_dim(ncid, "lon", LON, &dims[2]), "nc_def_dim lon");
    const char *names[2] = {"T", "P"}, *units[2] = {"K", "Pa"};
    for (int v = 0; v < 2; v++) {
        check(nc_def_var(ncid, names[v], NC_FLOAT, 3, dims, &vars[v]), "nc_def_var");
        check(nc_put_att_text(ncid, vars[v], "units", strlen(units[v]), units[v]), "nc_put_att_text units");
        float range[2] = {0.0f, 5000.0f};
        check(nc_put_att_float(ncid, vars[v], "valid_range", NC_FLOAT, 2, range), "nc_put_att_float");
        check(nc_var_par_access(ncid, vars[v], NC_COLLECTIVE), "nc_var_par_access");
    }
    const char *title = "netcdf4_par: a block decomposition over ranks";
    check(nc_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title), "nc_put_att_text title");
    int ranks = nranks;
    check(nc_put_att_int(ncid, NC_GLOBAL, "ranks", NC_INT, 1, &ranks), "nc_put_att_int");
    check(nc_enddef(ncid), "nc_enddef");
    float *block = malloc(rows * LON * sizeof *block);
    for (int r = 0; r < RECORDS; r++)
        for (int v = 0; v < 2; v++) {
            for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < LON; j++)
                    block[i * LON + j] = value(r, first + i, j, v);
            size_t start[3] = {(size_t)r, first, 0}, count[3] = {1, rows, LON};
            check(nc_put_vara_float(ncid, vars[v], start, count, block), "nc_put_vara_float");
        }
    free(block);
    check(nc_close(ncid), "nc_close");
}

static void read_file(const char *path, size_t first, size_t rows)
{
    int ncid, vars[2];
    size_t records;
    check(nc_open_par(path, NC_NOWRITE, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid), "nc_open_par");
    int unlimited;
    check(nc_inq_unlimdim(ncid, &unlimited), "nc_inq_unlimdim");
    check(nc_inq_dimlen(ncid, unlimited, &records), "nc_inq_dimlen");
    check(nc_inq_varid(ncid, "T", &vars[0]), "nc_inq_varid T");
    check(nc_inq_varid(ncid, "P", &vars[1]), "nc_inq_varid P");
    float *block = malloc(rows * LON * sizeof *block);
    for (size_t r = 0; r < records; r++)
        for (int v = 0; v < 2; v++) {
            check(nc_var_par_access(ncid, vars[v], NC_COLLECTIVE), "nc_var_par_access");
            size_t start[3] = {r, first, 0}, count[3] = {1, rows, LON};
            check(nc_get_vara_float(ncid, vars[v], start, count, block), "nc_get_vara_float");
            for (size_t i = 0; i < rows; i++)
                for (size_t j = 0; j < LON; j++)
                    if (block[i * LON + j] != value((int)r, first + i, j, v)) {
                        fprintf(stderr, "netcdf4_par: rank %d: record %zu of variable %d differs at (%zu, %zu)\n",
                                rank, r, v, first + i, j);
                        MPI_Abort(MPI_COMM_WORLD, 1);
                    }
        }
    free(block);
    check(nc_close(ncid), "nc_close");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    if (argc != 3 || (strcmp(argv[1], "write") && strcmp(argv[1], "read"))) {
        if (rank == 0)
            fprintf(stderr, "usage: netcdf4_par write|read FILE\n");
        MPI_Finalize();
        return 2;
    }
    size_t rows = LAT / (size_t)nranks, first = (size_t)rank * rows;
    if (rank == nranks - 1)
        rows = LAT - first;
    if (!strcmp(argv[1], "write"))
        write_file(argv[2], first, rows);
    else
        read_file(argv[2], first, rows);
    MPI_Finalize();
    return 0;
}
