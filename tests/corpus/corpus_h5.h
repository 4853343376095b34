/* corpus_h5.h: what the HDF5 programs of the corpus share: H5OK(call), an
 * HDF5 call that must succeed (its failure names the call and stops the run). */
#ifndef CORPUS_H5_H
#define CORPUS_H5_H

#include <hdf5.h>

#include "corpus.h"

static inline hid_t h5_check(hid_t ret, const char *call)
{
    if (ret < 0)
        corpus_fail("%s failed", call);
    return ret;
}
#define H5OK(call) h5_check((hid_t)(call), #call)

#endif
