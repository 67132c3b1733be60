cmake_minimum_required(VERSION 3.21)
# The static preset's binary: it needs no shared library beyond the C
# library (none, when fully static), and answers the README's first example
# as the golden file says.
#   -DOCCCALC=path -DEXPECTED=tests/golden/main.txt
find_program(READELF readelf REQUIRED)
execute_process(COMMAND ${READELF} -d ${OCCCALC} OUTPUT_VARIABLE dynamic ERROR_QUIET)
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[([^]]+)\\]" needed "${dynamic}")
foreach(entry IN LISTS needed)
  if(NOT entry MATCHES "\\[libc\\.so\\.6\\]")
    message(FATAL_ERROR "${OCCCALC} needs a shared library: ${entry}")
  endif()
endforeach()
set(ENV{NO_COLOR} 1)
unset(ENV{COLUMNS})
execute_process(COMMAND ${OCCCALC} --cc 7.0 --threads 128 --regs 37 OUTPUT_VARIABLE out RESULT_VARIABLE rc)
file(READ ${EXPECTED} expected)
if(NOT rc EQUAL 0 OR NOT out STREQUAL expected)
  message(FATAL_ERROR "${OCCCALC} --cc 7.0 --threads 128 --regs 37: exit ${rc}\n${out}")
endif()
file(SIZE ${OCCCALC} bytes)
list(LENGTH needed count)
message(STATUS "static occcalc: ${bytes} bytes, ${count} shared libraries needed")
