/* hooks.h: code a few generated wrappers run after the real call, named
 * RT_AFTER_<function>. They run with the tracer's lock held, before the
 * record is appended. */
#ifndef RECORDER_HOOKS_H
#define RECORDER_HOOKS_H

#include <fcntl.h>

#include "rec_function_ids.h" /* REC_ARG_<function>_<argument> */
#include "runtime.h"

#define RT_AFTER_MPI_Init rt_after_mpi_init(ok)
#define RT_AFTER_MPI_Init_thread rt_after_mpi_init(ok)
#define RT_AFTER_MPI_Finalize rt_after_mpi_finalize()
/* RT_BEFORE_<function>(call) runs right before the real call; call is NULL
 * when the call is not recorded. */
#define RT_BEFORE_MPI_Finalize(call) rt_before_mpi_finalize(call)

/* A thread the application starts knows its id from its first instruction
 * (threads.c), traced or not: pthread_create's record names it. */
#define RT_BEFORE_pthread_create(call) rt_thread_starting(&start_routine, &arg)
#define RT_AFTER_pthread_create rt_thread_started(ok)

/* fcntl's third argument is recorded only when it is an integer, never an address. */
static inline int rt_fcntl_arg_is_int(int cmd)
{
    return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_SETFD || cmd == F_SETFL || cmd == F_SETOWN ||
           cmd == F_SETSIG || cmd == F_SETLEASE || cmd == F_NOTIFY || cmd == F_SETPIPE_SZ;
}
#define RT_FCNTL_ARG(arg_index)                                                                               \
    do {                                                                                                      \
        if (!rt_fcntl_arg_is_int(cmd))                                                                        \
            r->args[arg_index].i = 0;                                                                         \
        else /* the int was read as a long: keep its 32 bits */                                               \
            r->args[arg_index].i = (int)r->args[arg_index].i;                                                 \
    } while (0)
#define RT_AFTER_fcntl RT_FCNTL_ARG(REC_ARG_fcntl_arg)
/* fcntl64 (what fcntl compiles to under _FILE_OFFSET_BITS=64) is fcntl: its
 * third argument is fetched as fcntl's is (variadic.h) and recorded alike. */
#define RT_VA_fcntl64(last, var) RT_VA_fcntl(last, var)
#define RT_AFTER_fcntl64 RT_FCNTL_ARG(REC_ARG_fcntl64_arg)

/* sync has no argument and no result: its record holds only its times, so
 * nothing in its wrapper names the record (gen_wrappers declares it anyway). */
#define RT_AFTER_sync (void)r

#endif
