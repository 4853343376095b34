/* pnc_reader: a post-processing step that reads a model's PnetCDF output
 * made before the run, learning its layout from the file, and writes a
 * small file of derived values.
 *   mpiexec -np N pnc_reader --setup OUTDIR   (untraced, run_kernel.sh runs it first)
 *     rank 0 writes OUTDIR/in.nc (CDF-5) alone: global attributes title
 *     (text) and version (int); dimensions time (unlimited, NREC records),
 *     y (ROWS_PER_RANK rows per rank of the run), x; variables time(time)
 *     int, elev(y,x) double and temp(time,y,x) float, temp with units and
 *     scale_factor.
 *   mpiexec -np N pnc_reader OUTDIR   (traced) every rank opens in.nc
 *     (ncmpi_open, NC_NOWRITE), finds its dimensions, variables and
 *     attributes by name (ncmpi_inq, ncmpi_inq_varid, ncmpi_inq_var,
 *     ncmpi_inq_dimlen, ncmpi_inq_attlen, ncmpi_get_att_text,
 *     ncmpi_get_att_float), reads its block of y rows of temp record by
 *     record (ncmpi_get_vara_float_all), and elev and time through posted
 *     reads (ncmpi_iget_vara with MPI_DOUBLE, ncmpi_iget_vara_int) completed
 *     by ncmpi_wait_all, checking every value; then writes OUTDIR/out.nc
 *     (CDF-2): the scaled mean of temp over the records and its difference
 *     from elev, each (y,x) float. */
#include "corpus.h"

#include <pnetcdf.h>

enum { NREC = 3, ROWS_PER_RANK = 5, COLS = 6 };

static void pnc_check(int err, const char *call, const char *file)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed%s%s: %s", call, file ? " on " : "", file ? file : "", ncmpi_strerror(err));
}
#define PNC(call) pnc_check((call), #call, NULL)
#define PNC_ON(file, call) pnc_check((call), #call, (file)) /* a call that opens or creates file */

static const char title[] = "recorder-kit corpus: pnc_reader input";
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
    corpus_name = "pnc_reader-setup", corpus_outdir = outdir;
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    corpus_path(path, "in.nc");
    int nranks, ncid, dims[3], time, elev, temp;
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    const int rows = ROWS_PER_RANK * nranks;
    PNC_ON(path, ncmpi_create(MPI_COMM_SELF, path, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &ncid));
    PNC(ncmpi_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    const int version = 3;
    PNC(ncmpi_put_att_int(ncid, NC_GLOBAL, "version", NC_INT, 1, &version));
    PNC(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]));
    PNC(ncmpi_def_dim(ncid, "y", rows, &dims[1]));
    PNC(ncmpi_def_dim(ncid, "x", COLS, &dims[2]));
    PNC(ncmpi_def_var(ncid, "time", NC_INT, 1, &dims[0], &time));
    PNC(ncmpi_def_var(ncid, "elev", NC_DOUBLE, 2, &dims[1], &elev));
    PNC(ncmpi_def_var(ncid, "temp", NC_FLOAT, 3, dims, &temp));
    PNC(ncmpi_put_att_text(ncid, temp, "units", 1, "K"));
    PNC(ncmpi_put_att_float(ncid, temp, "scale_factor", NC_FLOAT, 1, &scale));
    PNC(ncmpi_enddef(ncid));
    for (int y = 0; y < rows; y++) {
        double line[COLS];
        for (int x = 0; x < COLS; x++)
            line[x] = elev_value(y, x);
        const MPI_Offset start[2] = {y, 0}, count[2] = {1, COLS};
        PNC(ncmpi_put_vara_double_all(ncid, elev, start, count, line));
    }
    for (int t = 0; t < NREC; t++) {
        const MPI_Offset at = t;
        const int hours = 6 * t;
        PNC(ncmpi_put_var1_int_all(ncid, time, &at, &hours));
        for (int y = 0; y < rows; y++) {
            float line[COLS];
            for (int x = 0; x < COLS; x++)
                line[x] = temp_value(t, y, x);
            const MPI_Offset start[3] = {t, y, 0}, count[3] = {1, 1, COLS};
            PNC(ncmpi_put_vara_float_all(ncid, temp, start, count, line));
        }
    }
    PNC(ncmpi_close(ncid));
}

/* A dimension's id and length, by name. */
static MPI_Offset dimension(int ncid, const char *name, int *id)
{
    MPI_Offset len;
    PNC(ncmpi_inq_dimid(ncid, name, id));
    PNC(ncmpi_inq_dimlen(ncid, *id, &len));
    return len;
}

/* A variable's id by name, its type and dimensions checked. */
static int variable(int ncid, const char *name, nc_type type, int ndims, const int *dimids)
{
    int id, got_ndims, got_dims[3], natts;
    nc_type got_type;
    char got_name[NC_MAX_NAME + 1];
    PNC(ncmpi_inq_varid(ncid, name, &id));
    PNC(ncmpi_inq_varndims(ncid, id, &got_ndims)); /* NC_MAX_VAR_DIMS is INT_MAX: no array of that size */
    if (got_ndims != ndims)
        corpus_fail("in.nc: variable %s has %d dimensions, expected %d", name, got_ndims, ndims);
    PNC(ncmpi_inq_var(ncid, id, got_name, &got_type, &got_ndims, got_dims, &natts));
    if (strcmp(got_name, name) != 0 || got_type != type || got_ndims != ndims ||
        memcmp(got_dims, dimids, sizeof *dimids * (size_t)ndims) != 0)
        corpus_fail("in.nc: variable %s: type %d, %d dimensions, not as written", name, got_type, got_ndims);
    return id;
}

/* A text attribute's value (NUL-terminated into buf of size n). */
static void text_attribute(int ncid, int var, const char *name, char *buf, size_t n)
{
    MPI_Offset len;
    PNC(ncmpi_inq_attlen(ncid, var, name, &len));
    if ((size_t)len >= n)
        corpus_fail("in.nc: attribute %s holds %lld bytes, more than %zu", name, (long long)len, n - 1);
    PNC(ncmpi_get_att_text(ncid, var, name, buf));
    buf[len] = '\0';
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_input))
        return 0;
    corpus_init(&argc, &argv, "pnc_reader");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "in.nc");
    int ncid;
    PNC_ON(path, ncmpi_open(MPI_COMM_WORLD, path, NC_NOWRITE, MPI_INFO_NULL, &ncid));
    int ndims, nvars, ngatts, unlimited;
    PNC(ncmpi_inq(ncid, &ndims, &nvars, &ngatts, &unlimited));
    if (ndims != 3 || nvars != 3 || ngatts != 2)
        corpus_fail("in.nc: %d dimensions, %d variables, %d attributes; expected 3, 3, 2", ndims, nvars,
                    ngatts);
    int dims[3];
    const MPI_Offset nrec = dimension(ncid, "time", &dims[0]), rows = dimension(ncid, "y", &dims[1]),
                     cols = dimension(ncid, "x", &dims[2]);
    if (dims[0] != unlimited || nrec != NREC || cols != COLS || rows % corpus_size != 0)
        corpus_fail("in.nc: %lld records of %lld x %lld, not as written at this many ranks", (long long)nrec,
                    (long long)rows, (long long)cols);
    const int time = variable(ncid, "time", NC_INT, 1, dims),
              elev = variable(ncid, "elev", NC_DOUBLE, 2, &dims[1]),
              temp = variable(ncid, "temp", NC_FLOAT, 3, dims);
    char text[128];
    text_attribute(ncid, NC_GLOBAL, "title", text, sizeof text);
    if (strcmp(text, title) != 0)
        corpus_fail("in.nc: title is \"%s\"", text);
    text_attribute(ncid, temp, "units", text, sizeof text);
    float factor;
    PNC(ncmpi_get_att_float(ncid, temp, "scale_factor", &factor));
    if (strcmp(text, "K") != 0 || factor != scale)
        corpus_fail("in.nc: temp's units \"%s\", scale_factor %g", text, factor);

    const int mine = (int)(rows / corpus_size), y0 = corpus_rank * mine;
    float *field = malloc(sizeof *field * (size_t)mine * COLS),
          *mean = calloc((size_t)mine * COLS, sizeof *mean);
    double *height = malloc(sizeof *height * (size_t)mine * COLS);
    if (!field || !mean || !height)
        corpus_fail("out of memory");
    for (int t = 0; t < NREC; t++) {
        const MPI_Offset start[3] = {t, y0, 0}, count[3] = {1, mine, COLS};
        PNC(ncmpi_get_vara_float_all(ncid, temp, start, count, field));
        for (int k = 0; k < mine * COLS; k++) {
            if (field[k] != temp_value(t, y0 + k / COLS, k % COLS))
                corpus_fail("in.nc: temp[%d][%d][%d] is %g", t, y0 + k / COLS, k % COLS, field[k]);
            mean[k] += field[k] * factor / NREC;
        }
    }
    const MPI_Offset start[2] = {y0, 0}, count[2] = {mine, COLS}, tstart = 0, tcount = NREC;
    int hours[NREC], reqs[2], statuses[2];
    PNC(ncmpi_iget_vara(ncid, elev, start, count, height, mine * COLS, MPI_DOUBLE, &reqs[0]));
    PNC(ncmpi_iget_vara_int(ncid, time, &tstart, &tcount, hours, &reqs[1]));
    PNC(ncmpi_wait_all(ncid, 2, reqs, statuses));
    for (int r = 0; r < 2; r++)
        if (statuses[r] != NC_NOERR)
            corpus_fail("in.nc: request %d of ncmpi_wait_all failed: %s", r, ncmpi_strerror(statuses[r]));
    for (int t = 0; t < NREC; t++)
        if (hours[t] != 6 * t)
            corpus_fail("in.nc: time[%d] is %d", t, hours[t]);
    for (int k = 0; k < mine * COLS; k++)
        if (height[k] != elev_value(y0 + k / COLS, k % COLS))
            corpus_fail("in.nc: elev[%d][%d] is %g", y0 + k / COLS, k % COLS, height[k]);
    PNC(ncmpi_close(ncid));

    corpus_path(path, "out.nc");
    int out, out_dims[2], out_mean, out_diff;
    PNC_ON(path, ncmpi_create(MPI_COMM_WORLD, path, NC_CLOBBER | NC_64BIT_OFFSET, MPI_INFO_NULL, &out));
    PNC(ncmpi_put_att_text(out, NC_GLOBAL, "source", strlen(title), title));
    PNC(ncmpi_def_dim(out, "y", rows, &out_dims[0]));
    PNC(ncmpi_def_dim(out, "x", cols, &out_dims[1]));
    PNC(ncmpi_def_var(out, "temp_mean", NC_FLOAT, 2, out_dims, &out_mean));
    PNC(ncmpi_def_var(out, "temp_minus_elev", NC_FLOAT, 2, out_dims, &out_diff));
    PNC(ncmpi_put_att_text(out, out_mean, "units", 1, "K"));
    PNC(ncmpi_enddef(out));
    PNC(ncmpi_put_vara_float_all(out, out_mean, start, count, mean));
    for (int k = 0; k < mine * COLS; k++)
        field[k] = mean[k] - (float)height[k];
    PNC(ncmpi_put_vara_float_all(out, out_diff, start, count, field));
    PNC(ncmpi_close(out));
    free(field);
    free(mean);
    free(height);
    return corpus_finish();
}
