/* fortified_stdio: a program built as Debian builds LAMMPS (-O2
 * -D_FORTIFY_SOURCE=2), so its stdio and read calls reach the C library as
 * __fprintf_chk, __vfprintf_chk, __dprintf_chk, __vdprintf_chk, __fgets_chk,
 * __fread_chk, __read_chk, __pread_chk and __open_2.
 *   mpiexec -np N fortified_stdio --setup OUTDIR   (untraced: makes OUTDIR/in.melt)
 *   mpiexec -np N fortified_stdio OUTDIR
 * Rank 0 keeps a log the way LAMMPS keeps log.lammps: the input script echoed
 * line by line (read with fgets), then a thermo table through a variadic
 * helper (vfprintf). Every rank writes a text dump, dump.<r>.melt, a header of
 * ITEM: lines (fprintf) and atom rows, for 5 snapshots; a per-rank restart
 * record through a descriptor (dprintf, and vdprintf through a helper), read
 * back with read and pread; and all ranks read the input's first bytes with
 * fread. The byte counts are known in advance, so the program checks what
 * each call returned. Beside them, as C99 programs call them: rank 0 reports
 * on stdout (printf, vprintf: __printf_chk, __vprintf_chk); every rank scans
 * a table its setup made (fscanf, vfscanf: __isoc99_fscanf,
 * __isoc99_vfscanf), reads its header line and a row as wide characters
 * (fgetws, fwscanf: __fgetws_chk, __isoc99_fwscanf; then getwc, fgetwc) and
 * writes a wide summary, wide.<r>.melt (fwprintf, vfwprintf: __fwprintf_chk,
 * __vfwprintf_chk; fputwc, putwc). */
#include <fcntl.h>
#include <unistd.h>
#include <wchar.h>

#include "corpus.h"

enum { SNAPSHOTS = 5, ATOMS = 12, INPUT_LINES = 14, LINE_MAX_BYTES = 80, TABLE_ROWS = 6 };

static const char *const input_lines[INPUT_LINES] = {
    "# 3d Lennard-Jones melt",
    "units           lj",
    "atom_style      atomic",
    "lattice         fcc 0.8442",
    "region          box block 0 10 0 10 0 10",
    "create_box      1 box",
    "create_atoms    1 box",
    "mass            1 1.0",
    "velocity        all create 3.0 87287 loop geom",
    "pair_style      lj/cut 2.5",
    "pair_coeff      1 1 1.0 1.0 2.5",
    "fix             1 all nve",
    "dump            id all atom 50 dump.melt",
    "run             250",
};

static void make_input(const char *outdir)
{
    char path[CORPUS_PATH_MAX];
    if (mkdir(outdir, 0755) != 0 && errno != EEXIST)
        corpus_fail("mkdir %s: %s", outdir, strerror(errno));
    snprintf(path, sizeof path, "%s/in.melt", outdir);
    FILE *f = fopen(path, "w");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    for (int i = 0; i < INPUT_LINES; i++)
        fprintf(f, "%s\n", input_lines[i]);
    if (fclose(f) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
    snprintf(path, sizeof path, "%s/in.table", outdir);
    f = fopen(path, "w");
    if (!f)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    fprintf(f, "# id temp name\n");
    for (int i = 0; i < TABLE_ROWS; i++)
        fprintf(f, "%d %.2f atom%d\n", i + 1, 0.25 * i, i);
    if (fclose(f) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
}

/* LAMMPS's utils::logmesg: one format, written to the log. */
static __attribute__((format(printf, 2, 3))) int log_message(FILE *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(log, fmt, ap);
    va_end(ap);
    return n;
}

static __attribute__((format(printf, 2, 3))) int fd_message(int fd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vdprintf(fd, fmt, ap);
    va_end(ap);
    return n;
}

static __attribute__((format(printf, 1, 2))) int report(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

static __attribute__((format(scanf, 2, 3))) int scan_row(FILE *in, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(in, fmt, ap);
    va_end(ap);
    return n;
}

static int wide_message(FILE *out, const wchar_t *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfwprintf(out, fmt, ap);
    va_end(ap);
    return n;
}

/* A value the compiler cannot see through: with a count it cannot bound at
 * compile time, a fortified call goes to its checking entry point (read to
 * __read_chk, open without a mode to __open_2), as in programs whose sizes
 * come from their input. */
static __attribute__((noinline)) size_t unknown(size_t value)
{
    __asm__ volatile("" : "+r"(value));
    return value;
}

static void expect(long got, long want, const char *call, const char *path)
{
    if (got != want)
        corpus_fail("%s %s: %ld bytes, expected %ld", call, path, got, want);
}

/* The input echoed into the log, line by line, as LAMMPS's input reader does. */
static void echo_input(FILE *log, const char *input)
{
    FILE *in = fopen(input, "r");
    if (!in)
        corpus_fail("fopen %s: %s", input, strerror(errno));
    char line[LINE_MAX_BYTES];
    int n = 0;
    while (fgets(line, (int)unknown(sizeof line), in)) {
        expect((long)strlen(line), (long)strlen(input_lines[n]) + 1, "fgets", input);
        expect(fprintf(log, "%s", line), (long)strlen(line), "fprintf", "log.lammps");
        n++;
    }
    expect(n, INPUT_LINES, "fgets (lines)", input);
    fclose(in);
}

static void write_dump(const char *path, int rank)
{
    FILE *dump = fopen(path, "w");
    if (!dump)
        corpus_fail("fopen %s: %s", path, strerror(errno));
    for (int s = 0; s < SNAPSHOTS; s++) {
        fprintf(dump, "ITEM: TIMESTEP\n%d\nITEM: NUMBER OF ATOMS\n%d\n", s * 50, ATOMS);
        fprintf(dump, "ITEM: BOX BOUNDS pp pp pp\n%.16e %.16e\n%.16e %.16e\n%.16e %.16e\n", 0.0, 16.795961913825074,
                0.0, 16.795961913825074, 0.0, 16.795961913825074);
        fprintf(dump, "ITEM: ATOMS id type xs ys zs\n");
        for (int a = 0; a < ATOMS; a++)
            fprintf(dump, "%d 1 %g %g %g\n", rank * ATOMS + a + 1, 0.05 * a, 0.01 * (a + s), 0.5);
    }
    if (fclose(dump) != 0)
        corpus_fail("fclose %s: %s", path, strerror(errno));
}

/* A restart record through a descriptor, read back whole and from its middle. */
static void restart_record(const char *path, int rank)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    int head = dprintf(fd, "LAMMPS restart %d\n", rank);
    int body = fd_message(fd, "natoms %d step %d\n", ATOMS, SNAPSHOTS * 50);
    close(fd);
    char buf[128];
    fd = open(path, (int)unknown(O_RDONLY)); /* no mode: __open_2 */
    if (fd < 0)
        corpus_fail("open %s: %s", path, strerror(errno));
    expect(read(fd, buf, unknown(sizeof buf)), head + body, "read", path);
    expect(pread(fd, buf, unknown(sizeof buf), head), body, "pread", path);
    close(fd);
}

/* The table's rows scanned (after its header line, read as wide characters)
 * and a wide summary of them written. */
static void scan_table(const char *input, const char *summary, int rank)
{
    FILE *in = fopen(input, "r");
    if (!in)
        corpus_fail("fopen %s: %s", input, strerror(errno));
    wchar_t header[LINE_MAX_BYTES];
    if (!fgetws(header, (int)unknown(LINE_MAX_BYTES), in))
        corpus_fail("fgetws %s: %s", input, strerror(errno));
    expect((long)wcslen(header), (long)strlen("# id temp name\n"), "fgetws", input);
    int id = 0;
    double temp = 0, sum = 0;
    expect(fwscanf(in, L"%d %lf", &id, &temp), 2, "fwscanf", input);
    expect((long)getwc(in), L' ', "getwc", input);
    expect((long)fgetwc(in), L'a', "fgetwc", input);
    fclose(in);
    in = fopen(input, "r");
    if (!in)
        corpus_fail("fopen %s: %s", input, strerror(errno));
    char name[16], line[LINE_MAX_BYTES];
    if (!fgets(line, (int)unknown(sizeof line), in))
        corpus_fail("fgets %s: %s", input, strerror(errno));
    for (int i = 0; i < TABLE_ROWS; i++) {
        int n = i % 2 ? scan_row(in, "%d %lf %15s", &id, &temp, name) : fscanf(in, "%d %lf %15s", &id, &temp, name);
        expect(n, 3, i % 2 ? "vfscanf" : "fscanf", input);
        expect(id, i + 1, "fscanf (id)", input);
        sum += temp;
    }
    fclose(in);
    FILE *out = fopen(summary, "w");
    if (!out)
        corpus_fail("fopen %s: %s", summary, strerror(errno));
    expect(fwprintf(out, L"rank %d: %d rows\n", rank, TABLE_ROWS), (long)strlen("rank 0: 6 rows\n") + (rank > 9),
           "fwprintf", summary);
    expect(wide_message(out, L"sum %.2f\n", sum), (long)strlen("sum 3.75\n"), "vfwprintf", summary);
    expect((long)fputwc(L'#', out), L'#', "fputwc", summary);
    expect((long)putwc(L'\n', out), L'\n', "putwc", summary);
    if (fclose(out) != 0)
        corpus_fail("fclose %s: %s", summary, strerror(errno));
}

int main(int argc, char **argv)
{
    if (corpus_setup(&argc, &argv, make_input))
        return 0;
    corpus_init(&argc, &argv, "fortified_stdio");
    char input[CORPUS_PATH_MAX], path[CORPUS_PATH_MAX];
    corpus_path(input, "in.melt");
    if (corpus_rank == 0) {
        corpus_path(path, "log.lammps");
        FILE *log = fopen(path, "w");
        if (!log)
            corpus_fail("fopen %s: %s", path, strerror(errno));
        log_message(log, "LAMMPS (%s)\n", "2 Aug 2023");
        echo_input(log, input);
        log_message(log, "Step Temp E_pair E_mol TotEng Press\n");
        for (int s = 0; s <= SNAPSHOTS; s++)
            log_message(log, "%8d %12.8g %12.8g %12d %12.8g %12.8g\n", s * 50, 3.0 - 0.3 * s, -6.77 + 0.1 * s, 0,
                        -2.27 + 0.05 * s, -3.7 + 0.2 * s);
        if (fclose(log) != 0)
            corpus_fail("fclose %s: %s", path, strerror(errno));
    }
    corpus_path(path, "dump.%d.melt", corpus_rank);
    write_dump(path, corpus_rank);
    corpus_path(path, "restart.%d", corpus_rank);
    restart_record(path, corpus_rank);
    FILE *in = fopen(input, "r");
    if (!in)
        corpus_fail("fopen %s: %s", input, strerror(errno));
    char head[32];
    expect((long)fread(head, 1, unknown(sizeof head), in), (long)sizeof head, "fread", input);
    fclose(in);
    corpus_path(input, "in.table");
    corpus_path(path, "wide.%d.melt", corpus_rank);
    scan_table(input, path, corpus_rank);
    if (corpus_rank == 0) {
        expect(printf("fortified_stdio: %d snapshots\n", SNAPSHOTS), (long)strlen("fortified_stdio: 5 snapshots\n"),
               "printf", "stdout");
        expect(report("fortified_stdio: %d atoms a rank\n", ATOMS), (long)strlen("fortified_stdio: 12 atoms a rank\n"),
               "vprintf", "stdout");
        fflush(stdout);
    }
    return corpus_finish();
}
