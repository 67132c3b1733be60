// The limits table: hand-checked levels, and every level's limits checked
// by recomputing occupancy at them and one past them.
#include "catch.hpp"

#include <random>

#include "occcalc/nvidia/limits.hpp"
#include "test_tables.hpp"

using occcalc::test::arch;

using occcalc::test::kernel;

TEST_CASE("limits: hand-checked levels of a 256-thread block on sm_90", "[limits]") {
  const auto levels = occcalc::nvidia_limits(arch("9.0"), kernel(256, 0));
  // 8 warps a block: 64 warps per SM hold 8 blocks.
  REQUIRE(levels.size() == 8);
  CHECK(levels.front().blocks_per_sm == 8);
  CHECK(levels.front().occupancy == 1.0);
  CHECK(levels.back().blocks_per_sm == 1);
  // 8 blocks: 16 warps per register-file partition of 16384 registers ->
  // 1024 per warp, 32 per thread. 4 blocks: 64. 1 block: 256, but ptxas
  // assigns at most 255.
  CHECK(levels[0].max_registers_per_thread == 32);
  CHECK(levels[4].max_registers_per_thread == 64);
  CHECK(levels[7].max_registers_per_thread == 255);
  // 8 blocks share the 228 KiB carveout: 29184 B each, less the 1 KiB the
  // driver reserves per block. One block: the 227 KiB opt-in maximum.
  CHECK(levels[0].max_dynamic_shared_memory_bytes == 28160);
  CHECK(levels[7].max_dynamic_shared_memory_bytes == 232448);
}

TEST_CASE("limits: the launch's other resources hold, and cut levels off", "[limits]") {
  // 64 registers allow 4 blocks of 256 on sm_90: no shared memory reaches
  // more.
  const auto levels = occcalc::nvidia_limits(arch("9.0"), kernel(256, 64));
  REQUIRE(levels.size() == 8);
  for (const auto& level : levels) {
    INFO(level.blocks_per_sm);
    CHECK(level.max_dynamic_shared_memory_bytes.has_value() == (level.blocks_per_sm <= 4));
    CHECK(level.max_registers_per_thread.has_value());
  }
}

TEST_CASE("limits: every level's most reaches it and one more does not", "[limits]") {
  std::mt19937 rng(43);
  for (const auto& a : occcalc::test::default_tables().architectures) {
    for (int i = 0; i < 20; ++i) {
      const auto threads = std::uniform_int_distribution<std::int64_t>(1, a.max_threads_per_block)(rng);
      const auto launch = kernel(threads, 0);
      for (const auto& level : occcalc::nvidia_limits(a, launch)) {
        INFO(a.id << " threads " << threads << " level " << level.blocks_per_sm);
        REQUIRE(level.max_registers_per_thread);
        auto at = launch;
        at.registers_per_thread = *level.max_registers_per_thread;
        CHECK(occcalc::compute_occupancy(a, at).blocks_per_sm >= level.blocks_per_sm);
        if (at.registers_per_thread < a.max_compiled_registers_per_thread) {
          ++at.registers_per_thread;
          CHECK(occcalc::compute_occupancy(a, at).blocks_per_sm < level.blocks_per_sm);
        }
        REQUIRE(level.max_dynamic_shared_memory_bytes);
        at = launch;
        at.dynamic_shared_memory_bytes = *level.max_dynamic_shared_memory_bytes;
        CHECK(occcalc::compute_occupancy(a, at).blocks_per_sm >= level.blocks_per_sm);
        if (at.dynamic_shared_memory_bytes < occcalc::max_dynamic_shared_memory_bytes(a, launch)) {
          ++at.dynamic_shared_memory_bytes;
          CHECK(occcalc::compute_occupancy(a, at).blocks_per_sm < level.blocks_per_sm);
        }
      }
    }
  }
}
