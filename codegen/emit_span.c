/* emit_span.c: what the elastic emitter records of the text it writes
 * (cg_doc, cg.h): spans over each integer literal, call argument, note,
 * the header and the check's place, each with its slot. Other kernels
 * record nothing: these write their text alone. */
#include "emit.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

cg_slot *cg_span(cg_emitter *e, sb *out, size_t at, int kind)
{
    if (!e || !e->o->elastic)
        return NULL;
    if (e->nslots == e->capslots) {
        e->capslots = e->capslots ? 2 * e->capslots : 256;
        e->slots = cg_realloc(e->slots, e->capslots * sizeof *e->slots);
    }
    cg_slot *s = &e->slots[e->nslots];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    sb_tag(out, at, (uint32_t)e->nslots++);
    return s;
}

/* Past 18 digits a number is not modelled. */
void cg_literal_span(cg_emitter *e, sb *out, size_t at, int role, uint64_t value, int tight, int unknown)
{
    cg_slot *s = value <= 999999999999999999u ? cg_span(e, out, at, CG_SPAN_LITERAL) : NULL;
    if (s) {
        s->role = (uint8_t)role;
        s->value = (int64_t)value;
        s->tight = (uint8_t)tight;
        s->unknown = (uint8_t)unknown;
    }
}

void cg_put_unknown(cg_emitter *e, int tight, sb *out)
{
    size_t at = out->len;
    sb_puts(out, "ELASTIC_ANY");
    cg_literal_span(e, out, at, CG_LIT_PLAIN, 0, tight, 1);
}

void cg_put_literal(cg_emitter *e, int64_t v, const char *suffix, int tight, sb *out)
{
    uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
    if (v < 0)
        sb_putc(out, '-');
    size_t at = out->len;
    sb_printf(out, "%" PRIu64 "%s", mag, suffix);
    cg_literal_span(e, out, at, CG_LIT_PLAIN, mag, tight || v < 0, 0);
}

void cg_scope(cg_emitter *e, const sb *out, int scope)
{
    for (size_t i = 0; i < out->nspans; i++)
        if (e->slots[out->spans[i].tag].kind == CG_SPAN_LITERAL)
            e->slots[out->spans[i].tag].scope = (uint8_t)scope;
}
