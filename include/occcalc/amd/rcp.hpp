/// \file amd/rcp.hpp
/// AMD occupancy as the Radeon Compute Profiler / CodeXL calculator computes
/// it (CLCUInfoBase: the EGNI class for VLIW, SI and VI for GCN): waves per
/// CU limited by VGPRs, SGPRs, LDS and its work-group cap, each in whole
/// work-groups, over the device's wave slots.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/result.hpp"

namespace occcalc {

/// RCP's occupancy for one work-group size. `device_waves_per_simd`
/// replaces the target's wave slots for devices that have fewer (its device
/// table: Polaris has 8). Precondition: `t.rcp` is set.
inline amd_occupancy_result amd_rcp_result(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                           std::int64_t work_group_size,
                                           std::optional<std::int64_t> device_waves_per_simd = {}) noexcept {
  const amd_rcp_params& rcp = *t.rcp;
  amd_occupancy_result r =
      detail::amd_result_frame(amd_model::rcp, rcp.simds_per_cu, false,
                               device_waves_per_simd.value_or(rcp.max_waves_per_simd), mode, work_group_size);
  const std::int64_t wpg = r.waves_per_work_group;
  const std::int64_t cap = wpg == 1 ? rcp.max_single_wave_work_groups_per_cu : rcp.max_work_groups_per_cu;
  // The denominator: the device's slots, or the waves of `cap` work-groups
  // of the largest size, whichever is fewer.
  r.max_waves =
      std::min(cap * detail::divide_round_up(rcp.max_work_group_size, mode.wave_size), r.max_waves_per_simd * r.simds);
  const auto set = [&](amd_resource res, std::int64_t groups) { r.limits[static_cast<std::size_t>(res)] = groups; };
  // A register limit: waves per SIMD from its terms, in whole work-groups.
  const auto set_registers = [&](amd_resource res, const amd_limit_terms& terms) {
    r.terms[static_cast<std::size_t>(res)] = terms;
    set(res, terms.waves_per_simd * r.simds / wpg);
  };
  set(amd_resource::wave_slots, r.max_waves / wpg);
  set(amd_resource::work_groups, cap);
  if (k.vgprs > 0) {
    set_registers(amd_resource::vgprs, detail::amd_register_terms(rcp.vgprs_available, k.vgprs, rcp.vgpr_granule));
  }
  if (rcp.sgprs_per_simd) {
    set_registers(amd_resource::sgprs,
                  detail::amd_register_terms(*rcp.sgprs_per_simd, k.sgprs, rcp.sgpr_granule, rcp.sgprs_added));
  }
  if (k.lds_bytes > 0) {
    r.terms[static_cast<std::size_t>(amd_resource::lds)] = detail::amd_lds_terms(rcp.lds_per_cu_bytes, k.lds_bytes);
    set(amd_resource::lds, rcp.lds_per_cu_bytes / k.lds_bytes);
  }
  detail::settle_work_groups(r);
  r.active_waves = r.work_groups * wpg;
  r.waves_per_simd = static_cast<double>(r.active_waves) / static_cast<double>(r.simds);
  return r;
}

}  // namespace occcalc
