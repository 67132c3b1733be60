cmake_minimum_required(VERSION 3.21)
# The static preset's binary: it needs no shared library beyond the C
# library (none, when fully static), answers the README's first example as the
# golden file says, prints its version, fails a bad request with exit 2, and
# answers a batch.
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
# Exceptions unwind: --version and every error leave through one. The static
# link finds unwind tables through PT_GNU_EH_FRAME (cmake/static_link.cmake);
# were they not found, these would abort.
execute_process(COMMAND ${OCCCALC} --version OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT out MATCHES "^occcalc [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "${OCCCALC} --version: exit ${rc}\n${out}")
endif()
execute_process(COMMAND ${OCCCALC} --cc 9.9 --threads 128 --regs 37 OUTPUT_VARIABLE out ERROR_VARIABLE err
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 2 OR NOT err MATCHES "^occcalc: error: --cc '9\\.9' is not a supported compute capability")
  message(FATAL_ERROR "${OCCCALC} --cc 9.9: exit ${rc}, expected 2 and one error line\n${err}")
endif()
# Batch reads standard input through its own buffer and answers each line.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/static_batch_input.jsonl
  "{\"cc\": \"7.0\", \"threads\": 128, \"regs\": 37}\n{\"cc\": \"8.0\", \"threads\": 256, \"regs\": 64}\n")
execute_process(COMMAND ${OCCCALC} batch INPUT_FILE ${CMAKE_CURRENT_BINARY_DIR}/static_batch_input.jsonl
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
string(REGEX MATCHALL "\"occupancy_percent\":[0-9.]+" occupancies "${out}")
if(NOT rc EQUAL 0 OR NOT occupancies STREQUAL "\"occupancy_percent\":75.0;\"occupancy_percent\":50.0")
  message(FATAL_ERROR "${OCCCALC} batch: exit ${rc}\n${out}")
endif()
file(SIZE ${OCCCALC} bytes)
list(LENGTH needed count)
message(STATUS "static occcalc: ${bytes} bytes, ${count} shared libraries needed")
