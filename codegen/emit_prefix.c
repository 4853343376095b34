/* emit_prefix.c: a rank table that is the running sum of another is written
 * as that sum, when that makes the kernel shorter. Where each rank's block is as long as a table says (uneven
 * cells, counts with no model), the block's start is the sum of the counts
 * before the rank: the kernel then keeps the counts' table alone, and a
 * helper adds them up, instead of a second table as long as the ranks. */
#include "emit.h"

#include <stdio.h>
#include <string.h>

void cg_table_keep_values(cg_emitter *e, const char *name, const char *ctype, const int64_t *values, uint32_t n)
{
    if (strcmp(ctype, "int") != 0 && strcmp(ctype, "long long") != 0)
        return;
    for (size_t i = 0; i < e->ntables; i++) {
        cg_table *t = &e->tables[i];
        if (strcmp(t->name, name) != 0 || t->values)
            continue;
        t->values = cg_alloc((n ? n : 1) * sizeof *t->values);
        memcpy(t->values, values, n * sizeof *values);
        return;
    }
}

/* a[r] == a[0] + k * (b[0] + ... + b[r-1]) for every rank r: 1, and k. */
static int running_sum_of(const int64_t *a, const int64_t *b, uint32_t n, int64_t *k)
{
    if (n < 3 || b[0] == 0 || (a[1] - a[0]) % b[0] != 0 || (a[1] - a[0]) / b[0] == 0)
        return 0;
    *k = (a[1] - a[0]) / b[0];
    if (*k == INT64_MIN)
        return 0;
    __int128 sum = 0;
    for (uint32_t r = 0; r < n; r++) {
        if ((__int128)a[0] + (__int128)*k * sum != (__int128)a[r])
            return 0;
        sum += b[r];
    }
    return 1;
}

/* Replaces each "name[rank]" in body (name a whole identifier) with expr;
 * with expr NULL, only counts them. Returns how many. */
static size_t replace_refs(sb *body, const char *name, const char *expr)
{
    sb out = {0};
    size_t n = 0;
    size_t len = strlen(name);
    const char *s = sb_str(body), *at;
    while ((at = strstr(s, name)) != NULL) {
        int starts = at == body->s || !(at[-1] == '_' || (at[-1] >= 'a' && at[-1] <= 'z') ||
                                        (at[-1] >= 'A' && at[-1] <= 'Z') || (at[-1] >= '0' && at[-1] <= '9'));
        if (starts && strncmp(at + len, "[rank]", 6) == 0) {
            sb_putn(&out, s, (size_t)(at - s));
            sb_puts(&out, expr ? expr : "");
            s = at + len + 6;
            n++;
        } else {
            sb_putn(&out, s, (size_t)(at - s) + 1);
            s = at + 1;
        }
    }
    sb_puts(&out, s);
    if (expr) {
        sb_free(body);
        *body = out;
    } else {
        sb_free(&out);
    }
    return n;
}

/* The helper that adds up the first n entries of a table of this type;
 * with add 0, the bytes adding it would take (0: it is there already). */
static const char *helper_for(cg_emitter *e, const char *ctype, int add, size_t *bytes)
{
    int ll = strcmp(ctype, "long long") == 0;
    const char *name = ll ? "sum_before_ll" : "sum_before";
    char text[512];
    snprintf(text, sizeof text,
             "/* The sum of a table's first n entries: where a rank's block starts when the blocks\n"
             " * are as long as the table says. */\nstatic long long %s(const %s *table, int n)\n{\n"
             "    long long sum = 0;\n    for (int i = 0; i < n; i++)\n        sum += table[i];\n"
             "    return sum;\n}\n",
             name, ctype);
    *bytes = e->protos && strstr(e->protos, text) ? 0 : strlen(text);
    if (add)
        cg_add_proto(e, text);
    return name;
}

/* About what the table's declaration takes in the kernel, as
 * tables_and_locals writes it (a line per value past the line's width). */
static size_t declared_bytes(cg_emitter *e, cg_table *t)
{
    size_t prefix = 13 + strlen(t->ctype) + strlen(t->name) + 16;
    sb values = {0};
    cg_braced(e, &t->body, t->n, t->label, t->per_line, 0, prefix, &values);
    size_t n = prefix + values.len + 2;
    sb_free(&values);
    return n;
}

void cg_prefix_tables(cg_emitter *e, sb *body)
{
    if (e->o->elastic)
        return;
    for (size_t i = 0; i < e->ntables; i++) {
        cg_table *a = &e->tables[i];
        if (!a->values || a->dropped || strcmp(a->label, "rank") != 0)
            continue;
        for (size_t j = 0; j < e->ntables; j++) {
            cg_table *b = &e->tables[j];
            int64_t k;
            if (j == i || !b->values || b->dropped || b->n != a->n || strcmp(b->label, "rank") != 0 ||
                !running_sum_of(a->values, b->values, a->n, &k))
                continue;
            sb expr = {0};
            size_t helper_bytes;
            const char *helper = helper_for(e, b->ctype, 0, &helper_bytes);
            if (a->values[0] == 0 && k == 1)
                sb_printf(&expr, "%s(%s, rank)", helper, b->name);
            else if (a->values[0] == 0)
                sb_printf(&expr, "(%lld * %s(%s, rank))", (long long)k, helper, b->name);
            else
                sb_printf(&expr, "(%lld %c %lld * %s(%s, rank))", (long long)a->values[0], k < 0 ? '-' : '+',
                          (long long)(k < 0 ? -k : k), helper, b->name);
            /* Only when the kernel gets shorter: at a few ranks the table is. */
            size_t refs = replace_refs(body, a->name, NULL), name_len = strlen(a->name) + 6;
            size_t cost = helper_bytes + refs * (expr.len > name_len ? expr.len - name_len : 0);
            if (cost >= declared_bytes(e, a)) {
                sb_free(&expr);
                continue;
            }
            helper_for(e, b->ctype, 1, &helper_bytes);
            replace_refs(body, a->name, sb_str(&expr));
            sb_free(&expr);
            a->dropped = 1;
            e->n_prefix++;
            break;
        }
    }
}
