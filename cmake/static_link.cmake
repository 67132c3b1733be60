# How the static preset links occcalc: one self-contained file that starts as
# fast as it can. A query is a whole process, so what the kernel does at exec
# and at the first touch of each page costs more than the computation.
#
#   occcalc_static_link(target [LAYOUT] SOURCES ... LIBRARIES ...)
#
# The target gets the static link (and, through OCCCALC_STATIC_LINK, the
# archives of its dependencies: cmake/dependencies.cmake). With LAYOUT its
# sections are ordered by what the program touches: SOURCES and LIBRARIES
# are the target's own, from which a probe is built to measure that.
#
# Each step is checked and, where the toolchain lacks it, left out: the binary
# is the same program either way, only its layout differs.
include(CheckLinkerFlag)
include(CheckCXXSourceRuns)

function(occcalc_static_link target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "LAYOUT" "" "SOURCES;LIBRARIES")
  set_target_properties(${target} PROPERTIES OCCCALC_STATIC_LINK ON)
  set(sources ${arg_SOURCES})
  set(libraries ${arg_LIBRARIES})
  # libstdc++, libgcc and glibc linked in. A position-dependent executable:
  # a static PIE relocates its thousands of pointers at every start, writing
  # (and so faulting in) every page of .data.rel.ro.
  #
  # A plain -static link takes crtbeginT.o, which registers the unwind tables
  # with libgcc; the first exception (--version, any error) then sorts every
  # FDE in the binary, which costs more than the query. This spec takes crtbeginS.o instead, which
  # registers nothing, and the linker writes .eh_frame_hdr: the unwinder finds
  # an FDE by binary search through PT_GNU_EH_FRAME, as in any dynamic
  # executable or static PIE. Checked by throwing and catching in a program
  # linked this way.
  set(eh_frame_hdr_link -static "-specs=${PROJECT_SOURCE_DIR}/cmake/static-eh-frame-hdr.specs" -Wl,--eh-frame-hdr)
  set(CMAKE_REQUIRED_LINK_OPTIONS ${eh_frame_hdr_link})
  check_cxx_source_runs([[
    #include <stdexcept>
    int main() {
      try { throw std::runtime_error("unwound"); } catch (const std::exception&) { return 0; }
      return 1;
    }]] OCCCALC_STATIC_EH_FRAME_HDR)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  if(OCCCALC_STATIC_EH_FRAME_HDR)
    set(start_link ${eh_frame_hdr_link})
  else()
    # A static PIE finds its FDEs through .eh_frame_hdr too; its relative
    # relocations packed as DT_RELR (glibc 2.36, binutils 2.38).
    set(start_link -static-pie)
    check_linker_flag(CXX "-Wl,-z,pack-relative-relocs" OCCCALC_LINKER_PACKS_RELOCS)
    if(OCCCALC_LINKER_PACKS_RELOCS)
      list(APPEND start_link -Wl,-z,pack-relative-relocs)
    endif()
  endif()
  target_link_options(${target} PRIVATE ${start_link})
  if(NOT arg_LAYOUT)
    return()
  endif()

  # The functions and data that the common commands touch, first and together:
  # a query then faults in a few runs of pages instead of pages across the
  # whole 4 MB of code. A probe (the same program in the default layout) runs
  # those commands under valgrind (cmake/profile_layout.py), which writes the
  # symbols they touch in order; lld lays out occcalc in that order. Needs
  # every function and object in a section of its own (the top-level
  # CMakeLists.txt compiles the static preset with -ffunction-sections
  # -fdata-sections; libstdc++.a is built so).
  check_linker_flag(CXX "-fuse-ld=lld" OCCCALC_HAVE_LLD)
  find_program(OCCCALC_VALGRIND valgrind)
  find_package(Python3 COMPONENTS Interpreter)
  if(NOT OCCCALC_HAVE_LLD OR NOT OCCCALC_VALGRIND OR NOT Python3_Interpreter_FOUND)
    message(STATUS "occcalc: the static binary keeps the default layout (ordering it needs lld, valgrind and python3)")
    return()
  endif()
  set(probe ${target}_layout_probe)
  add_executable(${probe} ${sources})
  set_target_properties(${probe} PROPERTIES OCCCALC_STATIC_LINK ON)
  target_link_libraries(${probe} PRIVATE ${libraries})
  target_link_options(${probe} PRIVATE ${start_link} -fuse-ld=lld -Wl,--gc-sections)
  set(order ${CMAKE_CURRENT_BINARY_DIR}/${target}.order)
  add_custom_command(
    OUTPUT ${order}
    COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/cmake/profile_layout.py $<TARGET_FILE:${probe}> ${order}
    DEPENDS ${probe} ${PROJECT_SOURCE_DIR}/cmake/profile_layout.py
    COMMENT "Ordering occcalc's sections by what its common commands touch"
    VERBATIM)
  add_custom_target(${target}_layout DEPENDS ${order})
  add_dependencies(${target} ${target}_layout)
  target_link_options(${target} PRIVATE -fuse-ld=lld "-Wl,--symbol-ordering-file=${order}"
    -Wl,--no-warn-symbol-ordering -Wl,--gc-sections)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${order})
endfunction()
