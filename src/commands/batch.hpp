// `occcalc batch`: JSON Lines in, one result or error object out per line.
#pragma once

#include <iosfwd>
#include <optional>

#include "commands/exit_status.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc::cli {

/// Answers every line of `in` on `out`, in order. `min_percent` (given as
/// `min_text`) gates each result as --min-occupancy does: each result gets a
/// `gate` field, and one line on `err` counts those below it and names the
/// first (line numbers and ids).
exit_status run_batch(const occcalc::table& tables, const std::optional<double>& min_percent,
                      const std::string& min_text, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace occcalc::cli
