// The C ABI's cost per call, as a program linked to libocccalc.so pays it,
// each beside its floor measured in the same run:
// - occcalc_nvidia_occupancy (a typed call on a device looked up once)
//   against cudaOccMaxActiveBlocksPerMultiprocessor on the same launches
//   (when cuda_occupancy.h is installed);
// - occcalc_json (a request as JSON text, its answer as JSON text) against
//   parsing the same request text with nlohmann/json, the least a JSON
//   answer costs.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "occcalc.h"

#ifdef OCCCALC_BENCH_WITH_HEADER
#include "cli/compiled_tables.hpp"
#include "cuda_occupancy_bridge.hpp"
#include "occcalc/request/lookup.hpp"
#endif

namespace {

template <typename F>
double best_seconds(int rounds, F&& pass) {
  double best = 1e9;
  for (int i = 0; i < rounds; ++i) {
    const auto start = std::chrono::steady_clock::now();
    pass();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::min(best, took.count());
  }
  return best;
}

}  // namespace

int main() {
  const char* ccs[] = {"5.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"};
  std::vector<const occcalc_nvidia_device*> devices;
  for (const char* cc : ccs) {
    const occcalc_nvidia_device* d = nullptr;
    if (occcalc_nvidia_device_find(cc, &d, nullptr, 0) != OCCCALC_OK) return 2;
    devices.push_back(d);
  }
  std::mt19937_64 rng(53);
  constexpr std::size_t count = 200'000;
  struct call {
    std::size_t device;
    occcalc_nvidia_launch launch;
  };
  std::vector<call> calls(count);
  std::vector<std::string> requests(count / 10);
  for (std::size_t i = 0; i < count; ++i) {
    call& c = calls[i];
    c.device = std::uniform_int_distribution<std::size_t>(0, devices.size() - 1)(rng);
    c.launch = OCCCALC_NVIDIA_LAUNCH_INIT;
    c.launch.threads_per_block = 32 * std::uniform_int_distribution<std::int64_t>(1, 32)(rng);
    c.launch.registers_per_thread = std::uniform_int_distribution<std::int64_t>(0, 255)(rng);
    c.launch.dynamic_shared_memory_bytes = std::uniform_int_distribution<std::int64_t>(0, 32768)(rng);
    if (i < requests.size()) {
      requests[i] = "{\"cc\": \"" + std::string(ccs[c.device]) +
                    "\", \"threads\": " + std::to_string(c.launch.threads_per_block) +
                    ", \"regs\": " + std::to_string(c.launch.registers_per_thread) +
                    ", \"dyn_smem\": " + std::to_string(c.launch.dynamic_shared_memory_bytes) + "}";
    }
  }
  std::int64_t sink = 0;
  occcalc_nvidia_result result;
  const double typed = best_seconds(11, [&] {
    for (const call& c : calls) {
      if (occcalc_nvidia_occupancy(devices[c.device], &c.launch, &result, nullptr, 0) == OCCCALC_OK)
        sink += result.blocks_per_sm;
    }
  });
  const double json = best_seconds(5, [&] {
    for (const std::string& r : requests) {
      char* answer = occcalc_json(r.c_str());
      sink += answer != nullptr ? answer[20] : 0;
      occcalc_free(answer);
    }
  });
  const double parse = best_seconds(5, [&] {
    for (const std::string& r : requests) sink += static_cast<std::int64_t>(nlohmann::json::parse(r).size());
  });
  const auto per_call_us = [](double seconds, std::size_t calls_made) {
    return seconds / static_cast<double>(calls_made) * 1e6;
  };
  std::printf("occcalc_nvidia_occupancy (typed)   %6.3f us a call (goal: at most 0.1)\n", per_call_us(typed, count));
#ifdef OCCCALC_BENCH_WITH_HEADER
  const occcalc::table tables = occcalc::cli::compiled_tables();
  std::vector<cudaOccDeviceProp> props;
  std::vector<std::pair<cudaOccFuncAttributes, cudaOccDeviceState>> attributes(count);
  for (const char* cc : ccs) props.push_back(occcalc::test::device_properties(occcalc::require_arch(tables, "cc", cc)));
  for (std::size_t i = 0; i < count; ++i) {
    occcalc::launch_config l;
    l.registers_per_thread = calls[i].launch.registers_per_thread;
    l.dynamic_shared_memory_bytes = calls[i].launch.dynamic_shared_memory_bytes;
    attributes[i] = {occcalc::test::function_attributes(occcalc::require_arch(tables, "cc", ccs[calls[i].device]), l),
                     occcalc::test::device_state(l)};
  }
  const double header = best_seconds(11, [&] {
    for (std::size_t i = 0; i < count; ++i) {
      cudaOccResult r{};
      cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props[calls[i].device], &attributes[i].first, &attributes[i].second,
                                              static_cast<int>(calls[i].launch.threads_per_block),
                                              static_cast<std::size_t>(calls[i].launch.dynamic_shared_memory_bytes));
      sink += r.activeBlocksPerMultiprocessor;
    }
  });
  std::printf("  floor: cudaOccMaxActiveBlocksPerMultiprocessor %6.3f us a call (the typed call is %.1fx)\n",
              per_call_us(header, count), typed / header);
#else
  std::printf("  floor: cuda_occupancy.h not found, no comparison\n");
#endif
  std::printf("occcalc_json                        %6.3f us a call (goal: at most 3)\n",
              per_call_us(json, requests.size()));
  std::printf("  floor: nlohmann::json::parse of the request %6.3f us (occcalc_json is %.1fx)\n",
              per_call_us(parse, requests.size()), json / parse);
  return sink == 42 ? 1 : 0;  // keep the work observable
}
