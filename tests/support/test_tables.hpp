// The default tables, loaded once for the tests. Defined in test_tables.cpp:
// the loader is header-only, and compiling it into every test file would
// cost seconds each.
#pragma once

#include <string>

#include "occcalc/tables/tables.hpp"

namespace occcalc::test {

/// The embedded tables, loaded on first use.
const occcalc::table& default_tables();

/// The architecture of a compute capability such as "7.0".
const occcalc::nvidia_arch& arch(const std::string& cc);

}  // namespace occcalc::test
