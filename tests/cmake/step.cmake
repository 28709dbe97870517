# step(COMMAND ARGS...): runs one step of a script-mode test and stops the
# test with the step's output when it fails. Shared by the tests that
# configure, build or install (tests/consumer, tests/packaging).
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()
