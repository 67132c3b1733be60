// The one place a target's spelling becomes a vendor and an SM number.
#include "catch.hpp"

#include "inspect/gpu_target.hpp"

using occcalc::inspect::gpu_vendor;
using occcalc::inspect::parse_gpu_target;

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
       {"", "compute_90", "sm_", "sm_x", "sm_0", "gfx", "gfx90a:xnack-", "GFX90A", "90", "gfx-generic", "gfx11-",
        "gfx11-generic-x", "gfx1a-generic", "gfx11--generic", "gfx11-4-", "gfx9-4-1-generic"}) {
    INFO(other);
    const auto t = parse_gpu_target(other);
    CHECK(t.vendor == gpu_vendor::unknown);
    CHECK(t.sm == 0);
    CHECK(t.name == other);
  }

  const auto cubin = occcalc::inspect::nvidia_target(89);
  CHECK(cubin.name == "sm_89");
  CHECK(cubin.vendor == gpu_vendor::nvidia);
  CHECK(cubin.sm == 89);
}
