# analysis.cmake: the analysis library and the tools built on it (included by
# analysis/CMakeLists.txt).
#
# librecorder-analysis: the per-rank I/O model (recorder_analysis.h), shared
# and installed. The collectors the tools share (summary, overlap, layers)
# are a private static archive; each tool is one main file.
set(RA_DIR ${CMAKE_CURRENT_LIST_DIR})

add_library(recorder-analysis SHARED ${RA_DIR}/ra_util.c ${RA_DIR}/ra_plan.c ${RA_DIR}/ra_trace.c ${RA_DIR}/ra_model.c)
target_include_directories(recorder-analysis PUBLIC
  $<BUILD_INTERFACE:${RA_DIR}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
# mpi.h for the MPI constants the model interprets (seek whence, access modes,
# array order): headers only, the library does not call MPI.
target_include_directories(recorder-analysis PRIVATE ${MPI_C_INCLUDE_DIRS})
target_link_libraries(recorder-analysis PUBLIC recorder-format PRIVATE recorder-facts m)
# Calls inside the library need not go through the PLT: nobody interposes them.
target_compile_options(recorder-analysis PRIVATE -fno-semantic-interposition)
set_target_properties(recorder-analysis PROPERTIES
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  PUBLIC_HEADER ${RA_DIR}/recorder_analysis.h)
install(TARGETS recorder-analysis
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

add_library(recorder-analysis-collectors STATIC
  ${RA_DIR}/ra_cli.c ${RA_DIR}/ra_summary.c ${RA_DIR}/ra_summary_print.c
  ${RA_DIR}/ra_overlap.c ${RA_DIR}/ra_overlap_sort.c ${RA_DIR}/ra_layers.c)
target_link_libraries(recorder-analysis-collectors PUBLIC recorder-analysis recorder-facts PRIVATE m)

foreach(tool recorder-summary recorder-overlap recorder-layers recorder-export recorder-report)
  add_executable(${tool} ${RA_DIR}/${tool}.c)
  target_link_libraries(${tool} PRIVATE recorder-analysis-collectors)
  install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endforeach()
target_sources(recorder-report PRIVATE ${RA_DIR}/ra_report_html.c ${RA_DIR}/ra_report_svg.c)
target_link_libraries(recorder-report PRIVATE m)
# Under mpirun, recorder-summary shares the trace's ranks out over its processes.
target_sources(recorder-summary PRIVATE ${RA_DIR}/ra_summary_mpi.c)
target_link_libraries(recorder-summary PRIVATE MPI::MPI_C)
