/// \file prepared_arch.hpp
/// An NVIDIA architecture with the constants the calculator derives from it
/// computed once, and the architecture-level rules those constants come
/// from (the register allocation unit of a count, the shared memory
/// configuration a launch prefers).
///
/// `cuda_occupancy.h`'s callers fill a `cudaOccDeviceProp` once per device
/// and evaluate many launches against it; `prepared_arch` is occcalc's
/// counterpart. Building one costs about as much as an evaluation (some 270
/// instructions), so callers that evaluate many launches on one
/// architecture (suggest, sweep, bench/core_bench) build it once, and
/// `compute_occupancy(const nvidia_arch&, ...)` builds one per call (a
/// query, a batch line, the differential tests, which so check the
/// preparation too).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "occcalc/common/math.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"

namespace occcalc {

/// Register counts per thread whose allocation unit `prepared_arch` holds in
/// a table: 0 to 255. The table loader refuses an override above them; a
/// count above them (a kernel no table allows) has the usual unit.
inline constexpr std::size_t prepared_register_counts = 256;

namespace detail {

/// The smallest supported carveout that holds `bytes`; empty if none does.
/// The sizes are few and sorted: counting the smaller ones has no branch
/// that the launch decides.
inline optional_integer carveout_at_least(const nvidia_arch& arch, std::int64_t bytes) noexcept {
  const auto& sizes = arch.carveout_sizes_bytes;
  std::size_t smaller = 0;
  for (const std::int64_t size : sizes) smaller += static_cast<std::size_t>(size < bytes);
  if (smaller == sizes.size()) return std::nullopt;
  return sizes[smaller];
}

/// What a launch asks for when it gives no carveout (`cudaFuncCache` with no
/// `cudaFuncAttributePreferredSharedMemoryCarveout`).
inline constexpr int no_carveout_percent = -1;

/// The carveout each `cache_preference` stands for, in its order.
inline constexpr std::array<int, cache_preference_count> carveout_percent_by_cache = {
    no_carveout_percent, carveout_max_shared_percent, carveout_max_l1_percent, carveout_equal_percent};
static_assert(static_cast<std::size_t>(cache_preference::none) == 0 &&
                  static_cast<std::size_t>(cache_preference::shared) == 1 &&
                  static_cast<std::size_t>(cache_preference::l1) == 2 &&
                  static_cast<std::size_t>(cache_preference::equal) == 3,
              "carveout_percent_by_cache follows cache_preference");

/// The carveout percentage a launch asks for; `no_carveout_percent` for the
/// default (the largest configuration). A cache preference stands for a
/// carveout when no carveout is given, as `cudaFuncSetCacheConfig` does on
/// Volta and later.
constexpr int effective_carveout_percent(const launch_config& launch) noexcept {
  return launch.carveout_percent.value_or(carveout_percent_by_cache[static_cast<std::size_t>(launch.cache)]);
}

}  // namespace detail

/// Register allocation unit for a register count (the usual unit unless an
/// override names the count).
inline std::int64_t register_allocation_unit(const nvidia_arch& arch, std::int64_t registers_per_thread) noexcept {
  for (const auto& override_unit : arch.register_unit_overrides) {
    const auto& counts = override_unit.registers_per_thread;
    if (std::find(counts.begin(), counts.end(), registers_per_thread) != counts.end()) {
      return override_unit.unit_registers;
    }
  }
  return arch.register_allocation_unit;
}

/// The SM's shared memory configuration a launch's cache preference or
/// carveout selects, rounded up to a supported size, before any fix-up for a
/// block that does not fit in it.
inline std::int64_t preferred_shared_memory_per_sm_bytes(const nvidia_arch& arch,
                                                         const launch_config& launch) noexcept {
  switch (arch.shared_memory_config_model) {
    case shared_memory_config::fixed: break;
    case shared_memory_config::cache_config:
      return arch.shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(launch.cache)];
    case shared_memory_config::carveout: {
      const int percent = detail::effective_carveout_percent(launch);
      const std::int64_t bytes = percent != detail::no_carveout_percent
                                     ? percent * arch.shared_memory_per_sm_bytes / carveout_max_shared_percent
                                     : arch.shared_memory_per_sm_bytes;
      // A percentage never exceeds the largest configuration, which the
      // table loader checks is a carveout.
      return detail::carveout_at_least(arch, bytes).value_or(arch.shared_memory_per_sm_bytes);
    }
  }
  return arch.shared_memory_per_sm_bytes;
}

/// An architecture and the constants the calculator derives from it. Every
/// divisor the tables give (warp size, allocation units, partitions) is a
/// power of two, which the table loader checks, and is held as its log2.
///
/// Precondition: `arch` comes from a loaded table and outlives this.
struct prepared_arch {
  /// The architecture.
  const nvidia_arch* arch = nullptr;
  /// log2 of the warp size, in threads.
  int warp_shift = 0;
  /// log2 of the register allocation unit of each register count per thread
  /// below `prepared_register_counts`, overrides applied.
  std::array<std::uint8_t, prepared_register_counts> register_unit_shift_by_count{};
  /// log2 of the usual register allocation unit.
  int register_unit_shift = 0;
  /// Block scope: log2 of the multiple a block's warps are rounded up to.
  int register_warp_multiple_shift = 0;
  /// Warp scope: log2 of the register file partitions.
  int register_partition_shift = 0;
  /// log2 of the sibling architecture's partitions, where there is one.
  int register_compat_partition_shift = 0;
  /// log2 of the shared memory allocation unit, in bytes.
  int shared_memory_unit_shift = 0;
  /// Shared memory one block may use after opting in, in bytes: the opt-in
  /// maximum, or the default where there is none.
  std::int64_t shared_memory_per_block_optin_bytes = 0;
  /// Block barriers per SM where they limit occupancy, else 0.
  std::int64_t block_barriers_per_sm = 0;
  /// The configuration `preferred_shared_memory_per_sm_bytes` gives a launch
  /// without a carveout, for each `cache_preference`, in bytes.
  std::array<std::int64_t, cache_preference_count> preferred_shared_memory_per_sm_by_cache_bytes{};

  /// Derives the constants of `from`.
  explicit prepared_arch(const nvidia_arch& from) noexcept
      : arch(&from),
        warp_shift(detail::log2_of_power_of_two(from.warp_size_threads)),
        register_unit_shift(detail::log2_of_power_of_two(from.register_allocation_unit)) {
    const auto log2_or_0 = [](std::int64_t n) { return n > 0 ? detail::log2_of_power_of_two(n) : 0; };
    register_warp_multiple_shift = log2_or_0(from.register_warp_allocation_multiple);
    register_partition_shift = log2_or_0(from.register_file_partitions);
    register_compat_partition_shift = log2_or_0(from.register_compat_partitions.value_or(0));
    shared_memory_unit_shift = detail::log2_of_power_of_two(from.shared_memory_allocation_unit_bytes);
    shared_memory_per_block_optin_bytes =
        from.shared_memory_per_block_optin_bytes.value_or(from.shared_memory_per_block_bytes);
    block_barriers_per_sm = from.block_barriers_per_sm.value_or(0);
    register_unit_shift_by_count.fill(static_cast<std::uint8_t>(register_unit_shift));
    // Backwards, so that the first override naming a count wins, as in
    // register_allocation_unit.
    for (auto o = from.register_unit_overrides.rbegin(); o != from.register_unit_overrides.rend(); ++o) {
      for (const std::int64_t count : o->registers_per_thread) {
        if (count < static_cast<std::int64_t>(prepared_register_counts)) {
          register_unit_shift_by_count[static_cast<std::size_t>(count)] =
              static_cast<std::uint8_t>(detail::log2_of_power_of_two(o->unit_registers));
        }
      }
    }
    for (std::size_t cache = 0; cache < cache_preference_count; ++cache) {
      launch_config launch;
      launch.cache = static_cast<cache_preference>(cache);
      preferred_shared_memory_per_sm_by_cache_bytes[cache] = preferred_shared_memory_per_sm_bytes(from, launch);
    }
  }

  /// log2 of the register allocation unit for `registers_per_thread` (>= 0).
  constexpr int register_unit_shift_for(std::int64_t registers_per_thread) const noexcept {
    return registers_per_thread < static_cast<std::int64_t>(prepared_register_counts)
               ? register_unit_shift_by_count[static_cast<std::size_t>(registers_per_thread)]
               : register_unit_shift;
  }
};

/// `preferred_shared_memory_per_sm_bytes` from the prepared constants: a
/// table read unless the launch gives a carveout the architecture applies.
inline std::int64_t preferred_shared_memory_per_sm_bytes(const prepared_arch& prepared,
                                                         const launch_config& launch) noexcept {
  if (launch.carveout_percent && prepared.arch->shared_memory_config_model == shared_memory_config::carveout) {
    return preferred_shared_memory_per_sm_bytes(*prepared.arch, launch);
  }
  return prepared.preferred_shared_memory_per_sm_by_cache_bytes[static_cast<std::size_t>(launch.cache)];
}

}  // namespace occcalc
