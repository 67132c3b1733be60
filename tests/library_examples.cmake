# Installs occcalc into a scratch prefix, then builds and runs
# examples/library against it through pkg-config, as a downstream project
# would: a C99 program on libocccalc.so, the same program linked statically
# (libocccalc.a), C++ without exceptions, the header-only core in constexpr
# and, where CMake finds nvcc, in device code. Each must print 75.0%; the
# shared library must need nothing beyond the C and C++ runtimes, zstd and LZ4, and the
# static program no shared library at all.
#   -DSOURCE_DIR -DBINARY_DIR -DWORK_DIR [-DCONFIG]
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()
set(config_args)
if(CONFIG)
  set(config_args --config "${CONFIG}")
endif()
step("${CMAKE_COMMAND}" --install "${BINARY_DIR}" --prefix "${prefix}" ${config_args})
# nvcc where the CUDA toolkit puts it, though not on PATH: then the device
# example must build and run.
find_program(nvcc nvcc HINTS ENV CUDA_PATH ENV CUDA_HOME PATH_SUFFIXES bin PATHS /usr/local/cuda/bin)
set(cuda_args)
if(nvcc)
  set(cuda_args "-DCMAKE_CUDA_COMPILER=${nvcc}")
endif()
step("${CMAKE_COMMAND}" -S "${SOURCE_DIR}/examples/library" -B "${WORK_DIR}/build"
     "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Release ${cuda_args})
step("${CMAKE_COMMAND}" --build "${WORK_DIR}/build" ${config_args})
set(programs mission mission_static no_exceptions constexpr_mission)
if(nvcc)
  list(APPEND programs device_mission)
endif()
foreach(program ${programs})
  step("${WORK_DIR}/build/${program}")
  if(NOT step_output MATCHES "75\\.0%")
    message(FATAL_ERROR "${program} printed, not 75.0%:\n${step_output}")
  endif()
  message(STATUS "${program}: ${step_output}")
endforeach()
find_program(readelf readelf)
if(readelf)
  file(GLOB_RECURSE shared "${prefix}/lib*/libocccalc.so.0")
  step("${readelf}" -d ${shared})
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[([^]]+)\\]" needed "${step_output}")
  foreach(entry ${needed})
    if(NOT entry MATCHES "\\[(libstdc\\+\\+|libm|libgcc_s|libc|libzstd|liblz4|ld-linux[-_a-z0-9]*)\\.so")
      message(FATAL_ERROR "libocccalc.so needs more than the C and C++ runtimes, zstd and LZ4: ${entry}")
    endif()
  endforeach()
  step("${readelf}" -l "${WORK_DIR}/build/mission_static")
  if(step_output MATCHES "INTERP")
    message(FATAL_ERROR "mission_static asks for a dynamic loader: it is not static")
  endif()
endif()
