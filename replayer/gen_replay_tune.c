/* gen_replay_tune.c: what the dispatch does for a tuning set (tune.h): a
 * call's argument that carries hints (TUNE_INFO) or a list of a class
 * (TUNE_USE), as the function table's functions/tuning.def names them, goes
 * through rp_tune_info or rp_tune_plist before the call. */
#include "gen_replay.h"
#include "recorder_tune.h"

void gen_replay_tune_arg(FILE *to, const rec_func_desc *f, unsigned i)
{
    const rec_arg_desc *a = &f->args[i];
    if (!(a->flags & REC_ARG_IN) || (a->flags & REC_ARG_CREATE) || rec_arg_by_pointer(a))
        return;
    if (a->kind == REC_KIND_MPI_INFO && tune_info_arg(f) == (int)i)
        fprintf(to, "    %s = rp_tune_info(rp_x, rp_r, %s);\n", a->name, a->name);
    else if (a->kind == REC_KIND_H5_PLIST && tune_use_class(f, i) != TUNE_CLASS_NONE)
        fprintf(to, "    %s = rp_tune_plist(rp_x, rp_r, %u, %s);\n", a->name, i, a->name);
}
