/// \file nvidia/explain.hpp
/// One-sentence explanations of why a resource admits no block, shared by the
/// text and JSON renderers.
#pragma once

#include <string>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace occcalc {

/// Why `launch` cannot run on `arch` because of the resource whose limit has
/// `reason`; empty for `infeasibility::none`.
inline std::string explain(infeasibility reason, const nvidia_arch& arch, const launch_config& launch,
                           const occupancy_result& result) {
  using std::to_string;
  const std::string reserved =
      arch.shared_memory_reserved_per_block_bytes > 0
          ? " (with the " + to_string(arch.shared_memory_reserved_per_block_bytes) + " bytes the driver reserves)"
          : "";
  switch (reason) {
    case infeasibility::none: return {};
    case infeasibility::block_too_large:
      return "a block of " + to_string(launch.threads_per_block) + " threads exceeds the " +
             to_string(arch.max_threads_per_block) + "-thread maximum of " + arch.id;
    case infeasibility::registers_per_thread:
      return to_string(launch.registers_per_thread) + " registers per thread exceed the maximum of " +
             to_string(arch.max_registers_per_thread) + " on " + arch.id;
    case infeasibility::registers_per_block:
      return "a block's " + to_string(result.registers.per_block) + " registers exceed the " +
             to_string(arch.max_registers_per_block) + "-register per-block maximum of " + arch.id;
    case infeasibility::registers_per_block_partitioned:
      return "a block's " + to_string(result.warps_per_block) + " warps, rounded up to a multiple of " +
             to_string(arch.register_file_partitions) + " register-file partitions, need more than the " +
             to_string(arch.max_registers_per_block) + "-register per-block maximum of " + arch.id;
    case infeasibility::registers_compat:
      return "the block's registers would not fit on a " + to_string(arch.register_compat_partitions.value_or(0)) +
             "-partition sibling of " + arch.id + ", so it is not run here either";
    case infeasibility::registers_per_sm:
      return "a block needs more than the " + to_string(arch.registers_per_sm) + " registers of an SM";
    case infeasibility::shared_memory_per_block:
      return "a block's " + to_string(result.shared_memory.per_block_bytes) + " bytes of shared memory" + reserved +
             " exceed the " + to_string(shared_memory_per_block_limit_bytes(arch, launch)) +
             "-byte per-block maximum of " + arch.id;
    case infeasibility::shared_memory_per_sm:
      return "no shared memory configuration of " + arch.id + " holds a block's " +
             to_string(result.shared_memory.per_block_bytes) + " bytes";
  }
  return {};
}

}  // namespace occcalc
