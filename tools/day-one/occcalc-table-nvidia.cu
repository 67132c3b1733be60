// Prints a --table file for the NVIDIA GPU it runs on, from the CUDA runtime's
// own properties (tools/day-one/README.md):
//   nvcc -std=c++17 -o occcalc-table-nvidia occcalc-table-nvidia.cu
//   ./occcalc-table-nvidia [--device N] [--name NAME] [--with-architecture] > mine.json
//   occcalc --table mine.json --gpu NAME --threads 256 --regs 64
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>

#include "table_entry.hpp"

namespace {

__global__ void one_warp() {}

int fail(const char* what, cudaError_t status) {
  std::fprintf(stderr, "occcalc-table-nvidia: error: %s: %s\n", what, cudaGetErrorString(status));
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  occcalc::day_one::device_options options;
  bool with_architecture = false;
  for (int i = 1; i < argc; ++i) {
    const auto read = occcalc::day_one::read_device_option(argc, argv, i, options);
    if (read == occcalc::day_one::option_read::taken) continue;
    if (read == occcalc::day_one::option_read::not_shared && std::string(argv[i]) == "--with-architecture") {
      with_architecture = true;
    } else {
      std::fprintf(stderr, "usage: %s [--device N] [--name NAME] [--with-architecture]\n", argv[0]);
      return 2;
    }
  }
  const int device = options.device;
  const std::string& name = options.name;
  cudaDeviceProp prop{};
  if (const cudaError_t status = cudaGetDeviceProperties(&prop, device); status != cudaSuccess) {
    return fail("cudaGetDeviceProperties", status);
  }
  cudaSetDevice(device);
  occcalc::day_one::nvidia_device d;
  d.name = name.empty() ? prop.name : name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.warp_size_threads = prop.warpSize;
  d.max_threads_per_block = prop.maxThreadsPerBlock;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  d.registers_per_sm = prop.regsPerMultiprocessor;
  d.registers_per_block = prop.regsPerBlock;
  d.shared_memory_per_sm_bytes = static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor);
  d.shared_memory_per_block_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlock);
  d.shared_memory_per_block_optin_bytes = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  d.shared_memory_reserved_per_block_bytes = static_cast<std::int64_t>(prop.reservedSharedMemPerBlock);
  cudaDriverGetVersion(&d.driver_version);
  cudaRuntimeGetVersion(&d.runtime_version);

  cudaError_t status = cudaFuncSetAttribute(one_warp, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(prop.sharedMemPerBlockOptin));
  if (status != cudaSuccess) return fail("cudaFuncSetAttribute(MaxDynamicSharedMemorySize)", status);
  cudaError_t query = cudaSuccess;
  d.shared_memory_allocation_unit_bytes =
      occcalc::day_one::shared_memory_unit_from_occupancy(d, [&](std::int64_t bytes) -> std::int64_t {
        int blocks = 0;
        const cudaError_t s = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, one_warp, 32, bytes);
        if (s != cudaSuccess) query = s;
        return blocks;
      });
  if (query != cudaSuccess) return fail("cudaOccupancyMaxActiveBlocksPerMultiprocessor", query);
  if (with_architecture && d.shared_memory_allocation_unit_bytes == 0) {
    std::fprintf(stderr,
                 "occcalc-table-nvidia: error: no shared memory allocation unit from 8 B to 4 KiB predicts what "
                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor answers; the architecture entry is not written\n");
    return 2;
  }

  int cluster_launch = 0;
  cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device);
  if (cluster_launch != 0) {
    status = cudaFuncSetAttribute(one_warp, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    if (status != cudaSuccess) return fail("cudaFuncSetAttribute(NonPortableClusterSizeAllowed)", status);
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(1024);
    config.blockDim = dim3(32);
    int largest = 0;
    status = cudaOccupancyMaxPotentialClusterSize(&largest, one_warp, &config);
    if (status != cudaSuccess) return fail("cudaOccupancyMaxPotentialClusterSize", status);
    d.max_cluster_size = largest;
  }
  occcalc::day_one::write_nvidia_table(std::cout, d, with_architecture, occcalc::day_one::today());
  return 0;
}
