/* proc_reads: a program that reads its own /proc/self/status (as memory
 * reporters and job-step tools do), an excluded path the tracer does not
 * record, around its own file I/O.
 *   proc_reads OUTDIR
 * Every rank reads /proc/self/status twice (open/read/close, then
 * fopen/fgets/fclose), writes OUTDIR/data.<rank> (open/write/close), reads
 * /proc/self/status once more, then reads its file back (fopen/fread/fclose)
 * and checks it. PROC_READS_SKIP=1 leaves out the /proc reads: the same
 * trace, ids included (tests/corpus/handle_ids.sh). */
#include "corpus.h"

#include <fcntl.h>
#include <unistd.h>

enum { BYTES = 8192 };

/* The status file, both ways a program reads one; VmRSS must be in it. */
static void read_status(void)
{
    if (getenv("PROC_READS_SKIP") && strcmp(getenv("PROC_READS_SKIP"), "1") == 0)
        return;
    char buf[4096];
    int fd = open("/proc/self/status", O_RDONLY);
    if (fd < 0)
        corpus_fail("open /proc/self/status: %s", strerror(errno));
    ssize_t n, total = 0;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        total += n;
    if (n < 0 || close(fd) != 0 || total == 0)
        corpus_fail("reading /proc/self/status: %s", n < 0 ? strerror(errno) : "empty");
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        corpus_fail("fopen /proc/self/status: %s", strerror(errno));
    int rss = 0;
    while (fgets(buf, sizeof buf, f))
        rss |= strncmp(buf, "VmRSS:", 6) == 0;
    fclose(f);
    if (!rss)
        corpus_fail("/proc/self/status has no VmRSS line");
}

int main(int argc, char **argv)
{
    corpus_init(&argc, &argv, "proc_reads");
    read_status();
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "data.%d", corpus_rank);
    static unsigned char out[BYTES], in[BYTES];
    for (int i = 0; i < BYTES; i++)
        out[i] = (unsigned char)(corpus_rank + 7 * i);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    if (write(fd, out, BYTES) != BYTES || close(fd) != 0)
        corpus_fail("writing %s: %s", path, strerror(errno));
    read_status();
    FILE *f = fopen(path, "r");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    if (fread(in, 1, BYTES, f) != BYTES || fclose(f) != 0)
        corpus_fail("reading %s back: %s", path, strerror(errno));
    if (memcmp(in, out, BYTES) != 0)
        corpus_fail("%s reads back different", path);
    return corpus_finish();
}
