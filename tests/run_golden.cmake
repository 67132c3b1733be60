cmake_minimum_required(VERSION 3.21)
# Runs occcalc and compares its stdout byte for byte with an approved file,
# and its exit code with the expected one.
#   -DOCCCALC=path -DARGS="a@@b@@c" -DEXPECTED=file -DEXPECT_RC=n [-DINPUT=file] [-DSTREAM=stderr]
#   [-DCOLUMNS=n]
string(REPLACE "@@" ";" args "${ARGS}")
set(input_args)
if(INPUT)
  set(input_args INPUT_FILE "${INPUT}")
endif()
set(ENV{NO_COLOR} 1)
if(COLUMNS)
  set(ENV{COLUMNS} "${COLUMNS}")
else()
  unset(ENV{COLUMNS})  # piped: the default 80 columns
endif()
execute_process(COMMAND "${OCCCALC}" ${args} ${input_args}
  OUTPUT_VARIABLE out_text ERROR_VARIABLE err_text RESULT_VARIABLE rc)
if(STREAM STREQUAL "stderr")
  set(actual "${err_text}")
else()
  set(actual "${out_text}")
endif()
file(READ "${EXPECTED}" expected)
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "occcalc ${args}: exit code ${rc}, expected ${EXPECT_RC}\nstderr: ${err_text}")
endif()
if(NOT actual STREQUAL expected)
  file(WRITE "${EXPECTED}.actual" "${actual}")
  message(FATAL_ERROR "occcalc ${args}: output differs from ${EXPECTED}; see ${EXPECTED}.actual\n${actual}")
endif()
