/* runtime.c: what every replayed call goes through: per-call memory,
 * scratch data, the timing wait, and the accounting of replayed, skipped
 * and mismatched calls. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <uthash.h>

#include "fs.h"
#include "recorder_facts.h"
#include "replay.h"
#include "threads.h"

/* ---- per-call memory: blocks released when the next call starts ---- */
struct rp_arena_block {
    rp_arena_block *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

void *rp_alloc(rp_ctx *x, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    rp_arena_block *b = x->arena;
    if (!b || b->used + n > b->cap) {
        size_t cap = n > 65536 ? n : 65536;
        rp_arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb) {
            rp_say(2, "recorder-replay: out of memory\n");
            exit(1);
        }
        nb->next = b;
        nb->used = 0;
        nb->cap = cap;
        x->arena = b = nb;
    }
    void *p = b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

void rp_arena_reset(rp_ctx *x)
{
    rp_arena_block *b = x->arena;
    while (b && b->next) {
        rp_arena_block *next = b->next;
        free(b);
        b = next;
    }
    if (b)
        b->used = 0;
    x->arena = b;
}

/* ---- data buffers ----
 * Data written is a pattern of letters: with the delimiters where the
 * trace's line-oriented reads of its file showed them (text.c), or, in a
 * file no line read showed, ending with a newline (when the application
 * wrote whole lines, fgets then sees the lines the original saw). */
static const char too_big[] = "its buffer would exceed 4 GiB", no_memory[] = "out of memory for its buffer";

static unsigned char pattern_at(size_t i)
{
    return (unsigned char)('a' + i % 26);
}

static void fill_pattern(unsigned char *p, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        p[i] = pattern_at(i);
}

static void end_line(unsigned char *p, size_t n)
{
    if (n)
        p[n - 1] = '\n';
}

void *rp_scratch(rp_ctx *x, int in, size_t n)
{
    if (n > RP_BUFFER_LIMIT) {
        x->reason = too_big;
        return NULL;
    }
    unsigned char **buf = in ? &x->wbuf : &x->rbuf;
    size_t *cap = in ? &x->wcap : &x->rcap;
    if (n > *cap) {
        size_t grown = *cap ? *cap : 65536;
        while (grown < n)
            grown *= 2;
        free(*buf);
        *buf = aligned_alloc(4096, grown); /* a file opened with O_DIRECT takes no other */
        if (!*buf) {
            *cap = 0;
            x->reason = no_memory;
            return NULL;
        }
        *cap = grown;
        if (in) {
            x->wfilled = 0;
            x->wnl_set = 0;
        }
    }
    if (in && x->text_known) { /* its delimiters where the reads showed them; the next write refills */
        rf_lines_fill((char *)x->wbuf, (int64_t)n, x->text_at, x->text_n, x->text_off, x->text_delim);
        x->wfilled = 0;
        x->wnl_set = 0;
        return x->wbuf;
    }
    if (in && x->wfilled < n) {
        fill_pattern(x->wbuf, x->wfilled, n);
        x->wfilled = n;
    }
    if (in) {
        if (x->wnl_set && x->wnl < x->wfilled)
            x->wbuf[x->wnl] = pattern_at(x->wnl);
        end_line(x->wbuf, n);
        x->wnl = n ? n - 1 : 0;
        x->wnl_set = 1;
    }
    return *buf;
}

void *rp_owned(rp_ctx *x, int in, size_t n)
{
    if (n > RP_BUFFER_LIMIT) {
        x->reason = too_big;
        return NULL;
    }
    unsigned char *p = malloc(n ? n : 1);
    if (!p) {
        x->reason = no_memory;
        return NULL;
    }
    if (in) {
        fill_pattern(p, 0, n);
        end_line(p, n);
    }
    return p;
}

char *rp_pattern_str(rp_ctx *x, int64_t n)
{
    if (n < 0)
        return NULL;
    char *s = rp_alloc(x, (size_t)n + 1);
    if (x->text_known) {
        rf_lines_fill(s, n, x->text_at, x->text_n, x->text_off, x->text_delim);
    } else {
        fill_pattern((unsigned char *)s, 0, (size_t)n);
        end_line((unsigned char *)s, (size_t)n);
    }
    s[n] = 0;
    return s;
}

char *rp_str(rp_ctx *x, const rp_value *v)
{
    char *s = rp_alloc(x, v->len + 1);
    if (v->s)
        memcpy(s, v->s, v->len);
    return s;
}

/* ---- arrays ---- */
int rp_datatype_array(rp_ctx *x, const rp_value *v, MPI_Datatype **out)
{
    *out = v->len ? rp_alloc(x, v->len * sizeof **out) : NULL;
    for (uint32_t k = 0; k < v->len; k++) {
        uint64_t raw;
        if (rp_handle_in(x, REC_KIND_MPI_DATATYPE, v->a[k], &raw))
            return -1;
        (*out)[k] = (MPI_Datatype)(uintptr_t)raw;
    }
    return 0;
}

MPI_Request *rp_request_array(rp_ctx *x, const rp_value *v, size_t min_n)
{
    size_t n = v->len > min_n ? v->len : min_n;
    MPI_Request *reqs = n ? rp_alloc(x, n * sizeof *reqs) : NULL;
    for (size_t k = 0; k < n; k++) {
        uint64_t raw;
        const char *saved = x->reason;
        /* A request whose call was not replayed is simply not waited for. */
        reqs[k] = k < v->len && !rp_handle_in(x, REC_KIND_MPI_REQUEST, v->a[k], &raw)
                      ? (MPI_Request)(uintptr_t)raw
                      : MPI_REQUEST_NULL;
        x->reason = saved;
    }
    return reqs;
}

int *rp_nc_request_array(rp_ctx *x, const rp_value *v)
{
    int *reqs = rp_alloc(x, (v->len ? v->len : 1) * sizeof *reqs);
    for (size_t k = 0; k < v->len; k++) {
        uint64_t raw;
        const char *saved = x->reason;
        /* NC_REQ_NULL (-1) for a request whose call was not replayed: PnetCDF skips it */
        reqs[k] = !rp_handle_in(x, REC_KIND_NC_REQUEST, v->a[k], &raw) ? (int)(int64_t)raw : -1;
        x->reason = saved;
    }
    return reqs;
}

MPI_Offset **rp_nc_offset_rows(rp_ctx *x, const rp_value *v, int64_t rows)
{
    if (rows <= 0 || !v->len)
        return NULL;
    size_t n = (size_t)rows, each = v->len / n;
    if (!each || each * n != v->len) /* a corrupt record: rows the library would read past */
        return NULL;
    MPI_Offset **row = rp_alloc(x, n * sizeof *row);
    MPI_Offset *all = rp_alloc(x, (each ? n * each : 1) * sizeof *all);
    for (size_t r = 0; r < n; r++) {
        row[r] = all + r * each;
        for (size_t k = 0; k < each; k++)
            row[r][k] = (MPI_Offset)v->a[r * each + k];
    }
    return row;
}

void **rp_buffer_rows(rp_ctx *x, const rp_rec *r, unsigned layout, int in, int rows, int bytes, int counts,
                      const MPI_Datatype *types)
{
    size_t n = rows >= 0 && r->args[rows].i > 0 ? (size_t)r->args[rows].i : 1;
    size_t need = bytes >= 0 && r->args[bytes].i > 0 ? (size_t)r->args[bytes].i : 0;
    for (size_t k = 0; counts >= 0 && types && k < n && k < r->args[counts].len; k++) {
        int64_t count = r->args[counts].a[k];
        size_t span = rp_mpi_span(types[k]);
        if (count > 0 && (size_t)count < RP_BUFFER_LIMIT / span && (size_t)count * span > need)
            need = (size_t)count * span;
    }
    const rp_value *at = &r->args[layout];
    int64_t low = 0, high = 0;
    for (size_t k = 0; k < at->len && k < n; k++) {
        low = at->a[k] < low ? at->a[k] : low;
        high = at->a[k] > high ? at->a[k] : high;
    }
    int spread = high - low < (int64_t)(RP_BUFFER_LIMIT / 2) && need < RP_BUFFER_LIMIT / 2; /* else one place */
    char *buf = rp_scratch(x, in, (spread ? (size_t)(high - low) : 0) + need + 64);
    if (!buf)
        return NULL;
    if (in) /* zeros, which PnetCDF converts to any variable's type */
        memset(buf, 0, (spread ? (size_t)(high - low) : 0) + need + 64);
    void **row = rp_alloc(x, n * sizeof *row);
    for (size_t k = 0; k < n; k++)
        row[k] = buf + (spread && k < at->len ? at->a[k] - low : 0);
    return row;
}

void *rp_nc_values(rp_ctx *x, const rp_value *v)
{
    /* an aligned copy (the values are doubles, ints...); none: NULL, as the program passed
     * (ncmpi_def_var_fill's default fill value) */
    if (!v->len)
        return NULL;
    unsigned char *p = rp_alloc(x, (size_t)v->len + 16);
    memset(p, 0, (size_t)v->len + 16);
    if (v->len)
        memcpy(p, v->s, v->len);
    return p;
}

void *rp_nc_attribute_strings(rp_ctx *x, const rp_value *v)
{
    const unsigned char *s = (const unsigned char *)v->s;
    if (v->len < 4)
        return NULL;
    uint32_t n = (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24;
    char **strings = rp_alloc(x, ((size_t)n + 1) * sizeof *strings);
    char *text = rp_alloc(x, (size_t)v->len + 1);
    memcpy(text, s, v->len);
    text[v->len] = 0; /* the last string ends here even where the trace's did not */
    size_t at = 4;
    for (uint32_t k = 0; k < n; k++) {
        strings[k] = at < v->len ? text + at : text + v->len;
        at += at < v->len ? strlen(text + at) + 1 : 0;
    }
    return strings;
}

char **rp_nc_strings(rp_ctx *x, const rp_value *v)
{
    if (!v->len)
        return NULL;
    char **s = rp_alloc(x, v->len * sizeof *s);
    for (uint32_t k = 0; k < v->len; k++)
        s[k] = rp_pattern_str(x, v->a[k]); /* -1: NULL */
    return s;
}

rp_nc_vlen *rp_nc_vlens(rp_ctx *x, const rp_value *v)
{
    if (v->len < 2 || v->a[0] <= 0)
        return NULL;
    int64_t most = 0; /* every value's elements are the pattern's first ones */
    for (uint32_t k = 1; k < v->len; k++)
        most = v->a[k] > most ? v->a[k] : most;
    if (most > (int64_t)(RP_BUFFER_LIMIT / (uint64_t)v->a[0]))
        return NULL;
    void *data = rp_scratch(x, 1, (size_t)(most * v->a[0]) + 1);
    if (!data)
        return NULL;
    rp_nc_vlen *values = rp_alloc(x, (v->len - 1) * sizeof *values);
    for (uint32_t k = 1; k < v->len; k++)
        values[k - 1] = (rp_nc_vlen){(size_t)(v->a[k] > 0 ? v->a[k] : 0), data};
    return values;
}

struct iovec *rp_iovec(rp_ctx *x, const rp_value *v, int in)
{
    size_t total = 0;
    for (uint32_t k = 0; k < v->len; k++)
        total += v->a[k] > 0 ? (size_t)v->a[k] : 0;
    unsigned char *data = rp_scratch(x, in, total ? total : 1);
    if (!data)
        return NULL;
    struct iovec *iov = rp_alloc(x, (v->len ? v->len : 1) * sizeof *iov);
    size_t at = 0;
    for (uint32_t k = 0; k < v->len; k++) {
        size_t n = v->a[k] > 0 ? (size_t)v->a[k] : 0;
        iov[k].iov_base = data + at;
        iov[k].iov_len = n;
        at += n;
    }
    return iov;
}

size_t rp_out_len(const rp_value *v, long expr)
{
    size_t n = 64;
    if (v->len > n)
        n = v->len;
    if (expr > 0 && (size_t)expr > n && expr < (1l << 24))
        n = (size_t)expr;
    return n;
}

int64_t rp_array_bound(const rp_value *v)
{
    int64_t sum = 0;
    for (uint32_t k = 0; k < v->len; k++)
        sum += v->a[k] > 0 ? v->a[k] : 0;
    return sum;
}

/* ---- timing ---- */
double rp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sleeps for long waits, spins for the last 50 us (sleeps overshoot). */
static void wait_until(double target)
{
    for (;;) {
        double left = target - rp_now();
        if (left <= 0)
            return;
        if (left > 100e-6) {
            double nap = left - 50e-6;
            struct timespec ts = {(time_t)nap, (long)((nap - (double)(time_t)nap) * 1e9)};
            nanosleep(&ts, NULL);
        }
    }
}

void rp_begin(rp_ctx *x, const rp_rec *r)
{
    if (x->opt.scale <= 0 || !x->anchored || r->tstart <= x->anchor_ticks)
        return;
    wait_until(x->anchor_now + (double)(r->tstart - x->anchor_ticks) * x->resolution * x->opt.scale);
}

/* ---- accounting ---- */
static unsigned layer_of(unsigned func)
{
    const rec_func_desc *f = rec_function_by_id(func);
    return f ? f->layer : REC_LAYER_POSIX;
}

void rp_end(rp_ctx *x, const rp_rec *r, int ok, int64_t bytes)
{
    rp_give_turn(x);
    const rec_func_desc *f = rec_function_by_id(r->func);
    unsigned layer = f->layer;
    rp_stats *s = &x->stats;
    s->replayed[layer]++;
    s->rebuilt += r->synthetic && ok;
    if (bytes > 0 && (f->flags & REC_FN_READ))
        s->bytes_read[layer] += (uint64_t)bytes;
    else if (bytes > 0 && (f->flags & REC_FN_WRITE))
        s->bytes_written[layer] += (uint64_t)bytes;
    int was = rf_ret_status(f, r->ret.i);
    if (was >= 0 && was != (ok != 0)) {
        s->mismatched[layer]++;
        s->mismatch_by_func[r->func]++;
        if (x->opt.verbose)
            rp_say(2, "recorder-replay: rank %d: record %u: %s %s in the trace but %s in the replay\n",
                   x->rank, r->seq, f->name, was ? "succeeded" : "failed", ok ? "succeeded" : "failed");
    }
}

void rp_skip(rp_ctx *x, const rp_rec *r)
{
    rp_stats *s = &x->stats;
    const char *reason = x->reason ? x->reason : "cannot be replayed";
    s->skipped[layer_of(r->func)]++;
    size_t i = 0;
    while (i < s->nskips && !(s->skips[i].func == r->func && strcmp(s->skips[i].reason, reason) == 0))
        i++;
    if (i == s->nskips && s->nskips < RP_MAX_REASONS)
        s->skips[s->nskips++] = (rp_skip_entry){r->func, reason, 0};
    if (i < s->nskips)
        s->skips[i].count++;
    const rec_func_desc *f = rec_function_by_id(r->func);
    if (f) /* what it would have made: the calls that use it are skipped too, not tried */
        rp_handles_not_made(f, r);
    if (f && rec_func_sole(f) == REC_SOLE_STARTS_THREAD) /* and the thread it would have started */
        rp_thread_not_started(f, r, "of a thread whose pthread_create was not replayed");
    if (f && (f->flags & REC_FN_COLLECTIVE) && (reason == too_big || reason == no_memory))
        /* Other ranks may well have issued it: said even without -v, as
         * the replay may never reach its summary. */
        rp_say(2,
               "recorder-replay: rank %d: record %u: collective %s skipped on this rank: %s (if other ranks "
               "issue it, they will wait for this one)\n",
               x->rank, r->seq, f->name, reason);
    else if (x->opt.verbose)
        rp_say(2, "recorder-replay: rank %d: record %u: %s skipped: %s\n", x->rank, r->seq, f ? f->name : "?",
               reason);
    x->reason = NULL;
}

void rp_stats_add(rp_stats *into, const rp_stats *from)
{
    for (unsigned l = 0; l < REC_LAYER_COUNT; l++) {
        into->replayed[l] += from->replayed[l];
        into->skipped[l] += from->skipped[l];
        into->filtered[l] += from->filtered[l];
        into->mismatched[l] += from->mismatched[l];
        into->bytes_read[l] += from->bytes_read[l];
        into->bytes_written[l] += from->bytes_written[l];
    }
    for (unsigned k = 0; k < REC_FUNCTION_ID_LIMIT; k++)
        into->mismatch_by_func[k] += from->mismatch_by_func[k];
    into->as_bytes += from->as_bytes;
    into->rebuilt += from->rebuilt;
    into->ordered += from->ordered;
    for (size_t k = 0; k < from->nskips; k++) {
        const rp_skip_entry *e = &from->skips[k];
        size_t i = 0;
        while (i < into->nskips && !(into->skips[i].func == e->func && strcmp(into->skips[i].reason, e->reason) == 0))
            i++;
        if (i == into->nskips && into->nskips < RP_MAX_REASONS)
            into->skips[into->nskips++] = (rp_skip_entry){e->func, e->reason, 0};
        if (i < into->nskips)
            into->skips[i].count += e->count;
    }
}

void rp_ctx_release(rp_ctx *x)
{
    rp_arena_reset(x);
    free(x->arena);
    free(x->wbuf);
    free(x->rbuf);
    x->arena = NULL;
    x->wbuf = x->rbuf = NULL;
    x->wcap = x->rcap = x->wfilled = 0;
}

/* ---- the HDF5 inputs no replay can synthesize ---- */
struct rp_unsynth {
    UT_hash_handle hh;
    char key[];
};

void rp_unsynth_add(rp_ctx *x, const char *key)
{
    rp_unsynth *u = NULL;
    HASH_FIND_STR(x->unsynth, key, u);
    if (u)
        return;
    size_t n = strlen(key) + 1;
    u = calloc(1, sizeof *u + n);
    if (!u)
        return;
    memcpy(u->key, key, n);
    HASH_ADD_STR(x->unsynth, key, u);
}

int rp_unsynth_has(const rp_ctx *x, const char *key)
{
    rp_unsynth *u = NULL;
    HASH_FIND_STR(x->unsynth, key, u);
    return u != NULL;
}

/* ---- misc ---- */
void rp_say(int fd, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof msg)
        n = sizeof msg - 1;
    rp_sys_write_all(fd, msg, (size_t)n);
}

void *rp_symbol(const char *name)
{
    return dlsym(RTLD_DEFAULT, name);
}

int rp_statuses_ignored(const rp_value *v)
{
    if (!v->len)
        return 0;
    for (uint32_t k = 0; k < v->len; k++)
        if (v->a[k] != -1)
            return 0;
    return 1;
}
