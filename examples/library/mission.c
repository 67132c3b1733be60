/* The mission's example through the C ABI: a kernel of 128 threads and 37
 * registers on compute capability 7.0 keeps 75.0% of the SM's warps busy. */
#include <stdio.h>
#include <string.h>

#include "occcalc.h"

int main(void) {
  const occcalc_nvidia_device *volta;
  occcalc_nvidia_launch launch = OCCCALC_NVIDIA_LAUNCH_INIT;
  occcalc_nvidia_result result;
  char why[256];
  char *answer;
  int same;

  if (occcalc_nvidia_device_find("7.0", &volta, why, sizeof why) != OCCCALC_OK) {
    fprintf(stderr, "%s\n", why);
    return 2;
  }
  launch.threads_per_block = 128;
  launch.registers_per_thread = 37;
  if (occcalc_nvidia_occupancy(volta, &launch, &result, why, sizeof why) != OCCCALC_OK) {
    fprintf(stderr, "%s\n", why);
    return 2;
  }
  /* The same request as JSON, as `occcalc batch` answers it. */
  answer = occcalc_json("{\"cc\": \"7.0\", \"threads\": 128, \"regs\": 37}");
  if (answer == NULL) return 3;
  same = strstr(answer, "\"occupancy_percent\":75.0,") != NULL;
  occcalc_free(answer);
  printf("%.1f%% (%lld blocks of %lld warps; registers limit: %s)\n", result.occupancy * 100.0,
         (long long)result.blocks_per_sm, (long long)result.warps_per_block,
         (result.limiters & (1u << OCCCALC_REGISTERS)) ? "yes" : "no");
  return same ? 0 : 1;
}
