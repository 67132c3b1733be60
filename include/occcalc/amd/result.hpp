/// \file amd/result.hpp
/// What an AMD occupancy model says about one launch: the work-group limit
/// of each resource in AMD's own terms, the limiters, and the occupancy, in
/// the same shape as the NVIDIA result (work-groups per CU or WGP for blocks
/// per SM, waves for warps).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "occcalc/amd/kernel.hpp"
#include "occcalc/amd/target.hpp"
#include "occcalc/common/enum_set.hpp"
#include "occcalc/common/math.hpp"

namespace occcalc {

/// A resource that can bound the work-groups resident on a CU (or WGP).
enum class amd_resource : std::uint8_t {
  /// Wave slots: waves a SIMD holds at most, times the SIMDs.
  wave_slots,
  /// The VGPR file (on gfx90a and later, VGPRs and AGPRs share it).
  vgprs,
  /// The separate AGPR file of gfx908.
  agprs,
  /// The SGPR file (gfx9 and older; gfx10 and later give each wave its own).
  sgprs,
  /// Local data share.
  lds,
  /// RCP's cap on work-groups per CU (16, or 40 for one-wave groups; 8 on
  /// VLIW).
  work_groups,
  /// The compiler's barrier limit: one per multi-wave work-group, 16 per CU
  /// (32 per WGP).
  barriers,
};

inline constexpr std::size_t amd_resource_count = 7;
static_assert(static_cast<std::size_t>(amd_resource::barriers) + 1 == amd_resource_count,
              "amd_resource_count is stale");

/// Every AMD resource, in report order.
inline constexpr std::array<amd_resource, amd_resource_count> amd_resources = {
    amd_resource::wave_slots, amd_resource::vgprs,       amd_resource::agprs,   amd_resource::sgprs,
    amd_resource::lds,        amd_resource::work_groups, amd_resource::barriers};

/// The resource's name as used in JSON keys.
constexpr std::string_view to_string(amd_resource r) noexcept {
  constexpr std::array<std::string_view, amd_resource_count> names = {"wave_slots", "vgprs",       "agprs",   "sgprs",
                                                                      "lds",        "work_groups", "barriers"};
  return names[static_cast<std::size_t>(r)];
}

using amd_resource_set = enum_set<amd_resource>;

/// How a model divided one resource: a pool over what a wave (registers) or
/// a work-group (LDS) is charged. Renderers print these terms rather than
/// derive them again.
struct amd_limit_terms {
  /// The pool: registers per SIMD, or LDS bytes per CU or WGP (hip: the LDS
  /// one work-group may use).
  std::int64_t pool = 0;
  /// What one wave (registers) or work-group (LDS, in bytes) asks for,
  /// before rounding: for VGPRs, the count the model charges (unified files
  /// add the AGPRs; gfx908's hip charges the larger of the two).
  std::int64_t count = 0;
  /// Registers the model adds before rounding (rcp: VCC's SGPRs).
  std::int64_t added = 0;
  /// The granule `count + added` is rounded up to.
  std::int64_t granule = 1;
  /// Register limits: waves per SIMD, pool / rounded charge.
  std::int64_t waves_per_simd = 0;
  /// Set where the model looks the count up in a table of steps instead (the
  /// compiler's SGPRs): `pool` is then the most SGPRs the count's step
  /// allows, and `waves_per_simd` the step's waves.
  bool stepped = false;
};

/// One model's answer for one launch.
struct amd_occupancy_result {
  amd_model model = amd_model::llvm;
  /// Counted per WGP (gfx10 and later in WGP mode) rather than per CU.
  bool per_wgp = false;
  std::int64_t wave_size = 0;
  /// SIMDs per CU (or WGP) the model counts.
  std::int64_t simds = 0;
  /// Waves per work-group: work-items rounded up to whole waves.
  std::int64_t waves_per_work_group = 0;
  /// Work-groups per CU (or WGP) each resource allows; empty where it does
  /// not limit under this model.
  std::array<std::optional<std::int64_t>, amd_resource_count> limits{};
  /// The compiler's limit of each resource in waves per SIMD (llvm only).
  std::array<std::optional<std::int64_t>, amd_resource_count> limits_waves_per_simd{};
  /// How each register and LDS limit was derived; zero where a resource has
  /// no limit or is not divided from a pool (wave slots, work-groups,
  /// barriers).
  std::array<amd_limit_terms, amd_resource_count> terms{};
  /// The resources that set the answer (several when tied).
  amd_resource_set limiters;
  /// Resident work-groups per CU (or WGP): the smallest limit.
  std::int64_t work_groups = 0;
  /// Resident waves per CU (or WGP). llvm: its waves per SIMD times the
  /// SIMDs, as the compiler counts; hip, rcp: work-groups x waves per group.
  std::int64_t active_waves = 0;
  /// The model's wave slots per CU (or WGP).
  std::int64_t max_waves = 0;
  /// Waves per SIMD: llvm, the compiler's `; Occupancy:`; hip and rcp,
  /// active waves / SIMDs.
  double waves_per_simd = 0.0;
  /// The model's wave slots per SIMD.
  std::int64_t max_waves_per_simd = 0;

  constexpr const std::optional<std::int64_t>& limit(amd_resource r) const noexcept {
    return limits[static_cast<std::size_t>(r)];
  }
  constexpr const amd_limit_terms& terms_of(amd_resource r) const noexcept {
    return terms[static_cast<std::size_t>(r)];
  }
  /// Theoretical occupancy: active / maximum waves, in [0, 1].
  double occupancy() const noexcept {
    return max_waves > 0 ? static_cast<double>(active_waves) / static_cast<double>(max_waves) : 0.0;
  }
};

namespace detail {

/// A result with what the model counts in filled in: the model, the unit
/// (CU, or WGP), the SIMDs and wave slots per unit, the wave size and the
/// waves per work-group.
inline amd_occupancy_result amd_result_frame(amd_model model, std::int64_t simds, bool per_wgp,
                                             std::int64_t max_waves_per_simd, const amd_mode& mode,
                                             std::int64_t work_group_size) noexcept {
  amd_occupancy_result r;
  r.model = model;
  r.per_wgp = per_wgp;
  r.wave_size = mode.wave_size;
  r.simds = simds;
  r.max_waves_per_simd = max_waves_per_simd;
  r.max_waves = max_waves_per_simd * simds;
  r.waves_per_work_group = divide_round_up(work_group_size, mode.wave_size);
  return r;
}

/// Terms for a register pool: `pool / round_up(count + added, granule)`
/// waves per SIMD.
constexpr amd_limit_terms amd_register_terms(std::int64_t pool, std::int64_t count, std::int64_t granule,
                                             std::int64_t added = 0) noexcept {
  return {pool, count, added, granule, pool / round_up(count + added, granule)};
}

/// Terms for the LDS: `pool / bytes` work-groups.
constexpr amd_limit_terms amd_lds_terms(std::int64_t pool_bytes, std::int64_t bytes) noexcept {
  return {pool_bytes, bytes, 0, 1, 0};
}

/// Sets `work_groups` to the smallest limit and names the resources at it.
inline void settle_work_groups(amd_occupancy_result& r) noexcept {
  std::optional<std::int64_t> least;
  for (const auto& l : r.limits) {
    if (l && (!least || *l < *least)) least = l;
  }
  r.work_groups = least.value_or(0);
  for (const auto res : amd_resources) {
    if (r.limit(res) == r.work_groups) r.limiters.insert(res);
  }
}

}  // namespace detail

}  // namespace occcalc
