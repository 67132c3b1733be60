// Occupancy floors: the one unit every gate reads (percent) and the one
// comparison every gate makes (the figure it prints).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "occcalc/common/percent.hpp"

namespace occcalc::cli {

/// An occupancy floor in percent, written `75` or `75%`, in [0, 100]. A value
/// in (0, 1] without `%` is refused as ambiguous (is `0.75` 0.75% or 75%? The
/// JSON outputs give occupancy as a fraction), naming both readings. Throws
/// `input_error` for `field` otherwise.
double parse_occupancy_floor(const std::string& field, std::string_view text);

/// `parse_occupancy_floor` of a --min-occupancy value; empty when not given.
std::optional<double> parse_min_occupancy(const std::string& text);

/// Percentage points in [0, 100] (`--max-occupancy-drop`), with or without
/// `%`; a points figure has no fraction reading. Throws `input_error`.
double parse_percentage_points(const std::string& field, std::string_view text);

/// Whether an occupancy in [0, 1] fails a floor in percent. The gate compares
/// the figure it prints, percent rounded to two decimals: a floor of 66.67
/// passes a kernel shown at 66.67%.
inline bool below_floor(double occupancy, double floor_percent) {
  return occcalc::percent_hundredths(occupancy) < floor_percent;
}

/// `below_floor` when a floor is given.
inline bool below(double occupancy, const std::optional<double>& floor_percent) {
  return floor_percent && below_floor(occupancy, *floor_percent);
}

}  // namespace occcalc::cli
