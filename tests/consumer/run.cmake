# Installs urlsift, as a shared library built without the tool (so without
# Boost), into a scratch prefix; then configures, builds and runs a small
# program that finds it with find_package(urlsift), and checks that the
# pkg-config file names the library and that only the public API is exported.
# Then it builds and runs the C++ examples of the docs the same way.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/lib -G ${GENERATOR}
     -DCMAKE_BUILD_TYPE=Release -DURLSIFT_BUILD_TESTS=OFF -DURLSIFT_BUILD_CLI=OFF
     -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX=${prefix})
# Only the library is needed: build it alone and install the dev component.
step(${CMAKE_COMMAND} --build ${WORK_DIR}/lib --target urlsift)
step(${CMAKE_COMMAND} --install ${WORK_DIR}/lib --component dev)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/app -G ${GENERATOR}
     -DCMAKE_PREFIX_PATH=${prefix})
step(${CMAKE_COMMAND} --build ${WORK_DIR}/app)
step(${WORK_DIR}/app/consumer)
# The pkg-config file gives the same library.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig:${prefix}/lib/x86_64-linux-gnu/pkgconfig
                          ${PKG_CONFIG} --libs --cflags urlsift
                  RESULT_VARIABLE rc OUTPUT_VARIABLE flags ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT flags MATCHES "-lurlsift")
    message(FATAL_ERROR "pkg-config --libs urlsift failed: ${flags}${err}")
  endif()
endif()
# A shared build exports the public API and hides the helpers behind it.
file(GLOB_RECURSE sonames ${prefix}/lib*/liburlsift.so.*)
list(LENGTH sonames n)
if(n EQUAL 0)
  message(FATAL_ERROR "no versioned liburlsift.so.* installed")
endif()
find_program(NM nm)
if(NM)
  list(GET sonames 0 lib)
  execute_process(COMMAND ${NM} -D --defined-only -C ${lib} OUTPUT_VARIABLE syms)
  if(NOT syms MATCHES " urlsift::resolve[[(]")
    message(FATAL_ERROR "urlsift::resolve is not exported from ${lib}")
  endif()
  if(syms MATCHES "urlsift::detail::")
    message(FATAL_ERROR "private helpers (urlsift::detail) are exported from ${lib}")
  endif()
endif()

# The library examples of the docs (DOCS: Markdown files, separated by |):
# each C++ program
# in them is built with the CMake project file the docs give and run, and
# must print what the docs say it prints; the first is built with the docs'
# pkg-config command line too. The docs are the source of both.
if(DOCS)
  string(REPLACE "|" ";" DOCS "${DOCS}")
  find_program(PYTHON3 python3)
  if(NOT PYTHON3)
    message(FATAL_ERROR "python3 is needed to read the examples out of ${DOCS}")
  endif()
  set(examples ${WORK_DIR}/doc-examples)
  execute_process(COMMAND ${PYTHON3} ${SOURCE_DIR}/tests/docs/doc_examples.py cpp ${examples} ${DOCS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE names ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "no library examples read from ${DOCS}: ${err}")
  endif()
  string(STRIP "${names}" names)
  string(REPLACE "\n" ";" names "${names}")
  list(POP_FRONT names target)
  foreach(name ${names})
    set(dir ${examples}/${name})
    step(${CMAKE_COMMAND} -S ${dir} -B ${dir}/build -G ${GENERATOR} -DCMAKE_PREFIX_PATH=${prefix})
    step(${CMAKE_COMMAND} --build ${dir}/build)
    execute_process(COMMAND ${dir}/build/${target} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "the example ${name} (named after its doc and the line its block starts on) exited with ${rc}: ${out}${err}")
    endif()
    if(EXISTS ${dir}/expected.txt)
      file(READ ${dir}/expected.txt expected)
      if(NOT out STREQUAL expected)
        message(FATAL_ERROR "the example ${name} (named after its doc and the line its block starts on) printed\n${out}but its doc says\n${expected}")
      endif()
    endif()
    message(STATUS "doc example ${name}: built, ran, printed what its doc says")
  endforeach()
  if(PKG_CONFIG AND EXISTS ${examples}/pkg-config.sh)
    list(GET names 0 first)
    file(READ ${examples}/pkg-config.sh line)
    string(STRIP "${line}" line)
    set(dir ${examples}/${first})
    file(REMOVE ${dir}/${target})
    execute_process(COMMAND ${CMAKE_COMMAND} -E env PKG_CONFIG_PATH=${prefix}/lib/pkgconfig:${prefix}/lib/x86_64-linux-gnu/pkgconfig
                            sh -c "${line}" WORKING_DIRECTORY ${dir} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0 OR NOT EXISTS ${dir}/${target})
      message(FATAL_ERROR "the docs' pkg-config line (${line}) failed on ${first}: ${out}")
    endif()
    file(GLOB libdirs LIST_DIRECTORIES true ${prefix}/lib ${prefix}/lib/*-linux-gnu)
    list(JOIN libdirs ":" libpath)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${libpath} ${dir}/${target}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    file(READ ${dir}/expected.txt expected)
    if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
      message(FATAL_ERROR "${first} built by the docs' pkg-config line exited with ${rc} and printed\n${out}${err}")
    endif()
    message(STATUS "doc example ${first}: built by the pkg-config line too")
  endif()
endif()
