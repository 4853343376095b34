/* kernel_common.c: shared plumbing of the I/O kernels (see kernel_common.h). */
#include "kernel_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

kernel_context kernel = {.name = "kernel"};

/* ---- failures ------------------------------------------------------------ */

/* vsnprintf of a variadic function's own arguments, those after its last
 * named parameter `fmt`, into the array `buf`. */
#define FORMAT_VARIADIC(buf, fmt)                \
    do {                                         \
        va_list args_;                           \
        va_start(args_, fmt);                    \
        vsnprintf(buf, sizeof(buf), fmt, args_); \
        va_end(args_);                           \
    } while (0)

static void print_prefixed(const char *message)
{
    fprintf(stderr, "%s: rank %d: %s\n", kernel.name, kernel.rank, message);
    fflush(stderr);
}

_Noreturn void kernel_fail(const char *fmt, ...)
{
    char message[1024];
    FORMAT_VARIADIC(message, fmt);
    print_prefixed(message);
    /* MPI_Abort tears the job down at once; give the launcher a moment to
     * forward this message first, or it can be lost. */
    nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 200 * 1000 * 1000}, NULL);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* MPI_Abort does not return; this keeps _Noreturn honest */
}

_Noreturn void kernel_fail_errno(const char *fmt, ...)
{
    const char *reason = strerror(errno);
    char message[900];
    FORMAT_VARIADIC(message, fmt);
    kernel_fail("%s: %s", message, reason);
}

void kernel_check_equal(const void *got, const void *want, size_t count, size_t elem_size,
                        const char *what_fmt, ...)
{
    if (memcmp(got, want, count * elem_size) == 0)
        return;
    const unsigned char *g = got, *w = want;
    size_t element = 0;
    while (element < count && memcmp(g + element * elem_size, w + element * elem_size, elem_size) == 0)
        element++;
    char what[512];
    FORMAT_VARIADIC(what, what_fmt);
    kernel_fail("mismatch in %s at element %zu", what, element);
}

void *kernel_alloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        kernel_fail("out of memory allocating %zu bytes", n);
    return p;
}

/* ---- options --------------------------------------------------------------- */

enum { DEFAULT_TEXT_MAX = 64 };

static const char *g_summary;
static const kernel_option *g_options;
static size_t g_noptions;
static char (*g_defaults)[DEFAULT_TEXT_MAX]; /* option defaults as text, taken before parsing */
static bool *g_given;                        /* g_given[i]: option i was on the command line */

static void remember_defaults(void)
{
    g_defaults = kernel_alloc(g_noptions * sizeof *g_defaults);
    g_given = kernel_alloc(g_noptions * sizeof *g_given);
    for (size_t i = 0; i < g_noptions; i++) {
        const kernel_option *o = &g_options[i];
        g_given[i] = false;
        if (o->kind == KOPT_INT)
            snprintf(g_defaults[i], DEFAULT_TEXT_MAX, "%d", *(int *)o->value);
        else if (o->kind == KOPT_STRING)
            snprintf(g_defaults[i], DEFAULT_TEXT_MAX, "%s", *(const char **)o->value);
        else
            g_defaults[i][0] = '\0';
    }
}

static void print_usage(FILE *to)
{
    fprintf(to, "usage: mpirun -np N %s [options] OUTDIR\n%s\n\noptions:\n", kernel.name, g_summary);
    for (size_t i = 0; i < g_noptions; i++) {
        const kernel_option *o = &g_options[i];
        if (o->kind == KOPT_FLAG)
            fprintf(to, "  %-18s %s\n", o->name, o->help);
        else
            fprintf(to, "  %-18s %s (default %s)\n", o->name, o->help, g_defaults[i]);
    }
    fprintf(to, "  %-18s %s\n", "--expect", "also print per-rank counts and bytes of this kernel's own I/O calls");
    fprintf(to, "  %-18s %s\n", "--help", "print this help");
}

_Noreturn void kernel_usage_error(const char *fmt, ...)
{
    if (kernel.rank == 0) {
        char message[1024];
        FORMAT_VARIADIC(message, fmt);
        print_prefixed(message);
        print_usage(stderr);
    }
    MPI_Finalize();
    exit(2);
}

static const kernel_option *find_option(const char *name)
{
    for (size_t i = 0; i < g_noptions; i++)
        if (strcmp(g_options[i].name, name) == 0)
            return &g_options[i];
    return NULL;
}

bool kernel_option_given(const char *name)
{
    const kernel_option *o = find_option(name);
    return o && g_given[o - g_options];
}

kernel_scaling kernel_parse_scaling(const char *text)
{
    kernel_scaling mode;
    if (strcmp(text, "weak") == 0)
        mode = KERNEL_SCALING_WEAK;
    else if (strcmp(text, "strong") == 0)
        mode = KERNEL_SCALING_STRONG;
    else
        kernel_usage_error("--scaling must be weak or strong, got '%s'", text);
    const kernel_option_scaling other = mode == KERNEL_SCALING_WEAK ? KOPT_STRONG_ONLY : KOPT_WEAK_ONLY;
    for (size_t i = 0; i < g_noptions; i++)
        if (g_options[i].scaling == other && g_given[i])
            kernel_usage_error("%s applies only under --scaling %s (this run is --scaling %s)",
                               g_options[i].name, mode == KERNEL_SCALING_WEAK ? "strong" : "weak", text);
    return mode;
}

_Noreturn void kernel_scaling_error(const char *fmt, ...)
{
    if (kernel.rank == 0) {
        char message[900];
        FORMAT_VARIADIC(message, fmt);
        fprintf(stderr, "%s: rank %d: --scaling strong: %s\n", kernel.name, kernel.rank, message);
        fflush(stderr);
    }
    MPI_Finalize();
    exit(2);
}

int kernel_strong_share(const char *option, int total)
{
    if (total % kernel.nprocs != 0)
        kernel_scaling_error("%s %d cannot be split evenly among N=%d ranks (N must divide it)", option,
                             total, kernel.nprocs);
    return total / kernel.nprocs;
}

int kernel_strong_share_in_units(const char *option, int total, const char *unit_option, int unit,
                                 const char *units)
{
    if (total % unit != 0)
        kernel_usage_error("%s %d does not divide %s %d", unit_option, unit, option, total);
    const int count = total / unit;
    if (count % kernel.nprocs != 0)
        kernel_scaling_error("%s %d is %d %s of %d bytes, which cannot be split evenly among N=%d ranks "
                             "(N must divide %d)",
                             option, total, count, units, unit, kernel.nprocs, count);
    return total / kernel.nprocs;
}

static void parse_int_option(const kernel_option *o, const char *text)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v > 0x7fffffffL)
        kernel_usage_error("%s expects an integer, got '%s'", o->name, text);
    if (v < o->min)
        kernel_usage_error("%s must be at least %ld, got %ld", o->name, o->min, v);
    *(int *)o->value = (int)v;
}

static void parse_arguments(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            if (kernel.rank == 0)
                print_usage(stdout);
            MPI_Finalize();
            exit(0);
        }
        if (strcmp(arg, "--expect") == 0) {
            kernel.expect = true;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0) {
            if (i != argc - 1)
                kernel_usage_error("OUTDIR must be the last argument (unexpected '%s')", arg);
            kernel.outdir = arg;
            continue;
        }
        const kernel_option *o = find_option(arg);
        if (!o)
            kernel_usage_error("unknown option '%s'", arg);
        g_given[o - g_options] = true;
        if (o->kind == KOPT_FLAG) {
            *(bool *)o->value = true;
            continue;
        }
        if (i + 1 >= argc)
            kernel_usage_error("%s needs a value", arg);
        const char *text = argv[++i];
        if (o->kind == KOPT_INT)
            parse_int_option(o, text);
        else
            *(const char **)o->value = text;
    }
    if (!kernel.outdir)
        kernel_usage_error("missing OUTDIR");
}

/* mkdir on every prefix of the path, ignoring EEXIST. Trying every component
 * (instead of stat-ing first) keeps the calls the same whether or not the
 * directories already exist. */
static void make_directory_tree(const char *path)
{
    char partial[KERNEL_PATH_MAX];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof partial)
        kernel_fail("bad OUTDIR '%s'", path);
    memcpy(partial, path, len + 1);
    while (len > 1 && partial[len - 1] == '/')
        partial[--len] = '\0';
    for (size_t i = 1; i <= len; i++) {
        if (partial[i] != '/' && partial[i] != '\0')
            continue;
        char saved = partial[i];
        partial[i] = '\0';
        if (KIO(mkdir, partial, 0755) != 0 && errno != EEXIST)
            kernel_fail_errno("cannot create directory %s", partial);
        partial[i] = saved;
    }
}

void kernel_init(int *argc, char ***argv, const char *name, const char *summary,
                 const kernel_option *options, size_t noptions)
{
    MPI_Init(argc, argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &kernel.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &kernel.nprocs);
    kernel.name = name;
    g_summary = summary;
    g_options = options;
    g_noptions = noptions;
    remember_defaults();
    parse_arguments(*argc, *argv);
    if (kernel.rank == 0)
        make_directory_tree(kernel.outdir);
    MPI_Barrier(MPI_COMM_WORLD);
}

int kernel_finish(void)
{
    /* Every rank has verified its data once all reach this point; a rank
     * that found a mismatch aborts the job instead. */
    MPI_Barrier(MPI_COMM_WORLD);
    if (kernel.expect)
        kio_print_expect(MPI_COMM_WORLD);
    if (kernel.rank == 0) {
        printf("%s: OK: %d rank%s wrote and verified %s\n", kernel.name, kernel.nprocs,
               kernel.nprocs == 1 ? "" : "s", kernel.outdir);
        fflush(stdout);
    }
    free(g_defaults);
    free(g_given);
    MPI_Finalize();
    return 0;
}

/* ---- paths and patterns --------------------------------------------------- */

void kernel_path(char *buf, const char *fmt, ...)
{
    int prefix = snprintf(buf, KERNEL_PATH_MAX, "%s/", kernel.outdir);
    va_list args;
    va_start(args, fmt);
    int rest = prefix < KERNEL_PATH_MAX ? vsnprintf(buf + prefix, KERNEL_PATH_MAX - prefix, fmt, args) : 0;
    va_end(args);
    if (prefix + rest >= KERNEL_PATH_MAX)
        kernel_fail("path under %s is too long", kernel.outdir);
}

uint64_t kernel_hash(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^ c;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBULL;
    x ^= x >> 31;
    return x;
}

float kernel_float_value(uint64_t a, uint64_t b, uint64_t c)
{
    return (float)(kernel_hash(a, b, c) & 0xFFFFFF) / 64.0f; /* 24 bits: exact */
}

double kernel_double_value(uint64_t a, uint64_t b, uint64_t c)
{
    return (double)(kernel_hash(a, b, c) >> 11) / 1048576.0; /* 53 bits: exact */
}

int kernel_int_value(uint64_t a, uint64_t b, uint64_t c)
{
    return (int)(kernel_hash(a, b, c) & 0x7FFFFFFF);
}

void kernel_fill_bytes(void *buf, size_t n, uint64_t stream, uint64_t offset)
{
    unsigned char *out = buf;
    for (size_t i = 0; i < n; i++) {
        uint64_t pos = offset + i;
        out[i] = (unsigned char)(kernel_hash(stream, pos / 8, 0) >> (8 * (pos % 8)));
    }
}

/* ---- I/O call accounting ---------------------------------------------------- */

enum { KIO_MAX_FUNCTIONS = 96, KIO_NAME_MAX = 40 };

typedef struct {
    char function[KIO_NAME_MAX];
    long long calls;
    long long bytes;
} kio_count;

static kio_count g_counts[KIO_MAX_FUNCTIONS];
static int g_ncounts;

void kio_note(const char *function, long long bytes)
{
    for (int i = 0; i < g_ncounts; i++) {
        if (strcmp(g_counts[i].function, function) == 0) {
            g_counts[i].calls++;
            g_counts[i].bytes += bytes;
            return;
        }
    }
    if (g_ncounts == KIO_MAX_FUNCTIONS || strlen(function) >= KIO_NAME_MAX)
        kernel_fail("I/O accounting table cannot hold '%s'", function);
    kio_count *c = &g_counts[g_ncounts++];
    snprintf(c->function, sizeof c->function, "%s", function);
    c->calls = 1;
    c->bytes = bytes;
}

long long kio_note_transfer(const char *function, long long ret)
{
    kio_note(function, ret > 0 ? ret : 0);
    return ret;
}

static int compare_function_names(const void *a, const void *b)
{
    return strcmp(((const kio_count *)a)->function, ((const kio_count *)b)->function);
}

void kio_print_expect(MPI_Comm comm)
{
    int rank, nprocs;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &nprocs);
    int my_bytes = g_ncounts * (int)sizeof(kio_count);
    int *sizes = NULL, *displs = NULL;
    kio_count *all = NULL;
    if (rank == 0) {
        sizes = kernel_alloc(sizeof(int) * nprocs);
        displs = kernel_alloc(sizeof(int) * nprocs);
    }
    MPI_Gather(&my_bytes, 1, MPI_INT, sizes, 1, MPI_INT, 0, comm);
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < nprocs; r++) {
            displs[r] = total;
            total += sizes[r];
        }
        all = kernel_alloc((size_t)total);
    }
    MPI_Gatherv(g_counts, my_bytes, MPI_BYTE, all, sizes, displs, MPI_BYTE, 0, comm);
    if (rank == 0) {
        for (int r = 0; r < nprocs; r++) {
            kio_count *mine = (kio_count *)((char *)all + displs[r]);
            size_t n = (size_t)sizes[r] / sizeof(kio_count);
            qsort(mine, n, sizeof *mine, compare_function_names);
            for (size_t i = 0; i < n; i++)
                printf("expect rank=%d function=%s calls=%lld bytes=%lld\n", r, mine[i].function,
                       mine[i].calls, mine[i].bytes);
        }
        fflush(stdout);
        free(all);
        free(sizes);
        free(displs);
    }
}

long long kh5_checked(const char *function, long long ret)
{
    if (ret < 0)
        kernel_fail("%s failed (returned %lld)", function, ret);
    return ret;
}

int kmpi_checked(const char *function, int err)
{
    if (err != MPI_SUCCESS) {
        char reason[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(err, reason, &len);
        kernel_fail("%s failed: %s", function, reason);
    }
    return err;
}

/* ---- counted POSIX and stdio wrappers -------------------------------------- */

int kio_open(const char *path, int flags, mode_t mode)
{
    int fd = KIO(open, path, flags, mode);
    if (fd < 0)
        kernel_fail_errno("cannot open %s", path);
    return fd;
}

void kio_close(int fd, const char *path)
{
    if (KIO(close, fd) != 0)
        kernel_fail_errno("close of %s failed", path);
}

static void check_transfer(const char *function, long long got, size_t want, const char *path)
{
    if (got < 0)
        kernel_fail_errno("%s on %s failed", function, path);
    if ((size_t)got != want)
        kernel_fail("short %s on %s: %lld of %zu bytes", function, path, got, want);
}

void kio_write_exact(int fd, const void *buf, size_t n, const char *path)
{
    check_transfer("write", KIO_XFER(write, fd, buf, n), n, path);
}

void kio_read_exact(int fd, void *buf, size_t n, const char *path)
{
    check_transfer("read", KIO_XFER(read, fd, buf, n), n, path);
}

void kio_pwrite_exact(int fd, const void *buf, size_t n, off_t offset, const char *path)
{
    check_transfer("pwrite", KIO_XFER(pwrite, fd, buf, n, offset), n, path);
}

void kio_pread_exact(int fd, void *buf, size_t n, off_t offset, const char *path)
{
    check_transfer("pread", KIO_XFER(pread, fd, buf, n, offset), n, path);
}

FILE *kio_fopen(const char *path, const char *mode)
{
    FILE *stream = KIO(fopen, path, mode);
    if (!stream)
        kernel_fail_errno("cannot fopen %s (mode %s)", path, mode);
    return stream;
}

void kio_fclose(FILE *stream, const char *path)
{
    if (KIO(fclose, stream) != 0)
        kernel_fail_errno("fclose of %s failed", path);
}
