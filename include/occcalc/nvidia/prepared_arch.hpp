/// \file prepared_arch.hpp
/// An NVIDIA architecture with the constants the calculator derives from it
/// computed once, and the architecture-level rules those constants come
/// from (the register allocation unit of a count, the shared memory
/// configuration a launch prefers).
///
/// `cuda_occupancy.h`'s callers fill a `cudaOccDeviceProp` once per device
/// and evaluate many launches against it; `prepared_arch` is occcalc's
/// counterpart, in two forms (`preparation`). With its tables (the register
/// figures of every register count, the warp-slot limit of every block
/// size) it costs a few thousand instructions to build and saves an
/// evaluation about 37 of its 287 instructions: callers that evaluate many
/// launches on one architecture (sweep, most of suggest, bench/core_bench)
/// build it once. Without them (`preparation::direct`) it costs about as
/// much as an evaluation, and `compute_occupancy(const nvidia_arch&, ...)`
/// builds one per call (a query, a batch line, an inspected kernel).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "occcalc/common/math.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"

namespace occcalc {

/// Register counts per thread whose figures `prepared_arch`'s tables hold:
/// 0 to 255. The table loader refuses an override above them; a count above
/// them (a kernel no table allows) has the usual unit, and its figures are
/// derived at each evaluation.
inline constexpr std::size_t prepared_register_counts = 256;

/// Warps per block whose warp-slot limit `prepared_arch` holds in a table:
/// 0 to 64 (a block of 2,048 threads of 32, twice the largest any GPU
/// allows); a larger block has its limit divided.
inline constexpr std::size_t prepared_block_warp_counts = 65;

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

/// Warps of `per_warp` registers (a multiple of 2^`unit_shift`) one of
/// 2^`partition_shift` register file partitions holds; 0 without registers.
/// Counted in allocation units, where both figures are small.
constexpr std::int64_t warps_per_register_partition(const nvidia_arch& arch, std::int64_t per_warp, int unit_shift,
                                                    int partition_shift) noexcept {
  const std::int64_t units_per_partition = (arch.registers_per_sm >> partition_shift) >> unit_shift;
  return per_warp > 0 ? divide_small(units_per_partition, per_warp >> unit_shift) : 0;
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

/// What the register rules give one register count per thread on one
/// architecture, whatever the block: `prepared_arch` holds them for every
/// count below `prepared_register_counts`, so that an evaluation reads them
/// instead of rounding and dividing.
struct register_count_constants {
  /// Warp scope: registers allocated per warp (regs x warp size rounded up to
  /// the allocation unit); block scope: 0.
  std::int64_t per_warp = 0;
  /// Warp scope: warps of `per_warp` registers one register file partition
  /// holds; 0 in block scope or without registers.
  std::int64_t warps_per_partition = 0;
  /// The same with the sibling architecture's partitions
  /// (`register_compat_partitions`); 0 where there is none.
  std::int64_t compat_warps_per_partition = 0;
  /// log2 of the allocation unit, overrides applied.
  int unit_shift = 0;
};

/// How much `prepared_arch` derives when it is built.
enum class preparation : std::uint8_t {
  /// The constants and the tables indexed by register count and by warps
  /// per block: a few thousand instructions, which an evaluation repays in
  /// about 37 instructions (callgrind). For callers that evaluate many
  /// launches on one architecture (sweep, suggest's shared memory and
  /// next-step searches, bench/core_bench).
  tabulated,
  /// The constants only; each evaluation derives what the tables would hold
  /// (an out-of-line call for the register figures, a division for the warp
  /// slots). For a few evaluations (a query, a batch line, an inspected
  /// kernel, suggest's block-size search).
  direct,
};

/// An architecture and the constants the calculator derives from it. Every
/// divisor the tables give (warp size, allocation units, partitions) is a
/// power of two, which the table loader checks, and is held as its log2.
///
/// Precondition: `arch` comes from a loaded table and outlives this.
struct prepared_arch {
  /// The register constants of one count, as the tables hold them (8 bytes,
  /// so that the tables of every architecture stay in the caches on a
  /// random stream of launches); `register_constants` widens them.
  struct packed_register_constants {
    std::uint16_t per_warp = 0;
    std::uint16_t warps_per_partition = 0;
    std::uint16_t compat_warps_per_partition = 0;
    std::uint8_t unit_shift = 0;
  };

  /// What `preparation::tabulated` adds: apart, so that the direct form
  /// neither clears nor copies their 2.6 KB (clearing them cost more than
  /// an evaluation), and shared by copies.
  struct tables {
    /// The register constants of each register count per thread below
    /// `prepared_register_counts`.
    std::array<packed_register_constants, prepared_register_counts> register_constants_by_count{};
    /// Blocks the SM's warp slots hold (max warps per SM / warps per block)
    /// for each warps-per-block count below `prepared_block_warp_counts`; 0
    /// at 0, which no block has.
    std::array<std::int64_t, prepared_block_warp_counts> warp_slot_blocks_by_block_warps{};
  };

  /// The architecture.
  const nvidia_arch* arch = nullptr;
  /// log2 of the warp size, in threads.
  int warp_shift = 0;
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
  /// The register counts `tabulated->register_constants_by_count` answers
  /// for: all of them, or none (`preparation::direct`, or an architecture
  /// whose figures exceed the packed form).
  std::int64_t tabulated_register_counts = 0;
  /// The warps-per-block counts `tabulated->warp_slot_blocks_by_block_warps`
  /// answers for: all of them, or none (`preparation::direct`).
  std::int64_t tabulated_block_warp_counts = 0;
  /// The tables; none in the direct form.
  std::shared_ptr<const tables> tabulated;

  /// Derives the constants of `from` and, unless `how` is `direct`, the
  /// tables (allocated: may throw `std::bad_alloc`).
  explicit prepared_arch(const nvidia_arch& from, preparation how = preparation::tabulated)
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
    for (std::size_t cache = 0; cache < cache_preference_count; ++cache) {
      launch_config launch;
      launch.cache = static_cast<cache_preference>(cache);
      preferred_shared_memory_per_sm_by_cache_bytes[cache] = preferred_shared_memory_per_sm_bytes(from, launch);
    }
    if (how == preparation::tabulated) tabulate();
  }

  /// The register constants of `registers_per_thread` (>= 0): read from the
  /// table, or derived where it does not hold the count (`direct`, or a
  /// count no table allows, whose launch the register limit refuses).
  register_count_constants register_constants(std::int64_t registers_per_thread) const noexcept {
    if (registers_per_thread < tabulated_register_counts) {
      const packed_register_constants& c =
          tabulated->register_constants_by_count[static_cast<std::size_t>(registers_per_thread)];
      return {c.per_warp, c.warps_per_partition, c.compat_warps_per_partition, c.unit_shift};
    }
    return derive_register_constants(registers_per_thread);
  }

  /// Blocks of `block_warps` (> 0) warps the SM's warp slots hold: max warps
  /// per SM / `block_warps`.
  std::int64_t warp_slot_blocks(std::int64_t block_warps) const noexcept {
    return block_warps < tabulated_block_warp_counts
               ? tabulated->warp_slot_blocks_by_block_warps[static_cast<std::size_t>(block_warps)]
               : detail::divide_small(arch->max_warps_per_sm, block_warps);
  }

  /// log2 of the register allocation unit for `registers_per_thread` (>= 0).
  int register_unit_shift_for(std::int64_t registers_per_thread) const noexcept {
    return register_constants(registers_per_thread).unit_shift;
  }

 private:
  /// The register rules for one count whose allocation unit is
  /// 2^`unit_shift`: the registers of a warp and the warps a partition holds.
  constexpr register_count_constants register_constants_with_unit(std::int64_t registers_per_thread,
                                                                  int unit_shift) const noexcept {
    register_count_constants c;
    c.unit_shift = unit_shift;
    if (arch->register_scope == register_allocation_scope::warp) {
      c.per_warp = detail::round_up_to_power_of_two(registers_per_thread << warp_shift, unit_shift);
      c.warps_per_partition =
          detail::warps_per_register_partition(*arch, c.per_warp, unit_shift, register_partition_shift);
      if (arch->register_compat_partitions) {
        c.compat_warps_per_partition =
            detail::warps_per_register_partition(*arch, c.per_warp, unit_shift, register_compat_partition_shift);
      }
    }
    return c;
  }

  /// The same with the unit the rules give the count (the first override
  /// naming it, else the usual one). Out of line: inlined into an
  /// evaluation, its figures would be kept in memory on the table's path
  /// too.
  [[gnu::noinline]] register_count_constants derive_register_constants(
      std::int64_t registers_per_thread) const noexcept {
    return register_constants_with_unit(
        registers_per_thread, detail::log2_of_power_of_two(register_allocation_unit(*arch, registers_per_thread)));
  }

  /// Builds the tables.
  void tabulate() {
    auto built = std::make_shared<tables>();
    std::array<std::uint8_t, prepared_register_counts> unit_shifts{};
    unit_shifts.fill(static_cast<std::uint8_t>(register_unit_shift));
    // Backwards, so that the first override naming a count wins, as in
    // register_allocation_unit.
    for (auto o = arch->register_unit_overrides.rbegin(); o != arch->register_unit_overrides.rend(); ++o) {
      for (const std::int64_t count : o->registers_per_thread) {
        if (count < static_cast<std::int64_t>(prepared_register_counts)) {
          unit_shifts[static_cast<std::size_t>(count)] =
              static_cast<std::uint8_t>(detail::log2_of_power_of_two(o->unit_registers));
        }
      }
    }
    constexpr std::int64_t packed_max = 0xffff;
    bool fits = true;
    for (std::size_t count = 0; count < prepared_register_counts; ++count) {
      const register_count_constants c =
          register_constants_with_unit(static_cast<std::int64_t>(count), unit_shifts[count]);
      fits = fits && c.per_warp <= packed_max && c.warps_per_partition <= packed_max &&
             c.compat_warps_per_partition <= packed_max;
      built->register_constants_by_count[count] = {
          static_cast<std::uint16_t>(c.per_warp), static_cast<std::uint16_t>(c.warps_per_partition),
          static_cast<std::uint16_t>(c.compat_warps_per_partition), static_cast<std::uint8_t>(c.unit_shift)};
    }
    tabulated_register_counts = fits ? static_cast<std::int64_t>(prepared_register_counts) : 0;
    for (std::size_t warps = 1; warps < prepared_block_warp_counts; ++warps) {
      built->warp_slot_blocks_by_block_warps[warps] =
          detail::divide_small(arch->max_warps_per_sm, static_cast<std::int64_t>(warps));
    }
    tabulated_block_warp_counts = static_cast<std::int64_t>(prepared_block_warp_counts);
    tabulated = std::move(built);
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
