/* emit_root.c: paths in the kernel: the traced run's own directory as ROOT,
 * chosen from the paths the calls and the inputs name, and every path
 * written as ROOT "/rest" below it. */
#include "emit.h"

#include <stdlib.h>
#include <string.h>
#include <uthash.h>

typedef struct dir_count {
    UT_hash_handle hh;
    uint32_t uses;  /* the leaf paths (files, directories with nothing named below) at or below it */
    uint32_t below; /* the paths named below it */
    int named;      /* a path of a call or an input itself, not only a parent */
    char dir[];
} dir_count;

static int plain(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,+=@-/", s[i]))
            return 0;
    return 1;
}

void cg_choose_root(cg_emitter *e)
{
    if (e->o->root) { /* elastic: the directory the largest run chose */
        e->root = *e->o->root ? cg_strdup(e->o->root) : NULL;
        return;
    }
    cg_model *m = e->m;
    char *seen = cg_calloc(m->nstrs + 1, 1);
    dir_count *dirs = NULL, *d, *tmp;
    for (size_t i = 0; i < m->ninsts; i++) {
        const cg_inst *in = &m->insts[i];
        for (unsigned a = 0; a < in->f->nargs; a++) {
            if (in->f->args[a].kind != REC_KIND_PATH || cg_field_role(in->f, a) != CG_ROLE_VALUE)
                continue;
            for (uint32_t k = 0; k < in->nr; k++) {
                int64_t id = cg_inst_values(in, a)[k];
                const char *s = cg_str(m, id);
                if (!s || seen[id] || s[0] != '/')
                    continue;
                seen[id] = 1;
                size_t n = strlen(s);
                for (size_t p = 1; p <= n; p++) {
                    if (p < n && s[p] != '/')
                        continue;
                    HASH_FIND(hh, dirs, s, p, d);
                    if (!d) {
                        d = cg_calloc(1, sizeof *d + p + 1);
                        memcpy(d->dir, s, p);
                        HASH_ADD_KEYPTR(hh, dirs, d->dir, p, d);
                    }
                    d->below += p < n;
                    d->named |= p == n;
                }
            }
        }
    }
    for (size_t i = 0; i < m->ninputs; i++) { /* setup() names them too */
        const char *s = m->inputs[i].path;
        for (size_t p = 1, n = strlen(s); p <= n; p++) {
            if (p < n && s[p] != '/')
                continue;
            HASH_FIND(hh, dirs, s, p, d);
            if (d) {
                d->below += p < n;
                d->named |= p == n;
            }
        }
    }
    /* Counted on the leaves: the directories of a mkdir -p chain are written
     * as prefixes of its deepest, and would otherwise pull ROOT up to the top
     * of a long run directory. */
    HASH_ITER(hh, dirs, d, tmp)
    {
        if (!d->named || d->below)
            continue;
        for (size_t p = 1, n = strlen(d->dir); p <= n; p++) {
            dir_count *up;
            if (p < n && d->dir[p] != '/')
                continue;
            HASH_FIND(hh, dirs, d->dir, p, up);
            if (up)
                up->uses++;
        }
    }
    /* ROOT: the directory holding the most leaves, the deepest of those. */
    uint32_t most = 0;
    size_t best = 0;
    HASH_ITER(hh, dirs, d, tmp)
    {
        size_t len = strlen(d->dir);
        if (d->below && d->uses && (d->uses > most || (d->uses == most && len > best)) &&
            plain(d->dir, len) && strchr(d->dir + 1, '/')) {
            most = d->uses;
            best = len;
            free(e->root);
            e->root = cg_strdup(d->dir);
        }
    }
    /* The nearest directory above ROOT that the kernel names itself (the
     * traced working directory, above its output directory) becomes ROOT:
     * otherwise it would be spelt out whole, however long the run's path. */
    size_t r = e->root ? strlen(e->root) : 0, above = 0;
    HASH_ITER(hh, dirs, d, tmp)
    {
        size_t len = strlen(d->dir);
        if (d->named && len < r && len > above && e->root[len] == '/' && !strncmp(d->dir, e->root, len) &&
            plain(d->dir, len) && strchr(d->dir + 1, '/'))
            above = len; /* the nearest */
    }
    if (above)
        e->root[above] = 0;
    HASH_ITER(hh, dirs, d, tmp)
    {
        HASH_DEL(dirs, d);
        free(d);
    }
    free(seen);
}

/* A path (or, as_format, a printf format whose literal text starts with a
 * path) as C: ROOT "/rest" when it lies below the traced run's directory. */
void cg_path_text(cg_emitter *e, const char *s, size_t n, int as_format, sb *out)
{
    size_t r = e->root ? strlen(e->root) : 0;
    int below_root = r && n >= r && !strncmp(s, e->root, r) && (n == r || s[r] == '/');
    if (below_root) {
        sb_puts(out, "ROOT");
        e->uses_root = 1;
        if (n == r)
            return;
        sb_putc(out, ' ');
        s += r;
        n -= r;
    }
    size_t at = out->len;
    if (!as_format) {
        cg_string_literal(e, s, (uint32_t)n, out);
    } else {
        sb lit = {0};
        cg_string_literal(NULL, s, (uint32_t)n, &lit);
        for (const char *p = sb_str(&lit); *p; p++)
            if (*p == '%')
                sb_puts(out, "%%");
            else
                sb_putc(out, *p);
        sb_free(&lit);
        cg_span(e, out, at, CG_SPAN_STRING);
    }
    if (below_root) /* the elastic kernel keeps the largest run's path below ROOT */
        cg_span(e, out, at, CG_SPAN_NOTE);
}
