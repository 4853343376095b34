/* nc4_features: the netCDF-4 features netCDF-C's own parallel tests
 * (nc_test4/tst_parallel5.c, tst_parallel_compress.c, tst_quantize_par.c,
 * tst_simplerw_coll_r.c) call, as they call them.
 *   mpiexec -np N nc4_features OUTDIR
 * OUTDIR/features.nc, in parallel (nc_create_par NC_NETCDF4): an enum type
 * (nc_def_enum, nc_insert_enum) and a compound one with an array field
 * (nc_def_compound, nc_insert_compound, nc_insert_array_compound), a
 * variable of each; one variable per numeric type, each with a fill value
 * of its own (nc_def_var_fill in a loop: the values' lengths differ); a
 * chunked one, shuffled and checksummed (nc_def_var_deflate without
 * deflate, nc_def_var_fletcher32: filters that keep the bytes' count) and
 * a quantized float (nc_def_var_quantize), a deflated record variable
 * (nc_def_var_deflate) of RECORDS records of CELLS doubles a rank; each rank writes its block of
 * every one, collectively (the deflated one's file size is the values': a
 * kernel's data must deflate alike). OUTDIR/strings.nc, by rank 0 alone (HDF5 writes
 * no variable-length data in parallel): NC_STRING values of several
 * lengths (nc_put_vara_string, nc_put_var1 untyped); a variable-length type
 * of ints (nc_def_vlen) and a variable of it, whose values of several
 * lengths, one empty, one made by nc_put_vlen_element, go in one untyped
 * nc_put_vara. Then every rank
 * opens both in parallel and asks what netCDF-4 reads from the file at the
 * first query of a variable (nc_inq_var_deflate with NULL outs,
 * nc_inq_var_quantize, nc_inq_var_fill with and without a buffer, nc_inq_var_chunking,
 * nc_inq_varname, nc_inq_natts, nc_inq_attname, the chunk cache the file
 * was opened with), and reads its block back, and the strings and
 * variable-length values back (nc_get_vara, nc_free_vlens). Same bytes on
 * every run. */
#include "corpus.h"

#include <netcdf.h>
#include <netcdf_par.h>
#include <stddef.h>

enum { PER_RANK = 6, TYPES = 5, VARS = TYPES + 5, LINES = 5, RECORDS = 3, CELLS = 256, VOYAGES = 4 };

/* The ports of call of each voyage (a variable-length value of ints): how many, and the k-th's number. */
static const size_t calls_of[VOYAGES] = {3, 0, 7, 1};
static int port(int voyage, int k)
{
    return 100 * voyage + k;
}

/* netCDF's internal the parallel tests call (hdf5internal.h): the chunk cache of an open netCDF-4 file. */
int nc4_hdf5_get_chunk_cache(int ncid, size_t *sizep, size_t *nelemsp, float *preemptionp);

static void nc_check(int err, const char *call)
{
    if (err != NC_NOERR)
        corpus_fail("%s failed: %s", call, nc_strerror(err));
}
#define NC(call) nc_check((call), #call)

struct cargo {
    int hold;
    double weight[2];
};

static const nc_type numeric[TYPES] = {NC_BYTE, NC_SHORT, NC_INT, NC_FLOAT, NC_DOUBLE};

/* The fill value of numeric type t, in memory of that type. */
static const void *fill_of(int t)
{
    static const signed char b = -7;
    static const short s = 300;
    static const int i = -70000;
    static const float f = 2.5f;
    static const double d = -1.0e300;
    const void *fills[TYPES] = {&b, &s, &i, &f, &d};
    return fills[t];
}

static void write_features(const char *path, size_t y0, size_t rows)
{
    int ncid, dim, time, cell, cargo_t, ship_t, var[TYPES], hold, crew, shuffled, quantized, deflated;
    NC(nc_create_par(path, NC_NETCDF4 | NC_CLOBBER, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid));
    NC(nc_def_dim(ncid, "row", rows, &dim));
    NC(nc_def_enum(ncid, NC_UINT64, "cargo", &cargo_t));
    const unsigned long long values[3] = {1000000ULL, 2000000ULL, 3000000ULL};
    const char *names[3] = {"rags", "bones", "porter"};
    for (int k = 0; k < 3; k++)
        NC(nc_insert_enum(ncid, cargo_t, names[k], &values[k]));
    NC(nc_def_compound(ncid, sizeof(struct cargo), "hold", &ship_t));
    NC(nc_insert_compound(ncid, ship_t, "hold", offsetof(struct cargo, hold), NC_INT));
    const int two = 2;
    NC(nc_insert_array_compound(ncid, ship_t, "weight", offsetof(struct cargo, weight), NC_DOUBLE, 1, &two));
    NC(nc_def_var(ncid, "manifest", cargo_t, 1, &dim, &hold));
    NC(nc_def_var(ncid, "crew", ship_t, 1, &dim, &crew));
    for (int t = 0; t < TYPES; t++) {
        char name[16];
        snprintf(name, sizeof name, "v%d", t);
        NC(nc_def_var(ncid, name, numeric[t], 1, &dim, &var[t]));
        NC(nc_def_var_fill(ncid, var[t], NC_FILL, fill_of(t)));
    }
    NC(nc_def_var(ncid, "shuffled", NC_INT, 1, &dim, &shuffled));
    const size_t chunk = PER_RANK;
    NC(nc_def_var_chunking(ncid, shuffled, NC_CHUNKED, &chunk));
    NC(nc_def_var_deflate(ncid, shuffled, 1, 0, 0));
    NC(nc_def_var_fletcher32(ncid, shuffled, NC_FLETCHER32));
    NC(nc_def_var(ncid, "quantized", NC_FLOAT, 1, &dim, &quantized));
    NC(nc_def_var_quantize(ncid, quantized, NC_QUANTIZE_BITGROOM, 3));
    NC(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
    NC(nc_def_dim(ncid, "cell", CELLS * rows / PER_RANK, &cell));
    const int record[2] = {time, cell};
    NC(nc_def_var(ncid, "deflated", NC_DOUBLE, 2, record, &deflated));
    NC(nc_def_var_deflate(ncid, deflated, 1, 1, 2));
    const char *title = "recorder-kit corpus: nc4_features";
    NC(nc_put_att_text(ncid, NC_GLOBAL, "title", strlen(title), title));
    NC(nc_enddef(ncid));

    const size_t start = y0, count = PER_RANK;
    unsigned long long manifest[PER_RANK];
    struct cargo holds[PER_RANK];
    int ints[PER_RANK];
    float floats[PER_RANK];
    for (int k = 0; k < PER_RANK; k++) {
        manifest[k] = values[(y0 + (size_t)k) % 3];
        holds[k] = (struct cargo){(int)y0 + k, {k * 0.5, k * 0.25}};
        ints[k] = (int)y0 + k; /* within every type's range */
        floats[k] = 3.14159265f * (float)((int)y0 + k);
    }
    for (int v = 0; v < VARS; v++) /* filtered variables are written collectively only */
        NC(nc_var_par_access(ncid, v, NC_COLLECTIVE));
    NC(nc_put_vara(ncid, hold, &start, &count, manifest));
    NC(nc_put_vara(ncid, crew, &start, &count, holds));
    for (int t = 0; t < TYPES; t++)
        NC(nc_put_vara_int(ncid, var[t], &start, &count, ints));
    NC(nc_put_vara_int(ncid, shuffled, &start, &count, ints));
    NC(nc_put_vara_float(ncid, quantized, &start, &count, floats));
    for (int t = 0; t < RECORDS; t++) { /* each record grows the unlimited dimension */
        double values[CELLS];
        const size_t first = y0 / PER_RANK * CELLS;
        for (int k = 0; k < CELLS; k++)
            values[k] = 1.0e3 * t + (double)(first + (size_t)k) / 7.0;
        const size_t at[2] = {(size_t)t, first}, many[2] = {1, CELLS};
        NC(nc_put_vara_double(ncid, deflated, at, many, values));
    }
    NC(nc_close(ncid));
}

static void write_strings(const char *path)
{
    int ncid, dim, lines, motto, voyage, ports;
    nc_type ports_t;
    NC(nc_create(path, NC_NETCDF4 | NC_CLOBBER, &ncid));
    NC(nc_def_dim(ncid, "line", LINES, &dim));
    NC(nc_def_var(ncid, "story", NC_STRING, 1, &dim, &lines));
    NC(nc_def_var(ncid, "motto", NC_STRING, 0, NULL, &motto));
    NC(nc_def_vlen(ncid, "ports_of_call", NC_INT, &ports_t));
    NC(nc_def_dim(ncid, "voyage", VOYAGES, &voyage));
    NC(nc_def_var(ncid, "ports", ports_t, 1, &voyage, &ports));
    NC(nc_enddef(ncid));
    const char *story[LINES] = {"We had sailed seven years", "", "when the measles broke out",
                                "and the ship lost its way in the fog", "x"};
    const size_t start = 0, count = LINES;
    NC(nc_put_vara_string(ncid, lines, &start, &count, story));
    const char *words = "the last of the Irish Rover";
    const size_t at = 0;
    NC(nc_put_var1(ncid, motto, &at, &words));
    int numbers[VOYAGES][8];
    nc_vlen_t values[VOYAGES];
    for (int v = 0; v < VOYAGES; v++) {
        for (size_t k = 0; k < calls_of[v]; k++)
            numbers[v][k] = port(v, (int)k);
        values[v] = (nc_vlen_t){calls_of[v], calls_of[v] ? numbers[v] : NULL};
    }
    NC(nc_put_vlen_element(ncid, ports_t, &values[3], calls_of[3], numbers[3])); /* memory alone */
    const size_t first = 0, voyages = VOYAGES;
    NC(nc_put_vara(ncid, ports, &first, &voyages, values));
    NC(nc_close(ncid));
}

static void read_features(const char *path, size_t y0)
{
    int ncid, varid, shuffle, storage, natts, no_fill, mode, nsd, attid;
    size_t chunk, cache, nelems;
    float preemption;
    char name[NC_MAX_NAME + 1];
    NC(nc_open_par(path, NC_NOWRITE, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid));
    NC(nc4_hdf5_get_chunk_cache(ncid, &cache, &nelems, &preemption));
    NC(nc_inq_varid(ncid, "shuffled", &varid));
    NC(nc_inq_var_deflate(ncid, varid, &shuffle, NULL, NULL));
    if (!shuffle)
        corpus_fail("%s: shuffled is not shuffled", path);
    NC(nc_inq_var_chunking(ncid, varid, &storage, &chunk));
    if (storage != NC_CHUNKED || chunk != PER_RANK)
        corpus_fail("%s: shuffled: storage %d, chunk %zu", path, storage, chunk);
    NC(nc_inq_varid(ncid, "quantized", &varid));
    NC(nc_inq_var_quantize(ncid, varid, &mode, &nsd));
    if (mode != NC_QUANTIZE_BITGROOM || nsd != 3)
        corpus_fail("%s: quantized: mode %d, nsd %d", path, mode, nsd);
    for (int t = 0; t < TYPES; t++) {
        long long fill = 0;
        NC(nc_inq_var_fill(ncid, 2 + t, &no_fill, &fill));
        NC(nc_inq_varname(ncid, 2 + t, name));
    }
    NC(nc_inq_var_fill(ncid, 2, &no_fill, NULL));
    NC(nc_inq_natts(ncid, &natts));
    NC(nc_inq_attname(ncid, NC_GLOBAL, 0, name));
    NC(nc_inq_attid(ncid, NC_GLOBAL, name, &attid));
    if (natts != 1 || strcmp(name, "title") || attid != 0)
        corpus_fail("%s: %d global attributes, the first \"%s\" (%d)", path, natts, name, attid);
    const size_t start = y0, count = PER_RANK;
    int ints[PER_RANK];
    NC(nc_var_par_access(ncid, 4, NC_COLLECTIVE));
    NC(nc_get_vara_int(ncid, 4, &start, &count, ints));
    if (ints[1] != (int)y0 + 1)
        corpus_fail("%s: v2[%zu] is %d, expected %d", path, y0 + 1, ints[1], (int)y0 + 1);
    NC(nc_close(ncid));
}

static void read_strings(const char *path)
{
    int ncid;
    char *story[LINES];
    const size_t start = 0, count = LINES;
    NC(nc_open_par(path, NC_NOWRITE, MPI_COMM_WORLD, MPI_INFO_NULL, &ncid));
    NC(nc_get_vara_string(ncid, 0, &start, &count, story));
    if (strcmp(story[2], "when the measles broke out"))
        corpus_fail("%s: story[2] is \"%s\"", path, story[2]);
    NC(nc_free_string(LINES, story));
    nc_vlen_t values[VOYAGES];
    const size_t first = 0, voyages = VOYAGES;
    NC(nc_get_vara(ncid, 2, &first, &voyages, values));
    for (int v = 0; v < VOYAGES; v++) {
        if (values[v].len != calls_of[v])
            corpus_fail("%s: ports[%d] holds %zu ports, written %zu", path, v, values[v].len, calls_of[v]);
        for (size_t k = 0; k < values[v].len; k++)
            if (((const int *)values[v].p)[k] != port(v, (int)k))
                corpus_fail("%s: ports[%d][%zu] is %d, written %d", path, v, k, ((const int *)values[v].p)[k],
                            port(v, (int)k));
    }
    NC(nc_free_vlens(VOYAGES, values));
    NC(nc_close(ncid));
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "nc4_features");
    char features[CORPUS_PATH_MAX], strings[CORPUS_PATH_MAX];
    corpus_path(features, "features.nc");
    corpus_path(strings, "strings.nc");
    const size_t y0 = (size_t)corpus_rank * PER_RANK;
    write_features(features, y0, (size_t)PER_RANK * (size_t)corpus_size);
    if (corpus_rank == 0)
        write_strings(strings);
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    read_features(features, y0);
    read_strings(strings);
    return corpus_finish();
}
