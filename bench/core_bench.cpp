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

/// occcalc's inputs for one configuration: the architecture, as the
/// header's device properties, filled once and shared by pointer.
struct config {
  const occcalc::nvidia_arch* arch;
  occcalc::launch_config launch;
};

#ifdef OCCCALC_BENCH_WITH_HEADER
/// The header's inputs for the same configuration: the device properties
/// are per architecture, shared by pointer as occcalc's arch is.
struct header_config {
  const cudaOccDeviceProp* props;
  cudaOccFuncAttributes attributes;
  cudaOccDeviceState state;
  int threads_per_block;
  std::size_t dynamic_shared_memory_bytes;
};
#endif

// Each side is called out of line and returns its whole result, as a
// program gets it from another translation unit: inlined, either loop's
// speed depends on what the compiler can drop around the one figure the
// loop keeps.
[[gnu::noinline]] occcalc::occupancy_result ours_once(const config& c) {
  return occcalc::compute_occupancy(*c.arch, c.launch);
}

#ifdef OCCCALC_BENCH_WITH_HEADER
[[gnu::noinline]] cudaOccResult theirs_once(const header_config& c) {
  cudaOccResult result{};
  cudaOccMaxActiveBlocksPerMultiprocessor(&result, c.props, &c.attributes, &c.state, c.threads_per_block,
                                          c.dynamic_shared_memory_bytes);
  return result;
}
#endif

/// The time of one pass over `count` configurations, in seconds.
template <typename F>
double seconds(F&& body) {
  const auto start = std::chrono::steady_clock::now();
  body();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  return took.count();
}

/// Rounds of every side, taken in turn, so that a slower stretch of the
/// machine weighs on all of them; each side's best pass.
constexpr int rounds = 21;

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
#ifdef OCCCALC_BENCH_WITH_HEADER
  std::vector<cudaOccDeviceProp> props;
  for (const auto* arch : archs) props.push_back(occcalc::test::device_properties(*arch));
  std::vector<header_config> header_stream(count);
#endif
  for (std::size_t i = 0; i < count; ++i) {
    auto& c = stream[i];
    const std::size_t a = std::uniform_int_distribution<std::size_t>(0, archs.size() - 1)(rng);
    c.arch = archs[a];
    c.launch.threads_per_block = std::uniform_int_distribution<std::int64_t>(1, 1024)(rng);
    c.launch.registers_per_thread =
        std::uniform_int_distribution<std::int64_t>(0, archs[a]->max_registers_per_thread)(rng);
    c.launch.dynamic_shared_memory_bytes = std::uniform_int_distribution<std::int64_t>(0, 65536)(rng);
#ifdef OCCCALC_BENCH_WITH_HEADER
    c.launch.barriers = 1;
    header_stream[i] = {&props[a], occcalc::test::function_attributes(*archs[a], c.launch),
                        occcalc::test::device_state(c.launch), static_cast<int>(c.launch.threads_per_block),
                        static_cast<std::size_t>(c.launch.dynamic_shared_memory_bytes)};
#endif
  }

  std::int64_t sink = 0;
  // The floor: reading each configuration's inputs and nothing else.
  const auto floor_pass = [&] {
    for (const auto& c : stream)
      sink += c.launch.threads_per_block + c.launch.registers_per_thread + c.arch->warp_size_threads;
  };
  const auto ours_pass = [&] {
    for (const auto& c : stream) sink += ours_once(c).blocks_per_sm;
  };
#ifdef OCCCALC_BENCH_WITH_HEADER
  const auto theirs_pass = [&] {
    for (const auto& c : header_stream) sink += theirs_once(c).activeBlocksPerMultiprocessor;
  };
#endif
  double floor = 1e9, ours = 1e9, theirs = 1e9;
  for (int round = 0; round < rounds; ++round) {
    floor = std::min(floor, seconds(floor_pass));
    ours = std::min(ours, seconds(ours_pass));
#ifdef OCCCALC_BENCH_WITH_HEADER
    theirs = std::min(theirs, seconds(theirs_pass));
#endif
  }
  const auto millions_per_second = [](double s) { return static_cast<double>(count) / s / 1e6; };
  std::printf("reading the inputs only (floor)   %8.1f M configurations/s\n", millions_per_second(floor));
  std::printf("occcalc::compute_occupancy        %8.1f M evaluations/s\n", millions_per_second(ours));
#ifdef OCCCALC_BENCH_WITH_HEADER
  std::printf("cudaOccMaxActiveBlocksPerMultiprocessor %8.1f M evaluations/s (occcalc is %.2fx)\n",
              millions_per_second(theirs), theirs / ours);
#else
  (void)theirs;
  std::printf("cuda_occupancy.h not found: no comparison\n");
#endif
  return sink == 42 ? 1 : 0;  // keep the work observable
}
