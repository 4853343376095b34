/* table_macros.h: the short flag names the .def files use, mapped to the
 * REC_* constants. Include right before expanding a .def file; undo with
 * table_macros_end.h so the short names never leak into other code. */
#define IN REC_ARG_IN
#define OUT REC_ARG_OUT
#define SIG REC_ARG_SIG
#define NEW REC_ARG_CREATE
#define VA REC_ARG_VA
#define DERIVED REC_ARG_DERIVED
#define VARIADIC REC_FN_VARIADIC
#define COLL REC_FN_COLLECTIVE
#define CREATES REC_FN_CREATES
#define DESTROYS REC_FN_DESTROYS
#define DATA REC_FN_DATA
#define RD (REC_FN_READ | REC_FN_DATA)
#define WR (REC_FN_WRITE | REC_FN_DATA)
#define META REC_FN_META
#define NONBLOCK REC_FN_NONBLOCKING
#define NODECL REC_FN_NODECL
#define OPAQUE REC_FN_OPAQUE
/* Roles (REC_ROLE_*), a shape, a header and a sole role ride above the 14
 * flag bits of an entry's flags (REC_FN_*, stored in traces as 16 bits, the
 * top two always 0): bits 14-45 roles, 46-51 the shape, 52 FORTIFIED, 53-55
 * the header, 56-63 the sole role. An argument's role rides above its 8
 * flag bits (bits 8-15), then where it comes from in a datatype's contents
 * (16-17 the array, 18 each, 19-22 base, 23-25 step) and, on the datatype a
 * constructor makes, its combiner (26-30). table.c unpacks them. */
#define DEF_ROLES_AT 14
#define DEF_SHAPE_AT 46
#define DEF_FORTIFIED_AT 52
#define DEF_HEADER_AT 53
#define DEF_SOLE_AT 56
#define DEF_AROLE_AT 8
#define DEF_CONTENTS_AT 16 /* array 0-1, each 2, base 3-6, step 7-9, combiner 10-14 from here */
#define ROLE_(role) ((uint64_t)(role) << DEF_ROLES_AT)
#define TELLS ROLE_(REC_ROLE_TELLS_POSITION)
#define SEEKS ROLE_(REC_ROLE_SEEKS)
#define REWINDS ROLE_(REC_ROLE_REWINDS)
#define REPORTS_POS ROLE_(REC_ROLE_REPORTS_POSITION)
#define SETS_SIZE ROLE_(REC_ROLE_SETS_SIZE)
#define GROWS_SIZE ROLE_(REC_ROLE_GROWS_SIZE)
#define REPORTS_SIZE ROLE_(REC_ROLE_REPORTS_SIZE)
#define TRUNCATES ROLE_(REC_ROLE_TRUNCATES)
#define SETS_VIEW ROLE_(REC_ROLE_SETS_VIEW)
#define SHARED_PTR ROLE_(REC_ROLE_SHARED_POINTER)
#define NOFOLLOW ROLE_(REC_ROLE_NOFOLLOW)
#define MAKES_DIR ROLE_(REC_ROLE_MAKES_DIR)
#define OPENS_DIR ROLE_(REC_ROLE_OPENS_DIR)
#define DIR_ENTRY ROLE_(REC_ROLE_DIR_ENTRY)
#define WORKING_DIR ROLE_(REC_ROLE_WORKING_DIR)
#define NAME_LENGTH ROLE_(REC_ROLE_NAME_LENGTH)
#define STARTS_MPI ROLE_(REC_ROLE_STARTS_MPI)
#define ENDS_MPI ROLE_(REC_ROLE_ENDS_MPI)
#define ABORTS ROLE_(REC_ROLE_ABORTS)
#define REPORTS_TYPE_SIZE ROLE_(REC_ROLE_REPORTS_TYPE_SIZE)
#define REPORTS_TYPE_EXTENT ROLE_(REC_ROLE_REPORTS_TYPE_EXTENT)
#define SETS_TYPE_SIZE ROLE_(REC_ROLE_SETS_TYPE_SIZE)
#define SELECTS ROLE_(REC_ROLE_SELECTS)
#define LARGE_COUNT ROLE_(REC_ROLE_LARGE_COUNT)
#define SINCE_MPI4 ROLE_(REC_ROLE_SINCE_MPI4)
#define REMOVED_MPI3 ROLE_(REC_ROLE_REMOVED_MPI3)
#define OPENS_H5_FILE ROLE_(REC_ROLE_OPENS_H5_FILE)
#define READS_LINE ROLE_(REC_ROLE_READS_LINE)
#define CLOSES_DATASET ROLE_(REC_ROLE_CLOSES_DATASET)
#define REMOVES ROLE_(REC_ROLE_REMOVES_PATH)
#define FORTIFIED ((uint64_t)1 << DEF_FORTIFIED_AT)
#define INC_REF ROLE_(REC_ROLE_ADDS_REFERENCE)
#define DEC_REF ROLE_(REC_ROLE_DROPS_REFERENCE)
#define SHAPE(shape) ((uint64_t)REC_SHAPE_##shape << DEF_SHAPE_AT)
#define HEADER(header) ((uint64_t)REC_HEADER_##header << DEF_HEADER_AT)
#define SOLE(sole) ((uint64_t)REC_SOLE_##sole << DEF_SOLE_AT)
#define IS(role) ((uint32_t)REC_AROLE_##role << DEF_AROLE_AT)
/* FROM(INTS, base, step): the element array[base + step * n] of what
 * MPI_Type_get_contents returns; FROM_N: the n elements from there. */
#define FROM(array, base, step) \
    (((uint32_t)REC_CONTENTS_##array | (uint32_t)(base) << 3 | (uint32_t)(step) << 7) << DEF_CONTENTS_AT)
#define FROM_N(array, base, step) (FROM(array, base, step) | 4u << DEF_CONTENTS_AT)
#define COMBINER(combiner) ((uint32_t)REC_COMBINER_##combiner << (DEF_CONTENTS_AT + 10))
#define REC_FAIL_NULLPTR REC_FAIL_NULL
#define REC_FAIL_EOF_ REC_FAIL_EOF
