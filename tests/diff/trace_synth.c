/* trace_synth: writes two small one-rank traces, an "original" A and a
 * "replay" B that re-roots it under /R the way recorder-replay does (directory
 * fd relative paths made absolute, ".." resolved, relative symlink targets
 * kept, readdir in another order, another working directory), so tests can
 * check recorder-diff's rules for environment-dependent values on calls no
 * kernel makes.
 *
 *   trace_synth A_DIR B_DIR [SCENARIO]
 *
 * SCENARIO (default "equal") changes one line of B: see `variants` below.
 * A call is written as "function field... = return [errno=E]": the recorded
 * fields in order (arguments not recorded are skipped), PATH and string
 * fields as text, everything else as integers. */
#include "recorder_format.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const original[] = {
    "getcwd 4096 = /home/user/run",
    "mkdir /data 493 = -1 errno=17",
    "open /data/d 65536 0 = 64",
    "openat 64 f 65 420 = 65",
    "pwrite 65 10 0 = 10",
    "close 65 = 0",
    "open sub/../data/x 0 0 = 66",
    "close 66 = 0",
    "symlink f /data/d/l = 0",
    "readlink /data/d/l f 4095 = 1",
    "symlink /data/d/f /data/d/abs = 0",
    "readlink /data/d/abs /data/d/f 4095 = 9",
    "opendir /data/d = 64",
    "readdir 64 = .",
    "readdir 64 = f",
    "readdir 64 = l",
    "readdir 64 = ",
    "closedir 64 = 0",
    "close 64 = 0",
    NULL,
};

static const char *const replay[] = {
    "getcwd 4096 = /scratch/replayer",
    "mkdir /R/data 493 = -1 errno=17",
    "open /R/data/d 65536 0 = 64",
    "openat 64 /R/data/d/f 65 420 = 65",
    "pwrite 65 10 0 = 10",
    "close 65 = 0",
    "open /R/data/x 0 0 = 66",
    "close 66 = 0",
    "symlink f /R/data/d/l = 0",
    "readlink /R/data/d/l f 4095 = 1",
    "symlink /R/data/d/f /R/data/d/abs = 0",
    "readlink /R/data/d/abs /R/data/d/f 4095 = 11",
    "opendir /R/data/d = 64",
    "readdir 64 = l",
    "readdir 64 = .",
    "readdir 64 = f",
    "readdir 64 = ",
    "closedir 64 = 0",
    "close 64 = 0",
    NULL,
};

/* Scenario -> (line of B, its replacement). */
static const struct {
    const char *name;
    int line;
    const char *call;
} variants[] = {
    {"equal", -1, NULL},
    {"dirfd-path", 3, "openat 64 /R/data/d/g 65 420 = 65"},
    {"dotdot-path", 6, "open /R/sub/data/x 0 0 = 66"},
    {"link-target", 10, "symlink /data/d/f /R/data/d/abs = 0"},
    {"readdir-name", 15, "readdir 64 = g"},
    {"mkdir-result", 1, "mkdir /R/data 493 = 0"},
};

_Noreturn static void die(const char *what, const char *detail)
{
    fprintf(stderr, "trace_synth: %s%s\n", what, detail);
    exit(1);
}

static void append(rec_writer *w, const char *line, uint64_t tick)
{
    char copy[1024], *save = NULL;
    snprintf(copy, sizeof copy, "%s", line);
    const rec_func_desc *f = rec_function_by_name(strtok_r(copy, " ", &save));
    if (!f)
        die("unknown function in: ", line);
    rec_record r = {.tstart = tick, .tend = tick + 1, .func = f->id};
    unsigned field = 0;
    int after_eq = 0;
    for (char *tok = strtok_r(NULL, " ", &save);; tok = strtok_r(NULL, " ", &save)) {
        if (tok && !strcmp(tok, "=")) {
            after_eq = 1;
            field = f->nargs;
            continue;
        }
        if (!after_eq)
            while (field < f->nargs && rec_kind_class(f->args[field].kind) == REC_CLASS_NONE)
                field++;
        if (!tok) {
            if (after_eq && field == f->nargs && rec_kind_class(f->ret_kind) == REC_CLASS_STR)
                r.ret = (rec_value){.ptr = "", .len = 0}; /* readdir's end of stream */
            break;
        }
        if (!strncmp(tok, "errno=", 6)) {
            r.err = strtoll(tok + 6, NULL, 10);
            continue;
        }
        if (field > f->nargs)
            die("too many fields in: ", line);
        unsigned kind = field == f->nargs ? f->ret_kind : f->args[field].kind;
        rec_value *v = field == f->nargs ? &r.ret : &r.args[field];
        switch (rec_kind_class(kind)) {
        case REC_CLASS_PATH: v->i = rec_writer_path_id(w, tok); break;
        case REC_CLASS_STR: v->ptr = tok, v->len = (uint32_t)strlen(tok); break;
        default: v->i = strtoll(tok, NULL, 10); break;
        }
        field++;
    }
    rec_error err;
    if (rec_writer_append(w, &r, &err) != 0)
        die(err.msg, "");
}

static void write_trace(const char *dir, const char *const *calls, int line, const char *replacement)
{
    rec_error err;
    if (mkdir(dir, 0755) != 0 && errno != EEXIST)
        die("cannot create ", dir);
    rec_trace_info info = {.nranks = 1, .time_resolution = 1e-7, .window = REC_WINDOW_DEFAULT};
    if (rec_write_global_metadata(dir, &info, rec_table_builtin(), NULL, &err) != 0)
        die(err.msg, "");
    rec_writer_options o;
    rec_writer_options_init(&o);
    rec_writer *w = rec_writer_open(dir, 0, &o, &err);
    if (!w)
        die(err.msg, "");
    for (int i = 0; calls[i]; i++)
        append(w, i == line && replacement ? replacement : calls[i], 10 * (uint64_t)i);
    if (rec_writer_close(w, &err) != 0)
        die(err.msg, "");
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4)
        die("usage: trace_synth A_DIR B_DIR [SCENARIO]", "");
    const char *scenario = argc == 4 ? argv[3] : "equal";
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        if (strcmp(variants[i].name, scenario))
            continue;
        write_trace(argv[1], original, -1, NULL);
        write_trace(argv[2], replay, variants[i].line, variants[i].call);
        return 0;
    }
    die("no such scenario: ", scenario);
}
