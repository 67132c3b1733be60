/// \file amd/kernel.hpp
/// An AMD kernel's resource usage and how it runs (wave size, CU or WGP
/// mode): the inputs of the AMD occupancy models.
#pragma once

#include <cstdint>

#include "occcalc/amd/target.hpp"

namespace occcalc {

/// A kernel as the AMDGPU compiler reports it.
struct amd_kernel {
  /// `; NumVgprs`: architectural VGPRs per lane (VLIW: 128-bit GPRs).
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
/// mode. It has no default: a wave size taken for granted is wrong on half
/// the targets (RDNA runs wave32 unless told otherwise), so it is given
/// (`{64, false}`) or the target's (`amd_mode::defaults_of(t)`).
struct amd_mode {
  std::int64_t wave_size;
  bool wgp_mode;

  constexpr amd_mode(std::int64_t wave_size_items, bool in_wgp_mode) noexcept
      : wave_size(wave_size_items), wgp_mode(in_wgp_mode) {}

  /// What the command line takes when neither is given: the target's first
  /// wave size (32 on RDNA) and WGP mode where it has one.
  static amd_mode defaults_of(const amd_target& t) noexcept { return {t.default_wave_size(), t.has_wgp_mode}; }
};

namespace detail {

/// CUs per unit the models count in: a WGP's in WGP mode, else 1.
constexpr std::int64_t amd_cus_per_unit(const amd_target& t, const amd_mode& mode) noexcept {
  return t.has_wgp_mode && mode.wgp_mode ? cus_per_wgp : 1;
}

}  // namespace detail

}  // namespace occcalc
