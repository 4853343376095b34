# recorder-diff: the fidelity checker (compares two traces call by call and
# file by file; see the comment at the top of diff_main.c).
add_executable(recorder-diff
  ${CMAKE_CURRENT_LIST_DIR}/diff_main.c
  ${CMAKE_CURRENT_LIST_DIR}/diff_side.c
  ${CMAKE_CURRENT_LIST_DIR}/diff_call.c
  ${CMAKE_CURRENT_LIST_DIR}/diff_files.c
  ${CMAKE_CURRENT_LIST_DIR}/diff_paths.c)
target_include_directories(recorder-diff PRIVATE ${UTHASH_INCLUDE_DIR})
target_link_libraries(recorder-diff PRIVATE recorder-facts recorder-format)
install(TARGETS recorder-diff RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
