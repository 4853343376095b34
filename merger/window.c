/* window.c: reading ranks into their windows, signatures, and the counters
 * that tell, in O(1) per change, which signatures are complete groups. */
#define _GNU_SOURCE
#include "merge_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- signatures ---- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

/* Names and paths with their digit runs masked: "ckpt.0.3" and "ckpt.0.2"
 * are the same call on two ranks; the per-rank values stay in the record. */
static uint64_t masked_hash(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *s = bytes;
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            while (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')
                i++;
            h = mix(h, '#');
        } else {
            h = mix(h, s[i]);
        }
    }
    return mix(h, n ? 1 : 0);
}

uint64_t handle_key(unsigned space, int64_t id)
{
    return (uint64_t)space << 56 ^ (uint64_t)id;
}

/* A handle as the signature sees it: what created it, not its number. */
static uint64_t canonical(rank_state *rs, unsigned space, int64_t id)
{
    if (!rec_handle_is_dynamic(id))
        return mix(space, (uint64_t)id); /* predefined or invalid: the same everywhere */
    int64_t value;
    return keymap_get(&rs->canon, handle_key(space, id), &value) ? (uint64_t)value
                                                                 : mix(space + 100, (uint64_t)id);
}

/* The signature, and in *coarse the same without sizes and other plain
 * numbers: what a created handle is known by, so that a rank-specific size
 * (uneven decompositions) does not make every later use of the handle look
 * rank-specific too. */
static uint64_t signature(rank_state *rs, const rec_layout_view *lay, const wrec *r, uint64_t *coarse)
{
    uint64_t h = mix(mix(mix(0x5151, r->func), r->depth), r->thread);
    if (r->synthetic) /* a rebuilt record merges only with rebuilt ones: it keeps its mark */
        h = mix(h, 0x5e);
    if (r->inferred) /* likewise an inferred one */
        h = mix(h, 0x1f);
    uint64_t c = h;
    for (uint32_t todo = lay->sig_fields; todo; todo &= todo - 1) {
        unsigned a = (unsigned)__builtin_ctz(todo), space = lay->space[a];
        rec_value v = wrec_value(r, lay->cls[a], a);
        switch (lay->cls[a]) {
        case REC_CLASS_INT:
            if (space) {
                uint64_t id = canonical(rs, space, v.i);
                h = mix(h, id);
                c = mix(c, id);
            } else {
                h = mix(h, (uint64_t)v.i);
            }
            break;
        case REC_CLASS_PATH: {
            const char *p = rec_cursor_path(rs->cursor, v.i);
            h = p ? masked_hash(h, p, strlen(p)) : mix(h, 0);
            c = p ? masked_hash(c, p, strlen(p)) : mix(c, 0);
            break;
        }
        case REC_CLASS_STR:
            h = masked_hash(h, v.ptr, v.len);
            c = masked_hash(c, v.ptr, v.len);
            break;
        case REC_CLASS_ARRAY: {
            const int64_t *e = v.ptr; /* wrec arrays are decoded */
            h = mix(h, v.len);
            for (uint32_t k = 0; k < v.len; k++)
                h = mix(h, space ? canonical(rs, space, e[k]) : (uint64_t)e[k]);
            break;
        }
        default:
            break;
        }
    }
    *coarse = c;
    return h;
}

/* The handles a record creates get an identity from its signature: what
 * made them, not their number (one extra call on one rank must not shift the
 * identities of every later handle there). Two handles made by identical
 * calls look alike, which only lets their uses merge; each rank's own values
 * stay in the merged record. */
static int note_created(rank_state *rs, const rec_layout_view *lay, const wrec *r, uint64_t coarse)
{
    if (!lay->created_handles)
        return 0;
    uint64_t base = mix(coarse, 0x77);
    for (uint32_t todo = lay->created_handles; todo; todo &= todo - 1) {
        unsigned i = (unsigned)__builtin_ctz(todo);
        int64_t known; /* a second reference to a handle keeps its first identity */
        if (rec_handle_is_dynamic(r->v[i]) && !keymap_get(&rs->canon, handle_key(lay->space[i], r->v[i]), &known) &&
            keymap_put(&rs->canon, handle_key(lay->space[i], r->v[i]), (int64_t)mix(base, i < lay->nargs ? i : 999)))
            return -1;
    }
    return 0;
}

/* ---- deep copies ---- */

/* Room for records in a chunk, and a chunk for `size` bytes (a record larger
 * than a chunk gets a chunk of its own, still aligned: it starts in the
 * first CHUNK_BYTES of it, so wrec_home holds for it too). */
static const size_t chunk_room = CHUNK_BYTES - sizeof(chunk);

/* Chunks come from slabs of many, kept until the merge ends and shared by
 * the ranks (one aligned allocation each wasted up to a chunk; and a slab is
 * a few TLB entries instead of hundreds). */
static chunk *pool_get(chunk_pool *p)
{
    if (!p->free) {
        if (p->nslabs == p->cap) {
            size_t cap = p->cap ? 2 * p->cap : 16;
            void **slabs = realloc(p->slabs, cap * sizeof *slabs);
            if (!slabs)
                return NULL;
            p->slabs = slabs;
            p->cap = cap;
        }
        uint8_t *slab = aligned_alloc(CHUNK_SLAB_BYTES, CHUNK_SLAB_BYTES);
        if (!slab)
            return NULL;
        p->slabs[p->nslabs++] = slab;
#ifdef MADV_HUGEPAGE
        madvise(slab, CHUNK_SLAB_BYTES, MADV_HUGEPAGE); /* best effort */
#endif
        for (size_t at = CHUNK_SLAB_BYTES; at > 0; at -= CHUNK_BYTES) {
            chunk *c = (chunk *)(void *)(slab + at - CHUNK_BYTES);
            c->cap = chunk_room;
            c->next_free = p->free;
            p->free = c;
        }
    }
    chunk *c = p->free;
    p->free = c->next_free;
    return c;
}

void chunk_pool_free(chunk_pool *p)
{
    for (size_t i = 0; i < p->nslabs; i++)
        free(p->slabs[i]);
    free(p->slabs);
    *p = (chunk_pool){0};
}

/* A chunk for `size` bytes: from the pool, or for a record larger than a
 * chunk one of its own, still aligned (the record starts in its first
 * CHUNK_BYTES, so wrec_home holds for it too). */
static chunk *chunk_new(rank_state *rs, size_t size)
{
    if (size <= chunk_room)
        return pool_get(rs->pool);
    size_t bytes = (sizeof(chunk) + size + CHUNK_BYTES - 1) & ~(size_t)(CHUNK_BYTES - 1);
    chunk *c = bytes > size ? aligned_alloc(CHUNK_BYTES, bytes) : NULL;
    if (c)
        c->cap = bytes - sizeof(chunk);
    return c;
}

/* Back to the pool (or freed, a large one) once no record is in it. */
static void chunk_retire(rank_state *rs, chunk *c)
{
    if (c->live || c == rs->current)
        return;
    if (c->cap == chunk_room) {
        c->next_free = rs->pool->free;
        rs->pool->free = c;
    } else {
        free(c);
    }
}

static void *chunk_alloc(rank_state *rs, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    chunk *c = rs->current;
    if (!c || c->used + size > c->cap) {
        if (c && c->live == 0 && size <= c->cap) { /* nothing left in it: start over */
            c->used = 0;
        } else {
            chunk *old = c;
            if (!(c = chunk_new(rs, size)))
                return NULL;
            c->used = 0;
            c->live = 0;
            rs->current = c;
            if (old)
                chunk_retire(rs, old); /* an empty one too small for this record */
        }
    }
    void *p = c->data + c->used;
    c->used += size;
    c->live++;
    return p;
}

void chunk_drop_current(rank_state *rs)
{
    chunk *c = rs->current;
    rs->current = NULL;
    if (c)
        chunk_retire(rs, c);
}

void chunk_release(rank_state *rs, wrec *w)
{
    chunk *c = wrec_home(w);
    c->live--;
    chunk_retire(rs, c);
}

/* Popped records leave in order, so their chunk's count is settled once a
 * chunk (when the pops move on to the next one) rather than once a record:
 * at thousands of ranks each chunk header is one more cache miss. */
static void chunk_release_popped(rank_state *rs, wrec *w)
{
    chunk *c = wrec_home(w);
    if (c != rs->popped_home) {
        chunk_settle(rs);
        rs->popped_home = c;
    }
    rs->popped++;
}

void chunk_settle(rank_state *rs)
{
    chunk *c = rs->popped_home;
    if (!c)
        return;
    c->live -= rs->popped;
    rs->popped_home = NULL;
    rs->popped = 0;
    chunk_retire(rs, c);
}

/* Field i of a decoded record: an argument, the return value or errno. */
static rec_value field_of(const rec_record *r, const rec_layout_view *lay, unsigned i)
{
    return i < lay->nargs ? r->args[i] : i == lay->nargs ? r->ret : (rec_value){.i = r->err};
}

static wrec *copy_record(rank_state *rs, const rec_layout_view *lay, const rec_record *r)
{
    size_t extra = 0;
    for (uint32_t todo = lay->bytes_fields; todo; todo &= todo - 1) {
        unsigned i = (unsigned)__builtin_ctz(todo);
        size_t len = field_of(r, lay, i).len;
        extra += lay->cls[i] == REC_CLASS_ARRAY ? len * sizeof(int64_t) : len;
    }
    wrec *w = chunk_alloc(rs, sizeof *w + lay->nfields * sizeof(int64_t) + extra);
    if (!w)
        return NULL;
    w->tstart = r->tstart + (uint64_t)rs->tick_offset;
    w->tend = r->tend + (uint64_t)rs->tick_offset;
    w->thread = r->thread;
    w->func = r->func;
    w->depth = r->depth;
    w->synthetic = r->synthetic;
    w->inferred = r->inferred;
    for (unsigned i = 0; i < lay->nfields; i++)
        w->v[i] = field_of(r, lay, i).i;
    uint8_t *p = (uint8_t *)&w->v[lay->nfields];
    /* arrays first, strings after them, so that every int64_t element is
     * aligned (a string's length need not be a multiple of 8) */
    for (int strings = 0; strings < 2; strings++)
        for (uint32_t todo = lay->bytes_fields; todo; todo &= todo - 1) {
            unsigned i = (unsigned)__builtin_ctz(todo);
            if ((lay->cls[i] == REC_CLASS_STR) != strings)
                continue;
            rec_value v = field_of(r, lay, i);
            if (strings) {
                memcpy(p, v.ptr, v.len);
            } else {
                rec_value_array(&v, (int64_t *)(void *)p, v.len);
            }
            w->v[i] = (int64_t)((uint64_t)(p - (uint8_t *)w) << 32 | v.len);
            p += strings ? v.len : v.len * sizeof(int64_t);
        }
    return w;
}

void wrec_to_record(const wrec *w, const rec_layout_view *lay, rec_record *r)
{
    r->tstart = w->tstart;
    r->tend = w->tend;
    r->func = w->func;
    r->depth = w->depth;
    r->synthetic = w->synthetic;
    r->inferred = w->inferred;
    r->thread = w->thread;
    for (unsigned i = 0; i < lay->nargs; i++)
        r->args[i] = wrec_value(w, lay->cls[i], i);
    r->ret = lay->nfields > lay->nargs ? wrec_value(w, lay->cls[lay->nargs], lay->nargs) : (rec_value){0};
    r->err = lay->nfields > lay->nargs + 1 ? w->v[lay->nargs + 1] : 0;
}

int record_signature(rank_state *rs, const rec_layout_view *lay, const rec_record *r, uint64_t *sig)
{
    wrec *w = copy_record(rs, lay, r);
    if (!w)
        return -1;
    uint64_t coarse;
    *sig = signature(rs, lay, w, &coarse);
    int rc = note_created(rs, lay, w, coarse);
    chunk_release(rs, w);
    return rc;
}

/* ---- complete groups ---- */

void update_complete(merger *m, sig_entry *s)
{
    int want = s->head_count > 0 && s->head_count == s->ranks_with;
    if (s->in_bucket && (!want || s->in_bucket != (int)s->head_count)) {
        sig_entry **b = &m->bucket[s->in_bucket];
        if (s->bprev)
            s->bprev->bnext = s->bnext;
        else
            *b = s->bnext;
        if (s->bnext)
            s->bnext->bprev = s->bprev;
        s->in_bucket = 0;
    }
    if (want && !s->in_bucket) {
        sig_entry **b = &m->bucket[s->head_count];
        s->bprev = NULL;
        s->bnext = *b;
        if (*b)
            (*b)->bprev = s;
        *b = s;
        s->in_bucket = (int)s->head_count;
        if (s->head_count > m->max_bucket)
            m->max_bucket = s->head_count;
    }
}

static sig_entry *global_sig(merger *m, uint64_t sig)
{
    sig_entry *s;
    HASH_FIND(hh, m->sigs, &sig, sizeof sig, s);
    if (!s) {
        s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        s->sig = sig;
        HASH_ADD(hh, m->sigs, sig, sizeof s->sig, s);
    }
    return s;
}

/* ---- the rank's signature table ---- */

_Static_assert(sizeof(rank_sig) == 32, "a signature entry is half a cache line");

/* The entry for sig, or NULL. */
static rank_sig *rank_sig_find(const rank_state *rs, uint64_t sig)
{
    for (uint32_t i = rs->sig_cap ? sig_home(sig, rs->sig_cap) : 0; rs->sig_cap;
         i = (i + 1) & (rs->sig_cap - 1)) {
        rank_sig *e = &rs->sig_tab[i];
        if (!e->gsig)
            return NULL;
        if (e->sig == sig)
            return e;
    }
    return NULL;
}

static rank_sig *sig_insert_slot(rank_sig *tab, uint32_t cap, uint64_t sig)
{
    rank_sig *tomb = NULL;
    for (uint32_t i = sig_home(sig, cap);; i = (i + 1) & (cap - 1)) {
        rank_sig *e = &tab[i];
        if (!e->gsig)
            return tomb ? tomb : e;
        if (e->sig == sig)
            return e;
        if (!e->count && !tomb)
            tomb = e;
    }
}

/* Rebuilds the table with the live entries only, at most a quarter full.
 * Every rank starts with a table of SIG_TAB_FIRST entries in one array of
 * all ranks' (merger.sig_tabs), which a step at thousands of ranks reaches
 * without a TLB miss; it is rebuilt in place while that is large enough. A
 * table that outgrows it gets its own allocation, and never shrinks back.
 * Nothing points into the table. */
static int sig_rebuild(rank_state *rs)
{
    uint32_t live = 0;
    for (uint32_t i = 0; i < rs->sig_cap; i++)
        live += rs->sig_tab[i].count != 0;
    uint32_t cap = rs->sig_cap;
    while (cap < 4 * (live + 1))
        cap *= 2;
    rank_sig first[SIG_TAB_FIRST], *old = rs->sig_tab, *tab = rs->sig_tab;
    if (cap == SIG_TAB_FIRST) {
        memcpy(first, old, sizeof first);
        old = first;
    } else if (!(tab = aligned_alloc(64, cap * sizeof *tab))) {
        return -1;
    }
    memset(tab, 0, cap * sizeof *tab);
    for (uint32_t i = 0; i < rs->sig_cap; i++)
        if (old[i].count)
            *sig_insert_slot(tab, cap, old[i].sig) = old[i];
    if (old != first && rs->sig_cap > SIG_TAB_FIRST)
        free(old);
    rs->sig_tab = tab;
    rs->sig_cap = cap;
    rs->sig_used = live;
    return 0;
}

void sig_tab_free(rank_state *rs)
{
    if (rs->sig_cap > SIG_TAB_FIRST)
        free(rs->sig_tab);
    rs->sig_tab = NULL;
    rs->sig_cap = 0;
}

/* The entry for sig, made (count 0) if there is none; NULL: out of memory. */
static rank_sig *rank_sig_get(merger *m, rank_state *rs, uint64_t sig)
{
    rank_sig *e = rank_sig_find(rs, sig);
    if (e)
        return e;
    sig_entry *s = global_sig(m, sig);
    if (!s)
        return NULL;
    if (!e) {
        if ((rs->sig_used + 1) * 4 > rs->sig_cap * 3 && sig_rebuild(rs) != 0)
            return NULL;
        e = sig_insert_slot(rs->sig_tab, rs->sig_cap, sig);
        if (!e->gsig)
            rs->sig_used++;
    }
    *e = (rank_sig){.sig = sig, .gsig = s};
    return e;
}

static void set_head(merger *m, rank_state *rs, sig_entry *s)
{
    rs->head_sig = s;
    rs->hprev = NULL;
    rs->hnext = s->heads;
    if (s->heads)
        s->heads->hprev = rs;
    s->heads = rs;
    s->head_count++;
    update_complete(m, s);
}

/* The first record read ahead joins the window. */
static int push(merger *m, rank_state *rs)
{
    unsigned at = window_index(m, rs, rs->count);
    rank_sig *e = rank_sig_get(m, rs, rs->ring[at].sig);
    if (!e)
        return -1;
    sig_entry *s = e->gsig;
    if (!e->count) {
        s->ranks_with++;
        e->first = at;
    } else {
        rs->ring[e->last].next_same = at;
    }
    e->last = at;
    e->count++;
    if (rs->count++ == 0)
        set_head(m, rs, s);
    else
        update_complete(m, s);
    return 0;
}

/* Reads up to READ_AHEAD records into the slots after the window's: a rank's stream, decoder and handle tables are then worked on
 * while they are in the cache, instead of once per merged record, which at
 * thousands of ranks cost a dozen cache misses each. Signatures depend on
 * the rank's own earlier records only, so reading ahead changes nothing. */
static int read_ahead(merger *m, rank_state *rs, rec_error *err)
{
    while (!rs->eof && rs->queued < READ_AHEAD) {
        rec_record r;
        int rc = rec_cursor_next(rs->cursor, &r, err);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            rs->eof = 1;
            rs->unfinished = !rec_cursor_complete(rs->cursor);
            m->unfinished_pending += rs->unfinished;
            break;
        }
        const rec_layout_view *lay = layout_for(m, r.func);
        wrec *w = copy_record(rs, lay, &r);
        if (!w) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
        uint64_t coarse, sig = signature(rs, lay, w, &coarse);
        *window_slot(m, rs, rs->count + rs->queued++) = (wslot){.rec = w, .sig = sig};
        if (note_created(rs, lay, w, coarse) != 0) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
    }
    return 0;
}

/* Moves records into the window until it is full or the rank's stream ends. */
int fill(merger *m, rank_state *rs, rec_error *err)
{
    while (!rs->done && rs->count < m->window) {
        if (!rs->queued && read_ahead(m, rs, err) != 0)
            return -1;
        if (!rs->queued) {
            rs->done = 1;
            break;
        }
        if (push(m, rs) != 0) {
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
        rs->queued--;
        m->records_in++;
    }
    return 0;
}

/* Removes the rank's first k window records (emitted), makes the next one
 * its head. A lockstep batch pops many at once: the rank leaves its head's
 * list and joins its new head's once, not k times, and consecutive records
 * of one signature find its entry once (at thousands of ranks each of those
 * steps was a cache miss a record). */
void pop_many(merger *m, rank_state *rs, unsigned k)
{
    sig_entry *s = rs->head_sig;
    rank_sig *e = NULL;
    for (unsigned j = 0; j < k; j++) {
        const wslot *slot = &rs->ring[rs->head];
        if (!e || e->sig != slot->sig)
            e = rank_sig_find(rs, slot->sig);
        e->first = slot->next_same;
        if (--e->count == 0) {
            e->gsig->ranks_with--;
            if (j) /* the head's signature is settled below, once the rank has left its list */
                update_complete(m, e->gsig);
        }
        if (j == 0) {
            if (rs->hprev)
                rs->hprev->hnext = rs->hnext;
            else
                s->heads = rs->hnext;
            if (rs->hnext)
                rs->hnext->hprev = rs->hprev;
            s->head_count--;
            rs->head_sig = NULL;
            update_complete(m, s);
        }
        chunk_release_popped(rs, slot->rec);
        rs->head = rs->head + 1 == m->ring_slots ? 0 : rs->head + 1;
        rs->head_pos++;
        rs->count--;
    }
    if (rs->count)
        set_head(m, rs, rank_sig_find(rs, rs->ring[rs->head].sig)->gsig);
}

void pop(merger *m, rank_state *rs)
{
    pop_many(m, rs, 1);
}

/* The paper's distance: how far beyond its head the nearest match of this
 * rank's head lies in any other rank's window; UINT64_MAX: nowhere. */
uint64_t distance(const merger *m, const rank_state *rs)
{
    uint64_t sig = rs->ring[rs->head].sig, best = UINT64_MAX;
    for (uint32_t j = 0; j < m->nranks && best; j++) {
        const rank_state *o = &m->ranks[j];
        if (o == rs || !o->count)
            continue;
        const rank_sig *e = rank_sig_find(o, sig);
        if (e && e->count) {
            uint64_t d = e->first >= o->head ? e->first - o->head : e->first + m->ring_slots - o->head;
            if (d < best)
                best = d;
        }
    }
    return best;
}

/* Memory for the per-rank arrays every step touches: when it is large, 2 MB
 * aligned and on huge pages where the kernel gives them (thousands of ranks'
 * worth of 4 KB pages cost a TLB miss a rank); else cache-line aligned.
 * Zeroed if asked (the emitter's columns are written before they are read,
 * and mostly never touched). Freed with free(). */
void *rank_arrays_alloc_raw(size_t n, size_t size, int zeroed)
{
    if (size && n > SIZE_MAX / size / 2)
        return NULL;
    size_t bytes = n * size, align = 64;
    if (bytes >= CHUNK_SLAB_BYTES / 2)
        align = CHUNK_SLAB_BYTES;
    bytes = (bytes + align - 1) & ~(align - 1);
    void *p = aligned_alloc(align, bytes ? bytes : align);
    if (!p)
        return NULL;
#ifdef MADV_HUGEPAGE
    if (align == CHUNK_SLAB_BYTES)
        madvise(p, bytes, MADV_HUGEPAGE); /* best effort */
#endif
    if (zeroed)
        memset(p, 0, bytes ? bytes : align);
    return p;
}

void *rank_arrays_alloc(size_t n, size_t size)
{
    return rank_arrays_alloc_raw(n, size, 1);
}
