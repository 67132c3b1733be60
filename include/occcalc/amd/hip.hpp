/// \file amd/hip.hpp
/// AMD occupancy as the HIP runtime computes it
/// (`hipOccupancyMaxActiveBlocksPerMultiprocessor`, ROCm clr): waves pooled
/// per CU (per WGP in WGP mode) under its own wave-slot figure, VGPRs, SGPRs
/// and the LDS one work-group may use; no work-group cap or barrier limit.
#pragma once

#include <algorithm>
#include <cstdint>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/llvm.hpp"
#include "occcalc/amd/result.hpp"

namespace occcalc {

/// The HIP runtime's blocks per multiprocessor for one work-group size.
/// Precondition: `t.hip` is set.
inline amd_occupancy_result amd_hip_result(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                           std::int64_t work_group_size) noexcept {
  const amd_hip_params& hip = *t.hip;
  const std::int64_t cus = detail::amd_cus_per_unit(t, mode);
  amd_occupancy_result r = detail::amd_result_frame(amd_model::hip, t.simds_per_cu * cus, cus > 1,
                                                    hip.max_waves_per_simd, mode, work_group_size);
  const std::int64_t wpg = r.waves_per_work_group;
  const auto set_waves = [&](amd_resource res, std::int64_t waves_per_simd) {
    r.limits[static_cast<std::size_t>(res)] = waves_per_simd * r.simds / wpg;
  };
  const auto set_registers = [&](amd_resource res, const amd_limit_terms& terms) {
    r.terms[static_cast<std::size_t>(res)] = terms;
    set_waves(res, terms.waves_per_simd);
  };
  set_waves(amd_resource::wave_slots, hip.max_waves_per_simd);
  // The code object's VGPR count is the total of both files (unified:
  // VGPRs rounded to 4 plus AGPRs; gfx908: the larger).
  const std::int64_t vgprs = amd_total_vgprs(t, k);
  if (vgprs > 0) {
    const auto& file = detail::vgpr_file(t, mode.wave_size);
    set_registers(amd_resource::vgprs, detail::amd_register_terms(file.total, vgprs, file.granule));
  }
  if (t.sgprs_per_simd && k.sgprs > 0) {
    set_registers(amd_resource::sgprs, detail::amd_register_terms(*t.sgprs_per_simd, k.sgprs, hip.sgpr_granule));
  }
  if (k.lds_bytes > 0) {
    // HIP divides the LDS one work-group may use, not the CU's.
    const auto lds = static_cast<std::size_t>(amd_resource::lds);
    r.terms[lds] = detail::amd_lds_terms(t.max_lds_per_work_group_bytes, k.lds_bytes);
    r.limits[lds] = t.max_lds_per_work_group_bytes / k.lds_bytes;
  }
  detail::settle_work_groups(r);
  r.active_waves = r.work_groups * wpg;
  r.waves_per_simd = static_cast<double>(r.active_waves) / static_cast<double>(r.simds);
  return r;
}

}  // namespace occcalc

namespace occcalc {

/// What `hipOccupancyMaxPotentialBlockSize` answers.
struct amd_hip_block_size_choice {
  /// The block size: all the work-items the ALU limit (HIP's wave slots,
  /// VGPRs, SGPRs) lets a CU (or WGP) hold, at most the size limit rounded
  /// up to whole waves.
  std::int64_t block_size = 0;
  /// Blocks per CU (or WGP) at that size: the ALU limit's, then LDS's.
  std::int64_t blocks_per_unit = 0;
  /// The work-items the ALU limit lets a CU (or WGP) hold.
  std::int64_t alu_threads = 0;
  /// The occupancy at that size, as `amd_hip_result` counts it.
  amd_occupancy_result result;
};

/// The HIP runtime's block size search (`hipOccupancyMaxPotentialBlockSize`,
/// ROCm clr): no search at all, but the threads the ALU limit allows, capped
/// by `block_size_limit` (0 or more than the target allows: its maximum
/// work-group size). The grid it suggests is the CUs (WGPs in WGP mode) times
/// `blocks_per_unit`. Precondition: `t.hip` is set.
inline amd_hip_block_size_choice amd_hip_max_potential_block_size(const amd_target& t, const amd_kernel& k,
                                                                  const amd_mode& mode,
                                                                  std::int64_t block_size_limit) noexcept {
  if (block_size_limit <= 0 || block_size_limit > t.max_work_group_size) block_size_limit = t.max_work_group_size;
  // One-wave work-groups: the limits are then the waves each resource allows.
  const amd_occupancy_result one_wave = amd_hip_result(t, k, mode, mode.wave_size);
  std::int64_t alu_waves = *one_wave.limit(amd_resource::wave_slots);
  for (const auto res : {amd_resource::vgprs, amd_resource::sgprs}) {
    if (const auto& l = one_wave.limit(res)) alu_waves = std::min(alu_waves, *l);
  }
  amd_hip_block_size_choice c;
  const std::int64_t alu_threads = alu_waves * mode.wave_size;
  c.alu_threads = alu_threads;
  c.block_size = std::min(alu_threads, detail::round_up(block_size_limit, mode.wave_size));
  c.blocks_per_unit = alu_threads / c.block_size;
  if (const auto& lds = one_wave.limit(amd_resource::lds)) c.blocks_per_unit = std::min(c.blocks_per_unit, *lds);
  amd_kernel at_size = k;
  at_size.min_work_group_size = at_size.max_work_group_size = c.block_size;
  c.result = amd_hip_result(t, at_size, mode, c.block_size);
  return c;
}

}  // namespace occcalc
