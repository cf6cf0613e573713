# Starts `lifeline serve --headless --port 0 --bind ::` for two seconds: the exposure warning must be on standard
# error (not mixed into the banner on standard output), and the banner must name the address.
execute_process(COMMAND ${LIFELINE} serve --headless --port 0 --bind :: TIMEOUT 2
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT out MATCHES "Lifeline SQS endpoint on http://")
    message(FATAL_ERROR "no banner on standard output: '${out}'")
endif()
if(out MATCHES "warning")
    message(FATAL_ERROR "the warning went to standard output: '${out}'")
endif()
if(NOT err MATCHES "lifeline serve: warning: bound to http://[^ ]+, not loopback")
    message(FATAL_ERROR "no warning on standard error: '${err}'")
endif()
message("warning on standard error: ${err}")
