/// \file occupancy.hpp
/// The occupancy calculator: one pure function per resource that bounds the
/// number of resident blocks, and a combiner that takes their minimum and
/// names every limiter.
///
/// The decomposition follows NVIDIA's `cuda_occupancy.h` (warps, registers,
/// shared memory, blocks, barriers, each with its own block limit); every
/// architecture difference comes from `nvidia_arch` fields, never from the
/// compute capability. Fed the same device properties, the results equal the
/// header's `cudaOccMaxActiveBlocksPerMultiprocessor` (see
/// tests/differential_test.cpp).
///
/// Preconditions: `validate_launch(arch, launch)` has accepted the launch and
/// the arch comes from a loaded table (whose loader checked its invariants).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "occcalc/common/enum_set.hpp"
#include "occcalc/common/math.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/prepared_arch.hpp"

namespace occcalc {

/// A resource that can bound the number of resident blocks.
enum class resource : std::uint8_t { warps, registers, shared_memory, blocks, barriers };

/// Number of `resource` values.
inline constexpr std::size_t resource_count = 5;
static_assert(static_cast<std::size_t>(resource::barriers) + 1 == resource_count, "resource_count is stale");

/// The resources the NVIDIA model reports, in report order.
inline constexpr std::array<resource, resource_count> nvidia_resources = {
    resource::warps, resource::registers, resource::shared_memory, resource::blocks, resource::barriers};

/// The resource's name as used in JSON keys (`shared_memory`).
constexpr std::string_view to_string(resource r) noexcept {
  constexpr std::array<std::string_view, resource_count> names = {"warps", "registers", "shared_memory", "blocks",
                                                                  "barriers"};
  return names[static_cast<std::size_t>(r)];
}

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
  std::array<block_limit, resource_count> limits{};
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
  constexpr const block_limit& limit(resource r) const noexcept { return limits[static_cast<std::size_t>(r)]; }
  /// Theoretical occupancy: active warps / maximum warps, in [0, 1].
  double occupancy() const noexcept {
    return max_warps_per_sm > 0 ? static_cast<double>(active_warps_per_sm) / static_cast<double>(max_warps_per_sm)
                                : 0.0;
  }
};

namespace detail {

/// Copies made member by member, from which `compute_occupancy` builds its
/// result. Copied whole, a `block_limit` (an integer, a byte and padding) is
/// moved as one 16-byte load of the stack slot its members were just stored
/// to one by one: the CPU cannot forward two stores to one wider load, and
/// the load waits for them to reach the cache (in `perf`, 16-18% of an
/// evaluation sat on one such load; bench/core_bench.cpp). Member by member,
/// each value goes from a register to the result. -Wextra's
/// -Wmissing-field-initializers names a member these copies leave out.
constexpr block_limit member_copy(const block_limit& limit) noexcept { return {limit.blocks, limit.reason}; }

constexpr register_usage member_copy(const register_usage& usage) noexcept {
  return {usage.per_warp,        usage.per_block,           usage.allocation_unit,
          usage.warps_allocated, usage.warps_per_partition, member_copy(usage.limit)};
}

constexpr shared_memory_usage member_copy(const shared_memory_usage& usage) noexcept {
  return {usage.per_block_bytes, usage.per_sm_bytes, member_copy(usage.limit)};
}

constexpr block_limit infeasible(infeasibility why) noexcept { return {std::int64_t{0}, why}; }

/// `limit`, unless `fails`: then no block fits, for `why`. A `select`: the
/// models compute every check and keep the first that fails, rather than
/// branching on each check the launch decides.
constexpr block_limit unless(bool fails, infeasibility why, block_limit limit) noexcept {
  const auto reason = select(fails, static_cast<std::uint8_t>(why), static_cast<std::uint8_t>(limit.reason));
  return {optional_integer::select(fails, std::int64_t{0}, limit.blocks), static_cast<infeasibility>(reason)};
}

/// The same, clearing the blocks with a mask, for a check that a random
/// stream of launches fails about as often as not (the per-block register
/// maximum). GCC turns `unless` there into a branch, whatever the hint, and
/// the branch was mispredicted at about every other evaluation: a mask costs
/// 5 instructions more, and bench/core_bench.cpp's best went from 44 to 51 M/s
/// in runs in turn with the branch.
constexpr block_limit unless_by_mask(bool fails, infeasibility why, block_limit limit) noexcept {
  const std::uint64_t keep = static_cast<std::uint64_t>(fails) - 1;  // all ones unless it fails
  const auto reason = select(fails, static_cast<std::uint8_t>(why), static_cast<std::uint8_t>(limit.reason));
  return {static_cast<std::int64_t>(static_cast<std::uint64_t>(limit.blocks.bound()) & keep),
          static_cast<infeasibility>(reason)};
}

/// A limit of `blocks` (> 0) or, at 0, none fits for `why`.
constexpr block_limit at_least_one_or(std::int64_t blocks, infeasibility why) noexcept {
  return {blocks, blocks > 0 ? infeasibility::none : why};
}

/// Warp-scope register limit with the register file split into
/// 2^`partition_shift` partitions.
constexpr block_limit partitioned_register_limit(const nvidia_arch& arch, std::int64_t per_warp, std::int64_t warps,
                                                 int partition_shift, std::int64_t warps_per_partition) noexcept {
  const std::int64_t blocks = divide_small(warps_per_partition << partition_shift, warps);
  const block_limit limit = per_warp == 0 ? block_limit{} : at_least_one_or(blocks, infeasibility::registers_per_sm);
  return unless(per_warp * round_up_to_power_of_two(warps, partition_shift) > arch.max_registers_per_block,
                infeasibility::registers_per_block_partitioned, limit);
}

}  // namespace detail

/// Warps a block occupies: threads rounded up to whole warps.
constexpr std::int64_t warps_per_block(const nvidia_arch& arch, std::int64_t threads) noexcept {
  return detail::divide_round_up(threads, arch.warp_size_threads);
}

/// The same, by the prepared warp size.
constexpr std::int64_t warps_per_block(const prepared_arch& prepared, std::int64_t threads) noexcept {
  return detail::round_up_to_power_of_two(threads, prepared.warp_shift) >> prepared.warp_shift;
}

/// Blocks the SM's warp slots hold: max warps per SM / warps per block, or 0
/// when the block exceeds the architecture's maximum block size.
inline block_limit warps_block_limit(const prepared_arch& prepared, const launch_config& launch) noexcept {
  const nvidia_arch& arch = *prepared.arch;
  const bool too_large = launch.threads_per_block > arch.max_threads_per_block;
  const std::int64_t blocks = prepared.warp_slot_blocks(warps_per_block(prepared, launch.threads_per_block));
  return {too_large ? 0 : blocks, too_large ? infeasibility::block_too_large : infeasibility::none};
}

/// Registers a block is allocated and the blocks the register file holds.
///
/// Warp scope: per warp = roundUp(regs x warp size, unit); per block = per
/// warp x warps. No block fits when regs exceed the per-thread maximum, the
/// block's registers exceed the per-block maximum, or they would with its
/// warps rounded up to a multiple of the partitions. Otherwise each partition
/// holds floor(registers per SM / partitions / per warp) warps, and the limit
/// is floor(that x partitions / warps per block).
///
/// Block scope: per block = roundUp(regs x warp size x roundUp(warps,
/// multiple), unit); limit = floor(registers per SM / per block).
///
/// A kernel with no registers is not limited by them.
inline register_usage registers_block_limit(const prepared_arch& prepared, const launch_config& launch) noexcept {
  const nvidia_arch& arch = *prepared.arch;
  const std::int64_t regs = launch.registers_per_thread;
  const std::int64_t warps = warps_per_block(prepared, launch.threads_per_block);
  // The allocation unit, the registers of a warp and the warps a partition
  // holds depend on the register count alone: read from the prepared
  // tables, or derived where there are none (`preparation::direct`).
  const register_count_constants by_count = prepared.register_constants(regs);
  const int unit_shift = by_count.unit_shift;
  register_usage usage;
  usage.allocation_unit = std::int64_t{1} << unit_shift;
  if (arch.register_scope == register_allocation_scope::block) {
    usage.warps_allocated = detail::round_up_to_power_of_two(warps, prepared.register_warp_multiple_shift);
    usage.per_block =
        detail::round_up_to_power_of_two((regs << prepared.warp_shift) * usage.warps_allocated, unit_shift);
  } else {
    usage.warps_allocated = warps;
    usage.per_warp = by_count.per_warp;
    usage.per_block = usage.per_warp * warps;
    usage.warps_per_partition = by_count.warps_per_partition;
  }

  block_limit limit;
  if (arch.register_scope == register_allocation_scope::block) {
    // Both are counted in allocation units, where they are small.
    const std::int64_t units = std::max<std::int64_t>(usage.per_block >> unit_shift, 1);
    limit = usage.per_block == 0
                ? block_limit{}
                : detail::at_least_one_or(detail::divide_small(arch.registers_per_sm >> unit_shift, units),
                                          infeasibility::registers_per_sm);
  } else {
    limit = detail::partitioned_register_limit(arch, usage.per_warp, warps, prepared.register_partition_shift,
                                               usage.warps_per_partition);
    if (arch.register_compat_partitions) {  // one architecture (GP100): a branch that rarely goes this way
      const int compat_shift = prepared.register_compat_partition_shift;
      const bool compat_fails = detail::partitioned_register_limit(arch, usage.per_warp, warps, compat_shift,
                                                                   by_count.compat_warps_per_partition)
                                    .blocks == std::int64_t{0};
      limit = detail::unless((limit.blocks != std::int64_t{0}) & compat_fails, infeasibility::registers_compat, limit);
    }
  }
  usage.limit = detail::unless(regs > arch.max_registers_per_thread, infeasibility::registers_per_thread,
                               detail::unless_by_mask(usage.per_block > arch.max_registers_per_block,
                                                      infeasibility::registers_per_block, limit));
  return usage;
}

/// The per-block shared memory maximum for a launch, in bytes, including the
/// driver's reserve: the opt-in maximum when the architecture has one and the
/// launch needs more than the default, the default otherwise.
constexpr std::int64_t shared_memory_per_block_limit_bytes(const prepared_arch& prepared,
                                                           const launch_config& launch) noexcept {
  const nvidia_arch& arch = *prepared.arch;
  const std::int64_t reserved = arch.shared_memory_reserved_per_block_bytes;
  const std::int64_t by_default = arch.shared_memory_per_block_bytes;
  // Without an opt-in maximum, both choices are the default.
  const bool opts_in = launch.requested_shared_memory_bytes() + reserved > by_default;
  return *optional_integer::select(opts_in, prepared.shared_memory_per_block_optin_bytes, by_default) + reserved;
}

/// The same from the architecture's description.
inline std::int64_t shared_memory_per_block_limit_bytes(const nvidia_arch& arch, const launch_config& launch) noexcept {
  return shared_memory_per_block_limit_bytes(prepared_arch(arch, preparation::direct), launch);
}

/// The SM's shared memory configuration a launch gets: the preferred one
/// (`preferred_shared_memory_per_sm_bytes`); if that cannot hold one block,
/// the smallest carveout that can (carveout model) or the largest
/// configuration (other models). Empty if no configuration holds the block.
inline optional_integer shared_memory_per_sm_config_bytes(const prepared_arch& prepared, const launch_config& launch,
                                                          std::int64_t per_block_bytes) noexcept {
  const std::int64_t preferred = preferred_shared_memory_per_sm_bytes(prepared, launch);
  if (preferred >= per_block_bytes) return preferred;
  const nvidia_arch& arch = *prepared.arch;
  const optional_integer fallback = arch.shared_memory_config_model == shared_memory_config::carveout
                                        ? detail::carveout_at_least(arch, per_block_bytes)
                                        : optional_integer(arch.shared_memory_per_sm_bytes);
  if (fallback && *fallback >= per_block_bytes) return fallback;
  return std::nullopt;
}

/// Shared memory a block is allocated and the blocks the SM holds.
///
/// Per block = roundUp(static + dynamic + reserved, unit). No block fits when
/// that exceeds `shared_memory_per_block_limit_bytes`. Otherwise the limit is
/// floor(configuration bytes / per block), unlimited when the block uses none.
inline shared_memory_usage shared_memory_block_limit(const prepared_arch& prepared,
                                                     const launch_config& launch) noexcept {
  const nvidia_arch& arch = *prepared.arch;
  const int unit_shift = prepared.shared_memory_unit_shift;
  shared_memory_usage usage;
  usage.per_block_bytes = detail::round_up_to_power_of_two(
      launch.requested_shared_memory_bytes() + arch.shared_memory_reserved_per_block_bytes, unit_shift);
  const bool over_block_limit = usage.per_block_bytes > shared_memory_per_block_limit_bytes(prepared, launch);
  usage.per_sm_bytes = shared_memory_per_sm_config_bytes(prepared, launch, usage.per_block_bytes);
  // Both are counted in allocation units, where they are small.
  const std::int64_t units = std::max<std::int64_t>(usage.per_block_bytes >> unit_shift, 1);
  const block_limit limit =
      usage.per_block_bytes == 0
          ? block_limit{}
          : block_limit{detail::divide_small(usage.per_sm_bytes.value_or(0) >> unit_shift, units)};
  usage.limit = detail::unless(over_block_limit, infeasibility::shared_memory_per_block,
                               detail::unless(!usage.per_sm_bytes, infeasibility::shared_memory_per_sm, limit));
  // A block over the per-block limit gets no configuration.
  usage.per_sm_bytes = optional_integer::select(over_block_limit, std::nullopt, usage.per_sm_bytes);
  return usage;
}

/// The architecture's resident-block maximum.
constexpr block_limit blocks_block_limit(const nvidia_arch& arch) noexcept { return {arch.max_blocks_per_sm}; }

/// Blocks the SM's barriers hold: barriers per SM / barriers per block, where
/// the architecture's barriers limit occupancy and the kernel uses any.
constexpr block_limit barriers_block_limit(const prepared_arch& prepared, const launch_config& launch) noexcept {
  const std::int64_t per_sm = prepared.block_barriers_per_sm;
  const std::int64_t blocks = detail::divide_small(per_sm, std::max<std::int64_t>(launch.barriers, 1));
  return {optional_integer::select(per_sm > 0 && launch.barriers > 0, blocks, std::nullopt)};
}

/// Resident blocks, warps and threads per SM for `launch` on the prepared
/// architecture, with the limit of every resource and the ones that bind.
inline occupancy_result compute_occupancy(const prepared_arch& prepared, const launch_config& launch) noexcept {
  const nvidia_arch& arch = *prepared.arch;
  // Each limit is a local and the result is built from them at the end:
  // compilers keep such locals in registers, where a result filled in place
  // is first cleared and its parts copied through memory.
  const block_limit warps_limit = warps_block_limit(prepared, launch);
  const register_usage registers = registers_block_limit(prepared, launch);
  const shared_memory_usage shared_memory = shared_memory_block_limit(prepared, launch);
  const block_limit blocks_limit = blocks_block_limit(arch);
  const block_limit barriers_limit = barriers_block_limit(prepared, launch);
  // The blocks limit always has a value, so the minimum is always finite.
  // Named one by one, not looped over: a loop over the limits' addresses
  // would keep them in memory.
  std::int64_t blocks = *blocks_limit.blocks;
  blocks = detail::smaller(blocks, warps_limit.blocks.bound());
  blocks = detail::smaller(blocks, registers.limit.blocks.bound());
  blocks = detail::smaller(blocks, shared_memory.limit.blocks.bound());
  blocks = detail::smaller(blocks, barriers_limit.blocks.bound());
  resource_set limiters;
  // blocks is finite, so a limit equals it only when it has that value.
  limiters.insert_if(warps_limit.blocks.bound() == blocks, resource::warps);
  limiters.insert_if(registers.limit.blocks.bound() == blocks, resource::registers);
  limiters.insert_if(shared_memory.limit.blocks.bound() == blocks, resource::shared_memory);
  limiters.insert_if(blocks_limit.blocks.bound() == blocks, resource::blocks);
  limiters.insert_if(barriers_limit.blocks.bound() == blocks, resource::barriers);
  const std::int64_t warps = warps_per_block(prepared, launch.threads_per_block);
  using detail::member_copy;
  return {{member_copy(warps_limit), member_copy(registers.limit), member_copy(shared_memory.limit),
           member_copy(blocks_limit), member_copy(barriers_limit)},
          limiters,
          blocks,
          warps,
          blocks * warps,
          blocks * launch.threads_per_block,
          arch.max_warps_per_sm,
          member_copy(registers),
          member_copy(shared_memory)};
}

/// The same for one launch: prepares `arch` first, without the tables.
/// Callers that evaluate many launches on one architecture prepare it once,
/// with them, instead.
inline occupancy_result compute_occupancy(const nvidia_arch& arch, const launch_config& launch) noexcept {
  return compute_occupancy(prepared_arch(arch, preparation::direct), launch);
}

}  // namespace occcalc
