/// \file nvidia/suggest.hpp
/// Launch-configuration suggestions: the block size with the most resident
/// threads (as `cudaOccMaxPotentialOccupancyBlockSize` chooses it), the
/// dynamic shared memory N resident blocks leave (as
/// `cudaOccAvailableDynamicSMemPerBlock` computes it, and checked), the
/// register cap ptxas derives from `__launch_bounds__`, and the next step
/// for each limiting resource. Pure functions over the core calculator.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// Dynamic shared memory as a function of the block size: a constant plus
/// an amount per thread, in bytes.
struct dynamic_shared_memory_rule {
  std::int64_t bytes = 0;
  std::int64_t bytes_per_thread = 0;

  constexpr std::int64_t at(std::int64_t threads) const noexcept { return bytes + bytes_per_thread * threads; }
};

/// The block size with the most resident threads per SM.
struct block_size_choice {
  /// 0 when no block size can run.
  std::int64_t block_size = 0;
  /// Resident blocks per SM at `block_size`.
  std::int64_t blocks_per_sm = 0;
  /// The calculator's result at `block_size` (with its dynamic shared memory).
  occupancy_result result;
  /// The launch at `block_size`.
  launch_config launch;
};

/// `cudaOccMaxPotentialOccupancyBlockSize`'s choice: block sizes from the
/// limit (the architecture's maximum, or `max_threads` if smaller and > 0)
/// down in warp-size steps, the first limit itself when it is not a multiple
/// of the warp size; the one with the most resident threads wins, the larger
/// block on a tie; the search stops once an SM is full. `dynamic.at(threads)`
/// is the dynamic shared memory at a block size: a `dynamic_shared_memory_rule`,
/// or any function of the block size (`cudaOccMaxPotentialOccupancyBlockSizeVariableSMem`'s
/// `blockSizeToDynamicSMemSize`).
namespace detail {

/// The largest block size the search weighs: the architecture's, or
/// `max_threads` where that is smaller and > 0.
inline std::int64_t block_size_limit(const nvidia_arch& arch, std::int64_t max_threads) noexcept {
  return max_threads > 0 ? std::min(arch.max_threads_per_block, max_threads) : arch.max_threads_per_block;
}

}  // namespace detail

template <typename Dynamic = dynamic_shared_memory_rule>
block_size_choice max_potential_block_size(const nvidia_arch& arch, launch_config launch, const Dynamic& dynamic,
                                           std::int64_t max_threads = 0) {
  const std::int64_t warp = arch.warp_size_threads;
  const std::int64_t limit = detail::block_size_limit(arch, max_threads);
  block_size_choice best;
  std::int64_t best_threads = 0;
  for (std::int64_t aligned = detail::round_up(limit, warp); aligned > 0; aligned -= warp) {
    launch.threads_per_block = std::min(limit, aligned);
    launch.dynamic_shared_memory_bytes = dynamic.at(launch.threads_per_block);
    const occupancy_result result = compute_occupancy(arch, launch);
    const std::int64_t threads = launch.threads_per_block * result.blocks_per_sm;
    if (threads > best_threads) {
      best = {launch.threads_per_block, result.blocks_per_sm, result, launch};
      best_threads = threads;
    }
    if (best_threads == arch.max_threads_per_sm()) break;
  }
  return best;
}

/// Every block size `max_potential_block_size` weighs (with the same limit
/// and dynamic shared memory) that holds as many resident threads per SM as
/// `best`, its choice, smallest first: the ties CUDA breaks by taking the
/// largest. Empty when no block size can run.
template <typename Dynamic = dynamic_shared_memory_rule>
std::vector<std::int64_t> tied_block_sizes(const nvidia_arch& arch, launch_config launch, const Dynamic& dynamic,
                                           std::int64_t max_threads, const block_size_choice& best) {
  const std::int64_t best_threads = best.block_size * best.blocks_per_sm;
  std::vector<std::int64_t> ties;
  if (best_threads == 0) return ties;
  const std::int64_t warp = arch.warp_size_threads;
  const std::int64_t limit = detail::block_size_limit(arch, max_threads);
  for (std::int64_t aligned = warp; aligned <= detail::round_up(limit, warp); aligned += warp) {
    launch.threads_per_block = std::min(limit, aligned);
    launch.dynamic_shared_memory_bytes = dynamic.at(launch.threads_per_block);
    if (launch.threads_per_block * compute_occupancy(arch, launch).blocks_per_sm == best_threads) {
      ties.push_back(launch.threads_per_block);
    }
  }
  return ties;
}

/// Among `ties` (smallest first), the one to recommend: the smallest that
/// gives each register-file partition (each warp scheduler) of the SM a
/// warp, else the largest. Small blocks leave the most blocks for a grid's
/// last wave; a block under one warp per scheduler leaves schedulers idle
/// whenever the SM holds fewer blocks. 0 when there is no tie to choose from.
inline std::int64_t recommended_block_size(const nvidia_arch& arch, const std::vector<std::int64_t>& ties) noexcept {
  const std::int64_t per_scheduler = arch.register_file_partitions * arch.warp_size_threads;
  for (const std::int64_t size : ties) {
    if (size >= per_scheduler) return size;
  }
  return ties.empty() ? 0 : ties.back();
}

/// The most dynamic shared memory per block with `blocks` blocks resident.
struct dynamic_shared_memory_answer {
  /// What `cudaOccAvailableDynamicSMemPerBlock` answers, for a kernel opted
  /// in to the most dynamic shared memory it may use; empty where it refuses
  /// (fewer than `blocks` blocks are resident even without dynamic shared
  /// memory). Its formula does not count the bytes reserved per block, so
  /// from 8.0 the answer can leave fewer blocks resident: see `resident`.
  std::optional<std::int64_t> cuda_bytes;
  /// The most dynamic shared memory with which the calculator keeps
  /// `blocks` blocks resident; empty where none does.
  std::optional<std::int64_t> resident_bytes;
};

/// Dynamic shared memory one block may use: the opt-in maximum where there
/// is one, less the static shared memory.
inline std::int64_t max_dynamic_shared_memory_bytes(const nvidia_arch& arch, const launch_config& launch) noexcept {
  return arch.shared_memory_per_block_optin_bytes.value_or(arch.shared_memory_per_block_bytes) -
         launch.static_shared_memory_bytes;
}

/// The answers for `blocks` blocks of `launch` (its dynamic shared memory is
/// ignored).
inline dynamic_shared_memory_answer available_dynamic_shared_memory(const nvidia_arch& arch, launch_config launch,
                                                                    std::int64_t blocks) {
  dynamic_shared_memory_answer answer;
  launch.dynamic_shared_memory_bytes = 0;
  if (blocks < 1 || compute_occupancy(arch, launch).blocks_per_sm < blocks) return answer;

  // cudaOccAvailableDynamicSMemPerBlock: the per-block limit (opt-in when
  // the SM has more than the default, plus the reserve); one block may use
  // all of it, several share the preferred configuration (the smallest
  // non-empty one when the preference is none at all), rounded down to the
  // allocation unit; less the static shared memory, capped at what the
  // kernel may ask for. Below 0 the header's unsigned arithmetic wraps, and
  // the cap then answers.
  const std::int64_t unit = arch.shared_memory_allocation_unit_bytes;
  const bool opts_in =
      arch.shared_memory_per_block_optin_bytes && arch.shared_memory_per_sm_bytes > arch.shared_memory_per_block_bytes;
  const std::int64_t per_block_limit =
      (opts_in ? *arch.shared_memory_per_block_optin_bytes : arch.shared_memory_per_block_bytes) +
      arch.shared_memory_reserved_per_block_bytes;
  std::int64_t pool = per_block_limit;
  if (blocks > 1) {
    pool = preferred_shared_memory_per_sm_bytes(arch, launch);
    if (pool == 0) pool = detail::carveout_at_least(arch, 1).value_or(0);
  }
  std::int64_t bytes = std::min(pool / blocks / unit * unit, per_block_limit) - launch.static_shared_memory_bytes;
  const std::int64_t cap = max_dynamic_shared_memory_bytes(arch, launch);
  answer.cuda_bytes = bytes < 0 ? cap : std::min(bytes, cap);

  // The calculator's own answer: per-block allocations from the largest
  // down, each giving the most dynamic bytes that round to it.
  for (std::int64_t allocation = detail::round_up(per_block_limit, unit); allocation >= 0; allocation -= unit) {
    launch.dynamic_shared_memory_bytes =
        std::min(cap, allocation - arch.shared_memory_reserved_per_block_bytes - launch.static_shared_memory_bytes);
    if (launch.dynamic_shared_memory_bytes < 0) break;
    if (compute_occupancy(arch, launch).blocks_per_sm >= blocks) {
      answer.resident_bytes = launch.dynamic_shared_memory_bytes;
      break;
    }
  }
  return answer;
}

/// The register cap ptxas derives from `__launch_bounds__(threads, blocks)`:
/// the registers per thread that let `blocks` blocks' warps share each
/// register-file partition, rounded down to the allocation granularity,
/// at most the architecture's maximum. ptxas ignores `blocks` when
/// `threads x blocks` exceeds the threads an SM holds. Warp-scope register
/// allocation only (2.0 and later); matches ptxas 13.0 on 715 cases
/// (tests/fixtures/inspect/launch_bounds.cu).
inline std::int64_t launch_bounds_register_cap(const nvidia_arch& arch, std::int64_t threads,
                                               std::int64_t blocks) noexcept {
  const std::int64_t warp = arch.warp_size_threads;
  // No block fits (a step that cannot be reached): the cap that lets one.
  if (blocks < 1 || threads * blocks > arch.max_threads_per_sm()) blocks = 1;
  const std::int64_t partitions = std::max<std::int64_t>(1, arch.register_file_partitions);
  const std::int64_t warps_per_partition =
      detail::divide_round_up(detail::divide_round_up(threads, warp) * blocks, partitions);
  const std::int64_t per_thread = arch.registers_per_sm / partitions / warps_per_partition / warp;
  const std::int64_t granularity = std::max<std::int64_t>(1, arch.register_allocation_unit / warp);
  return std::min(arch.max_compiled_registers_per_thread, per_thread / granularity * granularity);
}

/// What to change in one limiting resource to gain a block, or to reach a
/// target occupancy.
struct next_step {
  resource limiter = resource::warps;
  /// The value now and the value that gets there: registers per thread,
  /// shared memory per block in bytes (static + dynamic), threads per block,
  /// or barriers. Equal when the resource alone cannot get there.
  std::int64_t current = 0;
  std::int64_t needed = 0;
  /// Whether changing this resource alone gets there.
  bool reachable = false;
  /// The result at `needed`, everything else unchanged.
  occupancy_result result;
};

namespace detail {

/// Whether `result` is where a step should get: `target_warps` resident
/// warps if set, else one more block than `now` and more resident warps (a
/// smaller block may fit one more block and hold fewer warps in all).
inline bool arrives(const occupancy_result& result, const occupancy_result& now,
                    std::optional<std::int64_t> target_warps) {
  if (target_warps) return result.active_warps_per_sm >= *target_warps;
  return result.blocks_per_sm > now.blocks_per_sm && result.active_warps_per_sm > now.active_warps_per_sm;
}

}  // namespace detail

/// For each resource that limits `launch`, the nearest value that gains one
/// more resident block and raises the occupancy, or, with `target_occupancy`
/// (0-1], reaches it. Fewer registers, less shared memory, smaller blocks or
/// fewer barriers; for the blocks-per-SM limit, larger blocks. The steps
/// that get there come first, the highest occupancy first (in resource order
/// among equals); those no value of the resource alone gets to follow. At
/// full occupancy without a target there is nothing to gain: no step.
inline std::vector<next_step> next_steps(const nvidia_arch& arch, const launch_config& launch,
                                         std::optional<double> target_occupancy = std::nullopt) {
  const occupancy_result now = compute_occupancy(arch, launch);
  if (!target_occupancy && now.active_warps_per_sm >= arch.max_warps_per_sm) return {};
  std::optional<std::int64_t> target_warps;
  if (target_occupancy) {
    target_warps = static_cast<std::int64_t>(*target_occupancy * static_cast<double>(arch.max_warps_per_sm) + 1e-9);
    if (static_cast<double>(*target_warps) < *target_occupancy * static_cast<double>(arch.max_warps_per_sm) - 1e-9) {
      ++*target_warps;
    }
  }
  std::vector<next_step> steps;
  const auto search = [&](resource r, std::int64_t current, auto values, auto apply) {
    next_step step{r, current, current, false, now};
    for (const std::int64_t value : values) {
      launch_config changed = launch;
      apply(changed, value);
      const occupancy_result result = compute_occupancy(arch, changed);
      if (detail::arrives(result, now, target_warps)) {
        step = {r, current, value, true, result};
        break;
      }
    }
    steps.push_back(step);
  };
  const auto descending = [](std::int64_t from, std::int64_t to, std::int64_t step) {
    std::vector<std::int64_t> values;
    for (std::int64_t v = from; v >= to; v -= step) values.push_back(v);
    return values;
  };
  const std::int64_t warp = arch.warp_size_threads;
  for (const resource r : nvidia_resources) {
    if (!now.limiters.contains(r)) continue;
    switch (r) {
      case resource::registers:
        search(r, launch.registers_per_thread, descending(launch.registers_per_thread - 1, 0, 1),
               [](launch_config& l, std::int64_t v) { l.registers_per_thread = v; });
        break;
      case resource::shared_memory: {
        // Whole allocation units, taking dynamic shared memory first.
        const std::int64_t unit = arch.shared_memory_allocation_unit_bytes;
        const std::int64_t requested = launch.requested_shared_memory_bytes();
        search(r, requested, descending(detail::round_up(requested, unit) - unit, 0, unit),
               [&](launch_config& l, std::int64_t v) {
                 l.dynamic_shared_memory_bytes = std::max<std::int64_t>(0, v - l.static_shared_memory_bytes);
                 l.static_shared_memory_bytes = std::min(l.static_shared_memory_bytes, v);
               });
        break;
      }
      case resource::warps:
        search(r, launch.threads_per_block, descending((launch.threads_per_block - 1) / warp * warp, warp, warp),
               [](launch_config& l, std::int64_t v) { l.threads_per_block = v; });
        break;
      case resource::blocks: {
        // Blocks per SM are capped: only larger blocks hold more warps.
        std::vector<std::int64_t> larger;
        for (std::int64_t v = detail::round_up(launch.threads_per_block + 1, warp); v <= arch.max_threads_per_block;
             v += warp) {
          larger.push_back(v);
        }
        next_step step{r, launch.threads_per_block, launch.threads_per_block, false, now};
        for (const std::int64_t v : larger) {
          launch_config changed = launch;
          changed.threads_per_block = v;
          const occupancy_result result = compute_occupancy(arch, changed);
          const bool more = target_warps ? result.active_warps_per_sm >= *target_warps
                                         : result.active_warps_per_sm > now.active_warps_per_sm;
          if (more) {
            step = {r, launch.threads_per_block, v, true, result};
            break;
          }
        }
        steps.push_back(step);
        break;
      }
      case resource::barriers:
        search(r, launch.barriers, descending(launch.barriers - 1, 0, 1),
               [](launch_config& l, std::int64_t v) { l.barriers = v; });
        break;
    }
  }
  std::stable_sort(steps.begin(), steps.end(), [](const next_step& a, const next_step& b) {
    if (a.reachable != b.reachable) return a.reachable;
    return a.reachable && a.result.active_warps_per_sm > b.result.active_warps_per_sm;
  });
  return steps;
}

}  // namespace occcalc
