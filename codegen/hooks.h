/* hooks.h: the few arguments whose C text their own kind alone does not
 * decide, keyed by the kind of the argument they depend on (internal to
 * emit_stmt.c). A hook gets that argument's constant value and writes the
 * argument's text, or returns 0 to leave it to the kind. */
#ifndef RECORDER_CODEGEN_HOOKS_H
#define RECORDER_CODEGEN_HOOKS_H

#include <fcntl.h>

#include <stdint.h>

#include "recorder_functions.h"
#include "strbuf.h"

/* fcntl's third argument is an int, or a pointer for the lock commands
 * (recorded as 0): unlocking, or asking, works on any open file. */
static inline int cg_hook_fcntl_arg(int64_t cmd, sb *out)
{
    switch (cmd) {
    case F_GETLK:
    case F_OFD_GETLK:
        sb_puts(out, "&(struct flock){.l_type = F_WRLCK}");
        return 1;
    case F_SETLK:
    case F_SETLKW:
    case F_OFD_SETLK:
    case F_OFD_SETLKW:
        sb_puts(out, "&(struct flock){.l_type = F_UNLCK}");
        return 1;
    default:
        return 0;
    }
}

typedef struct cg_hook {
    unsigned depends; /* the kind of the argument whose constant value the hook gets */
    unsigned flags;   /* the hooked argument is the one with these flags (REC_ARG_*) */
    int (*text)(int64_t value, sb *out);
} cg_hook;

static const cg_hook cg_hooks[] = {
    {REC_KIND_FCNTL_CMD, REC_ARG_VA, cg_hook_fcntl_arg}, /* fcntl's third argument */
};

#endif
