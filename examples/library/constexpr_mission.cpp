// The mission's example answered at compile time: the header-only core
// computes in constexpr from a literal architecture, here the built-in
// figures of compute capability 7.0, generated from data/ (no table file, no
// JSON library, nothing to link).
#include <cstdio>

#include "occcalc/nvidia/builtin_architectures.hpp"
#include "occcalc/nvidia/occupancy.hpp"

namespace {

constexpr occcalc::launch_config mission_launch() {
  occcalc::launch_config launch;
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  return launch;
}

constexpr occcalc::occupancy_result mission = occcalc::compute_occupancy(occcalc::builtin::sm_70, mission_launch());
static_assert(mission.active_warps_per_sm == 48 && mission.max_warps_per_sm == 64, "the mission: 48 of 64 warps");
static_assert(mission.limiters.contains(occcalc::resource::registers), "registers limit the mission");

}  // namespace

int main() {
  std::printf("%.1f%% (computed by the compiler)\n", mission.occupancy() * 100.0);
  return 0;
}
