/* stat_view.c: what a POSIX, MPI-IO or STDIO counter record of Darshan
 * says of a file's calls, in one shape for all three (ri_view): the
 * operations counted, the bytes, the access-size histogram and the common
 * access sizes, what the offsets were like, and the first and last times
 * of each kind of call. Counters a module (or a module version) lacks read
 * -1, and count as none. */
#include <stdint.h>
#include <string.h>

#include "import_view.h"

static int64_t get(const ri_darshan_record *r, unsigned module, const char *name)
{
    int f;
    int i = ri_darshan_counter_index(module, name, &f);
    if (i < 0 || f || !r)
        return -1;
    return r->counters[i];
}

static double fget(const ri_darshan_record *r, unsigned module, const char *name)
{
    int f;
    int i = ri_darshan_counter_index(module, name, &f);
    if (i < 0 || !f || !r)
        return -1;
    return r->fcounters[i];
}

static int64_t pos(int64_t v)
{
    return v > 0 ? v : 0;
}

/* a + b, or INT64_MAX past it (counters of a corrupt log) */
static int64_t add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* the largest byte, when it leaves room for the byte after it */
static int64_t byte_of(int64_t v)
{
    return v >= 0 && v < ((int64_t)1 << 62) ? v : -1;
}

/* The ten bins from the first's counter on. */
static void bins(const ri_darshan_record *r, unsigned module, const char *first, int64_t *out)
{
    int f;
    int i = ri_darshan_counter_index(module, first, &f);
    for (int b = 0; b < RI_VIEW_BINS; b++)
        out[b] = i >= 0 && !f && r ? pos(r->counters[i + b]) : 0;
}

static void times(ri_view *v, const ri_darshan_record *r, unsigned module, const char *prefix)
{
    static const char *const names[RI_WIN_COUNT][2] = {{"F_OPEN_START_TIMESTAMP", "F_OPEN_END_TIMESTAMP"},
                                                       {"F_READ_START_TIMESTAMP", "F_READ_END_TIMESTAMP"},
                                                       {"F_WRITE_START_TIMESTAMP", "F_WRITE_END_TIMESTAMP"},
                                                       {"F_CLOSE_START_TIMESTAMP", "F_CLOSE_END_TIMESTAMP"}};
    char name[64];
    for (int w = 0; w < RI_WIN_COUNT; w++)
        for (int e = 0; e < 2; e++) {
            snprintf(name, sizeof name, "%s_%s", prefix, names[w][e]);
            v->win[w][e] = fget(r, module, name);
        }
    static const char *const spent[3] = {"F_READ_TIME", "F_WRITE_TIME", "F_META_TIME"};
    for (int s = 0; s < 3; s++) {
        snprintf(name, sizeof name, "%s_%s", prefix, spent[s]);
        v->spent[s] = fget(r, module, name);
    }
}

void ri_view_of(const ri_darshan_record *r, unsigned module, ri_view *v)
{
    memset(v, 0, sizeof *v);
    v->module = module;
    v->rec = r;
    for (int k = 0; k < 2; k++)
        v->consec[k] = v->seq[k] = v->maxbyte[k] = -1;
    v->mode = -1;
    if (module == RI_DARSHAN_POSIX) {
        v->opens = pos(pos(get(r, module, "POSIX_OPENS")) -
                       add(pos(get(r, module, "POSIX_FILENOS")), pos(get(r, module, "POSIX_DUPS"))));
        v->n[0] = pos(get(r, module, "POSIX_READS"));
        v->n[1] = pos(get(r, module, "POSIX_WRITES"));
        v->seeks = pos(get(r, module, "POSIX_SEEKS"));
        v->stats = pos(get(r, module, "POSIX_STATS"));
        v->syncs = pos(get(r, module, "POSIX_FSYNCS"));
        v->datasyncs = pos(get(r, module, "POSIX_FDSYNCS"));
        v->mode = get(r, module, "POSIX_MODE");
        v->bytes[0] = pos(get(r, module, "POSIX_BYTES_READ"));
        v->bytes[1] = pos(get(r, module, "POSIX_BYTES_WRITTEN"));
        v->maxbyte[0] = byte_of(get(r, module, "POSIX_MAX_BYTE_READ"));
        v->maxbyte[1] = byte_of(get(r, module, "POSIX_MAX_BYTE_WRITTEN"));
        v->consec[0] = get(r, module, "POSIX_CONSEC_READS");
        v->consec[1] = get(r, module, "POSIX_CONSEC_WRITES");
        v->seq[0] = get(r, module, "POSIX_SEQ_READS");
        v->seq[1] = get(r, module, "POSIX_SEQ_WRITES");
        v->switches = pos(get(r, module, "POSIX_RW_SWITCHES"));
        bins(r, module, "POSIX_SIZE_READ_0_100", v->bins[0]);
        bins(r, module, "POSIX_SIZE_WRITE_0_100", v->bins[1]);
        v->has_bins = 1;
        times(v, r, module, "POSIX");
    } else if (module == RI_DARSHAN_MPIIO) {
        v->coll_opens = pos(get(r, module, "MPIIO_COLL_OPENS"));
        v->opens = add(pos(get(r, module, "MPIIO_INDEP_OPENS")), v->coll_opens);
        v->coll[0] = pos(get(r, module, "MPIIO_COLL_READS"));
        v->coll[1] = pos(get(r, module, "MPIIO_COLL_WRITES"));
        v->n[0] = add(add(v->coll[0], pos(get(r, module, "MPIIO_INDEP_READS"))),
                      add(pos(get(r, module, "MPIIO_SPLIT_READS")), pos(get(r, module, "MPIIO_NB_READS"))));
        v->n[1] = add(add(v->coll[1], pos(get(r, module, "MPIIO_INDEP_WRITES"))),
                      add(pos(get(r, module, "MPIIO_SPLIT_WRITES")), pos(get(r, module, "MPIIO_NB_WRITES"))));
        v->syncs = pos(get(r, module, "MPIIO_SYNCS"));
        v->mode = get(r, module, "MPIIO_MODE");
        v->bytes[0] = pos(get(r, module, "MPIIO_BYTES_READ"));
        v->bytes[1] = pos(get(r, module, "MPIIO_BYTES_WRITTEN"));
        v->switches = pos(get(r, module, "MPIIO_RW_SWITCHES"));
        bins(r, module, "MPIIO_SIZE_READ_AGG_0_100", v->bins[0]);
        bins(r, module, "MPIIO_SIZE_WRITE_AGG_0_100", v->bins[1]);
        v->has_bins = 1;
        times(v, r, module, "MPIIO");
    } else {
        v->opens = pos(get(r, module, "STDIO_OPENS")) - pos(get(r, module, "STDIO_FDOPENS"));
        v->opens = pos(v->opens);
        v->n[0] = pos(get(r, module, "STDIO_READS"));
        v->n[1] = pos(get(r, module, "STDIO_WRITES"));
        v->seeks = pos(get(r, module, "STDIO_SEEKS"));
        v->flushes = pos(get(r, module, "STDIO_FLUSHES"));
        v->bytes[0] = pos(get(r, module, "STDIO_BYTES_READ"));
        v->bytes[1] = pos(get(r, module, "STDIO_BYTES_WRITTEN"));
        v->maxbyte[0] = byte_of(get(r, module, "STDIO_MAX_BYTE_READ"));
        v->maxbyte[1] = byte_of(get(r, module, "STDIO_MAX_BYTE_WRITTEN"));
        times(v, r, module, "STDIO");
    }
    if (module != RI_DARSHAN_STDIO) {
        const char *p = module == RI_DARSHAN_POSIX ? "POSIX" : "MPIIO";
        char name[64];
        for (int i = 0; i < 4; i++) {
            snprintf(name, sizeof name, "%s_ACCESS%d_ACCESS", p, i + 1);
            v->common[i] = get(r, module, name);
            snprintf(name, sizeof name, "%s_ACCESS%d_COUNT", p, i + 1);
            v->common_count[i] = get(r, module, name);
        }
    }
}

int64_t ri_share(int64_t total, uint32_t n, uint32_t r)
{
    if (n <= 1)
        return total;
    return total / n + ((uint64_t)r < (uint64_t)(total % n));
}
