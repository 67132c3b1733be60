/// \file amd_occupancy.hpp
/// AMD occupancy, in waves per SIMD, as the LLVM AMDGPU compiler computes it
/// (what `; Occupancy:` in its assembly says): the least of the VGPR, SGPR
/// and work-group/LDS limits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "occcalc/amd_arch.hpp"
#include "occcalc/occupancy.hpp"

namespace occcalc {

/// A kernel as the AMDGPU compiler reports it.
struct amd_kernel {
  /// `; NumVgprs`: architectural VGPRs per lane.
  std::int64_t vgprs = 0;
  /// `; NumAgprs`: accumulation VGPRs per lane (CDNA).
  std::int64_t agprs = 0;
  /// `; NumSgprs`: SGPRs, with the ones the compiler adds (VCC, flat
  /// scratch, XNACK).
  std::int64_t sgprs = 0;
  /// `; LDSByteSize`: LDS per work-group in bytes.
  std::int64_t lds_bytes = 0;
  /// The flat work-group sizes it may launch with: `reqd_work_group_size`
  /// fixes both; `amdgpu-flat-work-group-size` gives the range.
  std::int64_t min_work_group_size = 1;
  std::int64_t max_work_group_size = 1;
};

/// How the kernel runs: its wave size and, on gfx10 and later, WGP or CU
/// mode.
struct amd_mode {
  std::int64_t wave_size = 64;
  bool wgp_mode = true;
};

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

/// The VGPRs a wave is charged: unified files add the AGPRs after rounding
/// the VGPRs to 4; separate files charge the larger of the two.
constexpr std::int64_t amd_total_vgprs(const amd_target& t, const amd_kernel& k) noexcept {
  constexpr std::int64_t unified_vgpr_alignment = 4;  // AGPRs start on a 4-register boundary
  return t.unified_vgpr_file ? detail::round_up(k.vgprs, unified_vgpr_alignment) + k.agprs
                             : std::max(k.vgprs, k.agprs);
}

/// Waves per SIMD the VGPR file allows: the file / the count rounded up to
/// the granule, at least 1, at most the SIMD's maximum; a count below one
/// granule never limits.
inline std::int64_t amd_vgpr_waves(const amd_target& t, std::int64_t vgprs, std::int64_t wave_size) noexcept {
  const auto& file = detail::vgpr_file(t, wave_size);
  if (vgprs < file.granule) return t.max_waves_per_simd;
  return std::min(std::max<std::int64_t>(file.total / detail::round_up(vgprs, file.granule), 1),
                  t.max_waves_per_simd);
}

/// Waves per SIMD the SGPR file allows; no limit without a shared file.
inline std::int64_t amd_sgpr_waves(const amd_target& t, std::int64_t sgprs) noexcept {
  if (!t.sgprs_per_simd || sgprs <= 0) return t.max_waves_per_simd;
  return std::min(t.max_waves_per_simd, *t.sgprs_per_simd / detail::round_up(sgprs, t.sgpr_granule));
}

/// Waves per SIMD that work-group slots and LDS allow, as the compiler
/// counts them: for the largest of the smallest and largest work-group
/// sizes, work-groups per CU (or WGP) = the wave slots / waves per group,
/// at most one per barrier (a one-wave group needs none), at most what LDS
/// holds (no LDS granularity); the waves spread over the SIMDs, rounded up.
inline std::int64_t amd_work_group_waves(const amd_target& t, const amd_kernel& k, const amd_mode& mode) noexcept {
  const std::int64_t scale = t.has_wgp_mode && mode.wgp_mode ? 2 : 1;
  const std::int64_t simds = t.simds_per_cu * scale;
  const std::int64_t lds = t.lds_per_cu_bytes * scale;
  const std::int64_t barriers = t.max_barriers_per_cu * scale;
  const std::int64_t groups_by_lds = lds / std::max<std::int64_t>(k.lds_bytes, 1);
  if (groups_by_lds == 0) return 1;
  const std::int64_t wave_slots = t.max_waves_per_simd * simds;
  const auto waves_at = [&](std::int64_t size) {
    const std::int64_t waves_per_group = detail::divide_round_up(size, mode.wave_size);
    const std::int64_t groups =
        waves_per_group == 1 ? wave_slots : std::min(wave_slots / waves_per_group, barriers);
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
