/// \file nvidia/suggest.hpp
/// Launch-configuration suggestions: the block size with the most resident
/// threads (as `cudaOccMaxPotentialOccupancyBlockSize` chooses it), the
/// dynamic shared memory N resident blocks leave (as
/// `cudaOccAvailableDynamicSMemPerBlock` computes it, and checked), the
/// register cap ptxas derives from `__launch_bounds__`, and the next step
/// for each limiting resource. Pure functions over the core calculator.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "occcalc/common/change_search.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/nvidia/sweep.hpp"

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

/// What a kernel's author changes in a launch, as knobs (`knob::id`).
enum class launch_knob : std::size_t { registers, shared_memory, block_size, barriers };

/// The knob's name as used in JSON keys.
constexpr std::string_view to_string(launch_knob k) noexcept {
  constexpr std::array<std::string_view, 4> names = {"registers", "shared_memory", "block_size", "barriers"};
  return names[static_cast<std::size_t>(k)];
}

/// Sets a knob of `launch` as a sweep sets its figure: shared memory is the
/// total per block, taken off the dynamic part first.
inline void apply_launch_knob(launch_config& launch, std::size_t id, std::int64_t value) noexcept {
  constexpr std::array<sweep_variable, 4> variables = {sweep_variable::registers, sweep_variable::shared_memory,
                                                       sweep_variable::threads, sweep_variable::barriers};
  launch = with_value(launch, variables[id], value);
}

/// A launch knob and the values a search tries: fewer registers, barriers
/// or whole shared memory allocation units, down to none; block sizes in
/// whole warps up to the architecture's maximum, nearest first (smaller or
/// larger only, where `way` says).
inline knob launch_knob_of(const nvidia_arch& arch, const launch_config& launch, launch_knob which,
                           direction way = direction::both) {
  const std::int64_t warp = arch.warp_size_threads;
  knob k;
  k.id = static_cast<std::size_t>(which);
  switch (which) {
    case launch_knob::registers: k.current = launch.registers_per_thread; break;
    case launch_knob::barriers: k.current = launch.barriers; break;
    case launch_knob::shared_memory:
      k.current = launch.requested_shared_memory_bytes();
      k.step = arch.shared_memory_allocation_unit_bytes;
      k.first = detail::round_up(k.current, k.step) - k.step;
      return k;
    case launch_knob::block_size:
      k.current = launch.threads_per_block;
      k.values = values_nearest_first(k.current, warp, arch.max_threads_per_block, way);
      return k;
  }
  k.first = k.current - 1;
  return k;
}

namespace detail {

/// The fewest resident warps that make `occupancy` (0-1] of the SM's.
inline std::int64_t warps_for(const nvidia_arch& arch, double occupancy) noexcept {
  const double warps = occupancy * static_cast<double>(arch.max_warps_per_sm);
  auto whole = static_cast<std::int64_t>(warps + 1e-9);
  if (static_cast<double>(whole) < warps - 1e-9) ++whole;
  return whole;
}

/// Whether a launch gets where a step should: `target_occupancy` if set,
/// else more resident warps than `now` (with fewer registers, bytes or
/// barriers, or a smaller block, that is one more block too).
inline auto reaches_goal(const nvidia_arch& arch, const occupancy_result& now, std::optional<double> target_occupancy) {
  const std::int64_t goal = target_occupancy ? warps_for(arch, *target_occupancy) : now.active_warps_per_sm + 1;
  return [&arch, goal](const launch_config& l) { return compute_occupancy(arch, l).active_warps_per_sm >= goal; };
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
  const auto reaches = detail::reaches_goal(arch, now, target_occupancy);
  std::vector<next_step> steps;
  for (const resource r : nvidia_resources) {
    if (!now.limiters.contains(r)) continue;
    knob k;
    switch (r) {
      case resource::registers: k = launch_knob_of(arch, launch, launch_knob::registers); break;
      case resource::shared_memory: k = launch_knob_of(arch, launch, launch_knob::shared_memory); break;
      case resource::barriers: k = launch_knob_of(arch, launch, launch_knob::barriers); break;
      case resource::warps:
      case resource::blocks:
        // The warps an SM holds: smaller blocks; the blocks it holds (a
        // cap): larger ones.
        k = launch_knob_of(arch, launch, launch_knob::block_size,
                           r == resource::blocks ? direction::up : direction::down);
        break;
    }
    next_step step{r, k.current, k.current, false, now};
    if (const auto to = nearest_reaching(k, launch, apply_launch_knob, reaches)) {
      launch_config changed = launch;
      apply_launch_knob(changed, k.id, *to);
      step = {r, k.current, *to, true, compute_occupancy(arch, changed)};
    }
    steps.push_back(step);
  }
  std::stable_sort(steps.begin(), steps.end(), [](const next_step& a, const next_step& b) {
    if (a.reachable != b.reachable) return a.reachable;
    return a.reachable && a.result.active_warps_per_sm > b.result.active_warps_per_sm;
  });
  return steps;
}

/// One or two changes together, and the result they give.
struct launch_changes {
  knob_changes changes;
  occupancy_result result;
};

/// Where no next step gets there alone: the cheapest changes of the
/// registers, the shared memory and the block size, one alone or two
/// together (`cheapest_changes`), that gain a block and raise the occupancy
/// or reach `target_occupancy`; the cheapest first, empty where no such
/// change does. Each costs the sum of its relative changes.
inline std::vector<launch_changes> changes_together(const nvidia_arch& arch, const launch_config& launch,
                                                    std::optional<double> target_occupancy = std::nullopt) {
  const occupancy_result now = compute_occupancy(arch, launch);
  if (!target_occupancy && now.active_warps_per_sm >= arch.max_warps_per_sm) return {};
  std::vector<knob> knobs;
  for (const auto which : {launch_knob::registers, launch_knob::shared_memory, launch_knob::block_size}) {
    knobs.push_back(launch_knob_of(arch, launch, which));
  }
  std::vector<launch_changes> out;
  for (auto& found :
       cheapest_changes(knobs, launch, apply_launch_knob, detail::reaches_goal(arch, now, target_occupancy))) {
    launch_config changed = launch;
    for (const auto& c : found.changes) apply_launch_knob(changed, c.id, c.to);
    out.push_back({std::move(found), compute_occupancy(arch, changed)});
  }
  return out;
}

}  // namespace occcalc
