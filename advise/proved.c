/* proved.c: a report of recorder-advise --prove read back (prove.h), for
 * recorder-report --prove FILE: the first line's ranks and findings, each
 * finding's "[N] heading" and the text after its --prove labels. */
#include "prove.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "recorder_analysis.h"

/* "recorder-advise: TRACE: N ranks, M findings" (TRACE may hold ": "; the
 * counts end the line). */
static int read_first(const char *line, proved *out)
{
    static const char lead[] = "recorder-advise: ";
    if (strncmp(line, lead, sizeof lead - 1))
        return -1;
    for (const char *at = strstr(line + sizeof lead - 1, ": "); at; at = strstr(at + 1, ": ")) {
        unsigned ranks;
        size_t findings;
        char word[2][16];
        int end = 0;
        if (sscanf(at + 2, "%u %15[a-z], %zu %15[a-z]%n", &ranks, word[0], &findings, word[1], &end) == 4 &&
            (!strcmp(word[0], "rank") || !strcmp(word[0], "ranks")) &&
            (!strcmp(word[1], "finding") || !strcmp(word[1], "findings")) &&
            strspn(at + 2 + end, "\n") == strlen(at + 2 + end)) {
            out->nranks = ranks;
            out->n = findings;
            return 0;
        }
    }
    return -1;
}

/* The text after LABEL in "    LABEL   text", or NULL. */
static const char *after_label(const char *line, const char *label)
{
    if (strncmp(line, "    ", 4) || strncmp(line + 4, label, strlen(label)))
        return NULL;
    return line + 4 + strlen(label) + strspn(line + 4 + strlen(label), " ");
}

int proved_read(const char *path, proved *out, char *err, size_t cap)
{
    memset(out, 0, sizeof *out);
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, cap, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char line[2048];
    int rc = -1, header = 0;
    size_t at = 0; /* the finding being read, + 1 */
    if (!fgets(line, sizeof line, in) || read_first(line, out) != 0) {
        snprintf(err, cap, "%s: not a report of recorder-advise (its first line)", path);
        goto done;
    }
    out->f = ra_xcalloc(out->n ? out->n : 1, sizeof *out->f);
    while (fgets(line, sizeof line, in)) {
        line[strcspn(line, "\n")] = 0;
        size_t index;
        int used = 0;
        const char *v;
        if (!strncmp(line, PROVE_HEADER " ", sizeof PROVE_HEADER))
            header = 1;
        else if (line[0] == '[' && sscanf(line, "[%zu] %n", &index, &used) == 1 && used) {
            if (index != at + 1 || index > out->n) {
                snprintf(err, cap, "%s: finding [%zu] out of order or beyond the %zu of its first line", path,
                         index, out->n);
                goto done;
            }
            snprintf(out->f[at++].heading, sizeof out->f[0].heading, "%s", line + used);
        } else if (at && (v = after_label(line, PROVE_UNTUNED)))
            snprintf(out->f[at - 1].untuned, sizeof out->f[0].untuned, "%s", v);
        else if (at && (v = after_label(line, PROVE_TUNED)))
            snprintf(out->f[at - 1].tuned, sizeof out->f[0].tuned, "%s", v);
        else if (at && (v = after_label(line, PROVE_RATIO)))
            snprintf(out->f[at - 1].ratio, sizeof out->f[0].ratio, "%s", v);
        else if (at && (v = after_label(line, PROVE_APPLIED)))
            snprintf(out->f[at - 1].applied, sizeof out->f[0].applied, "%s", v);
    }
    if (!header)
        snprintf(err, cap, "%s: a report of recorder-advise without --prove (no \"%s\" line)", path,
                 PROVE_HEADER);
    else if (at != out->n)
        snprintf(err, cap, "%s: %zu of the %zu findings its first line announces", path, at, out->n);
    else
        rc = 0;
done:
    fclose(in);
    if (rc != 0)
        proved_free(out);
    return rc;
}

void proved_free(proved *p)
{
    free(p->f);
    p->f = NULL;
    p->n = 0;
}
