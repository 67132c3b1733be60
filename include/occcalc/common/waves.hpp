/// \file common/waves.hpp
/// Waves of a grid on a whole GPU: how many times the SMs fill with resident
/// blocks, and how full the last wave is (the tail effect).
#pragma once

#include <cstdint>

namespace occcalc {

/// A grid's waves, as Nsight Compute's Launch Statistics define them.
struct waves {
  /// Blocks resident on the whole GPU at once: SMs x blocks per SM.
  std::int64_t blocks_per_wave = 0;
  /// grid / blocks_per_wave (Nsight Compute's "Waves Per SM").
  double waves_per_sm = 0.0;
  /// Waves in which every SM is full.
  std::int64_t full_waves = 0;
  /// Blocks of the last wave / blocks_per_wave, in (0, 1]; 1 when the grid
  /// fills whole waves.
  double tail_utilization = 0.0;
  /// The nearest grid sizes that fill whole waves, below (0 when the grid is
  /// smaller than one wave) and above (the grid itself when it fills whole
  /// waves).
  std::int64_t whole_waves_below = 0;
  std::int64_t whole_waves_above = 0;
};

/// The waves of `grid_blocks` blocks, `blocks_per_wave` of them resident at
/// once on the whole GPU. All zero when no block is resident.
constexpr waves compute_waves_of(std::int64_t grid_blocks, std::int64_t blocks_per_wave) noexcept {
  waves w;
  w.blocks_per_wave = blocks_per_wave;
  if (w.blocks_per_wave <= 0 || grid_blocks <= 0) return w;
  w.waves_per_sm = static_cast<double>(grid_blocks) / static_cast<double>(w.blocks_per_wave);
  w.full_waves = grid_blocks / w.blocks_per_wave;
  const std::int64_t last = grid_blocks % w.blocks_per_wave;
  w.tail_utilization = last == 0 ? 1.0 : static_cast<double>(last) / static_cast<double>(w.blocks_per_wave);
  w.whole_waves_below = w.full_waves * w.blocks_per_wave;
  w.whole_waves_above = last == 0 ? grid_blocks : (w.full_waves + 1) * w.blocks_per_wave;
  return w;
}

/// The waves of `grid_blocks` blocks on `sm_count` SMs holding
/// `blocks_per_sm` each. All zero when no block is resident.
constexpr waves compute_waves(std::int64_t grid_blocks, std::int64_t sm_count, std::int64_t blocks_per_sm) noexcept {
  return compute_waves_of(grid_blocks, sm_count * blocks_per_sm);
}

}  // namespace occcalc
