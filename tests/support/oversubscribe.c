/* liboversubscribe.so: lets MPICH (ch4:ucx) ranks give up the CPU while they
 * wait, so runs with more ranks than cores (mpirun -np 8 on 2 cores) take
 * seconds instead of minutes. MPICH's progress loop spins in
 * ucp_worker_progress() and never yields; this wrapper yields after a run of
 * idle polls. It changes no MPI semantics. Preload it next to the tracer:
 *   mpirun -np 8 -genv LD_PRELOAD liboversubscribe.so:librecorder.so ./app */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>

typedef unsigned (*progress_fn)(void *worker);

/* Idle polls tolerated before yielding: small enough that a waiting rank
 * hands its core to the rank it waits for within microseconds. */
enum { IDLE_POLLS_BEFORE_YIELD = 64 };

unsigned ucp_worker_progress(void *worker)
{
    static progress_fn real_progress;
    static __thread unsigned idle_polls;
    if (!real_progress) {
        real_progress = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (!real_progress)
            return 0;
    }
    unsigned events = real_progress(worker);
    if (events)
        idle_polls = 0;
    else if (++idle_polls > IDLE_POLLS_BEFORE_YIELD)
        sched_yield();
    return events;
}
