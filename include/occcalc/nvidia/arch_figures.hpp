/// \file nvidia/arch_figures.hpp
/// The figures of one NVIDIA compute capability that the calculator reads,
/// as a literal type (`nvidia_arch_figures`); `nvidia_arch` (arch.hpp) adds
/// its name and sources. Every difference between GPU generations that
/// matters to occupancy is a field here; the calculator never branches on a
/// compute capability.
#pragma once

#include <cstddef>
#include <cstdint>

#include "occcalc/common/fixed_list.hpp"
#include "occcalc/common/host_device.hpp"
#include "occcalc/common/optional_integer.hpp"

namespace occcalc {

/// Which unit registers are handed out to.
enum class register_allocation_scope {
  /// Per warp: each warp's registers are rounded up to the allocation unit,
  /// and the register file is split into `register_file_partitions`
  /// (compute capability 2.0 and later).
  warp,
  /// Per block: the block's warps are rounded up to
  /// `register_warp_allocation_multiple`, then the block's registers to the
  /// allocation unit (compute capability 1.x).
  block,
};

/// How the shared memory capacity of an SM is chosen for a launch.
enum class shared_memory_config {
  /// A fixed amount per SM; no cache preference or carveout applies.
  fixed,
  /// Chosen by the `cudaFuncCache` preference (Fermi, Kepler).
  cache_config,
  /// Chosen by the shared-memory carveout percentage, rounded up to the next
  /// supported size (Volta and later).
  carveout,
};

/// A `cudaFuncCache` preference.
enum class cache_preference { none, shared, l1, equal };

/// Number of `cache_preference` values.
inline constexpr std::size_t cache_preference_count = 4;

/// Capacities of an architecture's lists, far above any table's (Fermi's 8
/// register counts in one override; Hopper's 10 carveouts); the table loader
/// refuses a longer list.
inline constexpr std::size_t max_register_overrides = 4;
inline constexpr std::size_t max_register_override_counts = 16;
inline constexpr std::size_t max_carveout_sizes = 16;

/// A register allocation unit that replaces the usual one for some register
/// counts (Fermi, see the 2.x table notes).
struct register_unit_override {
  /// Registers per thread this override applies to.
  fixed_list<std::int64_t, max_register_override_counts> registers_per_thread;
  /// Allocation unit in registers per warp for those counts.
  std::int64_t unit_registers = 0;

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const register_unit_override&, const register_unit_override&) = default;
#endif
};

/// The per-SM and per-block limits of one NVIDIA compute capability: every
/// figure the calculator reads, and nothing else. A literal type, so an
/// architecture written in code is `constexpr` (`builtin_architectures.hpp`
/// holds the tables' as such) and can live in device memory. All sizes are
/// in bytes, all register counts in 32-bit registers.
struct nvidia_arch_figures {
  /// Threads per warp.
  std::int64_t warp_size_threads = 0;
  /// Largest block, in threads.
  std::int64_t max_threads_per_block = 0;
  /// Resident warps per SM.
  std::int64_t max_warps_per_sm = 0;
  /// Resident blocks per SM.
  std::int64_t max_blocks_per_sm = 0;

  /// 32-bit registers per SM.
  std::int64_t registers_per_sm = 0;
  /// Registers one block may allocate.
  std::int64_t max_registers_per_block = 0;
  /// Registers one thread may use (cuda_occupancy.h: 256 from 7.0).
  std::int64_t max_registers_per_thread = 0;
  /// Registers per thread a compiler assigns at most (ptxas' -maxrregcount
  /// cap, 255 from 7.0): suggestions, launch-bounds caps and sweeps stay
  /// within it.
  std::int64_t max_compiled_registers_per_thread = 0;
  /// Whether registers go to warps or to whole blocks.
  register_allocation_scope register_scope = register_allocation_scope::warp;
  /// Allocation unit, in registers per warp (warp scope) or per block (block
  /// scope); allocations round up to a multiple of it.
  std::int64_t register_allocation_unit = 0;
  /// Register counts with a different allocation unit (warp scope only).
  fixed_list<register_unit_override, max_register_overrides> register_unit_overrides;
  /// Block scope: warps per block are rounded up to a multiple of this before
  /// registers are allocated. 0 in warp scope.
  std::int64_t register_warp_allocation_multiple = 0;
  /// Warp scope: the register file is split into this many equal partitions
  /// (SM sub-partitions); a warp's registers come from one partition, and a
  /// block's warps are assumed spread over all of them. 0 in block scope.
  std::int64_t register_file_partitions = 0;
  /// If set, a kernel also gets no register-limited block unless it would fit
  /// on a sibling architecture with this many partitions (GP100 vs GP10x).
  optional_integer register_compat_partitions;

  /// Shared memory per SM at the largest configuration.
  std::int64_t shared_memory_per_sm_bytes = 0;
  /// Shared memory one block may use without opting in.
  std::int64_t shared_memory_per_block_bytes = 0;
  /// Shared memory one block may use after opting in with
  /// `cudaFuncAttributeMaxDynamicSharedMemorySize`; empty where there is no
  /// opt-in.
  optional_integer shared_memory_per_block_optin_bytes;
  /// Shared memory the driver reserves for every block, on top of what the
  /// kernel asks for.
  std::int64_t shared_memory_reserved_per_block_bytes = 0;
  /// Whether nvlink's `smem` figure (CUDA 13) holds the reserved bytes on
  /// top of the kernel's static shared memory, as the linked cubins' shared
  /// sections do from 9.0 (cubins say so themselves by referencing
  /// `.nv.reservedSmem.offset0`). Binaries only: the calculator never
  /// reads it.
  bool binary_shared_section_includes_reserved = false;
  /// A block's shared memory is rounded up to a multiple of this.
  std::int64_t shared_memory_allocation_unit_bytes = 0;
  /// How the per-SM shared memory capacity is chosen.
  shared_memory_config shared_memory_config_model = shared_memory_config::fixed;
  /// Carveout model: the supported per-SM shared memory sizes, ascending.
  fixed_list<std::int64_t, max_carveout_sizes> carveout_sizes_bytes;
  /// Cache-config model: shared memory per SM for each `cache_preference`,
  /// indexed by its value.
  std::int64_t shared_memory_per_sm_by_cache_bytes[cache_preference_count]{};

  /// Block barriers per SM, where they limit occupancy; empty where they do
  /// not.
  optional_integer block_barriers_per_sm;
  /// Barriers one block may use.
  std::int64_t max_barriers_per_block = 0;

  /// Thread block clusters (9.0 and later; empty before): the largest
  /// cluster every later architecture launches (CUDA's portable size), the
  /// largest this one launches with non-portable sizes allowed, and the most
  /// blocks an SM holds in a cluster launch, where measured.
  optional_integer max_cluster_size_portable;
  optional_integer max_cluster_size_nonportable;
  optional_integer max_cluster_blocks_per_sm;

  /// The largest cluster the architecture is known to launch; 0 without
  /// clusters.
  OCCCALC_HOST_DEVICE constexpr std::int64_t max_cluster_size() const noexcept {
    return max_cluster_size_nonportable.value_or(max_cluster_size_portable.value_or(0));
  }

  /// Resident threads per SM.
  OCCCALC_HOST_DEVICE constexpr std::int64_t max_threads_per_sm() const noexcept {
    return max_warps_per_sm * warp_size_threads;
  }

#if __cplusplus >= 202002L
  /// Member by member (C++20; the compiled tables' test uses it).
  friend bool operator==(const nvidia_arch_figures&, const nvidia_arch_figures&) = default;
#endif
};

}  // namespace occcalc
