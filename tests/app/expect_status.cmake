# Runs `lifeline ARGS...` (ARGS a ;-list) and fails unless it exits with STATUS; prints its output and errors for
# the test's regex.
execute_process(COMMAND ${LIFELINE} ${ARGS} RESULT_VARIABLE status ERROR_VARIABLE err OUTPUT_VARIABLE out)
message("${out}${err}")
if(NOT status EQUAL ${STATUS})
    message(FATAL_ERROR "expected exit status ${STATUS}, got ${status}")
endif()
