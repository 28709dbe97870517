# Installs urlsift into a scratch prefix, then configures, builds and runs a
# small program that finds it with find_package(urlsift).
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}")
  endif()
endfunction()
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -G ${GENERATOR}
     -DCMAKE_BUILD_TYPE=Release -DURLSIFT_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX=${prefix})
# Only the library is needed: build it alone and install the dev component.
step(${CMAKE_COMMAND} --build ${WORK_DIR}/lib --target urlsift)
step(${CMAKE_COMMAND} --install ${WORK_DIR}/lib --component dev)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/app -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${prefix})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
step(${WORK_DIR}/app/consumer)
