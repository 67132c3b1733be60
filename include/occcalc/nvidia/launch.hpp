/// \file nvidia/launch.hpp
/// A kernel's launch configuration: what the calculator is asked about.
#pragma once

#include <cstdint>

#include "occcalc/common/host_device.hpp"
#include "occcalc/common/optional_integer.hpp"
#include "occcalc/nvidia/arch_figures.hpp"

namespace occcalc {

/// `cudaSharedmemCarveoutMaxL1`: the smallest shared memory configuration.
inline constexpr int carveout_max_l1_percent = 0;
/// `cudaSharedmemCarveoutMaxShared`: the largest shared memory configuration.
inline constexpr int carveout_max_shared_percent = 100;
/// The carveout that `cudaFuncCachePreferEqual` stands for on Volta and later.
inline constexpr int carveout_equal_percent = 50;

/// One kernel launch, as `cudaFuncAttributes` and the launch parameters
/// describe it. Like `cudaOccFuncAttributes` built from `cudaFuncAttributes`,
/// the kernel is taken to have opted in to the dynamic shared memory it asks
/// for, up to the architecture's opt-in maximum.
struct launch_config {
  /// Threads per block (>= 1).
  std::int64_t threads_per_block = 0;
  /// Registers per thread, as ptxas reports them (>= 0).
  std::int64_t registers_per_thread = 0;
  /// Static shared memory per block, in bytes, without the driver's reserve.
  std::int64_t static_shared_memory_bytes = 0;
  /// Dynamic shared memory per block, in bytes (the launch's third
  /// parameter).
  std::int64_t dynamic_shared_memory_bytes = 0;
  /// Preferred shared-memory carveout in percent of the maximum (0-100), as
  /// `cudaFuncAttributePreferredSharedMemoryCarveout`; empty for the default.
  optional_integer carveout_percent;
  /// `cudaFuncCache` preference; on carveout architectures it stands for a
  /// carveout when `carveout_percent` is empty.
  cache_preference cache = cache_preference::none;
  /// Block barriers the kernel uses (0 or more); 1 for `__syncthreads`.
  std::int64_t barriers = 1;

  /// Static plus dynamic shared memory, in bytes.
  OCCCALC_HOST_DEVICE constexpr std::int64_t requested_shared_memory_bytes() const noexcept {
    return static_shared_memory_bytes + dynamic_shared_memory_bytes;
  }
};

}  // namespace occcalc
