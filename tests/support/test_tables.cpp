#include "test_tables.hpp"

#include "cli/embedded_tables.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::test {

const occcalc::table& default_tables() {
  static const occcalc::table tables = occcalc::load_tables(occcalc::cli::embedded_tables());
  return tables;
}

const occcalc::nvidia_arch& arch(const std::string& cc) { return occcalc::require_arch(default_tables(), "cc", cc); }

}  // namespace occcalc::test
