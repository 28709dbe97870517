# Installs this build into a scratch prefix, as a packager does
# (cmake --install BUILD --prefix DIR), and checks that everything a user or
# a packager looks for is there: the tool (and that it runs), the library,
# its headers, the CMake package and the pkg-config file, a manual page for
# urlsift and for each command its --help lists, the shell completions, and
# the license and notices. Nothing is built: the build under test is
# installed as it is (tests/consumer builds its own shared library).
#
# -D: BUILD_DIR, WORK_DIR, SOURCE_DIR, LIBRARY (file name of the library),
# and the install dirs BINDIR LIBDIR INCLUDEDIR MANDIR DATADIR DOCDIR, all
# relative to the prefix.
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/step.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
step(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

set(missing "")
macro(expect path)
  if(NOT EXISTS ${prefix}/${path} OR IS_DIRECTORY ${prefix}/${path})
    list(APPEND missing ${path})
  else()
    file(SIZE ${prefix}/${path} size)
    if(size EQUAL 0)
      list(APPEND missing "${path} (empty)")
    endif()
  endif()
endmacro()

# The tool, and that the installed copy is the one this build made.
expect(${BINDIR}/urlsift)
execute_process(COMMAND ${prefix}/${BINDIR}/urlsift --version
  RESULT_VARIABLE rc OUTPUT_VARIABLE version ERROR_VARIABLE version)
if(NOT rc EQUAL 0 OR NOT version MATCHES "^urlsift [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "installed urlsift --version failed (${rc}): ${version}")
endif()

# The library and every public header.
expect(${LIBDIR}/${LIBRARY})
file(GLOB headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/urlsift/*.hpp)
list(LENGTH headers n)
if(n LESS 5)
  message(FATAL_ERROR "found only ${n} public headers under ${SOURCE_DIR}/include/urlsift")
endif()
foreach(header ${headers} urlsift/version.hpp)
  expect(${INCLUDEDIR}/${header})
endforeach()

# How other projects find it.
foreach(file urlsift-config.cmake urlsift-config-version.cmake urlsift-targets.cmake)
  expect(${LIBDIR}/cmake/urlsift/${file})
endforeach()
expect(${LIBDIR}/pkgconfig/urlsift.pc)
# pkg-config finds the installed headers and library, wherever the prefix
# was given (the file names its prefix relative to itself).
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  execute_process(COMMAND ${PKG_CONFIG} --variable=includedir urlsift
    RESULT_VARIABLE rc OUTPUT_VARIABLE pc_includedir OUTPUT_STRIP_TRAILING_WHITESPACE)
  execute_process(COMMAND ${PKG_CONFIG} --variable=libdir urlsift
    OUTPUT_VARIABLE pc_libdir OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0 OR NOT EXISTS ${pc_includedir}/urlsift/urlsift.hpp OR NOT EXISTS ${pc_libdir}/${LIBRARY})
    message(FATAL_ERROR "pkg-config's urlsift.pc does not point into ${prefix}: includedir '${pc_includedir}', "
                        "libdir '${pc_libdir}'")
  endif()
endif()

# A manual page for urlsift and each command the installed tool lists.
execute_process(COMMAND ${prefix}/${BINDIR}/urlsift --help OUTPUT_VARIABLE overview RESULT_VARIABLE rc)
string(REGEX MATCH "\nCommands:\n(  [a-z][^\n]*\n)+" table "${overview}")
string(REGEX MATCHALL "\n  [a-z][-a-z]*" commands "${table}")
if(NOT rc EQUAL 0 OR NOT commands)
  message(FATAL_ERROR "no command table in the installed urlsift --help:\n${overview}")
endif()
expect(${MANDIR}/man1/urlsift.1)
foreach(command ${commands})
  string(STRIP "${command}" command)
  expect(${MANDIR}/man1/urlsift-${command}.1)
endforeach()

# Completions, where each shell looks for them under a prefix.
expect(${DATADIR}/bash-completion/completions/urlsift)
expect(${DATADIR}/zsh/site-functions/_urlsift)
expect(${DATADIR}/fish/vendor_completions.d/urlsift.fish)

expect(${DOCDIR}/LICENSE)
expect(${DOCDIR}/NOTICE)

if(missing)
  list(JOIN missing "\n  " list)
  message(FATAL_ERROR "not installed under ${prefix}:\n  ${list}")
endif()
file(GLOB_RECURSE installed RELATIVE ${prefix} ${prefix}/*)
list(LENGTH installed n)
message(STATUS "all expected files installed (${n} files under ${prefix})")
