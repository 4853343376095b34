/* ohdr.h: where an object's attributes lie in its object header (ohdr.c).
 * Internal to h5skel. */
#ifndef RECORDER_H5SKEL_OHDR_H
#define RECORDER_H5SKEL_OHDR_H

#include <stddef.h>
#include <stdint.h>

#include "recorder_h5skel.h"

/* Called for each attribute message: its name and the address of the chunk
 * holding it (0: the header's first chunk). */
typedef void (*ohdr_each)(void *data, const char *name, uint64_t chunk);

/* Walks the object header at addr (an HDF5 address, from the superblock at
 * byte base of the file open as fd) and its continuation chunks. 0, or -1
 * for bytes it cannot read (what it reported before stays reported). Dense
 * attribute storage (a fractal heap) holds no attribute messages: none are
 * reported. */
int ohdr_attribute_chunks(int fd, uint64_t base, uint64_t addr, ohdr_each each, void *data);

/* Moves each attribute that lies in a continuation chunk of its object's
 * header (made after the header's first chunk was full) to right before
 * the first object, in making order, whose header lies past that chunk:
 * made again there, the attribute's header grows as the original's did.
 * Rows from `first` on (objects, each followed by its attributes; the root
 * group's, at root_addr, have no object row); fd and base as for
 * ohdr_attribute_chunks. */
void ohdr_place_late_attributes(h5skel *s, size_t first, int fd, uint64_t base, uint64_t root_addr);

/* A dataset's data written after objects were made that lie below it (netCDF-4 defines every variable,
 * then writes them) gets a data row ('w', with the dataset's chunks) right before the first object or
 * late attribute made past the data, or at the end: a re-created file writes it there. Rows from first
 * on; after ohdr_place_late_attributes. */
void ohdr_defer_data(h5skel *s, size_t first);

#endif
