/* ra_cli.h: the command line every analysis tool shares. A tool lists its
 * own options; ra_cli_parse adds the flags the tools have in common (--help
 * always; --rank R[-R2], --progress and --function NAME... on request), runs
 * getopt_long over them, reports bad usage, records which of the tool's own
 * options were given, and takes the one TRACE_DIR operand. It needs the
 * format's reader alone: recorder2text, which reads traces without the
 * analysis library, uses it too. */
#ifndef RA_CLI_H
#define RA_CLI_H

#include "recorder_format.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 success, 1 error while analysing, 2 bad usage. */
enum { RA_EXIT_OK = 0, RA_EXIT_ERROR = 1, RA_EXIT_USAGE = 2 };
/* What the parser and a tool's option check return to go on; anything else
 * is the exit code main() returns at once. */
#define RA_CLI_CONTINUE (-1)

/* The shared flags a tool takes besides --help. */
enum {
    RA_CLI_RANKS = 1u << 0,     /* --rank R[-R2]: first, last, ranged */
    RA_CLI_PROGRESS = 1u << 1,  /* --progress: progress */
    RA_CLI_FUNCTIONS = 1u << 2, /* --function NAME, repeatable: functions */
};

/* What a tool says of its command line. */
typedef struct ra_cli {
    const char *tool;
    void (*usage)(FILE *out);
    unsigned shared; /* RA_CLI_RANKS | RA_CLI_PROGRESS | RA_CLI_FUNCTIONS */
    /* Its own long options, {0}-terminated; each is also the short option
     * -LETTER, LETTER being its val. */
    const struct option *options;
    /* Optional: checks one of its own options as it comes, for those whose
     * value can be wrong: RA_CLI_CONTINUE, or an exit code after saying why. */
    int (*check)(void *ctx, int letter, const char *arg);
    void *ctx; /* the tool's state, for check() and the ra_tool hooks */
} ra_cli;

/* What the command line said. */
typedef struct ra_cli_args {
    const char *dir; /* the TRACE_DIR operand */
    int ranged;      /* --rank was given */
    uint32_t first, last;
    int progress;
    const char **functions; /* the --function NAMEs */
    size_t nfunctions;
    /* The tool's own options, by letter: the argument of the last one given,
     * "" for an option without one; NULL: not given. */
    const char *given[128];
} ra_cli_args;

/* Parses argv into *args: RA_CLI_CONTINUE, or the exit code after --help
 * (usage on stdout, 0) or bad usage (the message, usage on stderr, 2). */
int ra_cli_parse(const ra_cli *cli, int argc, char **argv, ra_cli_args *args);
/* Frees what a parse that went on holds: the --function list (RA_CLI_FUNCTIONS). */
void ra_cli_args_free(ra_cli_args *args);

/* A whole number >= 0 for OPTION (*value): RA_CLI_CONTINUE, or
 * "TOOL: OPTION: not a WHAT: ARG" and RA_EXIT_USAGE. */
int ra_cli_count(const char *tool, const char *option, const char *what, const char *arg, long *value);

/* The ids of the --function NAMEs in the trace's table (one more slot, 0),
 * to free; NULL after "TOOL: --function: NAME is not in the trace's
 * function table". */
unsigned *ra_cli_function_ids(const char *tool, const ra_cli_args *args, const rec_table *table);

/* Output files: PATH, or standard output when PATH is NULL. NULL after
 * "TOOL: PATH: cannot create: reason". */
FILE *ra_cli_create(const char *tool, const char *path);
/* Closes PATH's file (flushes standard output): 0, or -1 after
 * "TOOL: PATH: write failed: reason". */
int ra_cli_close(const char *tool, FILE *out, const char *path);
/* Flushes standard output: 0, or -1 after "TOOL: writing to stdout failed: reason". */
int ra_cli_flush_stdout(const char *tool);

#endif
