// Core evaluations per second, occcalc vs cuda_occupancy.h (when installed),
// on the same pre-generated stream of configurations.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "cli/embedded_tables.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "occcalc/tables/load.hpp"

#ifdef OCCCALC_BENCH_WITH_HEADER
#include "cuda_occupancy_bridge.hpp"
#endif

namespace {

struct config {
  const occcalc::nvidia_arch* arch;
  occcalc::launch_config launch;
#ifdef OCCCALC_BENCH_WITH_HEADER
  cudaOccDeviceProp props;
  cudaOccFuncAttributes attributes;
  cudaOccDeviceState state;
#endif
};

template <typename F>
double per_second(std::size_t count, int rounds, F&& body) {
  double best = 0.0;
  for (int round = 0; round < rounds; ++round) {
    const auto start = std::chrono::steady_clock::now();
    body();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::max(best, static_cast<double>(count) / took.count());
  }
  return best;
}

}  // namespace

int main() {
  const occcalc::table tables = occcalc::load_tables(occcalc::cli::embedded_tables());
  std::vector<const occcalc::nvidia_arch*> archs;
  for (const auto& arch : tables.architectures) {
    if (arch.cc_major >= 3) archs.push_back(&arch);  // the ones the header knows
  }
  std::mt19937_64 rng(42);
  constexpr std::size_t count = 1'000'000;
  std::vector<config> stream(count);
  for (auto& c : stream) {
    c.arch = archs[std::uniform_int_distribution<std::size_t>(0, archs.size() - 1)(rng)];
    c.launch.threads_per_block = std::uniform_int_distribution<std::int64_t>(1, 1024)(rng);
    c.launch.registers_per_thread =
        std::uniform_int_distribution<std::int64_t>(0, c.arch->max_registers_per_thread)(rng);
    c.launch.dynamic_shared_memory_bytes = std::uniform_int_distribution<std::int64_t>(0, 65536)(rng);
#ifdef OCCCALC_BENCH_WITH_HEADER
    c.launch.barriers = 1;
    c.props = occcalc::test::device_properties(*c.arch);
    c.attributes = occcalc::test::function_attributes(*c.arch, c.launch);
    c.state = occcalc::test::device_state(c.launch);
#endif
  }

  std::int64_t sink = 0;
  const double ours = per_second(count, 5, [&] {
    for (const auto& c : stream) sink += occcalc::compute_occupancy(*c.arch, c.launch).blocks_per_sm;
  });
  std::printf("occcalc::compute_occupancy        %8.1f M evaluations/s\n", ours / 1e6);
#ifdef OCCCALC_BENCH_WITH_HEADER
  const double theirs = per_second(count, 5, [&] {
    for (const auto& c : stream) {
      cudaOccResult result{};
      cudaOccMaxActiveBlocksPerMultiprocessor(&result, &c.props, &c.attributes, &c.state,
                                              static_cast<int>(c.launch.threads_per_block),
                                              static_cast<size_t>(c.launch.dynamic_shared_memory_bytes));
      sink += result.activeBlocksPerMultiprocessor;
    }
  });
  std::printf("cudaOccMaxActiveBlocksPerMultiprocessor %8.1f M evaluations/s (occcalc is %.2fx)\n", theirs / 1e6,
              ours / theirs);
#else
  std::printf("cuda_occupancy.h not found: no comparison\n");
#endif
  return sink == 42 ? 1 : 0;  // keep the work observable
}
