// Builds cuda_occupancy.h's inputs from an occcalc architecture and launch,
// for the differential test and the benchmark. Include <cuda_occupancy.h>
// first; the header itself comes from the installed toolkit.
#pragma once

#include <cuda_occupancy.h>

#include "occcalc/nvidia/arch.hpp"
#include "occcalc/nvidia/launch.hpp"

namespace occcalc::test {

/// cudaOccDeviceProp with the table's figures (one SM).
inline cudaOccDeviceProp device_properties(const occcalc::nvidia_arch& arch) {
  cudaOccDeviceProp props;
  props.computeMajor = arch.cc_major;
  props.computeMinor = arch.cc_minor;
  props.maxThreadsPerBlock = static_cast<int>(arch.max_threads_per_block);
  props.maxThreadsPerMultiprocessor = static_cast<int>(arch.max_threads_per_sm());
  props.regsPerBlock = static_cast<int>(arch.max_registers_per_block);
  props.regsPerMultiprocessor = static_cast<int>(arch.registers_per_sm);
  props.warpSize = static_cast<int>(arch.warp_size_threads);
  props.sharedMemPerBlock = static_cast<size_t>(arch.shared_memory_per_block_bytes);
  props.sharedMemPerMultiprocessor = static_cast<size_t>(arch.shared_memory_per_sm_bytes);
  props.numSms = 1;
  props.sharedMemPerBlockOptin =
      static_cast<size_t>(arch.shared_memory_per_block_optin_bytes.value_or(arch.shared_memory_per_block_bytes));
  props.reservedSharedMemPerBlock = static_cast<size_t>(arch.shared_memory_reserved_per_block_bytes);
  return props;
}

/// cudaOccFuncAttributes as built from cudaFuncAttributes, with the kernel
/// opted in to the dynamic shared memory it launches with.
inline cudaOccFuncAttributes function_attributes(const occcalc::nvidia_arch& arch,
                                                 const occcalc::launch_config& launch) {
  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = static_cast<int>(arch.max_threads_per_block);
  attributes.numRegs = static_cast<int>(launch.registers_per_thread);
  attributes.sharedSizeBytes = static_cast<size_t>(launch.static_shared_memory_bytes);
  attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attributes.maxDynamicSharedSizeBytes = static_cast<size_t>(launch.dynamic_shared_memory_bytes);
  attributes.numBlockBarriers = static_cast<int>(launch.barriers);
  attributes.virtualResourceCount = 0;
  return attributes;
}

/// cudaOccDeviceState with the launch's cache preference and carveout.
inline cudaOccDeviceState device_state(const occcalc::launch_config& launch) {
  constexpr cudaOccCacheConfig caches[] = {CACHE_PREFER_NONE, CACHE_PREFER_SHARED, CACHE_PREFER_L1, CACHE_PREFER_EQUAL};
  cudaOccDeviceState state;
  state.cacheConfig = caches[static_cast<int>(launch.cache)];
  state.carveoutConfig = launch.carveout_percent.value_or(SHAREDMEM_CARVEOUT_DEFAULT);
  return state;
}

}  // namespace occcalc::test
