include(CMakePackageConfigHelpers)

install(TARGETS occcalc EXPORT occcalc-targets)
install(DIRECTORY include/occcalc DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${OCCCALC_TABLE_FILES} DESTINATION ${CMAKE_INSTALL_DATADIR}/occcalc)
install(FILES schema/result.schema.json schema/inspect.schema.json schema/check.schema.json
              schema/list.schema.json schema/suggest.schema.json schema/sweep.schema.json
              schema/diff.schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/occcalc)
if(TARGET occcalc_cli)
  install(TARGETS occcalc_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
# libocccalc: both libraries, occcalc.h and occcalc.pc (docs/library.md).
if(TARGET occcalc_c)
  install(TARGETS occcalc_c occcalc_c_static EXPORT occcalc-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES include/occcalc.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(FILES ${PROJECT_BINARY_DIR}/occcalc.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

set(occcalc_config_dir ${CMAKE_INSTALL_DATADIR}/cmake/occcalc)
install(EXPORT occcalc-targets NAMESPACE occcalc:: DESTINATION ${occcalc_config_dir})
configure_package_config_file(cmake/occcalc-config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/occcalc-config.cmake
  INSTALL_DESTINATION ${occcalc_config_dir}
  PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/occcalc-config-version.cmake
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES
  ${CMAKE_CURRENT_BINARY_DIR}/occcalc-config.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/occcalc-config-version.cmake
  DESTINATION ${occcalc_config_dir})

# The command line's man page (gzip -9n, as Debian ships man pages) and its
# completions for bash, zsh and fish, where each shell looks for them.
if(TARGET occcalc_cli)
  find_program(OCCCALC_GZIP gzip)
  if(OCCCALC_GZIP)
    add_custom_command(OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/occcalc.1.gz
      COMMAND ${OCCCALC_GZIP} -9nc ${PROJECT_SOURCE_DIR}/docs/occcalc.1 > ${CMAKE_CURRENT_BINARY_DIR}/occcalc.1.gz
      DEPENDS ${PROJECT_SOURCE_DIR}/docs/occcalc.1 VERBATIM)
    add_custom_target(occcalc_man ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/occcalc.1.gz)
    install(FILES ${CMAKE_CURRENT_BINARY_DIR}/occcalc.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  else()
    install(FILES docs/occcalc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endif()
  install(FILES completions/occcalc.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
          RENAME occcalc)
  install(FILES completions/_occcalc DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
  install(FILES completions/occcalc.fish DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
endif()
install(FILES LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)

# `cpack -G DEB` in a build directory: occcalc_<version>_<arch>.deb with the
# binary, man page, completions, headers, tables, schemas and CMake package.
# Its shared library dependencies come from dpkg-shlibdeps (none for the
# static preset's binary beyond libc).
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME occcalc)
set(CPACK_PACKAGE_VENDOR occcalc)
set(CPACK_PACKAGE_CONTACT "occcalc maintainers <occcalc@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU occupancy calculator for CUDA and HIP kernels")
# One string: set() with several strings makes a list, whose ';' separators
# would show in the package's description.
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "Computes the occupancy of a kernel launch, names every limiting resource, reads kernels from build outputs "
    "(cubins, fat binaries, ELF files, static libraries, AMD code objects, compiler logs) without a toolkit, and "
    "gates CI on them. NVIDIA compute capability 1.0 to 12.1 and AMD VLIW, GCN, CDNA and RDNA.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/occcalc/occcalc")
find_program(OCCCALC_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(OCCCALC_DPKG_SHLIBDEPS)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
endif()
set(CPACK_PACKAGE_FILE_NAME_SUFFIX "")
set(CPACK_STRIP_FILES ON)
# A package per component: occcalc (the CLI, headers, tables, schemas) and,
# where the Python module is built, python3-occcalc.
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_OCCCALC_PACKAGE_NAME occcalc)
set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-occcalc)
set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS python3)
# Each package's paragraph under the summary CPack writes as the synopsis.
set(CPACK_DEBIAN_OCCCALC_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
string(CONCAT CPACK_DEBIAN_PYTHON_DESCRIPTION
    "The calculator for Python. import occcalc runs the same C++ core and tables as the occcalc command, in process, with NumPy arrays for "
    "many configurations at once and helpers for Triton kernels.")
include(CPack)
