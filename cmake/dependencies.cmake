# Finds what the build needs. Nothing is downloaded: a missing dependency stops
# the configure step with the Debian package that provides it.
function(occcalc_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "occcalc needs ${package}: install the Debian package ${debian_package} "
                        "(apt-get install ${debian_package})")
  endif()
endfunction()

if(EMSCRIPTEN)
  # The web page compiles the machine's header-only nlohmann/json and fmt
  # (Debian's packages) with emscripten's own C++ library: an include
  # directory holding those two alone, never /usr/include itself.
  set(occcalc_web_include ${CMAKE_BINARY_DIR}/host-headers)
  foreach(library nlohmann fmt)
    find_path(OCCCALC_${library}_HEADERS ${library} PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
    if(NOT OCCCALC_${library}_HEADERS)
      message(FATAL_ERROR "the web page needs ${library}'s headers: apt-get install nlohmann-json3-dev libfmt-dev")
    endif()
    file(MAKE_DIRECTORY ${occcalc_web_include})
    file(CREATE_LINK ${OCCCALC_${library}_HEADERS}/${library} ${occcalc_web_include}/${library} SYMBOLIC)
  endforeach()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  set_target_properties(nlohmann_json::nlohmann_json PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${occcalc_web_include})
  add_library(occcalc_dep::fmt INTERFACE IMPORTED)
  set_target_properties(occcalc_dep::fmt PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${occcalc_web_include}
                                                    INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY)
  # emcc's linker runs Node.js scripts that need Debian's Node.js modules
  # (acorn); a Node.js other than Debian's does not look there.
  if(IS_DIRECTORY /usr/share/nodejs/acorn)
    set_property(GLOBAL PROPERTY RULE_LAUNCH_LINK "${CMAKE_COMMAND} -E env NODE_PATH=/usr/share/nodejs")
  endif()
  return()
endif()

# A project that has occcalc as a subproject and brings its own nlohmann/json
# (FetchContent, add_subdirectory) keeps it: occcalc uses that target.
if(NOT TARGET nlohmann_json::nlohmann_json)
  occcalc_require(nlohmann_json nlohmann-json3-dev 3.10)
endif()
# True while linking a target that sets the property OCCCALC_STATIC_LINK
# (cmake/static_link.cmake): the dependencies below then give it archives.
set(occcalc_static_link "$<BOOL:$<TARGET_PROPERTY:OCCCALC_STATIC_LINK>>")
set(OCCCALC_CAN_LINK_STATIC ON)
if(OCCCALC_BUILD_CLI OR OCCCALC_BUILD_TESTS OR OCCCALC_BUILD_BENCH OR OCCCALC_BUILD_LIBRARY)
  if(NOT TARGET fmt::fmt)
    occcalc_require(fmt libfmt-dev 9)
  endif()
  # fmt as the code links it: the shared library, or for a static link
  # and for a target that sets OCCCALC_FMT_COMPILED_IN (libocccalc, which
  # needs no libfmt) fmt's functions compiled once into occcalc_fmt_static
  # (src/cli/fmt_static.cpp; Debian ships no libfmt.a). The objects are the
  # same either way.
  set(occcalc_fmt_in "$<OR:${occcalc_static_link},$<BOOL:$<TARGET_PROPERTY:OCCCALC_FMT_COMPILED_IN>>>")
  add_library(occcalc_dep::fmt INTERFACE IMPORTED)
  set_target_properties(occcalc_dep::fmt PROPERTIES
    INTERFACE_LINK_LIBRARIES "$<IF:${occcalc_fmt_in},occcalc_fmt_static,fmt::fmt>")
endif()
if(OCCCALC_BUILD_CLI OR OCCCALC_BUILD_TESTS OR OCCCALC_BUILD_BENCH)
  occcalc_require(CLI11 libcli11-dev 2.1)
endif()
if(OCCCALC_BUILD_TESTS)
  # Catch2 3 (Ubuntu 24.04) or 2.13 (Debian 12): tests/support/catch.hpp
  # spells the tests' matchers for either.
  find_package(Catch2 3 QUIET)
  if(NOT Catch2_FOUND)
    occcalc_require(Catch2 catch2 2.13)
  endif()
endif()

# A C library found by its header and library files, as a target
# `occcalc_dep::<name>`: zstd and LZ4 decompress fat binary entries; RE2
# matches kernel name patterns. A static link gets the archive, any other
# the shared library; OCCCALC_CAN_LINK_STATIC says whether every archive is
# there.
function(occcalc_require_c_library name header library debian_package)
  find_path(OCCCALC_${name}_INCLUDE_DIR ${header})
  find_library(OCCCALC_${name}_LIBRARY ${library})
  find_library(OCCCALC_${name}_ARCHIVE NAMES lib${library}.a)
  if(NOT OCCCALC_${name}_INCLUDE_DIR OR NOT OCCCALC_${name}_LIBRARY)
    message(FATAL_ERROR "occcalc needs ${name}: install the Debian package ${debian_package} "
                        "(apt-get install ${debian_package})")
  endif()
  if(NOT OCCCALC_${name}_ARCHIVE)
    set(OCCCALC_CAN_LINK_STATIC OFF PARENT_SCOPE)
  endif()
  add_library(occcalc_dep::${name} INTERFACE IMPORTED)
  set_target_properties(occcalc_dep::${name} PROPERTIES
    INTERFACE_LINK_LIBRARIES "$<IF:${occcalc_static_link},${OCCCALC_${name}_ARCHIVE},${OCCCALC_${name}_LIBRARY}>"
    INTERFACE_INCLUDE_DIRECTORIES ${OCCCALC_${name}_INCLUDE_DIR})
endfunction()

if(OCCCALC_BUILD_CLI OR OCCCALC_BUILD_TESTS OR OCCCALC_BUILD_BENCH OR OCCCALC_BUILD_LIBRARY)
  occcalc_require_c_library(zstd zstd.h zstd libzstd-dev)
  occcalc_require_c_library(lz4 lz4.h lz4 liblz4-dev)
  find_package(Threads REQUIRED)
  # A saved inspect --json (diff's and check's baseline: 359 MB for 600,000
  # kernels) is read with RapidJSON's SAX reader, header-only: five times
  # nlohmann's lexer (docs/contributing.md).
  find_path(OCCCALC_rapidjson_INCLUDE_DIR rapidjson/reader.h)
  if(NOT OCCCALC_rapidjson_INCLUDE_DIR)
    message(FATAL_ERROR "occcalc needs RapidJSON: install the Debian package rapidjson-dev "
                        "(apt-get install rapidjson-dev)")
  endif()
  add_library(occcalc_dep::rapidjson INTERFACE IMPORTED)
  set_target_properties(occcalc_dep::rapidjson PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${OCCCALC_rapidjson_INCLUDE_DIR})
endif()
if(OCCCALC_BUILD_CLI OR OCCCALC_BUILD_TESTS OR OCCCALC_BUILD_BENCH)
  # Kernel name patterns: RE2 matches in linear time, without recursion.
  occcalc_require_c_library(re2 re2/re2.h re2 libre2-dev)
endif()
