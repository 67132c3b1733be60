#include "test_tables.hpp"

#include <stdexcept>

#include "cli/embedded_tables.hpp"
#include "occcalc/request/lookup.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::test {

const occcalc::table& default_tables() {
  static const occcalc::table tables = occcalc::load_tables(occcalc::cli::embedded_tables());
  return tables;
}

const occcalc::nvidia_arch& arch(const std::string& cc) { return occcalc::require_arch(default_tables(), "cc", cc); }

const occcalc::amd_target& amd_target(const std::string& id) {
  const occcalc::amd_target* t = occcalc::find_amd_target(default_tables(), id);
  if (t == nullptr) throw std::invalid_argument("no AMD target " + id);
  return *t;
}

}  // namespace occcalc::test
