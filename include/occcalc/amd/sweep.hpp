/// \file amd/sweep.hpp
/// AMD occupancy as one kernel figure varies (work-group size, VGPRs, SGPRs,
/// LDS or, on CDNA, AGPRs), under any of the three models; the cliffs come from
/// `occcalc::cliffs` (sweep.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "occcalc/amd/occupancy.hpp"
#include "occcalc/common/sweep.hpp"

namespace occcalc {

/// The kernel figure an AMD sweep varies.
enum class amd_sweep_variable { threads, vgprs, sgprs, lds, agprs };

/// An AMD sweep variable's `--vary` name and axis label.
struct amd_sweep_variable_info {
  amd_sweep_variable id;
  std::string_view name;
  std::string_view axis;
};

/// One row per variable, in `amd_sweep_variable` order.
inline constexpr std::array<amd_sweep_variable_info, 5> amd_sweep_variables = {{
    {amd_sweep_variable::threads, "threads", "work-items per work-group"},
    {amd_sweep_variable::vgprs, "vgprs", "VGPRs per work-item"},
    {amd_sweep_variable::sgprs, "sgprs", "SGPRs per wave"},
    {amd_sweep_variable::lds, "lds", "LDS per work-group (bytes)"},
    {amd_sweep_variable::agprs, "agprs", "AGPRs per work-item"},
}};

constexpr const amd_sweep_variable_info& info(amd_sweep_variable v) noexcept {
  return amd_sweep_variables[static_cast<std::size_t>(v)];
}

/// The figure's `--vary` name.
constexpr std::string_view to_string(amd_sweep_variable v) noexcept { return info(v).name; }

/// LDS is swept in steps of this many bytes: no AMD model rounds LDS, and
/// 256 B is the finest granule any generation allocates (GFX6).
inline constexpr std::int64_t amd_lds_sweep_step_bytes = 256;

/// One point of an AMD sweep.
struct amd_sweep_point {
  std::int64_t value = 0;
  amd_occupancy_result result;
};

/// The range each figure is swept over by default: work-group sizes in
/// waves up to the maximum, every VGPR and SGPR count up to what a wave may
/// address, LDS in 256-byte steps up to a work-group's maximum, AGPRs from
/// none (CDNA only: elsewhere the range is empty).
inline sweep_range default_amd_sweep_range(const amd_target& t, const amd_mode& mode, amd_sweep_variable v) noexcept {
  switch (v) {
    case amd_sweep_variable::threads: return {mode.wave_size, t.max_work_group_size, mode.wave_size};
    case amd_sweep_variable::vgprs: return {1, t.max_vgprs_per_wave, 1};
    case amd_sweep_variable::sgprs: return {1, t.max_sgprs_per_wave, 1};
    case amd_sweep_variable::lds: return {0, t.max_lds_per_work_group_bytes, amd_lds_sweep_step_bytes};
    case amd_sweep_variable::agprs: return {0, t.max_agprs_per_wave, 1};
  }
  return {};
}

/// The largest value of `v` the target accepts (the end of any range).
inline std::int64_t max_amd_sweep_value(const amd_target& t, amd_sweep_variable v) noexcept {
  switch (v) {
    case amd_sweep_variable::threads: return t.max_work_group_size;
    case amd_sweep_variable::vgprs: return t.max_vgprs_per_wave;
    case amd_sweep_variable::sgprs: return t.max_sgprs_per_wave;
    case amd_sweep_variable::lds: return t.max_lds_per_work_group_bytes;
    case amd_sweep_variable::agprs: return t.max_agprs_per_wave;
  }
  return 0;
}

/// The figure's value in a kernel launched with `work_group_size`.
constexpr std::int64_t value_of(const amd_kernel& k, std::int64_t work_group_size, amd_sweep_variable v) noexcept {
  switch (v) {
    case amd_sweep_variable::threads: return work_group_size;
    case amd_sweep_variable::vgprs: return k.vgprs;
    case amd_sweep_variable::sgprs: return k.sgprs;
    case amd_sweep_variable::lds: return k.lds_bytes;
    case amd_sweep_variable::agprs: return k.agprs;
  }
  return 0;
}

/// `model`'s occupancy at every value of `range`, the other figures as in
/// `k` and `work_group_size`. Preconditions: the range lies within
/// `max_amd_sweep_value`, and the rest as for `compute_amd_occupancy`.
inline std::vector<amd_sweep_point> amd_sweep(const amd_target& t, const amd_kernel& k, const amd_mode& mode,
                                              amd_model model, std::int64_t work_group_size, amd_sweep_variable v,
                                              const sweep_range& range,
                                              std::optional<std::int64_t> device_waves_per_simd = {}) {
  std::vector<amd_sweep_point> points;
  for (std::int64_t value = range.first; value <= range.last; value += range.step) {
    amd_kernel varied = k;
    std::int64_t size = work_group_size;
    switch (v) {
      case amd_sweep_variable::threads: size = value; break;
      case amd_sweep_variable::vgprs: varied.vgprs = value; break;
      case amd_sweep_variable::sgprs: varied.sgprs = value; break;
      case amd_sweep_variable::lds: varied.lds_bytes = value; break;
      case amd_sweep_variable::agprs: varied.agprs = value; break;
    }
    varied.min_work_group_size = varied.max_work_group_size = size;
    points.push_back({value, compute_amd_occupancy(t, varied, mode, model, size, device_waves_per_simd)});
  }
  return points;
}

}  // namespace occcalc
