// The floor for one query as a process: a static C++ program that fills
// cuda_occupancy.h's structs for the README's first example (sm_70, 128
// threads, 37 registers) from constants, asks the header once and prints the
// answer. No tables, no parsing, no validation: what any occupancy tool must
// at least pay to start, compute and print.
#include <cstdio>

#include "cuda_occupancy.h"

int main() {
  cudaOccDeviceProp props;
  props.computeMajor = 7;
  props.computeMinor = 0;
  props.maxThreadsPerBlock = 1024;
  props.maxThreadsPerMultiprocessor = 2048;
  props.regsPerBlock = 65536;
  props.regsPerMultiprocessor = 65536;
  props.warpSize = 32;
  props.sharedMemPerBlock = 49152;
  props.sharedMemPerMultiprocessor = 98304;
  props.numSms = 80;
  props.sharedMemPerBlockOptin = 98304;
  props.reservedSharedMemPerBlock = 0;
  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = 1024;
  attributes.numRegs = 37;
  attributes.sharedSizeBytes = 0;
  attributes.partitionedGCConfig = PARTITIONED_GC_OFF;
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_DEFAULT;
  attributes.maxDynamicSharedSizeBytes = 0;
  cudaOccDeviceState state;
  cudaOccResult result;
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&result, &props, &attributes, &state, 128, 0) != CUDA_OCC_SUCCESS) {
    return 1;
  }
  const int warps = result.activeBlocksPerMultiprocessor * 4;
  std::printf("sm_70: %d blocks per SM, %d of 64 warps, %.1f%%\n", result.activeBlocksPerMultiprocessor, warps,
              100.0 * warps / 64);
  return 0;
}
