/* diff_paths.c: how recorder-diff matches A's file names to B's. Replays and
 * generated kernels re-root every path under their output directory, and two
 * runs of one kernel write into different output directories, so names are
 * compared after a prefix mapping: given (--map) or inferred from the first
 * pair of corresponding paths that differ. */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

static char *normalized_copy(const char *s)
{
    char buf[DIFF_PATH_MAX];
    rf_path_normalize(s, buf, sizeof buf, 0);
    return strdup(buf);
}

int diff_paths_add(diff_paths *p, const char *old_prefix, const char *new_prefix)
{
    if (!*new_prefix)
        return -1;
    diff_mapping *grown = realloc(p->maps, (p->nmaps + 1) * sizeof *grown);
    if (!grown)
        return -1;
    p->maps = grown;
    p->maps[p->nmaps].old_prefix = *old_prefix ? normalized_copy(old_prefix) : strdup("");
    p->maps[p->nmaps].new_prefix = normalized_copy(new_prefix);
    p->nmaps++;
    p->active = 1;
    return 0;
}

/* OLD covers a when a is OLD or lies below it. */
static int covers(const char *old_prefix, const char *a)
{
    if (!strcmp(old_prefix, "/"))
        return a[0] == '/';
    size_t len = strlen(old_prefix);
    return !strncmp(a, old_prefix, len) && (a[len] == 0 || a[len] == '/');
}

void diff_path_map(const diff_paths *p, const char *a, char *out, size_t cap)
{
    const diff_mapping *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < p->nmaps; i++) {
        const diff_mapping *m = &p->maps[i];
        size_t len = strlen(m->old_prefix);
        /* The most specific mapping wins; a re-rooting (empty OLD) covers everything. */
        if ((len == 0 || covers(m->old_prefix, a)) && (!best || len > best_len)) {
            best = m;
            best_len = len;
        }
    }
    if (!best) {
        rf_path_normalize(a, out, cap, 0);
        return;
    }
    const char *rest = a + best_len;
    char rooted[DIFF_PATH_MAX];
    if (best_len == 0) { /* re-rooted: read from "/", ".." stopping there, as replays and kernels do */
        rf_path_normalize(a, rooted, sizeof rooted, RF_PATH_ROOTED);
        rest = rooted;
    }
    while (*rest == '/')
        rest++;
    if (!strcmp(rest, "."))
        rest = "";
    char joined[DIFF_PATH_MAX * 2];
    snprintf(joined, sizeof joined, "%s%s%s", best->new_prefix, *rest ? "/" : "", rest);
    rf_path_normalize(joined, out, cap, 0);
}

/* Length of the common tail of whole components: a = HEAD_A + tail,
 * b = HEAD_B + tail, each tail starting after a '/'. Returns the two head
 * lengths (without the separating '/'). */
static void common_tail(const char *a, const char *b, size_t *head_a, size_t *head_b)
{
    size_t ia = strlen(a), ib = strlen(b);
    for (;;) {
        size_t sa = ia, sb = ib;
        while (sa > 0 && a[sa - 1] != '/')
            sa--;
        while (sb > 0 && b[sb - 1] != '/')
            sb--;
        if (sa == 0 || sb == 0 || ia - sa != ib - sb || memcmp(a + sa, b + sb, ia - sa) != 0)
            break;
        ia = sa - 1;
        ib = sb - 1;
        if (ia == 0 || ib == 0)
            break;
    }
    *head_a = ia;
    *head_b = ib;
}

int diff_paths_infer(diff_paths *p, const char *a, const char *b)
{
    if (!strcmp(a, b) || !*a || !*b)
        return -1;
    /* Re-rooting: b is P + "/" + a read from "/" (".." stops there), without its leading '/'. */
    char rooted[DIFF_PATH_MAX];
    rf_path_normalize(a, rooted, sizeof rooted, RF_PATH_ROOTED);
    const char *rel = rooted + 1;
    size_t lr = strlen(rel), lb = strlen(b);
    if (lr && lb > lr && !strcmp(b + lb - lr, rel) && b[lb - lr - 1] == '/') {
        char prefix[DIFF_PATH_MAX];
        size_t n = lb - lr - 1;
        if (n == 0)
            n = 1; /* b = "/" + a */
        snprintf(prefix, sizeof prefix, "%.*s", (int)n, b);
        return diff_paths_add(p, "", prefix);
    }
    /* Otherwise the differing heads: "/x/out1/f" vs "/x/out2/f" maps
     * "/x/out1" to "/x/out2"; with no common tail the whole path maps. */
    size_t ha, hb;
    common_tail(a, b, &ha, &hb);
    char old_prefix[DIFF_PATH_MAX], new_prefix[DIFF_PATH_MAX];
    snprintf(old_prefix, sizeof old_prefix, "%.*s", (int)(ha ? ha : 1), a);
    snprintf(new_prefix, sizeof new_prefix, "%.*s", (int)(hb ? hb : 1), b);
    return diff_paths_add(p, old_prefix, new_prefix);
}

void diff_paths_describe(const diff_paths *p, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = 0;
    for (size_t i = 0; i < p->nmaps && n < cap; i++) {
        const diff_mapping *m = &p->maps[i];
        if (*m->old_prefix)
            n += (size_t)snprintf(out + n, cap - n, "%s\"%s\" -> \"%s\"", i ? ", " : "", m->old_prefix,
                                  m->new_prefix);
        else
            n += (size_t)snprintf(out + n, cap - n, "%sre-rooted under \"%s\"", i ? ", " : "", m->new_prefix);
    }
}

void diff_paths_free(diff_paths *p)
{
    for (size_t i = 0; i < p->nmaps; i++) {
        free(p->maps[i].old_prefix);
        free(p->maps[i].new_prefix);
    }
    free(p->maps);
    *p = (diff_paths){0};
}
