/// \file nvidia/cluster_shape.hpp
/// A thread block cluster's shape, as a launch gives it.
#pragma once

#include <cstdint>
#include <string>

#include "occcalc/common/host_device.hpp"

namespace occcalc {

/// A cluster's shape: blocks along x, y and z.
struct cluster_shape {
  std::int64_t x = 1;
  std::int64_t y = 1;
  std::int64_t z = 1;

  /// Blocks in a cluster; only the count matters to occupancy.
  OCCCALC_HOST_DEVICE constexpr std::int64_t blocks() const noexcept { return x * y * z; }
};

/// A cluster's shape as people write it: `2x2x1`.
inline std::string to_string(const cluster_shape& s) {
  return std::to_string(s.x) + "x" + std::to_string(s.y) + "x" + std::to_string(s.z);
}

}  // namespace occcalc
