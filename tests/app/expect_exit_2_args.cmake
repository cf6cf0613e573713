# Runs `lifeline ARGS...` (ARGS a ;-list) and fails unless it exits with status 2; prints its stderr for the regex.
execute_process(COMMAND ${LIFELINE} ${ARGS} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)
message("${err}")
if(NOT status EQUAL 2)
    message(FATAL_ERROR "expected exit status 2, got ${status}")
endif()
