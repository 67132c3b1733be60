// Prints a --table file for the AMD GPU it runs on, from the HIP runtime's own
// properties (tools/day-one/README.md):
//   hipcc -std=c++17 -o occcalc-table-amd occcalc-table-amd.cpp
//   (or any C++17 compiler: g++ -std=c++17 -D__HIP_PLATFORM_AMD__ ... -lamdhip64)
//   ./occcalc-table-amd [--device N] [--name NAME] > mine.json
//   occcalc --table mine.json --gpu NAME --threads 256 --vgprs 64
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>

#include "table_entry.hpp"

int main(int argc, char** argv) {
  occcalc::day_one::device_options options;
  for (int i = 1; i < argc; ++i) {
    if (occcalc::day_one::read_device_option(argc, argv, i, options) != occcalc::day_one::option_read::taken) {
      std::fprintf(stderr, "usage: %s [--device N] [--name NAME]\n", argv[0]);
      return 2;
    }
  }
  const int device = options.device;
  const std::string& name = options.name;
  hipDeviceProp_t prop{};
  if (const hipError_t status = hipGetDeviceProperties(&prop, device); status != hipSuccess) {
    std::fprintf(stderr, "occcalc-table-amd: error: hipGetDeviceProperties: %s\n", hipGetErrorString(status));
    return 2;
  }
  occcalc::day_one::amd_device d;
  d.name = name.empty() ? prop.name : name;
  d.gcn_arch_name = prop.gcnArchName;
  d.multiprocessor_count = prop.multiProcessorCount;
  // The runtime's WGP mode is its default on gfx10 and later; this variable
  // is how a user sets CU mode (ROCm/hip#3767).
  const char* wgp = std::getenv("GPU_ENABLE_WGP_MODE");
  d.wgp_mode = wgp == nullptr || std::strcmp(wgp, "0") != 0;
  if (hipRuntimeGetVersion(&d.runtime_version) != hipSuccess) d.runtime_version = 0;
  occcalc::day_one::write_amd_table(std::cout, d, occcalc::day_one::today());
  return 0;
}
