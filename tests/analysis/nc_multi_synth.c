/* nc_multi_synth: writes a one-rank trace of PnetCDF multi-variable calls
 * for recorder-summary's netCDF variables (summary_nc_multi.sh):
 *   nc_multi_synth DIR new|old
 * new: with this build's table. A file with variables A, B and C (ids 0, 1,
 * 2); one collective ncmpi_mput_vara_all of rows A, B, A (A named twice:
 * one call, 128 + 64 bytes), 320 bytes in all; one independent
 * ncmpi_mget_vara_float of B, C (16 and 8 bytes); one ncmpi_put_vara_float_all
 * of C (4 bytes, a single-variable call); one failed mput of A (counted
 * nowhere).
 * old: the same calls, the multi-variable ones' entries without their
 * trailing ROW_BYTES field (a trace made before it): then the mput over A
 * and B has no variable to give its 320 bytes, the mget over B and C none
 * for its 24, and one more mput, of rows B, B, B, gives its 40 bytes to B. */
#include "recorder_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { NCID = 64, NC_NOERR_ = 0, NC_EINVAL_ = -36 };

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "nc_multi_synth: %s%s\n", what, detail);
    exit(1);
}

static const rec_func_desc *fn(const rec_table *t, const char *name)
{
    const rec_func_desc *mine = rec_function_by_name(name);
    const rec_func_desc *f = mine ? rec_table_lookup(t, mine->id) : NULL;
    if (!f)
        die("no such function: ", name);
    return f;
}

static int field(const rec_func_desc *f, const char *name)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if (!strcmp(f->args[a].name, name))
            return (int)a;
    return -1;
}

static void set_int(rec_record *r, const rec_func_desc *f, const char *name, int64_t v)
{
    int a = field(f, name);
    if (a < 0)
        die("no such argument: ", name);
    r->args[a].i = v;
}

static void set_array(rec_record *r, const rec_func_desc *f, const char *name, const int64_t *v, uint32_t n)
{
    int a = field(f, name);
    if (a >= 0) /* an old entry has no row_bytes */
        r->args[a] = (rec_value){.ptr = v, .len = n};
}

static uint64_t now;

static void append(rec_writer *w, rec_record *r, const rec_func_desc *f, int64_t ret)
{
    r->func = (uint16_t)f->id;
    r->tstart = now;
    r->tend = now + 5;
    now += 10;
    r->ret.i = ret;
    rec_error err;
    if (rec_writer_append(w, r, &err) != 0)
        die(err.msg, "");
}

/* A multi-variable call of n rows: its varids, each row's counts (rows of the file's widest rank, 2),
 * each row's bytes and the call's. */
static void multi(rec_writer *w, const rec_func_desc *f, int n, const int64_t *varids, const int64_t *bytes,
                  int64_t ret)
{
    rec_record r;
    memset(&r, 0, sizeof r);
    static int64_t rows[32], at[16], types[16], total;
    total = 0;
    for (int i = 0; i < n; i++) {
        rows[2 * i] = 1, rows[2 * i + 1] = bytes[i] / 4;
        at[i] = 256 * i, types[i] = 12; /* MPI_FLOAT */
        total += bytes[i];
    }
    set_int(&r, f, "ncid", NCID);
    set_int(&r, f, "nvars", n);
    set_array(&r, f, "varids", varids, (uint32_t)n);
    set_array(&r, f, "starts", rows, 2 * (uint32_t)n);
    set_array(&r, f, "counts", rows, 2 * (uint32_t)n);
    set_array(&r, f, "bufs", at, (uint32_t)n);
    set_array(&r, f, "bufcounts", rows, (uint32_t)n);
    set_array(&r, f, "buftypes", types, (uint32_t)n);
    set_int(&r, f, "bytes", ret == NC_NOERR_ ? total : 0);
    set_array(&r, f, "row_bytes", bytes, ret == NC_NOERR_ ? (uint32_t)n : 0);
    append(w, &r, f, ret);
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[2], "new") && strcmp(argv[2], "old")))
        die("usage: nc_multi_synth DIR new|old", "");
    const char *dir = argv[1];
    int old = !strcmp(argv[2], "old");
    /* the table: this build's, or with the multi-variable entries' ROW_BYTES fields left off */
    rec_func_desc *funcs = malloc(rec_function_count * sizeof *funcs);
    if (!funcs)
        die("out of memory", "");
    memcpy(funcs, rec_functions, rec_function_count * sizeof *funcs);
    for (size_t i = 0; old && i < rec_function_count; i++)
        if (funcs[i].nargs && funcs[i].args[funcs[i].nargs - 1].kind == REC_KIND_ROW_BYTES)
            funcs[i].nargs--;
    rec_error err;
    rec_table *table = rec_table_new(funcs, rec_function_count, &err);
    if (!table)
        die(err.msg, "");
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        die("cannot create ", dir);
    rec_trace_info info = {.nranks = 1, .time_resolution = 1e-7, .window = REC_WINDOW_DEFAULT};
    if (rec_write_global_metadata(dir, &info, table, NULL, &err) != 0)
        die(err.msg, "");
    rec_writer_options o;
    rec_writer_options_init(&o);
    o.table = table;
    rec_writer *w = rec_writer_open(dir, 0, &o, &err);
    if (!w)
        die(err.msg, "");

    rec_record r;
    memset(&r, 0, sizeof r);
    const rec_func_desc *create = fn(table, "ncmpi_create");
    set_int(&r, create, "comm", 1); /* MPI_COMM_WORLD */
    set_int(&r, create, "path", rec_writer_path_id(w, "/out/multi.nc"));
    set_int(&r, create, "ncidp", NCID);
    append(w, &r, create, NC_NOERR_);
    const rec_func_desc *def_var = fn(table, "ncmpi_def_var");
    static const char *const names[] = {"A", "B", "C"};
    for (int v = 0; v < 3; v++) {
        memset(&r, 0, sizeof r);
        set_int(&r, def_var, "ncid", NCID);
        r.args[field(def_var, "name")] = (rec_value){.ptr = names[v], .len = 1};
        set_int(&r, def_var, "xtype", 5); /* NC_FLOAT */
        set_int(&r, def_var, "varidp", v);
        append(w, &r, def_var, NC_NOERR_);
    }
    const rec_func_desc *mput = fn(table, "ncmpi_mput_vara_all"), *mget = fn(table, "ncmpi_mget_vara_float");
    multi(w, mput, 3, (const int64_t[]){0, 1, 0}, (const int64_t[]){128, 128, 64}, NC_NOERR_);
    multi(w, mget, 2, (const int64_t[]){1, 2}, (const int64_t[]){16, 8}, NC_NOERR_);
    multi(w, mput, 1, (const int64_t[]){0}, (const int64_t[]){4}, NC_EINVAL_);
    if (old)
        multi(w, mput, 3, (const int64_t[]){1, 1, 1}, (const int64_t[]){16, 16, 8}, NC_NOERR_);
    const rec_func_desc *put = fn(table, "ncmpi_put_vara_float_all");
    memset(&r, 0, sizeof r);
    static const int64_t one[2] = {0, 1};
    set_int(&r, put, "ncid", NCID);
    set_int(&r, put, "varid", 2);
    set_array(&r, put, "start", one, 2);
    set_array(&r, put, "count", one, 2);
    set_int(&r, put, "bytes", 4);
    append(w, &r, put, NC_NOERR_);
    const rec_func_desc *close_fn = fn(table, "ncmpi_close");
    memset(&r, 0, sizeof r);
    set_int(&r, close_fn, "ncid", NCID);
    append(w, &r, close_fn, NC_NOERR_);
    if (rec_writer_close(w, &err) != 0)
        die(err.msg, "");
    rec_table_free(table);
    free(funcs);
    return 0;
}
