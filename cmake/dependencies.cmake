# Finds what the build needs. Nothing is downloaded: a missing dependency stops
# the configure step with the Debian package that provides it.
function(occcalc_require package debian_package)
  find_package(${package} ${ARGN} QUIET)
  if(NOT ${package}_FOUND)
    message(FATAL_ERROR "occcalc needs ${package}: install the Debian package ${debian_package} "
                        "(apt-get install ${debian_package})")
  endif()
endfunction()

occcalc_require(nlohmann_json nlohmann-json3-dev 3.10)
if(OCCCALC_BUILD_CLI OR OCCCALC_BUILD_TESTS OR OCCCALC_BUILD_BENCH)
  occcalc_require(fmt libfmt-dev 9)
  occcalc_require(CLI11 libcli11-dev 2.1)
endif()
if(OCCCALC_BUILD_TESTS)
  occcalc_require(Catch2 catch2 2.13)
endif()
