/// \file common/sweep.hpp
/// What every vendor's sweep shares: the range of values, and the cliffs
/// where occupancy steps between consecutive points.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace occcalc {

/// Values from `first` to `last` (inclusive) in steps of `step`.
struct sweep_range {
  std::int64_t first = 0;
  std::int64_t last = 0;
  std::int64_t step = 1;
};

/// A cliff: where occupancy changes from one point to the next.
struct sweep_cliff {
  /// The last value before the step and the first after it.
  std::int64_t before = 0;
  std::int64_t after = 0;
  double occupancy_before = 0.0;
  double occupancy_after = 0.0;
};

/// Where consecutive points' occupancy differs. `Point` has a `value` and a
/// `result` with `occupancy()` (every vendor's sweep point).
template <typename Point>
std::vector<sweep_cliff> cliffs(const std::vector<Point>& points) {
  std::vector<sweep_cliff> out;
  for (std::size_t i = 1; i < points.size(); ++i) {
    const double before = points[i - 1].result.occupancy();
    const double after = points[i].result.occupancy();
    // Exact comparison: within a sweep the denominator never changes.
    if (before != after) out.push_back({points[i - 1].value, points[i].value, before, after});
  }
  return out;
}

}  // namespace occcalc
