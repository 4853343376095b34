/* large-count: the MPI-4 large-count calls (the *_c functions, counts as
 * MPI_Count) that IOR and other codes built against an MPI-4 library make.
 * As IOR does, the access functions are chosen once and called through
 * pointers: each rank writes its block of every segment with
 * MPI_File_write_at_all_c (or write_at_c), syncs, reads it back with
 * read_at_all_c (read_at_c); then it posts MPI_File_iwrite_at_c requests
 * and waits for them; last it sets a view and writes and reads rows with
 * write_all_c/read_all_c. The options travel by MPI_Bcast_c, the checksums
 * meet in MPI_Allreduce_c, a request's size is checked with
 * MPI_Type_contiguous_c and MPI_Type_size_c. Everything read is compared.
 * Built only against an MPI-4 library. (MPICH 4.0's ROMIO cannot take a
 * large-count datatype in a file view or an access, so those stay MPI-3.) */
#include "kernel_common.h"

#include <stdlib.h>
#include <string.h>

static const char SUMMARY[] =
    "MPI-4 large-count MPI-IO: *_c accesses through function pointers, requests and a view.";

typedef struct {
    int block;    /* bytes per rank per segment */
    int segments;
    int requests; /* nonblocking writes per rank */
    int rows;     /* rows written through the view */
    int collective;
} lc_options;

typedef int (*lc_access)(MPI_File, MPI_Offset, void *, MPI_Count, MPI_Datatype, MPI_Status *);

enum { LC_STREAM = 0x4C };

static MPI_Offset block_offset(const lc_options *opt, int segment)
{
    return ((MPI_Offset)segment * kernel.nprocs + kernel.rank) * opt->block;
}

/* IOR's shape: one access function for writes, one for reads, chosen by --collective. */
static void blocks_phase(MPI_File fh, const lc_options *opt, unsigned char *buf, unsigned char *expected)
{
    /* const void *buf in the write prototype: the pointer types differ only there */
    lc_access write_fn = opt->collective ? (lc_access)MPI_File_write_at_all_c : (lc_access)MPI_File_write_at_c;
    lc_access read_fn = opt->collective ? MPI_File_read_at_all_c : MPI_File_read_at_c;
    const char *write_name = opt->collective ? "MPI_File_write_at_all_c" : "MPI_File_write_at_c";
    const char *read_name = opt->collective ? "MPI_File_read_at_all_c" : "MPI_File_read_at_c";
    for (int s = 0; s < opt->segments; s++) {
        MPI_Offset at = block_offset(opt, s);
        kernel_fill_bytes(buf, (size_t)opt->block, LC_STREAM, (uint64_t)at);
        kio_note(write_name, opt->block);
        kmpi_checked(write_name, write_fn(fh, at, buf, (MPI_Count)opt->block, MPI_BYTE, MPI_STATUS_IGNORE));
    }
    KMPIIO(MPI_File_sync, fh);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int s = 0; s < opt->segments; s++) {
        MPI_Offset at = block_offset(opt, s);
        memset(buf, 0, (size_t)opt->block);
        kio_note(read_name, opt->block);
        kmpi_checked(read_name, read_fn(fh, at, buf, (MPI_Count)opt->block, MPI_BYTE, MPI_STATUS_IGNORE));
        kernel_fill_bytes(expected, (size_t)opt->block, LC_STREAM, (uint64_t)at);
        kernel_check_equal(buf, expected, (size_t)opt->block, 1, "segment %d", s);
    }
}

/* Nonblocking: requests of a block each, past the blocks. */
static void requests_phase(MPI_File fh, const lc_options *opt, unsigned char *buf)
{
    const MPI_Offset start = (MPI_Offset)opt->segments * kernel.nprocs * opt->block;
    MPI_Datatype chunk;
    MPI_Type_contiguous_c((MPI_Count)opt->block, MPI_BYTE, &chunk);
    MPI_Type_commit(&chunk);
    MPI_Count chunk_size = 0;
    MPI_Type_size_c(chunk, &chunk_size);
    if (chunk_size != opt->block)
        kernel_fail("MPI_Type_size_c says %lld bytes, not %d", (long long)chunk_size, opt->block);
    MPI_Request *requests = kernel_alloc(sizeof(MPI_Request) * (size_t)opt->requests);
    for (int r = 0; r < opt->requests; r++) {
        MPI_Offset at = start + ((MPI_Offset)r * kernel.nprocs + kernel.rank) * opt->block;
        kernel_fill_bytes(buf + (size_t)r * (size_t)opt->block, (size_t)opt->block, LC_STREAM, (uint64_t)at);
        KMPIIO_DATA(MPI_File_iwrite_at_c, opt->block, fh, at, buf + (size_t)r * (size_t)opt->block,
                    (MPI_Count)opt->block, MPI_BYTE, &requests[r]);
    }
    for (int r = 0; r < opt->requests; r++)
        MPI_Wait(&requests[r], MPI_STATUS_IGNORE);
    free(requests);
    MPI_Type_free(&chunk);
}

/* A view of each rank's part of a row: write_all_c and read_all_c through it. */
static void view_phase(MPI_File fh, const lc_options *opt, unsigned char *buf, unsigned char *expected)
{
    const MPI_Offset start = ((MPI_Offset)opt->segments + opt->requests) * kernel.nprocs * opt->block;
    int row = kernel.nprocs * opt->block, part = opt->block, first = kernel.rank * opt->block;
    MPI_Datatype mine;
    MPI_Type_create_subarray(1, &row, &part, &first, MPI_ORDER_C, MPI_BYTE, &mine);
    MPI_Type_commit(&mine);
    KMPIIO(MPI_File_set_view, fh, start, MPI_BYTE, mine, "native", MPI_INFO_NULL);
    for (int r = 0; r < opt->rows; r++) {
        kernel_fill_bytes(buf, (size_t)opt->block, LC_STREAM, (uint64_t)(start + (MPI_Offset)r * row + first));
        KMPIIO_DATA(MPI_File_write_all_c, opt->block, fh, buf, (MPI_Count)opt->block, MPI_BYTE,
                    MPI_STATUS_IGNORE);
    }
    KMPIIO(MPI_File_sync, fh);
    KMPIIO(MPI_File_seek, fh, 0, MPI_SEEK_SET);
    for (int r = 0; r < opt->rows; r++) {
        memset(buf, 0, (size_t)opt->block);
        KMPIIO_DATA(MPI_File_read_all_c, opt->block, fh, buf, (MPI_Count)opt->block, MPI_BYTE, MPI_STATUS_IGNORE);
        kernel_fill_bytes(expected, (size_t)opt->block, LC_STREAM, (uint64_t)(start + (MPI_Offset)r * row + first));
        kernel_check_equal(buf, expected, (size_t)opt->block, 1, "row %d", r);
    }
    MPI_Type_free(&mine);
}

int main(int argc, char **argv)
{
    lc_options opt = {.block = 65536, .segments = 2, .requests = 2, .rows = 2, .collective = 1};
    const kernel_option options[] = {
        KOPT_INT_OPT("--block-size", &opt.block, 1, "bytes per rank per segment, request and row"),
        KOPT_INT_OPT("--segments", &opt.segments, 1, "segments written with write_at(_all)_c"),
        KOPT_INT_OPT("--requests", &opt.requests, 1, "MPI_File_iwrite_at_c requests per rank"),
        KOPT_INT_OPT("--rows", &opt.rows, 1, "rows written through the view with write_all_c"),
        KOPT_INT_OPT("--collective", &opt.collective, 0, "1: write_at_all_c/read_at_all_c, 0: independent"),
    };
    kernel_init(&argc, &argv, "large-count", SUMMARY, options, KOPT_COUNT(options));
    int params[5] = {opt.block, opt.segments, opt.requests, opt.rows, opt.collective};
    MPI_Bcast_c(params, 5, MPI_INT, 0, MPI_COMM_WORLD);

    char path[KERNEL_PATH_MAX];
    kernel_path(path, "large-count.dat");
    unsigned char *buf = kernel_alloc((size_t)opt.block * (size_t)(opt.requests > 1 ? opt.requests : 1));
    unsigned char *expected = kernel_alloc((size_t)opt.block);
    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    blocks_phase(fh, &opt, buf, expected);
    requests_phase(fh, &opt, buf);
    view_phase(fh, &opt, buf, expected);
    KMPIIO(MPI_File_close, &fh);

    long long mine = (long long)kernel_hash((uint64_t)kernel.rank, (uint64_t)opt.block, 7) & 0xffff, sum = 0;
    MPI_Allreduce_c(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum < mine)
        kernel_fail("MPI_Allreduce_c summed %lld, less than this rank's %lld", sum, mine);
    free(buf);
    free(expected);
    return kernel_finish();
}
