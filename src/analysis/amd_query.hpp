// One evaluated AMD request: what the AMD renderers print.
#pragma once

#include <optional>

#include "occcalc/amd/occupancy.hpp"
#include "occcalc/common/waves.hpp"
#include "occcalc/request/amd.hpp"

namespace occcalc::cli {

/// A resolved AMD request and its model's result.
struct amd_query {
  occcalc::resolved_amd_request request;
  occcalc::amd_occupancy_result result;
  /// The grid's waves on the named GPU, when the request gave a grid.
  std::optional<occcalc::waves> waves;

  /// CUs (or WGPs, in WGP mode) of the device; 0 without a count.
  std::int64_t units() const noexcept {
    if (!request.compute_units) return 0;
    return *request.compute_units / (result.per_wgp ? occcalc::cus_per_wgp : 1);
  }
};

/// The occupancy a gate judges, in [0, 1] (AMD launches have no clusters).
inline double launch_occupancy(const amd_query& q) noexcept { return q.result.occupancy(); }

/// Resolves `req` as an AMD request and computes its occupancy; throws
/// `occcalc::input_error` for bad input.
inline amd_query evaluate_amd(occcalc::resolved_amd_request resolved) {
  amd_query q{std::move(resolved), {}, std::nullopt};
  const auto& r = q.request;
  std::optional<std::int64_t> device_waves;
  if (r.named_gpu) device_waves = r.named_gpu->max_waves_per_simd;
  q.result = occcalc::compute_amd_occupancy(*r.target, r.kernel, r.mode, r.model, r.work_group_size, device_waves);
  if (r.grid_work_groups) q.waves = occcalc::compute_waves(*r.grid_work_groups, q.units(), q.result.work_groups);
  return q;
}

/// The same from a request as typed.
inline amd_query evaluate_amd(const occcalc::table& tables, const occcalc::request& req) {
  return evaluate_amd(occcalc::resolve_amd(tables, req));
}

}  // namespace occcalc::cli
