// The neutral summary: each vendor's resource names agree with its JSON keys,
// and a summary says what the result says.
#include "catch.hpp"

#include "occcalc/amd/occupancy.hpp"
#include "occcalc/amd/summary.hpp"
#include "occcalc/nvidia/summary.hpp"
#include "occcalc/request/amd.hpp"
#include "occcalc/request/request.hpp"
#include "test_tables.hpp"

TEST_CASE("summary: resource keys are the JSON keys, labels the words people read", "[summary]") {
  for (const auto r : occcalc::nvidia_resources) CHECK(occcalc::info(r).key == occcalc::to_string(r));
  for (const auto r : occcalc::amd_resources) CHECK(occcalc::info(r).key == occcalc::to_string(r));
  CHECK(occcalc::info(occcalc::resource::shared_memory).label == "shared memory");
  CHECK(occcalc::info(occcalc::amd_resource::lds).label == "LDS");
}

TEST_CASE("summary: an NVIDIA result, the main job", "[summary]") {
  // sm_70, 128 threads, 37 registers: 12 blocks, 48 of 64 warps, registers.
  const auto& arch = occcalc::test::arch("7.0");
  occcalc::launch_config launch;
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  const auto s = occcalc::summarize(occcalc::compute_occupancy(arch, launch));
  CHECK(s.model == "nvidia");
  CHECK(s.unit == "sm");
  CHECK(s.groups_per_unit == 12);
  CHECK(s.active_warps == 48);
  CHECK(s.max_warps == 64);
  CHECK(s.occupancy() == 0.75);
  CHECK(s.occupancy_percent() == 75.0);
  CHECK(s.limiter_list(", ") == "registers");
}

TEST_CASE("summary: an AMD result, tied limiters, per WGP", "[summary]") {
  // gfx90a, 256 work-items, 128 VGPRs, 16 KiB LDS: 4 work-groups per CU,
  // 16 of 32 waves, limited by VGPRs and LDS (README example).
  occcalc::request req;
  req.gfx = "gfx90a";
  req.threads = "256";
  req.vgprs = "128";
  req.sgprs = "32";
  req.lds = "16K";
  const auto r = occcalc::resolve_amd(occcalc::test::default_tables(), req);
  const auto s = occcalc::summarize(
      occcalc::compute_amd_occupancy(*r.target, r.kernel, r.mode, r.model, r.work_group_size, std::nullopt));
  CHECK(s.model == "llvm");
  CHECK(s.unit == "cu");
  CHECK(s.groups_per_unit == 4);
  CHECK(s.active_warps == 16);
  CHECK(s.max_warps == 32);
  CHECK(s.occupancy_percent() == 50.0);
  CHECK(s.limiter_list("+") == "vgprs+lds");
  CHECK(s.limiter_list(", ", true) == "VGPRs, LDS");
}
