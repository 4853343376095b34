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
#define REC_FAIL_NULLPTR REC_FAIL_NULL
#define REC_FAIL_EOF_ REC_FAIL_EOF
