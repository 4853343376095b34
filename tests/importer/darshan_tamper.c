/* darshan_tamper LOG OUT MODULE PATH RANK COUNTER VALUE: writes OUT, the
 * log with one counter of one record changed (the record of PATH on RANK,
 * -1 for a shared one, in MODULE: POSIX, MPI-IO or STDIO), as a 3.41 log of
 * this byte order (darshan_make.c). For recorder-diff --darshan's tests:
 * a log whose figure no run made. */
#include "darshan_make.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: darshan_tamper LOG OUT MODULE PATH RANK COUNTER VALUE\n");
        return 2;
    }
    rec_error err;
    ri_darshan_log *log = ri_darshan_open(argv[1], &err);
    if (!log) {
        fprintf(stderr, "darshan_tamper: %s\n", err.msg);
        return 1;
    }
    unsigned module = 0;
    while (ri_darshan_module_name(module) && strcmp(ri_darshan_module_name(module), argv[3]))
        module++;
    int is_float = 0,
        at = ri_darshan_module_name(module) ? ri_darshan_counter_index(module, argv[6], &is_float) : -1;
    long long rank = atoll(argv[5]);
    int done = 0;
    for (size_t i = 0; at >= 0 && !is_float && i < log->modules[module].nrecords; i++) {
        ri_darshan_record *r = &log->modules[module].records[i];
        const char *name = ri_darshan_name_of(log, r->id);
        if (r->rank == rank && name && strcmp(name, argv[4]) == 0) {
            ((int64_t *)r->counters)[at] = atoll(argv[7]);
            done = 1;
        }
    }
    if (!done) {
        fprintf(stderr, "darshan_tamper: %s: no %s record of %s on rank %lld with a counter %s\n", argv[1],
                argv[3], argv[4], rank, argv[6]);
        return 1;
    }
    dm_log parts;
    dm_of_log(log, 0, &parts);
    size_t n;
    uint8_t *bytes = dm_write(&parts, &n);
    FILE *out = fopen(argv[2], "wb");
    if (!out || fwrite(bytes, 1, n, out) != n || fclose(out) != 0) {
        fprintf(stderr, "darshan_tamper: %s: cannot write it\n", argv[2]);
        return 1;
    }
    free(bytes);
    dm_release(&parts);
    ri_darshan_free(log);
    return 0;
}
