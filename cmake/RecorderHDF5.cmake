# RecorderHDF5.cmake: the parallel HDF5 the build links, found the standard
# way, for any MPI. Call after find_package(MPI).
#
#   1. FindHDF5 (HDF5_ROOT, HDF5_DIR, the h5pcc wrapper on PATH, with
#      HDF5_PREFER_PARALLEL);
#   2. else pkg-config: hdf5-<flavour of the MPI found> (Debian's
#      hdf5-mpich, hdf5-openmpi), then hdf5.
#
# The library must be shared (the tracer sees H5* calls through the dynamic
# linker), parallel (H5_HAVE_PARALLEL) and built on the same MPI library as
# the build's. Gives the imported target recorder::hdf5 and sets
# HDF5_INCLUDE_DIRS, RECORDER_HDF5_LIBRARY (the libhdf5 shared library) and
# RECORDER_HDF5_FOUND_BY.
include_guard(GLOBAL)
include(CheckSymbolExists)

# The MPI flavour, from the name of the MPI library: mpich or openmpi.
set(recorder_mpi_flavour "")
foreach(lib IN LISTS MPI_C_LIBRARIES)
  if(lib MATCHES "/libmpich[^/]*$")
    set(recorder_mpi_flavour mpich)
  elseif(lib MATCHES "/libmpi\\.so[^/]*$")
    set(recorder_mpi_flavour openmpi)
  endif()
endforeach()

# The flavour's suffix: /usr/bin/mpicc is an alternative, a link to a link
# to mpicc.mpich; mpicc.openmpi is a link to opal_wrapper. Follow links
# until a name has one.
find_program(compiler NAMES ${MPI_C_COMPILER} NO_CACHE)
set(suffix "")
foreach(step RANGE 4)
  get_filename_component(compiler_name ${compiler} NAME)
  if(compiler_name MATCHES "^mpicc(\\..+)$")
    set(suffix ${CMAKE_MATCH_1})
    break()
  endif()
  if(NOT IS_SYMLINK ${compiler})
    break()
  endif()
  file(READ_SYMLINK ${compiler} target)
  if(NOT IS_ABSOLUTE ${target})
    get_filename_component(dir ${compiler} DIRECTORY)
    set(target ${dir}/${target})
  endif()
  set(compiler ${target})
endforeach()
get_filename_component(compiler_dir ${compiler} DIRECTORY)
set(RECORDER_MPI_SUFFIX "${suffix}") # e.g. ".mpich": names the flavour's other wrappers (mpif90.mpich)

# Given the MPI, the HDF5 built on it: where nothing names an HDF5 (HDF5_ROOT,
# HDF5_DIR, HDF5_C_COMPILER_EXECUTABLE), the flavour's own wrapper
# (h5pcc.openmpi for mpicc.openmpi) rather than whatever h5pcc Debian's
# alternatives point at, which may be the other MPI's.
set(recorder_hdf5_named FALSE)
if(HDF5_ROOT OR HDF5_DIR OR DEFINED ENV{HDF5_ROOT} OR HDF5_C_COMPILER_EXECUTABLE)
  set(recorder_hdf5_named TRUE)
elseif(suffix)
  find_program(recorder_flavour_h5pcc NAMES h5pcc${suffix} NO_CACHE)
  if(recorder_flavour_h5pcc)
    set(HDF5_C_COMPILER_EXECUTABLE ${recorder_flavour_h5pcc} CACHE FILEPATH "h5pcc of the build's MPI")
    message(STATUS "recorder-kit: HDF5 of the MPI found: ${recorder_flavour_h5pcc}")
  endif()
endif()
set(HDF5_PREFER_PARALLEL TRUE)
find_package(HDF5 QUIET COMPONENTS C)
set(RECORDER_HDF5_LIBRARY "")
if(HDF5_FOUND)
  set(RECORDER_HDF5_FOUND_BY "FindHDF5")
  # HDF5_C_LIBRARIES also lists what a static libhdf5 would need: keep libhdf5 itself.
  if(HDF5_C_LIBRARY_hdf5)
    set(RECORDER_HDF5_LIBRARY ${HDF5_C_LIBRARY_hdf5})
  else()
    foreach(lib IN LISTS HDF5_C_LIBRARIES)
      if(lib MATCHES "/libhdf5\\.[^/]*$" AND NOT RECORDER_HDF5_LIBRARY)
        set(RECORDER_HDF5_LIBRARY ${lib})
      endif()
    endforeach()
  endif()
  set(HDF5_INCLUDE_DIRS ${HDF5_C_INCLUDE_DIRS})
elseif(HDF5_ROOT OR HDF5_DIR OR DEFINED ENV{HDF5_ROOT})
  message(FATAL_ERROR "recorder-kit: no HDF5 where HDF5_ROOT (${HDF5_ROOT}$ENV{HDF5_ROOT}) or HDF5_DIR points: "
                      "it needs include/H5pubconf.h and lib/libhdf5.so, or bin/h5pcc")
else()
  find_package(PkgConfig REQUIRED)
  set(modules hdf5)
  if(recorder_mpi_flavour)
    set(modules hdf5-${recorder_mpi_flavour} hdf5)
  endif()
  pkg_search_module(RECORDER_PC_HDF5 QUIET ${modules})
  if(NOT RECORDER_PC_HDF5_FOUND)
    message(FATAL_ERROR "recorder-kit: no HDF5 found: FindHDF5 found none (set HDF5_ROOT or HDF5_DIR to a "
                        "parallel HDF5's prefix, or put its h5pcc on PATH) and pkg-config has none of ${modules}")
  endif()
  set(RECORDER_HDF5_FOUND_BY "pkg-config module ${RECORDER_PC_HDF5_MODULE_NAME}")
  foreach(lib IN LISTS RECORDER_PC_HDF5_LINK_LIBRARIES)
    if(lib MATCHES "/libhdf5\\.[^/]*$")
      set(RECORDER_HDF5_LIBRARY ${lib})
    endif()
  endforeach()
  set(HDF5_INCLUDE_DIRS ${RECORDER_PC_HDF5_INCLUDE_DIRS})
  set(HDF5_VERSION ${RECORDER_PC_HDF5_VERSION})
endif()

if(NOT RECORDER_HDF5_LIBRARY MATCHES "\\.so[.0-9]*$")
  message(FATAL_ERROR "recorder-kit: the HDF5 found (${RECORDER_HDF5_FOUND_BY}) has no shared libhdf5 "
                      "('${RECORDER_HDF5_LIBRARY}'): the tracer needs one, to see H5* calls through the dynamic linker")
endif()

# Parallel: H5pubconf.h defines H5_HAVE_PARALLEL.
set(CMAKE_REQUIRED_INCLUDES ${HDF5_INCLUDE_DIRS} ${MPI_C_INCLUDE_DIRS})
set(CMAKE_REQUIRED_QUIET TRUE)
check_symbol_exists(H5_HAVE_PARALLEL "H5pubconf.h" RECORDER_HDF5_IS_PARALLEL)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_QUIET)
if(NOT RECORDER_HDF5_IS_PARALLEL)
  message(FATAL_ERROR "recorder-kit: the HDF5 at ${RECORDER_HDF5_LIBRARY} (${RECORDER_HDF5_FOUND_BY}) is not "
                      "parallel: install a parallel HDF5 (Debian: libhdf5-mpich-dev or libhdf5-openmpi-dev) or "
                      "point HDF5_ROOT at one")
endif()

# recorder_library_mpi(LIBRARY MPI_VAR SAME_VAR): the MPI library LIBRARY
# needs (readelf's NEEDED lines; empty when it names none) and whether it is
# the build's.
function(recorder_library_mpi library mpi_var same_var)
  get_filename_component(real ${library} REALPATH)
  set(needed_mpi "")
  if(CMAKE_READELF)
    execute_process(COMMAND ${CMAKE_READELF} -d ${real} OUTPUT_VARIABLE dynamic ERROR_QUIET)
    # The MPI library itself, not its C++ or Fortran bindings (libmpi_cxx.so).
    string(REGEX MATCH "\\[(libmpi(ch)?\\.so[^]]*)\\]" needed "${dynamic}")
    set(needed_mpi ${CMAKE_MATCH_1})
  endif()
  set(same TRUE)
  if(needed_mpi)
    set(same FALSE)
    foreach(lib IN LISTS MPI_C_LIBRARIES)
      get_filename_component(name ${lib} NAME)
      string(REGEX REPLACE "\\.so.*$" "" stem ${name})
      if(needed_mpi MATCHES "^${stem}\\.so")
        set(same TRUE)
      endif()
    endforeach()
  endif()
  set(${mpi_var} "${needed_mpi}" PARENT_SCOPE)
  set(${same_var} ${same} PARENT_SCOPE)
endfunction()

# The same MPI: the MPI library libhdf5 needs is the build's (readelf's NEEDED lines).
recorder_library_mpi(${RECORDER_HDF5_LIBRARY} recorder_hdf5_mpi same_mpi)
if(NOT same_mpi)
  message(FATAL_ERROR "recorder-kit: the HDF5 at ${RECORDER_HDF5_LIBRARY} is built on ${recorder_hdf5_mpi}, "
                      "not on the MPI found (${MPI_C_LIBRARIES}): give both of one MPI (MPI_C_COMPILER, and HDF5_ROOT "
                      "or HDF5_C_COMPILER_EXECUTABLE, the h5pcc of that MPI)")
endif()

add_library(recorder::hdf5 INTERFACE IMPORTED)
target_include_directories(recorder::hdf5 INTERFACE ${HDF5_INCLUDE_DIRS})
# A parallel HDF5's headers include mpi.h.
target_link_libraries(recorder::hdf5 INTERFACE ${RECORDER_HDF5_LIBRARY} MPI::MPI_C)
set(mpi_version "${recorder_mpi_flavour}")
if(MPI_C_LIBRARY_VERSION_STRING)
  string(REGEX MATCH "^[^\n]*" mpi_version "${MPI_C_LIBRARY_VERSION_STRING}")
  string(REPLACE "\t" " " mpi_version "${mpi_version}")
endif()
message(STATUS "recorder-kit: MPI ${MPI_C_VERSION} (${mpi_version}): ${MPI_C_LIBRARIES}")
message(STATUS "recorder-kit: parallel HDF5 ${HDF5_VERSION} (${RECORDER_HDF5_FOUND_BY}): ${RECORDER_HDF5_LIBRARY}")

# The MPI's own launcher and compiler wrappers, whatever mpiexec, mpicc and
# h5pcc name on PATH (Debian's alternatives switch them to the MPI installed
# last): BUILD/mpi-bin holds mpicc, mpiexec, mpirun and h5pcc of the MPI the
# build uses, and every test runs with it first on PATH (ctest includes
# RecorderTestEnv.cmake). Debian names each flavour's programs mpicc.mpich,
# mpiexec.openmpi, ...: the suffix of the compiler found names the others.
set(RECORDER_MPI_BIN_DIR ${CMAKE_BINARY_DIR}/mpi-bin)
file(MAKE_DIRECTORY ${RECORDER_MPI_BIN_DIR})

# recorder_flavour_tool(VAR TOOL): unless set, the cache variable VAR names
# TOOL of the build's MPI flavour (h5pfc -> h5pfc.mpich), where it exists.
function(recorder_flavour_tool var tool)
  if(NOT ${var} AND RECORDER_MPI_SUFFIX)
    find_program(flavour_tool NAMES ${tool}${RECORDER_MPI_SUFFIX} NO_CACHE)
    if(flavour_tool)
      set(${var} ${flavour_tool} CACHE FILEPATH "${tool} of the build's MPI")
    endif()
  endif()
endfunction()
foreach(tool mpicc mpiexec mpirun h5pcc)
  unset(found)
  if(tool STREQUAL h5pcc AND HDF5_C_COMPILER_EXECUTABLE AND NOT suffix)
    set(found ${HDF5_C_COMPILER_EXECUTABLE})
  else()
    find_program(found NAMES ${tool}${suffix} ${tool} HINTS ${compiler_dir} NO_CACHE)
  endif()
  if(found) # a script, not a link: mpiexec (hydra) finds its proxy beside the path it runs as
    file(REMOVE ${RECORDER_MPI_BIN_DIR}/${tool}) # never write through a link someone left there
    file(WRITE ${RECORDER_MPI_BIN_DIR}/${tool} "#!/bin/sh\nexec ${found} \"$@\"\n")
    file(CHMOD ${RECORDER_MPI_BIN_DIR}/${tool} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
         GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
    # FindMPI took whatever mpiexec PATH names, possibly another MPI's.
    if(tool STREQUAL mpiexec)
      set(MPIEXEC_EXECUTABLE ${RECORDER_MPI_BIN_DIR}/mpiexec)
      set(RECORDER_MPIEXEC ${found}) # the launcher itself, for the tools that run MPI programs when installed
    endif()
  endif()
endforeach()
file(WRITE ${CMAKE_BINARY_DIR}/RecorderTestEnv.cmake
     "# Generated by cmake/RecorderHDF5.cmake: the build's MPI first on PATH.\n"
     "set(ENV{PATH} \"${RECORDER_MPI_BIN_DIR}:\$ENV{PATH}\")\n")
set_property(DIRECTORY ${CMAKE_SOURCE_DIR} APPEND PROPERTY TEST_INCLUDE_FILES ${CMAKE_BINARY_DIR}/RecorderTestEnv.cmake)
