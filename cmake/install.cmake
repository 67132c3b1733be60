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
