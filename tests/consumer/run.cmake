# Installs urlsift, as a shared library built without the tool (so without
# Boost), into a scratch prefix; then configures, builds and runs a small
# program that finds it with find_package(urlsift), and checks that the
# pkg-config file names the library and that only the public API is exported.
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
