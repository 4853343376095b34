/* diff_races.c: removals of one path that several ranks race to make
 * (every rank of HDF5's ph5example deletes the file it is about to create).
 * Which rank's unlink, remove or MPI_File_delete succeeds is the file
 * system's choice, not the program's: a removal whose outcome alone differs
 * between the traces waits until every rank was compared, and is reported
 * only when the path's removals succeeded a different number of times. */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct diff_race {
    char path[DIFF_PATH_MAX];
    int ok[2]; /* whether A's and B's call succeeded */
    char *line, *detail;
};

int diff_race_defer(diff_ctx *ctx, const rec_func_desc *f, const rec_record *ra, const rec_record *rb,
                    const char *line, const char *detail)
{
    int field = rec_arg_with_kind(f, REC_KIND_PATH, 0);
    if (!(f->roles & REC_ROLE_REMOVES_PATH) || field < 0 || rf_succeeded(f, ra) == rf_succeeded(f, rb))
        return 0;
    rec_record outcome_as_a = *rb; /* the same call but for its outcome? */
    outcome_as_a.ret = ra->ret;
    outcome_as_a.err = ra->err;
    char msg[1024];
    if (diff_compare_call(ctx, f, ra, f, &outcome_as_a, msg, sizeof msg))
        return 0;
    if (ctx->nraces == ctx->races_cap) {
        size_t cap = ctx->races_cap ? 2 * ctx->races_cap : 16;
        struct diff_race *grown = realloc(ctx->races, cap * sizeof *grown);
        if (!grown)
            return 0;
        ctx->races = grown;
        ctx->races_cap = cap;
    }
    struct diff_race *r = &ctx->races[ctx->nraces];
    char joined[DIFF_PATH_MAX];
    snprintf(r->path, sizeof r->path, "%s", diff_full_path(&ctx->side[0], f, ra, (unsigned)field, joined, sizeof joined));
    r->ok[0] = rf_succeeded(f, ra);
    r->ok[1] = rf_succeeded(f, rb);
    r->line = strdup(line);
    r->detail = detail ? strdup(detail) : NULL;
    if (!r->line)
        return 0;
    ctx->nraces++;
    return 1;
}

void diff_races_settle(diff_ctx *ctx)
{
    for (size_t i = 0; i < ctx->nraces; i++) {
        struct diff_race *r = &ctx->races[i];
        int balance = 0, calls = 0, first = 1;
        for (size_t j = 0; j < ctx->nraces; j++)
            if (!strcmp(ctx->races[j].path, r->path)) {
                balance += ctx->races[j].ok[0] - ctx->races[j].ok[1];
                calls++;
                first &= j >= i;
            }
        if (balance != 0)
            diff_report(ctx, r->line, r->detail);
        else if (first)
            printf("%s: note: %s: which rank's removal succeeded differs (%d calls), as many succeeded\n",
                   DIFF_TOOL, r->path, calls);
    }
    for (size_t i = 0; i < ctx->nraces; i++) {
        free(ctx->races[i].line);
        free(ctx->races[i].detail);
    }
    free(ctx->races);
    ctx->races = NULL;
    ctx->nraces = ctx->races_cap = 0;
}
