/* corpus_threads.h: the threads of the corpus programs that do their I/O
 * from threads they start (threaded_files, pnc_threads): n threads a rank,
 * thread t of rank r given the id r * n + t, meeting at one barrier. */
#ifndef CORPUS_THREADS_H
#define CORPUS_THREADS_H

#include "corpus.h"

#include <pthread.h>
#include <stdint.h>

enum { CORPUS_MAX_THREADS = 64 };

/* Makes the barrier (count n), starts the n threads of fn, joins them and destroys the barrier. */
static inline void corpus_run_threads(int n, void *(*fn)(void *), pthread_barrier_t *barrier)
{
    pthread_t threads[CORPUS_MAX_THREADS];
    if (n < 1 || n > CORPUS_MAX_THREADS)
        corpus_fail("%d threads: 1 to %d", n, CORPUS_MAX_THREADS);
    int err = pthread_barrier_init(barrier, NULL, (unsigned)n);
    if (err)
        corpus_fail("pthread_barrier_init: %s", strerror(err));
    for (int t = 0; t < n; t++)
        if ((err = pthread_create(&threads[t], NULL, fn, (void *)(intptr_t)(corpus_rank * n + t))))
            corpus_fail("pthread_create: %s", strerror(err));
    for (int t = 0; t < n; t++)
        if ((err = pthread_join(threads[t], NULL)))
            corpus_fail("pthread_join: %s", strerror(err));
    pthread_barrier_destroy(barrier);
}

/* Waits at the barrier: one thread gets PTHREAD_BARRIER_SERIAL_THREAD, the others 0. */
static inline void corpus_barrier_wait(pthread_barrier_t *barrier)
{
    int serial = pthread_barrier_wait(barrier);
    if (serial != 0 && serial != PTHREAD_BARRIER_SERIAL_THREAD)
        corpus_fail("pthread_barrier_wait: %s", strerror(serial));
}

#endif
