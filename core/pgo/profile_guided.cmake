# lifeline_core compiled with a profile (LIFELINE_PGO): an instrumented copy of the library, a program that runs the
# lessons, the scale example and an endpoint client's session on it, and the flags that give lifeline_core what that run counted. Included from
# core/CMakeLists.txt, not added as a folder: both copies of the library are then defined in core/, and their
# objects have the same names below their own object folders.
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    message(FATAL_ERROR "LIFELINE_PGO needs GCC (its -fprofile-use reads GCC's .gcda files); configure without it")
endif()

set(_profile_dir "${CMAKE_CURRENT_BINARY_DIR}/pgo/profile")
# GCC names a counts file after its object's path. Both copies strip their own object folder from that path, so the
# instrumented copy's src/engine/engine.cpp.o counts are what lifeline_core's src/engine/engine.cpp.o reads.
set(_training_objects "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/lifeline_core_training.dir")
set(_core_objects "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/lifeline_core.dir")
# A function's record in that file is found by an id GCC hashes from the object's path for functions local to their
# file (an anonymous namespace, a lambda); the two copies' paths differ, so records are found by the function's
# number in its file instead, the same in both compiles of one source.
set(_profile_ids --param=profile-func-internal-id=1)

lifeline_core_library(lifeline_core_training)
target_compile_options(lifeline_core_training PRIVATE
    -fprofile-generate=${_profile_dir} -fprofile-update=single -fprofile-prefix-path=${_training_objects}
    ${_profile_ids})
target_link_options(lifeline_core_training INTERFACE -fprofile-generate)

add_executable(lifeline-profile-training ${CMAKE_CURRENT_LIST_DIR}/profile_training.cpp)
target_link_libraries(lifeline-profile-training PRIVATE lifeline_core_training lifeline_warnings)

# Counts from an earlier run are removed first: libgcov would add the new run's to them.
set(_scenario "${PROJECT_SOURCE_DIR}/docs/examples/ten-queues-at-scale.json")
add_custom_command(OUTPUT "${CMAKE_CURRENT_BINARY_DIR}/pgo/trained.stamp"
    COMMAND ${CMAKE_COMMAND} -E rm -rf "${_profile_dir}"
    COMMAND lifeline-profile-training "${_scenario}"
    COMMAND ${CMAKE_COMMAND} -E touch "${CMAKE_CURRENT_BINARY_DIR}/pgo/trained.stamp"
    DEPENDS lifeline-profile-training "${_scenario}"
    COMMENT "Training lifeline_core's profile: the lessons, ${_scenario} and a client of the endpoint"
    VERBATIM)
add_custom_target(lifeline_core_profile DEPENDS "${CMAKE_CURRENT_BINARY_DIR}/pgo/trained.stamp")

# Every object of lifeline_core waits for the training. One whose source changes is compiled again with the new
# counts; the others keep the counts they were compiled with (compiling all again at every change would double the
# time of each edit) unless the training itself changes (its program or scenario): then all are compiled again.
# A clean build (CI, the package) compiles every object with one run's counts.
set_source_files_properties(${LIFELINE_CORE_SOURCES} PROPERTIES
    OBJECT_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/profile_training.cpp;${_scenario}")
add_dependencies(lifeline_core lifeline_core_profile)
# -fprofile-partial-training keeps what the run never reached (the proxy, the checks) optimised as without a profile,
# not for size.
target_compile_options(lifeline_core PRIVATE -fprofile-use=${_profile_dir} -fprofile-prefix-path=${_core_objects}
    ${_profile_ids} -fprofile-partial-training -Wno-missing-profile)
