// The one place a target's spelling becomes a vendor and an SM number.
#include "catch.hpp"

#include "occcalc/request/target.hpp"

using occcalc::feature_setting;
using occcalc::gpu_vendor;
using occcalc::parse_gpu_target;

TEST_CASE("gpu target: the vendor and SM number from the spelling an input gives", "[inspect][target]") {
  const auto sm90a = parse_gpu_target("sm_90a");
  CHECK(sm90a.name == "sm_90a");
  CHECK(sm90a.vendor == gpu_vendor::nvidia);
  CHECK(sm90a.sm == 90);
  CHECK(parse_gpu_target("sm_120f").sm == 120);
  CHECK(parse_gpu_target("sm_10").sm == 10);

  const auto mi200 = parse_gpu_target("gfx90a");
  CHECK(mi200.vendor == gpu_vendor::amd);
  CHECK(mi200.sm == 0);
  CHECK(parse_gpu_target("gfx1100").vendor == gpu_vendor::amd);
  // LLVM's generic targets: gfx, the version, -generic.
  for (const char* generic : {"gfx9-generic", "gfx9-4-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic"}) {
    INFO(generic);
    CHECK(parse_gpu_target(generic).vendor == gpu_vendor::amd);
  }

  // What names no GPU keeps its spelling for the message and no vendor.
  for (const char* other :
       {"", "compute_90", "sm_", "sm_x", "sm_0", "gfx", "GFX90A", "90", "gfx-generic", "gfx11-", "gfx11-generic-x",
        "gfx1a-generic", "gfx11--generic", "gfx11-4-", "gfx9-4-1-generic", "sm_90b", "sm_90af", "sm_90 "}) {
    INFO(other);
    const auto t = parse_gpu_target(other);
    CHECK(t.vendor == gpu_vendor::unknown);
    CHECK(t.sm == 0);
    CHECK(t.name == other);
  }

  const auto cubin = occcalc::nvidia_target(89);
  CHECK(cubin.name == "sm_89");
  CHECK(cubin.vendor == gpu_vendor::nvidia);
  CHECK(cubin.sm == 89);
}

TEST_CASE("gpu target: an AMD target ID keeps its features, spelled as clang spells them", "[inspect][target]") {
  // LLVM AMDGPUUsage, "Target ID": the processor, then each feature it
  // fixes with + or -; clang writes them in alphabetical order
  // (amdgcn-amd-amdhsa--gfx942:sramecc-:xnack+).
  const auto xnack_on = parse_gpu_target("gfx90a:xnack+");
  CHECK(xnack_on.vendor == gpu_vendor::amd);
  CHECK(xnack_on.name == "gfx90a:xnack+");
  CHECK(xnack_on.processor() == "gfx90a");
  CHECK(xnack_on.features[1] == feature_setting::on);
  CHECK(xnack_on.features[0] == feature_setting::any);

  const auto both = parse_gpu_target("gfx942:xnack+:sramecc-");
  CHECK(both.vendor == gpu_vendor::amd);
  CHECK(both.name == "gfx942:sramecc-:xnack+");
  CHECK(both.features[0] == feature_setting::off);
  CHECK(parse_gpu_target("gfx942:sramecc-:xnack+").name == "gfx942:sramecc-:xnack+");
  CHECK(parse_gpu_target("gfx90a").processor() == "gfx90a");
  CHECK(parse_gpu_target("gfx11-generic").processor() == "gfx11-generic");

  // A feature LLVM does not define, one named twice or without its sign is no target.
  for (const char* other : {"gfx90a:", "gfx90a:xnack", "gfx90a:xnack+:xnack-", "gfx90a:cumode+", "gfx90a::xnack+",
                            "gfx90a:xnack+:", "gfx90a:XNACK+", "sm_90:xnack+", "gfxz:xnack+"}) {
    INFO(other);
    const auto t = parse_gpu_target(other);
    CHECK(t.vendor == gpu_vendor::unknown);
    CHECK(t.name == other);
  }

  const auto nvidia = parse_gpu_target("sm_100f");
  CHECK(nvidia.suffix == occcalc::target_features::family);
  CHECK(parse_gpu_target("sm_90a").suffix == occcalc::target_features::arch_specific);
  CHECK(occcalc::nvidia_target(100, occcalc::target_features::family).name == "sm_100f");
}

TEST_CASE("gpu target: can_load, the one rule for which GPU runs an image", "[inspect][target]") {
  const auto loads = [](const char* image, const char* gpu) {
    return occcalc::can_load(parse_gpu_target(image), parse_gpu_target(gpu));
  };
  // AMD: the same processor; a feature the image fixes must not be set the
  // other way on the GPU; an image that names none runs with either.
  CHECK(loads("gfx90a", "gfx90a"));
  CHECK(loads("gfx90a", "gfx90a:xnack+"));
  CHECK(loads("gfx90a:xnack+", "gfx90a:xnack+"));
  CHECK(loads("gfx90a:xnack+", "gfx90a"));
  CHECK_FALSE(loads("gfx90a:xnack+", "gfx90a:xnack-"));
  CHECK(loads("gfx942:sramecc+:xnack-", "gfx942:sramecc+"));
  CHECK_FALSE(loads("gfx942:sramecc+:xnack-", "gfx942:sramecc-:xnack-"));
  CHECK_FALSE(loads("gfx90a", "gfx908"));
  CHECK_FALSE(loads("gfx11-generic", "gfx1100"));  // which processors run it is not in the tables
  // NVIDIA (CUDA C++ Programming Guide, "Binary Compatibility"): a later
  // minor of the major; an `a` cubin its own GPU alone; an `f` its family.
  CHECK(loads("sm_80", "sm_86"));
  CHECK_FALSE(loads("sm_86", "sm_80"));
  CHECK_FALSE(loads("sm_80", "sm_90"));
  CHECK(loads("sm_90a", "sm_90"));
  CHECK_FALSE(loads("sm_100a", "sm_103"));
  CHECK(loads("sm_100f", "sm_103"));
  CHECK_FALSE(loads("sm_90", "gfx90a"));
  CHECK_FALSE(loads("compute_90", "sm_90"));
}
