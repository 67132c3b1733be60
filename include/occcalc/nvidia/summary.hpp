/// \file nvidia/summary.hpp
/// The NVIDIA model's resources as `resource_info`, and its result as the
/// neutral `occupancy_summary`.
#pragma once

#include <array>

#include "occcalc/common/summary.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// The NVIDIA resources' keys and labels, indexed by `resource`.
inline constexpr std::array<resource_info, resource_count> nvidia_resource_info = {{
    {"warps", "warps"},
    {"registers", "registers"},
    {"shared_memory", "shared memory"},
    {"blocks", "blocks"},
    {"barriers", "barriers"},
}};

constexpr const resource_info& info(resource r) noexcept { return nvidia_resource_info[static_cast<std::size_t>(r)]; }

inline occupancy_summary summarize(const occupancy_result& r) noexcept {
  occupancy_summary s;
  s.model = "nvidia";
  s.unit = "sm";
  s.groups_per_unit = r.blocks_per_sm;
  s.active_warps = r.active_warps_per_sm;
  s.max_warps = r.max_warps_per_sm;
  for (const auto res : nvidia_resources) {
    if (r.limiters.contains(res)) s.add_limiter(info(res));
  }
  return s;
}

}  // namespace occcalc
