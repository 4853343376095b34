/* fuzz.h: what the fuzz targets share. A target is one small file that
 * defines LLVMFuzzerTestOneInput; it is linked either with libFuzzer
 * (clang, -DRECORDER_FUZZ=ON) or with fuzz_main.c, which runs it once over
 * each file named on the command line (regression tests, any compiler).
 *
 * The trace targets take a *container*: the files of a small trace
 * directory, back to back, so that one fuzz input is a whole trace:
 *
 *   input := flags:u8 entry*
 *   entry := name:u8 length:u16 (little-endian) bytes[length]
 *
 * name is an index into fuzz_file_names (modulo their number); a length
 * past the end of the input is cut to what is left; a name given twice
 * keeps the last. Flag bit 0 (FUZZ_FIX_CRC) recomputes every checksum
 * (metadata files, block headers and payloads) before the files are
 * written, so that mutations reach the decoders instead of dying at the
 * CRC check; inputs without it test the checks themselves. The other bits
 * are the target's own (FUZZ_FILTER: a reading cursor that skips blocks). */
#ifndef RECORDER_FUZZ_H
#define RECORDER_FUZZ_H

#include <stddef.h>
#include <stdint.h>

enum { FUZZ_FIX_CRC = 1, FUZZ_FILTER = 2 };

#define FUZZ_NFILES 8
extern const char *const fuzz_file_names[FUZZ_NFILES];

/* A private scratch directory for this process (on /dev/shm when it
 * exists), created on first use and removed at exit. */
const char *fuzz_scratch_dir(void);
/* Removes the scratch directory and what is in it (also at exit; a target
 * that aborts on purpose calls it first). */
void fuzz_remove_scratch(void);

/* Serves the container's files to the reader (format/reader_fs.h) as the
 * trace directory FUZZ_MEMORY_DIR, until the next call; paths elsewhere
 * still go to the file system. Returns the flags byte, or -1 if the input
 * is empty (nothing is served then). */
#define FUZZ_MEMORY_DIR "/recorder-fuzz-memory-trace"
int fuzz_mount(const uint8_t *data, size_t size);

/* Writes the container's files into dir (emptied first: stale files from
 * the previous input would leak into this one). Returns the flags byte, or
 * -1 if the input is empty or the files cannot be written. */
int fuzz_unpack(const uint8_t *data, size_t size, const char *dir);

/* Packs the known files of a trace directory into a container
 * (malloc'ed); seed_tool uses it. Returns the size, 0 on error. */
size_t fuzz_pack(const char *dir, uint8_t flags, uint8_t **out);

/* Opens the trace in dir and reads every record of its first ranks (and,
 * for a merged trace, of the merged stream), rendering each to text in
 * memory as recorder2text would, through the public reader API only.
 * Returns the number of records read; errors are the expected outcome for
 * most inputs and are not reported. */
uint64_t fuzz_walk_trace(const char *dir, unsigned flags);

/* Removes the regular files in dir (not recursive). */
void fuzz_clear_dir(const char *dir);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
