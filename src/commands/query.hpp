// The query: one launch configuration, as text or JSON, with an optional
// --min-occupancy gate.
#pragma once

#include <iosfwd>
#include <string>

#include "commands/exit_status.hpp"
#include "occcalc/request/request.hpp"
#include "occcalc/tables/tables.hpp"

#include "render/terminal.hpp"

namespace occcalc::cli {

struct query_options {
  occcalc::request request;
  /// The --min-occupancy text; empty for no gate.
  std::string min_occupancy;
  bool json = false;
  /// One line instead of the whole answer (`--brief`).
  bool brief = false;
  /// What the text view may use.
  terminal term;
};

exit_status run_query(const occcalc::table& tables, const query_options& options, std::ostream& out, std::ostream& err);

}  // namespace occcalc::cli
