/// \file amd/summary.hpp
/// The AMD resources as `resource_info`, and a model's result as the neutral
/// `occupancy_summary`.
#pragma once

#include <array>

#include "occcalc/amd/result.hpp"
#include "occcalc/common/summary.hpp"

namespace occcalc {

/// The AMD resources' keys and labels, indexed by `amd_resource`.
inline constexpr std::array<resource_info, amd_resource_count> amd_resource_info = {{
    {"wave_slots", "wave slots"},
    {"vgprs", "VGPRs"},
    {"agprs", "AGPRs"},
    {"sgprs", "SGPRs"},
    {"lds", "LDS"},
    {"work_groups", "work-group cap"},
    {"barriers", "barriers"},
}};

constexpr const resource_info& info(amd_resource r) noexcept { return amd_resource_info[static_cast<std::size_t>(r)]; }

inline occupancy_summary summarize(const amd_occupancy_result& r) noexcept {
  occupancy_summary s;
  s.model = to_string(r.model);
  s.unit = r.per_wgp ? "wgp" : "cu";
  s.groups_per_unit = r.work_groups;
  s.active_warps = r.active_waves;
  s.max_warps = r.max_waves;
  for (const auto res : amd_resources) {
    if (r.limiters.contains(res)) s.add_limiter(info(res));
  }
  return s;
}

}  // namespace occcalc
