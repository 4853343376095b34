/* serial-io: the "everyone reads the input, rank 0 writes the report"
 * pattern of codes that never adopted parallel I/O. A separate setup run
 * (--setup) has rank 0 create OUTDIR/input.dat with plain POSIX. The real run
 * has every rank open, fstat and read the whole input (checking it against
 * the pattern it was made from), checksum its own stripe of blocks, and rank 0
 * gather the sums and write OUTDIR/results.txt through stdio (fopen, fwrite,
 * fprintf, fclose), then read it back with fread and compare. */
#include "kernel_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char SUMMARY[] =
    "Serial I/O: all ranks read one input file, rank 0 writes a stdio report (run --setup first).";

typedef struct {
    bool setup;
    int size;  /* --setup: bytes of input.dat */
    int chunk; /* bytes per read call */
    int block; /* checksum stripe unit: block b belongs to rank b % N */
} serial_options;

enum { INPUT_STREAM = 0x5E };

static const char RESULTS_HEADER[] = "# serial-io results: rank, blocks, byte sum\n";

static void write_input(const serial_options *opt)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "input.dat");
    unsigned char *buf = kernel_alloc((size_t)opt->chunk);
    int fd = kio_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    for (size_t done = 0; done < (size_t)opt->size; done += (size_t)opt->chunk) {
        size_t n = (size_t)opt->size - done < (size_t)opt->chunk ? (size_t)opt->size - done : (size_t)opt->chunk;
        kernel_fill_bytes(buf, n, INPUT_STREAM, done);
        kio_write_exact(fd, buf, n, path);
    }
    struct stat st;
    if (KIO(fstat, fd, &st) != 0)
        kernel_fail_errno("fstat of %s failed", path);
    if (st.st_size != opt->size)
        kernel_fail("%s has %lld bytes after setup, expected %d", path, (long long)st.st_size, opt->size);
    kio_close(fd, path);
    free(buf);
}

/* Reads the whole input (read() until it returns 0), checking every byte. */
static unsigned char *read_input(const serial_options *opt, size_t *size_out)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "input.dat");
    int fd = KIO(open, path, O_RDONLY);
    if (fd < 0) {
        if (errno == ENOENT)
            kernel_fail("input %s is missing: run 'serial-io --setup %s' first", path, kernel.outdir);
        kernel_fail_errno("cannot open input %s", path);
    }
    struct stat st;
    if (KIO(fstat, fd, &st) != 0)
        kernel_fail_errno("fstat of %s failed", path);
    size_t size = (size_t)st.st_size;
    unsigned char *data = kernel_alloc(size + (size_t)opt->chunk);
    size_t done = 0;
    for (;;) {
        long long n = KIO_XFER(read, fd, data + done, (size_t)opt->chunk);
        if (n < 0)
            kernel_fail_errno("read of %s failed", path);
        if (n == 0)
            break;
        done += (size_t)n;
        if (done > size)
            kernel_fail("%s grew while being read", path);
    }
    kio_close(fd, path);
    if (done != size)
        kernel_fail("read %zu bytes of %s, fstat said %zu", done, path, size);
    unsigned char *expected = kernel_alloc(size);
    kernel_fill_bytes(expected, size, INPUT_STREAM, 0);
    kernel_check_equal(data, expected, size, 1, "input.dat");
    free(expected);
    *size_out = size;
    return data;
}

typedef struct {
    long long blocks;
    long long sum;
} stripe_result;

static stripe_result checksum_my_stripe(const unsigned char *data, size_t size, size_t block)
{
    stripe_result r = {0, 0};
    for (size_t b = (size_t)kernel.rank; b * block < size; b += (size_t)kernel.nprocs) {
        size_t end = (b + 1) * block < size ? (b + 1) * block : size;
        for (size_t i = b * block; i < end; i++)
            r.sum += data[i];
        r.blocks++;
    }
    return r;
}

/* The report line of one rank; shared by the writer and the verifier. */
static int format_rank_line(char *line, size_t size, int rank, const stripe_result *r)
{
    return snprintf(line, size, "rank %d blocks %lld sum %lld\n", rank, r->blocks, r->sum);
}

static void write_and_verify_results(const stripe_result *results, long long input_size)
{
    char path[KERNEL_PATH_MAX];
    kernel_path(path, "results.txt");
    size_t capacity = sizeof RESULTS_HEADER + (size_t)kernel.nprocs * 80 + 80;
    char *expected = kernel_alloc(capacity);
    size_t expected_len = 0;

    FILE *out = kio_fopen(path, "w");
    if (KIO_XFER(fwrite, RESULTS_HEADER, 1, strlen(RESULTS_HEADER), out) != (long long)strlen(RESULTS_HEADER))
        kernel_fail_errno("fwrite to %s failed", path);
    expected_len += (size_t)snprintf(expected, capacity, "%s", RESULTS_HEADER);
    for (int r = 0; r < kernel.nprocs; r++) {
        char line[80];
        format_rank_line(line, sizeof line, r, &results[r]);
        if (KIO_XFER(fprintf, out, "%s", line) < 0)
            kernel_fail_errno("fprintf to %s failed", path);
        expected_len += (size_t)snprintf(expected + expected_len, capacity - expected_len, "%s", line);
    }
    if (KIO_XFER(fprintf, out, "input_bytes %lld\n", input_size) < 0)
        kernel_fail_errno("fprintf to %s failed", path);
    expected_len += (size_t)snprintf(expected + expected_len, capacity - expected_len, "input_bytes %lld\n",
                                     input_size);
    kio_fclose(out, path);

    char *got = kernel_alloc(capacity);
    FILE *in = kio_fopen(path, "r");
    size_t got_len = 0;
    long long n;
    while ((n = KIO_XFER(fread, got + got_len, 1, capacity - got_len, in)) > 0)
        got_len += (size_t)n;
    kio_fclose(in, path);
    if (got_len != expected_len)
        kernel_fail("results.txt has %zu bytes, expected %zu", got_len, expected_len);
    kernel_check_equal(got, expected, expected_len, 1, "results.txt");
    free(got);
    free(expected);
}

int main(int argc, char **argv)
{
    serial_options opt = {.setup = false, .size = 65536, .chunk = 8192, .block = 4096};
    const kernel_option options[] = {
        KOPT_FLAG_OPT("--setup", &opt.setup, "create OUTDIR/input.dat (rank 0 only) and exit"),
        KOPT_INT_OPT("--size", &opt.size, 1, "--setup: bytes of input.dat"),
        KOPT_INT_OPT("--chunk", &opt.chunk, 1, "bytes per read() of the input"),
        KOPT_INT_OPT("--block", &opt.block, 1, "checksum stripe unit (block b is summed by rank b % N)"),
    };
    kernel_init(&argc, &argv, "serial-io", SUMMARY, options, KOPT_COUNT(options));

    if (opt.setup) {
        if (kernel.rank == 0)
            write_input(&opt);
        return kernel_finish();
    }

    size_t size = 0;
    unsigned char *data = read_input(&opt, &size);
    stripe_result mine = checksum_my_stripe(data, size, (size_t)opt.block);
    free(data);
    stripe_result *all = kernel.rank == 0 ? kernel_alloc(sizeof(stripe_result) * (size_t)kernel.nprocs) : NULL;
    MPI_Gather(&mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (kernel.rank == 0) {
        write_and_verify_results(all, (long long)size);
        free(all);
    }
    return kernel_finish();
}
