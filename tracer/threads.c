/* threads.c: the ids of the threads the application starts.
 *
 * A thread's records carry the tracer's id of it (rt_self.id). A thread the
 * application starts with pthread_create gets its id before it runs, from
 * the creating call: the wrapper hands the C library a start routine of the
 * tracer's that sets the id and then runs the application's, so the
 * creating call's record can name the thread whose records follow, and
 * pthread_join's the thread it waits for (a pthread_t is an address the
 * library reuses; the id is not). Kernels and replays start a thread of
 * their own there. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include "rt.h"

typedef struct thread_box {
    rec_thread_start start;
    void *arg;
    uint32_t id;
} thread_box;

/* pthread_t -> id of the threads started while tracing, under the tracer's
 * lock; a reused pthread_t takes its new thread's id. Open addressing: the
 * table only grows, as ids are never reused. */
enum { THREAD_SLOTS = 4096 };
static struct {
    uint64_t self;
    int64_t id; /* 0: empty slot */
} known[THREAD_SLOTS];

static void *start_with_id(void *p)
{
    thread_box box = *(thread_box *)p;
    free(p);
    rt_self.id = box.id;
    rt_self.has_id = 1;
    return box.start(box.arg);
}

void rt_thread_starting(void *(**start)(void *), void **arg)
{
    rt_self.child_box = NULL;
    thread_box *box = *start ? malloc(sizeof *box) : NULL;
    if (!box) /* no start routine: pthread_create fails as it would */
        return;
    *box = (thread_box){.start = *start, .arg = *arg, .id = rt_thread_next_id()};
    rt_self.child = box->id;
    rt_self.child_box = box;
    *start = start_with_id;
    *arg = box;
}

void rt_thread_started(int ok)
{
    if (!ok) /* no thread took it */
        free(rt_self.child_box);
    rt_self.child_box = NULL;
}

static size_t slot_of(uint64_t self)
{
    size_t i = (size_t)((self >> 6) * 0x9E3779B97F4A7C15ull >> 52) % THREAD_SLOTS;
    for (size_t n = 0; n < THREAD_SLOTS; n++, i = (i + 1) % THREAD_SLOTS)
        if (!known[i].id || known[i].self == self)
            return i;
    return THREAD_SLOTS;
}

int64_t rt_thread_created(uint64_t self, int ok)
{
    if (!ok || !rt_self.child_box)
        return -1;
    size_t i = slot_of(self);
    if (i < THREAD_SLOTS)
        known[i].self = self, known[i].id = (int64_t)rt_self.child + 1;
    return rt_self.child;
}

int64_t rt_thread_of(uint64_t self)
{
    size_t i = slot_of(self);
    return i < THREAD_SLOTS && known[i].id ? known[i].id - 1 : -1;
}
