/// \file nvidia/occupancy.hpp
/// The occupancy calculator: one pure function per resource that bounds the
/// number of resident blocks, and a combiner that takes their minimum and
/// names every limiter.
///
/// The decomposition follows NVIDIA's `cuda_occupancy.h` (warps, registers,
/// shared memory, blocks, barriers, each with its own block limit); every
/// architecture difference comes from `nvidia_arch` fields, never from the
/// compute capability. Fed the same device properties, the results equal the
/// header's `cudaOccMaxActiveBlocksPerMultiprocessor` (see
/// tests/authority/differential_test.cpp).
///
/// Each function reads as the CUDA Programming Guide and NVIDIA's occupancy
/// spreadsheet state the rule: whole warps, allocations rounded up to their
/// unit, the resource per SM divided by the resource per block.
///
/// Preconditions: `validate_launch(arch, launch)` has accepted the launch and
/// the arch comes from a loaded table (whose loader checked its invariants).
#pragma once

#include <cstddef>
#include <cstdint>

#include "occcalc/common/enum_set.hpp"
#include "occcalc/common/host_device.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/nvidia/arch_figures.hpp"
#include "occcalc/nvidia/launch.hpp"

namespace occcalc {

/// A resource that can bound the number of resident blocks.
enum class resource : std::uint8_t { warps, registers, shared_memory, blocks, barriers };

/// Number of `resource` values.
inline constexpr std::size_t resource_count = 5;
static_assert(static_cast<std::size_t>(resource::barriers) + 1 == resource_count, "resource_count is stale");

/// The resources the NVIDIA model reports, in report order.
inline constexpr resource nvidia_resources[resource_count] = {
    resource::warps, resource::registers, resource::shared_memory, resource::blocks, resource::barriers};

/// A set of resources.
using resource_set = enum_set<resource>;

/// Why a resource admits no block at all.
enum class infeasibility : std::uint8_t {
  none,
  /// The block has more threads than the architecture allows.
  block_too_large,
  /// The kernel uses more registers per thread than the architecture allows.
  registers_per_thread,
  /// The block's allocated registers exceed the per-block maximum.
  registers_per_block,
  /// The block's registers, with its warps rounded up to a multiple of the
  /// register-file partitions, exceed the per-block maximum (the hardware's
  /// launch check in `cuda_occupancy.h`).
  registers_per_block_partitioned,
  /// The block would not fit on the sibling architecture with
  /// `register_compat_partitions` partitions, so it is not run here either.
  registers_compat,
  /// A block needs more registers than an SM has.
  registers_per_sm,
  /// The block's shared memory exceeds the per-block maximum (after opt-in).
  shared_memory_per_block,
  /// A block needs more shared memory than any configuration of the SM has.
  shared_memory_per_sm,
};

/// The bound one resource puts on resident blocks per SM.
struct block_limit {
  /// Most resident blocks this resource allows; empty when it imposes no
  /// limit (no registers used, no shared memory, barriers not limiting).
  optional_integer blocks;
  /// Why `blocks` is 0; `none` otherwise.
  infeasibility reason = infeasibility::none;
};

/// Registers a block gets and the limit they impose.
struct register_usage {
  /// Registers allocated per warp (warp scope: regs x warp size rounded up to
  /// the allocation unit; block scope: 0).
  std::int64_t per_warp = 0;
  /// Registers allocated per block.
  std::int64_t per_block = 0;
  /// The allocation unit the count was rounded up to, in registers.
  std::int64_t allocation_unit = 0;
  /// Block scope: the warps the allocation counts (warps per block rounded up
  /// to the architecture's multiple); warp scope: the block's warps.
  std::int64_t warps_allocated = 0;
  /// Warp scope: warps of `per_warp` registers one register file partition
  /// holds; 0 in block scope or without registers.
  std::int64_t warps_per_partition = 0;
  block_limit limit;
};

/// Shared memory a block gets and the limit it imposes.
struct shared_memory_usage {
  /// Bytes allocated per block: static + dynamic + reserved, rounded up to the
  /// allocation unit.
  std::int64_t per_block_bytes = 0;
  /// Bytes of the SM configuration the launch runs in (cache configuration or
  /// carveout); empty when the block does not fit.
  optional_integer per_sm_bytes;
  block_limit limit;
};

/// What the calculator says about one launch on one architecture.
struct occupancy_result {
  /// The block limit of each resource, indexed by `resource`.
  block_limit limits[resource_count]{};
  /// The resources whose limit equals `blocks_per_sm` (several when tied).
  resource_set limiters;
  /// Resident blocks per SM: the smallest limit.
  std::int64_t blocks_per_sm = 0;
  /// Warps per block: threads rounded up to whole warps.
  std::int64_t warps_per_block = 0;
  /// Resident warps per SM.
  std::int64_t active_warps_per_sm = 0;
  /// Resident threads per SM (blocks x threads per block).
  std::int64_t active_threads_per_sm = 0;
  /// The architecture's maximum resident warps per SM.
  std::int64_t max_warps_per_sm = 0;
  /// Register allocation of one block.
  register_usage registers;
  /// Shared memory allocation of one block.
  shared_memory_usage shared_memory;

  /// The limit of resource `r`.
  OCCCALC_HOST_DEVICE constexpr const block_limit& limit(resource r) const noexcept {
    return limits[static_cast<std::size_t>(r)];
  }
  /// Theoretical occupancy: active warps / maximum warps, in [0, 1].
  OCCCALC_HOST_DEVICE constexpr double occupancy() const noexcept {
    return max_warps_per_sm > 0 ? static_cast<double>(active_warps_per_sm) / static_cast<double>(max_warps_per_sm)
                                : 0.0;
  }
};

namespace detail {

/// No block fits, for `why`.
OCCCALC_HOST_DEVICE constexpr block_limit infeasible(infeasibility why) noexcept { return {std::int64_t{0}, why}; }

/// A limit of `blocks` or, at 0, none fits for `why`.
OCCCALC_HOST_DEVICE constexpr block_limit at_least_one_or(std::int64_t blocks, infeasibility why) noexcept {
  return {blocks, blocks > 0 ? infeasibility::none : why};
}

/// The smallest supported carveout that holds `bytes`; empty if none does.
OCCCALC_HOST_DEVICE constexpr optional_integer carveout_at_least(const nvidia_arch_figures& arch,
                                                                 std::int64_t bytes) noexcept {
  for (const std::int64_t size : arch.carveout_sizes_bytes) {  // ascending, as the table loader checks
    if (size >= bytes) return size;
  }
  return {};
}

/// The carveout percentage a launch asks for; empty for the default (the
/// largest configuration). A cache preference stands for a carveout when
/// no carveout is given, as `cudaFuncSetCacheConfig` does on Volta and later.
OCCCALC_HOST_DEVICE constexpr optional_integer effective_carveout_percent(const launch_config& launch) noexcept {
  if (launch.carveout_percent) return launch.carveout_percent;
  switch (launch.cache) {
    case cache_preference::none: break;
    case cache_preference::shared: return carveout_max_shared_percent;
    case cache_preference::l1: return carveout_max_l1_percent;
    case cache_preference::equal: return carveout_equal_percent;
  }
  return {};
}

/// Warp-scope register limit with the register file split into `partitions`
/// partitions: each holds floor(registers per SM / partitions / per warp)
/// warps, and the SM floor(that x partitions / warps) blocks. No block fits
/// when the block's registers, its warps rounded up to a multiple of the
/// partitions, exceed the per-block maximum (the hardware's launch check).
OCCCALC_HOST_DEVICE constexpr block_limit partitioned_register_limit(const nvidia_arch_figures& arch,
                                                                     std::int64_t per_warp, std::int64_t warps,
                                                                     std::int64_t partitions) noexcept {
  if (per_warp * round_up(warps, partitions) > arch.max_registers_per_block) {
    return infeasible(infeasibility::registers_per_block_partitioned);
  }
  if (per_warp == 0) return {};
  const std::int64_t warps_per_partition = arch.registers_per_sm / partitions / per_warp;
  return at_least_one_or(warps_per_partition * partitions / warps, infeasibility::registers_per_sm);
}

}  // namespace detail

/// Register allocation unit for a register count (the usual unit unless an
/// override names the count).
OCCCALC_HOST_DEVICE constexpr std::int64_t register_allocation_unit(const nvidia_arch_figures& arch,
                                                                    std::int64_t registers_per_thread) noexcept {
  for (const auto& override_unit : arch.register_unit_overrides) {
    for (const std::int64_t count : override_unit.registers_per_thread) {
      if (count == registers_per_thread) return override_unit.unit_registers;
    }
  }
  return arch.register_allocation_unit;
}

/// The SM's shared memory configuration a launch's cache preference or
/// carveout selects, rounded up to a supported size, before any fix-up for a
/// block that does not fit in it.
OCCCALC_HOST_DEVICE constexpr std::int64_t preferred_shared_memory_per_sm_bytes(const nvidia_arch_figures& arch,
                                                                                const launch_config& launch) noexcept {
  switch (arch.shared_memory_config_model) {
    case shared_memory_config::fixed: break;
    case shared_memory_config::cache_config:
      return arch.shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(launch.cache)];
    case shared_memory_config::carveout: {
      // A percentage of the largest configuration, rounded up to a carveout
      // (a percentage never exceeds the largest, which is a carveout).
      const auto percent = detail::effective_carveout_percent(launch);
      const std::int64_t bytes = percent ? *percent * arch.shared_memory_per_sm_bytes / carveout_max_shared_percent
                                         : arch.shared_memory_per_sm_bytes;
      return detail::carveout_at_least(arch, bytes).value_or(arch.shared_memory_per_sm_bytes);
    }
  }
  return arch.shared_memory_per_sm_bytes;
}

/// Warps a block occupies: threads rounded up to whole warps.
OCCCALC_HOST_DEVICE constexpr std::int64_t warps_per_block(const nvidia_arch_figures& arch,
                                                           std::int64_t threads) noexcept {
  return detail::divide_round_up(threads, arch.warp_size_threads);
}

/// Blocks the SM's warp slots hold: floor(max warps per SM / warps per
/// block), or 0 when the block exceeds the architecture's maximum block size.
OCCCALC_HOST_DEVICE constexpr block_limit warps_block_limit(const nvidia_arch_figures& arch,
                                                            const launch_config& launch) noexcept {
  if (launch.threads_per_block > arch.max_threads_per_block) {
    return detail::infeasible(infeasibility::block_too_large);
  }
  return {arch.max_warps_per_sm / warps_per_block(arch, launch.threads_per_block)};
}

/// Registers a block is allocated and the blocks the register file holds.
///
/// Warp scope: per warp = roundUp(regs x warp size, unit); per block = per
/// warp x warps. Each register file partition holds floor(registers per SM
/// / partitions / per warp) warps, and the limit is floor(that x partitions
/// / warps per block).
///
/// Block scope: per block = roundUp(regs x warp size x roundUp(warps,
/// multiple), unit); limit = floor(registers per SM / per block).
///
/// No block fits when regs exceed the per-thread maximum, or the block's
/// registers the per-block maximum (also with its warps rounded up to a
/// multiple of the partitions), or a block needs more than the SM has. A
/// kernel with no registers is not limited by them.
OCCCALC_HOST_DEVICE constexpr register_usage registers_block_limit(const nvidia_arch_figures& arch,
                                                                   const launch_config& launch) noexcept {
  const std::int64_t regs = launch.registers_per_thread;
  const std::int64_t warps = warps_per_block(arch, launch.threads_per_block);
  register_usage usage;
  usage.allocation_unit = register_allocation_unit(arch, regs);
  if (arch.register_scope == register_allocation_scope::block) {
    usage.warps_allocated = detail::round_up(warps, arch.register_warp_allocation_multiple);
    usage.per_block = detail::round_up(regs * arch.warp_size_threads * usage.warps_allocated, usage.allocation_unit);
    usage.limit = usage.per_block == 0 ? block_limit{}
                                       : detail::at_least_one_or(arch.registers_per_sm / usage.per_block,
                                                                 infeasibility::registers_per_sm);
  } else {
    usage.warps_allocated = warps;
    usage.per_warp = detail::round_up(regs * arch.warp_size_threads, usage.allocation_unit);
    usage.per_block = usage.per_warp * warps;
    const std::int64_t partitions = arch.register_file_partitions;
    if (usage.per_warp > 0) usage.warps_per_partition = arch.registers_per_sm / partitions / usage.per_warp;
    usage.limit = detail::partitioned_register_limit(arch, usage.per_warp, warps, partitions);
    // GP100's blocks must also fit the partitions of its sibling (GP10x).
    if (arch.register_compat_partitions && usage.limit.blocks != std::int64_t{0} &&
        detail::partitioned_register_limit(arch, usage.per_warp, warps, *arch.register_compat_partitions).blocks ==
            std::int64_t{0}) {
      usage.limit = detail::infeasible(infeasibility::registers_compat);
    }
  }
  if (usage.per_block > arch.max_registers_per_block) {
    usage.limit = detail::infeasible(infeasibility::registers_per_block);
  }
  if (regs > arch.max_registers_per_thread) usage.limit = detail::infeasible(infeasibility::registers_per_thread);
  return usage;
}

/// The per-block shared memory maximum for a launch, in bytes, including the
/// driver's reserve: the opt-in maximum when the architecture has one and the
/// launch needs more than the default, the default otherwise.
OCCCALC_HOST_DEVICE constexpr std::int64_t shared_memory_per_block_limit_bytes(const nvidia_arch_figures& arch,
                                                                               const launch_config& launch) noexcept {
  const std::int64_t reserved = arch.shared_memory_reserved_per_block_bytes;
  const std::int64_t by_default = arch.shared_memory_per_block_bytes;
  const bool opts_in = launch.requested_shared_memory_bytes() + reserved > by_default;
  return (opts_in ? arch.shared_memory_per_block_optin_bytes.value_or(by_default) : by_default) + reserved;
}

/// The SM's shared memory configuration a launch gets: the preferred one
/// (`preferred_shared_memory_per_sm_bytes`); if that cannot hold one block,
/// the smallest carveout that can (carveout model) or the largest
/// configuration (other models). Empty if no configuration holds the block.
OCCCALC_HOST_DEVICE constexpr optional_integer shared_memory_per_sm_config_bytes(
    const nvidia_arch_figures& arch, const launch_config& launch, std::int64_t per_block_bytes) noexcept {
  const std::int64_t preferred = preferred_shared_memory_per_sm_bytes(arch, launch);
  if (preferred >= per_block_bytes) return preferred;
  const optional_integer fallback = arch.shared_memory_config_model == shared_memory_config::carveout
                                        ? detail::carveout_at_least(arch, per_block_bytes)
                                        : optional_integer(arch.shared_memory_per_sm_bytes);
  if (fallback && *fallback >= per_block_bytes) return fallback;
  return {};
}

/// Shared memory a block is allocated and the blocks the SM holds.
///
/// Per block = roundUp(static + dynamic + reserved, unit). No block fits when
/// that exceeds `shared_memory_per_block_limit_bytes`, or no configuration of
/// the SM holds it. Otherwise the limit is floor(configuration bytes / per
/// block), unlimited when the block uses none.
OCCCALC_HOST_DEVICE constexpr shared_memory_usage shared_memory_block_limit(const nvidia_arch_figures& arch,
                                                                            const launch_config& launch) noexcept {
  shared_memory_usage usage;
  usage.per_block_bytes =
      detail::round_up(launch.requested_shared_memory_bytes() + arch.shared_memory_reserved_per_block_bytes,
                       arch.shared_memory_allocation_unit_bytes);
  if (usage.per_block_bytes > shared_memory_per_block_limit_bytes(arch, launch)) {
    usage.limit = detail::infeasible(infeasibility::shared_memory_per_block);
    return usage;  // and no configuration
  }
  usage.per_sm_bytes = shared_memory_per_sm_config_bytes(arch, launch, usage.per_block_bytes);
  if (!usage.per_sm_bytes) {
    usage.limit = detail::infeasible(infeasibility::shared_memory_per_sm);
  } else if (usage.per_block_bytes > 0) {
    usage.limit = {*usage.per_sm_bytes / usage.per_block_bytes};
  }
  return usage;
}

/// The architecture's resident-block maximum.
OCCCALC_HOST_DEVICE constexpr block_limit blocks_block_limit(const nvidia_arch_figures& arch) noexcept {
  return {arch.max_blocks_per_sm};
}

/// Blocks the SM's barriers hold: floor(barriers per SM / barriers per
/// block), where the architecture's barriers limit occupancy and the kernel
/// uses any.
OCCCALC_HOST_DEVICE constexpr block_limit barriers_block_limit(const nvidia_arch_figures& arch,
                                                               const launch_config& launch) noexcept {
  if (!arch.block_barriers_per_sm || launch.barriers <= 0) return {};
  return {*arch.block_barriers_per_sm / launch.barriers};
}

/// Resident blocks, warps and threads per SM for `launch` on `arch`, with
/// the limit of every resource and the ones that bind: the smallest limit,
/// as `cudaOccMaxActiveBlocksPerMultiprocessor` takes it.
OCCCALC_HOST_DEVICE constexpr occupancy_result compute_occupancy(const nvidia_arch_figures& arch,
                                                                 const launch_config& launch) noexcept {
  occupancy_result result;
  result.registers = registers_block_limit(arch, launch);
  result.shared_memory = shared_memory_block_limit(arch, launch);
  const block_limit limits[resource_count] = {warps_block_limit(arch, launch), result.registers.limit,
                                              result.shared_memory.limit, blocks_block_limit(arch),
                                              barriers_block_limit(arch, launch)};
  // The blocks limit always has a value, so the smallest is finite.
  result.blocks_per_sm = *limits[static_cast<std::size_t>(resource::blocks)].blocks;
  for (std::size_t i = 0; i < resource_count; ++i) {
    result.limits[i] = limits[i];
    const std::int64_t bound = limits[i].blocks.bound();
    if (bound < result.blocks_per_sm) result.blocks_per_sm = bound;
  }
  for (std::size_t i = 0; i < resource_count; ++i) {  // nvidia_resources' order, without reading it on a device
    result.limiters.insert_if(limits[i].blocks == result.blocks_per_sm, static_cast<resource>(i));
  }
  result.warps_per_block = warps_per_block(arch, launch.threads_per_block);
  result.active_warps_per_sm = result.blocks_per_sm * result.warps_per_block;
  result.active_threads_per_sm = result.blocks_per_sm * launch.threads_per_block;
  result.max_warps_per_sm = arch.max_warps_per_sm;
  return result;
}

}  // namespace occcalc
