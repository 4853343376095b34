/* nc4_climate: a climate model's history file written through parallel
 * netCDF-4 (netCDF-C on parallel HDF5), the way WRF and E3SM's PIO write
 * their netCDF-4 output.
 *   mpiexec -np N nc4_climate OUTDIR
 * Writes OUTDIR/climate4.nc: nc_create_par (NC_NETCDF4|NC_CLOBBER,
 * MPI_COMM_WORLD, MPI_INFO_NULL); global attributes (text, int, double, strings);
 * dimensions time (unlimited), lev, lat (LAT_PER_RANK rows per rank), lon;
 * coordinates time, lat, lon, a fixed-size int mask(lat,lon), record
 * variables T, U (time,lev,lat,lon) and PS, Q (time,lat,lon), each with
 * units; T chunked one record of one rank's rows per chunk with a fill
 * value (nc_def_var_fill), PS with a _FillValue attribute. The record
 * variables and lat are collective (nc_var_par_access NC_COLLECTIVE), lon
 * and mask independent: rank 0 writes lon, every rank its block of mask.
 * Then NREC records, each rank its block of lat rows (nc_put_vara_float,
 * nc_put_vara_double; time from rank 0, an empty block from the others),
 * nc_sync after the second; at the end a history attribute added in
 * define mode again (nc_redef). netCDF's own parallel PnetCDF back end
 * (NC_PNETCDF) is left out: Debian's libnetcdf-mpi has none
 * (NC_HAS_PNETCDF 0). Same bytes on every run. */
#include "corpus.h"

#include <netcdf.h>
#include <netcdf_par.h>

enum { NREC = 4, LEV = 3, LAT_PER_RANK = 4, LON = 8 };

/* A netCDF call that must return NC_NOERR: names the call and netCDF's reason. */
static void nc_check(int err, const char *call, const char *file)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed%s%s: %s", call, file ? " on " : "", file ? file : "", nc_strerror(err));
}
#define NC(call) nc_check((call), #call, NULL)
#define NC_ON(file, call) nc_check((call), #call, (file)) /* a call that opens or creates file */

static double field(int var, int t, int k, int y, int x)
{
    return var * 1000.0 + t * 100.0 + k * 10.0 + y + x * 0.125;
}

struct vars {
    int time, lat, lon, mask, T, U, PS, Q;
};

static void define(int ncid, struct vars *v)
{
    const char *title = "recorder-kit corpus: nc4_climate history";
    NC(nc_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    const int member = 7;
    NC(nc_put_att_int(ncid, NC_GLOBAL, "ensemble_member", NC_INT, 1, &member));
    const double dt[2] = {1800.0, 0.5};
    NC(nc_put_att_double(ncid, NC_GLOBAL, "time_step", NC_DOUBLE, 2, dt));
    const char *sources[2] = {"atmosphere: corpus dynamics", "land: \"none\""};
    NC(nc_put_att_string(ncid, NC_GLOBAL, "sources", 2, sources));

    int time, lev, lat, lon;
    NC(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
    NC(nc_def_dim(ncid, "lev", LEV, &lev));
    NC(nc_def_dim(ncid, "lat", (size_t)LAT_PER_RANK * (size_t)corpus_size, &lat));
    NC(nc_def_dim(ncid, "lon", LON, &lon));
    NC(nc_def_var(ncid, "time", NC_DOUBLE, 1, &time, &v->time));
    NC(nc_def_var(ncid, "lat", NC_DOUBLE, 1, &lat, &v->lat));
    NC(nc_def_var(ncid, "lon", NC_DOUBLE, 1, &lon, &v->lon));
    const int plane[2] = {lat, lon}, surface[3] = {time, lat, lon}, volume[4] = {time, lev, lat, lon};
    NC(nc_def_var(ncid, "mask", NC_INT, 2, plane, &v->mask));
    NC(nc_def_var(ncid, "T", NC_FLOAT, 4, volume, &v->T));
    NC(nc_def_var(ncid, "U", NC_DOUBLE, 4, volume, &v->U));
    NC(nc_def_var(ncid, "PS", NC_FLOAT, 3, surface, &v->PS));
    NC(nc_def_var(ncid, "Q", NC_DOUBLE, 3, surface, &v->Q));

    const size_t chunk[4] = {1, LEV, LAT_PER_RANK, LON};
    NC(nc_def_var_chunking(ncid, v->T, NC_CHUNKED, chunk));
    const float fill = 9.96921e36f;
    NC(nc_def_var_fill(ncid, v->T, NC_FILL, &fill));
    NC(nc_put_att_float(ncid, v->PS, "_FillValue", NC_FLOAT, 1, &fill));
    const struct {
        int var;
        const char *units;
    } units[] = {{v->time, "days since 2000-01-01"},
                 {v->lat, "degrees_north"},
                 {v->lon, "degrees_east"},
                 {v->mask, "1"},
                 {v->T, "K"},
                 {v->U, "m/s"},
                 {v->PS, "Pa"},
                 {v->Q, "kg/kg"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        NC(nc_put_att_text(ncid, units[i].var, "units", strlen(units[i].units), units[i].units));
    NC(nc_put_att_text(ncid, v->T, "long_name", 11, "Temperature"));

    const int collective[] = {v->time, v->lat, v->T, v->U, v->PS, v->Q};
    for (size_t i = 0; i < sizeof collective / sizeof collective[0]; i++)
        NC(nc_var_par_access(ncid, collective[i], NC_COLLECTIVE));
    NC(nc_var_par_access(ncid, v->lon, NC_INDEPENDENT));
    NC(nc_var_par_access(ncid, v->mask, NC_INDEPENDENT));
    NC(nc_enddef(ncid));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "nc4_climate");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "climate4.nc");
    int ncid;
    NC_ON(path, nc_create_par(path, NC_NETCDF4 | NC_CLOBBER, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid));
    struct vars v;
    define(ncid, &v);

    const size_t y0 = (size_t)corpus_rank * LAT_PER_RANK;
    double lat[LAT_PER_RANK];
    for (int j = 0; j < LAT_PER_RANK; j++)
        lat[j] = -90.0 + 180.0 * ((double)y0 + j + 0.5) / (LAT_PER_RANK * corpus_size);
    const size_t start[2] = {y0, 0}, count[2] = {LAT_PER_RANK, LON};
    NC(nc_put_vara_double(ncid, v.lat, start, count, lat));
    if (corpus_rank == 0) {
        double lon[LON];
        for (int x = 0; x < LON; x++)
            lon[x] = 360.0 * x / LON;
        const size_t lon_start = 0, lon_count = LON;
        NC(nc_put_vara_double(ncid, v.lon, &lon_start, &lon_count, lon));
    }
    int mask[LAT_PER_RANK][LON];
    for (int j = 0; j < LAT_PER_RANK; j++)
        for (int x = 0; x < LON; x++)
            mask[j][x] = ((int)y0 + j + x) % 3 == 0;
    NC(nc_put_vara_int(ncid, v.mask, start, count, &mask[0][0]));

    static float T[LEV][LAT_PER_RANK][LON], PS[LAT_PER_RANK][LON];
    static double U[LEV][LAT_PER_RANK][LON], Q[LAT_PER_RANK][LON];
    for (int t = 0; t < NREC; t++) {
        const int y = (int)y0;
        for (int k = 0; k < LEV; k++)
            for (int j = 0; j < LAT_PER_RANK; j++)
                for (int x = 0; x < LON; x++) {
                    T[k][j][x] = (float)field(1, t, k, y + j, x);
                    U[k][j][x] = field(2, t, k, y + j, x);
                }
        for (int j = 0; j < LAT_PER_RANK; j++)
            for (int x = 0; x < LON; x++) {
                PS[j][x] = (float)field(4, t, 0, y + j, x);
                Q[j][x] = field(5, t, 0, y + j, x);
            }
        const size_t vstart[4] = {(size_t)t, 0, y0, 0}, vcount[4] = {1, LEV, LAT_PER_RANK, LON};
        const size_t sstart[3] = {(size_t)t, y0, 0}, scount[3] = {1, LAT_PER_RANK, LON};
        const size_t tstart = (size_t)t, tcount = corpus_rank == 0;
        const double day = t / 48.0;
        NC(nc_put_vara_double(ncid, v.time, &tstart, &tcount, &day));
        NC(nc_put_vara_float(ncid, v.T, vstart, vcount, &T[0][0][0]));
        NC(nc_put_vara_double(ncid, v.U, vstart, vcount, &U[0][0][0]));
        NC(nc_put_vara_float(ncid, v.PS, sstart, scount, &PS[0][0]));
        NC(nc_put_vara_double(ncid, v.Q, sstart, scount, &Q[0][0]));
        if (t == 1)
            NC(nc_sync(ncid));
    }
    size_t nrec;
    NC(nc_inq_dimlen(ncid, 0, &nrec));
    if (nrec != NREC)
        corpus_fail("%s: time has %zu records, expected %d", path, nrec, NREC);
    NC(nc_redef(ncid));
    const char *history = "written by nc4_climate";
    NC(nc_put_att_text(ncid, NC_GLOBAL, "history", strlen(history), history));
    NC(nc_enddef(ncid));
    NC(nc_close(ncid));
    return corpus_finish();
}
