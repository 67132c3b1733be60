// `occcalc batch`: JSON Lines in, one result or error object out per line.
#pragma once

#include <iosfwd>
#include <optional>

#include "commands/exit_status.hpp"
#include "occcalc/tables/load.hpp"

namespace occcalc::cli {

/// Answers every line of `in` on `out`, in order; `min_percent` gates each
/// result as --min-occupancy does.
exit_status run_batch(const occcalc::table& tables, const std::optional<double>& min_percent, std::istream& in,
                      std::ostream& out);

}  // namespace occcalc::cli
