/* creation.c: which PATH argument of a call names a file the call creates,
 * and which name no file the call touches. Shared by the input scan
 * (prep.c) and the replay (paths.c). The few functions whose name decides
 * are listed here; everything else follows from the flags' kinds. */
#define _GNU_SOURCE
#include "creation.h"

#include <fcntl.h>
#include <string.h>

#include <hdf5.h>
#include <mpi.h>

static int name_is(const rec_func_desc *f, const char *const *names)
{
    for (; *names; names++)
        if (!strcmp(f->name, *names))
            return 1;
    return 0;
}

int rp_names_no_file(const rec_func_desc *f, unsigned arg)
{
    static const char *const link_makers[] = {"symlink", "symlinkat", NULL};
    static const char *const external[] = {"H5Lcreate_external", NULL};
    return (name_is(f, link_makers) && arg == 0) ||
           (name_is(f, external) && !strcmp(f->args[arg].name, "file_name"));
}

int rp_is_mkdir(const rec_func_desc *f)
{
    static const char *const names[] = {"mkdir", "mkdirat", NULL};
    return name_is(f, names);
}

int rp_arg_creates(const rec_func_desc *f, unsigned arg, const int64_t *ints, const char *const *strs)
{
    static const char *const makers[] = {"creat", "creat64", "mkdir", "mkdirat", NULL};
    static const char *const last_path_makers[] = {"link",   "linkat",   "symlink", "symlinkat",
                                                   "rename", "renameat", NULL};
    if (name_is(f, makers))
        return 1;
    if (name_is(f, last_path_makers)) {
        for (unsigned k = arg + 1; k < f->nargs; k++)
            if (f->args[k].kind == REC_KIND_PATH)
                return 0;
        return 1;
    }
    for (unsigned k = 0; k < f->nargs; k++) {
        switch (f->args[k].kind) {
        case REC_KIND_OFLAGS:
            if (ints[k] & O_CREAT)
                return 1;
            break;
        case REC_KIND_STDIO_MODE:
            if (strs[k] && (strs[k][0] == 'w' || strs[k][0] == 'a'))
                return 1;
            break;
        case REC_KIND_MPI_AMODE:
            if (ints[k] & MPI_MODE_CREATE)
                return 1;
            break;
        case REC_KIND_H5_FACC:
            if (ints[k] & (H5F_ACC_TRUNC | H5F_ACC_EXCL))
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}
