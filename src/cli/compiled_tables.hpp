// The default tables (data/*.json) as C++ data: loaded and validated by the
// table loader when occcalc was built (src/tablegen), so a query starts
// without parsing JSON. --table files still go through the loader.
#pragma once

#include "cli/embedded_tables.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc::cli {

/// How much of a table to build.
enum class table_extent {
  /// Every entry.
  full,
  /// The architectures and AMD targets alone, without the sources and the
  /// named GPUs: what a request that names no GPU reads. Their strings are
  /// most of what building a table costs at every start.
  architectures,
};

/// What `occcalc::load_tables(embedded_tables(vendor))` returns, built from
/// compiled-in values (tests/tables/compiled_tables_test.cpp holds them equal),
/// or its architectures alone.
occcalc::table compiled_tables(table_vendor vendor, table_extent extent = table_extent::full);

/// What `occcalc::load_tables(embedded_tables())` returns: both vendors,
/// NVIDIA's first; or their architectures alone.
occcalc::table compiled_tables(table_extent extent = table_extent::full);

/// The compiled tables with an index of their GPU names, made once and kept
/// for the life of the process: for what answers many requests (the Python
/// module, libocccalc, the page), where a GPU or family name is then found
/// in a few hash lookups, not by reading every GPU's names.
const occcalc::table& resident_tables();

}  // namespace occcalc::cli
