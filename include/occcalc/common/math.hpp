/// \file common/math.hpp
/// Integer rounding and division: the only copies, shared by the models, the
/// readers and the renderers. Vendor-neutral.
#pragma once

#include <cstdint>

#include "occcalc/common/host_device.hpp"

namespace occcalc::detail {

/// `x / y` rounded up; `x >= 0`, `y > 0`.
OCCCALC_HOST_DEVICE constexpr std::int64_t divide_round_up(std::int64_t x, std::int64_t y) noexcept {
  return (x + y - 1) / y;
}

/// `x` rounded up to a multiple of `multiple`; `x >= 0`, `multiple > 0`.
OCCCALC_HOST_DEVICE constexpr std::int64_t round_up(std::int64_t x, std::int64_t multiple) noexcept {
  return divide_round_up(x, multiple) * multiple;
}

/// The same for unsigned sizes (file offsets, section sizes).
OCCCALC_HOST_DEVICE constexpr std::uint64_t round_up(std::uint64_t x, std::uint64_t multiple) noexcept {
  return (x + multiple - 1) / multiple * multiple;
}

/// The largest value in [0, high] for which `holds` is true, given that it
/// is true at 0 and, once false, stays false (a usage that still reaches an
/// occupancy): a binary search.
template <typename Predicate>
std::int64_t last_holding(std::int64_t high, Predicate holds) {
  std::int64_t low = 0;
  while (low < high) {
    const std::int64_t middle = low + (high - low + 1) / 2;
    if (holds(middle)) {
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return low;
}

}  // namespace occcalc::detail
