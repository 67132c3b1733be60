// The checked calculator (nvidia/checked.hpp), held to the command line's
// resolution: the same refusal in the same words for every launch batch
// refuses, and the same answer for every other.
#include "catch.hpp"

#include <random>
#include <string>

#include "occcalc/nvidia/checked.hpp"
#include "occcalc/request/request.hpp"
#include "test_tables.hpp"

namespace {

/// The batch request for `launch` on `arch`: each figure as the integer a
/// batch line holds.
occcalc::request request_of(const occcalc::nvidia_arch& arch, const occcalc::launch_config& launch) {
  const auto integer = occcalc::field_value::of_integer;
  occcalc::request req;
  req.cc = arch.id;
  req.threads = integer(launch.threads_per_block);
  req.regs = integer(launch.registers_per_thread);
  req.smem = integer(launch.static_shared_memory_bytes);
  req.dyn_smem = integer(launch.dynamic_shared_memory_bytes);
  req.barriers = integer(launch.barriers);
  if (launch.carveout_percent) req.carveout = integer(*launch.carveout_percent);
  const int cache = static_cast<int>(launch.cache);
  if (cache != 0)
    req.cache = cache > 0 && cache <= 3 ? std::string(occcalc::to_string(launch.cache)) : std::to_string(cache);
  return req;
}

}  // namespace

TEST_CASE("checked: a default launch is refused, not divided by", "[checked]") {
  // compute_occupancy with 0 threads divides by 0 warps (SIGFPE); cuda_occupancy.h returns an error.
  const auto answer = occcalc::compute_occupancy_checked(occcalc::test::arch("8.0"), occcalc::launch_config{});
  REQUIRE_FALSE(answer);
  CHECK(answer.problem->keyed_text() == "threads 0 is outside [1, 2147483647]");
  occcalc::launch_config mission;
  mission.threads_per_block = 128;
  mission.registers_per_thread = 37;
  const auto ok = occcalc::compute_occupancy_checked(occcalc::test::arch("7.0"), mission);
  REQUIRE(ok);
  CHECK(ok.result->occupancy() == 0.75);
}

TEST_CASE("checked: every refusal and answer is the command line's", "[checked]") {
  const auto& tables = occcalc::test::default_tables();
  std::mt19937_64 rng(53);
  const auto pick = [&](std::initializer_list<std::int64_t> values) {
    return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
  };
  int refused = 0, answered = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto& arch =
        tables.architectures[std::uniform_int_distribution<std::size_t>(0, tables.architectures.size() - 1)(rng)];
    occcalc::launch_config l;
    l.threads_per_block = pick({1, 32, 100, 128, 128, 256, 256, 512, 1024, 0, 2048, -5, 2147483648});
    l.registers_per_thread = pick({0, 16, 37, 64, 64, 128, 168, 255, 256, 65536, -1});
    l.static_shared_memory_bytes = pick({0, 0, 0, 1024, 1024, 49152, 2147483647, -1});
    l.dynamic_shared_memory_bytes = pick({0, 0, 0, 4096, 4096, 65536, 300000, 2147483647});
    l.barriers = pick({0, 1, 1, 1, 2, 16, 17, -1});
    if (const auto c = pick({-1, -1, -1, -1, -1, -1, 0, 50, 100, 101, -7}); c != -1)
      l.carveout_percent = static_cast<int>(c);
    l.cache = static_cast<occcalc::cache_preference>(pick({0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, -1}));
    INFO(arch.id << " threads " << l.threads_per_block << " regs " << l.registers_per_thread << " smem "
                 << l.static_shared_memory_bytes << " dyn " << l.dynamic_shared_memory_bytes << " barriers "
                 << l.barriers << " cache " << static_cast<int>(l.cache));
    const auto checked = occcalc::compute_occupancy_checked(arch, l);
    try {
      const auto resolved = occcalc::resolve(tables, request_of(arch, l));
      REQUIRE(checked);
      CHECK(checked.result->blocks_per_sm == occcalc::compute_occupancy(arch, resolved.launch).blocks_per_sm);
      ++answered;
    } catch (const occcalc::input_error& e) {
      REQUIRE_FALSE(checked);
      CHECK(checked.problem->keyed_text() == e.keyed_text());
      ++refused;
    }
  }
  CHECK(answered > 3000);
  CHECK(refused > 10000);
}
