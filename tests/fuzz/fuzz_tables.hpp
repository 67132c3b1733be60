// The tables the CLI answers with, compiled in: what the fuzz targets that
// evaluate what they read take (the table fuzz target reads the JSON).
#pragma once

#include "cli/compiled_tables.hpp"

inline const occcalc::table& fuzz_tables() { return occcalc::cli::resident_tables(); }
