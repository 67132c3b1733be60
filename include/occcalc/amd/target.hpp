/// \file amd/target.hpp
/// Per-target limits of AMD GPUs (VLIW5/VLIW4, GCN, CDNA, RDNA), as plain
/// data: what the three AMD occupancy models read. Loaded from
/// data/amd-targets.json and data/amd-gpus.json.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace occcalc {

/// CUs in a work-group processor (RDNA's WGP mode counts per WGP).
inline constexpr std::int64_t cus_per_wgp = 2;

/// The vector register file as one wave size sees it.
struct amd_vgpr_file {
  /// Wavefront size in work-items (32 or 64).
  std::int64_t wave_size = 0;
  /// VGPRs per lane a SIMD holds for waves of this size.
  std::int64_t total = 0;
  /// A wave's VGPRs are allocated in multiples of this.
  std::int64_t granule = 0;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const amd_vgpr_file&, const amd_vgpr_file&) = default;
#endif
};

/// One step of the LLVM AMDGPU compiler's SGPR occupancy table: a wave of
/// at most `max_sgprs` SGPRs (with the ones the compiler adds: VCC, flat
/// scratch, XNACK) leaves room for `waves` waves per SIMD.
struct amd_sgpr_step {
  std::int64_t max_sgprs = 0;
  std::int64_t waves = 0;

#if __cplusplus >= 202002L
  friend bool operator==(const amd_sgpr_step&, const amd_sgpr_step&) = default;
#endif
};

/// The occupancy models AMD's own tools implement.
enum class amd_model : std::uint8_t {
  /// The LLVM AMDGPU compiler: `; Occupancy:` in its assembly.
  llvm,
  /// The HIP runtime: `hipOccupancyMaxActiveBlocksPerMultiprocessor`.
  hip,
  /// The Radeon Compute Profiler / CodeXL kernel occupancy calculator.
  rcp,
};

/// One row per AMD model: parsing, printing, help and the text title all read
/// this table, so a new model is a row here plus its own header.
struct amd_model_info {
  amd_model id;
  /// As the command line, the tables and JSON spell it.
  std::string_view name;
  /// What it reproduces, for the text output.
  std::string_view title;
  /// Whether it caps work-groups per CU (the `work_groups` resource).
  bool caps_work_groups = false;
  /// Whether it counts barriers (the `barriers` resource).
  bool counts_barriers = false;
  /// Whether it settles in waves per SIMD, so each limit also has a figure
  /// in waves per SIMD (`limits_waves_per_simd`).
  bool settles_per_simd = false;
};

/// One row per model: parsing, messages, rendering and the schema's choices
/// read this table; `compute_amd_occupancy` dispatches on the id.
inline constexpr std::array<amd_model_info, 3> amd_models = {{
    {amd_model::llvm, "llvm", "the LLVM AMDGPU compiler's occupancy", false, true, true},
    {amd_model::hip, "hip", "the HIP runtime's hipOccupancyMaxActiveBlocksPerMultiprocessor", false, false, false},
    {amd_model::rcp, "rcp", "the Radeon Compute Profiler / CodeXL calculator", true, false, false},
}};

constexpr const amd_model_info& info(amd_model m) noexcept { return amd_models[static_cast<std::size_t>(m)]; }

/// The model's name as the command line and JSON spell it.
constexpr std::string_view to_string(amd_model m) noexcept { return info(m).name; }

/// The model named `name` exactly (`llvm`), if any.
constexpr std::optional<amd_model> find_amd_model(std::string_view name) noexcept {
  for (const auto& m : amd_models) {
    if (m.name == name) return m.id;
  }
  return std::nullopt;
}

/// Every model's name for messages: `llvm, hip or rcp`.
inline std::string amd_model_choices(std::string_view separator = ", ", std::string_view last = " or ") {
  std::string out;
  for (std::size_t i = 0; i < amd_models.size(); ++i) {
    if (i > 0) out += i + 1 == amd_models.size() ? last : separator;
    out += amd_models[i].name;
  }
  return out;
}

/// What the HIP runtime's occupancy function assumes beyond the hardware.
struct amd_hip_params {
  /// Waves per SIMD it allows (8 on gfx9 and older, "limited by SPI 32 per
  /// CU"; 16 on gfx10 and later).
  std::int64_t max_waves_per_simd = 0;
  /// It allocates SGPRs in multiples of this.
  std::int64_t sgpr_granule = 0;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const amd_hip_params&, const amd_hip_params&) = default;
#endif
};

/// What the Radeon Compute Profiler's calculator assumes: per-CU figures of
/// its device table and its hard-coded constants.
struct amd_rcp_params {
  /// Wave slots per SIMD of its device table.
  std::int64_t max_waves_per_simd = 0;
  std::int64_t simds_per_cu = 0;
  /// VGPRs (VLIW: 128-bit GPRs) per work-item the runtime reports available.
  std::int64_t vgprs_available = 0;
  /// VGPRs are allocated in multiples of this.
  std::int64_t vgpr_granule = 0;
  /// SGPRs per SIMD it divides; empty on VLIW, which has no SGPRs.
  std::optional<std::int64_t> sgprs_per_simd;
  std::int64_t sgpr_granule = 0;
  /// SGPRs it adds to the kernel's count (VCC).
  std::int64_t sgprs_added = 0;
  /// Work-groups per CU with more than one wave, and with one wave.
  std::int64_t max_work_groups_per_cu = 0;
  std::int64_t max_single_wave_work_groups_per_cu = 0;
  /// LDS per CU in bytes as the runtime reports it.
  std::int64_t lds_per_cu_bytes = 0;
  /// The device's maximum work-group size as its runtime reports it (the
  /// denominator counts the waves of this many work-groups).
  std::int64_t max_work_group_size = 0;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const amd_rcp_params&, const amd_rcp_params&) = default;
#endif
};

/// Whether `name` spells a GCN-or-later processor as LLVM does: `gfx` and
/// hexadecimal digits (`gfx90a`, `gfx1250`), or a generic target, `gfx`,
/// decimal digits, an optional `-` and digits, and `-generic`
/// (`gfx11-generic`, `gfx9-4-generic`).
constexpr bool is_gfx_name(std::string_view name) noexcept {
  constexpr std::string_view prefix = "gfx";
  constexpr std::string_view generic = "-generic";
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return false;
  std::string_view rest = name.substr(prefix.size());
  const auto digits_end = [](std::string_view s, std::string_view allowed) {
    return std::min(s.find_first_not_of(allowed), s.size());
  };
  if (rest.size() > generic.size() && rest.substr(rest.size() - generic.size()) == generic) {
    rest.remove_suffix(generic.size());
    const std::size_t major = digits_end(rest, "0123456789");
    if (major == 0) return false;
    if (major == rest.size()) return true;
    return rest[major] == '-' && major + 1 < rest.size() &&
           digits_end(rest.substr(major + 1), "0123456789") == rest.size() - major - 1;
  }
  return digits_end(rest, "0123456789abcdef") == rest.size();
}

/// Whether `name` is a generic target (`gfx11-generic`).
constexpr bool is_generic_gfx_name(std::string_view name) noexcept {
  constexpr std::string_view generic = "-generic";
  return is_gfx_name(name) && name.size() > generic.size() && name.substr(name.size() - generic.size()) == generic;
}

/// An LLVM processor the table cannot answer for (`gfx1310`), and why: what
/// is known and what is missing, in the table's words.
struct unlisted_amd_target {
  /// The LLVM processor name.
  std::string id;
  std::string reason;
  std::vector<std::string> sources;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const unlisted_amd_target&, const unlisted_amd_target&) = default;
#endif
};

/// One AMD GPU target (`gfx900`, `cypress`).
struct amd_target {
  /// The LLVM processor name (`gfx90a`, or an R600 name for VLIW parts).
  std::string id;
  /// Architecture family (`GCN5`, `CDNA2`, `RDNA3`).
  std::string family;
  /// Ids of the sources of its figures.
  std::vector<std::string> sources;
  std::string notes;
  /// A generic target's members (`gfx11-generic`: `gfx1100`, `gfx1101`,
  /// ...): the processors its code runs on. Empty for a processor.
  std::vector<std::string> members;
  /// LLVM's other names for the processor, which `-mcpu` takes too (`fiji`,
  /// `polaris10` for gfx803): a query, a policy's `arch` and `--arch` accept
  /// them; outputs name the processor by `id`.
  std::vector<std::string> aliases;
  /// Waves a SIMD (LLVM: execution unit) holds at most.
  std::int64_t max_waves_per_simd = 0;
  /// SIMDs per CU.
  std::int64_t simds_per_cu = 0;
  /// The register file per supported wave size; the first is the default.
  std::vector<amd_vgpr_file> vgpr_files;
  /// ArchVGPRs and AGPRs share one file (gfx90a and later CDNA): a wave's
  /// total is roundup(VGPRs, 4) + AGPRs. Otherwise AGPRs have their own file
  /// and the larger of the two counts.
  bool unified_vgpr_file = false;
  /// SGPRs a SIMD holds for all its waves; empty where waves do not share
  /// an SGPR file (gfx10 and later).
  std::optional<std::int64_t> sgprs_per_simd;
  /// A wave's SGPRs are allocated in multiples of this (0 without a file).
  std::int64_t sgpr_granule = 0;
  /// How the compiler counts the SGPR file (getOccupancyWithNumSGPRs): a
  /// table of steps, the fewest SGPRs first, which is not the file over the
  /// rounded count (gfx9: 84 SGPRs keep 9 waves, not 800 / 96 = 8). Present
  /// exactly where the file is shared and the llvm model answers.
  std::vector<amd_sgpr_step> llvm_sgpr_steps;
  /// LDS per CU in bytes.
  std::int64_t lds_per_cu_bytes = 0;
  /// Work-groups with more than one wave a CU holds at most (one barrier each).
  std::int64_t max_barriers_per_cu = 0;
  /// WGP mode (gfx10 and later): two CUs as one work-group processor, with
  /// twice the SIMDs, LDS and barriers; the compiler's default there.
  bool has_wgp_mode = false;
  /// The models that answer for this target; the first is its default.
  std::vector<amd_model> models;
  /// Work-items per work-group at most.
  std::int64_t max_work_group_size = 0;
  /// LDS one work-group may allocate, in bytes.
  std::int64_t max_lds_per_work_group_bytes = 0;
  /// Architectural VGPRs (VLIW: GPRs) a wave may address.
  std::int64_t max_vgprs_per_wave = 0;
  /// AGPRs a wave may address; 0 without AGPRs (before CDNA).
  std::int64_t max_agprs_per_wave = 0;
  /// SGPRs a wave may address; 0 without SGPRs (VLIW).
  std::int64_t max_sgprs_per_wave = 0;
  /// The compiler's own, lower budget where it has one (gfx802 and gfx805:
  /// LLVM's SGPR initialization bug gives every kernel 96); the llvm model
  /// takes at most this many, the others `max_sgprs_per_wave`.
  std::optional<std::int64_t> llvm_max_sgprs_per_wave;

  /// The most SGPRs a wave may use under `model`.
  std::int64_t max_sgprs_under(amd_model model) const noexcept {
    return model == amd_model::llvm && llvm_max_sgprs_per_wave ? *llvm_max_sgprs_per_wave : max_sgprs_per_wave;
  }
  /// The HIP runtime's figures, where it supports the target.
  std::optional<amd_hip_params> hip;
  /// The Radeon Compute Profiler's figures, where it covers the target.
  std::optional<amd_rcp_params> rcp;

  /// Whether `model` answers for this target.
  bool supports(amd_model model) const noexcept {
    for (const auto m : models) {
      if (m == model) return true;
    }
    return false;
  }
  /// Whether waves of `size` work-items run on it.
  bool supports_wave_size(std::int64_t size) const noexcept {
    for (const auto& f : vgpr_files) {
      if (f.wave_size == size) return true;
    }
    return false;
  }
  /// The default wave size (the first register file's).
  std::int64_t default_wave_size() const noexcept { return vgpr_files.front().wave_size; }

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const amd_target&, const amd_target&) = default;
#endif
};

/// A named AMD GPU: a product with its target and CU count.
struct amd_gpu {
  /// Identifier: the lower-case name with `-` between words.
  std::string id;
  /// Product name as AMD writes it.
  std::string name;
  /// Id of its `amd_target`.
  std::string target_id;
  /// Compute units (physical CUs; a WGP is two).
  std::int64_t compute_units = 0;
  /// Wave slots per SIMD where the device has fewer than its target's
  /// (Polaris: 8); the rcp model reads the device table, as RCP does.
  std::optional<std::int64_t> max_waves_per_simd;
  /// Other names people type for exactly this product.
  std::vector<std::string> aliases;
  /// Ids of the sources for the figures.
  std::vector<std::string> sources;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const amd_gpu&, const amd_gpu&) = default;
#endif
};

}  // namespace occcalc
