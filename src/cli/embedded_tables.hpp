// The default tables (data/*.json), compiled into the executable.
#pragma once

#include <vector>

#include "occcalc/tables/tables.hpp"

namespace occcalc::cli {

/// Which vendor a table describes; the build tags each embedded table.
enum class table_vendor { nvidia, amd };

/// The contents of one vendor's data/*.json as they were at build time, in
/// load order.
const std::vector<occcalc::table_text>& embedded_tables(table_vendor vendor);

/// Every embedded table: NVIDIA's, then AMD's.
const std::vector<occcalc::table_text>& embedded_tables();

}  // namespace occcalc::cli
