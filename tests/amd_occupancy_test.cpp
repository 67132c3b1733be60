// The LLVM AMDGPU occupancy model: hand-checked values from its rules (the
// clang-19 comparison is tests/amd_llvm_test.cpp).
#include <catch2/catch.hpp>

#include "occcalc/amd_occupancy.hpp"
#include "test_tables.hpp"

namespace {

const occcalc::amd_target& target(const std::string& id) {
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    if (t.id == id) return t;
  }
  FAIL("no target " << id);
  throw;
}

occcalc::amd_kernel kernel(std::int64_t vgprs, std::int64_t agprs, std::int64_t sgprs, std::int64_t lds,
                           std::int64_t work_group) {
  return {vgprs, agprs, sgprs, lds, work_group, work_group};
}

}  // namespace

TEST_CASE("amd llvm model: VGPRs, in each register file", "[amd]") {
  // gfx900: 256 VGPRs per lane, granule 4: 45 -> 48 -> 5 waves.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx900"), kernel(45, 0, 32, 0, 64), {64, true}).vgpr_waves == 5);
  // gfx908: AGPRs in their own file: the larger count (256) -> 1 wave.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx908"), kernel(128, 256, 32, 0, 64), {64, true}).vgpr_waves == 1);
  // gfx90a: one 512 file: roundup(62, 4) + 64 = 128 -> 4 waves; 128 VGPRs alone -> 4.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx90a"), kernel(62, 64, 32, 0, 64), {64, true}).vgpr_waves == 4);
  CHECK(occcalc::amd_llvm_occupancy(target("gfx90a"), kernel(128, 0, 32, 0, 64), {64, true}).vgpr_waves == 4);
  // gfx1100: 1536 per lane in wave32 (granule 24), 768 in wave64 (12): 96 -> 16, 8.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1100"), kernel(96, 0, 32, 0, 64), {32, true}).vgpr_waves == 16);
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1100"), kernel(96, 0, 32, 0, 64), {64, true}).vgpr_waves == 8);
  // gfx1030 wave32: 40 -> 48 -> 21, capped at 16 waves per SIMD.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1030"), kernel(40, 0, 32, 0, 64), {32, true}).vgpr_waves == 16);
}

TEST_CASE("amd llvm model: SGPRs limit only where waves share a file", "[amd]") {
  // gfx900: 800 / roundup(102, 16) = 800 / 112 = 7.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx900"), kernel(16, 0, 102, 0, 64), {64, true}).sgpr_waves == 7);
  // gfx700: 512 / roundup(54, 8) = 512 / 56 = 9.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx700"), kernel(16, 0, 54, 0, 64), {64, true}).sgpr_waves == 9);
  // gfx1030: none.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1030"), kernel(16, 0, 106, 0, 64), {32, true}).sgpr_waves == 16);
}

TEST_CASE("amd llvm model: work-groups and LDS", "[amd]") {
  // gfx900, 256 work-items (4 waves), 16 KiB LDS: 65536 / 16384 = 4 groups
  // x 4 waves = 16 waves over 4 SIMDs = 4 (clang-19 says 4).
  CHECK(occcalc::amd_llvm_occupancy(target("gfx900"), kernel(45, 0, 54, 16384, 256), {64, true}).waves_per_simd == 4);
  // gfx900, 1024 work-items (16 waves): min(40 / 16, 16 barriers) = 2 groups
  // = 32 waves / 4 = 8.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx900"), kernel(16, 0, 32, 0, 1024), {64, true}).work_group_waves == 8);
  // gfx1030 wave32, 16 KiB: WGP mode doubles LDS (8 groups x 8 waves = 64
  // over 4 SIMDs = 16); CU mode holds 4 groups (32 waves over 2 SIMDs = 16).
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1030"), kernel(16, 0, 32, 16384, 256), {32, true}).work_group_waves ==
        16);
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1030"), kernel(16, 0, 32, 40000, 256), {32, true}).work_group_waves ==
        6);  // WGP: 3 groups x 8 waves = 24 / 4
  CHECK(occcalc::amd_llvm_occupancy(target("gfx1030"), kernel(16, 0, 32, 40000, 256), {32, false}).work_group_waves ==
        4);  // CU: 1 group x 8 waves = 8 / 2
  // More LDS than a CU holds: 1.
  CHECK(occcalc::amd_llvm_occupancy(target("gfx600"), kernel(16, 0, 32, 40000, 64), {64, true}).work_group_waves == 1);
}
