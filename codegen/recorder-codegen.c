/* recorder-codegen TRACE_DIR > kernel.c: a compact, readable SPMD C kernel
 * that makes the traced application's I/O calls (see recorder_codegen.h). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "recorder_codegen.h"
#include "recorder_functions.h"

static const char *tool = "recorder-codegen";

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: %s [OPTIONS] TRACE_DIR > kernel.c\n"
        "       %s [OPTIONS] --elastic TRACE_A TRACE_B TRACE_C ... > kernel.c\n"
        "Writes a C program that makes, rank by rank, the top-level I/O calls of the traced run, every\n"
        "path re-rooted under its OUTDIR argument (default ./kernel-output). A per-rank trace is merged\n"
        "first. Build it with h5pcc -shlib kernel.c -o kernel; run it with mpirun -np N ./kernel [OUTDIR].\n"
        "  -o FILE            write the kernel to FILE instead of standard output\n"
        "  --templates DIR    use the .tmpl files in DIR instead of the built-in templates\n"
        "  --no-loops         one statement per call: no loop compression\n"
        "  --layer LAYER      top (default): the calls the application made; netcdf, pnetcdf, hdf5, mpiio or\n"
        "                     posix: the calls of that layer and below that no such call made, with the\n"
        "                     MPI calls that order them, the layers above looked through (a PnetCDF run's\n"
        "                     MPI-IO kernel, for tuning the layers beneath or without the library)\n"
        "  --window N         the merge window when merging a per-rank trace (default 200)\n"
        "  --name NAME        the kernel's name in its messages (default kernel)\n"
        "  --max-values N     per-rank values (8 bytes each) the generator may hold in memory (default: a\n"
        "                     quarter of the machine's memory); past it, an error naming the record\n"
        "  --elastic          one kernel for ANY number of ranks, from traces of the application at three\n"
        "                     or more rank counts: values that change with the rank count are modelled\n"
        "                     exactly (a + b*N, N/k, a + k/N, MPI_Dims_create grid), or refused by name\n",
        tool, tool);
}

/* top, a layer's name in any case (HDF5, MPI-IO, PnetCDF...) or mpiio. */
static int parse_layer(const char *name, int *layer)
{
    if (!strcasecmp(name, "top")) {
        *layer = REC_CODEGEN_TOP;
        return 0;
    }
    if (!strcasecmp(name, "mpiio")) {
        *layer = REC_LAYER_MPIIO;
        return 0;
    }
    for (unsigned l = 0; l < REC_LAYER_COUNT; l++)
        if (!strcasecmp(name, rec_layer_name(l))) {
            *layer = (int)l;
            return 0;
        }
    return -1;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {{"templates", required_argument, 0, 't'},
                                             {"no-loops", no_argument, 0, 'L'},
                                             {"window", required_argument, 0, 'w'},
                                             {"name", required_argument, 0, 'n'},
                                             {"elastic", no_argument, 0, 'e'},
                                             {"max-values", required_argument, 0, 'M'},
                                             {"layer", required_argument, 0, 'l'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    rec_codegen_options o;
    rec_codegen_options_init(&o);
    const char *output = NULL;
    int c, elastic = 0;
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 't':
            o.templates = optarg;
            break;
        case 'L':
            o.loops = 0;
            break;
        case 'w': {
            char *end;
            long w = strtol(optarg, &end, 10);
            if (*end || w < 1 || w > 1000000) {
                fprintf(stderr, "%s: --window expects a positive number, got '%s'\n", tool, optarg);
                return 2;
            }
            o.window = (unsigned)w;
            break;
        }
        case 'M': {
            char *end;
            errno = 0;
            unsigned long long m = strtoull(optarg, &end, 10);
            if (*end || optarg[0] == '-' || m == 0 || errno) {
                fprintf(stderr, "%s: --max-values expects a positive number, got '%s'\n", tool, optarg);
                return 2;
            }
            o.max_values = m;
            break;
        }
        case 'l':
            if (parse_layer(optarg, &o.layer) != 0) {
                fprintf(stderr, "%s: --layer expects top, netcdf, pnetcdf, hdf5, mpiio or posix, got '%s'\n", tool, optarg);
                return 2;
            }
            break;
        case 'n':
            o.program = optarg;
            break;
        case 'e':
            elastic = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
    }
    if (elastic ? argc - optind < 3 : optind != argc - 1) {
        if (elastic)
            fprintf(stderr, "%s: --elastic needs three or more trace directories\n", tool);
        usage(stderr);
        return 2;
    }
    rec_error err;
    char *kernel = NULL;
    int rc = elastic ? rec_codegen_elastic((const char *const *)argv + optind, (unsigned)(argc - optind), &o, &kernel, &err)
                     : rec_codegen(argv[optind], &o, &kernel, &err);
    if (rc != 0) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return 1;
    }
    FILE *f = output ? fopen(output, "w") : stdout;
    if (!f) {
        perror(output);
        free(kernel);
        return 1;
    }
    int ok = fputs(kernel, f) >= 0;
    ok &= (output ? fclose(f) : fflush(f)) == 0;
    free(kernel);
    if (!ok) {
        fprintf(stderr, "%s: %s: write failed\n", tool, output ? output : "standard output");
        return 1;
    }
    return 0;
}
