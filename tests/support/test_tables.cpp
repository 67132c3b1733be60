#include "test_tables.hpp"

#include <stdexcept>

#include "cli/compiled_tables.hpp"
#include "occcalc/request/lookup.hpp"

namespace occcalc::test {

const occcalc::table& default_tables() {
  // The compiled tables: what the loader makes of data/ (the compiled_tables
  // test holds them equal), without compiling the loader here.
  static const occcalc::table tables = occcalc::cli::compiled_tables();
  return tables;
}

const occcalc::nvidia_arch& arch(const std::string& cc) { return occcalc::require_arch(default_tables(), "cc", cc); }

const occcalc::amd_target& amd_target(const std::string& id) {
  const occcalc::amd_target* t = occcalc::find_amd_target(default_tables(), id);
  if (t == nullptr) throw std::invalid_argument("no AMD target " + id);
  return *t;
}

}  // namespace occcalc::test
