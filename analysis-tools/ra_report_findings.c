/* ra_report_findings.c: recorder-report's findings section: the known causes
 * of slow I/O recorder-advise finds in the trace (advise.h), each with its
 * evidence, advice and tuning set, and, given --prove FILE (a report of
 * recorder-advise --prove, prove.h), the untuned and tuned replays' times
 * beside each: before and after the set. */
#include "ra_report.h"

#include <string.h>

/* "TITLE" or "TITLE: PATH", as recorder-advise heads a finding. */
static void heading(const advise_view *v, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s%s%s", v->title, v->path ? ": " : "", v->path ? v->path : "");
}

int report_findings_check(const report *r, const char *path, char *err, size_t cap)
{
    size_t n = advise_count(r->advise);
    if (r->proved.n != n || r->proved.nranks != ra_trace_nranks(r->t)) {
        snprintf(
            err, cap,
            "%s: %u ranks and %zu findings, the trace %u ranks and %zu: a --prove result of another trace",
            path, r->proved.nranks, r->proved.n, ra_trace_nranks(r->t), n);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        advise_view v;
        char want[1024];
        advise_view_at(r->advise, i, &v);
        heading(&v, want, sizeof want);
        if (strcmp(want, r->proved.f[i].heading)) {
            snprintf(
                err, cap,
                "%s: finding [%zu] is \"%s\" there, \"%s\" in the trace: a --prove result of another trace",
                path, i + 1, r->proved.f[i].heading, want);
            return -1;
        }
    }
    return 0;
}

static void cell(FILE *out, const char *cls, const char *text, size_t len)
{
    char part[1024];
    snprintf(part, sizeof part, "%.*s", (int)len, text);
    fprintf(out, "<td class=\"%s\">", cls);
    ra_html_text(out, part);
    fputs("</td>", out);
}

/* A series' figure: "median S s, min..max A..B s, K replays" as the median
 * over its range; anything else (a failure) as it is. */
static void timing_cell(FILE *out, const char *cls, const char *text)
{
    double median, low, high;
    unsigned n;
    if (sscanf(text, "median %lf s, min..max %lf..%lf s, %u replay", &median, &low, &high, &n) == 4)
        fprintf(out, "<td class=\"%s\">%.3f s<br><span class=\"note\">%.3f..%.3f s, %u replay%s</span></td>",
                cls, median, low, high, n, n == 1 ? "" : "s");
    else
        cell(out, cls, text, strlen(text));
}

void report_findings(const report *r, FILE *out)
{
    size_t n = advise_count(r->advise);
    int proved = r->proved.f != NULL;
    fputs("<section id=\"findings\"><h2>Findings</h2>\n<p class=\"note\">The known causes of slow I/O that "
          "recorder-advise finds in the trace, each with its evidence, its advice and the tuning set that "
          "tries "
          "it (recorder-replay --tune).",
          out);
    if (proved)
        fputs(" Before and after: the median time of the untuned and of the tuned replays, with their range, "
              "as recorder-advise --prove measured them; the ratio is the tuned median over the untuned "
              "(under 1: "
              "faster); applied: the traced tuned replay differs from the trace by the set alone "
              "(recorder-diff --tuned).",
              out);
    fputs("</p>\n", out);
    if (!n) {
        fputs("<p id=\"findings-none\">No finding.</p>\n</section>\n", out);
        return;
    }
    fputs(
        "<table id=\"findings-table\"><tr><th>#</th><th class=\"l\">finding</th><th class=\"l\">evidence</th>"
        "<th class=\"l\">advice</th><th class=\"l\">set</th>",
        out);
    if (proved)
        fputs("<th class=\"l\">before (untuned)</th><th class=\"l\">after (tuned)</th><th>ratio</th>"
              "<th class=\"l\">applied</th>",
              out);
    fputs("</tr>\n", out);
    for (size_t i = 0; i < n; i++) {
        advise_view v;
        char head[1024];
        advise_view_at(r->advise, i, &v);
        heading(&v, head, sizeof head);
        fprintf(out, "<tr class=\"finding\"><td>%zu</td>", i + 1);
        cell(out, "l", head, strlen(head));
        cell(out, "l", v.evidence, strlen(v.evidence));
        cell(out, "l", v.advice, strlen(v.advice));
        fputs("<td class=\"l set\">", out);
        for (size_t j = 0; j < v.nset; j++) {
            fputs(j ? "<br>" : "", out);
            ra_html_text(out, v.set[j]);
        }
        fputs("</td>", out);
        if (proved) {
            const proved_finding *p = &r->proved.f[i];
            timing_cell(out, "l untuned", p->untuned);
            timing_cell(out, "l tuned", p->tuned);
            cell(out, "ratio", p->ratio, strcspn(p->ratio, " :")); /* the number, or "none" */
            /* "yes" alone (what it means is the note's), a "no" with its reasons */
            cell(out, "l applied", p->applied, strncmp(p->applied, "yes:", 4) ? strlen(p->applied) : 3);
        }
        fputs("</tr>\n", out);
    }
    fputs("</table>\n</section>\n", out);
}
