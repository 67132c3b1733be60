// The default tables, made once for the tests. Defined in test_tables.cpp.
#pragma once

#include <cstdint>
#include <string>

#include "occcalc/nvidia/launch.hpp"
#include "occcalc/tables/tables.hpp"

namespace occcalc::test {

/// The embedded tables, loaded on first use.
const occcalc::table& default_tables();

/// The architecture of a compute capability such as "7.0".
const occcalc::nvidia_arch& arch(const std::string& cc);

/// The AMD target with this id (`gfx90a`); throws for an unknown one.
const occcalc::amd_target& amd_target(const std::string& id);

/// A launch of `threads` per block using `regs` registers per thread and
/// `smem` static and `dyn_smem` dynamic shared memory bytes per block.
inline occcalc::launch_config kernel(std::int64_t threads, std::int64_t regs, std::int64_t smem = 0,
                                     std::int64_t dyn_smem = 0) {
  occcalc::launch_config launch;
  launch.threads_per_block = threads;
  launch.registers_per_thread = regs;
  launch.static_shared_memory_bytes = smem;
  launch.dynamic_shared_memory_bytes = dyn_smem;
  return launch;
}

}  // namespace occcalc::test
