/// \file nvidia/limits.hpp
/// The limits table (`occcalc limits`): for a block size, every count of
/// resident blocks per SM it can reach, with the most registers per thread
/// and the most dynamic shared memory per block that still reach it, the
/// rest of the launch as given.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "occcalc/common/math.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/nvidia/suggest.hpp"

namespace occcalc {

/// One occupancy level and what reaches it.
struct nvidia_limit_level {
  std::int64_t blocks_per_sm = 0;
  std::int64_t active_warps_per_sm = 0;
  /// Active warps over the SM's maximum, in [0, 1].
  double occupancy = 0.0;
  /// The most registers per thread (at most what a compiler assigns) with
  /// which `blocks_per_sm` blocks are resident; empty where no count is.
  std::optional<std::int64_t> max_registers_per_thread;
  /// The most dynamic shared memory per block, in bytes, with which they
  /// are (beside the launch's static shared memory); empty where none is.
  std::optional<std::int64_t> max_dynamic_shared_memory_bytes;
};

/// Every level `launch`'s block size reaches with no registers and no
/// dynamic shared memory, the highest first. A resource's column keeps the
/// rest of the launch: registers with its shared memory, shared memory with
/// its registers.
inline std::vector<nvidia_limit_level> nvidia_limits(const nvidia_arch& arch, const launch_config& launch) {
  launch_config bare = launch;
  bare.registers_per_thread = 0;
  bare.dynamic_shared_memory_bytes = 0;
  const occupancy_result top = compute_occupancy(arch, bare);
  // The most registers that keep `blocks` resident: the block count falls
  // as registers rise.
  const auto max_registers = [&](std::int64_t blocks) -> std::optional<std::int64_t> {
    launch_config at = launch;
    const auto reaches = [&](std::int64_t registers) {
      at.registers_per_thread = registers;
      return compute_occupancy(arch, at).blocks_per_sm >= blocks;
    };
    if (!reaches(0)) return std::nullopt;
    return detail::last_holding(arch.max_compiled_registers_per_thread, reaches);
  };
  std::vector<nvidia_limit_level> out;
  for (std::int64_t blocks = top.blocks_per_sm; blocks >= 1; --blocks) {
    nvidia_limit_level level;
    level.blocks_per_sm = blocks;
    level.active_warps_per_sm = blocks * top.warps_per_block;
    level.occupancy = static_cast<double>(level.active_warps_per_sm) /
                      static_cast<double>(std::max<std::int64_t>(top.max_warps_per_sm, 1));
    level.max_registers_per_thread = max_registers(blocks);
    level.max_dynamic_shared_memory_bytes = available_dynamic_shared_memory(arch, launch, blocks).resident_bytes;
    out.push_back(level);
  }
  return out;
}

}  // namespace occcalc
