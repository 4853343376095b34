/* ra_cli.c: command-line helpers the analysis tools share. */
#include "ra_tools.h"

#include <stdlib.h>
#include <string.h>

ra_trace *ra_cli_open(const char *tool, const char *dir)
{
    rec_error err;
    ra_trace *t = ra_trace_open(dir, &err);
    if (!t)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    return t;
}

int ra_cli_ranks(const char *tool, const char *arg, uint32_t *first, uint32_t *last)
{
    char *end;
    unsigned long a = strtoul(arg, &end, 10), b = a;
    if (end != arg && *end == '-')
        b = strtoul(end + 1, &end, 10);
    if (end == arg || *end || arg[0] == '-' || b < a || b > UINT32_MAX) {
        fprintf(stderr, "%s: --rank: not a rank or range (R or R1-R2): %s\n", tool, arg);
        return -1;
    }
    *first = (uint32_t)a;
    *last = (uint32_t)b;
    return 0;
}

void ra_print_quoted(FILE *out, const char *s)
{
    putc('"', out);
    for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
        if (*u == '"' || *u == '\\')
            fprintf(out, "\\%c", *u);
        else if (*u < 0x20 || *u == 0x7f)
            fprintf(out, "\\x%02x", *u);
        else
            putc(*u, out);
    }
    putc('"', out);
}

int ra_layer_rank(unsigned layer)
{
    switch (layer) {
    case REC_LAYER_HDF5:
        return 0;
    case REC_LAYER_MPIIO:
        return 1;
    case REC_LAYER_MPI:
        return 2;
    default:
        return 3;
    }
}
