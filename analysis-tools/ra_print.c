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
    for (int k = 0; k < REC_LAYER_COUNT; k++)
        if (rec_layers_top_down[k] == layer)
            return k;
    return REC_LAYER_COUNT - 1;
}
