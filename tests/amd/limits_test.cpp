// The AMD limits table against LLVM's own formulas (AMDGPUBaseInfo.cpp:
// getMaxNumVGPRs, the register budget per waves-per-EU level, and
// getOccupancyWithNumSGPRs, the occupancy the compiler prints for an SGPR
// count) and hand-checked LDS levels.
#include "catch.hpp"

#include <random>
#include <vector>

#include "occcalc/amd/limits.hpp"
#include "occcalc/common/math.hpp"
#include "test_tables.hpp"

using occcalc::test::amd_target;

namespace {

std::int64_t align_down(std::int64_t x, std::int64_t multiple) { return x / multiple * multiple; }

/// LLVM 22's getOccupancyWithNumSGPRs, as written there: a table for
/// Southern and Sea Islands (gfx6, gfx7), another from Volcanic Islands
/// (gfx8) on. Not the file over the rounded count, and not getMaxNumSGPRs
/// (800 / 9 aligned down to 16 = 80 SGPRs for 9 waves on gfx9, where the
/// compiler prints 9 for 88).
std::int64_t llvm_occupancy_with_sgprs(std::int64_t sgprs, bool southern_or_sea_islands) {
  if (!southern_or_sea_islands) {
    if (sgprs <= 80) return 10;
    if (sgprs <= 88) return 9;
    if (sgprs <= 100) return 8;
    return 7;
  }
  if (sgprs <= 48) return 10;
  if (sgprs <= 56) return 9;
  if (sgprs <= 64) return 8;
  if (sgprs <= 72) return 7;
  if (sgprs <= 80) return 6;
  return 5;
}

}  // namespace

TEST_CASE("amd limits: VGPRs and SGPRs per level as LLVM's getMaxNumVGPRs and getOccupancyWithNumSGPRs",
          "[limits][amd]") {
  std::size_t levels_checked = 0;
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    if (!t.supports(occcalc::amd_model::llvm)) continue;
    for (const auto& file : t.vgpr_files) {
      const occcalc::amd_mode mode{file.wave_size, false};
      INFO(t.id << " wave" << file.wave_size);
      const auto levels = occcalc::amd_limits(t, mode, file.wave_size);  // one wave: every level
      REQUIRE(static_cast<std::int64_t>(levels.size()) == t.max_waves_per_simd);
      const std::int64_t addressable = t.max_vgprs_per_wave + (t.unified_vgpr_file ? t.max_agprs_per_wave : 0);
      for (const auto& level : levels) {
        const std::int64_t w = level.waves_per_simd;
        INFO("waves " << w);
        CHECK(level.max_vgprs == std::min(align_down(file.total / w, file.granule), addressable));
        if (t.sgprs_per_simd) {
          // The most SGPRs whose occupancy, capped at the target's waves, reaches the level.
          const bool old_gcn = t.family == "GCN1" || t.family == "GCN2";
          std::int64_t most = 0;
          for (std::int64_t s = 1; s <= t.max_sgprs_under(occcalc::amd_model::llvm); ++s) {
            if (std::min(llvm_occupancy_with_sgprs(s, old_gcn), t.max_waves_per_simd) >= w) most = s;
          }
          CHECK(level.max_sgprs == most);
        } else {
          CHECK_FALSE(level.max_sgprs);
        }
        ++levels_checked;
      }
    }
  }
  CHECK(levels_checked > 500);
}

TEST_CASE("amd limits: the levels stop at the fewest waves one work-group needs", "[limits][amd]") {
  // gfx90a, 1,024 work-items: 16 waves over 4 SIMDs, 4 per SIMD at the least; a level below holds no
  // work-group, so the table ends at 4 and a kernel that fits nowhere is steered there first.
  const auto& t = amd_target("gfx90a");
  const occcalc::amd_mode mode{64, false};
  CHECK(occcalc::amd_least_waves(t, mode, 1024) == 4);
  const auto levels = occcalc::amd_limits(t, mode, 1024);
  REQUIRE(levels.size() == 5);  // 8 down to 4
  CHECK(levels.back().waves_per_simd == 4);
  occcalc::amd_kernel k;
  k.min_work_group_size = k.max_work_group_size = 1024;
  k.vgprs = 512;  // 1 wave per SIMD: no 16-wave work-group fits
  CHECK(occcalc::amd_llvm_result(t, k, mode, 1024).waves_per_simd == 0.0);
  const auto plan = occcalc::amd_llvm_plan_for(t, k, mode, 1);
  CHECK((plan.reachable && plan.goal_waves == 4));
  REQUIRE(plan.steps.size() == 1);
  CHECK((plan.steps[0].resource == occcalc::amd_resource::vgprs && plan.steps[0].to == 128));
  k.vgprs = plan.steps[0].to;
  CHECK(occcalc::amd_llvm_result(t, k, mode, 1024).waves_per_simd == 4.0);
  // RDNA in WGP mode: 1,024 work-items in wave32 are 32 waves over 4 SIMDs.
  CHECK(occcalc::amd_least_waves(amd_target("gfx1100"), {32, true}, 1024) == 8);
}

TEST_CASE("amd limits: hand-checked LDS levels", "[limits][amd]") {
  // gfx90a, 256 work-items: 4 waves a group; 32 wave slots per CU hold 8
  // groups, 8 waves per SIMD. n groups need n x 4 / 4 = n waves per SIMD,
  // so level n allows 65536 / n bytes each.
  const auto levels = occcalc::amd_limits(amd_target("gfx90a"), {64, false}, 256);
  REQUIRE(levels.size() == 8);
  CHECK(levels[0].waves_per_simd == 8);
  CHECK(levels[0].max_lds_bytes == 8192);
  CHECK(levels[3].max_lds_bytes == 13107);  // 5 groups
  CHECK(levels[7].max_lds_bytes == 65536);
  CHECK(levels[0].max_vgprs == 64);  // 512 / 8; VGPRs and AGPRs together
  CHECK(levels[7].max_vgprs == 512);
  // gfx1250: 320 KiB per CU, all of it one work-group's.
  const auto big = occcalc::amd_limits(amd_target("gfx1250"), {32, false}, 256);
  CHECK(big.front().waves_per_simd == 16);
  CHECK(big.back().max_lds_bytes == 327680);
  CHECK(big.front().max_lds_bytes == 40960);  // 8 groups of 8 waves over 4 SIMDs
}

TEST_CASE("amd next steps (suggest --model llvm): together they reach the goal, each as little as it can",
          "[limits][amd][suggest]") {
  // 10,000 random kernels over every target the compiler's model answers
  // for: after the plan the compiler's occupancy reaches the goal, and one
  // more of any resource a step names (the others as the plan leaves them)
  // falls short of it; a plan without steps means the kernel is there.
  std::mt19937 rng(2026);
  std::vector<const occcalc::amd_target*> targets;
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    if (t.supports(occcalc::amd_model::llvm)) targets.push_back(&t);
  }
  const auto pick = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(rng);
  };
  std::size_t plans = 0, steps = 0;
  for (int i = 0; i < 10000; ++i) {
    const auto& t = *targets[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(targets.size()) - 1))];
    const auto& file =
        t.vgpr_files[static_cast<std::size_t>(pick(0, static_cast<std::int64_t>(t.vgpr_files.size()) - 1))];
    const occcalc::amd_mode mode{file.wave_size, t.has_wgp_mode && pick(0, 1) == 1};
    occcalc::amd_kernel k;
    k.vgprs = pick(0, t.max_vgprs_per_wave);
    k.agprs = t.max_agprs_per_wave > 0 ? pick(0, t.max_agprs_per_wave) : 0;
    k.sgprs = t.max_sgprs_per_wave > 0 ? pick(0, t.max_sgprs_under(occcalc::amd_model::llvm)) : 0;
    k.lds_bytes = pick(0, t.max_lds_per_work_group_bytes);
    k.min_work_group_size = k.max_work_group_size = pick(1, t.max_work_group_size);
    const std::int64_t now = occcalc::amd_llvm_occupancy(t, k, mode).waves_per_simd;
    // The plan starts at the fewest waves one work-group needs: a goal below it is raised.
    const std::int64_t least = occcalc::amd_least_waves(t, mode, k.max_work_group_size);
    const auto plan = occcalc::amd_llvm_plan_for(t, k, mode, pick(now, t.max_waves_per_simd));
    const std::int64_t goal = plan.goal_waves;
    CHECK(goal >= least);
    INFO(t.id << " wave" << mode.wave_size << " vgprs " << k.vgprs << " agprs " << k.agprs << " sgprs " << k.sgprs
              << " lds " << k.lds_bytes << " size " << k.max_work_group_size << " now " << now << " goal " << goal);
    if (!plan.reachable) {
      CHECK(goal > plan.most_waves);
      continue;
    }
    ++plans;
    occcalc::amd_kernel after = k;
    const auto field = [](occcalc::amd_kernel& kernel, occcalc::amd_resource r) -> std::int64_t& {
      switch (r) {
        case occcalc::amd_resource::agprs: return kernel.agprs;
        case occcalc::amd_resource::sgprs: return kernel.sgprs;
        case occcalc::amd_resource::lds: return kernel.lds_bytes;
        default: return kernel.vgprs;
      }
    };
    for (const auto& step : plan.steps) {
      CHECK(step.to < step.from);
      field(after, step.resource) = step.to;
    }
    CHECK(occcalc::amd_llvm_occupancy(t, after, mode).waves_per_simd >= goal);
    // Re-queried as the CLI does: the kernel after the steps runs (never 0 waves).
    CHECK(occcalc::amd_llvm_result(t, after, mode, k.max_work_group_size).waves_per_simd >= static_cast<double>(goal));
    if (plan.steps.empty()) CHECK(now >= goal);
    for (const auto& step : plan.steps) {
      ++steps;
      occcalc::amd_kernel more = after;
      ++field(more, step.resource);
      INFO(occcalc::to_string(step.resource) << " " << step.from << " -> " << step.to);
      CHECK(occcalc::amd_llvm_occupancy(t, more, mode).waves_per_simd < goal);
    }
  }
  CHECK(plans > 5000);
  CHECK(steps > 3000);
}
