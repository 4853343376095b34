/* ra_cli.c: the command line every analysis tool shares (ra_cli.h). */
#include "ra_cli.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* --rank R or R1-R2. */
static int parse_ranks(const char *tool, const char *arg, uint32_t *first, uint32_t *last)
{
    char *end;
    unsigned long a = strtoul(arg, &end, 10), b = a;
    if (end != arg && *end == '-')
        b = strtoul(end + 1, &end, 10);
    if (end == arg || *end || arg[0] == '-' || b < a || b > UINT32_MAX) {
        fprintf(stderr, "%s: --rank: not a rank or range (R or R1-R2): %s\n", tool, arg);
        return -1;
    }
    *first = (uint32_t)a;
    *last = (uint32_t)b;
    return 0;
}

enum { MAX_OPTIONS = 32 };
static const struct option rank_option = {"rank", required_argument, 0, 'r'};
static const struct option progress_option = {"progress", no_argument, 0, 'p'};
static const struct option function_option = {"function", required_argument, 0, 'f'};
static const struct option help_option = {"help", no_argument, 0, 'h'};

/* getopt_long's two descriptions of the options, built together. */
typedef struct option_set {
    struct option table[MAX_OPTIONS + 1];
    size_t n;
    char letters[3 * MAX_OPTIONS + 1];
} option_set;

static void add_option(option_set *set, const struct option *o)
{
    assert(set->n < MAX_OPTIONS && o->val > 0 && o->val < 128 && !o->flag);
    set->table[set->n++] = *o;
    size_t len = strlen(set->letters);
    set->letters[len++] = (char)o->val;
    if (o->has_arg == required_argument)
        set->letters[len++] = ':';
    set->letters[len] = 0;
}

static int parse(const ra_cli *cli, int argc, char **argv, ra_cli_args *args)
{
    /* The shared flags come after the tool's own options: getopt_long names
     * the candidates of an ambiguous abbreviation in table order, and no
     * shared flag begins like a tool's own option. */
    option_set set = {0};
    for (const struct option *o = cli->options; o && o->name; o++)
        add_option(&set, o);
    if (cli->shared & RA_CLI_RANKS)
        add_option(&set, &rank_option);
    if (cli->shared & RA_CLI_PROGRESS)
        add_option(&set, &progress_option);
    if (cli->shared & RA_CLI_FUNCTIONS)
        add_option(&set, &function_option);
    add_option(&set, &help_option);

    int opt;
    while ((opt = getopt_long(argc, argv, set.letters, set.table, NULL)) != -1) {
        if (opt == 'h') {
            cli->usage(stdout);
            return RA_EXIT_OK;
        } else if (opt == '?') { /* getopt_long has said what was wrong */
            cli->usage(stderr);
            return RA_EXIT_USAGE;
        } else if (opt == 'r' && (cli->shared & RA_CLI_RANKS)) {
            if (parse_ranks(cli->tool, optarg, &args->first, &args->last) != 0)
                return RA_EXIT_USAGE;
            args->ranged = 1;
        } else if (opt == 'p' && (cli->shared & RA_CLI_PROGRESS)) {
            args->progress = 1;
        } else if (opt == 'f' && (cli->shared & RA_CLI_FUNCTIONS)) {
            args->functions[args->nfunctions++] = optarg;
        } else {
            args->given[opt] = optarg ? optarg : "";
            int next = cli->check ? cli->check(cli->ctx, opt, optarg) : RA_CLI_CONTINUE;
            if (next != RA_CLI_CONTINUE)
                return next;
        }
    }
    if (optind != argc - 1) {
        cli->usage(stderr);
        return RA_EXIT_USAGE;
    }
    args->dir = argv[optind];
    return RA_CLI_CONTINUE;
}

int ra_cli_parse(const ra_cli *cli, int argc, char **argv, ra_cli_args *args)
{
    memset(args, 0, sizeof *args);
    if (cli->shared & RA_CLI_FUNCTIONS) {
        args->functions = calloc((size_t)argc, sizeof *args->functions);
        if (!args->functions) {
            fprintf(stderr, "%s: out of memory\n", cli->tool);
            return RA_EXIT_ERROR;
        }
    }
    int code = parse(cli, argc, argv, args);
    if (code != RA_CLI_CONTINUE)
        ra_cli_args_free(args);
    return code;
}

void ra_cli_args_free(ra_cli_args *args)
{
    free(args->functions);
    args->functions = NULL;
    args->nfunctions = 0;
}

int ra_cli_count(const char *tool, const char *option, const char *what, const char *arg, long *value)
{
    char *end;
    *value = strtol(arg, &end, 10);
    if (*end || *value < 0) {
        fprintf(stderr, "%s: %s: not a %s: %s\n", tool, option, what, arg);
        return RA_EXIT_USAGE;
    }
    return RA_CLI_CONTINUE;
}

unsigned *ra_cli_function_ids(const char *tool, const ra_cli_args *args, const rec_table *table)
{
    unsigned *ids = calloc(args->nfunctions + 1, sizeof *ids);
    if (!ids) {
        fprintf(stderr, "%s: out of memory\n", tool);
        return NULL;
    }
    for (size_t i = 0; i < args->nfunctions; i++) {
        const rec_func_desc *found = NULL;
        for (size_t k = 0; k < rec_table_count(table) && !found; k++)
            if (!strcmp(rec_table_at(table, k)->name, args->functions[i]))
                found = rec_table_at(table, k);
        if (!found) {
            fprintf(stderr, "%s: --function: %s is not in the trace's function table\n", tool,
                    args->functions[i]);
            free(ids);
            return NULL;
        }
        ids[i] = found->id;
    }
    return ids;
}

FILE *ra_cli_create(const char *tool, const char *path)
{
    FILE *out = path ? fopen(path, "w") : stdout;
    if (!out)
        fprintf(stderr, "%s: %s: cannot create: %s\n", tool, path, strerror(errno));
    return out;
}

int ra_cli_close(const char *tool, FILE *out, const char *path)
{
    if ((path ? fclose(out) : fflush(out)) == 0)
        return 0;
    fprintf(stderr, "%s: %s: write failed: %s\n", tool, path ? path : "stdout", strerror(errno));
    return -1;
}

int ra_cli_flush_stdout(const char *tool)
{
    if (fflush(stdout) == 0)
        return 0;
    fprintf(stderr, "%s: writing to stdout failed: %s\n", tool, strerror(errno));
    return -1;
}
