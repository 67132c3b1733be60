// The calculator against published worked examples and hand-checked rules.
#include "catch.hpp"

#include <optional>
#include <string>
#include <tuple>

#include "occcalc/nvidia/occupancy.hpp"
#include "test_tables.hpp"

using occcalc::cache_preference;
using occcalc::infeasibility;
using occcalc::launch_config;
using occcalc::resource;
using occcalc::test::arch;
using occcalc::test::kernel;

namespace {

occcalc::occupancy_result compute(const std::string& cc, const launch_config& launch) {
  return occcalc::compute_occupancy(arch(cc), launch);
}

std::optional<std::int64_t> limit(const occcalc::occupancy_result& r, resource which) { return r.limit(which).blocks; }

}  // namespace

TEST_CASE("published worked examples", "[examples]") {
  // cc, threads, regs, static smem, blocks per SM, active warps, limiter
  using row = std::tuple<std::string, int, int, int, int, int, resource>;
  const auto [cc, threads, regs, smem, blocks, warps, limiter] =
      GENERATE(table<std::string, int, int, int, int, int, resource>({
          // CUDA C++ Best Practices Guide 11.1.1 (and the seed blog): 7.0, 128 threads, 37 registers -> 75%.
          row{"7.0", 128, 37, 0, 12, 48, resource::registers},
          // Same guide: 320 threads, 37 registers -> 4 blocks, 62.5% ("63%").
          row{"7.0", 320, 37, 0, 4, 40, resource::registers},
          // CUB MaxSmOccupancy docs: 64 threads, 4 KiB static smem: SM10 -> 4 blocks (shared memory).
          row{"1.0", 64, 0, 4096, 4, 8, resource::shared_memory},
          // Same: SM20 -> 8 blocks (the 8-block maximum).
          row{"2.0", 64, 0, 4096, 8, 16, resource::blocks},
          // Same: SM35 -> 12 blocks (shared memory).
          row{"3.5", 64, 0, 4096, 12, 24, resource::shared_memory},
          // Course notes, GTX 970 (5.2): 128 threads, 48 registers, 4 KiB -> 40 warps, 62.5%.
          row{"5.2", 128, 48, 4096, 10, 40, resource::registers},
          // Nsight Compute on an A800 (8.0): 512 threads, 46 registers -> registers 2, 50%.
          row{"8.0", 512, 46, 0, 2, 32, resource::registers},
          // PMPP G80 example (1.0): 256 threads, 10 registers -> 3 blocks (768 threads, full).
          row{"1.0", 256, 10, 0, 3, 24, resource::registers},
          // Same, 11 registers -> 2 blocks.
          row{"1.0", 256, 11, 0, 2, 16, resource::registers},
          // Seed occupancy-calculation-zh, example 1 (4-warp granularity): 256 threads, 47 registers -> 40 warps.
          row{"7.0", 256, 47, 0, 5, 40, resource::registers},
          // Same, example 2: 128 threads, 133 registers -> 12 warps.
          row{"7.0", 128, 133, 0, 3, 12, resource::registers},
          // Notes citing the guide, T4 (7.5): 256 threads, 32 registers -> 4 blocks, 32 warps = 100%.
          row{"7.5", 256, 32, 0, 4, 32, resource::warps},
      }));
  CAPTURE(cc, threads, regs, smem);
  const auto result = compute(cc, kernel(threads, regs, smem));
  CHECK(result.blocks_per_sm == blocks);
  CHECK(result.active_warps_per_sm == warps);
  CHECK(result.limiters.contains(limiter));
}

TEST_CASE("Best Practices Guide example in full: 7.0, 128 threads, 37 registers", "[examples]") {
  const auto r = compute("7.0", kernel(128, 37));
  CHECK(r.registers.per_warp == 1280);
  CHECK(r.registers.per_block == 5120);
  CHECK(limit(r, resource::warps) == 16);
  CHECK(limit(r, resource::registers) == 12);
  CHECK(limit(r, resource::shared_memory) == std::nullopt);
  CHECK(limit(r, resource::blocks) == 32);
  CHECK(limit(r, resource::barriers) == std::nullopt);
  CHECK(r.active_threads_per_sm == 1536);
  CHECK(r.occupancy() == Approx(0.75));
  // The derivation the text prints: 37 x 32 = 1184 rounded up to 256 = 1280
  // per warp; 65536 / 4 partitions / 1280 = 12 warps per partition.
  CHECK(r.registers.allocation_unit == 256);
  CHECK(r.registers.warps_allocated == 4);
  CHECK(r.registers.warps_per_partition == 12);
}

TEST_CASE("block-scope registers record the warps they count: 1.3, 96 threads, 10 registers", "[registers]") {
  // 3 warps rounded up to a multiple of 2 = 4; 10 x 32 x 4 = 1280 rounded up
  // to 512 = 1536 per block; 16384 / 1536 = 10 blocks.
  const auto r = compute("1.3", kernel(96, 10));
  CHECK(r.registers.warps_allocated == 4);
  CHECK(r.registers.allocation_unit == 512);
  CHECK(r.registers.per_block == 1536);
  CHECK(r.registers.warps_per_partition == 0);
  CHECK(limit(r, resource::registers) == 10);
}

TEST_CASE("Nsight Compute on an RTX 4060 (8.9), 1024 threads: warps 1, blocks 24, 66.7%", "[examples]") {
  // Blog notes quoting NCU: Block Limit Warps 1, Block Limit SM 24, Theoretical 66.7%.
  const auto r = compute("8.9", kernel(1024, 32));
  CHECK(limit(r, resource::warps) == 1);
  CHECK(limit(r, resource::blocks) == 24);
  CHECK(r.occupancy() == Approx(32.0 / 48.0));
}

TEST_CASE("G80 (1.0): 5 KiB of shared memory per block -> 3 blocks", "[examples][shared_memory]") {
  // PMPP example as summarised in course notes: 16 KiB / 5 KiB = 3.
  const auto r = compute("1.0", kernel(64, 0, 5 * 1024));
  CHECK(limit(r, resource::shared_memory) == 3);
}

TEST_CASE("seed zh: 1000 bytes of shared memory round up to 1024; 64 KiB holds 64 blocks", "[shared_memory]") {
  const auto r = compute("6.0", kernel(32, 0, 1000));
  CHECK(r.shared_memory.per_block_bytes == 1024);
  CHECK(limit(r, resource::shared_memory) == 64);
}

TEST_CASE("Fermi (2.0), 48 KiB config: 64 threads, 32 registers, 2 KiB -> 8 blocks, 33.3%", "[examples]") {
  // occucal README (output cut off in the public copy); hand-checked.
  const auto r = compute("2.0", kernel(64, 32, 2048));
  CHECK(limit(r, resource::registers) == 16);
  CHECK(limit(r, resource::shared_memory) == 24);
  CHECK(limit(r, resource::warps) == 24);
  CHECK(limit(r, resource::blocks) == 8);
  CHECK(r.occupancy() == Approx(16.0 / 48.0));
}

TEST_CASE("warps: a partial warp occupies a whole one", "[warps]") {
  // Seed zh: "100 threads are still 4 warps".
  CHECK(occcalc::warps_per_block(arch("7.0"), 100) == 4);
  CHECK(limit(compute("7.0", kernel(100, 0)), resource::warps) == 16);
}

TEST_CASE("warps: a block above the architecture's maximum gets 0 blocks, with the reason", "[warps]") {
  const auto r = compute("1.3", kernel(513, 0));
  CHECK(r.blocks_per_sm == 0);
  CHECK(r.limit(resource::warps).reason == infeasibility::block_too_large);
  CHECK(compute("8.6", kernel(1025, 0)).blocks_per_sm == 0);
}

TEST_CASE("registers: per-warp allocation rounds up to 256", "[registers]") {
  CHECK(compute("7.0", kernel(32, 37)).registers.per_warp == 1280);  // 1184 -> 1280
  CHECK(compute("7.0", kernel(32, 40)).registers.per_warp == 1280);  // exact multiple stays
  CHECK(compute("7.0", kernel(32, 41)).registers.per_warp == 1536);
}

TEST_CASE("registers: warps per partition round down before multiplying by partitions", "[registers]") {
  // 65536 / 4 = 16384 per partition; / 1280 = 12.8 -> 12; x 4 = 48 warps (not 51).
  CHECK(limit(compute("7.0", kernel(32, 37)), resource::registers) == 48);
  // GP100 has 2 partitions: 32768 / 1280 = 25 -> 50 warps.
  CHECK(limit(compute("6.0", kernel(32, 37)), resource::registers) == 50);
}

TEST_CASE("registers: the block's warps are rounded up to the partitions for the per-block check", "[registers]") {
  // 25 warps of 2560 registers = 64000 fit in 65536, but 28 x 2560 = 71680 do not.
  const auto r = compute("7.0", kernel(800, 80));
  CHECK(r.registers.per_block == 64000);
  CHECK(limit(r, resource::registers) == 0);
  CHECK(r.limit(resource::registers).reason == infeasibility::registers_per_block_partitioned);
}

TEST_CASE("registers: above the per-thread maximum nothing runs", "[registers]") {
  CHECK(compute("3.0", kernel(32, 64)).limit(resource::registers).reason == infeasibility::registers_per_thread);
  CHECK(compute("3.0", kernel(32, 63)).blocks_per_sm > 0);
  // cuda_occupancy.h 13.0 takes 256 from 7.0 (ptxas assigns at most 255):
  // 16384 registers per partition / (256 x 32 per warp) = 2 warps each, 8
  // one-warp blocks.
  CHECK(compute("7.0", kernel(32, 256)).blocks_per_sm == 8);
  CHECK(compute("7.0", kernel(32, 257)).limit(resource::registers).reason == infeasibility::registers_per_thread);
}

TEST_CASE("registers: a block over the per-block maximum gets 0 blocks, with the reason", "[registers]") {
  // 7.0: 65 registers -> 2080 per warp, 2304 allocated; x 32 warps = 73728 > 65536. The check with the
  // warps rounded up to the partitions fails too, but the per-block maximum comes first.
  const auto r = compute("7.0", kernel(1024, 65));
  CHECK(r.registers.per_block == 73728);
  CHECK(limit(r, resource::registers) == 0);
  CHECK(r.limit(resource::registers).reason == infeasibility::registers_per_block);
  // An SM with registers for a block that its per-block maximum refuses: 1.0 with a register file of
  // twice the per-block 8192. 8 warps x 32 x 33 = 8448 (a multiple of the 256 unit): 16384 / 8448 = 1.
  occcalc::nvidia_arch wide = arch("1.0");
  wide.registers_per_sm = 2 * wide.max_registers_per_block;
  const auto refused = occcalc::compute_occupancy(wide, kernel(256, 33));
  CHECK(refused.registers.per_block == 8448);
  CHECK(limit(refused, resource::registers) == 0);
  CHECK(refused.limit(resource::registers).reason == infeasibility::registers_per_block);
  CHECK(refused.blocks_per_sm == 0);
}

TEST_CASE("registers: a kernel with no registers is not limited by them", "[registers]") {
  CHECK(limit(compute("9.0", kernel(1024, 0)), resource::registers) == std::nullopt);
}

TEST_CASE("registers: GP100 runs nothing that would not fit a 4-partition Pascal", "[registers]") {
  // 14 warps of 4352 registers: 2 partitions need 14 x 4352 = 60928, 4 partitions 16 x 4352 = 69632.
  const auto r = compute("6.0", kernel(448, 136));
  CHECK(limit(r, resource::registers) == 0);
  CHECK(r.limit(resource::registers).reason == infeasibility::registers_compat);
  CHECK(limit(compute("6.1", kernel(448, 136)), resource::registers) == 0);
}

TEST_CASE("registers: 1.x allocates per block, warps rounded up to 2", "[registers]") {
  // 3 warps -> 4; 10 x 32 x 4 = 1280 registers; 8192 / 1280 = 6.
  const auto r = compute("1.0", kernel(96, 10));
  CHECK(r.registers.per_block == 1280);
  CHECK(limit(r, resource::registers) == 6);
  // 1.2 rounds the block up to 512: 10 x 32 x 2 = 640 -> 1024; 16384 / 1024 = 16.
  CHECK(compute("1.2", kernel(64, 10)).registers.per_block == 1024);
}

TEST_CASE("registers: Fermi allocates 128-register units for 21, 22, 29, 30, 37, 38, 45, 46", "[registers]") {
  CHECK(compute("2.0", kernel(32, 20)).registers.per_warp == 640);
  CHECK(compute("2.0", kernel(32, 21)).registers.per_warp == 768);
  CHECK(compute("2.0", kernel(32, 23)).registers.per_warp == 768);  // 736 -> 768 with the 64 unit
  CHECK(compute("2.1", kernel(32, 37)).registers.per_warp == 1280);
}

TEST_CASE("shared memory: the driver's 1 KiB reserve is part of every block from 8.0 on", "[shared_memory]") {
  CHECK(compute("8.0", kernel(32, 0)).shared_memory.per_block_bytes == 1024);
  CHECK(compute("8.0", kernel(32, 0, 1)).shared_memory.per_block_bytes == 1152);  // 1025 -> unit 128
  CHECK(compute("7.5", kernel(32, 0)).shared_memory.per_block_bytes == 0);
}

TEST_CASE("shared memory: the kernel opts in to what it asks for, up to the opt-in maximum", "[shared_memory]") {
  // 8.6: 99 KiB opt-in plus the 1 KiB reserve fills the 100 KiB carveout once.
  CHECK(limit(compute("8.6", kernel(32, 0, 0, 99 * 1024)), resource::shared_memory) == 1);
  const auto over = compute("8.6", kernel(32, 0, 0, 99 * 1024 + 1));
  CHECK(limit(over, resource::shared_memory) == 0);
  CHECK(over.limit(resource::shared_memory).reason == infeasibility::shared_memory_per_block);
  // No opt-in before Volta: 48 KiB per block.
  CHECK(limit(compute("6.1", kernel(32, 0, 0, 48 * 1024 + 1)), resource::shared_memory) == 0);
}

TEST_CASE("shared memory: a carveout rounds up to the next supported size", "[shared_memory][carveout]") {
  auto launch = kernel(32, 0, 1);
  launch.carveout_percent = 50;
  // Legacy Programming Guide 20.6.4: on 7.0, 50% is not 48 KB but maps to 64 KB.
  CHECK(compute("7.0", launch).shared_memory.per_sm_bytes == 64 * 1024);
  // Legacy Programming Guide 20.7.3: on 8.0, "50% will map to a 100 KB carveout instead of an 82 KB one".
  CHECK(compute("8.0", launch).shared_memory.per_sm_bytes == 100 * 1024);
  // Turing's smallest configuration is 32 KB.
  launch.carveout_percent = 0;
  CHECK(compute("7.5", launch).shared_memory.per_sm_bytes == 32 * 1024);
}

TEST_CASE("shared memory: a carveout too small for one block grows to the smallest that fits",
          "[shared_memory][carveout]") {
  auto launch = kernel(32, 0, 10000);
  launch.carveout_percent = 0;
  const auto r = compute("7.0", launch);
  CHECK(r.shared_memory.per_sm_bytes == 16 * 1024);
  CHECK(limit(r, resource::shared_memory) == 1);
}

TEST_CASE("shared memory: the cache preference stands for a carveout on Volta and later", "[shared_memory][carveout]") {
  auto launch = kernel(32, 0, 1);
  launch.cache = cache_preference::l1;
  CHECK(compute("9.0", launch).shared_memory.per_sm_bytes == 8 * 1024);
  launch.cache = cache_preference::equal;
  CHECK(compute("9.0", launch).shared_memory.per_sm_bytes == 132 * 1024);  // 50% of 228 = 114 -> 132
  launch.carveout_percent = 100;                                           // an explicit carveout wins
  CHECK(compute("9.0", launch).shared_memory.per_sm_bytes == 228 * 1024);
}

TEST_CASE("shared memory: Kepler's cache preference picks 16, 32 or 48 KiB", "[shared_memory][cache]") {
  auto launch = kernel(32, 0, 4096);
  launch.cache = cache_preference::l1;
  CHECK(limit(compute("3.5", launch), resource::shared_memory) == 4);
  launch.cache = cache_preference::equal;
  CHECK(limit(compute("3.5", launch), resource::shared_memory) == 8);
  launch.cache = cache_preference::shared;
  CHECK(limit(compute("3.5", launch), resource::shared_memory) == 12);
  // GK210 (3.7): 80, 96, 112 KiB.
  launch.cache = cache_preference::l1;
  CHECK(compute("3.7", launch).shared_memory.per_sm_bytes == 80 * 1024);
}

TEST_CASE("shared memory: a preference too small for a block falls back to the largest on Kepler",
          "[shared_memory][cache]") {
  auto launch = kernel(32, 0, 20000);
  launch.cache = cache_preference::l1;
  // Not the 32 KiB that would fit: cuda_occupancy.h uses the full 48 KiB.
  CHECK(compute("3.0", launch).shared_memory.per_sm_bytes == 48 * 1024);
}

TEST_CASE("barriers: limit from 9.0 on, as barriers per SM / barriers per block", "[barriers]") {
  auto launch = kernel(32, 0);
  launch.barriers = 3;
  const auto hopper = compute("9.0", launch);
  CHECK(limit(hopper, resource::barriers) == 21);  // 64 / 3
  CHECK(hopper.blocks_per_sm == 21);
  CHECK(hopper.limiters.contains(resource::barriers));
  CHECK_FALSE(hopper.limiters.contains(resource::blocks));
  CHECK(limit(compute("12.0", launch), resource::barriers) == 8);  // 24 / 3
  CHECK(limit(compute("8.0", launch), resource::barriers) == std::nullopt);
  launch.barriers = 0;
  CHECK(limit(compute("9.0", launch), resource::barriers) == std::nullopt);
}

TEST_CASE("limiters: every resource whose limit equals the result is named", "[limiters]") {
  // 7.0, 256 threads, 32 registers: warps 8, registers 8 -> both limit.
  const auto r = compute("7.0", kernel(256, 32));
  CHECK(r.blocks_per_sm == 8);
  CHECK(r.limiters.contains(resource::warps));
  CHECK(r.limiters.contains(resource::registers));
  CHECK_FALSE(r.limiters.contains(resource::blocks));
}

TEST_CASE("register units and shared memory configurations: hand-checked", "[registers][shared]") {
  // sm_20 allocates 128 registers per warp at 21 registers (OCC65), 64 at
  // 20; sm_80 with a 40% carveout gets 100 KiB (the smallest carveout
  // holding 0.4 x 164 KiB = 65.6 KiB), and the l1 cache preference stands
  // for a 0% carveout there: the smallest configuration, 0 bytes.
  CHECK(occcalc::register_allocation_unit(arch("sm_20"), 21) == 128);
  CHECK(occcalc::register_allocation_unit(arch("sm_20"), 20) == 64);
  launch_config forty = kernel(128, 32);
  forty.carveout_percent = 40;
  CHECK(occcalc::preferred_shared_memory_per_sm_bytes(arch("sm_80"), forty) == 102400);
  launch_config l1 = kernel(128, 32);
  l1.cache = cache_preference::l1;
  CHECK(occcalc::preferred_shared_memory_per_sm_bytes(arch("sm_80"), l1) == 0);
}
