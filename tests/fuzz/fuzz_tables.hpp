// The embedded tables, loaded once per fuzz process.
#pragma once

#include "cli/embedded_tables.hpp"
#include "occcalc/tables/load.hpp"

inline const occcalc::table& fuzz_tables() {
  static const occcalc::table tables = occcalc::load_tables(occcalc::cli::embedded_tables());
  return tables;
}
