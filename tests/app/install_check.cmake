# `cmake --install` into a scratch prefix puts the program, its desktop entry and its icon where a desktop finds them.
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" RESULT_VARIABLE result
    OUTPUT_QUIET)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
foreach(path bin/lifeline share/applications/lifeline.desktop share/icons/hicolor/scalable/apps/lifeline.svg
        share/icons/hicolor/256x256/apps/lifeline.png share/man/man1/lifeline.1.gz
        share/bash-completion/completions/lifeline)
    if(NOT EXISTS "${PREFIX}/${path}")
        message(FATAL_ERROR "missing after install: ${path}")
    endif()
endforeach()
file(READ "${PREFIX}/share/applications/lifeline.desktop" entry)
if(NOT entry MATCHES "\nExec=lifeline %f\n" OR NOT entry MATCHES "\nIcon=lifeline\n")
    message(FATAL_ERROR "the desktop entry does not start lifeline with its icon")
endif()
message(STATUS "installed: program, desktop entry, icon")
