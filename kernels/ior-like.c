/* ior-like: the shared-file MPI-IO pattern of the IOR benchmark. The file is
 * a sequence of segments; within a segment every rank owns one block made of
 * transfers. In segmented mode a rank's block is contiguous (offset =
 * segment*N*block + rank*block + t*transfer); in strided mode the transfers of
 * all ranks interleave (offset = segment*N*block + t*N*transfer +
 * rank*transfer). The file is preallocated with MPI_File_set_size, written
 * with MPI_File_write_at_all (or write_at), synced and size-checked, then
 * reopened and read back with read_at_all (or read_at) and compared.
 *
 * --scaling weak (default): --block-size bytes per rank per segment, so a
 * segment is N x block. --scaling strong: a segment is --segment-size bytes
 * whatever N; each rank's block is segment-size/N, i.e. segment-size /
 * (N x transfer-size) transfers of --transfer-size bytes, so N must divide
 * the number of transfers per segment (48 by default). */
#include "kernel_common.h"

#include <stdlib.h>
#include <string.h>

static const char SUMMARY[] =
    "IOR: one shared file, segmented or strided transfers through MPI-IO, write then read back.";

typedef struct {
    const char *mode; /* "segmented" or "strided" */
    const char *fs_prefix; /* ROMIO file-system prefix of the file name ("ufs:"), or "" */
    int collective;
    int block_size;    /* bytes per rank per segment */
    int transfer_size; /* bytes per call */
    int segments;
    const char *scaling;
    int segment_size; /* strong scaling: bytes per segment, all ranks together */
} ior_options;

/* The file is filled with one byte stream indexed by file offset, so any
 * transfer can be regenerated knowing only where it lands. */
enum { IOR_STREAM = 0x10 };

static MPI_Offset transfer_offset(const ior_options *opt, int segment, int transfer)
{
    const MPI_Offset nprocs = kernel.nprocs, block = opt->block_size, xfer = opt->transfer_size;
    MPI_Offset segment_start = (MPI_Offset)segment * nprocs * block;
    if (strcmp(opt->mode, "strided") == 0)
        return segment_start + ((MPI_Offset)transfer * nprocs + kernel.rank) * xfer;
    return segment_start + (MPI_Offset)kernel.rank * block + (MPI_Offset)transfer * xfer;
}

/* One transfer of --transfer-size bytes at `offset`: MPI_File_<op>_at_all, or
 * MPI_File_<op>_at with --collective 0 (op is write or read). A macro, so
 * that each is counted under the name of the function it calls. */
#define TRANSFER(op, opt, fh, offset, buf)                                                                  \
    ((opt)->collective ? KMPIIO_DATA(MPI_File_##op##_at_all, (opt)->transfer_size, fh, offset, buf,       \
                                     (opt)->transfer_size, MPI_BYTE, MPI_STATUS_IGNORE)                  \
                       : KMPIIO_DATA(MPI_File_##op##_at, (opt)->transfer_size, fh, offset, buf,           \
                                     (opt)->transfer_size, MPI_BYTE, MPI_STATUS_IGNORE))

static void write_phase(const char *path, const ior_options *opt, unsigned char *buf)
{
    const MPI_Offset file_size = (MPI_Offset)opt->segments * kernel.nprocs * opt->block_size;
    const int transfers = opt->block_size / opt->transfer_size;
    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    KMPIIO(MPI_File_set_size, fh, file_size);
    for (int s = 0; s < opt->segments; s++)
        for (int t = 0; t < transfers; t++) {
            MPI_Offset offset = transfer_offset(opt, s, t);
            kernel_fill_bytes(buf, (size_t)opt->transfer_size, IOR_STREAM, (uint64_t)offset);
            TRANSFER(write, opt, fh, offset, buf);
        }
    KMPIIO(MPI_File_sync, fh);
    MPI_Offset size_on_disk = 0;
    KMPIIO(MPI_File_get_size, fh, &size_on_disk);
    if (size_on_disk != file_size)
        kernel_fail("%s is %lld bytes after writing, expected %lld", path, (long long)size_on_disk,
                    (long long)file_size);
    KMPIIO(MPI_File_close, &fh);
}

static void read_phase(const char *path, const ior_options *opt, unsigned char *buf, unsigned char *expected)
{
    const int transfers = opt->block_size / opt->transfer_size;
    MPI_File fh;
    KMPIIO(MPI_File_open, MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    for (int s = 0; s < opt->segments; s++)
        for (int t = 0; t < transfers; t++) {
            MPI_Offset offset = transfer_offset(opt, s, t);
            memset(buf, 0, (size_t)opt->transfer_size);
            TRANSFER(read, opt, fh, offset, buf);
            kernel_fill_bytes(expected, (size_t)opt->transfer_size, IOR_STREAM, (uint64_t)offset);
            kernel_check_equal(buf, expected, (size_t)opt->transfer_size, 1,
                               "segment %d transfer %d (file offset %lld)", s, t, (long long)offset);
        }
    KMPIIO(MPI_File_close, &fh);
}

int main(int argc, char **argv)
{
    /* 786432 = 48 transfers of 16384 bytes: every N in {1, 2, 3, 4, 6, 8, 12, 16}
     * gets a whole number of transfers. */
    ior_options opt = {.mode = "segmented", .fs_prefix = "", .collective = 1, .block_size = 65536, .transfer_size = 16384,
                       .segments = 4, .scaling = "weak", .segment_size = 786432};
    const kernel_option options[] = {
        KOPT_SCALING_OPT(&opt.scaling),
        KOPT_STRING_OPT("--mode", &opt.mode, "segmented (contiguous block per rank) or strided (interleaved transfers)"),
        KOPT_INT_OPT("--collective", &opt.collective, 0, "1: MPI_File_write_at_all/read_at_all, 0: write_at/read_at"),
        KOPT_STRING_OPT("--fs-prefix", &opt.fs_prefix, "ROMIO file-system prefix for the file name, as `ior -o ufs:/path` gives it"),
        KOPT_WEAK_INT_OPT("--block-size", &opt.block_size, 1, "weak: bytes per rank per segment"),
        KOPT_STRONG_INT_OPT("--segment-size", &opt.segment_size, 1,
                            "strong: bytes per segment, all ranks together (N x --transfer-size must divide it)"),
        KOPT_INT_OPT("--transfer-size", &opt.transfer_size, 1, "bytes per I/O call (divides --block-size; strong: N x it divides --segment-size)"),
        KOPT_INT_OPT("--segments", &opt.segments, 1, "segments in the file"),
    };
    kernel_init(&argc, &argv, "ior-like", SUMMARY, options, KOPT_COUNT(options));
    if (strcmp(opt.mode, "segmented") != 0 && strcmp(opt.mode, "strided") != 0)
        kernel_usage_error("--mode must be segmented or strided, got '%s'", opt.mode);
    if (opt.collective > 1)
        kernel_usage_error("--collective must be 0 or 1, got %d", opt.collective);
    if (kernel_parse_scaling(opt.scaling) == KERNEL_SCALING_STRONG)
        opt.block_size = kernel_strong_share_in_units("--segment-size", opt.segment_size, "--transfer-size",
                                                      opt.transfer_size, "transfers");
    if (opt.block_size % opt.transfer_size != 0)
        kernel_usage_error("--transfer-size %d does not divide --block-size %d", opt.transfer_size,
                           opt.block_size);

    char path[KERNEL_PATH_MAX], name[KERNEL_PATH_MAX + 32];
    kernel_path(path, "ior.dat");
    snprintf(name, sizeof name, "%s%s", opt.fs_prefix, path); /* MPI-IO's name for it */
    unsigned char *buf = kernel_alloc((size_t)opt.transfer_size);
    unsigned char *expected = kernel_alloc((size_t)opt.transfer_size);
    write_phase(name, &opt, buf);
    read_phase(name, &opt, buf, expected);
    free(buf);
    free(expected);
    return kernel_finish();
}
