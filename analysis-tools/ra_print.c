/* ra_print.c: what the collectors' text printers share. */
#include "ra_tools.h"

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
