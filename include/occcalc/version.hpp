/// \file version.hpp
/// The single source of occcalc's version; CMake reads it with a regex.
#pragma once

#define OCCCALC_VERSION_MAJOR 0
#define OCCCALC_VERSION_MINOR 1
#define OCCCALC_VERSION_PATCH 0

namespace occcalc {

/// The version as "MAJOR.MINOR.PATCH".
inline constexpr const char* version_string = "0.1.0";

/// Version of the JSON result schema (`schema/result.schema.json`); bumped on
/// any incompatible change to the keys or their meaning.
inline constexpr int result_schema_version = 1;

}  // namespace occcalc
