/* gen_replay_pointers.c: what the dispatch writes where a call's data holds
 * pointers, which the trace records by their lengths, never their data:
 * netCDF's NC_STRING and variable-length values (NC_STRING_LENGTHS,
 * NC_VLEN_LENGTHS) and HDF5's variable-length strings and hvl_t sequences
 * (H5_STRING_LENGTHS, H5_VLEN_LENGTHS), made again of pattern data of those
 * lengths (replayer/runtime.c, sizes.c); and what HDF5 allocates for the
 * variable-length data a dataset read reads, freed after it. */
#include "gen_replay.h"

int gen_replay_nc_pointers(FILE *to, const rec_func_desc *f, const char *n, const char *ctype)
{
    int lengths = rec_arg_with_kind(f, REC_KIND_NC_STRING_LENGTHS, REC_ARG_DERIVED),
        vlens = rec_arg_with_kind(f, REC_KIND_NC_VLEN_LENGTHS, REC_ARG_DERIVED);
    if (lengths >= 0) /* NC_STRING values: strings of the traced lengths */
        fprintf(to, "    if (rp_r->args[%d].len)\n        %s = (%s)rp_nc_strings(rp_x, &rp_r->args[%d]);\n",
                lengths, n, ctype, lengths);
    if (vlens >= 0) /* variable-length values: nc_vlen_t of the traced lengths */
        fprintf(to, "    %sif (rp_r->args[%d].len)\n        %s = (%s)rp_nc_vlens(rp_x, &rp_r->args[%d]);\n",
                lengths >= 0 ? "else " : "", vlens, n, ctype, vlens);
    return lengths >= 0 || vlens >= 0;
}

void gen_replay_h5_pointers(FILE *to, const rec_func_desc *f, const char *n)
{
    int strings = rec_arg_with_kind(f, REC_KIND_H5_STRING_LENGTHS, REC_ARG_DERIVED),
        seqs = rec_arg_with_kind(f, REC_KIND_H5_VLEN_LENGTHS, REC_ARG_DERIVED);
    if (strings >= 0 && seqs >= 0)
        fprintf(to, "    %s = rp_h5_vlens(rp_x, (void *)%s, &rp_r->args[%d], &rp_r->args[%d]);\n", n, n,
                strings, seqs);
}

void gen_replay_h5_reclaim(FILE *to, const rec_func_desc *f)
{
    int dset = rec_arg_with_role(f, REC_AROLE_DATASET), type = rec_arg_with_role(f, REC_AROLE_MEM_TYPE),
        mem = rec_arg_with_role(f, REC_AROLE_MEM_SPACE), file = rec_arg_with_role(f, REC_AROLE_FILE_SPACE),
        buf = rec_arg_with_kind(f, REC_KIND_BUFFER, REC_ARG_OUT);
    if ((f->flags & REC_FN_READ) && dset >= 0 && type >= 0 && mem >= 0 && file >= 0 && buf >= 0)
        fprintf(to, "    if (ok)\n        rp_h5_reclaim(%s, %s, %s, %s, %s);\n", f->args[dset].name, f->args[type].name,
                f->args[mem].name, f->args[file].name, f->args[buf].name);
}
