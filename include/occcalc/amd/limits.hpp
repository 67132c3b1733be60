/// \file amd/limits.hpp
/// The limits table for AMD (`occcalc limits`), as the compiler counts
/// (LLVM's `llvm-calc-occupancy --limits`): for every waves-per-SIMD level
/// a work-group size reaches, the most VGPRs and SGPRs a wave may use and
/// the most LDS a work-group may, each resource on its own.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "occcalc/amd/llvm.hpp"

namespace occcalc {

/// One occupancy level and what reaches it.
struct amd_limit_level {
  std::int64_t waves_per_simd = 0;
  /// Waves per SIMD over the SIMD's maximum, in [0, 1].
  double occupancy = 0.0;
  /// VGPRs per work-item at most (VGPRs and AGPRs together on a unified
  /// file): LLVM's getMaxNumVGPRs.
  std::int64_t max_vgprs = 0;
  /// SGPRs per wave at most where waves share an SGPR file (gfx9 and
  /// older); empty where SGPRs never limit.
  std::optional<std::int64_t> max_sgprs;
  /// LDS per work-group at most, in bytes, at the work-group size.
  std::int64_t max_lds_bytes = 0;
};

/// What reaches `waves` per SIMD with work-groups of `work_group_size`,
/// each resource on its own.
inline amd_limit_level amd_limit_at(const amd_target& t, const amd_mode& mode, std::int64_t work_group_size,
                                    std::int64_t waves) {
  amd_kernel k;
  k.min_work_group_size = work_group_size;
  k.max_work_group_size = work_group_size;
  // A unified file holds the AGPRs too: its budget is the pair's.
  const std::int64_t vgpr_budget = t.max_vgprs_per_wave + (t.unified_vgpr_file ? t.max_agprs_per_wave : 0);
  amd_limit_level level;
  level.waves_per_simd = waves;
  level.occupancy = static_cast<double>(waves) / static_cast<double>(t.max_waves_per_simd);
  level.max_vgprs =
      detail::last_holding(vgpr_budget, [&](std::int64_t v) { return amd_vgpr_waves(t, v, mode.wave_size) >= waves; });
  if (t.sgprs_per_simd) {
    level.max_sgprs = detail::last_holding(t.max_sgprs_under(amd_model::llvm),
                                           [&](std::int64_t s) { return amd_sgpr_waves(t, s) >= waves; });
  }
  level.max_lds_bytes = detail::last_holding(t.max_lds_per_work_group_bytes, [&](std::int64_t bytes) {
    k.lds_bytes = bytes;
    return amd_work_group_waves(t, k, mode) >= waves;
  });
  return level;
}

/// The most waves per SIMD work-groups of `work_group_size` reach (with no
/// LDS): the table's highest level.
inline std::int64_t amd_most_waves(const amd_target& t, const amd_mode& mode, std::int64_t work_group_size) {
  amd_kernel k;
  k.min_work_group_size = work_group_size;
  k.max_work_group_size = work_group_size;
  return amd_work_group_waves(t, k, mode);
}

/// The fewest waves per SIMD a work-group of `work_group_size` runs at: its
/// waves spread over the SIMDs of a CU (or WGP), rounded up. A level below it
/// holds no work-group at all (1,024 work-items on gfx90a need 4 per SIMD).
inline std::int64_t amd_least_waves(const amd_target& t, const amd_mode& mode, std::int64_t work_group_size) {
  const std::int64_t simds = t.simds_per_cu * detail::amd_cus_per_unit(t, mode);
  return detail::divide_round_up(detail::divide_round_up(work_group_size, mode.wave_size), simds);
}

/// Every level that work-groups of `work_group_size` reach with no LDS, the
/// highest first, down to the fewest waves one work-group needs.
inline std::vector<amd_limit_level> amd_limits(const amd_target& t, const amd_mode& mode,
                                               std::int64_t work_group_size) {
  std::vector<amd_limit_level> out;
  const std::int64_t least = amd_least_waves(t, mode, work_group_size);
  for (std::int64_t waves = amd_most_waves(t, mode, work_group_size); waves >= least; --waves) {
    out.push_back(amd_limit_at(t, mode, work_group_size, waves));
  }
  return out;
}

/// One change a kernel's author makes: a resource from its count to at most
/// `to`.
struct amd_llvm_step {
  amd_resource resource = amd_resource::vgprs;
  std::int64_t from = 0;
  std::int64_t to = 0;
};

/// What reaches `goal_waves` per SIMD, as the compiler counts: every
/// resource above that level's limit brought down to it (all of them
/// together; each resource's limit stands on its own, so no fewer do).
struct amd_llvm_plan {
  /// The level asked for, raised to the fewest waves one work-group needs
  /// (a kernel whose work-group does not fit goes there first).
  std::int64_t goal_waves = 0;
  /// Whether the work-group size itself allows the goal; when it does not,
  /// no change of VGPRs, SGPRs or LDS reaches it and `steps` is empty.
  bool reachable = false;
  /// The most waves per SIMD the work-group size allows.
  std::int64_t most_waves = 0;
  std::vector<amd_llvm_step> steps;
};

/// The changes that bring `k`, at its largest work-group size, to
/// `goal_waves` per SIMD (the next level, or a target's).
inline amd_llvm_plan amd_llvm_plan_for(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                       std::int64_t goal_waves) {
  amd_llvm_plan plan;
  plan.goal_waves = std::max(goal_waves, amd_least_waves(t, mode, k.max_work_group_size));
  goal_waves = plan.goal_waves;
  plan.most_waves = amd_most_waves(t, mode, k.max_work_group_size);
  if (goal_waves < 1 || goal_waves > plan.most_waves) return plan;
  plan.reachable = true;
  const amd_limit_level level = amd_limit_at(t, mode, k.max_work_group_size, goal_waves);
  const auto bring = [&](amd_resource r, std::int64_t count, std::int64_t most) {
    if (count > most) plan.steps.push_back({r, count, most});
  };
  if (t.unified_vgpr_file) {
    // One file: the AGPRs stay where they fit, the VGPRs (rounded up to 4
    // before the AGPRs) make room.
    if (amd_total_vgprs(t, k) > level.max_vgprs) {
      const std::int64_t agprs = std::min(k.agprs, level.max_vgprs);
      bring(amd_resource::agprs, k.agprs, agprs);
      bring(amd_resource::vgprs, k.vgprs, (level.max_vgprs - agprs) / unified_vgpr_alignment * unified_vgpr_alignment);
    }
  } else {
    bring(amd_resource::vgprs, k.vgprs, level.max_vgprs);
    bring(amd_resource::agprs, k.agprs, level.max_vgprs);
  }
  if (level.max_sgprs) bring(amd_resource::sgprs, k.sgprs, *level.max_sgprs);
  bring(amd_resource::lds, k.lds_bytes, level.max_lds_bytes);
  return plan;
}

}  // namespace occcalc
