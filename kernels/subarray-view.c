/* subarray-view: the MPI-IO pattern of structured-grid codes that write a
 * global 2-D array in one collective call (e.g. the MPI-IO "coll_perf" and
 * many CFD restart writers). The array is decomposed over a 2-D process grid
 * (MPI_Dims_create); each rank's tile is described by
 * MPI_Type_create_subarray and installed as the filetype with
 * MPI_File_set_view, so one MPI_File_write_all moves the whole tile. ROMIO
 * hints (cb_nodes, romio_cb_write/read=enable) force collective buffering.
 * Each step appends one global array (view displacement = step x array
 * bytes); the file is then reopened and read back with read_all. */
#include "kernel_common.h"

#include <stdlib.h>

static const char SUMMARY[] =
    "2-D subarray filetype + set_view, collective write_all/read_all with ROMIO hints.";

typedef struct {
    int rows; /* tile rows per rank */
    int cols; /* tile columns per rank */
    int steps;
    int cb_nodes; /* 0: min(N, 2) */
} subarray_options;

typedef struct {
    int global[2], local[2], start[2];
    MPI_Datatype filetype;
    int tile_elements;
    MPI_Offset array_bytes;
} tile_layout;

static tile_layout make_layout(const subarray_options *opt)
{
    int dims[2] = {0, 0};
    MPI_Dims_create(kernel.nprocs, 2, dims);
    int coords[2] = {kernel.rank / dims[1], kernel.rank % dims[1]};
    tile_layout t;
    t.local[0] = opt->rows;
    t.local[1] = opt->cols;
    for (int d = 0; d < 2; d++) {
        t.global[d] = dims[d] * t.local[d];
        t.start[d] = coords[d] * t.local[d];
    }
    MPI_Type_create_subarray(2, t.global, t.local, t.start, MPI_ORDER_C, MPI_DOUBLE, &t.filetype);
    MPI_Type_commit(&t.filetype);
    t.tile_elements = opt->rows * opt->cols;
    t.array_bytes = (MPI_Offset)t.global[0] * t.global[1] * (MPI_Offset)sizeof(double);
    return t;
}

/* Values depend on the global (row, col) and the step only. */
static void fill_tile(double *buf, const tile_layout *t, int step)
{
    for (int r = 0; r < t->local[0]; r++)
        for (int c = 0; c < t->local[1]; c++) {
            uint64_t cell = (uint64_t)(t->start[0] + r) * (uint64_t)t->global[1] + (uint64_t)(t->start[1] + c);
            buf[r * t->local[1] + c] = kernel_double_value(cell, (uint64_t)step, 0x5B);
        }
}

static MPI_Info make_hints(const subarray_options *opt)
{
    MPI_Info info;
    char cb_nodes[16];
    snprintf(cb_nodes, sizeof cb_nodes, "%d", opt->cb_nodes ? opt->cb_nodes : (kernel.nprocs < 2 ? 1 : 2));
    MPI_Info_create(&info);
    MPI_Info_set(info, "cb_nodes", cb_nodes);
    MPI_Info_set(info, "romio_cb_write", "enable");
    MPI_Info_set(info, "romio_cb_read", "enable");
    return info;
}

int main(int argc, char **argv)
{
    subarray_options opt = {.rows = 64, .cols = 48, .steps = 2, .cb_nodes = 0};
    const kernel_option options[] = {
        KOPT_INT_OPT("--rows", &opt.rows, 1, "tile rows per rank"),
        KOPT_INT_OPT("--cols", &opt.cols, 1, "tile columns per rank"),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "global arrays appended to the file"),
        KOPT_INT_OPT("--cb-nodes", &opt.cb_nodes, 0, "cb_nodes hint (0: min(N, 2))"),
    };
    kernel_init(&argc, &argv, "subarray-view", SUMMARY, options, KOPT_COUNT(options));

    tile_layout tile = make_layout(&opt);
    MPI_Info hints = make_hints(&opt);
    const long long tile_bytes = (long long)tile.tile_elements * (long long)sizeof(double);
    double *buf = kernel_alloc((size_t)tile_bytes);
    double *expected = kernel_alloc((size_t)tile_bytes);
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "subarray.dat");

    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, hints, &fh);
    for (int step = 0; step < opt.steps; step++) {
        KMPIIO(MPI_File_set_view, fh, step * tile.array_bytes, MPI_DOUBLE, tile.filetype, "native", hints);
        fill_tile(buf, &tile, step);
        KMPIIO_DATA(MPI_File_write_all, tile_bytes, fh, buf, tile.tile_elements, MPI_DOUBLE, MPI_STATUS_IGNORE);
    }
    KMPIIO(MPI_File_close, &fh);

    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_RDONLY, hints, &fh);
    for (int step = 0; step < opt.steps; step++) {
        KMPIIO(MPI_File_set_view, fh, step * tile.array_bytes, MPI_DOUBLE, tile.filetype, "native", hints);
        KMPIIO_DATA(MPI_File_read_all, tile_bytes, fh, buf, tile.tile_elements, MPI_DOUBLE, MPI_STATUS_IGNORE);
        fill_tile(expected, &tile, step);
        kernel_check_equal(buf, expected, (size_t)tile.tile_elements, sizeof(double), "step %d tile (%d,%d)",
                           step, tile.start[0], tile.start[1]);
    }
    KMPIIO(MPI_File_close, &fh);

    free(buf);
    free(expected);
    MPI_Info_free(&hints);
    MPI_Type_free(&tile.filetype);
    return kernel_finish();
}
