/// \file amd/occupancy.hpp
/// AMD occupancy under any of the three models AMD's tools implement, for a
/// launch the caller has validated against the target (see amd_request.hpp).
#pragma once

#include <cstdint>
#include <optional>

#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/llvm.hpp"
#include "occcalc/amd/rcp.hpp"
#include "occcalc/amd/result.hpp"

namespace occcalc {

/// `model`'s answer for work-groups of `work_group_size` work-items.
/// Preconditions: `t.supports(model)`; the counts lie within the target's
/// limits. `device_waves_per_simd` applies to the rcp model only.
inline amd_occupancy_result compute_amd_occupancy(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                                  amd_model model, std::int64_t work_group_size,
                                                  std::optional<std::int64_t> device_waves_per_simd = {}) noexcept {
  switch (model) {
    case amd_model::hip: return amd_hip_result(t, k, mode, work_group_size);
    case amd_model::rcp: return amd_rcp_result(t, k, mode, work_group_size, device_waves_per_simd);
    case amd_model::llvm: break;
  }
  return amd_llvm_result(t, k, mode, work_group_size);
}

}  // namespace occcalc
