/// \file amd_arch.hpp
/// Per-target limits of AMD GPUs (GCN, CDNA, RDNA), as plain data: what the
/// AMD occupancy models read. Loaded from data/amd-targets.json.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace occcalc {

/// The vector register file as one wave size sees it.
struct amd_vgpr_file {
  /// Wavefront size in work-items (32 or 64).
  std::int64_t wave_size = 0;
  /// VGPRs per lane a SIMD holds for waves of this size.
  std::int64_t total = 0;
  /// A wave's VGPRs are allocated in multiples of this.
  std::int64_t granule = 0;
};

/// One AMD GPU target (`gfx900`).
struct amd_target {
  /// The LLVM processor name (`gfx90a`).
  std::string id;
  /// Architecture family (`GCN5`, `CDNA2`, `RDNA3`).
  std::string family;
  /// Ids of the sources of its figures.
  std::vector<std::string> sources;
  std::string notes;
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
  /// LDS per CU in bytes.
  std::int64_t lds_per_cu_bytes = 0;
  /// Work-groups with more than one wave a CU holds at most (one barrier each).
  std::int64_t max_barriers_per_cu = 0;
  /// WGP mode (gfx10 and later): two CUs as one work-group processor, with
  /// twice the SIMDs, LDS and barriers; the compiler's default there.
  bool has_wgp_mode = false;
};

}  // namespace occcalc
