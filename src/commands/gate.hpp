// The --min-occupancy gate of the query and batch.
#pragma once

#include <optional>
#include <string>

namespace occcalc::cli {

/// The gate threshold in percent, if `text` (the --min-occupancy value) is
/// not empty; throws input_error for a value outside [0, 100].
std::optional<double> parse_min_occupancy(const std::string& text);

/// A percentage in [0, 100] for `field`; throws input_error otherwise.
double parse_percent(const std::string& field, const std::string& text);

/// Whether an occupancy in [0, 1] fails the gate (the exact value, not the
/// rounded one the message shows).
inline bool below(double occupancy, const std::optional<double>& min_percent) {
  return min_percent && occupancy * 100.0 < *min_percent;
}

}  // namespace occcalc::cli
