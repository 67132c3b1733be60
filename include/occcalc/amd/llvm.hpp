/// \file amd/llvm.hpp
/// AMD occupancy, in waves per SIMD, as the LLVM AMDGPU compiler computes it
/// (what `; Occupancy:` in its assembly says): the least of the VGPR, SGPR
/// and work-group/LDS limits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/result.hpp"
#include "occcalc/amd/target.hpp"
#include "occcalc/common/math.hpp"

namespace occcalc {

/// The compiler's occupancy and the limit of each resource, in waves per
/// SIMD.
struct llvm_occupancy {
  std::int64_t vgpr_waves = 0;
  std::int64_t sgpr_waves = 0;
  /// Work-groups per CU (barriers, wave slots) and LDS together.
  std::int64_t work_group_waves = 0;
  std::int64_t waves_per_simd = 0;
};

namespace detail {

/// The register file for a wave size; the default one if it has none.
inline const amd_vgpr_file& vgpr_file(const amd_target& t, std::int64_t wave_size) noexcept {
  for (const auto& f : t.vgpr_files) {
    if (f.wave_size == wave_size) return f;
  }
  return t.vgpr_files.front();
}

}  // namespace detail

/// On a unified file the AGPRs start on a boundary of this many registers.
inline constexpr std::int64_t unified_vgpr_alignment = 4;

/// The VGPRs a wave is charged (LLVM's getTotalNumVGPRs): a unified file
/// with AGPRs adds them after rounding the VGPRs to 4; otherwise the larger
/// of the two (a kernel of 35 VGPRs and no AGPRs is charged 35, as its code
/// object's `.vgpr_count` says).
constexpr std::int64_t amd_total_vgprs(const amd_target& t, const amd_kernel& k) noexcept {
  return t.unified_vgpr_file && k.agprs > 0 ? detail::round_up(k.vgprs, unified_vgpr_alignment) + k.agprs
                                            : std::max(k.vgprs, k.agprs);
}

/// Waves per SIMD the VGPR file allows: the file / the count rounded up to
/// the granule, at least 1, at most the SIMD's maximum; a count below one
/// granule never limits.
inline std::int64_t amd_vgpr_waves(const amd_target& t, std::int64_t vgprs, std::int64_t wave_size) noexcept {
  const auto& file = detail::vgpr_file(t, wave_size);
  if (vgprs < file.granule) return t.max_waves_per_simd;
  return std::min(std::max<std::int64_t>(file.total / detail::round_up(vgprs, file.granule), 1), t.max_waves_per_simd);
}

/// The compiler's SGPR step for `sgprs`: the first whose most holds them
/// (the last for more). Only where `t.llvm_sgpr_steps` is not empty.
inline const amd_sgpr_step& amd_sgpr_step_of(const amd_target& t, std::int64_t sgprs) noexcept {
  for (const auto& step : t.llvm_sgpr_steps) {
    if (sgprs <= step.max_sgprs) return step;
  }
  return t.llvm_sgpr_steps.back();
}

/// Waves per SIMD the SGPR file allows, as the compiler counts it (its
/// table of steps); no limit without a shared file (no steps: the tables
/// hold them exactly where the file is shared).
inline std::int64_t amd_sgpr_waves(const amd_target& t, std::int64_t sgprs) noexcept {
  if (t.llvm_sgpr_steps.empty() || sgprs <= 0) return t.max_waves_per_simd;
  return std::min(t.max_waves_per_simd, amd_sgpr_step_of(t, sgprs).waves);
}

/// Waves per SIMD that work-group slots and LDS allow, as the compiler
/// counts them: for the largest of the smallest and largest work-group
/// sizes, work-groups per CU (or WGP) = the wave slots / waves per group,
/// at most one per barrier (a one-wave group needs none), at most what LDS
/// holds (no LDS granularity); the waves spread over the SIMDs, rounded up.
inline std::int64_t amd_work_group_waves(const amd_target& t, const amd_kernel& k, const amd_mode& mode) noexcept {
  const std::int64_t scale = detail::amd_cus_per_unit(t, mode);
  const std::int64_t simds = t.simds_per_cu * scale;
  const std::int64_t lds = t.lds_per_cu_bytes * scale;
  const std::int64_t barriers = t.max_barriers_per_cu * scale;
  const std::int64_t groups_by_lds = lds / std::max<std::int64_t>(k.lds_bytes, 1);
  if (groups_by_lds == 0) return 1;
  const std::int64_t wave_slots = t.max_waves_per_simd * simds;
  const auto waves_at = [&](std::int64_t size) {
    const std::int64_t waves_per_group = detail::divide_round_up(size, mode.wave_size);
    const std::int64_t groups = waves_per_group == 1 ? wave_slots : std::min(wave_slots / waves_per_group, barriers);
    return waves_per_group * std::min(groups, groups_by_lds);
  };
  const std::int64_t waves = std::max(waves_at(k.min_work_group_size), waves_at(k.max_work_group_size));
  return std::clamp<std::int64_t>(detail::divide_round_up(waves, simds), 1, t.max_waves_per_simd);
}

/// The compiler's occupancy of `k` on `t`.
inline llvm_occupancy amd_llvm_occupancy(const amd_target& t, const amd_kernel& k, const amd_mode& mode) noexcept {
  llvm_occupancy o;
  o.vgpr_waves = amd_vgpr_waves(t, amd_total_vgprs(t, k), mode.wave_size);
  o.sgpr_waves = amd_sgpr_waves(t, k.sgprs);
  o.work_group_waves = amd_work_group_waves(t, k, mode);
  o.waves_per_simd = std::min({o.vgpr_waves, o.sgpr_waves, o.work_group_waves});
  return o;
}

}  // namespace occcalc

namespace occcalc {

/// The compiler's occupancy for one work-group size, with each resource's
/// limit in waves per SIMD (as the compiler counts: a work-group limit's
/// waves spread over the SIMDs, rounded up) and in work-groups per CU (or
/// WGP). Resources below the compiler's answer are its limiters. Where a
/// work-group does not fit at all, every figure is 0 and the limiters are
/// the resources that cannot hold one.
inline amd_occupancy_result amd_llvm_result(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                            std::int64_t work_group_size) noexcept {
  const std::int64_t cus = detail::amd_cus_per_unit(t, mode);
  amd_occupancy_result r = detail::amd_result_frame(amd_model::llvm, t.simds_per_cu * cus, cus > 1,
                                                    t.max_waves_per_simd, mode, work_group_size);
  const std::int64_t wpg = r.waves_per_work_group;
  const auto set = [&](amd_resource res, std::int64_t groups, std::int64_t waves_per_simd) {
    r.limits[static_cast<std::size_t>(res)] = groups;
    r.limits_waves_per_simd[static_cast<std::size_t>(res)] = waves_per_simd;
  };
  // A per-wave register limit: waves per SIMD from its terms, and the
  // work-groups they hold.
  const auto set_registers = [&](amd_resource res, const amd_limit_terms& terms) {
    r.terms[static_cast<std::size_t>(res)] = terms;
    set(res, terms.waves_per_simd * r.simds / wpg, terms.waves_per_simd);
  };
  // A work-group limit: the groups, and their waves spread over the SIMDs.
  const auto set_groups = [&](amd_resource res, std::int64_t groups) {
    set(res, groups, detail::divide_round_up(groups * wpg, r.simds));
  };

  const auto& file = detail::vgpr_file(t, mode.wave_size);
  const auto file_terms = [&](std::int64_t count) {
    return detail::amd_register_terms(file.total, count, file.granule);
  };
  const std::int64_t vgprs = t.unified_vgpr_file ? amd_total_vgprs(t, k) : k.vgprs;
  if (vgprs >= file.granule) set_registers(amd_resource::vgprs, file_terms(vgprs));
  if (!t.unified_vgpr_file && k.agprs >= file.granule) set_registers(amd_resource::agprs, file_terms(k.agprs));
  if (!t.llvm_sgpr_steps.empty() && k.sgprs > 0) {
    const auto& step = amd_sgpr_step_of(t, k.sgprs);
    set_registers(amd_resource::sgprs, {step.max_sgprs, k.sgprs, 0, 1, step.waves, true});
  }
  const std::int64_t slots = r.max_waves;
  set_groups(amd_resource::wave_slots, wpg == 1 ? slots : slots / wpg);
  if (wpg > 1) set_groups(amd_resource::barriers, t.max_barriers_per_cu * cus);
  if (k.lds_bytes > 0) {
    const std::int64_t pool = t.lds_per_cu_bytes * cus;
    r.terms[static_cast<std::size_t>(amd_resource::lds)] = detail::amd_lds_terms(pool, k.lds_bytes);
    set_groups(amd_resource::lds, pool / k.lds_bytes);
  }

  std::optional<std::int64_t> least_groups;
  std::int64_t waves = r.max_waves_per_simd;
  for (std::size_t i = 0; i < amd_resource_count; ++i) {
    if (r.limits[i] && (!least_groups || *r.limits[i] < *least_groups)) least_groups = r.limits[i];
    if (r.limits_waves_per_simd[i]) waves = std::min(waves, std::max<std::int64_t>(*r.limits_waves_per_simd[i], 1));
  }
  r.work_groups = least_groups.value_or(0);
  if (r.work_groups == 0) {
    for (const auto res : amd_resources) {
      if (r.limit(res) == 0) r.limiters.insert(res);
    }
    return r;
  }
  for (const auto res : amd_resources) {
    if (r.limits_waves_per_simd[static_cast<std::size_t>(res)] == waves) r.limiters.insert(res);
  }
  r.waves_per_simd = static_cast<double>(waves);
  r.active_waves = waves * r.simds;
  return r;
}

}  // namespace occcalc
