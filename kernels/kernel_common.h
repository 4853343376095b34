/* kernel_common.h: what every I/O kernel shares — option parsing, the output
 * directory, failure reporting, deterministic data patterns, and the
 * bookkeeping behind --expect (counts and bytes of the kernel's own I/O calls).
 *
 * Counting convention: every HDF5 (H5F/G/D/S/P/A/T/L/O), MPI-IO (MPI_File_*),
 * POSIX and stdio call that a kernel makes goes through one of the macros or
 * kio_* wrappers below, which record the call under the exact C function name
 * it calls. MPI communication and the H5open() that HDF5's type and property
 * macros (H5T_NATIVE_*, H5P_*) expand to are not counted. */
#ifndef KERNEL_COMMON_H
#define KERNEL_COMMON_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

enum { KERNEL_PATH_MAX = 4096 };

/* ---- run context ------------------------------------------------------- */

typedef struct {
    const char *name;   /* executable name, first word of every message */
    int rank;           /* rank in MPI_COMM_WORLD */
    int nprocs;         /* size of MPI_COMM_WORLD */
    const char *outdir; /* the last command-line argument */
    bool expect;        /* --expect: print the I/O call counts at the end */
} kernel_context;

extern kernel_context kernel;

/* ---- command-line options ---------------------------------------------- */

typedef enum { KOPT_INT, KOPT_STRING, KOPT_FLAG } kernel_option_kind;

/* Which --scaling mode an option belongs to (see "weak and strong scaling"). */
typedef enum { KOPT_ANY_SCALING, KOPT_WEAK_ONLY, KOPT_STRONG_ONLY } kernel_option_scaling;

/* One "--name value" option (or a bare "--name" flag). The variable it points
 * to holds the default before kernel_init() and the parsed value after. */
typedef struct {
    const char *name;          /* with the leading "--" */
    kernel_option_kind kind;
    void *value;               /* int *, const char ** or bool * */
    long min;                  /* KOPT_INT: smallest accepted value */
    const char *help;
    kernel_option_scaling scaling; /* giving it under the other mode is a usage error */
} kernel_option;

#define KOPT_INT_OPT(name, var, min, help)  {name, KOPT_INT, (var), (min), help, KOPT_ANY_SCALING}
#define KOPT_STRING_OPT(name, var, help)    {name, KOPT_STRING, (var), 0, help, KOPT_ANY_SCALING}
#define KOPT_FLAG_OPT(name, var, help)      {name, KOPT_FLAG, (var), 0, help, KOPT_ANY_SCALING}
/* Integer options that exist under one --scaling mode only. */
#define KOPT_WEAK_INT_OPT(name, var, min, help)   {name, KOPT_INT, (var), (min), help, KOPT_WEAK_ONLY}
#define KOPT_STRONG_INT_OPT(name, var, min, help) {name, KOPT_INT, (var), (min), help, KOPT_STRONG_ONLY}

/* The number of entries of an options array, for kernel_init. */
#define KOPT_COUNT(options) (sizeof(options) / sizeof((options)[0]))

/* MPI_Init, option parsing (--help, --expect and the kernel's own options,
 * OUTDIR last), then rank 0 creates OUTDIR (mkdir -p) while the others wait.
 * Exits (after MPI_Finalize) on --help or a usage error. */
void kernel_init(int *argc, char ***argv, const char *name, const char *summary,
                 const kernel_option *options, size_t noptions);

/* True if the option `name` (with "--") was given on the command line. */
bool kernel_option_given(const char *name);

/* Reports a usage problem found after parsing (e.g. a bad --mode) and exits. */
_Noreturn void kernel_usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Prints the --expect lines if asked, a success line, MPI_Finalize; returns
 * the process exit status (0). */
int kernel_finish(void);

/* ---- weak and strong scaling ---------------------------------------------- */

/* The kernels with scaling variants (vpic-like, vorpal-like, ior-like,
 * checkpoint-fpp, n-to-m) take "--scaling weak|strong":
 *   weak   the per-rank problem size is fixed (the kernel's historical
 *          behaviour); totals grow with N;
 *   strong the TOTAL problem size is fixed (a --total-... style option) and
 *          divided evenly among the N ranks: per-rank sizes and, where the
 *          kernel loops over fixed-size transfers, trip counts are
 *          proportional to 1/N. An N that does not divide the total is
 *          refused (kernel_scaling_error), never rounded. */
typedef enum { KERNEL_SCALING_WEAK, KERNEL_SCALING_STRONG } kernel_scaling;

#define KERNEL_SCALING_HELP \
    "weak (per-rank size fixed, totals grow with N) or strong (total size fixed, split evenly over the N ranks)"
#define KOPT_SCALING_OPT(var) KOPT_STRING_OPT("--scaling", (var), KERNEL_SCALING_HELP)

/* Parses the --scaling value ("weak" or "strong"); a usage error otherwise.
 * Also refuses, as usage errors, the options of the other mode
 * (KOPT_WEAK_INT_OPT under strong, KOPT_STRONG_INT_OPT under weak) when they
 * were given explicitly. */
kernel_scaling kernel_parse_scaling(const char *text);

/* "<kernel>: rank 0: --scaling strong: <message>" on stderr (rank 0 only),
 * then every rank finalizes MPI and exits with status 2. For an N the strong
 * total cannot be divided by; call it on all ranks (the condition depends
 * only on the options and N). */
_Noreturn void kernel_scaling_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* This rank's share total/N of the strong total given as `option`; refused
 * with kernel_scaling_error unless N divides it. */
int kernel_strong_share(const char *option, int total);

/* The same for a total moved in `units` (e.g. "chunks") of `unit` bytes,
 * the value of `unit_option`: the unit must divide the total (a usage error
 * otherwise) and N the number of units. */
int kernel_strong_share_in_units(const char *option, int total, const char *unit_option, int unit,
                                 const char *units);

/* ---- failures ------------------------------------------------------------ */

/* "<kernel>: rank <r>: <message>" on stderr, then MPI_Abort (exit non-zero). */
_Noreturn void kernel_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* kernel_fail with ": <strerror(errno)>" appended. */
_Noreturn void kernel_fail_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Fails unless the first `count` elements of `got` and `want` are equal,
 * naming the first element that differs: "mismatch in <what> at element i". */
void kernel_check_equal(const void *got, const void *want, size_t count, size_t elem_size,
                        const char *what_fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- paths and data patterns ------------------------------------------- */

/* Writes "<OUTDIR>/<formatted name>" into buf (KERNEL_PATH_MAX bytes). */
void kernel_path(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A well-mixed 64-bit value determined by three integers (splitmix64). */
uint64_t kernel_hash(uint64_t a, uint64_t b, uint64_t c);

/* Exactly representable values (no rounding differences between ranks). */
float kernel_float_value(uint64_t a, uint64_t b, uint64_t c);
double kernel_double_value(uint64_t a, uint64_t b, uint64_t c);
int kernel_int_value(uint64_t a, uint64_t b, uint64_t c);

/* Fills n bytes with the byte stream `stream` starting at position `offset`,
 * so any piece of a file can be regenerated from its file offset alone. */
void kernel_fill_bytes(void *buf, size_t n, uint64_t stream, uint64_t offset);

/* malloc that fails the run instead of returning NULL. */
void *kernel_alloc(size_t n);

/* ---- counting the kernel's own I/O calls (--expect) ------------------- */

/* Records one call of `function` that moved `bytes` data bytes. */
void kio_note(const char *function, long long bytes);

/* Records one call whose return value is its transfer size (-1 = error: 0
 * bytes) and hands the return value back. */
long long kio_note_transfer(const char *function, long long ret);

/* Gathers every rank's counts and prints them on rank 0 (collective):
 *   expect rank=<r> function=<name> calls=<n> bytes=<b>
 * ranks ascending, functions in strcmp order within a rank. */
void kio_print_expect(MPI_Comm comm);

long long kh5_checked(const char *function, long long ret);
int kmpi_checked(const char *function, int err);

/* Counted HDF5 call that must not fail (negative return); evaluates to its
 * return value as long long (hid_t, herr_t, htri_t and hssize_t all fit). */
#define KH5(fn, ...) kh5_checked(#fn, (kio_note(#fn, 0), (long long)fn(__VA_ARGS__)))
/* Same, for the calls that move data (H5Dwrite/H5Dread/H5Awrite/H5Aread):
 * nbytes = selected elements x memory type size. */
#define KH5_DATA(fn, nbytes, ...) \
    kh5_checked(#fn, (kio_note(#fn, (long long)(nbytes)), (long long)fn(__VA_ARGS__)))

/* Counted MPI-IO call that must return MPI_SUCCESS. */
#define KMPIIO(fn, ...) kmpi_checked(#fn, (kio_note(#fn, 0), fn(__VA_ARGS__)))
/* Same, for data calls: nbytes = count x datatype size. */
#define KMPIIO_DATA(fn, nbytes, ...) \
    kmpi_checked(#fn, (kio_note(#fn, (long long)(nbytes)), fn(__VA_ARGS__)))

/* Counted POSIX/stdio call whose failure the caller handles itself. */
#define KIO(fn, ...) (kio_note(#fn, 0), fn(__VA_ARGS__))
/* Counted read/write-like call whose return value is the byte count. */
#define KIO_XFER(fn, ...) kio_note_transfer(#fn, (long long)fn(__VA_ARGS__))

/* Counted POSIX/stdio wrappers that fail the run, naming the path, on error
 * or on a short transfer. */
int kio_open(const char *path, int flags, mode_t mode);
void kio_close(int fd, const char *path);
void kio_write_exact(int fd, const void *buf, size_t n, const char *path);
void kio_read_exact(int fd, void *buf, size_t n, const char *path);
void kio_pwrite_exact(int fd, const void *buf, size_t n, off_t offset, const char *path);
void kio_pread_exact(int fd, void *buf, size_t n, off_t offset, const char *path);
FILE *kio_fopen(const char *path, const char *mode);
void kio_fclose(FILE *stream, const char *path);

#endif
