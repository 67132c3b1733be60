// Suggestions, sweeps and waves: hand-checked values, the launch-bounds cap
// against ptxas, and next steps checked by recomputing occupancy.
#include "catch.hpp"
#include "sampling.hpp"

#include <cmath>
#include <random>
#include <string>

#include "builds/kernel_report.hpp"
#include "builds/readers/inspect_bytes.hpp"
#include "builds/readers/mapped_file.hpp"
#include "occcalc/amd/hip.hpp"
#include "occcalc/amd/sweep.hpp"
#include "occcalc/common/waves.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/nvidia/sweep.hpp"
#include "test_tables.hpp"

using occcalc::resource;
using occcalc::test::arch;
using occcalc::test::kernel;

TEST_CASE("suggest: the block size with the most resident threads", "[suggest]") {
  SECTION("a light kernel fills the SM at the largest block that does") {
    // 7.0, 32 registers: 1024 threads x 2 blocks = 2048 = the SM's maximum,
    // found first from the top.
    const auto c = occcalc::max_potential_block_size(arch("7.0"), kernel(1, 32), {});
    CHECK(c.block_size == 1024);
    CHECK(c.blocks_per_sm == 2);
  }
  SECTION("a tie keeps the larger block") {
    // 7.0, 64 registers: 32 warps by registers. 1024 threads: 1 block (32
    // warps); 512: 2 blocks (32 warps): a tie, the larger (1024) stays.
    const auto c = occcalc::max_potential_block_size(arch("7.0"), kernel(1, 64), {});
    CHECK(c.block_size == 1024);
    CHECK(c.result.active_warps_per_sm == 32);
  }
  SECTION("a cap that is not a multiple of the warp size is tried first") {
    // 8.0, 16 registers, at most 1000 threads: 1000 (32 warps, 2 blocks,
    // 2000 threads), then 992, 960, ... 672 (21 warps, 3 blocks, 2016), ...
    // 512 (4 blocks, 2048 = full): the search stops there.
    const auto c = occcalc::max_potential_block_size(arch("8.0"), kernel(1, 16), {}, 1000);
    CHECK(c.block_size == 512);
    CHECK(c.blocks_per_sm == 4);
    // At most 100 threads: 100 (4 warps, 16 blocks, 1600), 96 (21 blocks,
    // 2016), 64 (32 blocks, 2048 = full).
    const auto small = occcalc::max_potential_block_size(arch("8.0"), kernel(1, 16), {}, 100);
    CHECK(small.block_size == 64);
    CHECK(small.blocks_per_sm == 32);
  }
  SECTION("shared memory per thread shapes the choice") {
    // 8.0, 256 bytes per thread: a block of T threads needs 256 T + 1 KiB;
    // 164 KiB per SM holds 640 threads in 1 block (164864 B) ... the best is
    // the most threads: 2 x 320 (2 x 82944 = 165888 > 167936? no: fits).
    const auto c = occcalc::max_potential_block_size(arch("8.0"), kernel(1, 16), {0, 256});
    const auto r = occcalc::compute_occupancy(arch("8.0"), c.launch);
    CHECK(r.blocks_per_sm == c.blocks_per_sm);
    CHECK(c.launch.dynamic_shared_memory_bytes == 256 * c.block_size);
    // No block size gives more resident threads.
    for (std::int64_t t = 32; t <= 1024; t += 32) {
      auto l = kernel(t, 16, 0, 256 * t);
      CHECK(occcalc::compute_occupancy(arch("8.0"), l).active_threads_per_sm <= c.block_size * c.blocks_per_sm);
    }
  }
  SECTION("nothing runs: block size 0") {
    const auto c = occcalc::max_potential_block_size(arch("8.0"), kernel(1, 16, 200000), {});
    CHECK(c.block_size == 0);
    CHECK(c.blocks_per_sm == 0);
  }
}

TEST_CASE("suggest: dynamic shared memory for N resident blocks", "[suggest]") {
  SECTION("7.0 (no reserve): the header's answer keeps the blocks") {
    // 96 KiB per SM / 2 = 48 KiB, 256-byte units, less 4 KiB static.
    const auto a = occcalc::available_dynamic_shared_memory(arch("7.0"), kernel(256, 32, 4096), 2);
    REQUIRE(a.cuda_bytes);
    CHECK(*a.cuda_bytes == 49152 - 4096);
    CHECK(a.resident_bytes == a.cuda_bytes);
  }
  SECTION("8.0: the header forgets the 1 KiB reserve per block") {
    // 164 KiB / 2 = 83968; but 2 x (83968 + 1024) > 167936: one block. The
    // most that keeps 2: (167936 / 2 rounded down to 128) - 1024 = 82944.
    const auto a = occcalc::available_dynamic_shared_memory(arch("8.0"), kernel(256, 32), 2);
    REQUIRE(a.cuda_bytes);
    CHECK(*a.cuda_bytes == 83968);
    auto l = kernel(256, 32, 0, *a.cuda_bytes);
    CHECK(occcalc::compute_occupancy(arch("8.0"), l).blocks_per_sm == 1);
    REQUIRE(a.resident_bytes);
    CHECK(*a.resident_bytes == 82944);
    l.dynamic_shared_memory_bytes = 82944;
    CHECK(occcalc::compute_occupancy(arch("8.0"), l).blocks_per_sm == 2);
    l.dynamic_shared_memory_bytes = 82945;
    CHECK(occcalc::compute_occupancy(arch("8.0"), l).blocks_per_sm == 1);
  }
  SECTION("more blocks than the other resources allow: no answer") {
    const auto a = occcalc::available_dynamic_shared_memory(arch("8.0"), kernel(1024, 32), 3);
    CHECK_FALSE(a.cuda_bytes);
    CHECK_FALSE(a.resident_bytes);
  }
}

TEST_CASE("suggest: the register cap ptxas derives from __launch_bounds__", "[suggest]") {
  // Published in the reference (CUDA 13.0, sm_90): (256,4) -> 64, (128,8) ->
  // 64, (256,6) -> 40, (64,2) -> 255.
  CHECK(occcalc::launch_bounds_register_cap(arch("9.0"), 256, 4) == 64);
  CHECK(occcalc::launch_bounds_register_cap(arch("9.0"), 128, 8) == 64);
  CHECK(occcalc::launch_bounds_register_cap(arch("9.0"), 256, 6) == 40);
  CHECK(occcalc::launch_bounds_register_cap(arch("9.0"), 64, 2) == 255);

  // Every cap in tests/fixtures/inspect/launch_bounds.fatbin (ptxas 13.0).
  const occcalc::inspect::mapped_file file(std::string(OCCCALC_FIXTURE_DIR) + "/launch_bounds.fatbin");
  occcalc::inspect::inspect_options options;
  const auto in = occcalc::inspect::inspect_bytes(file.bytes(), options);
  REQUIRE(in.kernels.size() == 143 * 5);
  for (const auto& k : in.kernels) {
    const auto& name = k.resources.name;  // k_T_B, extern "C"-like after demangling: _Z7k_32_1Pf
    const auto text = k.demangled.substr(0, k.demangled.find('('));
    const auto first = text.find('_');
    const auto second = text.find('_', first + 1);
    const std::int64_t threads = std::stoll(text.substr(first + 1, second - first - 1));
    const std::int64_t blocks = std::stoll(text.substr(second + 1));
    const auto& a = occcalc::require_arch(occcalc::test::default_tables(), "cc", k.resources.arch.name);
    INFO(name << " " << k.resources.arch.name);
    CHECK(k.resources.register_cap.value_or(255) == occcalc::launch_bounds_register_cap(a, threads, blocks));
  }
}

TEST_CASE("suggest: next steps raise the occupancy, and one step short does not", "[suggest]") {
  struct case_t {
    std::string cc;
    occcalc::launch_config launch;
  };
  const auto c = GENERATE(values<case_t>({
      {"7.0", kernel(128, 37)},            // registers: 12 blocks
      {"8.0", kernel(256, 64, 0, 40000)},  // shared memory
      {"8.6", kernel(32, 32)},             // blocks per SM: 16 blocks of one warp, 33%
      {"9.0", kernel(640, 16)},            // warps: 3 blocks of 20 warps, 94%
      {"7.5", kernel(256, 70, 8192)},
      {"6.1", kernel(512, 40, 20000)},
  }));
  const auto& a = arch(c.cc);
  const auto now = occcalc::compute_occupancy(a, c.launch);
  const auto steps = occcalc::next_steps(a, c.launch);
  REQUIRE_FALSE(steps.empty());
  for (const auto& step : steps) {
    INFO(c.cc << " " << occcalc::to_string(step.limiter) << " " << step.current << " -> " << step.needed);
    CHECK(now.limiters.contains(step.limiter));
    if (!step.reachable) continue;
    CHECK(step.result.active_warps_per_sm > now.active_warps_per_sm);
    if (step.limiter == resource::blocks) continue;  // larger blocks, as many of them
    CHECK(step.result.blocks_per_sm > now.blocks_per_sm);
    // One step short of the answer gains nothing from this resource.
    const std::int64_t unit = step.limiter == resource::shared_memory ? a.shared_memory_allocation_unit_bytes
                              : step.limiter == resource::warps       ? a.warp_size_threads
                                                                      : 1;
    auto short_launch =
        occcalc::with_value(c.launch,
                            step.limiter == resource::registers       ? occcalc::sweep_variable::registers
                            : step.limiter == resource::shared_memory ? occcalc::sweep_variable::shared_memory
                            : step.limiter == resource::warps         ? occcalc::sweep_variable::threads
                                                                      : occcalc::sweep_variable::barriers,
                            step.needed + unit);
    if (occcalc::value_of(short_launch, occcalc::sweep_variable::shared_memory) >= 0 &&
        step.needed + unit < step.current) {
      CHECK(occcalc::compute_occupancy(a, short_launch).active_warps_per_sm <= now.active_warps_per_sm);
    }
  }
}

TEST_CASE("suggest: every next step raises the occupancy it claims; none at 100%; the highest first", "[suggest]") {
  // Each step's configuration run through the core again, over random kernels of every architecture
  // cuda_occupancy.h knows.
  std::mt19937_64 rng(43);
  const auto& tables = occcalc::test::default_tables();
  std::size_t checked = 0, steps_checked = 0, full = 0;
  for (int i = 0; i < 15000; ++i) {
    const auto& a = tables.architectures[rng() % tables.architectures.size()];
    if (a.cc_major < 3) continue;
    occcalc::launch_config l;
    l.threads_per_block = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(a.max_threads_per_block));
    l.registers_per_thread =
        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(a.max_registers_per_thread + 1));
    l.static_shared_memory_bytes = static_cast<std::int64_t>(rng() % 3 == 0 ? 0 : rng() % 49152);
    l.barriers = static_cast<std::int64_t>(rng() % 4);
    const auto now = occcalc::compute_occupancy(a, l);
    if (now.blocks_per_sm == 0) continue;
    ++checked;
    const auto steps = occcalc::next_steps(a, l);
    if (now.active_warps_per_sm == a.max_warps_per_sm) {
      ++full;
      CHECK(steps.empty());
      continue;
    }
    std::int64_t previous_warps = a.max_warps_per_sm + 1;
    bool unreachable_seen = false;
    for (const auto& step : steps) {
      INFO(a.id << " " << l.threads_per_block << " threads, " << l.registers_per_thread << " regs, "
                << l.static_shared_memory_bytes << " B, " << l.barriers
                << " barriers: " << occcalc::to_string(step.limiter) << " " << step.current << " -> " << step.needed);
      if (!step.reachable) {
        unreachable_seen = true;
        continue;
      }
      CHECK_FALSE(unreachable_seen);  // those that get there first
      const auto variable = step.limiter == resource::registers       ? occcalc::sweep_variable::registers
                            : step.limiter == resource::shared_memory ? occcalc::sweep_variable::shared_memory
                            : step.limiter == resource::barriers      ? occcalc::sweep_variable::barriers
                                                                      : occcalc::sweep_variable::threads;
      const auto again = occcalc::compute_occupancy(a, occcalc::with_value(l, variable, step.needed));
      CHECK(again.active_warps_per_sm == step.result.active_warps_per_sm);
      CHECK(again.blocks_per_sm == step.result.blocks_per_sm);
      CHECK(again.active_warps_per_sm > now.active_warps_per_sm);
      CHECK(step.result.active_warps_per_sm <= previous_warps);  // the highest first
      previous_warps = step.result.active_warps_per_sm;
      ++steps_checked;
    }
  }
  CHECK(checked > 6000);
  CHECK(steps_checked > 5000);
  CHECK(full > 100);
}

TEST_CASE("suggest: a target occupancy", "[suggest]") {
  // 7.0, 128 threads, 64 registers: 8 blocks = 32 warps = 50%. 75% = 48
  // warps = 12 blocks needs 40 registers (4 x 12 warps of 1280).
  const auto steps = occcalc::next_steps(arch("7.0"), kernel(128, 64), 0.75);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].limiter == resource::registers);
  CHECK(steps[0].needed == 40);
  CHECK(steps[0].result.active_warps_per_sm >= 48);
  auto l = kernel(128, 41);
  CHECK(occcalc::compute_occupancy(arch("7.0"), l).active_warps_per_sm < 48);
}

TEST_CASE("sweep: points and cliffs", "[sweep]") {
  const auto points = occcalc::sweep(arch("7.0"), kernel(128, 37), occcalc::sweep_variable::registers, {1, 255, 1});
  REQUIRE(points.size() == 255);
  CHECK(points[36].value == 37);
  CHECK(points[36].result.occupancy() == Approx(0.75));
  const auto steps = occcalc::cliffs(points);
  REQUIRE_FALSE(steps.empty());
  // 32 -> 33 registers: 1024 -> 1280 per warp: 16 -> 12 blocks of 4 warps.
  bool found = false;
  for (const auto& c : steps) {
    if (c.before == 32 && c.after == 33) {
      found = true;
      CHECK(c.occupancy_before == Approx(1.0));
      CHECK(c.occupancy_after == Approx(0.75));
    }
  }
  CHECK(found);
  for (const auto& c : steps) CHECK(c.occupancy_before != c.occupancy_after);
}

TEST_CASE("waves: published Nsight Compute reports on a Tesla V100 (80 SMs)", "[waves]") {
  const auto& tables = occcalc::test::default_tables();
  const auto& v100 = occcalc::require_gpu(tables, "gpu", "Tesla V100-SXM2-16GB");
  REQUIRE(v100.sm_count == 80);
  const auto& a = *occcalc::find_arch_by_id(tables, v100.arch_id);
  SECTION("matrix_add_2D: block 1024, 16 registers, grid 1024 -> Waves Per SM 6.40") {
    // A public ncu transcript (2025-05-24): Block Limit Registers 4, Block
    // Limit Warps 2, Theoretical Occupancy 100%, Waves Per SM 6.40.
    const auto r = occcalc::compute_occupancy(a, kernel(1024, 16));
    CHECK(r.limit(resource::registers).blocks == 4);
    CHECK(r.limit(resource::warps).blocks == 2);
    CHECK(r.occupancy() == 1.0);
    CHECK(occcalc::compute_waves(1024, v100.sm_count, r.blocks_per_sm).waves_per_sm == Approx(6.40));
  }
  SECTION("fdtd3d (CUDA samples): block 32x8, 48 registers, grid 6x23 -> Waves Per SM 0.35") {
    // A public ncu summary: Registers 48, Block Limit Registers 5, Waves Per
    // SM 0.35 (138 / 400 = 0.345, which ncu shows rounded half up).
    const auto r = occcalc::compute_occupancy(a, kernel(256, 48));
    CHECK(r.limit(resource::registers).blocks == 5);
    CHECK(occcalc::compute_waves(138, v100.sm_count, r.blocks_per_sm).waves_per_sm == Approx(0.345));
  }
}

TEST_CASE("waves: Nsight Compute's definition", "[waves]") {
  // 108 SMs (A100) x 2 blocks per SM = 216 per wave.
  const auto w = occcalc::compute_waves(1000, 108, 2);
  CHECK(w.blocks_per_wave == 216);
  CHECK(w.waves_per_sm == Approx(1000.0 / 216.0));
  CHECK(w.full_waves == 4);
  CHECK(w.tail_utilization == Approx(136.0 / 216.0));
  CHECK(w.whole_waves_below == 864);
  CHECK(w.whole_waves_above == 1080);
  const auto whole = occcalc::compute_waves(864, 108, 2);
  CHECK(whole.tail_utilization == 1.0);
  CHECK(whole.whole_waves_above == 864);
  const auto none = occcalc::compute_waves(100, 108, 0);
  CHECK(none.blocks_per_wave == 0);
  CHECK(none.waves_per_sm == 0.0);
}

TEST_CASE("amd sweep: gfx90a's VGPR steps (AMD lab notes, register pressure, Table 1)", "[sweep][amd]") {
  // "Register pressure in AMD CDNA2 GPUs" (AMD lab notes), Table 1: waves per
  // SIMD on gfx90a by VGPRs: up to 64 -> 8, 65-72 -> 7, 73-80 -> 6, 81-96 ->
  // 5, 97-128 -> 4, 129-168 -> 3, 169-256 -> 2, 257-512 -> 1 (with AGPRs).
  const auto& tables = occcalc::test::default_tables();
  const auto& t = *occcalc::find_amd_target(tables, "gfx90a");
  occcalc::amd_kernel k;
  const occcalc::amd_mode mode{64, false};
  const auto points = occcalc::amd_sweep(t, k, mode, occcalc::amd_model::llvm, 256, occcalc::amd_sweep_variable::vgprs,
                                         occcalc::default_amd_sweep_range(t, mode, occcalc::amd_sweep_variable::vgprs));
  REQUIRE(points.size() == 256);
  const auto steps = occcalc::cliffs(points);
  std::vector<std::pair<std::int64_t, double>> got;
  for (const auto& c : steps) got.emplace_back(c.after, c.occupancy_after * 8);
  const std::vector<std::pair<std::int64_t, double>> table1 = {{65, 7}, {73, 6}, {81, 5}, {97, 4}, {129, 3}, {169, 2}};
  CHECK(got == table1);
  CHECK(points.front().result.waves_per_simd == 8);
  k.vgprs = 256;
  k.agprs = 8;  // 264 of the unified 512
  CHECK(occcalc::amd_llvm_result(t, k, mode, 64).waves_per_simd == 1);
  // Sweeping the work-group size under HIP's model, which pools HIP's 32
  // wave slots per CU: whole groups of w waves fill floor(32 / w) x w.
  const auto sizes = occcalc::amd_sweep(t, occcalc::amd_kernel{}, mode, occcalc::amd_model::hip, 64,
                                        occcalc::amd_sweep_variable::threads, {64, 1024, 64});
  REQUIRE(sizes.size() == 16);
  for (const auto& p : sizes) {
    const std::int64_t waves = p.value / 64;
    CHECK(p.result.active_waves == 32 / waves * waves);
  }
}

TEST_CASE("amd suggest: hipOccupancyMaxPotentialBlockSize (ROCm clr)", "[suggest][amd]") {
  // The clr source: best block size = min(ALU-limited threads, the limit
  // rounded up to waves); grid = CUs x min(ALU threads / best, LDS groups).
  const auto& tables = occcalc::test::default_tables();
  const auto& gfx90a = *occcalc::find_amd_target(tables, "gfx90a");
  occcalc::amd_kernel k;
  k.vgprs = 128;
  k.sgprs = 32;
  // 512 / 128 = 4 waves per SIMD (below HIP's 8) x 4 SIMDs x 64 = 1024.
  auto c = occcalc::amd_hip_max_potential_block_size(gfx90a, k, {64, false}, 0);
  CHECK(c.alu_threads == 1024);
  CHECK(c.block_size == 1024);
  CHECK(c.blocks_per_unit == 1);
  // A limit of 200 rounds up to 256: 4 blocks; 16 KiB of LDS keeps 4.
  k.lds_bytes = 16384;
  c = occcalc::amd_hip_max_potential_block_size(gfx90a, k, {64, false}, 200);
  CHECK(c.block_size == 256);
  CHECK(c.blocks_per_unit == 4);
  // 24 KiB: LDS allows 2 of them.
  k.lds_bytes = 24576;
  c = occcalc::amd_hip_max_potential_block_size(gfx90a, k, {64, false}, 256);
  CHECK(c.blocks_per_unit == 2);
  CHECK(c.result.work_groups == 2);  // the result at that size agrees
  // gfx1100 wave32 in WGP mode, 96 VGPRs: 16 waves x 4 SIMDs x 32 = 2048
  // work-items, capped at the 1024 a work-group may have: 2 per WGP.
  const auto& gfx1100 = *occcalc::find_amd_target(tables, "gfx1100");
  occcalc::amd_kernel rdna;
  rdna.vgprs = 96;
  c = occcalc::amd_hip_max_potential_block_size(gfx1100, rdna, {32, true}, 0);
  CHECK(c.alu_threads == 2048);
  CHECK(c.block_size == 1024);
  CHECK(c.blocks_per_unit == 2);
  CHECK(c.result.occupancy() == 1.0);
}

TEST_CASE("suggest: every block size that ties with CUDA's choice, and the one occcalc recommends", "[suggest]") {
  // 8.9, 40 registers: 48 warps per SM; every block size whose blocks fill them ties with 768 (2 x 24 warps).
  const auto tied = [](const char* cc, std::int64_t regs, std::int64_t max_threads = 0) {
    const occcalc::dynamic_shared_memory_rule none{};
    return occcalc::tied_block_sizes(arch(cc), kernel(1, regs), none, max_threads,
                                     occcalc::max_potential_block_size(arch(cc), kernel(1, regs), none, max_threads));
  };
  const auto ties = tied("8.9", 40);
  CHECK(ties == std::vector<std::int64_t>{64, 96, 128, 192, 256, 384, 512, 768});
  CHECK(occcalc::max_potential_block_size(arch("8.9"), kernel(1, 40), {}).block_size == ties.back());
  // The smallest with a warp for each of the 4 schedulers.
  CHECK(occcalc::recommended_block_size(arch("8.9"), ties) == 128);
  // 8.0, 72 registers: 896 threads; 448, 224 and smaller powers of two as good (28 warps each).
  CHECK(tied("8.0", 72) == std::vector<std::int64_t>{32, 64, 128, 224, 448, 896});
  // Under --max-threads 32 the one size there is: below a warp per scheduler, it is still the answer.
  const auto alone = tied("7.0", 64, 32);
  CHECK(alone == std::vector<std::int64_t>{32});
  CHECK(occcalc::recommended_block_size(arch("7.0"), alone) == 32);
  // Each tie holds as many resident threads as the choice.
  for (const auto size : ties) {
    CHECK(size * occcalc::compute_occupancy(arch("8.9"), kernel(size, 40)).blocks_per_sm == 1536);
  }
}

namespace {

/// The sweep figure a launch knob sets (the test applies changes through
/// the sweep's own setter, not the search's).
occcalc::sweep_variable variable_of(std::size_t id) {
  switch (static_cast<occcalc::launch_knob>(id)) {
    case occcalc::launch_knob::registers: return occcalc::sweep_variable::registers;
    case occcalc::launch_knob::shared_memory: return occcalc::sweep_variable::shared_memory;
    case occcalc::launch_knob::block_size: return occcalc::sweep_variable::threads;
    case occcalc::launch_knob::barriers: break;
  }
  return occcalc::sweep_variable::barriers;
}

}  // namespace

TEST_CASE("suggest --target: every step and every change together reaches what it claims, the cheapest pair",
          "[suggest][property]") {
  // 10,000 random kernels and targets (or none) over every architecture from
  // 3.0: each next step and each change together is run through the core
  // again and must reach the goal; a pair changes both, costs the sum of its
  // relative changes and less than either change alone; the list is
  // cheapest first. For a sample, every pair of values of the registers and
  // the block size is tried by brute force: none is cheaper.
  std::mt19937_64 rng(4343);
  const auto& tables = occcalc::test::default_tables();
  std::size_t kernels = 0, steps_checked = 0, changes_checked = 0, pairs = 0, none = 0, brute = 0;
  while (kernels < occcalc::test::sample(10000)) {
    const auto& a = tables.architectures[rng() % tables.architectures.size()];
    if (a.cc_major < 3) continue;
    occcalc::launch_config l;
    l.threads_per_block = 1 + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(a.max_threads_per_block));
    l.registers_per_thread =
        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(a.max_compiled_registers_per_thread + 1));
    l.static_shared_memory_bytes = static_cast<std::int64_t>(rng() % 3 == 0 ? 0 : rng() % 49152);
    l.barriers = static_cast<std::int64_t>(rng() % 2);
    const auto now = occcalc::compute_occupancy(a, l);
    if (now.blocks_per_sm == 0) continue;
    ++kernels;
    std::optional<double> target;
    if (rng() % 4 != 0) target = static_cast<double>(1 + rng() % 100) / 100.0;
    const std::int64_t goal = target ? static_cast<std::int64_t>(std::ceil(*target * a.max_warps_per_sm - 1e-9))
                                     : now.active_warps_per_sm + 1;
    if (!target && now.active_warps_per_sm == a.max_warps_per_sm) continue;
    INFO(a.id << " " << l.threads_per_block << " threads, " << l.registers_per_thread << " regs, "
              << l.static_shared_memory_bytes << " B, " << l.barriers << " barriers, goal " << goal << " warps");
    const auto steps = occcalc::next_steps(a, l, target);
    for (const auto& step : steps) {
      if (!step.reachable) continue;
      ++steps_checked;
      const auto variable = step.limiter == resource::registers       ? occcalc::sweep_variable::registers
                            : step.limiter == resource::shared_memory ? occcalc::sweep_variable::shared_memory
                            : step.limiter == resource::barriers      ? occcalc::sweep_variable::barriers
                                                                      : occcalc::sweep_variable::threads;
      CHECK(occcalc::compute_occupancy(a, occcalc::with_value(l, variable, step.needed)).active_warps_per_sm >= goal);
    }
    const auto together = occcalc::changes_together(a, l, target);
    double previous = 0.0;
    for (const auto& found : together) {
      ++changes_checked;
      occcalc::launch_config changed = l;
      double cost = 0.0;
      for (const auto& c : found.changes.changes) {
        CHECK(c.to != c.from);
        CHECK(c.from == occcalc::value_of(l, variable_of(c.id)));
        changed = occcalc::with_value(changed, variable_of(c.id), c.to);
        cost += std::abs(static_cast<double>(c.to - c.from)) / static_cast<double>(c.from);
      }
      const auto again = occcalc::compute_occupancy(a, changed);
      CHECK(again.active_warps_per_sm >= goal);
      CHECK(again.active_warps_per_sm == found.result.active_warps_per_sm);
      CHECK(found.changes.cost == Approx(cost));
      CHECK(found.changes.cost >= previous);
      previous = found.changes.cost;
      if (found.changes.changes.size() == 2) {
        ++pairs;
        // Cheaper than either change alone: neither alone reaches, or costs more.
        for (const auto& c : found.changes.changes) {
          const auto alone = occcalc::with_value(l, variable_of(c.id), c.to);
          CHECK(occcalc::compute_occupancy(a, alone).active_warps_per_sm < goal);
        }
      }
    }
    if (together.empty() && !steps.empty() && !steps.front().reachable) ++none;
    // Brute force over registers x block size, for one kernel in 20.
    if (!steps.empty() && !steps.front().reachable && kernels % 20 == 0) {
      ++brute;
      std::optional<double> best;
      for (std::int64_t regs = 0; regs <= l.registers_per_thread; ++regs) {
        for (std::int64_t size = a.warp_size_threads; size <= a.max_threads_per_block; size += a.warp_size_threads) {
          if (regs == l.registers_per_thread || size == l.threads_per_block) continue;
          auto tried = occcalc::with_value(l, occcalc::sweep_variable::registers, regs);
          tried.threads_per_block = size;
          if (occcalc::compute_occupancy(a, tried).active_warps_per_sm < goal) continue;
          const double cost = static_cast<double>(l.registers_per_thread - regs) / l.registers_per_thread +
                              std::abs(static_cast<double>(size - l.threads_per_block)) / l.threads_per_block;
          if (!best || cost < *best) best = cost;
        }
      }
      if (best) {
        // The search's answer for this pair (or a cheaper change) costs no more.
        REQUIRE_FALSE(together.empty());
        CHECK(together.front().changes.cost <= *best + 1e-12);
      }
    }
  }
  CHECK(steps_checked > occcalc::test::sample(3000));
  CHECK(changes_checked > occcalc::test::sample(1000));
  CHECK(pairs > occcalc::test::sample(500));
  CHECK(none > occcalc::test::sample(10));
  CHECK(brute > occcalc::test::sample(20));
}
