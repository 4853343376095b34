/* hooks.h: the few arguments whose C text the kinds alone do not decide,
 * keyed by function and argument name (internal to emit_stmt.c). A hook
 * gets the constant value of the argument it depends on and writes the
 * argument's text, or returns 0 to leave it to the kind. */
#ifndef RECORDER_CODEGEN_HOOKS_H
#define RECORDER_CODEGEN_HOOKS_H

#include <fcntl.h>

#include <stdint.h>

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
    const char *func, *arg; /* the argument */
    const char *depends;    /* the argument whose constant value the hook gets */
    int (*text)(int64_t value, sb *out);
} cg_hook;

static const cg_hook cg_hooks[] = {
    {"fcntl", "arg", "cmd", cg_hook_fcntl_arg},
};

#endif
