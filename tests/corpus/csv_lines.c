/* csv_lines: text written with fprintf and read back line by line, the way
 * post-processing scripts turned into C and small analysis codes do.
 *   mpiexec -np N csv_lines --setup OUTDIR   (untraced: makes OUTDIR/input.txt)
 *   mpiexec -np N csv_lines OUTDIR
 * The setup (rank 0) writes input.txt, 40 lines of varied lengths, one of
 * them longer than the 64-byte fgets buffer. In the run each rank writes
 * OUTDIR/rank<r>.csv (a header with fputs, then rows of a few different
 * lengths with fprintf), closes it, reopens it and reads it back with fgets
 * and, after rewind, with getline, checking every length; then writes
 * fixed<r>.txt, ten 16-byte records in one fwrite, and reads it back the
 * same way; then all ranks read input.txt the same two ways. */
#include "corpus.h"

enum { ROWS = 24, INPUT_LINES = 40, FGETS_SIZE = 64, FIXED = 10 };

/* Line i of input.txt: 3 to 99 bytes before its newline. */
static int input_line_length(int i)
{
    return i == 17 ? 99 : 3 + (i * 11) % 37;
}

static void make_input(const char *outdir)
{
    char path[CORPUS_PATH_MAX];
    snprintf(path, sizeof path, "%s/input.txt", outdir);
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    FILE *f = fopen(path, "w");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    for (int i = 0; i < INPUT_LINES; i++) {
        for (int b = 0; b < input_line_length(i); b++)
            fputc('A' + (i + b) % 26, f);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
}

/* Reads the file line by line with fgets (64 bytes), then with getline,
 * each line's length checked against lengths[] (newline included). */
static void read_back(const char *path, const int *lengths, int nlines)
{
    FILE *f = fopen(path, "r");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    char buf[FGETS_SIZE];
    for (int i = 0; i < nlines; i++)
        for (int left = lengths[i]; left > 0;) { /* a long line takes several fgets */
            if (!fgets(buf, sizeof buf, f))
                corpus_fail("fgets %s: line %d ends early", path, i);
            int got = (int)strlen(buf), want = left < FGETS_SIZE - 1 ? left : FGETS_SIZE - 1;
            if (got != want)
                corpus_fail("fgets %s: line %d: %d bytes, expected %d", path, i, got, want);
            left -= got;
        }
    if (fgets(buf, sizeof buf, f))
        corpus_fail("fgets %s: more than %d lines", path, nlines);
    rewind(f);
    char *line = NULL;
    size_t cap = 0;
    for (int i = 0; i < nlines; i++) {
        ssize_t got = getline(&line, &cap, f);
        if (got != lengths[i])
            corpus_fail("getline %s: line %d: %zd bytes, expected %d", path, i, got, lengths[i]);
    }
    if (getline(&line, &cap, f) != -1)
        corpus_fail("getline %s: more than %d lines", path, nlines);
    free(line);
    if (fclose(f) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_input))
        return 0;
    corpus_init(&argc, &argv, "csv_lines");
    char path[CORPUS_PATH_MAX];
    corpus_path(path, "rank%d.csv", corpus_rank);
    FILE *f = fopen(path, "w");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    int lengths[ROWS + 1];
    const char *header = "step,rank,x,y,energy\n";
    if (fputs(header, f) == EOF)
        corpus_fail("fputs %s: %s", path, strerror(errno));
    lengths[0] = (int)strlen(header);
    for (int i = 1; i <= ROWS; i++) /* rows of 4 lengths: the values grow by a digit every few steps */
        lengths[i] = fprintf(f, "%d,%d,%.*f,%d,%s\n", i * 37, corpus_rank, i % 4, i * 0.5, i % 3 * 1000,
                             i % 5 ? "ok" : "restart");
    if (fclose(f) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
    read_back(path, lengths, ROWS + 1);

    /* A block of fixed-width records written at once: FIXED lines of 16 bytes. */
    char block[FIXED * 16 + 1];
    int fixed[FIXED];
    for (int i = 0; i < FIXED; i++)
        fixed[i] = snprintf(block + i * 16, 17, "%06d,%08d\n", corpus_rank, i * 1111);
    corpus_path(path, "fixed%d.txt", corpus_rank);
    f = fopen(path, "w");
    if (!f || fwrite(block, 16, FIXED, f) != FIXED || fclose(f) != 0)
        corpus_fail("writing %s: %s", path, strerror(errno));
    read_back(path, fixed, FIXED);

    MPI_Barrier(MPI_COMM_WORLD);
    int input[INPUT_LINES];
    for (int i = 0; i < INPUT_LINES; i++)
        input[i] = input_line_length(i) + 1;
    corpus_path(path, "input.txt");
    read_back(path, input, INPUT_LINES);
    return corpus_finish();
}
