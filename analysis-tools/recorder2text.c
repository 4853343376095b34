/* recorder2text: prints a trace as text, one line per record:
 *   RANK TSTART TEND DEPTH LAYER function(arg=value, ...) = ret [errno=E]
 * Times are seconds since the trace started; depth 0 is a call the
 * application made, deeper ones were made from inside traced calls. */
#include "ra_cli.h"
#include "recorder_format.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *tool = "recorder2text";

static void usage(FILE *out)
{
    fprintf(out,
            "usage: %s [--rank R] [--function NAME]... [-o DIR] [--info] [--merged] TRACE_DIR\n"
            "  --rank R         only rank R\n"
            "  --function NAME  only calls of NAME (repeatable)\n"
            "  -o DIR           write DIR/R.txt per rank instead of stdout\n"
            "  --info           print the trace's metadata and compression counts instead\n"
            "  --merged         a merged trace as merged records: rank set, call, per-rank relations\n",
            tool);
}

static const char *cursor_path(void *ctx, int64_t id)
{
    return rec_cursor_path(ctx, id);
}

static int print_rank(rec_trace *t, uint32_t rank, const unsigned *funcs, size_t nfuncs, FILE *out)
{
    rec_error err;
    rec_cursor *c = rec_cursor_open(t, rank, &err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return -1;
    }
    for (size_t i = 0; i < nfuncs; i++)
        rec_cursor_want(c, funcs[i]);
    const rec_table *table = rec_trace_table(t);
    double resolution = rec_trace_get_info(t)->time_resolution;
    rec_record r;
    char line[16384];
    int rc;
    while ((rc = rec_cursor_next(c, &r, &err)) == 1) {
        rec_print_record(line, sizeof line, table, &r, rank, resolution, cursor_path, c);
        fputs(line, out);
        fputc('\n', out);
    }
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    else if (!rec_cursor_complete(c))
        fprintf(stderr, "%s: warning: rank %u did not close its trace (crash or kill?): "
                        "shown up to its last complete block\n", tool, rank);
    rec_cursor_close(c);
    return rc < 0 ? -1 : 0;
}

/* A merged trace as merged records: the rank set, the first rank's call, and
 * how the fields that differ depend on the rank. */
static int print_merged(rec_trace *t)
{
    rec_error err;
    rec_cursor *c = rec_cursor_open_merged(t, &err);
    if (!c) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return -1;
    }
    const rec_table *table = rec_trace_table(t);
    double resolution = rec_trace_get_info(t)->time_resolution;
    rec_record r;
    rec_merge_info mi;
    char line[16384], value[1024];
    int rc;
    while ((rc = rec_cursor_next_merged(c, &r, &mi, &err)) == 1) {
        printf("ranks=");
        for (uint32_t g = 0; g < mi.nranges; g++) {
            const rec_rank_range *x = &mi.ranges[g];
            if (x->count == 1)
                printf("%s%u", g ? "," : "", x->first);
            else if (x->stride == 1)
                printf("%s%u-%u", g ? "," : "", x->first, x->first + x->count - 1);
            else
                printf("%s%u-%u:%u", g ? "," : "", x->first, x->first + (x->count - 1) * x->stride, x->stride);
        }
        rec_print_record(line, sizeof line, table, &r, mi.nranges ? mi.ranges[0].first : 0, resolution, cursor_path, c);
        printf(" %s", strchr(line, ' ') + 1);
        const rec_func_desc *f = rec_table_lookup(table, r.func);
        for (uint32_t v = 0; v < mi.nvars; v++) {
            const rec_variation *var = &mi.vars[v];
            if (var->field >= REC_FIELD_TSTART)
                continue; /* every rank has its own times */
            const char *name = var->field < f->nargs ? f->args[var->field].name
                               : var->field == f->nargs ? "ret" : "errno";
            if (var->relation == REC_REL_AFFINE) {
                printf(" [%s=%lld*rank%+lld]", name, (long long)var->a, (long long)var->b);
            } else {
                unsigned kind = var->field < f->nargs ? f->args[var->field].kind
                                : var->field == f->nargs ? f->ret_kind : REC_KIND_ERRNO;
                printf(" [%s per rank:", name);
                for (uint32_t k = 0; k < mi.nranks && k < 8; k++) {
                    rec_print_value(value, sizeof value, kind, &var->values[k], cursor_path, c);
                    printf(" %s", value);
                }
                printf("%s]", mi.nranks > 8 ? " ..." : "");
            }
        }
        putchar('\n');
    }
    if (rc < 0)
        fprintf(stderr, "%s: %s\n", tool, err.msg);
    rec_cursor_close(c);
    return rc < 0 ? -1 : 0;
}

static double ratio(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static int print_info(rec_trace *t)
{
    const rec_trace_info *info = rec_trace_get_info(t);
    printf("trace: %s\nformat: %u.%u\nranks: %u\ntime resolution: %g s\nstart time: %llu ns since the epoch\n"
           "peephole window: %u\nfunctions in table: %zu\n",
           rec_trace_dir(t), info->version_major, info->version_minor, info->nranks, info->time_resolution,
           (unsigned long long)info->start_time_ns, info->window, rec_table_count(rec_trace_table(t)));
    uint32_t aggregates = rec_parts_aggregates(rec_trace_parts(t));
    if (rec_trace_is_merged(t))
        printf("files: merged (merged.rec, merged.meta)\n");
    else if (aggregates)
        printf("files: %u aggregate file%s (aggregate.0%s)\n", aggregates, aggregates > 1 ? "s" : "",
               aggregates > 1 ? " ..." : "");
    else
        printf("files: a file per rank (N.rec, N.meta)\n");
    for (size_t i = 0; i < info->noptions; i++)
        printf("option: %s=%s\n", info->options[i].key, info->options[i].value);
    int failed = 0;
    printf("%-6s %12s %12s %8s %12s %8s %12s %8s\n", "rank", "records", "compressed", "%", "fields", "elided", "bytes",
           "B/rec");
    for (uint32_t rank = 0; rank < info->nranks; rank++) {
        rec_error err;
        const rec_rank_meta *m = rec_trace_rank_meta(t, rank, &err);
        if (!m) {
            fprintf(stderr, "%s: %s\n", tool, err.msg);
            failed = 1;
            continue;
        }
        rec_counts sum = {0};
        for (size_t i = 0; i < m->nfuncs; i++) {
            sum.records += m->funcs[i].counts.records;
            sum.compressed_records += m->funcs[i].counts.compressed_records;
            sum.fields += m->funcs[i].counts.fields;
            sum.elided_fields += m->funcs[i].counts.elided_fields;
        }
        printf("%-6u %12llu %12llu %7.2f%% %12llu %7.2f%% %12llu %8.2f\n", rank, (unsigned long long)sum.records,
               (unsigned long long)sum.compressed_records, ratio(sum.compressed_records, sum.records),
               (unsigned long long)sum.fields, ratio(sum.elided_fields, sum.fields),
               (unsigned long long)m->stored_bytes,
               sum.records ? (double)m->stored_bytes / (double)sum.records : 0.0);
    }
    return failed ? -1 : 0;
}

/* --rank R is checked as it comes: one rank here, not the shared R[-R2]. */
static int check_option(void *ctx, int letter, const char *arg)
{
    long *only_rank = ctx;
    return letter == 'r' ? ra_cli_count(tool, "--rank", "rank", arg, only_rank) : RA_CLI_CONTINUE;
}

int main(int argc, char **argv)
{
    static const struct option options[] = {{"rank", required_argument, 0, 'r'},
                                            {"output", required_argument, 0, 'o'},
                                            {"info", no_argument, 0, 'i'},
                                            {"merged", no_argument, 0, 'm'},
                                            {0, 0, 0, 0}};
    long only_rank = -1;
    const ra_cli cli = {tool, usage, RA_CLI_FUNCTIONS, options, check_option, &only_rank};
    ra_cli_args args;
    int code = ra_cli_parse(&cli, argc, argv, &args);
    if (code != RA_CLI_CONTINUE)
        return code;
    const char *outdir = args.given['o'];
    rec_error err;
    rec_trace *t = rec_trace_open(args.dir, &err);
    if (!t) {
        fprintf(stderr, "%s: %s\n", tool, err.msg);
        return RA_EXIT_ERROR;
    }
    if (args.given['i']) {
        int rc = print_info(t);
        rec_trace_close(t);
        return rc ? RA_EXIT_ERROR : RA_EXIT_OK;
    }
    if (args.given['m']) {
        if (!rec_trace_is_merged(t)) {
            fprintf(stderr, "%s: --merged: %s is not a merged trace (see recorder-merge)\n", tool, args.dir);
            return RA_EXIT_USAGE;
        }
        int rc = print_merged(t);
        rec_trace_close(t);
        return rc ? RA_EXIT_ERROR : RA_EXIT_OK;
    }
    unsigned *funcs = ra_cli_function_ids(tool, &args, rec_trace_table(t));
    if (!funcs)
        return RA_EXIT_USAGE;
    uint32_t nranks = rec_trace_get_info(t)->nranks;
    if (only_rank >= (long)nranks) {
        fprintf(stderr, "%s: --rank %ld: the trace has %u ranks\n", tool, only_rank, nranks);
        return RA_EXIT_USAGE;
    }
    if (outdir && mkdir(outdir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "%s: %s: cannot create: %s\n", tool, outdir, strerror(errno));
        return RA_EXIT_ERROR;
    }
    int failed = 0;
    for (uint32_t rank = 0; rank < nranks; rank++) {
        if (only_rank >= 0 && rank != (uint32_t)only_rank)
            continue;
        char path[4096];
        if (outdir)
            snprintf(path, sizeof path, "%s/%u.txt", outdir, rank);
        FILE *out = ra_cli_create(tool, outdir ? path : NULL);
        if (!out) {
            failed = 1;
            continue;
        }
        if (print_rank(t, rank, funcs, args.nfunctions, out) != 0)
            failed = 1;
        if (outdir && ra_cli_close(tool, out, path) != 0)
            failed = 1;
    }
    if (ra_cli_flush_stdout(tool) != 0)
        failed = 1;
    free(funcs);
    ra_cli_args_free(&args);
    rec_trace_close(t);
    return failed ? RA_EXIT_ERROR : RA_EXIT_OK;
}
