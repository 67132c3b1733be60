// Differential test: occcalc against NVIDIA's cuda_occupancy.h.
//
// For every architecture in the default tables that the installed header
// supports, feeds both the same device properties (taken from the table) and
// the same kernel, and compares every per-resource block limit, the active
// blocks, the limiting factors and the allocated registers and shared memory.
// Prints every mismatch in full; exits 1 if there is any.
//
// The kernel attributes are those of a cudaOccFuncAttributes built from
// cudaFuncAttributes: shared-memory opt-in on, the kernel opted in to the
// dynamic shared memory it launches with, partitioned global caching off, no
// virtual resources.
//
// One documented difference is counted apart, not as a mismatch: when the
// barrier limit lowers the result below every other limit, the header still
// sets the limiting-factor bits computed before it looked at barriers (e.g.
// BLOCKS with a block limit of 32 and a result of 21). occcalc names only the
// resources whose limit equals the result, as the header's own field comment
// ("Factors that limited occupancy") says.
//
// A second one is also counted apart: the header's per-thread register check
// uses 255 for every Kepler, while the Programming Guide (and ptxas) cap 3.0
// at 63. Above the table's maximum occcalc gives the register limit 0 and
// every other figure must still agree.
#include <cuda_occupancy.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>
#include <climits>

#include "cli/compiled_tables.hpp"
#include "cuda_occupancy_bridge.hpp"
#include "occcalc/nvidia/limits.hpp"
#include "occcalc/nvidia/occupancy.hpp"
#include "stated_counts.hpp"

namespace {

using occcalc::resource;
using occcalc::test::device_properties;

struct header_answer {
  cudaOccError status = CUDA_OCC_SUCCESS;
  cudaOccResult result{};
};

header_answer ask_header(const occcalc::nvidia_arch& arch, const cudaOccDeviceProp& props,
                         const occcalc::launch_config& launch) {
  const cudaOccFuncAttributes attributes = occcalc::test::function_attributes(arch, launch);
  const cudaOccDeviceState state = occcalc::test::device_state(launch);
  header_answer answer;
  answer.status = cudaOccMaxActiveBlocksPerMultiprocessor(&answer.result, &props, &attributes, &state,
                                                          static_cast<int>(launch.threads_per_block),
                                                          static_cast<size_t>(launch.dynamic_shared_memory_bytes));
  return answer;
}

long long header_limit(const cudaOccResult& r, resource which) {
  switch (which) {
    case resource::warps: return r.blockLimitWarps;
    case resource::registers: return r.blockLimitRegs;
    case resource::shared_memory: return r.blockLimitSharedMem;
    case resource::blocks: return r.blockLimitBlocks;
    case resource::barriers: return r.blockLimitBarriers;
  }
  return -1;
}

unsigned header_bit(resource which) {
  switch (which) {
    case resource::warps: return OCC_LIMIT_WARPS;
    case resource::registers: return OCC_LIMIT_REGISTERS;
    case resource::shared_memory: return OCC_LIMIT_SHARED_MEMORY;
    case resource::blocks: return OCC_LIMIT_BLOCKS;
    case resource::barriers: return OCC_LIMIT_BARRIERS;
  }
  return 0;
}

struct tally {
  long long checked = 0;
  long long mismatches = 0;
  long long stale_limiter_bits = 0;
  long long above_register_maximum = 0;
  long long limit_boundaries = 0;
};

std::string describe(const occcalc::nvidia_arch& arch, const occcalc::launch_config& l) {
  return arch.id + " threads=" + std::to_string(l.threads_per_block) +
         " regs=" + std::to_string(l.registers_per_thread) + " smem=" + std::to_string(l.static_shared_memory_bytes) +
         " dyn_smem=" + std::to_string(l.dynamic_shared_memory_bytes) +
         " carveout=" + (l.carveout_percent ? std::to_string(*l.carveout_percent) : std::string("default")) +
         " cache=" + std::to_string(static_cast<int>(l.cache)) + " barriers=" + std::to_string(l.barriers);
}

/// Compares occcalc's answer for `launch` to the header's.
void compare(const occcalc::nvidia_arch& arch, const cudaOccDeviceProp& props, const occcalc::launch_config& launch,
             tally& t) {
  ++t.checked;
  const header_answer theirs = ask_header(arch, props, launch);
  const occcalc::occupancy_result ours = occcalc::compute_occupancy(arch, launch);
  // Above the table's per-thread maximum only the register limit (and what
  // follows from it) may differ.
  const bool above_max = launch.registers_per_thread > arch.max_registers_per_thread;
  const auto register_dependent = [&](resource which) { return above_max && which == resource::registers; };
  std::string problems;
  if (above_max && ours.limit(resource::registers).blocks != std::int64_t{0}) problems += " registers-not-0";
  if (theirs.status != CUDA_OCC_SUCCESS) {
    problems += " header-status=" + std::to_string(theirs.status);
  } else {
    const cudaOccResult& r = theirs.result;
    unsigned correct_bits = 0;
    for (const resource which : occcalc::nvidia_resources) {
      const auto& limit = ours.limit(which);
      const long long mine = limit.blocks ? *limit.blocks : INT_MAX;
      const long long header = header_limit(r, which);
      if (register_dependent(which)) continue;
      if (mine != header) {
        problems +=
            " " + std::string(occcalc::to_string(which)) + ":" + std::to_string(mine) + "!=" + std::to_string(header);
      }
      if (header == r.activeBlocksPerMultiprocessor) correct_bits |= header_bit(which);
      if (!above_max && ours.limiters.contains(which) != (header == r.activeBlocksPerMultiprocessor)) {
        problems += " limiter-" + std::string(occcalc::to_string(which));
      }
    }
    if (!above_max && ours.blocks_per_sm != r.activeBlocksPerMultiprocessor) {
      problems +=
          " blocks:" + std::to_string(ours.blocks_per_sm) + "!=" + std::to_string(r.activeBlocksPerMultiprocessor);
    }
    if (ours.registers.per_block != r.allocatedRegistersPerBlock) {
      problems += " allocated-registers:" + std::to_string(ours.registers.per_block) +
                  "!=" + std::to_string(r.allocatedRegistersPerBlock);
    }
    if (ours.shared_memory.per_block_bytes != static_cast<long long>(r.allocatedSharedMemPerBlock)) {
      problems += " allocated-smem:" + std::to_string(ours.shared_memory.per_block_bytes) +
                  "!=" + std::to_string(r.allocatedSharedMemPerBlock);
    }
    const unsigned header_bits = r.limitingFactors & ~static_cast<unsigned>(OCC_LIMIT_VIRTUAL_RESOURCES);
    if (!above_max && header_bits != correct_bits) {
      // Only the stale-bit case is expected: extra bits, with barriers alone
      // lowering the result.
      const bool stale =
          (header_bits & correct_bits) == correct_bits && correct_bits == static_cast<unsigned>(OCC_LIMIT_BARRIERS);
      if (stale) {
        ++t.stale_limiter_bits;
      } else {
        problems +=
            " limiting-factors:header=" + std::to_string(header_bits) + ",by-limits=" + std::to_string(correct_bits);
      }
    }
  }
  if (problems.empty()) {
    if (above_max) ++t.above_register_maximum;
    return;
  }
  ++t.mismatches;
  std::printf("MISMATCH %s:%s\n", describe(arch, launch).c_str(), problems.c_str());
}

bool has_cache_config(const occcalc::nvidia_arch& arch) {
  return arch.shared_memory_config_model != occcalc::shared_memory_config::fixed;
}
bool has_carveout(const occcalc::nvidia_arch& arch) {
  return arch.shared_memory_config_model == occcalc::shared_memory_config::carveout;
}

/// Register counts swept: past the header's 256, so both sides of its
/// per-thread check are held to it.
constexpr std::int64_t registers_swept = 257;

void check_arch(const occcalc::nvidia_arch& arch, tally& t, std::mt19937_64& rng) {
  const cudaOccDeviceProp props = device_properties(arch);
  occcalc::launch_config launch;

  // Every block size x every register count.
  for (std::int64_t threads = 1; threads <= 1024; ++threads) {
    for (std::int64_t regs = 0; regs <= registers_swept; ++regs) {
      launch.threads_per_block = threads;
      launch.registers_per_thread = regs;
      compare(arch, props, launch, t);
    }
  }

  // Shared memory: every 256 bytes (and just above the unit boundaries) up
  // past the opt-in maximum, static, dynamic and split, under every cache
  // preference and a spread of carveouts.
  const std::int64_t smem_top = arch.shared_memory_per_block_optin_bytes.value_or(arch.shared_memory_per_block_bytes) +
                                arch.shared_memory_reserved_per_block_bytes + 2048;
  std::vector<std::optional<int>> carveouts = {std::nullopt};
  if (has_carveout(arch)) {
    for (int percent : {0, 1, 9, 25, 33, 50, 66, 75, 99, 100}) carveouts.push_back(percent);
  }
  std::vector<occcalc::cache_preference> caches = {occcalc::cache_preference::none};
  if (has_cache_config(arch)) {
    caches.insert(caches.end(),
                  {occcalc::cache_preference::shared, occcalc::cache_preference::l1, occcalc::cache_preference::equal});
  }
  for (std::int64_t base = 0; base <= smem_top; base += 256) {
    for (std::int64_t bytes : {base, base + 1, base + 129}) {
      for (int split = 0; split < 3; ++split) {
        launch.static_shared_memory_bytes = split == 0 ? bytes : split == 1 ? 0 : bytes / 2;
        launch.dynamic_shared_memory_bytes = bytes - launch.static_shared_memory_bytes;
        for (std::int64_t threads : {32, 256, 1024}) {
          for (std::int64_t regs : {0, 40}) {
            for (const auto& carveout : carveouts) {
              for (const auto cache : caches) {
                launch.threads_per_block = threads;
                launch.registers_per_thread = regs;
                launch.carveout_percent = carveout;
                launch.cache = cache;
                compare(arch, props, launch, t);
              }
            }
          }
        }
      }
    }
  }
  launch = occcalc::launch_config{};

  // Every barrier count x every block size.
  for (std::int64_t barriers = 0; barriers <= arch.max_barriers_per_block; ++barriers) {
    for (std::int64_t threads = 1; threads <= 1024; ++threads) {
      for (std::int64_t regs : {0, 32, 128}) {
        launch.threads_per_block = threads;
        launch.registers_per_thread = regs;
        launch.barriers = barriers;
        compare(arch, props, launch, t);
      }
    }
  }

  // Random configurations across every dimension at once.
  constexpr int random_samples = 200000;
  for (int i = 0; i < random_samples; ++i) {
    launch.threads_per_block = std::uniform_int_distribution<std::int64_t>(1, 1024)(rng);
    launch.registers_per_thread = std::uniform_int_distribution<std::int64_t>(0, registers_swept)(rng);
    const std::int64_t bytes = std::uniform_int_distribution<std::int64_t>(0, smem_top)(rng);
    launch.static_shared_memory_bytes = std::uniform_int_distribution<std::int64_t>(0, bytes)(rng);
    launch.dynamic_shared_memory_bytes = bytes - launch.static_shared_memory_bytes;
    const int carveout = has_carveout(arch) ? std::uniform_int_distribution<int>(-1, 100)(rng) : -1;
    launch.carveout_percent = carveout < 0 ? std::nullopt : std::optional<int>(carveout);
    launch.cache = has_cache_config(arch)
                       ? static_cast<occcalc::cache_preference>(std::uniform_int_distribution<int>(0, 3)(rng))
                       : occcalc::cache_preference::none;
    launch.barriers = std::uniform_int_distribution<std::int64_t>(0, arch.max_barriers_per_block)(rng);
    compare(arch, props, launch, t);
  }
}

/// The limits table (`occcalc limits`) held to the header at each
/// boundary: at the most registers (dynamic shared memory) a level allows,
/// the header keeps that many blocks resident, and at one more it does not
/// (unless the most is the cap); where no count reaches the level, not even
/// none does.
void check_limits(const occcalc::nvidia_arch& arch, const cudaOccDeviceProp& props, tally& t) {
  const auto resident = [&](const occcalc::launch_config& l) {
    const header_answer a = ask_header(arch, props, l);
    return a.status == CUDA_OCC_SUCCESS ? static_cast<long long>(a.result.activeBlocksPerMultiprocessor) : -1LL;
  };
  for (std::int64_t threads : {32, 96, 128, 256, 512, 1024}) {
    for (std::int64_t regs : {0, 64}) {
      for (std::int64_t smem : {0, 2048}) {
        occcalc::launch_config launch;
        launch.threads_per_block = threads;
        launch.registers_per_thread = std::min(regs, arch.max_compiled_registers_per_thread);
        launch.static_shared_memory_bytes = smem;
        for (const auto& level : occcalc::nvidia_limits(arch, launch)) {
          const long long blocks = level.blocks_per_sm;
          std::string problems;
          occcalc::launch_config at = launch;
          const auto& most_regs = level.max_registers_per_thread;
          at.registers_per_thread = most_regs.value_or(0);
          if (most_regs ? resident(at) < blocks : resident(at) >= blocks) problems += " regs-at-most";
          at.registers_per_thread = most_regs.value_or(0) + 1;
          if (most_regs && *most_regs < arch.max_compiled_registers_per_thread && resident(at) >= blocks) {
            problems += " regs-one-more";
          }
          at = launch;
          const auto& most_bytes = level.max_dynamic_shared_memory_bytes;
          at.dynamic_shared_memory_bytes = most_bytes.value_or(0);
          if (most_bytes ? resident(at) < blocks : resident(at) >= blocks) problems += " smem-at-most";
          at.dynamic_shared_memory_bytes = most_bytes.value_or(0) + 1;
          if (most_bytes && *most_bytes < occcalc::max_dynamic_shared_memory_bytes(arch, launch) &&
              resident(at) >= blocks) {
            problems += " smem-one-more";
          }
          ++t.limit_boundaries;
          if (!problems.empty()) {
            ++t.mismatches;
            std::printf("LIMITS MISMATCH %s level %lld:%s\n", describe(arch, launch).c_str(), blocks, problems.c_str());
          }
        }
      }
    }
  }
}

}  // namespace

int main() {
  const occcalc::table tables = occcalc::cli::compiled_tables();
  std::mt19937_64 rng(20261122);
  tally total;
  std::vector<std::string> unsupported;
  for (const auto& arch : tables.architectures) {
    // Ask the header whether it knows this compute capability at all.
    const cudaOccDeviceProp props = device_properties(arch);
    occcalc::launch_config probe;
    probe.threads_per_block = 32;
    if (ask_header(arch, props, probe).status == CUDA_OCC_ERROR_UNKNOWN_DEVICE) {
      unsupported.push_back(arch.id);
      continue;
    }
    tally t;
    check_arch(arch, t, rng);
    check_limits(arch, props, t);
    std::printf(
        "%-7s %10lld configurations, %lld mismatches; apart: %lld stale limiter bits, %lld above the "
        "register maximum\n",
        arch.id.c_str(), t.checked, t.mismatches, t.stale_limiter_bits, t.above_register_maximum);
    total.checked += t.checked;
    total.mismatches += t.mismatches;
    total.stale_limiter_bits += t.stale_limiter_bits;
    total.above_register_maximum += t.above_register_maximum;
    total.limit_boundaries += t.limit_boundaries;
  }
  std::string skipped;
  for (const auto& id : unsupported) skipped += " " + id;
  std::printf("not in cuda_occupancy.h (CUDA_OCC_ERROR_UNKNOWN_DEVICE):%s\n", skipped.c_str());
  std::printf(
      "total: %lld configurations and %lld limits-table levels, %lld mismatches; apart: %lld stale limiter bits, "
      "%lld above the register maximum\n",
      total.checked, total.limit_boundaries, total.mismatches, total.stale_limiter_bits, total.above_register_maximum);
  // docs/correctness.md states this run's counts.
  const bool stated = occcalc::test::states("docs/correctness.md",
                                            "**" + occcalc::test::with_commas(total.checked) + " configurations and " +
                                                occcalc::test::with_commas(total.limit_boundaries) +
                                                " limits-table levels, 0 mismatches.**");
  return total.mismatches == 0 && stated ? 0 : 1;
}
