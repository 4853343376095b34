/* pnc_climate: a climate model's history file written through PnetCDF the
 * way E3SM's PIO, WRF and MPAS write theirs.
 *   mpiexec -np N pnc_climate OUTDIR
 * Writes OUTDIR/climate.nc (CDF-5, NC_64BIT_DATA) and OUTDIR/climate_cdf2.nc
 * (CDF-2, NC_64BIT_OFFSET), the same calls for both: header hints in an
 * MPI_Info, and those in use asked back (ncmpi_inq_file_info); global
 * attributes (text, int, double); dimensions time (unlimited), lev, lat
 * (LAT_PER_RANK rows per rank), lon; coordinates lat and lon, a fixed-size
 * int mask(lat,lon) and double area(lat,lon), record variables T, U, V
 * (time,lev,lat,lon), PS, Q, PRECT, TS, FLNT, FSNT (time,lat,lon) and date
 * (time), each with units and T, PS and mask with a _FillValue, T with a
 * valid_range. Every rank owns its block of lat rows. Once, in independent
 * mode: rank 0 writes lon one value at a time (ncmpi_put_var1_double) and
 * every rank its block of mask (ncmpi_put_vara_int); then area through an
 * MPI subarray filetype of the rank's rows, written and read back
 * (ncmpi_put_vard_all, ncmpi_get_vard_all), as a restart's fields are. Then
 * NREC records: T collectively
 * (ncmpi_put_vara_float_all), PS through the flexible API (MPI_FLOAT,
 * bufcount), U, V, Q and time posted with ncmpi_iput_vara_double and PRECT
 * with ncmpi_bput_vara_float into an attached buffer, TS as two subarrays
 * of one ncmpi_iput_varn_float (PIO's decompositions), all completed by one
 * ncmpi_wait_all per record; FLNT, FSNT and date in one
 * ncmpi_mput_vara_all (flexible: MPI_FLOAT, MPI_INT); ncmpi_sync after the
 * second record. The last record's FLNT and FSNT, and on rank 0 its date,
 * are read back in one ncmpi_mget_vara_float_all. Every
 * value is computed from its indices, so both files are the same bytes on
 * every run. */
#include "corpus.h"

#include <pnetcdf.h>

enum { LEV = 3, LAT_PER_RANK = 4, LON = 8 };
/* Records written: 4, or PNC_CLIMATE_RECORDS (the kernel-size test writes 40). */
static int NREC = 4;

/* A PnetCDF call that must return NC_NOERR: names the call and PnetCDF's reason. */
static void pnc_check(int err, const char *call, const char *file)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed%s%s: %s", call, file ? " on " : "", file ? file : "", ncmpi_strerror(err));
}
#define PNC(call) pnc_check((call), #call, NULL)
#define PNC_ON(file, call) pnc_check((call), #call, (file)) /* a call that opens or creates file */

/* The value of a field at record t, level k, global row y, column x. */
static double field(int var, int t, int k, int y, int x)
{
    return var * 1000.0 + t * 100.0 + k * 10.0 + y + x * 0.125;
}

struct vars {
    int time, lat, lon, mask, area, T, U, V, PS, Q, PRECT, TS, FLNT, FSNT, date;
};

static void define(int ncid, int nranks, struct vars *v)
{
    const char *title = "recorder-kit corpus: pnc_climate history";
    PNC(ncmpi_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    PNC(ncmpi_put_att_text(ncid, NC_GLOBAL, "Conventions", 6, "CF-1.8"));
    const int member = 7;
    PNC(ncmpi_put_att_int(ncid, NC_GLOBAL, "ensemble_member", NC_INT, 1, &member));
    const double dt[2] = {1800.0, 0.5};
    PNC(ncmpi_put_att_double(ncid, NC_GLOBAL, "time_step", NC_DOUBLE, 2, dt));

    int time, lev, lat, lon;
    PNC(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &time));
    PNC(ncmpi_def_dim(ncid, "lev", LEV, &lev));
    PNC(ncmpi_def_dim(ncid, "lat", (MPI_Offset)LAT_PER_RANK * nranks, &lat));
    PNC(ncmpi_def_dim(ncid, "lon", LON, &lon));

    PNC(ncmpi_def_var(ncid, "time", NC_DOUBLE, 1, &time, &v->time));
    PNC(ncmpi_def_var(ncid, "lat", NC_DOUBLE, 1, &lat, &v->lat));
    PNC(ncmpi_def_var(ncid, "lon", NC_DOUBLE, 1, &lon, &v->lon));
    const int plane[2] = {lat, lon}, surface[3] = {time, lat, lon}, volume[4] = {time, lev, lat, lon};
    PNC(ncmpi_def_var(ncid, "mask", NC_INT, 2, plane, &v->mask));
    PNC(ncmpi_def_var(ncid, "area", NC_DOUBLE, 2, plane, &v->area));
    PNC(ncmpi_def_var(ncid, "T", NC_FLOAT, 4, volume, &v->T));
    PNC(ncmpi_def_var(ncid, "U", NC_DOUBLE, 4, volume, &v->U));
    PNC(ncmpi_def_var(ncid, "V", NC_DOUBLE, 4, volume, &v->V));
    PNC(ncmpi_def_var(ncid, "PS", NC_FLOAT, 3, surface, &v->PS));
    PNC(ncmpi_def_var(ncid, "Q", NC_DOUBLE, 3, surface, &v->Q));
    PNC(ncmpi_def_var(ncid, "PRECT", NC_FLOAT, 3, surface, &v->PRECT));
    PNC(ncmpi_def_var(ncid, "TS", NC_FLOAT, 3, surface, &v->TS));
    PNC(ncmpi_def_var(ncid, "FLNT", NC_FLOAT, 3, surface, &v->FLNT));
    PNC(ncmpi_def_var(ncid, "FSNT", NC_FLOAT, 3, surface, &v->FSNT));
    PNC(ncmpi_def_var(ncid, "date", NC_INT, 1, &time, &v->date));

    const struct {
        int var;
        const char *units;
    } units[] = {{v->time, "days since 2000-01-01"},
                 {v->lat, "degrees_north"},
                 {v->lon, "degrees_east"},
                 {v->mask, "1"},
                 {v->T, "K"},
                 {v->U, "m/s"},
                 {v->V, "m/s"},
                 {v->PS, "Pa"},
                 {v->Q, "kg/kg"},
                 {v->PRECT, "m/s"},
                 {v->TS, "K"},
                 {v->area, "m2"},
                 {v->FLNT, "W/m2"},
                 {v->FSNT, "W/m2"},
                 {v->date, "yyyymmdd"}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        PNC(ncmpi_put_att_text(ncid, units[i].var, "units", strlen(units[i].units), units[i].units));
    const float fill = 9.96921e36f;
    PNC(ncmpi_put_att_float(ncid, v->T, "_FillValue", NC_FLOAT, 1, &fill));
    PNC(ncmpi_put_att_float(ncid, v->PS, "_FillValue", NC_FLOAT, 1, &fill));
    const float valid_range[2] = {0.0f, 400.0f}; /* whole numbers: a kernel's float constants need their point */
    PNC(ncmpi_put_att_float(ncid, v->T, "valid_range", NC_FLOAT, 2, valid_range));
    const int mask_fill = -1;
    PNC(ncmpi_put_att_int(ncid, v->mask, "_FillValue", NC_INT, 1, &mask_fill));
    PNC(ncmpi_put_att_text(ncid, v->T, "long_name", 11, "Temperature"));
    PNC(ncmpi_enddef(ncid));
}

/* The cell areas, the rank's rows of a fixed-size variable through an MPI
 * subarray filetype (vard), written and read back. */
static void write_area(int ncid, int varid, const char *path)
{
    const int y0 = corpus_rank * LAT_PER_RANK;
    int sizes[2] = {LAT_PER_RANK * corpus_size, LON}, subsizes[2] = {LAT_PER_RANK, LON}, starts[2] = {y0, 0};
    MPI_Datatype rows;
    MPI_CHECK(MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, MPI_DOUBLE, &rows));
    MPI_CHECK(MPI_Type_commit(&rows));
    double area[LAT_PER_RANK][LON], back[LAT_PER_RANK][LON];
    for (int j = 0; j < LAT_PER_RANK; j++)
        for (int x = 0; x < LON; x++)
            area[j][x] = field(10, 0, 0, y0 + j, x), back[j][x] = -1.0;
    PNC(ncmpi_put_vard_all(ncid, varid, rows, &area[0][0], LAT_PER_RANK * LON, MPI_DOUBLE));
    PNC(ncmpi_get_vard_all(ncid, varid, rows, &back[0][0], LAT_PER_RANK * LON, MPI_DOUBLE));
    MPI_CHECK(MPI_Type_free(&rows));
    for (int j = 0; j < LAT_PER_RANK; j++)
        for (int x = 0; x < LON; x++)
            if (back[j][x] != area[j][x])
                corpus_fail("%s: area[%d][%d] read back through vard as %g, written %g", path, y0 + j, x, back[j][x],
                            area[j][x]);
}

/* The last record's FLNT and FSNT, and on rank 0 its date (as a float), read back in one typed mget. */
static void read_fluxes(int ncid, const struct vars *v, const char *path)
{
    const int y0 = corpus_rank * LAT_PER_RANK;
    static float flnt[LAT_PER_RANK][LON], fsnt[LAT_PER_RANK][LON], date;
    MPI_Offset start[3] = {NREC - 1, y0, 0}, count[3] = {1, LAT_PER_RANK, LON}, dstart = NREC - 1, dcount = 1;
    MPI_Offset *const starts[3] = {start, start, &dstart}, *const counts[3] = {count, count, &dcount};
    int varids[3] = {v->FLNT, v->FSNT, v->date};
    float *bufs[3] = {&flnt[0][0], &fsnt[0][0], &date};
    PNC(ncmpi_mget_vara_float_all(ncid, corpus_rank == 0 ? 3 : 2, varids, starts, counts, bufs));
    if (corpus_rank == 0 && date != (float)(20000101 + NREC - 1))
        corpus_fail("%s: date read back through mget as %.1f, written %d", path, date, 20000101 + NREC - 1);
    for (int j = 0; j < LAT_PER_RANK; j++)
        for (int x = 0; x < LON; x++)
            if (flnt[j][x] != (float)field(8, NREC - 1, 0, y0 + j, x) || fsnt[j][x] != (float)field(9, NREC - 1, 0, y0 + j, x))
                corpus_fail("%s: FLNT, FSNT[%d][%d] read back through mget as %g, %g", path, y0 + j, x, flnt[j][x],
                            fsnt[j][x]);
}

static void write_file(const char *name, int cmode)
{
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "%s", name);
    const int y0 = corpus_rank * LAT_PER_RANK;
    MPI_Info info;
    MPI_CHECK(MPI_Info_create(&info));
    MPI_CHECK(MPI_Info_set(info, "nc_header_align_size", "1024"));
    MPI_CHECK(MPI_Info_set(info, "nc_var_align_size", "512"));
    int ncid;
    PNC_ON(path, ncmpi_create(MPI_COMM_WORLD, path, cmode, info, &ncid));
    MPI_CHECK(MPI_Info_free(&info));
    MPI_Info used; /* the hints in use, as PIO logs them */
    int nkeys;
    PNC(ncmpi_inq_file_info(ncid, &used));
    MPI_CHECK(MPI_Info_get_nkeys(used, &nkeys));
    MPI_CHECK(MPI_Info_free(&used));
    struct vars v;
    define(ncid, corpus_size, &v);

    double lat[LAT_PER_RANK];
    for (int j = 0; j < LAT_PER_RANK; j++)
        lat[j] = -90.0 + 180.0 * (y0 + j + 0.5) / (LAT_PER_RANK * corpus_size);
    MPI_Offset start[4] = {y0, 0, 0, 0}, count[4] = {LAT_PER_RANK, LON, 0, 0};
    PNC(ncmpi_put_vara_double_all(ncid, v.lat, start, count, lat));

    PNC(ncmpi_begin_indep_data(ncid));
    if (corpus_rank == 0)
        for (MPI_Offset x = 0; x < LON; x++) {
            const double lon = 360.0 * (double)x / LON;
            PNC(ncmpi_put_var1_double(ncid, v.lon, &x, &lon));
        }
    int mask[LAT_PER_RANK][LON];
    for (int j = 0; j < LAT_PER_RANK; j++)
        for (int x = 0; x < LON; x++)
            mask[j][x] = (y0 + j + x) % 3 == 0;
    PNC(ncmpi_put_vara_int(ncid, v.mask, start, count, &mask[0][0]));
    PNC(ncmpi_end_indep_data(ncid));
    write_area(ncid, v.area, path);

    PNC(ncmpi_buffer_attach(ncid, (MPI_Offset)sizeof(float) * LAT_PER_RANK * LON));
    static float T[LEV][LAT_PER_RANK][LON], PS[LAT_PER_RANK][LON], PRECT[LAT_PER_RANK][LON];
    static double U[LEV][LAT_PER_RANK][LON], V[LEV][LAT_PER_RANK][LON], Q[LAT_PER_RANK][LON];
    static float TS[LAT_PER_RANK][LON], FLNT[LAT_PER_RANK][LON], FSNT[LAT_PER_RANK][LON];
    for (int t = 0; t < NREC; t++) {
        for (int k = 0; k < LEV; k++)
            for (int j = 0; j < LAT_PER_RANK; j++)
                for (int x = 0; x < LON; x++) {
                    T[k][j][x] = (float)field(1, t, k, y0 + j, x);
                    U[k][j][x] = field(2, t, k, y0 + j, x);
                    V[k][j][x] = field(3, t, k, y0 + j, x);
                }
        for (int j = 0; j < LAT_PER_RANK; j++)
            for (int x = 0; x < LON; x++) {
                PS[j][x] = (float)field(4, t, 0, y0 + j, x);
                Q[j][x] = field(5, t, 0, y0 + j, x);
                PRECT[j][x] = (float)field(6, t, 0, y0 + j, x);
                TS[j][x] = (float)field(7, t, 0, y0 + j, x);
                FLNT[j][x] = (float)field(8, t, 0, y0 + j, x);
                FSNT[j][x] = (float)field(9, t, 0, y0 + j, x);
            }
        const MPI_Offset vstart[4] = {t, 0, y0, 0}, vcount[4] = {1, LEV, LAT_PER_RANK, LON};
        const MPI_Offset sstart[3] = {t, y0, 0}, scount[3] = {1, LAT_PER_RANK, LON};
        PNC(ncmpi_put_vara_float_all(ncid, v.T, vstart, vcount, &T[0][0][0]));
        PNC(ncmpi_put_vara_all(ncid, v.PS, sstart, scount, &PS[0][0], LAT_PER_RANK * LON, MPI_FLOAT));

        int reqs[6], nreqs = 0;
        PNC(ncmpi_iput_vara_double(ncid, v.U, vstart, vcount, &U[0][0][0], &reqs[nreqs++]));
        PNC(ncmpi_iput_vara_double(ncid, v.V, vstart, vcount, &V[0][0][0], &reqs[nreqs++]));
        PNC(ncmpi_iput_vara_double(ncid, v.Q, sstart, scount, &Q[0][0], &reqs[nreqs++]));
        const double day = t / 48.0;
        const MPI_Offset tstart = t, tcount = 1;
        if (corpus_rank == 0) /* PIO's root writes the coordinate, the others post nothing */
            PNC(ncmpi_iput_vara_double(ncid, v.time, &tstart, &tcount, &day, &reqs[nreqs++]));
        PNC(ncmpi_bput_vara_float(ncid, v.PRECT, sstart, scount, &PRECT[0][0], &reqs[nreqs++]));
        /* PIO's decomposition: the rank's rows as two subarrays in one request (varn) */
        MPI_Offset row0[3] = {t, y0, 0}, row1[3] = {t, y0 + LAT_PER_RANK / 2, 0};
        MPI_Offset half[3] = {1, LAT_PER_RANK / 2, LON};
        MPI_Offset *const starts[2] = {row0, row1}, *const counts[2] = {half, half};
        PNC(ncmpi_iput_varn_float(ncid, v.TS, 2, starts, counts, &TS[0][0], &reqs[nreqs++]));
        MPI_Offset usage;
        PNC(ncmpi_inq_buffer_usage(ncid, &usage));
        if (usage != (MPI_Offset)sizeof PRECT)
            corpus_fail("%s: ncmpi_inq_buffer_usage says %lld bytes, expected %zu", path, (long long)usage,
                        sizeof PRECT);
        int statuses[6];
        PNC(ncmpi_wait_all(ncid, nreqs, reqs, statuses));
        for (int r = 0; r < nreqs; r++)
            if (statuses[r] != NC_NOERR)
                corpus_fail("%s: record %d: request %d of ncmpi_wait_all failed: %s", path, t, r,
                            ncmpi_strerror(statuses[r]));
        /* a record's small fields in one call, as PIO gathers them: two planes and the date (rows of ranks 3 and 1) */
        MPI_Offset fstart[3] = {t, y0, 0}, fcount[3] = {1, LAT_PER_RANK, LON}, dstart = t, dcount = 1;
        MPI_Offset *const mstarts[3] = {fstart, fstart, &dstart}, *const mcounts[3] = {fcount, fcount, &dcount};
        static int date; /* beside the fields in memory: kernels lay the buffers out alike */
        int mvars[3] = {v.FLNT, v.FSNT, v.date};
        date = 20000101 + t;
        void *const bufs[3] = {&FLNT[0][0], &FSNT[0][0], &date};
        const MPI_Offset bufcounts[3] = {LAT_PER_RANK * LON, LAT_PER_RANK * LON, 1};
        const MPI_Datatype buftypes[3] = {MPI_FLOAT, MPI_FLOAT, MPI_INT};
        PNC(ncmpi_mput_vara_all(ncid, 3, mvars, mstarts, mcounts, bufs, bufcounts, buftypes));
        if (t == 1)
            PNC(ncmpi_sync(ncid));
    }
    read_fluxes(ncid, &v, path);
    PNC(ncmpi_buffer_detach(ncid));
    MPI_Offset nrec;
    PNC(ncmpi_inq_dimlen(ncid, 0, &nrec));
    if (nrec != NREC)
        corpus_fail("%s: time has %lld records, expected %d", path, (long long)nrec, NREC);
    PNC(ncmpi_close(ncid));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "pnc_climate");
    const char *records = getenv("PNC_CLIMATE_RECORDS");
    if (records && atoi(records) > 0)
        NREC = atoi(records);
    write_file("climate.nc", NC_CLOBBER | NC_64BIT_DATA);
    write_file("climate_cdf2.nc", NC_CLOBBER | NC_64BIT_OFFSET);
    return corpus_finish();
}
