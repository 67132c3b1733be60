// The checked calculator in a program built with -fno-exceptions -fno-rtti
// (tests/CMakeLists.txt): it compiles there, answers the mission's example
// and refuses a default launch as a value. The architecture comes from the
// compiled tables, as libocccalc holds them.
#include <cstdio>

#include "cli/compiled_tables.hpp"
#include "occcalc/nvidia/checked.hpp"

int main() {
  const occcalc::table tables = occcalc::cli::compiled_tables(occcalc::cli::table_extent::architectures);
  const occcalc::nvidia_arch* volta = nullptr;
  for (const auto& arch : tables.architectures) {
    if (arch.id == "sm_70") volta = &arch;
  }
  if (volta == nullptr) return 2;
  const auto refused = occcalc::compute_occupancy_checked(*volta, occcalc::launch_config{});
  if (refused || refused.problem->keyed_text() != "threads 0 is outside [1, 2147483647]") return 1;
  occcalc::launch_config mission;
  mission.threads_per_block = 128;
  mission.registers_per_thread = 37;
  const auto answer = occcalc::compute_occupancy_checked(*volta, mission);
  if (!answer) return 1;
  std::printf("%.1f%%\n", answer.result->occupancy() * 100.0);
  return answer.result->occupancy() == 0.75 ? 0 : 1;
}
