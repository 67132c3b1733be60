/// \file common/summary.hpp
/// The vendor-neutral view of an occupancy result: what every output that is
/// not vendor-specific reads (inspect's table and CSV, check's gate, sweep
/// samples, limiter lists). Each vendor's `summarize()` fills it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "occcalc/common/percent.hpp"

namespace occcalc {

/// A resource's two names: the JSON key (`shared_memory`) and the words
/// people read (`shared memory`).
struct resource_info {
  std::string_view key;
  std::string_view label;
};

/// The most resources any model has.
inline constexpr std::size_t max_resources = 8;

struct occupancy_summary {
  /// Which model answered, as JSON spells it.
  std::string_view model;
  /// What a group is counted per: `sm`, `cu`, `wgp`.
  std::string_view unit;
  /// Resident groups (blocks; work-groups) per unit.
  std::int64_t groups_per_unit = 0;
  /// Resident warps (waves) per unit.
  std::int64_t active_warps = 0;
  /// The model's warp (wave) slots per unit.
  std::int64_t max_warps = 0;
  /// The limiting resources, in report order (several when tied).
  std::array<const resource_info*, max_resources> limiters{};
  std::size_t limiter_count = 0;

  /// Active / maximum warps, in [0, 1].
  double occupancy() const noexcept {
    return max_warps > 0 ? static_cast<double>(active_warps) / static_cast<double>(max_warps) : 0.0;
  }
  /// The same in percent, rounded to hundredths.
  double occupancy_percent() const { return percent_hundredths(occupancy()); }
  /// The limiters' keys (or, `for_people`, labels) joined by `separator`.
  std::string limiter_list(std::string_view separator, bool for_people = false) const {
    std::string text;
    for (std::size_t i = 0; i < limiter_count; ++i) {
      if (i > 0) text += separator;
      text += for_people ? limiters[i]->label : limiters[i]->key;
    }
    return text;
  }
  void add_limiter(const resource_info& info) noexcept {
    if (limiter_count < max_resources) limiters[limiter_count++] = &info;
  }
};

}  // namespace occcalc
