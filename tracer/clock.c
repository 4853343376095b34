/* clock.c: the time-stamp counter as the tracer's clock, when it can be
 * trusted (an x86-64 CPU whose TSC runs at a constant rate in every power
 * state). Calibrated against CLOCK_MONOTONIC at start, then re-anchored
 * every 65536 records with a fresh CLOCK_MONOTONIC reading and a rate
 * measured over the whole run so far. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

int rt_use_tsc;
rt_anchor rt_anchors[2];
int rt_anchor_current;
static uint64_t first_tsc;
static double first_ns;

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

/* Called once at start (after rt_t0_ns is set): decides which clock to use. */
void rt_clock_init(void)
{
#if defined(__x86_64__)
    const char *off = getenv("RECORDER_TSC");
    if ((off && strcmp(off, "0") == 0) || !tsc_is_invariant())
        return;
    first_tsc = __builtin_ia32_rdtsc();
    first_ns = (double)(rt_now_ns() - rt_t0_ns);
    /* A first rate from a 2 ms wait; later anchors refine it over the run. */
    uint64_t tsc, ns;
    do {
        tsc = __builtin_ia32_rdtsc();
        ns = rt_now_ns() - rt_t0_ns;
    } while ((double)ns - first_ns < 2e6);
    if (tsc <= first_tsc)
        return;
    rt_anchors[0] = (rt_anchor){tsc, (double)ns, ((double)ns - first_ns) / (double)(tsc - first_tsc)};
    rt_anchor_current = 0;
    rt_use_tsc = 1;
#endif
}

/* Lock held. Switches to a fresh anchor in the other slot, so a reader on
 * another thread always sees a whole one. */
void rt_clock_anchor(void)
{
#if defined(__x86_64__)
    if (!rt_use_tsc)
        return;
    uint64_t tsc = __builtin_ia32_rdtsc();
    double ns = (double)(rt_now_ns() - rt_t0_ns);
    if (tsc <= first_tsc)
        return;
    /* Never step back: the new anchor starts where the old one has got to. */
    const rt_anchor *old = &rt_anchors[rt_anchor_current];
    double carried = old->ns + (double)(int64_t)(tsc - old->tsc) * old->ns_per_tsc;
    if (ns < carried)
        ns = carried;
    int next = !rt_anchor_current;
    rt_anchors[next] = (rt_anchor){tsc, ns, (ns - first_ns) / (double)(tsc - first_tsc)};
    __atomic_store_n(&rt_anchor_current, next, __ATOMIC_RELEASE);
#endif
}
