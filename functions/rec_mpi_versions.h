/* rec_mpi_versions.h: what an MPI's header may lack, for code that names
 * MPI's functions and constants (the generated wrappers, prototype check and
 * replay, and the expansions of handles.def). Include after <mpi.h>.
 *   REC_HAVE_MPI4: MPI-4.0's additions (SINCE_MPI4, LARGE_COUNT) are declared;
 *   REC_HAVE_MPI1: what MPI-3.0 removed (REMOVED_MPI3) is still declared
 *     (MPICH keeps it; Open MPI 4 only when built with MPI-1 compatibility).
 * REC_IF_MPI4(...) and REC_IF_MPI1(...) expand to their arguments only then. */
#ifndef REC_MPI_VERSIONS_H
#define REC_MPI_VERSIONS_H

#if MPI_VERSION >= 4
#define REC_HAVE_MPI4 1
#define REC_IF_MPI4(...) __VA_ARGS__
#else
#define REC_HAVE_MPI4 0
#define REC_IF_MPI4(...)
#endif

#if !defined(OMPI_ENABLE_MPI1_COMPAT) || OMPI_ENABLE_MPI1_COMPAT
#define REC_HAVE_MPI1 1
#define REC_IF_MPI1(...) __VA_ARGS__
#else
#define REC_HAVE_MPI1 0
#define REC_IF_MPI1(...)
#endif

#endif
