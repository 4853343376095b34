/* layer_calls: per rank and function, the calls of one layer in a trace
 * and the bytes they moved, like trace_expect but for --layers replays:
 *   layer_calls LAYER all|top TRACE_DIR
 * "all" counts the layer's calls at every depth (what a replay of that
 * layer issues), "top" only the application-level ones (what a traced
 * replay of that layer records at depth 0). Console streams are left out. */
#include "expect_tally.h"
#include "recorder_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 4 || rec_layer_from_name(argv[1]) < 0 || (strcmp(argv[2], "all") && strcmp(argv[2], "top"))) {
        fprintf(stderr, "usage: layer_calls POSIX|MPI|MPI-IO|HDF5 all|top TRACE_DIR\n");
        return 2;
    }
    int layer = rec_layer_from_name(argv[1]), top = !strcmp(argv[2], "top");
    rec_error err;
    rec_trace *t = rec_trace_open(argv[3], &err);
    if (!t) {
        fprintf(stderr, "layer_calls: %s\n", err.msg);
        return 1;
    }
    const rec_table *table = rec_trace_table(t);
    for (uint32_t rank = 0; rank < rec_trace_get_info(t)->nranks; rank++) {
        rec_cursor *c = rec_cursor_open(t, rank, &err);
        if (!c) {
            fprintf(stderr, "layer_calls: %s\n", err.msg);
            return 1;
        }
        static expect_tally tally;
        memset(&tally, 0, sizeof tally);
        rec_record r;
        int rc;
        while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
            const rec_func_desc *f = rec_table_lookup(table, r.func);
            if (!f || (int)f->layer != layer || (top && r.depth) || r.thread || rf_on_console(f, &r))
                continue;
            expect_tally_add(&tally, f, &r);
        }
        if (rc < 0) {
            fprintf(stderr, "layer_calls: %s\n", err.msg);
            return 1;
        }
        for (unsigned id = 0; id < REC_FUNCTION_ID_LIMIT; id++)
            if (tally.calls[id])
                printf("rank=%u function=%s calls=%llu bytes=%lld\n", rank, rec_table_lookup(table, id)->name,
                       (unsigned long long)tally.calls[id], (long long)tally.bytes[id]);
        rec_cursor_close(c);
    }
    rec_trace_close(t);
    return 0;
}
