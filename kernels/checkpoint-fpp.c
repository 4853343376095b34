/* checkpoint-fpp: N-to-N (file-per-process) checkpointing with plain POSIX,
 * the defensive pattern of many MPI applications. Each step every rank
 * writes ckpt.<step>.<rank>.tmp (payload with pwrite, then the header through
 * lseek + write, then fsync), closes it and renames it into place, so a crash
 * never leaves a half-written checkpoint under the final name. The rank then
 * stats it, reads the header back (read), checks the size (lseek SEEK_END),
 * verifies the payload with pread and, now that the new checkpoint exists,
 * unlinks the previous step's one.
 *
 * --scaling weak (default): --size payload bytes per rank per checkpoint.
 * --scaling strong: --total-size payload bytes per checkpoint, all ranks
 * together; each rank's file carries total/N of them in (total/chunk)/N
 * pwrite calls of --chunk bytes, so N must divide total/chunk (48 by
 * default). */
#include "kernel_common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char SUMMARY[] =
    "File-per-process POSIX checkpoints: write to .tmp, fsync, rename, verify, drop the previous one.";

typedef struct {
    int steps;
    int size;  /* payload bytes per rank per checkpoint */
    int chunk; /* bytes per pwrite/pread */
    const char *scaling;
    int total_size; /* strong scaling: payload bytes per checkpoint, all ranks together */
} checkpoint_options;

/* Fixed-size header at offset 0, written last to mark the file complete. */
typedef struct {
    char magic[8];
    int64_t step;
    int64_t rank;
    int64_t payload_bytes;
    char reserved[32];
} checkpoint_header;

static const char CHECKPOINT_MAGIC[8] = "KCKPT01";

static uint64_t payload_stream(int step)
{
    return kernel_hash((uint64_t)kernel.rank, (uint64_t)step, 0xC4);
}

static checkpoint_header make_header(int step, int size)
{
    checkpoint_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CHECKPOINT_MAGIC, sizeof h.magic);
    h.step = step;
    h.rank = kernel.rank;
    h.payload_bytes = size;
    return h;
}

static void checkpoint_path(char *path, int step)
{
    kernel_path(path, "ckpt.%d.%d", step, kernel.rank);
}

static size_t chunk_length(const checkpoint_options *opt, size_t done)
{
    size_t left = (size_t)opt->size - done;
    return left < (size_t)opt->chunk ? left : (size_t)opt->chunk;
}

static void write_checkpoint(const checkpoint_options *opt, int step, unsigned char *buf)
{
    char final_path[KERNEL_PATH_MAX], temp_path[KERNEL_PATH_MAX];
    checkpoint_path(final_path, step);
    kernel_path(temp_path, "ckpt.%d.%d.tmp", step, kernel.rank);

    int fd = kio_open(temp_path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    for (size_t done = 0; done < (size_t)opt->size; done += (size_t)opt->chunk) {
        size_t n = chunk_length(opt, done);
        kernel_fill_bytes(buf, n, payload_stream(step), done);
        kio_pwrite_exact(fd, buf, n, (off_t)(sizeof(checkpoint_header) + done), temp_path);
    }
    checkpoint_header header = make_header(step, opt->size);
    if (KIO(lseek, fd, 0, SEEK_SET) != 0)
        kernel_fail_errno("lseek to the header of %s failed", temp_path);
    kio_write_exact(fd, &header, sizeof header, temp_path);
    if (KIO(fsync, fd) != 0)
        kernel_fail_errno("fsync of %s failed", temp_path);
    kio_close(fd, temp_path);
    if (KIO(rename, temp_path, final_path) != 0)
        kernel_fail_errno("rename %s -> %s failed", temp_path, final_path);
}

static void verify_checkpoint(const checkpoint_options *opt, int step, unsigned char *buf, unsigned char *expected)
{
    char path[KERNEL_PATH_MAX];
    checkpoint_path(path, step);
    const off_t file_size = (off_t)(sizeof(checkpoint_header) + (size_t)opt->size);

    struct stat st;
    if (KIO(stat, path, &st) != 0)
        kernel_fail_errno("checkpoint %s is missing after rename", path);
    if (st.st_size != file_size)
        kernel_fail("checkpoint %s has %lld bytes, expected %lld", path, (long long)st.st_size,
                    (long long)file_size);

    int fd = kio_open(path, O_RDONLY, 0);
    checkpoint_header got, want = make_header(step, opt->size);
    kio_read_exact(fd, &got, sizeof got, path);
    kernel_check_equal(&got, &want, sizeof got, 1, "header of ckpt.%d.%d", step, kernel.rank);
    if (KIO(lseek, fd, 0, SEEK_END) != file_size)
        kernel_fail("lseek(SEEK_END) on %s does not give the checkpoint size", path);
    for (size_t done = 0; done < (size_t)opt->size; done += (size_t)opt->chunk) {
        size_t n = chunk_length(opt, done);
        kio_pread_exact(fd, buf, n, (off_t)(sizeof(checkpoint_header) + done), path);
        kernel_fill_bytes(expected, n, payload_stream(step), done);
        kernel_check_equal(buf, expected, n, 1, "ckpt.%d.%d payload bytes %zu..%zu", step, kernel.rank, done,
                           done + n);
    }
    kio_close(fd, path);
}

int main(int argc, char **argv)
{
    /* 3145728 = 48 chunks of 65536 bytes: every N in {1, 2, 3, 4, 6, 8, 12, 16}
     * gets a whole number of chunks. */
    checkpoint_options opt = {.steps = 3, .size = 262144, .chunk = 65536, .scaling = "weak",
                              .total_size = 3145728};
    const kernel_option options[] = {
        KOPT_SCALING_OPT(&opt.scaling),
        KOPT_INT_OPT("--steps", &opt.steps, 1, "checkpoints written (only the last one is kept)"),
        KOPT_WEAK_INT_OPT("--size", &opt.size, 1, "weak: payload bytes per rank per checkpoint"),
        KOPT_STRONG_INT_OPT("--total-size", &opt.total_size, 1,
                            "strong: payload bytes per checkpoint, all ranks together (N x --chunk must divide it)"),
        KOPT_INT_OPT("--chunk", &opt.chunk, 1, "bytes per pwrite/pread call"),
    };
    kernel_init(&argc, &argv, "checkpoint-fpp", SUMMARY, options, KOPT_COUNT(options));
    if (kernel_parse_scaling(opt.scaling) == KERNEL_SCALING_STRONG)
        opt.size =
            kernel_strong_share_in_units("--total-size", opt.total_size, "--chunk", opt.chunk, "chunks");

    unsigned char *buf = kernel_alloc((size_t)opt.chunk);
    unsigned char *expected = kernel_alloc((size_t)opt.chunk);
    for (int step = 0; step < opt.steps; step++) {
        write_checkpoint(&opt, step, buf);
        verify_checkpoint(&opt, step, buf, expected);
        if (step > 0) {
            char previous[KERNEL_PATH_MAX];
            checkpoint_path(previous, step - 1);
            if (KIO(unlink, previous) != 0)
                kernel_fail_errno("cannot unlink the previous checkpoint %s", previous);
        }
    }
    free(buf);
    free(expected);
    return kernel_finish();
}
