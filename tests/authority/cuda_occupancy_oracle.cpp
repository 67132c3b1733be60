// cuda_occupancy.h's answers, one line per question on standard input, for
// tests in other languages (tests/python/test_kernel.py holds the Python
// module's cuda.core twin to it). Each line: a call, a compute capability
// (`9.0`), registers per thread, static shared memory, then the call's own:
//   blocks CC REGS SMEM THREADS DYN           cudaOccMaxActiveBlocksPerMultiprocessor
//   potential CC REGS SMEM DYN LIMIT [BOUNDS] cudaOccMaxPotentialOccupancyBlockSize (one SM)
//   per_thread CC REGS SMEM BYTES LIMIT [BOUNDS] ...VariableSMem, BYTES per thread of the block
// BOUNDS: the kernel's maxThreadsPerBlock attribute (its __launch_bounds__);
// a LIMIT above 0 lowers it further, as the runtime's
// cudaOccupancyMaxPotentialBlockSize does with its blockSizeLimit.
//   available CC REGS SMEM BLOCKS THREADS     cudaOccAvailableDynamicSMemPerBlock
// Answers: `blocks`, `min_grid block_size`, or `error` where the header
// returns an error. The kernel is opted in to the most dynamic shared memory
// it may use; the architecture is the table's.
#include <algorithm>
#include <cuda_occupancy.h>

#include <iostream>
#include <sstream>
#include <string>

#include "authority/cuda_occupancy_bridge.hpp"
#include "cli/compiled_tables.hpp"
#include "occcalc/nvidia/suggest.hpp"
#include "occcalc/request/lookup.hpp"

namespace {

struct per_thread_bytes {
  long long bytes;
  size_t operator()(int threads) const { return static_cast<size_t>(bytes * threads); }
};

}  // namespace

int main() {
  const occcalc::table tables = occcalc::cli::compiled_tables();
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string call, cc;
    long long regs = 0, smem = 0, a = 0, b = 0, bounds = 0;
    in >> call >> cc >> regs >> smem >> a >> b >> bounds;
    const auto& arch = occcalc::require_arch(tables, "cc", cc);
    occcalc::launch_config launch;
    launch.registers_per_thread = regs;
    launch.static_shared_memory_bytes = smem;
    launch.dynamic_shared_memory_bytes = occcalc::max_dynamic_shared_memory_bytes(arch, launch);
    launch.barriers = 0;
    cudaOccDeviceProp props = occcalc::test::device_properties(arch);
    cudaOccFuncAttributes attributes = occcalc::test::function_attributes(arch, launch);
    const cudaOccDeviceState state = occcalc::test::device_state(launch);
    if (call == "blocks") {
      cudaOccResult result;
      const auto status = cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state,
                                                                  static_cast<int>(a), static_cast<size_t>(b));
      std::cout << (status == CUDA_OCC_SUCCESS ? std::to_string(result.activeBlocksPerMultiprocessor) : "error");
    } else if (call == "potential" || call == "per_thread") {
      if (bounds > 0) attributes.maxThreadsPerBlock = static_cast<int>(bounds);
      if (b > 0) attributes.maxThreadsPerBlock = std::min(attributes.maxThreadsPerBlock, static_cast<int>(b));
      int min_grid = 0, block = 0;
      const auto status = call == "potential"
                              ? cudaOccMaxPotentialOccupancyBlockSize(&min_grid, &block, &props, &attributes, &state,
                                                                      nullptr, static_cast<size_t>(a))
                              : cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(
                                    &min_grid, &block, &props, &attributes, &state, per_thread_bytes{a});
      std::cout << (status == CUDA_OCC_SUCCESS ? std::to_string(min_grid) + " " + std::to_string(block) : "error");
    } else if (call == "available") {
      size_t bytes = 0;
      const auto status = cudaOccAvailableDynamicSMemPerBlock(&bytes, &props, &attributes, &state, static_cast<int>(a),
                                                              static_cast<int>(b));
      std::cout << (status == CUDA_OCC_SUCCESS ? std::to_string(bytes) : "error");
    } else {
      std::cout << "error";
    }
    std::cout << '\n';
  }
  return 0;
}
