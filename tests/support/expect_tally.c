/* expect_tally.c: see expect_tally.h. */
#include "expect_tally.h"

int64_t expect_bytes(const rec_func_desc *f, const rec_record *r)
{
    for (unsigned a = 0; a < f->nargs; a++)
        if ((f->args[a].flags & REC_ARG_DERIVED) && f->args[a].kind == REC_KIND_SIZE)
            return r->args[a].i > 0 ? r->args[a].i : 0;
    if (!(f->flags & REC_FN_DATA) || f->ret_kind == REC_KIND_NONE || r->ret.i < 0)
        return 0;
    if (f->ret_kind == REC_KIND_COUNT)
        for (unsigned a = 0; a < f->nargs; a++)
            if (f->args[a].kind == REC_KIND_SIZE)
                return r->ret.i * r->args[a].i;
    return r->ret.i;
}

void expect_tally_add(expect_tally *t, const rec_func_desc *f, const rec_record *r)
{
    t->calls[r->func]++;
    t->bytes[r->func] += expect_bytes(f, r);
}
