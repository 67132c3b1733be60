// The LLVM AMDGPU occupancy model: hand-checked values from its rules (the
// clang-19 comparison is tests/amd_llvm_test.cpp).
#include <type_traits>

#include "catch.hpp"
#include "sampling.hpp"

#include "occcalc/amd/occupancy.hpp"
#include "test_tables.hpp"

using occcalc::test::amd_target;

namespace {

occcalc::amd_kernel kernel(std::int64_t vgprs, std::int64_t agprs, std::int64_t sgprs, std::int64_t lds,
                           std::int64_t work_group) {
  return {vgprs, agprs, sgprs, lds, work_group, work_group};
}

}  // namespace

TEST_CASE("amd mode: given, or the target's own; never a wave size taken for granted", "[amd]") {
  // amd_mode{} was wave64 everywhere, so RDNA's wave32 answers were silently wrong through the API.
  STATIC_REQUIRE_FALSE(std::is_default_constructible_v<occcalc::amd_mode>);
  const auto rdna = occcalc::amd_mode::defaults_of(amd_target("gfx1100"));
  CHECK((rdna.wave_size == 32 && rdna.wgp_mode));
  const auto cdna = occcalc::amd_mode::defaults_of(amd_target("gfx90a"));
  CHECK((cdna.wave_size == 64 && !cdna.wgp_mode));
  // The command line's answer for gfx1100 without --wave32 or --wave64 is the defaults' one.
  const auto k = kernel(96, 0, 32, 0, 256);
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx1100"), k, rdna).vgpr_waves == 16);
}

TEST_CASE("amd llvm model: VGPRs, in each register file", "[amd]") {
  // gfx900: 256 VGPRs per lane, granule 4: 45 -> 48 -> 5 waves.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx900"), kernel(45, 0, 32, 0, 64), {64, true}).vgpr_waves == 5);
  // gfx908: AGPRs in their own file: the larger count (256) -> 1 wave.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx908"), kernel(128, 256, 32, 0, 64), {64, true}).vgpr_waves == 1);
  // gfx90a: one 512 file: roundup(62, 4) + 64 = 128 -> 4 waves; 128 VGPRs alone -> 4.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx90a"), kernel(62, 64, 32, 0, 64), {64, true}).vgpr_waves == 4);
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx90a"), kernel(128, 0, 32, 0, 64), {64, true}).vgpr_waves == 4);
  // gfx1100: 1536 per lane in wave32 (granule 24), 768 in wave64 (12): 96 -> 16, 8.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx1100"), kernel(96, 0, 32, 0, 64), {32, true}).vgpr_waves == 16);
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx1100"), kernel(96, 0, 32, 0, 64), {64, true}).vgpr_waves == 8);
  // gfx1030 wave32: 40 -> 48 -> 21, capped at 16 waves per SIMD.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx1030"), kernel(40, 0, 32, 0, 64), {32, true}).vgpr_waves == 16);
}

TEST_CASE("amd llvm model: SGPRs limit only where waves share a file", "[amd]") {
  // gfx900: 800 / roundup(102, 16) = 800 / 112 = 7.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx900"), kernel(16, 0, 102, 0, 64), {64, true}).sgpr_waves == 7);
  // gfx700: 512 / roundup(54, 8) = 512 / 56 = 9.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx700"), kernel(16, 0, 54, 0, 64), {64, true}).sgpr_waves == 9);
  // gfx1030: none.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx1030"), kernel(16, 0, 106, 0, 64), {32, true}).sgpr_waves == 16);
}

TEST_CASE("amd llvm model: work-groups and LDS", "[amd]") {
  // gfx900, 256 work-items (4 waves), 16 KiB LDS: 65536 / 16384 = 4 groups
  // x 4 waves = 16 waves over 4 SIMDs = 4 (clang-19 says 4).
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx900"), kernel(45, 0, 54, 16384, 256), {64, true}).waves_per_simd ==
        4);
  // gfx900, 1024 work-items (16 waves): min(40 / 16, 16 barriers) = 2 groups
  // = 32 waves / 4 = 8.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx900"), kernel(16, 0, 32, 0, 1024), {64, true}).work_group_waves ==
        8);
  // gfx1030 wave32, 16 KiB: WGP mode doubles LDS (8 groups x 8 waves = 64
  // over 4 SIMDs = 16); CU mode holds 4 groups (32 waves over 2 SIMDs = 16).
  CHECK(
      occcalc::amd_llvm_occupancy(amd_target("gfx1030"), kernel(16, 0, 32, 16384, 256), {32, true}).work_group_waves ==
      16);
  CHECK(
      occcalc::amd_llvm_occupancy(amd_target("gfx1030"), kernel(16, 0, 32, 40000, 256), {32, true}).work_group_waves ==
      6);  // WGP: 3 groups x 8 waves = 24 / 4
  CHECK(
      occcalc::amd_llvm_occupancy(amd_target("gfx1030"), kernel(16, 0, 32, 40000, 256), {32, false}).work_group_waves ==
      4);  // CU: 1 group x 8 waves = 8 / 2
  // More LDS than a CU holds: 1.
  CHECK(occcalc::amd_llvm_occupancy(amd_target("gfx600"), kernel(16, 0, 32, 40000, 64), {64, true}).work_group_waves ==
        1);
}

namespace {

using occcalc::amd_model;
using occcalc::amd_resource;

occcalc::amd_occupancy_result run(const std::string& id, amd_model model, std::int64_t work_group, std::int64_t vgprs,
                                  std::int64_t sgprs = 0, std::int64_t lds = 0, occcalc::amd_mode mode = {64, true},
                                  std::int64_t agprs = 0, std::optional<std::int64_t> device_waves = {}) {
  return occcalc::compute_amd_occupancy(amd_target(id), kernel(vgprs, agprs, sgprs, lds, work_group), mode, model,
                                        work_group, device_waves);
}

/// RCP's "waves limited by" figure for a resource: its work-groups, as
/// waves, clamped to the work-group limit (what RCP prints).
std::int64_t rcp_waves(const occcalc::amd_occupancy_result& r, amd_resource res) {
  const std::int64_t cap = std::min(*r.limit(amd_resource::wave_slots), *r.limit(amd_resource::work_groups));
  return std::min(r.limit(res).value_or(cap), cap) * r.waves_per_work_group;
}

}  // namespace

TEST_CASE("amd rcp model: the published Cape Verde example (T1)", "[amd][rcp]") {
  // Radeon Compute Profiler docs/source/configfiles.rst: Capeverde, gfx6, 10
  // CUs, 256 work-items (4 waves), 11 VGPRs, 20 SGPRs, 4096 B LDS of 32768:
  // WavesLimitedByVGPR=40, BySGPR=40, ByLDS=32, ByWorkgroup=40, Occupancy=80.
  const auto r = run("gfx601", amd_model::rcp, 256, 11, 20, 4096);
  CHECK(rcp_waves(r, amd_resource::vgprs) == 40);
  CHECK(rcp_waves(r, amd_resource::sgprs) == 40);
  CHECK(rcp_waves(r, amd_resource::lds) == 32);
  CHECK(std::min(*r.limit(amd_resource::wave_slots), *r.limit(amd_resource::work_groups)) * r.waves_per_work_group ==
        40);
  CHECK(r.max_waves == 40);
  CHECK(r.active_waves == 32);
  CHECK(r.occupancy() == Approx(0.80));
  CHECK(r.limiters.contains(amd_resource::lds));
  CHECK(!r.limiters.contains(amd_resource::vgprs));
}

TEST_CASE("amd rcp model: VLIW work-group cap (T2, RCP documentation)", "[amd][rcp]") {
  // "setting a workgroup consisting of only 1 wavefront yields only 8
  // in-flight wavefronts, whereas (for example, given a maximum number of
  // wavefronts on the compute unit of 32), a work-group of 2 wavefronts will
  // yield 16 wavefronts."
  const auto one = run("cypress", amd_model::rcp, 64, 8);
  CHECK(one.active_waves == 8);
  CHECK(one.max_waves == 32);
  CHECK(one.occupancy() == Approx(0.25));
  CHECK(one.limiters.contains(amd_resource::work_groups));
  const auto two = run("cypress", amd_model::rcp, 128, 8);
  CHECK(two.active_waves == 16);
  CHECK(two.occupancy() == Approx(0.50));
  // Cayman (VLIW4) follows the same class.
  CHECK(run("cayman", amd_model::rcp, 128, 8).active_waves == 16);
}

TEST_CASE("amd rcp model: derived GCN and VLIW cases (T10-T14)", "[amd][rcp]") {
  // T10: gfx803, 256 work-items, 32 VGPRs, 24 SGPRs: VGPRs 8 per SIMD -> 32
  // waves; SGPRs (24 + 2 -> 32) 25 per SIMD; 80 %, VGPR-limited.
  const auto t10 = run("gfx803", amd_model::rcp, 256, 32, 24);
  CHECK(t10.active_waves == 32);
  CHECK(t10.occupancy() == Approx(0.80));
  CHECK(t10.limiters.contains(amd_resource::vgprs));
  // T11: 192 work-items (3 waves), 24 VGPRs: the work-group limit floors 40
  // to 39 waves: 97.5 %, limited by the work-group size (wave slots).
  const auto t11 = run("gfx803", amd_model::rcp, 192, 24, 16);
  CHECK(t11.active_waves == 39);
  CHECK(t11.occupancy() == Approx(0.975));
  CHECK(t11.limiters.contains(amd_resource::wave_slots));
  // T12: 1024 work-items (16 waves), 32 VGPRs: 2 groups = 32 waves; the
  // wave slots and VGPRs tie.
  const auto t12 = run("gfx803", amd_model::rcp, 1024, 32, 16);
  CHECK(t12.active_waves == 32);
  CHECK(t12.occupancy() == Approx(0.80));
  CHECK(t12.limiters.contains(amd_resource::wave_slots));
  CHECK(t12.limiters.contains(amd_resource::vgprs));
  // T13: one-wave groups (cap 40), 64 VGPRs, 40 SGPRs, 16 KiB of LDS. The
  // reference divides 65536 (4 groups, 10 %); RCP on SI reads the OpenCL
  // runtime's 32768 per CU (T1), so on gfx6 LDS allows 2 groups = 5 %.
  const auto t13 = run("gfx600", amd_model::rcp, 64, 64, 40, 16384);
  CHECK(*t13.limit(amd_resource::work_groups) == 40);
  CHECK(t13.active_waves == 2);
  CHECK(t13.limiters.contains(amd_resource::lds));
  // On gfx7 (64 KiB per CU) the same kernel gets T13's 4 waves = 10 %.
  const auto t13b = run("gfx700", amd_model::rcp, 64, 64, 40, 16384);
  CHECK(t13b.active_waves == 4);
  CHECK(t13b.occupancy() == Approx(0.10));
  // T14: VLIW, 256 work-items, 40 GPRs: 256 / 40 = 6 waves, floored to whole
  // 4-wave groups = 4: 12.5 %, GPR-limited; 8 GPRs and 8 KiB of LDS: 4
  // groups = 16 waves = 50 %, LDS-limited.
  const auto t14 = run("cypress", amd_model::rcp, 256, 40);
  CHECK(t14.active_waves == 4);
  CHECK(t14.occupancy() == Approx(0.125));
  CHECK(t14.limiters.contains(amd_resource::vgprs));
  const auto t14b = run("cypress", amd_model::rcp, 256, 8, 0, 8192);
  CHECK(t14b.active_waves == 16);
  CHECK(t14b.limiters.contains(amd_resource::lds));
  // Polaris (RX 480): the device table's 8 waves per SIMD make 32 slots.
  const auto polaris = run("gfx803", amd_model::rcp, 64, 16, 16, 0, {64, true}, 0, 8);
  CHECK(polaris.max_waves == 32);
  CHECK(polaris.active_waves == 32);
}

TEST_CASE("amd hip model: hipOccupancyMaxActiveBlocksPerMultiprocessor (T15)", "[amd][hip]") {
  // gfx90a, 256 work-items, 128 VGPRs, 32 SGPRs: 512 / 128 = 4 waves per SIMD
  // x 4 SIMDs = 16 waves = 4 blocks.
  const auto a = run("gfx90a", amd_model::hip, 256, 128, 32);
  CHECK(a.work_groups == 4);
  CHECK(a.limiters.contains(amd_resource::vgprs));
  // gfx906, 64 work-items, 24 VGPRs: VGPRs allow 10, HIP's 8 per SIMD cap
  // it: 32 waves = 32 blocks (the compiler says 10 waves per SIMD).
  const auto b = run("gfx906", amd_model::hip, 64, 24, 16);
  CHECK(b.work_groups == 32);
  CHECK(b.limiters.contains(amd_resource::wave_slots));
  CHECK(run("gfx906", amd_model::llvm, 64, 24, 16).waves_per_simd == 10);
  // gfx1030 wave64, WGP mode, 256 work-items, 64 VGPRs: 512 / 64 = 8 waves
  // x 4 SIMDs = 32 waves = 8 blocks per WGP.
  const auto c = run("gfx1030", amd_model::hip, 256, 64, 0, 0, {64, true});
  CHECK(c.work_groups == 8);
  CHECK(c.per_wgp);
  // gfx1100 wave32, WGP, 256 work-items, 96 VGPRs, 32 KiB LDS: 8 by the
  // ALUs, 65536 / 32768 = 2 by LDS (HIP divides the per-group LDS).
  const auto d = run("gfx1100", amd_model::hip, 256, 96, 0, 32768, {32, true});
  CHECK(*d.limit(amd_resource::vgprs) == 8);
  CHECK(d.work_groups == 2);
  CHECK(d.limiters.contains(amd_resource::lds));
  // No work-group cap: 64 one-wave groups... at HIP's 8 per SIMD, 32.
  CHECK(run("gfx900", amd_model::hip, 64, 4).work_groups == 32);
}

TEST_CASE("amd llvm model: llvm-calc-occupancy's example (T3)", "[amd][llvm]") {
  // llvm-calc-occupancy -mcpu=gfx90a --wg-size=512 --vgprs=50 --sgprs=30:
  // Workgroup + LDS 8, VGPRs 8, SGPRs 8 -> 8 waves/EU (32 waves/CU).
  const auto r = run("gfx90a", amd_model::llvm, 512, 50, 30);
  CHECK(r.waves_per_simd == 8);
  CHECK(r.active_waves == 32);
  CHECK(r.max_waves == 32);
  CHECK(r.occupancy() == 1.0);
  CHECK(std::min<std::int64_t>(*r.limits_waves_per_simd[1], 8) == 8);  // VGPRs
  CHECK(std::min<std::int64_t>(*r.limits_waves_per_simd[3], 8) == 8);  // SGPRs
}

TEST_CASE("amd llvm model: the compiler's VGPR table (T4, occupancy-levels.ll)", "[amd][llvm]") {
  // Columns: gfx900, gfx950, gfx1010 w32/w64, gfx1030 w32/w64, gfx1100 w32/w64.
  struct row {
    std::int64_t vgprs;
    std::array<std::int64_t, 8> waves;
  };
  const row table[] = {
      {24, {10, 8, 20, 20, 16, 16, 16, 16}}, {28, {9, 8, 20, 18, 16, 16, 16, 16}}, {32, {8, 8, 20, 16, 16, 16, 16, 16}},
      {36, {7, 8, 20, 14, 16, 12, 16, 16}},  {40, {6, 8, 20, 12, 16, 12, 16, 16}}, {44, {5, 8, 20, 11, 16, 10, 16, 16}},
      {48, {5, 8, 20, 10, 16, 10, 16, 16}},  {56, {4, 8, 18, 9, 16, 9, 16, 12}},   {64, {4, 8, 16, 8, 16, 8, 16, 10}},
      {72, {3, 7, 14, 7, 12, 7, 16, 10}},    {80, {3, 6, 12, 6, 12, 6, 16, 9}},    {84, {3, 5, 11, 6, 10, 5, 16, 9}},
      {88, {2, 5, 11, 5, 10, 5, 16, 8}},     {96, {2, 5, 10, 5, 10, 5, 16, 8}},    {100, {2, 4, 9, 5, 9, 4, 12, 7}},
      {112, {2, 4, 9, 4, 9, 4, 12, 6}},      {128, {2, 4, 8, 4, 8, 4, 10, 5}},     {144, {1, 3, 7, 3, 7, 3, 10, 5}},
      {168, {1, 3, 6, 3, 5, 3, 9, 4}},       {200, {1, 2, 5, 2, 4, 2, 7, 3}},      {256, {1, 2, 4, 2, 4, 2, 5, 2}},
  };
  const std::pair<const char*, std::int64_t> columns[] = {{"gfx900", 64},  {"gfx950", 64},  {"gfx1010", 32},
                                                          {"gfx1010", 64}, {"gfx1030", 32}, {"gfx1030", 64},
                                                          {"gfx1100", 32}, {"gfx1100", 64}};
  for (const auto& r : table) {
    for (std::size_t c = 0; c < 8; ++c) {
      INFO(columns[c].first << " wave" << columns[c].second << ", " << r.vgprs << " VGPRs");
      CHECK(run(columns[c].first, amd_model::llvm, 32, r.vgprs, 0, 0, {columns[c].second, true}).waves_per_simd ==
            r.waves[c]);
    }
  }
}

TEST_CASE("amd llvm result agrees with the compiler model for every target and size", "[amd][llvm]") {
  // amd_llvm_result (one work-group size, with per-resource limits) against
  // amd_llvm_occupancy (the compiler's procedure, which tests/amd_llvm_test
  // checks against clang-19), over sizes, registers and LDS.
  std::int64_t cases = 0;
  std::size_t walked = 0;
  for (const auto& t : occcalc::test::default_tables().amd_targets) {
    if (!t.supports(amd_model::llvm)) continue;
    for (const auto& file : t.vgpr_files) {
      for (const bool wgp : {true, false}) {
        for (std::int64_t size = 1; size <= t.max_work_group_size; size += size < 130 ? 1 : 61) {
          for (std::int64_t vgprs = 0; vgprs <= t.max_vgprs_per_wave; vgprs += 23) {
            for (const std::int64_t lds : {0, 1, 5000, 16384, 40000, 65536}) {
              if (lds > t.max_lds_per_work_group_bytes || !occcalc::test::walks(walked++)) continue;
              const auto k = kernel(vgprs, t.max_agprs_per_wave > 0 ? vgprs / 3 : 0, 40 + vgprs % 60, lds, size);
              const occcalc::amd_mode mode{file.wave_size, wgp};
              const auto expected = occcalc::amd_llvm_occupancy(t, k, mode);
              const auto r = occcalc::amd_llvm_result(t, k, mode, size);
              ++cases;
              if (r.work_groups == 0) {
                // The work-group does not fit; the compiler would not have
                // allotted these registers at this size.
                CHECK(r.waves_per_simd == 0);
                continue;
              }
              if (r.waves_per_simd != expected.waves_per_simd) {
                FAIL_CHECK(t.id << " wave" << file.wave_size << (wgp ? " wgp" : " cu") << " size " << size << " vgprs "
                                << vgprs << " lds " << lds << ": " << r.waves_per_simd << " vs "
                                << expected.waves_per_simd);
              }
              CHECK(r.work_groups * r.waves_per_work_group <= r.active_waves);
            }
          }
        }
      }
    }
  }
  CHECK(static_cast<std::size_t>(cases) > occcalc::test::sample(100000));
}

TEST_CASE("amd results carry each register and LDS limit's terms", "[amd]") {
  // gfx90a hip, 256 work-items: roundup(62, 4) + 64 AGPRs = 128 of 512,
  // granule 8 -> 4 waves per SIMD; 800 / roundup(40, 16) = 16; the LDS one
  // work-group may use (64 KiB) / 16 KiB.
  const auto hip = occcalc::amd_hip_result(amd_target("gfx90a"), kernel(62, 64, 40, 16384, 256), {64, true}, 256);
  const auto& vgprs = hip.terms_of(occcalc::amd_resource::vgprs);
  CHECK(vgprs.pool == 512);
  CHECK(vgprs.count == 128);
  CHECK(vgprs.granule == 8);
  CHECK(vgprs.waves_per_simd == 4);
  CHECK(hip.terms_of(occcalc::amd_resource::sgprs).waves_per_simd == 16);
  CHECK(hip.terms_of(occcalc::amd_resource::lds).pool == 65536);
  CHECK(hip.terms_of(occcalc::amd_resource::lds).count == 16384);
  // gfx803 rcp: 800 / roundup(40 + 2 for VCC, 16) = 800 / 48 = 16 waves.
  const auto rcp = occcalc::amd_rcp_result(amd_target("gfx803"), kernel(62, 0, 40, 16384, 256), {64, true}, 256);
  const auto& sgprs = rcp.terms_of(occcalc::amd_resource::sgprs);
  CHECK(sgprs.pool == 800);
  CHECK(sgprs.added == 2);
  CHECK(sgprs.granule == 16);
  CHECK(sgprs.waves_per_simd == 16);
  CHECK(rcp.terms_of(occcalc::amd_resource::vgprs).waves_per_simd == 4);
  // Wave slots are not divided from a pool: no terms.
  CHECK(rcp.terms_of(occcalc::amd_resource::wave_slots).pool == 0);
}
