/* recorder_functions.h: the one function table, as data.
 *
 * Every traced function is declared once, in the functions/ .def files, with its layer,
 * stable id, return type and each argument's C type and *kind*. The kind
 * decides how the tracer records an argument, how the text printer shows it,
 * whether the merger treats it as significant, how codegen writes it and how
 * the replayer re-issues it. This header turns the .def files into a
 * descriptor array and gives the kinds their stable numbers (stored in
 * traces, so never renumber one). */
#ifndef RECORDER_FUNCTIONS_H
#define RECORDER_FUNCTIONS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum rec_layer {
    REC_LAYER_POSIX = 0,
    REC_LAYER_MPI = 1,
    REC_LAYER_MPIIO = 2,
    REC_LAYER_HDF5 = 3,
    REC_LAYER_PNETCDF = 4, /* ncmpi_*, above MPI-IO */
    REC_LAYER_NETCDF = 5,  /* nc_* of netCDF-C, above HDF5 and PnetCDF (its netCDF-4 and CDF-5 back ends) */
    REC_LAYER_COUNT
} rec_layer;

/* How an argument's value is stored in a record. */
typedef enum rec_class {
    REC_CLASS_NONE = 0,  /* not stored (buffer contents, opaque out-structs) */
    REC_CLASS_INT = 1,   /* one signed 64-bit integer (zigzag varint) */
    REC_CLASS_PATH = 2,  /* a path, stored as a per-rank path id */
    REC_CLASS_STR = 3,   /* a byte string (names, keys, modes) */
    REC_CLASS_ARRAY = 4, /* a list of signed 64-bit integers */
} rec_class;

/* X(NAME, number, class, one-line meaning). Numbers are part of the trace
 * format: add new kinds at the end, never reuse or renumber. */
#define REC_KIND_LIST(X)                                                        \
    X(NONE, 0, NONE, "not recorded")                                            \
    X(INT, 1, INT, "plain integer")                                             \
    X(SIZE, 2, INT, "size in bytes (or a byte count returned)")                 \
    X(COUNT, 3, INT, "element count")                                           \
    X(OFFSET, 4, INT, "file offset in bytes")                                   \
    X(WHENCE, 5, INT, "lseek/fseek whence")                                     \
    X(OFLAGS, 6, INT, "open(2) flags")                                          \
    X(MODE, 7, INT, "permission bits (mode_t)")                                 \
    X(ACCESS_MODE, 8, INT, "access(2) mode: F_OK or R_OK|W_OK|X_OK")            \
    X(AT_FLAGS, 9, INT, "*at(2) flags (AT_SYMLINK_NOFOLLOW, ...)")              \
    X(FCNTL_CMD, 10, INT, "fcntl(2) command")                                   \
    X(MMAP_PROT, 11, INT, "mmap protection")                                    \
    X(MMAP_FLAGS, 12, INT, "mmap/msync flags")                                  \
    X(PATH, 13, PATH, "file system path")                                       \
    X(STRING, 14, STR, "name or other string")                                  \
    X(STDIO_MODE, 15, STR, "fopen mode string")                                 \
    X(FD, 16, INT, "file descriptor (per-rank handle id)")                      \
    X(DIRFD, 17, INT, "directory fd or AT_FDCWD")                               \
    X(FILE_STREAM, 18, INT, "FILE* (per-rank handle id)")                       \
    X(DIR_STREAM, 19, INT, "DIR* (per-rank handle id)")                         \
    X(MAPPING, 20, INT, "mmap'ed region (per-rank handle id)")                  \
    X(BUFFER, 21, NONE, "data buffer: its size is another argument")            \
    X(IOVEC, 22, ARRAY, "struct iovec array, recorded as the lengths")          \
    X(STATBUF, 23, INT, "struct stat out: recorded as st_size, -1 if unset")    \
    X(FORMAT, 24, NONE, "printf format: the byte count is the return value")    \
    X(MPI_COMM, 25, INT, "MPI_Comm (per-rank handle id)")                       \
    X(MPI_DATATYPE, 26, INT, "MPI_Datatype (per-rank handle id)")               \
    X(MPI_OP, 27, INT, "MPI_Op")                                                \
    X(MPI_INFO, 28, INT, "MPI_Info (per-rank handle id)")                       \
    X(MPI_REQUEST, 29, INT, "MPI_Request (per-rank handle id)")                 \
    X(MPI_FILE, 30, INT, "MPI_File (per-rank handle id)")                       \
    X(MPI_STATUS, 31, INT, "MPI_Status out: recorded as bytes transferred")     \
    X(MPI_RANK, 32, INT, "peer or root rank")                                   \
    X(MPI_TAG, 33, INT, "message tag")                                          \
    X(MPI_AMODE, 34, INT, "MPI_File_open access mode")                          \
    X(MPI_THREAD_LEVEL, 35, INT, "MPI thread support level")                    \
    X(MPI_ORDER, 36, INT, "array order (MPI_ORDER_C, MPI_ORDER_FORTRAN)")       \
    X(MPI_ERROR, 37, INT, "MPI error class")                                    \
    X(ARRAY, 38, ARRAY, "integer array")                                        \
    X(MPI_DATATYPE_ARRAY, 39, ARRAY, "array of MPI_Datatype handle ids")        \
    X(MPI_REQUEST_ARRAY, 40, ARRAY, "array of MPI_Request handle ids")          \
    X(MPI_STATUS_ARRAY, 41, ARRAY, "array of MPI_Status: bytes transferred")    \
    X(H5_FILE, 42, INT, "HDF5 file id")                                         \
    X(H5_GROUP, 43, INT, "HDF5 group id")                                       \
    X(H5_DATASET, 44, INT, "HDF5 dataset id")                                   \
    X(H5_SPACE, 45, INT, "HDF5 dataspace id (H5S_ALL = 0)")                     \
    X(H5_PLIST, 46, INT, "HDF5 property list id (H5P_DEFAULT = 0)")             \
    X(H5_ATTR, 47, INT, "HDF5 attribute id")                                    \
    X(H5_TYPE, 48, INT, "HDF5 datatype id")                                     \
    X(H5_LOC, 49, INT, "HDF5 location id (file, group, dataset, ...)")          \
    X(H5_PLIST_CLASS, 50, INT, "HDF5 property list class")                      \
    X(H5_FACC, 51, INT, "H5F access flags (H5F_ACC_*)")                         \
    X(H5_SELOP, 52, INT, "H5S selection operator")                              \
    X(H5_XFER_MODE, 53, INT, "H5FD_mpio_xfer_t (independent/collective)")       \
    X(H5_LAYOUT, 54, INT, "H5D_layout_t")                                       \
    X(H5_ALLOC_TIME, 55, INT, "H5D_alloc_time_t")                               \
    X(H5_SCOPE, 56, INT, "H5F_scope_t")                                         \
    X(H5_TCLASS, 57, INT, "H5T_class_t")                                        \
    X(H5_SCLASS, 58, INT, "H5S_class_t")                                        \
    X(H5_BOOL, 59, INT, "hbool_t / htri_t")                                     \
    X(H5_HERR, 60, INT, "herr_t: negative on failure")                          \
    X(HSIZE, 61, INT, "hsize_t")                                                \
    X(HSIZE_ARRAY, 62, ARRAY, "hsize_t array (dims, start, stride, count)")     \
    X(DOUBLE, 63, INT, "floating-point value, stored as its IEEE-754 bits")     \
    X(BOOL, 64, INT, "boolean")                                                 \
    X(STRING_OUT, 65, STR, "string returned through an out argument")           \
    X(ADDRESS, 66, NONE, "memory address: never recorded")                      \
    X(MPI_DISTRIB_ARRAY, 67, ARRAY, "MPI_DISTRIBUTE_* per dimension")           \
    X(H5_FILL_TIME, 68, INT, "H5D_fill_time_t")                                 \
    X(ERRNO, 69, INT, "errno after the call (0 if it succeeded)")               \
    X(THREAD_ID, 70, INT, "a thread: the id its records carry (0: the first, then 1, 2, ... as they start)") \
    X(SIGNED_COUNT, 71, INT, "signed count or length (-1 = until end)")         \
    X(MPI_COMM_SPLIT_TYPE, 72, INT, "MPI_Comm_split_type kind")                 \
    X(H5_INDEX, 73, INT, "H5_index_t")                                          \
    X(H5_ITER_ORDER, 74, INT, "H5_iter_order_t")                                \
    X(H5_OBJ_TYPE, 75, INT, "H5O_type_t / H5I_type_t")                                       \
    X(MPI_FILE_POS, 76, INT, "file position in etype units")                    \
    X(STRLEN, 77, INT, "C string, recorded as its length only")             \
    X(MPI_GROUP, 78, INT, "MPI_Group (per-rank handle id)")                     \
    X(MPI_WHENCE, 79, INT, "MPI_File_seek whence (MPI_SEEK_SET/CUR/END)")       \
    X(H5_ENCODED, 80, STR, "an HDF5 object as H5Sencode/H5Tencode/H5Pencode wrote it")     \
    X(CALLBACK, 81, INT, "an application function a library calls back: 1, 2, ... as first seen") \
    X(H5_VALUE, 82, STR, "an HDF5 value the call writes (attribute, fill value), by meaning: h5value.c.tmpl") \
    X(OP_CALLS, 83, INT, "how many times the call called its operator: the last call returned the call's result") \
    X(MPI_ERRHANDLER, 84, INT, "MPI_Errhandler (per-rank handle id)") \
    X(SCAN_FORMAT, 85, NONE, "scanf format: the conversions are the return value, the bytes read a DERIVED SIZE") \
    X(NC_ID, 86, INT, "netCDF or PnetCDF file id (per-rank handle id)") \
    X(NC_VARID, 87, INT, "a variable's id in its file (NC_GLOBAL: -1), the same in every run that defines the same")          \
    X(NC_DIMID, 88, INT, "a dimension's id in its file")                          \
    X(NC_TYPE, 89, INT, "nc_type (NC_FLOAT, ...)")                                \
    X(NC_MODE, 90, INT, "netCDF create, open or fill mode (NC_CLOBBER|NC_64BIT_DATA, NC_NOFILL, ...)") \
    X(NC_REQUEST, 91, INT, "PnetCDF nonblocking request (per-rank handle id; NC_REQ_NULL: -1)") \
    X(NC_REQUEST_ARRAY, 92, ARRAY, "array of PnetCDF request ids")            \
    X(NC_VALUES, 93, STR, "values a netCDF call stores as metadata (attribute, fill value): their bytes in memory") \
    X(NC_ERROR, 94, INT, "netCDF status (NC_NOERR, NC_E...)")                 \
    X(NC_DIMID_ARRAY, 95, ARRAY, "array of dimension ids")                    \
    X(NC_FORMAT, 96, INT, "netCDF file format (NC_FORMAT_CLASSIC, NC_FORMAT_CDF5, ...)") \
    X(NC_FILL_MODE, 97, INT, "netCDF fill mode (NC_FILL, NC_NOFILL)") \
    X(NC_HEADER, 98, STR, "the header a netCDF classic file began with when the call opened it (kernels write it before the run)") \
    X(NC_OFFSET_ROWS, 99, ARRAY, "rows of a variable's rank, one a subarray (PnetCDF varn's starts and counts; mput's, a variable each, of the file's widest rank), row after row") \
    X(NC_PAR_ACCESS, 100, INT, "netCDF parallel access of a variable (NC_INDEPENDENT, NC_COLLECTIVE)") \
    X(NC_STORAGE, 101, INT, "netCDF-4 variable storage (NC_CHUNKED, NC_CONTIGUOUS, NC_COMPACT)") \
    X(NC_ENDIAN, 102, INT, "netCDF-4 variable byte order (NC_ENDIAN_NATIVE, NC_ENDIAN_LITTLE, NC_ENDIAN_BIG)") \
    X(NC_STRINGS, 103, STR, "netCDF attribute strings (nc_put_att_string): their count (u32, little-endian), then each string and a NUL, as many as fit RT_MAX_NC_VALUES (the rest empty; a NULL one empty)") \
    X(NC_VARID_ARRAY, 104, ARRAY, "array of variable ids (PnetCDF mput's varids)") \
    X(BUFFER_ARRAY, 105, ARRAY, "data buffers, one a row of the call's ROWS argument (PnetCDF mput's bufs): each one's distance in bytes from the first's, their layout") \
    X(NC_STRING_LENGTHS, 106, ARRAY, "the lengths of the NC_STRING values a netCDF put writes (-1: NULL), never their characters") \
    X(PTHREAD_BARRIER, 107, INT, "pthread_barrier_t (per-rank handle id of the object at its address)") \
    X(ROW_BYTES, 110, ARRAY, "the bytes each row of the call's ROWS argument moved (PnetCDF mput's and mget's: a variable each)") \
    X(NC_VLEN_LENGTHS, 111, ARRAY, "the nc_vlen_t values a netCDF put writes: the size of an element of their base type, then each one's length in elements, never their data") \
    X(H5_STRING_LENGTHS, 112, ARRAY, "the variable-length strings an H5Dwrite writes: each one's length (-1: NULL), from the buffer's first element to the last its memory selection selects (-1: one it does not), never their characters") \
    X(H5_VLEN_LENGTHS, 113, ARRAY, "the hvl_t sequences an H5Dwrite writes: the size of an element of their base type, then each one's length in elements, from the buffer's first element to the last its memory selection selects (0: one it does not), never their data")

/* An H5_VALUE field this long (a byte, shorter than any value) stands for a
 * value the trace does not keep (RECORDER_ATTR_VALUES=0, or past
 * RECORDER_ATTR_VALUE_MAX); an empty one for none (a NULL pointer). */
#define REC_H5_VALUE_UNKEPT 1

typedef enum rec_kind {
#define REC_KIND_ENUM_(name, num, cls, doc) REC_KIND_##name = num,
    REC_KIND_LIST(REC_KIND_ENUM_)
#undef REC_KIND_ENUM_
    REC_KIND_LIMIT
} rec_kind;

/* Per-argument flags. */
enum {
    REC_ARG_IN = 1u << 0,    /* read by the function */
    REC_ARG_OUT = 1u << 1,   /* written by the function (recorded after the call) */
    REC_ARG_SIG = 1u << 2,   /* significant for merging (part of the signature) */
    REC_ARG_CREATE = 1u << 3, /* an out handle that this call creates */
    REC_ARG_VA = 1u << 4,     /* passed through the "..." of a variadic prototype */
    REC_ARG_DERIVED = 1u << 5 /* not a C parameter: a value the tracer computes after
                                 the call from the expression in `len` (bytes moved) */
};

/* Per-function flags. */
enum {
    REC_FN_VARIADIC = 1u << 0,   /* C variadic (open's mode, fcntl's arg, printf) */
    REC_FN_COLLECTIVE = 1u << 1, /* collective over the communicator/file */
    REC_FN_CREATES = 1u << 2,    /* returns a new handle */
    REC_FN_DESTROYS = 1u << 3,   /* releases the handle in its first argument (REC_ARG_SUBJECT) */
    REC_FN_DATA = 1u << 4,       /* moves data: bytes counted as I/O */
    REC_FN_READ = 1u << 5,       /* the data moves from file to memory */
    REC_FN_WRITE = 1u << 6,      /* the data moves from memory to file */
    REC_FN_META = 1u << 7,       /* file system metadata operation */
    REC_FN_NONBLOCKING = 1u << 8, /* starts an operation a request completes */
    REC_FN_NODECL = 1u << 9,      /* current headers do not declare it (legacy ABI) */
    REC_FN_OPAQUE = 1u << 10      /* what it calls is its own business: not traced */
};

/* What a call means beyond its argument kinds: its roles. Roles live in the
 * compiled-in table only, never in a trace's bytes; a trace's own table gets
 * them from the compiled-in entry of the same name and argument kinds
 * (rec_func_same_kinds), so consumers ask f->roles whatever table f came
 * from. A role is declared once, on the .def line (functions/README.md). */
enum {
    REC_ROLE_TELLS_POSITION = 1u << 0,   /* returns the file position after the call (lseek, ftell) */
    REC_ROLE_SEEKS = 1u << 1,            /* sets the position from its offset and whence arguments */
    REC_ROLE_REWINDS = 1u << 2,          /* sets the position to the start of the file */
    REC_ROLE_REPORTS_POSITION = 1u << 3, /* an out argument is the (individual) file position */
    REC_ROLE_SETS_SIZE = 1u << 4,        /* the file's size becomes its OFFSET argument (truncate) */
    REC_ROLE_GROWS_SIZE = 1u << 5,       /* the file is at least its OFFSET argument long (preallocate) */
    REC_ROLE_REPORTS_SIZE = 1u << 6,     /* an out OFFSET argument is the file's size */
    REC_ROLE_TRUNCATES = 1u << 7,        /* opens for writing, truncated, without a flags argument (creat) */
    REC_ROLE_SETS_VIEW = 1u << 8,        /* sets an MPI file view (displacement, etype, filetype) */
    REC_ROLE_SHARED_POINTER = 1u << 9,   /* moves data at, or moves, the shared file pointer */
    REC_ROLE_NOFOLLOW = 1u << 10,        /* acts on a symbolic link itself, not on what it names (lstat) */
    REC_ROLE_MAKES_DIR = 1u << 11,       /* creates the directory its NEW_PATH argument names */
    REC_ROLE_OPENS_DIR = 1u << 12,       /* its PATH argument is a directory (opendir) */
    REC_ROLE_DIR_ENTRY = 1u << 13,       /* returns a directory entry, in the file system's order */
    REC_ROLE_WORKING_DIR = 1u << 14,     /* returns the process's working directory */
    REC_ROLE_NAME_LENGTH = 1u << 15,     /* returns the length of its LINK_TARGET or FILE_NAME out argument */
    REC_ROLE_STARTS_MPI = 1u << 16,      /* MPI_Init and its kin: the run's MPI starts here */
    REC_ROLE_ENDS_MPI = 1u << 17,        /* MPI_Finalize */
    REC_ROLE_ABORTS = 1u << 18,          /* ends every process of the run */
    REC_ROLE_REPORTS_TYPE_SIZE = 1u << 19,   /* an out argument is its datatype's size */
    REC_ROLE_REPORTS_TYPE_EXTENT = 1u << 20, /* out arguments are its datatype's lower bound and extent */
    REC_ROLE_SETS_TYPE_SIZE = 1u << 21,      /* sets its datatype's size from its SIZE argument */
    REC_ROLE_SELECTS = 1u << 22,             /* changes a dataspace's selection */
    REC_ROLE_LARGE_COUNT = 1u << 23,         /* an MPI-4 large-count twin (X_c of X): same roles and
                                                argument order, counts as MPI_Count */
    REC_ROLE_OPENS_H5_FILE = 1u << 24,       /* opens an existing HDF5 file by its PATH argument: the tracer
                                                captures the structure of one the run did not create */
    REC_ROLE_READS_LINE = 1u << 25,          /* reads up to and including a delimiter ('\n', or its
                                                DELIMITER argument), at most its SIZE argument less one
                                                byte when it has one (fgets, getline) */
    REC_ROLE_CLOSES_DATASET = 1u << 26,      /* closes an HDF5 dataset (SUBJECT): the tracer records, right
                                                before, what its filters stored (N.h5store) */
    REC_ROLE_REMOVES_PATH = 1u << 27,        /* removes the file (or directory) its PATH argument names */
    REC_ROLE_ADDS_REFERENCE = 1u << 28,      /* one more reference to its SUBJECT handle, which lives on until
                                                every reference is dropped; a COUNT result is the new count */
    REC_ROLE_DROPS_REFERENCE = 1u << 29,     /* one reference fewer to its SUBJECT handle, released at none; a
                                                COUNT result is the new count (H5Idec_ref) */
    /* Which MPI headers declare it (functions/rec_mpi_versions.h): */
    REC_ROLE_SINCE_MPI4 = 1u << 30,   /* an MPI-4.0 addition: an MPI of an older version lacks it */
    REC_ROLE_REMOVED_MPI3 = 1u << 31, /* removed by MPI-3.0: an MPI may no longer declare it */
};

/* How a call builds what it creates (or, for selections, what it selects):
 * the consumers that model objects (datatype layouts, dataspace sizes)
 * switch on this, reading the arguments by their roles (REC_AROLE_*). */
#define REC_SHAPE_LIST(X)                                                                       \
    X(NONE, "")                                                                                 \
    X(TYPE_CONTIGUOUS, "count copies of oldtype, back to back")                                \
    X(TYPE_VECTOR, "count blocks of blocklength oldtypes, stride oldtype extents apart")        \
    X(TYPE_HVECTOR, "as TYPE_VECTOR, stride in bytes")                                          \
    X(TYPE_INDEXED, "blocks of blocklengths[i] oldtypes at displacements[i] oldtype extents")   \
    X(TYPE_HINDEXED, "as TYPE_INDEXED, displacements in bytes")                                 \
    X(TYPE_INDEXED_BLOCK, "as TYPE_INDEXED, one blocklength for every block")                   \
    X(TYPE_HINDEXED_BLOCK, "as TYPE_HINDEXED, one blocklength for every block")                 \
    X(TYPE_SUBARRAY, "a subarray (subsizes at starts) of an array of sizes")                    \
    X(TYPE_DARRAY, "a distributed array's block of an array of sizes (gsizes)")                 \
    X(TYPE_STRUCT, "blocks of blocklengths[i] types[i] at byte displacements[i]")               \
    X(TYPE_RESIZED, "oldtype with a new lower bound and extent")                                \
    X(TYPE_DUP, "a copy of oldtype")                                                            \
    X(COMM_DUP, "a communicator with the members of another")                                   \
    X(COMM_SPLIT, "communicators of the members that gave one colour, ordered by key")          \
    X(COMM_SPLIT_TYPE, "communicators of the members that share a resource")                    \
    X(COMM_CREATE, "a communicator of a group's members (collective over the parent)")          \
    X(COMM_CREATE_GROUP, "a communicator of a group's members (collective over the group)")     \
    X(COMM_CART, "a Cartesian communicator")                                                    \
    X(GROUP_OF_COMM, "the group of a communicator's members")                                   \
    X(GROUP_OF_FILE, "the group of the processes that opened a file")                           \
    X(GROUP_INCL, "the group of some members of another, listed by rank")                       \
    X(GROUP_EXCL, "the group of another's members but those listed")                            \
    X(GROUP_RANGE_INCL, "the group of some members of another, as (first, last, stride) ranges") \
    X(GROUP_RANGE_EXCL, "the group of another's members but those of the ranges")               \
    X(GROUP_UNION, "the members of either group")                                               \
    X(GROUP_INTERSECTION, "the members of both groups")                                         \
    X(GROUP_DIFFERENCE, "the members of the first group that are not in the second")            \
    X(COMM_CART_SUB, "communicators of a Cartesian grid's sub-grids")                           \
    X(SPACE_SIMPLE, "a simple dataspace of dims")                                               \
    X(SPACE_CLASS, "a dataspace of a class (scalar: one point, null: none)")                    \
    X(SPACE_COPY, "a copy of a dataspace")                                                      \
    X(TYPE_COPY_H5, "a copy of an HDF5 datatype (or of a dataset's)")                           \
    X(TYPE_CREATE_H5, "an HDF5 datatype of a class and a size")                                 \
    X(TYPE_ARRAY_H5, "an HDF5 array datatype of dims base types")                               \
    X(PLIST_CREATE, "a property list of a class")                                               \
    X(DATASET_CREATE, "a dataset of a datatype and a dataspace")                                \
    X(SELECT_HYPERSLAB, "a hyperslab selection (start, stride, count, block)")                  \
    X(SELECT_ELEMENTS, "a selection of points")                                                 \
    X(SELECT_ALL, "the whole extent")                                                           \
    X(SELECT_NONE, "nothing")

typedef enum rec_shape {
#define REC_SHAPE_ENUM_(name, doc) REC_SHAPE_##name,
    REC_SHAPE_LIST(REC_SHAPE_ENUM_)
#undef REC_SHAPE_ENUM_
    REC_SHAPE_LIMIT
} rec_shape;

/* The header that declares a function, beyond what every generated
 * program includes. */
typedef enum rec_header {
    REC_HEADER_NONE = 0,
    REC_HEADER_DIRENT,  /* <dirent.h> */
    REC_HEADER_UIO,     /* <sys/uio.h> */
    REC_HEADER_MMAN,    /* <sys/mman.h> */
    REC_HEADER_UTIME,   /* <utime.h> and <sys/time.h> */
    REC_HEADER_WCHAR,   /* <wchar.h> */
    REC_HEADER_PTHREAD, /* <pthread.h> */
    REC_HEADER_LAST = REC_HEADER_PTHREAD
} rec_header;

/* What one argument means in its call: consumers find arguments by role
 * (rec_arg_with_role), so functions that share a role need not share
 * positions. At most one role an argument. */
#define REC_AROLE_LIST(X)                                                                       \
    X(NONE, "")                                                                                 \
    X(NEW_PATH, "the path the call creates (creat, mkdir, link's and rename's new name)")      \
    X(LINK_TARGET, "a symbolic link's target: a path stored, not opened")                       \
    X(LINK_FILE, "the file an external link names, which need not exist")                      \
    X(FILE_NAME, "a string holding the name a file was opened as")                              \
    X(COUNT, "how many blocks (or elements)")                                                   \
    X(BLOCKLENGTH, "the length of every block, in oldtypes")                                    \
    X(BLOCKLENGTHS, "the length of each block")                                                 \
    X(STRIDE, "the distance between blocks")                                                    \
    X(DISPLACEMENTS, "where each block starts")                                                 \
    X(OLDTYPE, "the datatype the new one is made of (or copied from)")                         \
    X(TYPES, "the datatype of each block")                                                      \
    X(SIZES, "the whole array's size in each dimension")                                        \
    X(SUBSIZES, "the selected part's size in each dimension")                                   \
    X(STARTS, "where the selected part starts in each dimension")                               \
    X(LOWER_BOUND, "a datatype's lower bound")                                                  \
    X(EXTENT, "a datatype's extent")                                                            \
    X(TYPE_SIZE, "a datatype's size in bytes")                                                  \
    X(DIMS, "a dataspace's (or array type's) size in each dimension")                           \
    X(SPACE, "the dataspace the call reads (or copies)")                                        \
    X(MEM_TYPE, "the datatype of the data in memory")                                           \
    X(MEM_SPACE, "the memory dataspace (H5S_ALL: the file's)")                                  \
    X(FILE_SPACE, "the file dataspace (H5S_ALL: the dataset's)")                                \
    X(DATASET, "the dataset the call reads or writes")                                          \
    X(VIEW_DISP, "a file view's displacement, in bytes")                                        \
    X(VIEW_ETYPE, "a file view's elementary datatype")                                          \
    X(VIEW_FILETYPE, "a file view's filetype")                                                  \
    X(GROUP, "the group whose members the new object has")                                      \
    X(RANKS, "ranks of the members")                                                            \
    X(MAXDIMS, "a dataspace's largest size in each dimension")                                  \
    X(BLOCK, "a hyperslab block's size in each dimension")                                      \
    X(COORDS, "points' coordinates, one point after another")                                   \
    X(INFO_KEY, "an info object's key")                                                         \
    X(INFO_VALUE, "the value of an info object's key")                                          \
    X(DELIMITER, "the byte that ends what a line-oriented read reads")                        \
    X(CACHE_CONFIG, "an HDF5 metadata cache configuration, a get fills, a set takes")            \
    X(REF_TYPE, "an HDF5 reference's type (H5R_OBJECT, H5R_DATASET_REGION): its memory type") \
    X(ROWS, "how many rows the call's NC_OFFSET_ROWS arrays, its BUFFER_ARRAY and its ROW_BYTES hold (PnetCDF varn's num, mput's nvars)")

typedef enum rec_arole {
#define REC_AROLE_ENUM_(name, doc) REC_AROLE_##name,
    REC_AROLE_LIST(REC_AROLE_ENUM_)
#undef REC_AROLE_ENUM_
    REC_AROLE_LIMIT
} rec_arole;

/* What only one function does: the call a consumer makes when it must make
 * one itself (the tracer's rebuilt handles, tracer/rebuild.c), found by
 * rec_function_with_sole. gen_functions requires exactly one function of
 * each, never a large-count twin, with the arguments its consumers read
 * (by role, by kind or as REC_ARG_SUBJECT); "made" is the handle it makes,
 * its NEW argument or its return value. */
#define REC_SOLE_LIST(X)                                                                         \
    X(NONE, "")                                                                                  \
    X(COMM_GROUP, "gives the group of a communicator's members (made from its MPI_COMM)")        \
    X(GROUP_OF_RANKS, "makes the group of a GROUP's members listed by rank (RANKS)")             \
    X(COMM_OF_GROUP, "makes a communicator of a GROUP's members, collective over them alone")   \
    X(FREES_GROUP, "frees a group (SUBJECT)")                                                    \
    X(EMPTY_INFO, "makes an info object without keys")                                           \
    X(SETS_INFO_KEY, "sets one key of an info object (SUBJECT) to a value (INFO_KEY, INFO_VALUE)") \
    X(COMMITS_TYPE, "commits an MPI datatype (SUBJECT)")                                         \
    X(SPACE_OF_CLASS, "makes a dataspace of a class (H5_SCLASS): scalar or null")                \
    X(SIMPLE_SPACE, "makes a simple dataspace (DIMS, MAXDIMS)")                                  \
    X(SELECTS_HYPERSLAB, "selects a hyperslab of a dataspace (SUBJECT; STARTS, STRIDE, COUNT, BLOCK)") \
    X(SELECTS_POINTS, "selects points of a dataspace (SUBJECT; COUNT points at COORDS)")         \
    X(SELECTS_NONE, "selects nothing of a dataspace (SUBJECT)")                                 \
    X(COPIES_H5_TYPE, "copies an HDF5 datatype (OLDTYPE)")                                       \
    X(H5_TYPE_OF_CLASS, "makes an HDF5 datatype of a class (H5_TCLASS) and a size (TYPE_SIZE)")  \
    X(SETS_H5_TYPE_SIZE, "sets an HDF5 datatype's (SUBJECT) size (TYPE_SIZE)")                   \
    X(PLIST_OF_CLASS, "makes a property list of a class (H5_PLIST_CLASS)")                      \
    X(OPENS_H5_OBJECT, "opens an HDF5 group, dataset or named datatype by its name (STRING) at a location (H5_LOC)") \
    X(CLOSES_H5_OBJECT, "closes what OPENS_H5_OBJECT opened (SUBJECT)") \
    X(OP_OF_CALLBACK, "makes a reduction (MPI_OP) of a function (CALLBACK), commutative or not (BOOL)") \
    X(OPENS_FD, "opens a file by its PATH with open(2) flags (OFLAGS) and a MODE, making an FD")       \
    X(CLOSES_FD, "closes an FD (SUBJECT)")                                                           \
    X(READS_FD_AT, "reads SIZE bytes of an FD (SUBJECT) at an OFFSET, the file position unmoved")     \
    X(WRITES_FD_AT, "writes SIZE bytes to an FD (SUBJECT) at an OFFSET, the file position unmoved")   \
    X(OPENS_MPI_FILE, "opens a file (PATH) over an MPI_COMM with an MPI_AMODE, making an MPI_FILE")   \
    X(CLOSES_MPI_FILE, "closes an MPI_FILE (SUBJECT)")                                               \
    X(READS_MPI_FILE_AT, "reads COUNT MPI_DATATYPEs of an MPI_FILE (SUBJECT) at an MPI_FILE_POS, independently") \
    X(READS_MPI_FILE_AT_ALL, "as READS_MPI_FILE_AT, collectively")                                  \
    X(WRITES_MPI_FILE_AT, "writes COUNT MPI_DATATYPEs to an MPI_FILE (SUBJECT) at an MPI_FILE_POS, independently") \
    X(WRITES_MPI_FILE_AT_ALL, "as WRITES_MPI_FILE_AT, collectively")                                \
    X(STARTS_MPI_RUN, "starts MPI, without a thread level")                                          \
    X(ENDS_MPI_RUN, "ends MPI")                                                                     \
    X(STARTS_THREAD, "starts a thread (its THREAD_ID, the id of the new thread's records), running code of the program's") \
    X(WAITS_AT_BARRIER, "waits at a barrier (SUBJECT) for its count of threads: one, whichever the library picks, gets a result of its own") \
    X(SEEKS_FD, "moves an FD's (SUBJECT) file position to an OFFSET (WHENCE)")                       \
    X(STATS_PATH, "asks a file's status by its PATH")                                                \
    X(SYNCS_FD, "flushes an FD's (SUBJECT) data and metadata to storage")                            \
    X(SYNCS_FD_DATA, "flushes an FD's (SUBJECT) data to storage")                                    \
    X(SYNCS_MPI_FILE, "flushes an MPI_FILE (SUBJECT) to storage, collectively")                      \
    X(GETS_MPI_FILE_SIZE, "asks an MPI_FILE's (SUBJECT) size, its OFFSET out (ROMIO seeks to the file's end for it)") \
    X(OPENS_STREAM, "opens a file by its PATH with a STDIO_MODE, making a FILE_STREAM")              \
    X(CLOSES_STREAM, "closes a FILE_STREAM (SUBJECT)")                                               \
    X(READS_STREAM, "reads COUNT items of a SIZE from a FILE_STREAM at its position")                \
    X(WRITES_STREAM, "writes COUNT items of a SIZE to a FILE_STREAM at its position")                \
    X(SEEKS_STREAM, "moves a FILE_STREAM's (SUBJECT) position to an OFFSET (WHENCE)")                \
    X(FLUSHES_STREAM, "writes a FILE_STREAM's (SUBJECT) buffered data out")                        \
    X(CREATES_H5_FILE, "creates an HDF5 file by its PATH (H5_FACC) with a creation and an access H5_PLIST, making an H5_FILE") \
    X(OPENS_H5_FILE, "opens an HDF5 file by its PATH (H5_FACC) with an access H5_PLIST, making an H5_FILE") \
    X(CLOSES_H5_FILE, "closes an H5_FILE (SUBJECT)")                                                \
    X(SETS_FAPL_MPIO, "sets a file access H5_PLIST's (SUBJECT) driver to MPI-IO over an MPI_COMM with an MPI_INFO") \
    X(SETS_DXPL_MPIO, "sets a transfer H5_PLIST's (SUBJECT) H5_XFER_MODE: collective or independent") \
    X(SETS_CHUNK, "sets a dataset creation H5_PLIST's (SUBJECT) chunk dimensions (COUNT of them, an HSIZE_ARRAY)") \
    X(CREATES_DATASET, "creates a dataset at an H5_LOC by its STRING name, of an H5_TYPE and an H5_SPACE, with three H5_PLISTs (link creation, creation, access)") \
    X(OPENS_DATASET, "opens a dataset at an H5_LOC by its STRING name with an access H5_PLIST")      \
    X(CLOSES_DATASET, "closes an H5_DATASET (SUBJECT)")                                             \
    X(WRITES_DATASET, "writes a DATASET's selection (MEM_TYPE, MEM_SPACE, FILE_SPACE) with a transfer H5_PLIST, the SIZE in bytes derived") \
    X(READS_DATASET, "reads a DATASET's selection (MEM_TYPE, MEM_SPACE, FILE_SPACE) with a transfer H5_PLIST, the SIZE in bytes derived") \
    X(CREATES_NC_FILE, "creates a PnetCDF file by its PATH over an MPI_COMM with an NC_MODE, making an NC_ID in define mode") \
    X(OPENS_NC_FILE, "opens a PnetCDF file by its PATH over an MPI_COMM with an NC_MODE, making an NC_ID") \
    X(CLOSES_NC_FILE, "closes an NC_ID (SUBJECT), collectively") \
    X(DEFINES_NC_DIM, "defines a dimension of an NC_ID (SUBJECT) by its STRING name and its COUNT length (NC_UNLIMITED: 0), its NC_DIMID out") \
    X(DEFINES_NC_VAR, "defines a variable of an NC_ID (SUBJECT) by its STRING name, NC_TYPE and COUNT dimensions (an NC_DIMID_ARRAY), its NC_VARID out") \
    X(ENDS_NC_DEFINE, "ends an NC_ID's (SUBJECT) define mode, collectively") \
    X(BEGINS_NC_INDEP, "enters an NC_ID's (SUBJECT) independent data mode, collectively") \
    X(ENDS_NC_INDEP, "leaves an NC_ID's (SUBJECT) independent data mode for the collective one, collectively") \
    X(WRITES_NC_VARA, "writes a subarray (STARTS, COUNT) of a variable (NC_VARID) of an NC_ID (SUBJECT) from COUNT elements of an MPI_DATATYPE, independently") \
    X(WRITES_NC_VARA_ALL, "as WRITES_NC_VARA, collectively") \
    X(READS_NC_VARA, "reads a subarray (STARTS, COUNT) of a variable (NC_VARID) of an NC_ID (SUBJECT) into COUNT elements of an MPI_DATATYPE, independently") \
    X(READS_NC_VARA_ALL, "as READS_NC_VARA, collectively") \
    X(STARTS_NC_WRITE_VARA, "starts a nonblocking WRITES_NC_VARA, making an NC_REQUEST") \
    X(STARTS_NC_READ_VARA, "starts a nonblocking READS_NC_VARA, making an NC_REQUEST") \
    X(WAITS_NC_ALL, "completes an NC_ID's (SUBJECT) nonblocking requests, COUNT of them (NC_REQ_ALL: -1, every pending one), collectively")

typedef enum rec_sole {
#define REC_SOLE_ENUM_(name, doc) REC_SOLE_##name,
    REC_SOLE_LIST(REC_SOLE_ENUM_)
#undef REC_SOLE_ENUM_
    REC_SOLE_LIMIT
} rec_sole;

/* MPI_Type_get_envelope's combiners the table has a constructor for
 * (COMBINER(...) on the constructor's NEW argument), with the MPI version
 * that defines MPI_COMBINER_<name>. */
#define REC_COMBINER_LIST(X)                                                                     \
    X(NONE, 0)                                                                                   \
    X(DUP, 2)                                                                                    \
    X(CONTIGUOUS, 2)                                                                             \
    X(VECTOR, 2)                                                                                 \
    X(HVECTOR, 2)                                                                                \
    X(INDEXED, 2)                                                                                \
    X(HINDEXED, 2)                                                                               \
    X(INDEXED_BLOCK, 2)                                                                          \
    X(HINDEXED_BLOCK, 3)                                                                         \
    X(STRUCT, 2)                                                                                 \
    X(SUBARRAY, 2)                                                                               \
    X(DARRAY, 2)                                                                                 \
    X(RESIZED, 2)

typedef enum rec_combiner {
#define REC_COMBINER_ENUM_(name, since) REC_COMBINER_##name,
    REC_COMBINER_LIST(REC_COMBINER_ENUM_)
#undef REC_COMBINER_ENUM_
    REC_COMBINER_LIMIT
} rec_combiner;

/* Where a datatype constructor's argument comes from in what
 * MPI_Type_get_contents returns for the type it made: one element, or
 * (each) n elements, from array[base + step * n], n being the value of the
 * argument the constructor's array arguments' length names (count, ndims:
 * rec_arg_length). An argument not from the contents has array NONE. */
enum { REC_CONTENTS_NONE, REC_CONTENTS_INTS, REC_CONTENTS_AINTS, REC_CONTENTS_TYPES };
typedef struct rec_contents {
    uint8_t array; /* REC_CONTENTS_*: integers, addresses, datatypes */
    uint8_t each;  /* n elements (an array argument), else one */
    uint8_t base, step;
    uint8_t combiner; /* the NEW datatype's: the combiner it reports (REC_COMBINER_*) */
} rec_contents;

/* The position of the object a call acts on, by the table's convention:
 * the handle a DESTROYS function releases, the datatype MPI_Type_commit
 * commits, the info object MPI_Info_set changes. */
#define REC_ARG_SUBJECT 0

/* How failure shows in the return value (errno is recorded when it does). */
typedef enum rec_fail {
    REC_FAIL_NONE = 0,     /* cannot fail, or failure is not signalled */
    REC_FAIL_NEG1 = 1,     /* -1 (POSIX) */
    REC_FAIL_NULL = 2,     /* NULL pointer / 0 handle */
    REC_FAIL_NEGATIVE = 3, /* any negative value (HDF5 herr_t, hid_t) */
    REC_FAIL_NONZERO = 4,  /* anything but 0 (MPI_SUCCESS) */
    REC_FAIL_EOF = 5,      /* EOF (stdio) */
} rec_fail;

typedef struct rec_arg_desc {
    const char *name;  /* the argument's name in the C prototype */
    const char *ctype; /* its C type, as written in the prototype */
    uint8_t kind;      /* rec_kind */
    uint8_t flags;     /* REC_ARG_* */
    const char *len;   /* arrays: C expression giving the element count, else "" */
    uint8_t role;      /* rec_arole: not stored in traces (see REC_ROLE_*) */
} rec_arg_desc;

typedef struct rec_func_desc {
    uint16_t id;        /* stable: stored in traces */
    uint8_t layer;      /* rec_layer */
    uint8_t ret_kind;   /* rec_kind of the return value; NONE for void */
    uint8_t fail;       /* rec_fail */
    uint8_t nargs;
    uint16_t flags;     /* REC_FN_* */
    const char *name;
    const char *ret_ctype;
    const rec_arg_desc *args;
    /* Not stored in traces: */
    uint32_t roles;     /* REC_ROLE_* */
    uint8_t shape;      /* rec_shape */
    uint8_t header;     /* rec_header */
} rec_func_desc;

/* The compiled-in table, in .def order, and lookups. */
extern const rec_func_desc rec_functions[];
extern const size_t rec_function_count;
const rec_func_desc *rec_function_by_id(unsigned id);
const rec_func_desc *rec_function_by_name(const char *name);

/* The position of f's first argument with this role (rec_arole), or -1. */
int rec_arg_with_role(const rec_func_desc *f, unsigned role);
/* The position of f's first argument of this kind whose flags include all
 * of `flags` (REC_ARG_*), or -1. */
int rec_arg_with_kind(const rec_func_desc *f, unsigned kind, unsigned flags);
const char *rec_shape_name(unsigned shape);      /* "TYPE_VECTOR", ... or NULL */
const char *rec_arole_name(unsigned role);       /* "OLDTYPE", ... or NULL */
/* Gives a trace's table entry the roles of the compiled-in entry of the
 * same id, name and argument kinds (none otherwise; the compiled-in one may
 * have DERIVED fields more, after the entry's: a trace made before them).
 * `args` is the entry's own, writable argument array. */
void rec_func_adopt_roles(rec_func_desc *f, rec_arg_desc *args);

/* What the descriptors leave out, kept beside them (the compiled-in entry's,
 * for a trace's entry of the same id, name and argument kinds). */
unsigned rec_func_sole(const rec_func_desc *f);         /* REC_SOLE_*, NONE if none */
/* The one function with this sole role (REC_SOLE_*), or NULL. */
const rec_func_desc *rec_function_with_sole(unsigned sole);
/* The plain function a FORTIFIED entry point is traced as (fprintf of
 * __fprintf_chk, open of __open_2, fscanf of __isoc99_fscanf), or NULL for
 * any other function. FORTIFIED is a role kept beside the descriptors: a
 * _FORTIFY_SOURCE or C99 entry point of its plain twin X (__X_chk, __X_2,
 * __isoc99_X), the same call with a check argument more, traced as X. Its
 * arguments are the twin's of the same names, but for variadic ones the twin
 * does not pass (open's mode). */
const rec_func_desc *rec_func_plain_twin(const rec_func_desc *f);
int rec_func_fortified(const rec_func_desc *f); /* marked FORTIFIED */
/* The int-count function X of an MPI-4 large-count one (X_c, LARGE_COUNT),
 * or NULL for any other function: the same call, its arguments alike but
 * for the counts (gen_functions checks each pair). */
const rec_func_desc *rec_func_int_twin(const rec_func_desc *f);
/* The combiner of the datatypes f makes (REC_COMBINER_*), NONE if it is no
 * combiner's constructor. */
unsigned rec_func_combiner(const rec_func_desc *f);
/* Where argument `arg` of a combiner's constructor comes from (its
 * combiner, if it is the datatype made). */
rec_contents rec_arg_contents(const rec_func_desc *f, unsigned arg);
/* The position of the argument an array argument's length names (its "len"
 * is exactly that argument's name: "count", "ndims"), or -1. */
int rec_arg_length(const rec_func_desc *f, unsigned arg);
/* What Darshan's counter modules count of a call (functions/darshan.def):
 * REC_DARSHAN_*, NONE for a function Darshan does not wrap. */
#define REC_DARSHAN_LIST(X)                                                                      \
    X(NONE, "not counted: Darshan does not wrap it")                                             \
    X(POSIX_OPEN, "POSIX_OPENS: opens its PATH, a new FD (the record's position reset)")         \
    X(POSIX_DUP, "POSIX_OPENS: a new FD (returned) of its FD's file")                            \
    X(POSIX_FILENO, "POSIX_OPENS: the FD (returned) of a FILE_STREAM's file")                    \
    X(POSIX_READ, "POSIX_READS: reads its FD, at its OFFSET or the file's position")              \
    X(POSIX_WRITE, "POSIX_WRITES: writes its FD, at its OFFSET or the file's position")           \
    X(POSIX_SEEK, "POSIX_SEEKS: the file's position becomes its result")                          \
    X(POSIX_STAT, "POSIX_STATS: asks the status of a regular file, by PATH or FD")                \
    X(POSIX_FSYNC, "POSIX_FSYNCS")                                                               \
    X(POSIX_FDSYNC, "POSIX_FDSYNCS")                                                             \
    X(STDIO_OPEN, "STDIO_OPENS: opens its PATH, a new FILE_STREAM")                              \
    X(STDIO_FDOPEN, "STDIO_OPENS: a new FILE_STREAM of its FD's file")                           \
    X(STDIO_READ, "STDIO_READS: reads its FILE_STREAM at the file's position")                   \
    X(STDIO_WRITE, "STDIO_WRITES: writes its FILE_STREAM at the file's position")                \
    X(STDIO_SEEK, "STDIO_SEEKS: moves its FILE_STREAM's position")                               \
    X(STDIO_FLUSH, "STDIO_FLUSHES")                                                              \
    X(MPIIO_OPEN, "MPIIO_INDEP_OPENS (a communicator of one rank) or MPIIO_COLL_OPENS")         \
    X(MPIIO_INDEP, "MPIIO_INDEP_READS or _WRITES")                                               \
    X(MPIIO_COLL, "MPIIO_COLL_READS or _WRITES")                                                 \
    X(MPIIO_SPLIT, "MPIIO_SPLIT_READS or _WRITES (a split collective's begin)")                  \
    X(MPIIO_NB, "MPIIO_NB_READS or _WRITES")                                                     \
    X(MPIIO_SYNC, "MPIIO_SYNCS")

typedef enum rec_darshan {
#define REC_DARSHAN_ENUM_(name, doc) REC_DARSHAN_##name,
    REC_DARSHAN_LIST(REC_DARSHAN_ENUM_)
#undef REC_DARSHAN_ENUM_
    REC_DARSHAN_LIMIT
} rec_darshan;
/* A trace's entry answers as the compiled-in entry of the same id, name and kinds. */
unsigned rec_func_darshan(const rec_func_desc *f);
const char *rec_sole_name(unsigned sole);         /* "COMMITS_TYPE", ... or NULL */
const char *rec_combiner_name(unsigned combiner); /* "VECTOR", ... or NULL */

const char *rec_layer_name(unsigned layer);      /* "POSIX", "MPI", "MPI-IO", "HDF5", "PnetCDF", "netCDF" */
/* The layers from the top (the library an application calls) down to POSIX: REC_LAYER_COUNT of them. */
extern const unsigned rec_layers_top_down[];
int rec_layer_from_name(const char *name);       /* -1 if unknown */
/* A C preprocessor test, true where the layer's library (as its headers say it was built) may be
 * called from several threads at once; NULL where it always may (POSIX, and MPI and MPI-IO under
 * MPI_THREAD_MULTIPLE). Kernels and replays take turns in a library that may not. */
const char *rec_layer_thread_safe_test(unsigned layer);
/* The id space a handle kind lives in (fds and dirfds share one, all HDF5
 * ids share one); 0 for kinds that are not handles. */
enum {
    REC_SPACE_NONE, REC_SPACE_FD, REC_SPACE_FILE, REC_SPACE_DIR, REC_SPACE_MAPPING, REC_SPACE_COMM,
    REC_SPACE_DATATYPE, REC_SPACE_OP, REC_SPACE_INFO, REC_SPACE_REQUEST, REC_SPACE_MPIFILE, REC_SPACE_GROUP,
    REC_SPACE_HDF5, REC_SPACE_ERRHANDLER, REC_SPACE_NCFILE, REC_SPACE_NCREQUEST, REC_SPACE_BARRIER, REC_SPACE_COUNT
};
unsigned rec_kind_handle_space(unsigned kind);
/* The kind of an array kind's elements (MPI_REQUEST of MPI_REQUEST_ARRAY); the kind itself otherwise. */
unsigned rec_kind_element(unsigned kind);
/* An array of handles (MPI_REQUEST_ARRAY, NC_REQUEST_ARRAY, ...). */
int rec_kind_is_handle_array(unsigned kind);
/* Whether an out value recorded as -1 can only have been a NULL pointer (a netCDF type, format or mode;
 * a PnetCDF length or count), or is one kernels and replays record alike by passing NULL (a netCDF-C
 * query's number: the tracer records a NULL one as -1): kernels and replays then pass NULL too. */
int rec_arg_minus_one_is_null(const rec_func_desc *f, unsigned arg);
/* Whether a space's objects are reference counted, so that a creating call
 * may hand back a handle that is still live (MPICH's MPI_Comm_group twice on
 * one communicator, H5Iget_file_id): one more reference to it, with its id.
 * Fds, streams, mappings, requests and files are new objects whenever made. */
int rec_space_counts_references(unsigned space);
/* What a call does to the references of the handle in its first argument
 * (REC_ARG_SUBJECT): -1 a destroying call or DEC_REF drops one, +1 INC_REF
 * adds one, 0 neither (or no handle there). */
int rec_func_reference_change(const rec_func_desc *f);

/* For the C type of an operator a library calls back (operators.def): its
 * return type and its parameters, in parentheses; NULL for any other type. */
const char *rec_operator_params(const char *ctype, const char **ret_ctype);
/* For the C type of a CALLBACK argument that is an MPI reduction's function
 * (operators.def: "MPI_User_function *"): the type its count points to
 * ("int", "MPI_Count"); NULL for any other type. */
const char *rec_reduction_count_ctype(const char *ctype);
/* For the C type of a CALLBACK argument that is an MPI error handler's
 * function (operators.def: "MPI_Comm_errhandler_function *"): the handle
 * type its first parameter points to ("MPI_Comm", "MPI_File"); NULL for any
 * other type. */
const char *rec_errhandler_subject_ctype(const char *ctype);
/* The names of the parameters in params ("(type name, ...)"): up to max of
 * them, each a pointer into params and its length; returns how many. */
unsigned rec_param_names(const char *params, const char **names, unsigned *lens, unsigned max);

const char *rec_kind_name(unsigned kind);        /* "PATH", ... or NULL if unknown */
rec_class rec_kind_class(unsigned kind);         /* REC_CLASS_NONE if unknown */

/* Predefined handles (functions/handles.def): ids below this base; handles
 * the application creates are numbered from it, per rank and kind. */
#define REC_HANDLE_DYNAMIC_BASE 64
/* A kind with more predefined handles than ids below the base (HDF5's and
 * MPI's datatypes) numbers the rest REC_HANDLE_MORE(0), (1), ...: ids no rank's
 * own handles reach (the tracer skips them) and below codegen's object ids
 * (1 << 40), so traces stay readable by the same rules. */
#define REC_HANDLE_MORE_BASE ((int64_t)1 << 32)
#define REC_HANDLE_MORE_COUNT 192
#define REC_HANDLE_MORE(n) (REC_HANDLE_MORE_BASE + (n))
/* A predefined id's place in a dense table of REC_HANDLE_PREDEFINED_SLOTS
 * (low ids first, then the more ones), or -1 for any other id. */
#define REC_HANDLE_PREDEFINED_SLOTS (REC_HANDLE_DYNAMIC_BASE + REC_HANDLE_MORE_COUNT)
static inline int rec_handle_predefined_slot(int64_t id)
{
    if (id >= 0 && id < REC_HANDLE_DYNAMIC_BASE)
        return (int)id;
    if (id >= REC_HANDLE_MORE_BASE && id < REC_HANDLE_MORE_BASE + REC_HANDLE_MORE_COUNT)
        return (int)(REC_HANDLE_DYNAMIC_BASE + (id - REC_HANDLE_MORE_BASE));
    return -1;
}
/* Whether an id can be a predefined handle's (ids the table does not name
 * included); a dynamic id is one the program's own calls made. Invalid
 * ids (< 0) are neither. */
static inline int rec_handle_is_predefined(int64_t id)
{
    return rec_handle_predefined_slot(id) >= 0;
}
static inline int rec_handle_is_dynamic(int64_t id)
{
    return id >= REC_HANDLE_DYNAMIC_BASE && !rec_handle_is_predefined(id);
}
typedef struct rec_handle_desc {
    uint8_t kind; /* rec_kind */
    int64_t id;
    const char *name; /* the C constant */
    uint16_t size;    /* datatypes: bytes of data in one element (0 otherwise) */
    uint16_t extent;  /* datatypes: the distance between consecutive elements */
    uint8_t needs;    /* which MPI headers declare it (HA, TA): 0 all, else REC_NEEDS_* */
} rec_handle_desc;
enum { REC_NEEDS_MPI4 = 1, REC_NEEDS_MPI1 = 2 }; /* functions/rec_mpi_versions.h */
extern const rec_handle_desc rec_predefined_handles[];
extern const size_t rec_predefined_handle_count;
/* The constant recorded as this id of this kind, or NULL. */
const char *rec_predefined_handle_name(unsigned kind, int64_t id);
/* The entry of this id of this kind, or NULL. */
const rec_handle_desc *rec_predefined_handle(unsigned kind, int64_t id);

/* MPI's named integer constants (functions/constants.def), recorded as their
 * canonical values whatever MPI made the trace. */
typedef struct rec_mpi_constant {
    uint8_t kind;     /* rec_kind */
    const char *name; /* the C constant */
    int64_t value;    /* as traces record it */
} rec_mpi_constant;
extern const rec_mpi_constant rec_mpi_constants[];
extern const size_t rec_mpi_constant_count;
/* Whether traces record this kind's constants canonically. */
int rec_kind_has_mpi_constants(unsigned kind);
/* The constant of this kind recorded as value, or NULL. */
const char *rec_mpi_constant_name(unsigned kind, int64_t value);
/* The value a constant is recorded as (a name of constants.def; else 0). */
int64_t rec_mpi_constant_value(const char *name);

/* The largest id in the compiled table (ids are dense below it). */
#define REC_FUNCTION_ID_LIMIT 8192
/* The most arguments any one function may declare. */
#define REC_MAX_ARGS 24

#ifdef __cplusplus
}
#endif
#endif
