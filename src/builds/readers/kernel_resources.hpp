// What a build output says about one kernel on one architecture.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "occcalc/request/target.hpp"

namespace occcalc::inspect {

/// Block or cluster dimensions (x, y, z).
using dim3 = std::array<std::int64_t, 3>;

/// What a reader found in place of ptxas's static shared memory figure. The
/// readers know no architecture table, so a figure that may hold the bytes
/// the driver reserves per block is reported as read, and analysis takes the
/// reserve out (`settle_static_shared_memory`).
enum class shared_memory_figure : std::uint8_t {
  /// The kernel's own figure, as ptxas reports it.
  own,
  /// A linked CUDA 13 cubin's `.nv.shared.<kernel>` section in a cubin that
  /// references `.nv.reservedSmem`: the reserve is in it.
  section_with_reserve,
  /// nvlink's `smem`: the reserve is in it on architectures whose table entry
  /// says `binary_shared_section_includes_reserved`.
  linker_report,
};

/// A kernel's resource usage as its binary or compiler log states it: a
/// CUDA kernel, or an AMD one (stack = private segment, shared memory = LDS,
/// registers = VGPRs, block = work-group). Every
/// figure is optional: each source holds a different subset (spills are only
/// in logs; launch bounds only in binaries), and a missing figure is shown as
/// unknown, never as 0.
struct kernel_resources {
  /// The kernel's symbol (mangled for C++).
  std::string name;
  /// The target the source names: `sm_90`, `sm_90a`; `gfx90a` for AMD code
  /// objects.
  gpu_target arch;
  /// Registers per thread (ptxas "Used N registers"). AMD: the metadata's
  /// `.vgpr_count`, the VGPRs a wave is charged (on gfx90a and later CDNA,
  /// VGPRs rounded up to 4 plus AGPRs; on gfx908 the larger of the two).
  std::optional<std::int64_t> registers;
  /// Static shared memory per block in bytes, as ptxas reports it: without
  /// the bytes the driver reserves per block. AMD: the LDS of
  /// `.group_segment_fixed_size`.
  std::optional<std::int64_t> static_shared_memory_bytes;
  /// What `static_shared_memory_bytes` holds until analysis settles it.
  shared_memory_figure shared_memory_read_as = shared_memory_figure::own;
  /// The kernel's own stack frame per thread in bytes ("bytes stack frame").
  std::optional<std::int64_t> stack_frame_bytes;
  /// Stack per thread including callees in bytes ("cumulative stack size",
  /// nvlink's "stack").
  std::optional<std::int64_t> stack_size_bytes;
  /// Local memory per thread in bytes (nvlink's "lmem").
  std::optional<std::int64_t> local_memory_bytes;
  /// Register spill stores and loads in bytes (compiler logs only).
  std::optional<std::int64_t> spill_store_bytes;
  std::optional<std::int64_t> spill_load_bytes;
  /// Block barriers the kernel uses.
  std::optional<std::int64_t> barriers;
  /// `__launch_bounds__` maximum block size (`.maxntid`).
  std::optional<dim3> max_threads;
  /// Required block size (`.reqntid`).
  std::optional<dim3> required_threads;
  /// The register cap the compiler applied (`__maxnreg__`, `-maxrregcount`
  /// or one derived from `__launch_bounds__` minimum blocks); empty when none.
  std::optional<std::int64_t> register_cap;
  /// The minimum of blocks per SM the kernel asks for (`.minnctapersm`, the
  /// second `__launch_bounds__` argument): only PTX records it; in a binary
  /// it survives as the register cap ptxas derived from it.
  std::optional<std::int64_t> min_blocks_per_sm;
  /// `__cluster_dims__` (`.reqnctapercluster` in PTX).
  std::optional<dim3> cluster_dims;
  /// AMD: `.agpr_count`, `.sgpr_count`, `.wavefront_size`, the spill counts
  /// (registers, not bytes), and WGP mode from the kernel descriptor.
  std::optional<std::int64_t> agprs;
  /// AMD compiler remarks: the VGPRs without the AGPRs (the remark's
  /// `VGPRs`); `registers` is then the target's total, which analysis fills
  /// in once it knows the target.
  std::optional<std::int64_t> arch_vgprs;
  std::optional<std::int64_t> sgprs;
  std::optional<std::int64_t> wave_size;
  std::optional<std::int64_t> vgpr_spills;
  std::optional<std::int64_t> sgpr_spills;
  /// AMD compiler remarks: the compiler's own occupancy, in waves per SIMD
  /// (`Occupancy [waves/SIMD]`), at the kernel's flat work-group size, which
  /// the remarks do not print.
  std::optional<std::int64_t> compiler_waves_per_simd;
  std::optional<bool> wgp_mode;
  /// Where in the input the record came from, e.g. `fatbin entry 3 (zstd)`.
  std::string origin;
};

/// Stack per thread: with callees where the input records it, else the
/// kernel's own frame.
inline std::optional<std::int64_t> stack_bytes(const std::optional<std::int64_t>& with_callees,
                                               const std::optional<std::int64_t>& frame) noexcept {
  return with_callees ? with_callees : frame;
}

/// Spills as one figure: the spilled VGPRs and SGPRs where an AMD code
/// object records them, else the bytes a CUDA log says were stored and
/// loaded; empty when neither is recorded.
inline std::optional<std::int64_t> spill_total(const std::optional<std::int64_t>& vgprs,
                                               const std::optional<std::int64_t>& sgprs,
                                               const std::optional<std::int64_t>& stores,
                                               const std::optional<std::int64_t>& loads) noexcept {
  const auto sum = [](const std::optional<std::int64_t>& a,
                      const std::optional<std::int64_t>& b) -> std::optional<std::int64_t> {
    if (!a && !b) return std::nullopt;
    return a.value_or(0) + b.value_or(0);
  };
  return vgprs || sgprs ? sum(vgprs, sgprs) : sum(stores, loads);
}

/// `256x1x1`.
inline std::string dim3_text(const dim3& d) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

/// The product of the dimensions, held at the largest `std::int64_t` where
/// it would pass it (a file's dimensions are its own: 2^32 - 1 each).
inline std::int64_t volume(const dim3& d) noexcept {
  std::int64_t product = 1;
  for (const std::int64_t v : d) {
    if (__builtin_mul_overflow(product, v, &product)) return std::numeric_limits<std::int64_t>::max();
  }
  return product;
}

/// A kernel and its demangled name.
struct inspected_kernel {
  kernel_resources resources;
  /// The demangled name (the symbol itself for C names).
  std::string demangled;
};

}  // namespace occcalc::inspect
