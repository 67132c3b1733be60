// The default tables (data/*.json), compiled into the executable.
#pragma once

#include <vector>

#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

/// The contents of data/*.json as they were at build time, in load order.
const std::vector<occcalc::table_text>& embedded_tables();

}  // namespace occcalc::cli
