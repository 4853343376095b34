/* prefetch.c: loading what the next ranks of a group will touch.
 * At thousands of ranks nothing of a rank is still in the cache when its
 * turn comes again, and each record would wait for its cache lines one after
 * the other. The loops over a group call these a few ranks ahead, so that
 * the lines arrive while other ranks are worked on; a far stage loads what
 * a nearer stage computes its addresses from. */
#include "merge_internal.h"


static void prefetch_rank(const rank_state *rs, int reading)
{
    __builtin_prefetch(rs, 1);
    __builtin_prefetch((const char *)rs + 64, 1);
    if (reading) { /* the part read_ahead uses */
        __builtin_prefetch((const char *)rs + 128, 1);
        __builtin_prefetch((const char *)rs + 192, 1);
    }
}

static int reads_ahead(const rank_state *rs, unsigned pushes)
{
    return rs->queued < pushes && !rs->eof;
}

/* The stream's lines when read_ahead will run: stage 0, then 1. */
static void prefetch_stream(const rank_state *rs, int stage)
{
    rec_cursor_prefetch(rs->cursor, stage);
    if (rs->current)
        __builtin_prefetch(stage ? rs->current->data + rs->current->used : (const void *)rs->current, 1);
}

/* Popping `pops` heads and pushing as many records, for the rank `ahead`
 * ranks on: its table entries for the signatures involved. */
static void prefetch_window(const merger *m, const rank_state *rs, unsigned pops, int stage)
{
    if (stage == 0) {
        /* every line of the slots popped, then the next head's and the first queued */
        unsigned last = pops < rs->count ? pops : rs->count;
        const char *from = (const char *)&rs->ring[rs->head], *to = (const char *)window_slot(m, rs, last);
        if (to > from && to - from < 4096)
            for (const char *p = from; p < to + 64; p += 64)
                __builtin_prefetch(p, 1);
        else
            __builtin_prefetch(from, 1), __builtin_prefetch(to, 1);
        __builtin_prefetch(window_slot(m, rs, rs->count), 1);
        return;
    }
    if (!rs->sig_cap)
        return;
    if (rs->count) {
        __builtin_prefetch(&rs->sig_tab[sig_home(rs->ring[rs->head].sig, rs->sig_cap)], 1);
        if (rs->count > pops)
            __builtin_prefetch(&rs->sig_tab[sig_home(window_slot(m, rs, pops)->sig, rs->sig_cap)], 1);
    }
    if (rs->queued)
        __builtin_prefetch(&rs->sig_tab[sig_home(window_slot(m, rs, rs->count)->sig, rs->sig_cap)], 1);
}

void prefetch_ahead(const merger *m, rank_state *const *group, uint32_t n, uint32_t k)
{
    enum { FAR = 12, MID = 8, NEAR = 4 };
    if (k + FAR < n)
        prefetch_rank(group[k + FAR], reads_ahead(group[k + FAR], 1));
    if (k + MID < n) {
        prefetch_window(m, group[k + MID], 1, 0);
        if (reads_ahead(group[k + MID], 1))
            prefetch_stream(group[k + MID], 0);
    }
    if (k + NEAR < n) {
        prefetch_window(m, group[k + NEAR], 1, 1);
        if (reads_ahead(group[k + NEAR], 1))
            prefetch_stream(group[k + NEAR], 1);
    }
}

/* The same for the loops that read the group's head records. */
void prefetch_heads(const merger *m, rank_state *const *group, uint32_t n, uint32_t k)
{
    enum { FAR = 24, MID = 16, NEAR = 8 };
    if (k + FAR < n)
        __builtin_prefetch(group[k + FAR]);
    if (k + MID < n)
        __builtin_prefetch(&group[k + MID]->ring[group[k + MID]->head]);
    if (k + NEAR < n && group[k + NEAR]->count) {
        const char *w = (const char *)group[k + NEAR]->ring[group[k + NEAR]->head].rec;
        __builtin_prefetch(w, 1); /* its header and first fields, 128 bytes wherever they start */
        __builtin_prefetch(w + 64, 1);
        __builtin_prefetch(w + 127, 1);
    }
    (void)m;
}

/* The same for a lockstep batch: the next `batch` records of each rank. */
void prefetch_batch(const merger *m, rank_state *const *group, uint32_t n, uint32_t k, unsigned batch)
{
    enum { FAR = 12, MID = 8, NEAR = 4 };
    if (k + FAR < n)
        __builtin_prefetch(group[k + FAR]);
    if (k + MID < n) {
        const rank_state *rs = group[k + MID];
        __builtin_prefetch(&rs->ring[rs->head]);
        __builtin_prefetch(window_slot(m, rs, batch - 1));
    }
    if (batch > 16)
        batch = 16; /* the rest of a rank's stretch streams in behind them */
    if (k + NEAR < n && group[k + NEAR]->count >= batch) {
        const rank_state *rs = group[k + NEAR];
        const char *from = (const char *)rs->ring[rs->head].rec;
        const char *to = (const char *)window_slot(m, rs, batch - 1)->rec + 127;
        if (to > from && to - from < 4096) { /* one stretch of a chunk, as they mostly are */
            for (const char *p = from; p < to + 64; p += 64)
                __builtin_prefetch(p);
        } else {
            for (unsigned j = 0; j < batch; j++)
                __builtin_prefetch(window_slot(m, rs, j)->rec);
        }
    }
}

/* The same for popping a lockstep batch and refilling the windows. */
void prefetch_refill(const merger *m, rank_state *const *group, uint32_t n, uint32_t k, unsigned batch)
{
    enum { FAR = 6, MID = 4, NEAR = 2 };
    if (k + FAR < n)
        prefetch_rank(group[k + FAR], reads_ahead(group[k + FAR], batch));
    if (k + MID < n) {
        prefetch_window(m, group[k + MID], batch, 0);
        if (reads_ahead(group[k + MID], batch))
            prefetch_stream(group[k + MID], 0);
    }
    if (k + NEAR < n) {
        prefetch_window(m, group[k + NEAR], batch, 1);
        if (reads_ahead(group[k + NEAR], batch))
            prefetch_stream(group[k + NEAR], 1);
    }
}

