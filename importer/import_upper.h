/* import_upper.h: what import_upper.c (the HDF5 layer's calls of a
 * Darshan log) and import_upper_dset.c (a dataset's shape and calls from
 * its H5D record; an upper call's record) share. */
#ifndef IMPORT_UPPER_H
#define IMPORT_UPPER_H

#include "import_build.h"
#include "import_stat.h"

/* A dimension's length, a type's size and the points of a row at most (a
 * corrupt record's larger ones are taken as 1). */
#define RI_UPPER_MAX_EXTENT ((int64_t)1 << 30)

/* A dataset of the file as one rank sees it. */
typedef struct ri_dset {
    uint64_t id;
    const ri_darshan_record *rec; /* the rank's own, or the rank -1 one */
    uint32_t share_n, share_r;    /* the rank's place among the record's ranks */
    char name[256];
    int ndims, chunked, coll;
    int64_t dims[RI_UPPER_DIMS], chunk[RI_UPPER_DIMS], inner[RI_UPPER_DIMS], tsize;
    int64_t n[2];                            /* the record's reads, writes (every rank's) */
    int64_t *sizes[2];                       /* their sizes */
    int64_t *start[2];                       /* the first row of each */
    double win[2][2];                        /* read, write: first start, last end */
    int64_t opens;                           /* the rank's */
    int64_t space, type, dcpl, mem, memrows; /* handles made on this rank (0: not yet) */
    int created;
} ri_dset;

/* The dataset of an H5D record as a rank sees it (the record reduced to
 * rank -1 shared over nranks, the rank its share): its shape, type, chunks,
 * its calls' sizes and first rows, their windows, the rank's opens. */
int ri_upper_dataset(builder *b, uint32_t rank, const ri_darshan_record *rec, uint32_t nranks, ri_dset *d);
void ri_upper_dataset_free(ri_dset *d);

#endif
