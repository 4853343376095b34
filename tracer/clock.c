/* clock.c: the time-stamp counter as the tracer's clock, when it can be
 * trusted (an x86-64 CPU whose TSC runs at a constant rate in every power
 * state). Calibrated against CLOCK_MONOTONIC over the program's first 2 ms
 * (or more: at its first record after them), records until then being
 * timed by CLOCK_MONOTONIC itself, so no process waits for it; then
 * re-anchored with a fresh CLOCK_MONOTONIC reading and a rate measured over
 * the whole run so far: every 65536 records, and at the first record after
 * the run's age has doubled since the last anchor (at most 1 s apart), so a
 * program making few calls is not timed for long by the 2 ms rate: its error
 * stays about that of one paired reading. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

RT_HOT int rt_use_tsc;
RT_HOT int rt_anchor_current;
RT_HOT uint64_t rt_next_anchor_ticks = UINT64_MAX;
RT_HOT rt_anchor rt_anchors[2];
static uint64_t first_tsc;
static double first_ns;
static int tsc_pending; /* the counter can be trusted: rt_clock_anchor turns it on once 2 ms have passed */

/* An anchor: the TSC reading, the monotonic ns then, and the rate; the same
 * in the trace's ticks, fixed point, for rt_ticks. */
static rt_anchor make_anchor(uint64_t tsc, double ns, double ns_per_tsc)
{
    double ticks = ns / rt_ns_per_tick;
    return (rt_anchor){tsc, ns, ns_per_tsc, ticks > 0 ? (uint64_t)ticks : 0,
                       (uint64_t)(ns_per_tsc / rt_ns_per_tick * 1099511627776.0 + 0.5)};
}

#if defined(__x86_64__)
static int tsc_is_invariant(void)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    char line[4096];
    int constant = 0, nonstop = 0;
    while (fgets(line, sizeof line, f) && !(constant && nonstop)) {
        if (strncmp(line, "flags", 5) != 0)
            continue;
        constant = strstr(line, " constant_tsc") != NULL;
        nonstop = strstr(line, " nonstop_tsc") != NULL;
        break;
    }
    fclose(f);
    return constant && nonstop;
}
#endif

/* A TSC reading and the monotonic time taken together: both read with
 * nothing between them, bracketed by two TSC reads, the closest pair of 8
 * (or more, up to 64, while none is under 2000 cycles): a preemption or a
 * slow read in between would pair a TSC value with a later time, and the
 * rate from two such readings 2 ms apart was off by 135 ppm under load. */
static int paired_reading(uint64_t *tsc, double *ns)
{
    uint64_t best_gap = UINT64_MAX;
    for (int attempt = 0; attempt < 64; attempt++) {
        uint64_t before = __builtin_ia32_rdtsc();
        uint64_t now = rt_now_ns();
        uint64_t after = __builtin_ia32_rdtsc();
        if (after - before < best_gap) {
            best_gap = after - before;
            *tsc = before + (after - before) / 2;
            *ns = (double)(now - rt_t0_ns);
        }
        if (attempt >= 7 && best_gap < 2000)
            return 0;
    }
    return best_gap < 100000 ? 0 : -1;
}

/* The next time-based anchor: when the run's age since the first reading
 * has doubled, at least 1 ms and at most 1 s from now, in trace ticks. */
static void schedule_next_anchor(double ns)
{
    double wait = ns - first_ns;
    wait = wait < 1e6 ? 1e6 : wait > 1e9 ? 1e9 : wait;
    rt_next_anchor_ticks = (uint64_t)((ns + wait) / rt_ns_per_tick);
}

/* Called once at start (after rt_t0_ns is set): whether the counter may
 * be used, and the first reading of its rate. */
void rt_clock_init(void)
{
#if defined(__x86_64__)
    const char *off = getenv("RECORDER_TSC");
    if ((off && strcmp(off, "0") == 0) || !tsc_is_invariant())
        return;
    if (paired_reading(&first_tsc, &first_ns) != 0)
        return;
    tsc_pending = 1;
    rt_next_anchor_ticks = (uint64_t)((first_ns + 2e6) / rt_ns_per_tick);
#endif
}

#if defined(__x86_64__)
/* Lock held, the counter not yet in use: a rate from the first reading to
 * this one, once they are 2 ms apart. The anchor's time is a monotonic
 * reading taken now, so ticks never step back at the switch. */
static void start_tsc(void)
{
    uint64_t tsc;
    double ns;
    int paired = paired_reading(&tsc, &ns) == 0;
    if (paired && ns - first_ns < 2e6) {
        rt_next_anchor_ticks = (uint64_t)((first_ns + 2e6) / rt_ns_per_tick);
        return;
    }
    tsc_pending = 0;
    double rate = paired ? (ns - first_ns) / (double)(tsc - first_tsc) : 0;
    if (!paired || tsc <= first_tsc ||
        !(rate > 0.05 && rate < 20.0) ||                  /* 50 MHz .. 20 GHz: else distrust it */
        rate / rt_ns_per_tick * 1099511627776.0 > 9e18) { /* ticks finer than rt_ticks' fixed point holds */
        rt_next_anchor_ticks = UINT64_MAX;                /* CLOCK_MONOTONIC for the whole run */
        return;
    }
    rt_anchors[0] = make_anchor(tsc, ns, rate);
    __atomic_store_n(&rt_anchor_current, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&rt_use_tsc, 1, __ATOMIC_RELEASE);
    schedule_next_anchor(ns);
}
#endif

/* Lock held. Switches to a fresh anchor in the other slot, so a reader on
 * another thread always sees a whole one. */
void rt_clock_anchor(void)
{
#if defined(__x86_64__)
    if (!rt_use_tsc) {
        if (tsc_pending)
            start_tsc();
        return;
    }
    uint64_t tsc;
    double ns;
    if (paired_reading(&tsc, &ns) != 0 || tsc <= first_tsc) {
        schedule_next_anchor((double)(rt_now_ns() - rt_t0_ns));
        return;
    }
    schedule_next_anchor(ns);
    /* Never step back: the new anchor starts where the old one has got to. */
    const rt_anchor *old = &rt_anchors[rt_anchor_current];
    double carried = old->ns + (double)(int64_t)(tsc - old->tsc) * old->ns_per_tsc;
    if (ns < carried)
        ns = carried;
    double rate = (ns - first_ns) / (double)(tsc - first_tsc);
    if (!(rate > 0.05 && rate < 20.0))
        return;
    int next = !rt_anchor_current;
    rt_anchor fresh = make_anchor(tsc, ns, rate);
    uint64_t reached =
        old->ticks + (uint64_t)(((unsigned __int128)(tsc - old->tsc) * old->ticks_per_tsc) >> 40);
    if (fresh.ticks < reached) /* the same, in fixed point: rounding must not step back either */
        fresh.ticks = reached;
    rt_anchors[next] = fresh;
    __atomic_store_n(&rt_anchor_current, next, __ATOMIC_RELEASE);
#endif
}
