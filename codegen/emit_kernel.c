/* emit_kernel.c: the kernel's text. The loop tree becomes the body, run by
 * run: statements through the per-layer call templates, loops through
 * loop.tmpl, statements of some ranks only inside guard.tmpl blocks, each
 * file's part of the body opened by a comment; then the skeleton
 * (kernel.c.tmpl) gets the header comment, the tables, the helpers the body
 * uses (and only those), the setup step and the body. Long lines are
 * broken as clang-format breaks them. */
#include "emit_kernel.h"
#include "recorder_facts.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const template_names[NTEMPLATES] = {
    "kernel.c.tmpl", "header.tmpl",     "loop.tmpl",     "guard.tmpl",      "section.tmpl",
    "table.tmpl",    "call_posix.tmpl", "call_mpi.tmpl", "call_mpiio.tmpl", "call_hdf5.tmpl",
    "call_pnetcdf.tmpl", "call_netcdf.tmpl"};

void cg_render(kernel *k, int which, tpl_ctx *c, sb *out)
{
    if (!k->failed && tpl_render_sb(template_names[which], k->tpl[which], c, out, k->err, sizeof k->err) != 0)
        k->failed = 1;
}

/* ---- the body ---- */

const cg_node *cg_first_stmt(const cg_node *n)
{
    while (n->is_loop && n->nbody)
        n = n->body[0];
    return n->is_loop ? NULL : n;
}

/* The rank set every statement under n shares, or UINT32_MAX. */
static uint32_t node_rs(const cg_emitter *e, const cg_node *n)
{
    if (!n->is_loop)
        return e->m->insts[n->insts[0]].rs;
    uint32_t rs = UINT32_MAX;
    for (uint32_t b = 0; b < n->nbody; b++) {
        uint32_t r = node_rs(e, n->body[b]);
        if (r == UINT32_MAX || (b && r != rs))
            return UINT32_MAX;
        rs = r;
    }
    return rs;
}

static void basename_of(const char *path, sb *out)
{
    const char *slash = strrchr(path, '/');
    sb_puts(out, slash && slash[1] ? slash + 1 : path);
}

/* "vpic.h5", or "vorpal_*.h5" when the file changes from call to call. */
static int section_title(const cg_emitter *e, const cg_node *n, sb *out)
{
    const cg_node *s = cg_first_stmt(n);
    if (!s)
        return 0;
    const cg_inst *in = &e->m->insts[s->insts[0]];
    int path = -1, creates = 0;
    for (unsigned a = 0; a < in->f->nargs; a++) {
        if (in->f->args[a].kind == REC_KIND_PATH && path < 0)
            path = (int)a;
        creates |= cg_field_role(in->f, a) == CG_ROLE_CREATE;
    }
    creates |= cg_field_role(in->f, in->f->nargs) == CG_ROLE_CREATE;
    if (path < 0 || !creates)
        return 0;
    const char *first = NULL;
    size_t pre = 0, suf = 0;
    for (uint32_t u = 0; u < s->ninsts; u++) {
        const cg_inst *x = &e->m->insts[s->insts[u]];
        for (uint32_t k = 0; k < x->nr; k++) {
            const char *p = cg_str(e->m, cg_inst_values(x, (unsigned)path)[k]);
            if (!p)
                return 0;
            if (!first) {
                first = p;
                pre = suf = strlen(p);
                continue;
            }
            size_t i = 0, lp = strlen(p), lf = strlen(first);
            while (i < pre && p[i] == first[i])
                i++;
            pre = i;
            for (i = 0; i < suf && i < lp && p[lp - 1 - i] == first[lf - 1 - i]; i++)
                ;
            suf = i;
        }
    }
    size_t lf = strlen(first);
    if (pre == lf) {
        basename_of(first, out);
        return 1;
    }
    /* the varying part is a number: "vorpal_*.h5", not "vorpal_000*.h5" */
    while (pre > 0 && first[pre - 1] >= '0' && first[pre - 1] <= '9')
        pre--;
    while (suf > 0 && first[lf - suf] >= '0' && first[lf - suf] <= '9')
        suf--;
    sb glob = {0};
    sb_putn(&glob, first, pre);
    sb_putc(&glob, '*');
    sb_puts(&glob, first + lf - (suf < lf - pre ? suf : lf - pre));
    basename_of(sb_str(&glob), out);
    sb_free(&glob);
    return 1;
}


static void render_item(kernel *k, const cg_node *n, uint32_t rs, unsigned depth, sb *out)
{
    cg_emitter *e = &k->e;
    tpl_ctx *c = tpl_new();
    if (n->is_loop) {
        e->dims.count[e->dims.n++] = n->count;
        sb body = {0};
        cg_render_block(k, n->body, n->nbody, rs, depth + 1, &body);
        e->dims.n--;
        while (body.len && body.s[body.len - 1] == '\n')
            body.s[--body.len] = 0;
        sb count = {0};
        cg_put_literal(e, n->count, "", 0, &count);
        tpl_set(c, "counter", cg_counter_name(depth));
        tpl_set_sb(c, "count", &count);
        tpl_set_sb(c, "body", &body);
        cg_render(k, T_LOOP, c, out);
        sb_free(&count);
        sb_free(&body);
    } else {
        cg_stmtinfo *s = e->inst_stmt[n->insts[0]];
        cg_emit_stmt(e, s, c);
        cg_render(k, T_CALL + e->m->insts[n->insts[0]].f->layer, c, out);
    }
    tpl_free(c);
}

void cg_render_block(kernel *k, cg_node *const *nodes, uint32_t n, uint32_t parent_rs, unsigned depth, sb *out)
{
    cg_emitter *e = &k->e;
    for (uint32_t i = 0; i < n;) {
        uint32_t rs = node_rs(e, nodes[i]);
        if (rs == UINT32_MAX)
            rs = parent_rs;
        sb title = {0};
        if (depth == 0 && section_title(e, nodes[i], &title)) {
            tpl_ctx *c = tpl_new();
            tpl_set(c, "title", sb_str(&title));
            size_t at = out->len;
            cg_render(k, T_SECTION, c, out);
            cg_span(e, out, at, CG_SPAN_NOTE); /* a comment: another run's may name other files */
            tpl_free(c);
        }
        sb_free(&title);
        uint32_t j = i + 1;
        while (j < n) {
            uint32_t r = node_rs(e, nodes[j]);
            sb t = {0};
            int breaks = depth == 0 && section_title(e, nodes[j], &t);
            sb_free(&t);
            if ((r == UINT32_MAX ? parent_rs : r) != rs || breaks)
                break;
            j++;
        }
        if (rs == parent_rs) {
            for (; i < j; i++)
                render_item(k, nodes[i], rs, depth, out);
            continue;
        }
        /* calls of some ranks only: their variables live before the block */
        sb body = {0};
        for (uint32_t g = i; g < j; g++) {
            if (nodes[g]->is_loop)
                continue;
            cg_stmtinfo *s = e->inst_stmt[nodes[g]->insts[0]];
            s->guarded = 1;
            cg_emit_decls(e, s, 1, out);
        }
        for (; i < j; i++)
            render_item(k, nodes[i], rs, depth, &body);
        while (body.len && body.s[body.len - 1] == '\n')
            body.s[--body.len] = 0;
        sb cond = {0};
        if (e->o->elastic)
            cg_rank_condition_elastic(e, &e->m->ranksets[rs], e->m->hints && e->m->hints->recording, &cond);
        else
            cg_rank_condition(&e->m->ranksets[rs], e->m->nranks, &cond);
        tpl_ctx *c = tpl_new();
        tpl_set_sb(c, "condition", &cond);
        tpl_set_sb(c, "body", &body);
        cg_render(k, T_GUARD, c, out);
        tpl_free(c);
        sb_free(&cond);
        sb_free(&body);
        e->n_guards++;
    }
}

/* ---- the skeleton ---- */

static void add_include(tpl_ctx *c, const char *file)
{
    tpl_set(tpl_push(c, "includes"), "file", file);
}

/* Some call of the kernel needs this header (the table says which). */
static int uses(const cg_model *m, rec_header header)
{
    for (size_t i = 0; i < m->ninsts; i++)
        if (m->insts[i].f->header == header)
            return 1;
    return 0;
}

static void includes(kernel *k, tpl_ctx *c)
{
    cg_emitter *e = &k->e;
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_DIRENT))
        add_include(c, "dirent.h");
    add_include(c, "errno.h"); /* the path helpers (kernel.c.tmpl) */
    add_include(c, "fcntl.h");
    int h5inputs = 0;
    for (size_t i = 0; i < e->m->ninputs; i++)
        h5inputs |= e->m->inputs[i].skel != NULL;
    if (e->layers[REC_LAYER_HDF5] || h5inputs)
        add_include(c, "hdf5.h");
    add_include(c, "mpi.h");
    if (e->layers[REC_LAYER_PNETCDF])
        add_include(c, "pnetcdf.h");
    if (e->uses_threads || uses(e->m, REC_HEADER_PTHREAD))
        add_include(c, "pthread.h");
    if (e->layers[REC_LAYER_NETCDF]) { /* netcdf_par.h and netcdf_filter.h need netcdf.h first */
        add_include(c, "netcdf.h");
        add_include(c, "netcdf_par.h");
        add_include(c, "netcdf_filter.h");
    }
    if (e->uses_P || e->uses_S || e->protos)
        add_include(c, "stdarg.h");
    add_include(c, "stdio.h");
    add_include(c, "stdlib.h");
    add_include(c, "string.h");
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_MMAN))
        add_include(c, "sys/mman.h");
    if (e->layers[REC_LAYER_POSIX] || e->uses_stat[0] || e->uses_stat[1] || e->uses_stat[2])
        add_include(c, "sys/stat.h");
    add_include(c, "sys/syscall.h");
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_UTIME))
        add_include(c, "sys/time.h");
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_UIO))
        add_include(c, "sys/uio.h");
    if (h5inputs) /* waitpid */
        add_include(c, "sys/wait.h");
    add_include(c, "time.h"); /* nanosleep, waiting for the setup */
    add_include(c, "unistd.h");
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_UTIME))
        add_include(c, "utime.h");
    if (e->layers[REC_LAYER_POSIX] && uses(e->m, REC_HEADER_WCHAR))
        add_include(c, "wchar.h");
}

/* A string literal too long for its line (after prefix) as literals on lines of their own, as
 * clang-format keeps them, none broken inside an escape. */
static void string_lines(const sb *body, size_t prefix, sb *out)
{
    const char *s = body->s + 1; /* inside the quotes */
    size_t len = body->len - 2;
    if (prefix + body->len + 1 <= CG_COLUMNS) {
        sb_append(out, body);
        return;
    }
    while (len) {
        size_t take = 0, room = CG_COLUMNS - 4 - 3;
        while (take < len) {
            size_t step = 1;
            if (s[take] == '\\') /* an escape: \\c, or up to three octal digits */
                for (step = 2; step < 4 && take + step < len && s[take + step] >= '0' && s[take + step] <= '7' &&
                               s[take + 1] >= '0' && s[take + 1] <= '7';
                     step++)
                    ;
            if (take + step > room)
                break;
            take += step;
        }
        sb_printf(out, "\n    \"%.*s\"", (int)take, s);
        s += take, len -= take;
    }
}

static void push_local(kernel *k, tpl_ctx *c, const char *text)
{
    (void)c; /* main's come from k->locals (cg_push_locals_named) */
    k->locals = cg_realloc(k->locals, (k->nlocals + 1) * sizeof *k->locals);
    k->locals[k->nlocals++] = cg_strdup(text);
}

static void tables_and_locals(kernel *k, tpl_ctx *c)
{
    cg_emitter *e = &k->e;
    for (size_t i = 0; i < e->ntables; i++) {
        cg_table *t = &e->tables[i];
        if (t->dropped)
            continue;
        tpl_ctx *x = tpl_new();
        tpl_flag(x, "static", !t->local);
        size_t clen = strlen(t->ctype);
        tpl_setf(x, "ctype", "%s%s%s", strncmp(t->ctype, "const ", 6) ? "const " : "", t->ctype,
                 clen && t->ctype[clen - 1] == '*' ? "" : " "); /* "const void *name", "const int name" */
        tpl_set(x, "name", t->name);
        tpl_setf(x, "n", "%u", t->n);
        /* "static const TYPE NAME[N] = " */
        char digits[16];
        size_t prefix = (t->local ? 4 : 7) + (strncmp(t->ctype, "const ", 6) ? 6 : 0) + strlen(t->ctype) +
                        strlen(t->name) + (size_t)snprintf(digits, sizeof digits, "%u", t->n) + 6;
        sb values = {0};
        if (t->body.s[0] == '"') /* a recorded HDF5 value */
            string_lines(&t->body, prefix, &values);
        else
            cg_braced(e, &t->body, t->n, t->label, t->per_line, 0, prefix, &values);
        if (!t->local)
            cg_scope(e, &values, CG_SCOPE_STATIC);
        tpl_set_sb(x, "values", &values);
        sb_free(&values);
        sb text = {0};
        cg_render(k, T_TABLE, x, &text);
        char *gap = t->body.s[0] == '"' ? strstr(sb_str(&text), "= \n") : NULL; /* literals on lines of their own */
        if (gap)
            memmove(gap + 1, gap + 2, strlen(gap + 2) + 1), text.len--;
        while (text.len && text.s[text.len - 1] == '\n')
            text.s[--text.len] = 0;
        if (t->local)
            push_local(k, c, sb_str(&text));
        else
            tpl_set_sb(tpl_push(c, "tables"), "table", &text);
        sb_free(&text);
        tpl_free(x);
    }
    static const char *const stats[] = {"struct stat st;", "struct stat64 st64;", "struct statx stx;"};
    for (int s = 0; s < 3; s++)
        if (e->uses_stat[s])
            push_local(k, c, stats[s]);
    if (e->uses_status)
        push_local(k, c, "MPI_Status status;");
    if (e->uses_statuses_ignored)
        push_local(k, c, "MPI_Status *volatile statuses_ignored = MPI_STATUSES_IGNORE;");
    if (e->statuses) {
        sb statuses = {0};
        sb_puts(&statuses, "MPI_Status statuses[");
        cg_put_literal(e, e->statuses, "", 0, &statuses);
        sb_puts(&statuses, "];");
        push_local(k, c, sb_str(&statuses));
        sb_free(&statuses);
    }
    if (e->other_grid) {
        char line[96];
        snprintf(line, sizeof line, "int coords%dd[%d];", e->other_grid, e->other_grid);
        push_local(k, c, line);
        snprintf(line, sizeof line, "grid_coords(rank, nranks, %d, coords%dd);", e->other_grid, e->other_grid);
        push_local(k, c, line);
    }
}

/* ROOT's definition: "dir" after "#define ROOT ", or, past the column
 * limit, a continued definition split after slashes, its backslashes in the
 * last column, as clang-format writes it. */
static void root_literal(const char *root, sb *out)
{
    size_t n = strlen(root);
    if (strlen("#define ROOT \"\"") + n <= CG_COLUMNS) {
        sb_printf(out, "\"%s\"", root);
        return;
    }
    const size_t indent = 4, room = CG_COLUMNS - indent - strlen("\"\" \\");
    sb_printf(out, "%*s\\\n", (int)(CG_COLUMNS - 1 - strlen("#define ROOT ")), "");
    for (size_t at = 0; at < n;) {
        size_t len = n - at;
        if (len > room) { /* up to the last slash that fits, or as much as fits */
            len = room;
            for (size_t k = room; k > 0; k--)
                if (root[at + k - 1] == '/') {
                    len = k;
                    break;
                }
        }
        sb_printf(out, "%*s\"%.*s\"", (int)indent, "", (int)len, root + at);
        at += len;
        if (at < n)
            sb_printf(out, "%*s\\\n", (int)(CG_COLUMNS - 1 - indent - 2 - len), "");
    }
}

/* Statuses arrays: as long as the longest request list. */
static void count_statuses(cg_emitter *e)
{
    for (size_t i = 0; i < e->m->ninsts; i++) {
        const cg_inst *in = &e->m->insts[i];
        int has = 0;
        int64_t count = 0;
        for (unsigned a = 0; a < in->f->nargs; a++) {
            has |= in->f->args[a].kind == REC_KIND_MPI_STATUS_ARRAY;
            if (in->f->args[a].kind == REC_KIND_COUNT)
                for (uint32_t r = 0; r < in->nr; r++)
                    count = cg_inst_values(in, a)[r] > count ? cg_inst_values(in, a)[r] : count;
        }
        if (has && count > e->statuses)
            e->statuses = (uint32_t)(count > 4096 ? 4096 : count);
    }
}

/* kernel.c.tmpl (and edited copies of it) mark the place of the elastic
 * kernel's rank-count check with this comment: it becomes {{check}}, an
 * empty value whose span --elastic fills once every model is known. */
#define CHECK_COMMENT "/*@ELASTIC_CHECK@*/"

static void check_value(kernel *k, tpl_ctx *c)
{
    char *tpl = k->tpl[T_KERNEL], *at = tpl ? strstr(tpl, CHECK_COMMENT) : NULL;
    if (at) {
        sb t = {0};
        sb_printf(&t, "%.*s{{check}}%s", (int)(at - tpl), tpl, at + strlen(CHECK_COMMENT));
        free(tpl);
        k->tpl[T_KERNEL] = sb_take(&t);
    }
    sb check = {0};
    cg_span(&k->e, &check, 0, CG_SPAN_CHECK);
    tpl_set_sb(c, "check", &check);
    sb_free(&check);
}

/* A literal in a template variable, its scope given. */
static void set_literal(kernel *k, tpl_ctx *c, const char *key, int64_t v, int scope)
{
    sb text = {0};
    cg_put_literal(&k->e, v, "", 0, &text);
    cg_scope(&k->e, &text, scope);
    tpl_set_sb(c, key, &text);
    sb_free(&text);
}

int cg_emit_kernel(cg_model *m, cg_tree *t, const cg_options *o, char **out, cg_doc *doc, rec_error *err)
{
    kernel k;
    memset(&k, 0, sizeof k);
    cg_emitter *e = &k.e;
    e->m = m;
    e->t = t;
    e->o = o;
    for (int i = 0; i < NTEMPLATES && !k.failed; i++)
        if (!(k.tpl[i] = cg_template(o->templates, template_names[i], k.err, sizeof k.err)))
            k.failed = 1;
    cg_prepare_stmts(e);
    cg_buffer_sizes(e);
    cg_choose_root(e);
    cg_collect_blocks(e);
    count_statuses(e);
    uint32_t *all = cg_alloc(m->nranks * sizeof *all);
    for (uint32_t r = 0; r < m->nranks; r++)
        all[r] = r;
    uint32_t everyone = cg_rankset_id(m, all, m->nranks);
    free(all);
    sb body = {0};
    uint32_t nmain = 0; /* the main thread's calls come first (load.c), then each thread's */
    while (nmain < t->ntop && m->insts[cg_first_stmt(t->top[nmain])->insts[0]].thread == 0)
        nmain++;
    e->threaded = nmain < t->ntop;
    cg_render_block(&k, t->top, nmain, everyone, 0, &body);
    thread_body *threads;
    size_t nthreads = cg_render_threads(&k, nmain, everyone, &threads);
    if (nthreads && o->elastic && !k.failed) { /* the threads' bodies carry no spans to fit across runs */
        snprintf(k.err, sizeof k.err, "%s: --elastic: the program's calls are made by %zu threads of its own, "
                 "which elastic kernels do not make yet (a kernel for this rank count does)",
                 m->trace_dir, nthreads);
        k.failed = 1;
    }
    if (!nthreads) /* its tables' references are in main only */
        cg_prefix_tables(e, &body);
    while (body.len && body.s[body.len - 1] == '\n')
        body.s[--body.len] = 0;
    const char *b = sb_str(&body);
    while (*b == '\n')
        b++;
    if (b > body.s) { /* the body from its first statement */
        sb rest = {0};
        sb_append_range(&rest, &body, (size_t)(b - body.s), body.len - (size_t)(b - body.s));
        sb_free(&body);
        body = rest;
        b = sb_str(&body);
    }
    tpl_ctx *c = tpl_new();
    cg_build_header(&k, t, c);
    cg_setup_inputs(&k.e, c); /* before the tables: it adds the text files' line lengths */
    tables_and_locals(&k, c);
    cg_push_locals_named(&k, c, "locals", "local", nthreads ? b : NULL); /* with threads, those main names */
    if (nthreads)
        cg_thread_functions(&k, c, threads, nthreads);
    int thread_buffers = 0; /* the threads' calls read and write the buffers too */
    for (size_t i = 0; i < nthreads; i++) {
        thread_buffers |= strstr(sb_str(&threads[i].text), "wbuf") || strstr(sb_str(&threads[i].text), "rbuf");
        sb_free(&threads[i].text);
    }
    free(threads);
    includes(&k, c);
    tpl_flag(c, "uses_threads", e->uses_threads || nthreads);
    cg_turns(e, c);
    if (e->shared_decls.len) {
        while (e->shared_decls.s[e->shared_decls.len - 1] == '\n')
            e->shared_decls.s[--e->shared_decls.len] = 0;
        tpl_set_sb(c, "shared_decls", &e->shared_decls);
    }
    if (m->init_thread && (e->uses_threads || nthreads)) {
        sb level = {0};
        cg_const_text(e, m->thread_level, REC_KIND_MPI_THREAD_LEVEL, &level);
        tpl_set_sb(c, "init_thread", &level);
        sb_free(&level);
    }
    if (cg_h5_inputs(e, c, k.err, sizeof k.err) < 0)
        k.failed = 1;
    int buffers = thread_buffers || strstr(b, "wbuf") || strstr(b, "rbuf") || e->uses_zbuf || e->uses_text || e->uses_vlen || e->uses_hvl || e->uses_line ||
                  e->uses_lines || e->uses_h5fill; /* filtered(): wbuf */
    tpl_flag(c, "buffers", buffers);
    tpl_flag(c, "text", e->uses_text);
    tpl_flag(c, "vlen", e->uses_vlen);
    tpl_flag(c, "hvl", e->uses_hvl);
    tpl_flag(c, "zeros", e->uses_zbuf);
    tpl_flag(c, "line", e->uses_line);
    tpl_flag(c, "lines", e->uses_lines);
    tpl_flag(c, "no_pointer", e->uses_no_pointer);
    if (cg_h5fill_values(e, c, k.err, sizeof k.err) != 0)
        k.failed = 1;
    if (e->uses_h5value || e->h5value_zeros || e->uses_h5reclaim) { /* h5_value(): the recorded HDF5 values made again */
        char *code = e->uses_h5value ? cg_template(e->o->templates, "h5value.c.tmpl", k.err, sizeof k.err) : NULL;
        size_t len = code ? strlen(code) : 0;
        while (len && code[len - 1] == '\n')
            code[--len] = 0;
        sb text = {0};
        sb_puts(&text, code ? code : "");
        k.failed |= cg_h5_reclaim_code(e, &text, k.err, sizeof k.err);
        if (e->h5value_zeros) /* what the calls write whose value the trace lacks (RECORDER_ATTR_VALUES=0) */
            sb_printf(&text, "%sstatic const char h5value_zeros[%lld];", text.len ? "\n\n" : "",
                      (long long)e->h5value_zeros);
        tpl_set_sb(c, "h5value", &text);
        sb_free(&text);
        k.failed |= e->uses_h5value && !code;
        free(code);
    }
    /* elastic: the sizes as macros, which the models give at any rank count */
    set_literal(&k, c, o->elastic ? "wsize_bytes" : "wsize", e->wsize > 0 ? e->wsize : 1, CG_SCOPE_SIZE);
    set_literal(&k, c, o->elastic ? "rsize_bytes" : "rsize", e->rsize > 0 ? e->rsize : 1, CG_SCOPE_SIZE);
    if (o->elastic) {
        tpl_set(c, "wsize", "WSIZE");
        tpl_set(c, "rsize", "RSIZE");
        check_value(&k, c);
    }
    int places_links = 0; /* the path helpers may remember what they found when no call makes a link */
    for (size_t i = 0; i < m->ninsts; i++)
        places_links |= rf_places_link(m->insts[i].f);
    tpl_flag(c, "places_links", places_links);
    int found_links = 0; /* setup makes the links the run found */
    for (size_t i = 0; i < m->ninputs; i++)
        found_links |= m->inputs[i].link != NULL;
    tpl_flag(c, "no_links", !places_links && !found_links);
    tpl_flag(c, "uses_P", e->uses_P);
    tpl_flag(c, "uses_S", e->uses_S);
    tpl_flag(c, "traced", e->uses_P || e->uses_S);
    if (e->grid_ndims || e->other_grid)
        tpl_setf(c, "grid", "%d", e->grid_ndims ? e->grid_ndims : e->other_grid);
    if (e->int_forms) { /* one block, after the other declarations */
        sb all = {0};
        sb_printf(
            &all,
            "%s#if MPI_VERSION < 4 /* no MPI-4 large counts: their int forms, while counts fit */\n%s#endif",
            e->protos ? e->protos : "", e->int_forms);
        free(e->protos);
        e->protos = sb_take(&all);
    }
    if (e->protos) { /* the template puts a line break after it */
        size_t len = strlen(e->protos);
        while (len && e->protos[len - 1] == '\n')
            e->protos[--len] = 0;
        tpl_set(c, "protos", e->protos);
    }
    tpl_setf(c, "nranks", "%u", m->nranks);
    tpl_flag(c, "fixed", !o->elastic);
    tpl_flag(c, "elastic", o->elastic);
    tpl_set(c, "program", o->program ? o->program : "kernel");
    if (e->uses_root) {
        sb define = {0};
        root_literal(e->root, &define);
        tpl_set_sb(c, "root", &define);
        sb_free(&define);
    }
    tpl_set_sb(c, "body", &body);
    sb text = {0};
    cg_render(&k, T_KERNEL, c, &text);
    tpl_free(c);
    sb_free(&body);
    if (k.failed) {
        snprintf(err->msg, sizeof err->msg, "%s", k.err);
    } else if (doc) { /* elastic: the text as written, with what its spans are */
        *doc = (cg_doc){.text = text,
                        .slots = e->slots,
                        .nslots = e->nslots,
                        .grid_nd = e->grid_ndims ? e->grid_ndims : e->other_grid};
        doc->root = cg_strdup(e->uses_root && e->root ? e->root : "");
        text = (sb){0};
        e->slots = NULL;
    } else {
        *out = o->elastic ? cg_strdup(sb_str(&text)) : cg_wrap_lines(sb_str(&text), CG_COLUMNS);
    }
    sb_free(&text);
    free(e->slots);
    for (int i = 0; i < NTEMPLATES; i++)
        free(k.tpl[i]);
    for (size_t i = 0; i < e->nstmts; i++) {
        for (unsigned f = 0; f < e->m->insts[e->stmts[i].node->insts[0]].nf; f++)
            free(e->stmts[i].vars[f]);
        free(e->stmts[i].vars);
        free(e->stmts[i].used);
    }
    free(e->stmts);
    free(e->inst_stmt);
    for (size_t i = 0; i < e->nnames; i++)
        free(e->names[i]);
    free(e->names);
    for (size_t i = 0; i < e->ntables; i++) {
        free(e->tables[i].name);
        free(e->tables[i].ctype);
        sb_free(&e->tables[i].body);
        free(e->tables[i].values);
    }
    free(e->tables);
    free(e->protos);
    free(e->int_forms);
    free(e->root);
    free(e->blocks);
    sb_free(&e->thread_slot);
    sb_free(&e->shared_decls);
    for (size_t i = 0; i < k.nlocals; i++)
        free(k.locals[i]);
    free(k.locals);
    return k.failed ? -1 : 0;
}
