/* loader.c: the process that reads the trace for one replaying rank.
 *
 * It is forked before MPI_Init, so the tracer (which stops tracing in a
 * forked child) never sees it decode the trace or pre-create the inputs.
 * Protocol (wire.h): it sends HELLO (can the trace be read, how many ranks,
 * how the application initialized MPI), waits for the rank and whether it
 * prepares the inputs (rank 0's loader does), sends PREP if so, then
 * streams the rank's records and END. */
#define _GNU_SOURCE
#include "loader.h"

#include <stdio.h>
#include <string.h>

#include "fs.h"
#include "prep.h"
#include "source.h"
#include "wire.h"

/* The trace's table entry matches this build's (same name and kinds), so
 * the generated dispatch can replay the record. */
static int compatible(const rec_func_desc *traced)
{
    return rec_func_same_kinds(rec_function_by_id(traced->id), traced);
}

static void send_error(rp_out *o, const char *msg)
{
    rp_out_begin(o, RP_MSG_ERROR);
    rp_out_str(o, msg, (uint32_t)strlen(msg));
    rp_out_end(o);
    rp_out_flush(o);
}

/* How rank 0 initialized MPI: MPI_Init, or MPI_Init_thread and its level. */
static void find_init(rec_trace *t, unsigned *func, int64_t *required)
{
    rec_error err;
    *func = 0;
    *required = 0;
    rp_source *src = rp_source_open(t, 0, &err);
    if (!src)
        return;
    const rec_table *table = rec_trace_table(t);
    rec_record r;
    for (int n = 0; n < 100000 && src->ops->next(src, &r, &err) == 1; n++) {
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        if (!f || r.depth)
            continue;
        const rec_func_desc *mine = rec_function_by_name(f->name);
        if (mine && (f->roles & REC_ROLE_STARTS_MPI)) {
            int level = rec_arg_with_kind(f, REC_KIND_MPI_THREAD_LEVEL, REC_ARG_IN);
            *func = mine->id;
            if (level >= 0)
                *required = r.args[level].i;
            break;
        }
    }
    src->ops->close(src);
}

static int stream_rank(rec_trace *t, uint32_t rank, rp_out *o)
{
    rec_error err;
    rp_source *src = rp_source_open(t, rank, &err);
    if (!src) {
        send_error(o, err.msg);
        return 1;
    }
    const rec_table *table = rec_trace_table(t);
    static signed char compat[REC_FUNCTION_ID_LIMIT]; /* 0 unknown, 1 yes, -1 no */
    rec_record r;
    int rc;
    uint32_t seq = 0;
    while ((rc = src->ops->next(src, &r, &err)) == 1) {
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        int ok = 0;
        if (f && r.func < REC_FUNCTION_ID_LIMIT) {
            if (!compat[r.func])
                compat[r.func] = compatible(f) ? 1 : -1;
            ok = compat[r.func] > 0;
        }
        rp_out_record(o, &r, f, ok, seq++, rp_source_path_cb, src);
        if (o->failed)
            break; /* the replaying process is gone */
    }
    int complete = rc == 0 && src->ops->complete(src);
    src->ops->close(src);
    if (rc < 0) {
        send_error(o, err.msg);
        return 1;
    }
    rp_out_begin(o, RP_MSG_END);
    rp_out_u8(o, (uint8_t)complete);
    rp_out_end(o);
    return rp_out_flush(o) == 0 ? 0 : 1;
}

int rp_loader_main(const rp_options *opt, int to_replayer, int from_replayer)
{
    rp_out o;
    rp_out_init(&o, to_replayer);
    rec_error err;
    char msg[1200];
    rec_trace *t = rec_trace_open(opt->trace_dir, &err);
    rp_out_begin(&o, RP_MSG_HELLO);
    if (!t) {
        snprintf(msg, sizeof msg, "recorder-replay: %s", err.msg);
        rp_out_u8(&o, 0);
        rp_out_str(&o, msg, (uint32_t)strlen(msg));
        rp_out_end(&o);
        rp_out_flush(&o);
        rp_out_free(&o);
        return 1;
    }
    const rec_trace_info *info = rec_trace_get_info(t);
    unsigned init_func;
    int64_t required;
    find_init(t, &init_func, &required);
    rp_out_u8(&o, 1);
    rp_out_str(&o, "", 0);
    rp_out_u32(&o, info->nranks);
    rp_out_f64(&o, info->time_resolution);
    rp_out_u32(&o, init_func);
    rp_out_i64(&o, required);
    rp_out_end(&o);
    int rc = rp_out_flush(&o);
    uint32_t rank = 0;
    uint8_t prep = 0;
    if (rc == 0 && (rp_sys_read_all(from_replayer, &rank, sizeof rank) != 0 ||
                    rp_sys_read_all(from_replayer, &prep, sizeof prep) != 0))
        rc = 1; /* the replayer stopped before replaying: nothing to do */
    if (rc == 0 && prep) {
        char why[1100];
        if (rp_prep(t, opt, &o, why, sizeof why) != 0) {
            snprintf(msg, sizeof msg, "recorder-replay: %s", why);
            send_error(&o, msg);
            rc = 1;
        } else {
            rc = rp_out_flush(&o);
        }
    }
    /* where this rank stops: the cut of a trace cut short (cut.h), else UINT64_MAX */
    uint64_t limit = UINT64_MAX;
    if (rc == 0 && rp_sys_read_all(from_replayer, &limit, sizeof limit) != 0)
        rc = 1;
    if (rc == 0) {
        rp_source_limit(rank, limit);
        rc = stream_rank(t, rank, &o);
    }
    rp_out_free(&o);
    rec_trace_close(t);
    return rc;
}
