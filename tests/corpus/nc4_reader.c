/* nc4_reader: a post-processing step that reads a netCDF-4 file made
 * before the run in parallel (nc_open_par), learning its layout from the
 * file, and writes a small netCDF-4 file of derived values.
 *   mpiexec -np N nc4_reader --setup OUTDIR   (untraced, run_kernel.sh runs it first)
 *     rank 0 writes OUTDIR/in.nc (netCDF-4) alone: global attributes title
 *     (text), institution (string) and version (int); dimensions time
 *     (unlimited, NREC records), y (ROWS_PER_RANK rows per rank of the
 *     run), x; variables time(time) int, elev(y,x) double and
 *     temp(time,y,x) float (units, scale_factor; chunked by rows); a group
 *     meta holding station(x) int. And OUTDIR/grid.nc, a classic file
 *     (CDF-2, NC_64BIT_OFFSET, serial netCDF-3): dimension x, variable
 *     lon(x) float with units, a global attribute grid.
 *   mpiexec -np N nc4_reader OUTDIR   (traced) every rank opens in.nc with
 *     nc_open_par (NC_NOWRITE), finds its dimensions, variables, attributes
 *     and group by name (nc_inq, nc_inq_dimid, nc_inq_dimlen, nc_inq_varid,
 *     nc_inq_var, nc_inq_attlen, nc_get_att_text, nc_get_att_float,
 *     nc_get_att_string, nc_inq_grp_ncid), reads its block of y rows of
 *     temp record by record and of elev collectively (nc_var_par_access
 *     NC_COLLECTIVE, nc_get_vara_float, nc_get_vara_double), time and
 *     meta/station independently, checking every value; each rank reads
 *     grid.nc's lon whole with serial netCDF (nc_open, nc_get_var_float),
 *     as codes read a static grid file; then writes
 *     OUTDIR/out.nc (nc_create_par, netCDF-4): the scaled mean of temp over
 *     the records, (y,x) float, collectively. */
#include "corpus.h"

#include <netcdf.h>
#include <netcdf_par.h>

enum { NREC = 3, ROWS_PER_RANK = 5, COLS = 6 };

static void nc_check(int err, const char *call, const char *file)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed%s%s: %s", call, file ? " on " : "", file ? file : "", nc_strerror(err));
}
#define NC(call) nc_check((call), #call, NULL)
#define NC_ON(file, call) nc_check((call), #call, (file)) /* a call that opens or creates file */

static const char title[] = "recorder-kit corpus: nc4_reader input";
static const char *institution = "recorder-kit";
static const float scale = 0.5f;

static float temp_value(int t, int y, int x)
{
    return (float)(200 + t * 10 + y + x * 0.25);
}

static double elev_value(int y, int x)
{
    return y * 100.0 - x * 3.0;
}

static void make_input(const char *outdir)
{
    char path[CORPUS_PATH_MAX];
    corpus_name = "nc4_reader-setup", corpus_outdir = outdir;
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    corpus_path(path, "in.nc");
    int nranks, ncid, meta, dims[3], time, elev, temp, station;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const int rows = ROWS_PER_RANK * nranks;
    NC_ON(path, nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid));
    NC(nc_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    NC(nc_put_att_string(ncid, NC_GLOBAL, "institution", 1, &institution));
    const int version = 4;
    NC(nc_put_att_int(ncid, NC_GLOBAL, "version", NC_INT, 1, &version));
    NC(nc_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]));
    NC(nc_def_dim(ncid, "y", (size_t)rows, &dims[1]));
    NC(nc_def_dim(ncid, "x", COLS, &dims[2]));
    NC(nc_def_var(ncid, "time", NC_INT, 1, &dims[0], &time));
    NC(nc_def_var(ncid, "elev", NC_DOUBLE, 2, &dims[1], &elev));
    NC(nc_def_var(ncid, "temp", NC_FLOAT, 3, dims, &temp));
    const size_t chunk[3] = {1, ROWS_PER_RANK, COLS};
    NC(nc_def_var_chunking(ncid, temp, NC_CHUNKED, chunk));
    NC(nc_put_att_text(ncid, temp, "units", 1, "K"));
    NC(nc_put_att_float(ncid, temp, "scale_factor", NC_FLOAT, 1, &scale));
    NC(nc_def_grp(ncid, "meta", &meta));
    NC(nc_def_var(meta, "station", NC_INT, 1, &dims[2], &station));
    NC(nc_enddef(ncid));
    double *heights = malloc(sizeof *heights * (size_t)rows * COLS);
    float *temps = malloc(sizeof *temps * (size_t)rows * COLS);
    if (!heights || !temps)
        corpus_fail("out of memory");
    for (int k = 0; k < rows * COLS; k++)
        heights[k] = elev_value(k / COLS, k % COLS);
    NC(nc_put_var_double(ncid, elev, heights));
    int ids[COLS];
    for (int x = 0; x < COLS; x++)
        ids[x] = 1000 + x;
    NC(nc_put_var_int(meta, station, ids));
    for (int t = 0; t < NREC; t++) {
        const size_t at = (size_t)t;
        const int hours = 6 * t;
        NC(nc_put_var1_int(ncid, time, &at, &hours));
        for (int k = 0; k < rows * COLS; k++)
            temps[k] = temp_value(t, k / COLS, k % COLS);
        const size_t start[3] = {(size_t)t, 0, 0}, count[3] = {1, (size_t)rows, COLS};
        NC(nc_put_vara_float(ncid, temp, start, count, temps));
    }
    free(heights);
    free(temps);
    NC(nc_close(ncid));

    corpus_path(path, "grid.nc"); /* the classic file: its header is the run's to find */
    int grid, x, lon;
    NC_ON(path, nc_create(path, NC_64BIT_OFFSET | NC_CLOBBER, &grid));
    NC(nc_put_att_text(grid, NC_GLOBAL, "grid", 4, "latlon"));
    NC(nc_def_dim(grid, "x", COLS, &x));
    NC(nc_def_var(grid, "lon", NC_FLOAT, 1, &x, &lon));
    NC(nc_put_att_text(grid, lon, "units", 12, "degrees_east"));
    NC(nc_enddef(grid));
    float lons[COLS];
    for (int k = 0; k < COLS; k++)
        lons[k] = 60.0f * (float)k;
    NC(nc_put_var_float(grid, lon, lons));
    NC(nc_close(grid));
}

/* Every rank reads the classic grid file's lon whole, with serial netCDF. */
static void read_grid(void)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "grid.nc");
    int grid, lon, format;
    float lons[COLS];
    NC_ON(path, nc_open(path, NC_NOWRITE, &grid));
    NC(nc_inq_format(grid, &format));
    if (format != NC_FORMAT_64BIT_OFFSET)
        corpus_fail("grid.nc: format %d, not 64-bit offset", format);
    NC(nc_inq_varid(grid, "lon", &lon));
    NC(nc_get_var_float(grid, lon, lons));
    for (int k = 0; k < COLS; k++)
        if (lons[k] != 60.0f * (float)k)
            corpus_fail("grid.nc: lon[%d] is %g", k, lons[k]);
    NC(nc_close(grid));
}

/* A variable's id by name, its type and dimensions checked. */
static int variable(int ncid, const char *name, nc_type type, int ndims, const int *dimids)
{
    int id, got_ndims, got_dims[3], natts;
    nc_type got_type;
    char got_name[NC_MAX_NAME + 1];
    NC(nc_inq_varid(ncid, name, &id));
    NC(nc_inq_varndims(ncid, id, &got_ndims));
    if (got_ndims != ndims)
        corpus_fail("in.nc: variable %s has %d dimensions, expected %d", name, got_ndims, ndims);
    NC(nc_inq_var(ncid, id, got_name, &got_type, &got_ndims, got_dims, &natts));
    if (strcmp(got_name, name) != 0 || got_type != type ||
        memcmp(got_dims, dimids, sizeof *dimids * (size_t)ndims))
        corpus_fail("in.nc: variable %s: type %d, not as written", name, got_type);
    return id;
}

/* A text attribute's value (NUL-terminated into buf of size n). */
static void text_attribute(int ncid, int var, const char *name, char *buf, size_t n)
{
    size_t len;
    NC(nc_inq_attlen(ncid, var, name, &len));
    if (len >= n)
        corpus_fail("in.nc: attribute %s holds %zu bytes, more than %zu", name, len, n - 1);
    NC(nc_get_att_text(ncid, var, name, buf));
    buf[len] = '\0';
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_input))
        return 0;
    corpus_init(&argc, &argv, "nc4_reader");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "in.nc");
    int ncid;
    NC_ON(path, nc_open_par(path, NC_NOWRITE, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid));
    int ndims, nvars, ngatts, unlimited;
    NC(nc_inq(ncid, &ndims, &nvars, &ngatts, &unlimited));
    if (ndims != 3 || nvars != 3 || ngatts != 3)
        corpus_fail("in.nc: %d dimensions, %d variables, %d attributes; expected 3, 3, 3", ndims, nvars,
                    ngatts);
    int dims[3];
    size_t nrec, rows, cols;
    NC(nc_inq_dimid(ncid, "time", &dims[0]));
    NC(nc_inq_dimid(ncid, "y", &dims[1]));
    NC(nc_inq_dimid(ncid, "x", &dims[2]));
    NC(nc_inq_dimlen(ncid, dims[0], &nrec));
    NC(nc_inq_dimlen(ncid, dims[1], &rows));
    NC(nc_inq_dimlen(ncid, dims[2], &cols));
    if (dims[0] != unlimited || nrec != NREC || cols != COLS || rows % (size_t)corpus_size != 0)
        corpus_fail("in.nc: %zu records of %zu x %zu, not as written at this many ranks", nrec, rows, cols);
    const int time = variable(ncid, "time", NC_INT, 1, dims),
              elev = variable(ncid, "elev", NC_DOUBLE, 2, &dims[1]),
              temp = variable(ncid, "temp", NC_FLOAT, 3, dims);
    char text[128];
    text_attribute(ncid, NC_GLOBAL, "title", text, sizeof text);
    if (strcmp(text, title) != 0)
        corpus_fail("in.nc: title is \"%s\"", text);
    char *who = NULL;
    NC(nc_get_att_string(ncid, NC_GLOBAL, "institution", &who));
    if (!who || strcmp(who, institution) != 0)
        corpus_fail("in.nc: institution is \"%s\"", who ? who : "(null)");
    NC(nc_free_string(1, &who));
    text_attribute(ncid, temp, "units", text, sizeof text);
    float factor;
    NC(nc_get_att_float(ncid, temp, "scale_factor", &factor));
    if (strcmp(text, "K") != 0 || factor != scale)
        corpus_fail("in.nc: temp's units \"%s\", scale_factor %g", text, factor);

    const size_t mine = rows / (size_t)corpus_size, y0 = (size_t)corpus_rank * mine;
    float *field = malloc(sizeof *field * mine * COLS), *mean = calloc(mine * COLS, sizeof *mean);
    double *height = malloc(sizeof *height * mine * COLS);
    if (!field || !mean || !height)
        corpus_fail("out of memory");
    NC(nc_var_par_access(ncid, temp, NC_COLLECTIVE));
    NC(nc_var_par_access(ncid, elev, NC_COLLECTIVE));
    for (int t = 0; t < NREC; t++) {
        const size_t start[3] = {(size_t)t, y0, 0}, count[3] = {1, mine, COLS};
        NC(nc_get_vara_float(ncid, temp, start, count, field));
        for (size_t k = 0; k < mine * COLS; k++) {
            const int y = (int)(y0 + k / COLS), x = (int)(k % COLS);
            if (field[k] != temp_value(t, y, x))
                corpus_fail("in.nc: temp[%d][%d][%d] is %g", t, y, x, field[k]);
            mean[k] += field[k] * factor / NREC;
        }
    }
    const size_t start[2] = {y0, 0}, count[2] = {mine, COLS};
    NC(nc_get_vara_double(ncid, elev, start, count, height));
    for (size_t k = 0; k < mine * COLS; k++)
        if (height[k] != elev_value((int)(y0 + k / COLS), (int)(k % COLS)))
            corpus_fail("in.nc: elev[%zu][%zu] is %g", y0 + k / COLS, k % COLS, height[k]);
    int hours[NREC];
    const size_t tstart = 0, tcount = NREC;
    NC(nc_get_vara_int(ncid, time, &tstart, &tcount, hours));
    for (int t = 0; t < NREC; t++)
        if (hours[t] != 6 * t)
            corpus_fail("in.nc: time[%d] is %d", t, hours[t]);
    int meta, station, ids[COLS];
    NC(nc_inq_grp_ncid(ncid, "meta", &meta));
    NC(nc_inq_varid(meta, "station", &station));
    NC(nc_get_var_int(meta, station, ids));
    for (int x = 0; x < COLS; x++)
        if (ids[x] != 1000 + x)
            corpus_fail("in.nc: meta/station[%d] is %d", x, ids[x]);
    NC(nc_close(ncid));
    read_grid();

    corpus_path(path, "out.nc");
    int out, out_dims[2], out_mean;
    NC_ON(path, nc_create_par(path, NC_NETCDF4 | NC_CLOBBER, MPI_COMM_WORLD, MPI_INFO_NULL, &out));
    NC(nc_put_att_text(out, NC_GLOBAL, "source", strlen(title), title));
    NC(nc_def_dim(out, "y", rows, &out_dims[0]));
    NC(nc_def_dim(out, "x", cols, &out_dims[1]));
    NC(nc_def_var(out, "temp_mean", NC_FLOAT, 2, out_dims, &out_mean));
    NC(nc_put_att_text(out, out_mean, "units", 1, "K"));
    NC(nc_var_par_access(out, out_mean, NC_COLLECTIVE));
    NC(nc_enddef(out));
    NC(nc_put_vara_float(out, out_mean, start, count, mean));
    NC(nc_close(out));
    free(field);
    free(mean);
    free(height);
    return corpus_finish();
}
