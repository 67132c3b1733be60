// Differential test of the suggestions against NVIDIA's cuda_occupancy.h:
// cudaOccMaxPotentialOccupancyBlockSize(VariableSMem) against
// occcalc::max_potential_block_size, and cudaOccAvailableDynamicSMemPerBlock
// against occcalc::available_dynamic_shared_memory's cuda_bytes, for every
// architecture the header knows and a wide spread of kernels. Prints every
// mismatch in full; exits 1 if there is any.
//
// It also counts, without failing, the cases where the header's dynamic
// shared memory answer leaves fewer blocks resident than asked (it does not
// count the bytes reserved per block), and checks that occcalc's own answer
// (resident_bytes) always keeps them resident and is the largest that does.
// As in the main differential test, kernels above the table's register
// maximum (3.0 caps at 63; the header checks 255) are not compared.
#include <cuda_occupancy.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/compiled_tables.hpp"
#include "cuda_occupancy_bridge.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "stated_counts.hpp"

namespace {

struct tally {
  long long block_size_checked = 0;
  long long block_size_mismatches = 0;
  long long smem_checked = 0;
  long long smem_mismatches = 0;
  long long header_answer_short = 0;
  long long resident_wrong = 0;
};

std::string describe(const occcalc::nvidia_arch& arch, const occcalc::launch_config& l) {
  return arch.id + " regs=" + std::to_string(l.registers_per_thread) +
         " smem=" + std::to_string(l.static_shared_memory_bytes) +
         " carveout=" + (l.carveout_percent ? std::to_string(*l.carveout_percent) : std::string("default")) +
         " cache=" + std::to_string(static_cast<int>(l.cache)) + " barriers=" + std::to_string(l.barriers);
}

void check_block_size(const occcalc::nvidia_arch& arch, const cudaOccDeviceProp& props,
                      const occcalc::launch_config& launch, const occcalc::dynamic_shared_memory_rule& rule,
                      std::int64_t max_threads, tally& t) {
  occcalc::launch_config widest = launch;
  const std::int64_t limit =
      max_threads > 0 ? std::min(max_threads, arch.max_threads_per_block) : arch.max_threads_per_block;
  widest.dynamic_shared_memory_bytes = rule.at(limit);
  cudaOccFuncAttributes attributes = occcalc::test::function_attributes(arch, widest);
  attributes.maxThreadsPerBlock = static_cast<int>(max_threads > 0 ? max_threads : arch.max_threads_per_block);
  const cudaOccDeviceState state = occcalc::test::device_state(launch);
  int min_grid = 0;
  int block = 0;
  const auto dynamic = [&](int threads) { return static_cast<size_t>(rule.at(threads)); };
  const cudaOccError status =
      cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(&min_grid, &block, &props, &attributes, &state, dynamic);
  const auto ours = occcalc::max_potential_block_size(arch, launch, rule, max_threads);
  ++t.block_size_checked;
  if (status != CUDA_OCC_SUCCESS || block != ours.block_size || min_grid != ours.blocks_per_sm) {
    ++t.block_size_mismatches;
    std::printf(
        "MISMATCH block size %s dyn=%lld+%lld/thread max_threads=%lld: header status %d block %d blocks %d; "
        "occcalc block %lld blocks %lld\n",
        describe(arch, launch).c_str(), static_cast<long long>(rule.bytes),
        static_cast<long long>(rule.bytes_per_thread), static_cast<long long>(max_threads), static_cast<int>(status),
        block, min_grid, static_cast<long long>(ours.block_size), static_cast<long long>(ours.blocks_per_sm));
  }
}

void check_dynamic_smem(const occcalc::nvidia_arch& arch, const cudaOccDeviceProp& props, occcalc::launch_config launch,
                        std::int64_t blocks, tally& t) {
  launch.dynamic_shared_memory_bytes = occcalc::max_dynamic_shared_memory_bytes(arch, launch);
  if (launch.dynamic_shared_memory_bytes < 0) return;  // the static part alone is too large
  const cudaOccFuncAttributes attributes = occcalc::test::function_attributes(arch, launch);
  const cudaOccDeviceState state = occcalc::test::device_state(launch);
  size_t bytes = 0;
  const cudaOccError status = cudaOccAvailableDynamicSMemPerBlock(
      &bytes, &props, &attributes, &state, static_cast<int>(blocks), static_cast<int>(launch.threads_per_block));
  const auto ours = occcalc::available_dynamic_shared_memory(arch, launch, blocks);
  ++t.smem_checked;
  const bool header_answers = status == CUDA_OCC_SUCCESS;
  if (header_answers != ours.cuda_bytes.has_value() ||
      (header_answers && static_cast<long long>(bytes) != *ours.cuda_bytes)) {
    ++t.smem_mismatches;
    std::printf("MISMATCH dynamic smem %s threads=%lld blocks=%lld: header status %d bytes %zu; occcalc %s\n",
                describe(arch, launch).c_str(), static_cast<long long>(launch.threads_per_block),
                static_cast<long long>(blocks), static_cast<int>(status), bytes,
                ours.cuda_bytes ? std::to_string(*ours.cuda_bytes).c_str() : "none");
    return;
  }
  if (!ours.cuda_bytes) return;
  // The header's answer, and occcalc's own, against the calculator.
  launch.dynamic_shared_memory_bytes = *ours.cuda_bytes;
  if (occcalc::compute_occupancy(arch, launch).blocks_per_sm < blocks) ++t.header_answer_short;
  bool resident_ok = ours.resident_bytes.has_value();
  if (resident_ok) {
    launch.dynamic_shared_memory_bytes = *ours.resident_bytes;
    resident_ok = occcalc::compute_occupancy(arch, launch).blocks_per_sm >= blocks;
    launch.dynamic_shared_memory_bytes = *ours.resident_bytes + 1;
    resident_ok =
        resident_ok && (launch.dynamic_shared_memory_bytes > occcalc::max_dynamic_shared_memory_bytes(arch, launch) ||
                        occcalc::compute_occupancy(arch, launch).blocks_per_sm < blocks);
  }
  if (!resident_ok) {
    ++t.resident_wrong;
    std::printf("WRONG resident answer %s threads=%lld blocks=%lld\n", describe(arch, launch).c_str(),
                static_cast<long long>(launch.threads_per_block), static_cast<long long>(blocks));
  }
}

void check_arch(const occcalc::nvidia_arch& arch, tally& t) {
  const cudaOccDeviceProp props = occcalc::test::device_properties(arch);
  std::vector<std::optional<int>> carveouts = {std::nullopt};
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::carveout) {
    for (int percent : {0, 10, 25, 50, 75, 100}) carveouts.push_back(percent);
  }
  std::vector<occcalc::cache_preference> caches = {occcalc::cache_preference::none};
  if (arch.shared_memory_config_model == occcalc::shared_memory_config::cache_config) {
    caches.insert(caches.end(),
                  {occcalc::cache_preference::shared, occcalc::cache_preference::l1, occcalc::cache_preference::equal});
  }
  occcalc::launch_config launch;
  for (std::int64_t regs : {0, 16, 32, 37, 40, 63, 64, 72, 96, 128, 168, 200, 255}) {
    if (regs > arch.max_registers_per_thread) continue;
    for (std::int64_t smem : {0, 1024, 12288, 40000}) {
      for (std::int64_t barriers : {1, 4, 16}) {
        if (barriers > arch.max_barriers_per_block) continue;
        for (const auto& carveout : carveouts) {
          for (const auto cache : caches) {
            launch.registers_per_thread = regs;
            launch.static_shared_memory_bytes = smem;
            launch.barriers = barriers;
            launch.carveout_percent = carveout;
            launch.cache = cache;
            for (const occcalc::dynamic_shared_memory_rule rule : {occcalc::dynamic_shared_memory_rule{0, 0},
                                                                   {4096, 0},
                                                                   {20000, 0},
                                                                   {49152, 0},
                                                                   {0, 4},
                                                                   {0, 16},
                                                                   {1024, 64},
                                                                   {0, 200}}) {
              for (std::int64_t max_threads : {0, 96, 200, 512, 1000}) {
                check_block_size(arch, props, launch, rule, max_threads, t);
              }
            }
            for (std::int64_t threads : {32, 96, 128, 256, 1000, 1024}) {
              launch.threads_per_block = threads;
              for (std::int64_t blocks : {1, 2, 3, 4, 7, 8, 16, 32, 64})
                check_dynamic_smem(arch, props, launch, blocks, t);
            }
          }
        }
      }
    }
  }
}

}  // namespace

int main() {
  const occcalc::table tables = occcalc::cli::compiled_tables();
  tally total;
  std::string skipped;
  for (const auto& arch : tables.architectures) {
    const cudaOccDeviceProp props = occcalc::test::device_properties(arch);
    occcalc::launch_config probe;
    probe.threads_per_block = 32;
    const cudaOccFuncAttributes attributes = occcalc::test::function_attributes(arch, probe);
    const cudaOccDeviceState state = occcalc::test::device_state(probe);
    cudaOccResult result;
    if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state, 32, 0) ==
        CUDA_OCC_ERROR_UNKNOWN_DEVICE) {
      skipped += " " + arch.id;
      continue;
    }
    tally t;
    check_arch(arch, t);
    std::printf(
        "%-7s block size: %lld kernels, %lld mismatches; dynamic smem: %lld questions, %lld mismatches, "
        "%lld header answers short of the blocks, %lld wrong resident answers\n",
        arch.id.c_str(), t.block_size_checked, t.block_size_mismatches, t.smem_checked, t.smem_mismatches,
        t.header_answer_short, t.resident_wrong);
    total.block_size_checked += t.block_size_checked;
    total.block_size_mismatches += t.block_size_mismatches;
    total.smem_checked += t.smem_checked;
    total.smem_mismatches += t.smem_mismatches;
    total.header_answer_short += t.header_answer_short;
    total.resident_wrong += t.resident_wrong;
  }
  std::printf("not in cuda_occupancy.h:%s\n", skipped.c_str());
  std::printf(
      "total: block size %lld kernels, %lld mismatches; dynamic smem %lld questions, %lld mismatches; apart: "
      "%lld header answers that leave fewer blocks resident; %lld wrong resident answers\n",
      total.block_size_checked, total.block_size_mismatches, total.smem_checked, total.smem_mismatches,
      total.header_answer_short, total.resident_wrong);
  // docs/correctness.md states this run's counts.
  const bool stated = occcalc::test::states(
      "docs/correctness.md", "**" + occcalc::test::with_commas(total.block_size_checked) + " block-size searches and " +
                                 occcalc::test::with_commas(total.smem_checked) +
                                 " dynamic shared memory questions, 0 mismatches**");
  return total.block_size_mismatches + total.smem_mismatches + total.resident_wrong == 0 && stated ? 0 : 1;
}
