/// \file amd_hip.hpp
/// AMD occupancy as the HIP runtime computes it
/// (`hipOccupancyMaxActiveBlocksPerMultiprocessor`, ROCm clr): waves pooled
/// per CU (per WGP in WGP mode) under its own wave-slot figure, VGPRs, SGPRs
/// and the LDS one work-group may use; no work-group cap or barrier limit.
#pragma once

#include <cstdint>

#include "occcalc/amd_kernel.hpp"
#include "occcalc/amd_llvm.hpp"
#include "occcalc/amd_result.hpp"

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
  set_waves(amd_resource::wave_slots, hip.max_waves_per_simd);
  // The code object's VGPR count is the total of both files (unified:
  // VGPRs rounded to 4 plus AGPRs; gfx908: the larger).
  const std::int64_t vgprs = amd_total_vgprs(t, k);
  if (vgprs > 0) {
    const auto& file = detail::vgpr_file(t, mode.wave_size);
    set_waves(amd_resource::vgprs, file.total / detail::round_up(vgprs, file.granule));
  }
  if (t.sgprs_per_simd && k.sgprs > 0) {
    set_waves(amd_resource::sgprs, *t.sgprs_per_simd / detail::round_up(k.sgprs, hip.sgpr_granule));
  }
  if (k.lds_bytes > 0) r.limits[static_cast<std::size_t>(amd_resource::lds)] = t.max_lds_per_work_group_bytes / k.lds_bytes;
  detail::settle_work_groups(r);
  r.active_waves = r.work_groups * wpg;
  r.waves_per_simd = static_cast<double>(r.active_waves) / static_cast<double>(r.simds);
  return r;
}

}  // namespace occcalc
