/* count_records TRACE_DIR: a program of a user's, built against the
 * installed library through find_package(RecorderKit); prints
 * "ranks N records M" for a trace. */
#include <recorder_format.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    rec_error err = {0};
    rec_trace *t = argc == 2 ? rec_trace_open(argv[1], &err) : NULL;
    if (!t) {
        fprintf(stderr, "count_records: %s\n", argc == 2 ? err.msg : "usage: count_records TRACE_DIR");
        return 1;
    }
    unsigned long long records = 0;
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    for (uint32_t rank = 0; rank < nranks; rank++) {
        rec_cursor *c = rec_cursor_open(t, rank, &err);
        rec_record r;
        int got = 0;
        while (c && (got = rec_cursor_next(c, &r, &err)) == 1)
            records++;
        if (!c || got < 0) {
            fprintf(stderr, "count_records: %s\n", err.msg);
            return 1;
        }
        rec_cursor_close(c);
    }
    printf("ranks %u records %llu\n", nranks, records);
    rec_trace_close(t);
    return 0;
}
