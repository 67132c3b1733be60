# Fails unless the checked-in built-in architectures equal the ones the
# build generated from data/*.json, naming the command that updates them.
file(READ "${GENERATED}" generated)
file(READ "${CHECKED_IN}" checked_in)
if(NOT generated STREQUAL checked_in)
  message(FATAL_ERROR "${CHECKED_IN} is not what data/ gives: copy ${GENERATED} over it "
                      "(both are written by occcalc_tablegen from data/*.json)")
endif()
message(STATUS "builtin_architectures.hpp equals the build's, from data/*.json")
