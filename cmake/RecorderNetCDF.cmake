# RecorderNetCDF.cmake: the optional PnetCDF and parallel netCDF-C layers,
# found the standard way (pkg-config: pnetcdf; netcdf-mpi, then netcdf), and
# kept only when built on the MPI found. Call after RecorderHDF5.cmake.
#
# Gives, for each library found, the imported target recorder::pnetcdf or
# recorder::netcdf, RECORDER_HAVE_PNETCDF / RECORDER_HAVE_NETCDF, and
# RECORDER_PNETCDF_MODULE / RECORDER_NETCDF_MODULE (the pkg-config module a
# kernel's Build line names). Without one, the configure log says so in one
# line and the build leaves that layer's wrappers out: the function table,
# the printers, codegen and replay still know its functions, so traces made
# elsewhere read everywhere.
include_guard(GLOBAL)

# recorder_optional_library(PREFIX HEADER MODULES...): the first pkg-config
# module of MODULES whose library is built on the MPI found.
function(recorder_optional_library prefix header)
  set(${prefix}_FOUND FALSE PARENT_SCOPE)
  foreach(module IN LISTS ARGN)
    pkg_check_modules(RECORDER_PC_${prefix} QUIET ${module})
    if(NOT RECORDER_PC_${prefix}_FOUND)
      continue()
    endif()
    set(library "")
    foreach(lib IN LISTS RECORDER_PC_${prefix}_LINK_LIBRARIES)
      if(lib MATCHES "\\.so[.0-9]*$" AND NOT library)
        set(library ${lib})
      endif()
    endforeach()
    # Debian's netcdf-mpi.pc names /usr/include, not the prefix its header is in.
    pkg_get_variable(module_prefix ${module} prefix)
    find_path(include_dir ${header} HINTS ${RECORDER_PC_${prefix}_INCLUDE_DIRS} ${module_prefix}/include NO_CACHE)
    if(NOT library OR NOT include_dir)
      set(why "pkg-config module ${module} has no shared library or no ${header}")
      continue()
    endif()
    recorder_library_mpi(${library} library_mpi same_mpi)
    if(NOT same_mpi)
      set(why "${library} is built on ${library_mpi}, not on the MPI found")
      continue()
    endif()
    add_library(recorder::${prefix} INTERFACE IMPORTED GLOBAL)
    target_include_directories(recorder::${prefix} INTERFACE ${include_dir} ${RECORDER_PC_${prefix}_INCLUDE_DIRS})
    target_link_libraries(recorder::${prefix} INTERFACE ${library} MPI::MPI_C)
    set(${prefix}_FOUND TRUE PARENT_SCOPE)
    set(${prefix}_MODULE ${module} PARENT_SCOPE)
    set(${prefix}_VERSION ${RECORDER_PC_${prefix}_VERSION} PARENT_SCOPE)
    set(${prefix}_LIBRARY ${library} PARENT_SCOPE)
    set(${prefix}_INCLUDE_DIR ${include_dir} PARENT_SCOPE)
    return()
  endforeach()
  if(NOT why)
    set(why "pkg-config has none of ${ARGN}")
  endif()
  set(${prefix}_WHY "${why}" PARENT_SCOPE)
endfunction()

recorder_optional_library(pnetcdf pnetcdf.h pnetcdf)
recorder_optional_library(netcdf netcdf_par.h netcdf-mpi netcdf)
foreach(layer pnetcdf netcdf)
  string(TOUPPER ${layer} up)
  set(RECORDER_HAVE_${up} ${${layer}_FOUND})
  if(${layer}_FOUND)
    set(RECORDER_${up}_MODULE ${${layer}_MODULE})
    set(RECORDER_${up}_INCLUDE_DIR ${${layer}_INCLUDE_DIR})
    message(STATUS "recorder-kit: ${layer} layer: ${${layer}_MODULE} ${${layer}_VERSION}: ${${layer}_LIBRARY}")
  else()
    message(STATUS "recorder-kit: no ${layer} layer (${${layer}_WHY})")
  endif()
endforeach()
