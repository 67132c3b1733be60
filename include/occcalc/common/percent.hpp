/// \file common/percent.hpp
/// Occupancy as a percentage: the one scale and the one rounding every output
/// uses. Vendor-neutral.
#pragma once

#include <cmath>

namespace occcalc {

/// Percent in a whole (an occupancy in [0, 1] times this).
inline constexpr double percent_per_unit = 100.0;

/// `fraction` in percent, rounded to hundredths (what JSON and the gate
/// message show; gates compare the exact value).
inline double percent_hundredths(double fraction) {
  constexpr double hundredths_per_unit = percent_per_unit * 100.0;
  return std::round(fraction * hundredths_per_unit) / 100.0;
}

}  // namespace occcalc
