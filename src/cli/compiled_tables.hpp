// The default tables (data/*.json) as C++ data: loaded and validated by the
// table loader when occcalc was built (src/tablegen), so a query starts
// without parsing JSON. --table files still go through the loader.
#pragma once

#include "cli/embedded_tables.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc::cli {

/// What `occcalc::load_tables(embedded_tables(vendor))` returns, built from
/// compiled-in values (tests/tables/compiled_tables_test.cpp holds them equal).
occcalc::table compiled_tables(table_vendor vendor);

/// What `occcalc::load_tables(embedded_tables())` returns: both vendors,
/// NVIDIA's first.
occcalc::table compiled_tables();

}  // namespace occcalc::cli
