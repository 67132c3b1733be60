// The AMD limits table against LLVM's own formulas (AMDGPUBaseInfo.cpp:
// getMaxNumVGPRs and getMaxNumSGPRs, the register budget per waves-per-EU
// level) and hand-checked LDS levels.
#include "catch.hpp"

#include "occcalc/amd/limits.hpp"
#include "occcalc/common/math.hpp"
#include "test_tables.hpp"

namespace {

const occcalc::amd_target& target(const std::string& id) {
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    if (t.id == id) return t;
  }
  FAIL("no target " << id);
  throw;
}

std::int64_t align_down(std::int64_t x, std::int64_t multiple) { return x / multiple * multiple; }

}  // namespace

TEST_CASE("amd limits: VGPRs and SGPRs per level as LLVM's getMaxNumVGPRs and getMaxNumSGPRs", "[limits][amd]") {
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
          CHECK(level.max_sgprs == std::min(align_down(*t.sgprs_per_simd / w, t.sgpr_granule), t.max_sgprs_per_wave));
        } else {
          CHECK_FALSE(level.max_sgprs);
        }
        ++levels_checked;
      }
    }
  }
  CHECK(levels_checked > 500);
}

TEST_CASE("amd limits: hand-checked LDS levels", "[limits][amd]") {
  // gfx90a, 256 work-items: 4 waves a group; 32 wave slots per CU hold 8
  // groups, 8 waves per SIMD. n groups need n x 4 / 4 = n waves per SIMD,
  // so level n allows 65536 / n bytes each.
  const auto levels = occcalc::amd_limits(target("gfx90a"), {64, false}, 256);
  REQUIRE(levels.size() == 8);
  CHECK(levels[0].waves_per_simd == 8);
  CHECK(levels[0].max_lds_bytes == 8192);
  CHECK(levels[3].max_lds_bytes == 13107);  // 5 groups
  CHECK(levels[7].max_lds_bytes == 65536);
  CHECK(levels[0].max_vgprs == 64);  // 512 / 8; VGPRs and AGPRs together
  CHECK(levels[7].max_vgprs == 512);
  // gfx1250: 320 KiB per CU, all of it one work-group's.
  const auto big = occcalc::amd_limits(target("gfx1250"), {32, false}, 256);
  CHECK(big.front().waves_per_simd == 16);
  CHECK(big.back().max_lds_bytes == 327680);
  CHECK(big.front().max_lds_bytes == 40960);  // 8 groups of 8 waves over 4 SIMDs
}
