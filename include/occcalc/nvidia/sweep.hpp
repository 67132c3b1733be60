/// \file nvidia/sweep.hpp
/// NVIDIA occupancy as one launch figure varies (the spreadsheet's and
/// Nsight Compute's "Impact of varying ..." charts).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "occcalc/common/sweep.hpp"
#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// The launch figure a sweep varies.
enum class sweep_variable { threads, registers, shared_memory, barriers };

/// A sweep variable's names: `--vary` and JSON spell `name`; charts label
/// their axis with `axis`, unit included.
struct sweep_variable_info {
  sweep_variable id;
  std::string_view name;
  std::string_view axis;
};

/// One row per variable, in `sweep_variable` order: parsing, messages and
/// charts read it.
inline constexpr std::array<sweep_variable_info, 4> sweep_variables = {{
    {sweep_variable::threads, "threads", "threads per block"},
    {sweep_variable::registers, "regs", "registers per thread"},
    {sweep_variable::shared_memory, "smem", "shared memory per block (bytes)"},
    {sweep_variable::barriers, "barriers", "barriers per block"},
}};

constexpr const sweep_variable_info& info(sweep_variable v) noexcept {
  return sweep_variables[static_cast<std::size_t>(v)];
}

constexpr std::string_view to_string(sweep_variable v) noexcept { return info(v).name; }

/// The range each figure is swept over by default: block sizes in warps up
/// to the maximum, every register count to the maximum, shared memory in
/// allocation units to the opt-in maximum, barriers 0 to the maximum.
inline sweep_range default_sweep_range(const nvidia_arch& arch, sweep_variable v) noexcept {
  switch (v) {
    case sweep_variable::threads: return {arch.warp_size_threads, arch.max_threads_per_block, arch.warp_size_threads};
    case sweep_variable::registers: return {1, arch.max_compiled_registers_per_thread, 1};
    case sweep_variable::shared_memory:
      return {0, arch.shared_memory_per_block_optin_bytes.value_or(arch.shared_memory_per_block_bytes),
              arch.shared_memory_allocation_unit_bytes};
    case sweep_variable::barriers: return {0, arch.max_barriers_per_block, 1};
  }
  return {};
}

/// `launch` with the swept figure set to `value`. Shared memory is the
/// total per block: the dynamic part varies, the static part stays unless
/// the total is below it.
inline launch_config with_value(launch_config launch, sweep_variable v, std::int64_t value) noexcept {
  switch (v) {
    case sweep_variable::threads: launch.threads_per_block = value; break;
    case sweep_variable::registers: launch.registers_per_thread = value; break;
    case sweep_variable::shared_memory:
      launch.static_shared_memory_bytes = std::min(launch.static_shared_memory_bytes, value);
      launch.dynamic_shared_memory_bytes = value - launch.static_shared_memory_bytes;
      break;
    case sweep_variable::barriers: launch.barriers = value; break;
  }
  return launch;
}

/// The swept figure's value in `launch`.
constexpr std::int64_t value_of(const launch_config& launch, sweep_variable v) noexcept {
  switch (v) {
    case sweep_variable::threads: return launch.threads_per_block;
    case sweep_variable::registers: return launch.registers_per_thread;
    case sweep_variable::shared_memory: return launch.requested_shared_memory_bytes();
    case sweep_variable::barriers: return launch.barriers;
  }
  return 0;
}

/// One point of a sweep.
struct sweep_point {
  std::int64_t value = 0;
  occupancy_result result;
};

/// Occupancy at every value of `range`.
inline std::vector<sweep_point> sweep(const nvidia_arch& arch, const launch_config& launch, sweep_variable v,
                                      const sweep_range& range) {
  std::vector<sweep_point> points;
  for (std::int64_t value = range.first; value <= range.last; value += range.step) {
    points.push_back({value, compute_occupancy(arch, with_value(launch, v, value))});
  }
  return points;
}

}  // namespace occcalc
