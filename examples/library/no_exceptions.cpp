// The mission's example from C++ built with -fno-exceptions -fno-rtti: the C
// ABI reports a refusal as a status and a message, never by throwing.
#include <cstdio>

#include "occcalc.h"

int main() {
  const occcalc_nvidia_device* volta = nullptr;
  char why[256];
  if (occcalc_nvidia_device_find("sm_70", &volta, why, sizeof why) != OCCCALC_OK) {
    std::fprintf(stderr, "%s\n", why);
    return 2;
  }
  occcalc_nvidia_launch launch = OCCCALC_NVIDIA_LAUNCH_INIT;
  launch.threads_per_block = 0;  // refused, with the command line's words
  occcalc_nvidia_result result;
  if (occcalc_nvidia_occupancy(volta, &launch, &result, why, sizeof why) != OCCCALC_BAD_INPUT) return 1;
  std::printf("refused: %s\n", why);
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  if (occcalc_nvidia_occupancy(volta, &launch, &result, why, sizeof why) != OCCCALC_OK) return 1;
  std::printf("%.1f%%\n", result.occupancy * 100.0);
  return 0;
}
